//go:build unix

package outbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/store"
)

// crashChildEnv carries "dbpath|mode|sinkport" to the child process; see
// TestCrashChild.
const crashChildEnv = "PBEM_OUTBOX_CRASH_CHILD"

// TestKillDuringSendingThenRestart runs a child process (this test binary,
// running TestCrashChild) that queues a report and is killed with SIGKILL
// while the report is in sending:
//
//   - "marked": after marking it sending, before connecting;
//   - "sending": after the server has read the whole message, while the
//     child waits for the reply to the final dot.
//
// The parent then opens the store, finds the row in sending, and runs an
// outbox: the message is delivered exactly once more, with the stored
// bytes, and marked sent.
func TestKillDuringSendingThenRestart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	for _, mode := range []string{"marked", "sending"} {
		t.Run(mode, func(t *testing.T) {
			sink := newSink(t, sinkOptions{})
			hold := make(chan struct{})
			if mode == "sending" {
				sink.fail(fault{at: StageResult, drop: true, hold: hold})
			}
			path := filepath.Join(t.TempDir(), "pbem.db")
			c := killtest.Start(t, "TestCrashChild", killtest.Options{},
				crashChildEnv+"="+path+"|"+mode+"|"+strconv.Itoa(sink.port))
			if mode == "sending" {
				select {
				case <-sink.arrived:
				case <-time.After(20 * time.Second):
					c.Kill()
					t.Fatalf("the child never got to %s:\n%s", mode, c.Stderr())
				}
			} else if !c.WaitLine("marked", 20*time.Second) {
				c.Kill()
				t.Fatalf("the child never got to %s:\n%s", mode, c.Stderr())
			}
			if !c.Kill() {
				t.Fatalf("the child ended by itself before the kill:\n%s", c.Stderr())
			}
			close(hold)
			before := len(sink.got())

			db, err := store.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			left, err := db.RecoverSending(ctx)
			if err != nil || len(left) != 1 {
				t.Fatalf("after the kill: %d rows in sending (%v), want 1", len(left), err)
			}
			row := left[0]

			out := New(db, &Options{
				Server:       Server{Host: "127.0.0.1", Port: sink.port, Security: config.SecurityNone},
				PollInterval: 20 * time.Millisecond,
				Timeout:      5 * time.Second,
				Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
			})
			rctx, cancel := context.WithCancel(ctx)
			done := make(chan error)
			go func() { done <- out.Run(rctx) }()
			select {
			case <-sink.arrived:
			case <-time.After(20 * time.Second):
				t.Fatal("the message was not sent after the restart")
			}
			// Wait until the row is marked sent (the server's reply may be
			// slow on a loaded machine; cancelling before it would put the
			// row back to pending). A sent row is never sent again, so the
			// count below is final.
			deadline := time.Now().Add(20 * time.Second)
			for {
				r, err := db.OutboxMessage(ctx, row.ID)
				if err != nil {
					t.Fatal(err)
				}
				if r.State == store.OutboxSent {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the row is still %s 20s after the server took it", r.State)
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			<-done

			got := sink.got()
			if len(got) != before+1 {
				t.Fatalf("the server got %d copies after the restart, want exactly 1 (and %d before)", len(got)-before, before)
			}
			for i, d := range got {
				if !bytes.Equal(d.Data, row.Raw) {
					t.Errorf("copy %d differs from the stored bytes", i+1)
				}
				msg, err := mail.ReadMessage(bytes.NewReader(d.Data))
				if err != nil || msg.Header.Get("Message-ID") != row.MessageID {
					t.Errorf("copy %d has another Message-ID (%v)", i+1, err)
				}
			}
			t.Logf("copies the server got: %d before the kill, %d after the restart", before, len(got)-before)
			r, err := db.OutboxMessage(ctx, row.ID)
			if err != nil {
				t.Fatal(err)
			}
			if r.State != store.OutboxSent || r.Attempts != 1 {
				t.Errorf("row %s after %d attempts, want sent after 1", r.State, r.Attempts)
			}
		})
	}
}

// TestCrashChild is the child of TestKillDuringSendingThenRestart; it does
// nothing unless crashChildEnv is set. It never ends by itself: the parent
// kills it.
func TestCrashChild(t *testing.T) {
	spec := killtest.Helper(t, crashChildEnv, "TestKillDuringSendingThenRestart")
	parts := strings.SplitN(spec, "|", 3)
	path, mode := parts[0], parts[1]
	port, _ := strconv.Atoi(parts[2])
	ctx := context.Background()
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := New(db, &Options{
		Server:  Server{Host: "127.0.0.1", Port: port, Security: config.SecurityNone},
		Timeout: time.Hour,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	id, err := out.Enqueue(ctx, Message{
		Game: "syw", Turn: 12, Nation: "prussia", Kind: "report",
		From:    mail.Address{Name: "SYW Campaign", Address: "orders@pbem.localhost"},
		To:      []mail.Address{{Name: "Friedrich", Address: "fritz@example.org"}},
		Subject: "Turn 12 report for Prussia",
		Date:    t0,
		Text:    "The army of Prussia stands before Prague.\n",
		Attachments: []Attachment{{Filename: "prussia-12.pdf", ContentType: "application/pdf",
			Data: bytes.Repeat([]byte("%PDF-1.4 report "), 4096)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "marked":
		due, err := db.DueMessages(ctx, t0, 1)
		if err != nil || len(due) != 1 || due[0].MessageID != id {
			t.Fatalf("due %v %v", due, err)
		}
		if err := db.MarkSending(ctx, due[0].ID); err != nil {
			t.Fatal(err)
		}
		fmt.Println("marked")
		time.Sleep(time.Hour)
	case "sending":
		out.Flush(ctx) // the server holds its reply until the parent kills us
		time.Sleep(time.Hour)
	}
	t.Fatalf("unknown mode %q", mode)
}
