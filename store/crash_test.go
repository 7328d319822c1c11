//go:build unix

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/killtest"
)

// crashChildEnv names the database a child process writes to; see
// TestCrashChild.
const crashChildEnv = "PBEM_STORE_CRASH_CHILD"

// TestKillDuringWritesLeavesStoreReadable runs a child process (this test
// binary, running TestCrashChild) that writes to a store in a loop and
// prints a line after each commit, kills it with SIGKILL at an arbitrary
// moment, and reopens the store. Over several cycles: the file passes
// integrity_check, every write the child reported is there, and every turn
// and submission is all-or-nothing (a turn never lacks its events or
// outbox rows; a submission never exists without its mail marked handled).
func TestKillDuringWritesLeavesStoreReadable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "pbem.db")
	ctx := context.Background()
	const cycles = 8
	var reported []string
	for cycle := range cycles {
		c := killtest.Start(t, "TestCrashChild", killtest.Options{}, crashChildEnv+"="+path)
		// Vary the moment of death; the first cycles may die inside Open.
		time.Sleep(time.Duration(40+37*cycle) * time.Millisecond)
		if !c.Kill() {
			t.Fatalf("cycle %d: child ended by itself before the kill:\n%s", cycle, c.Stderr())
		}
		lines := c.Lines()
		for _, l := range lines {
			if strings.HasPrefix(l, "committed ") {
				reported = append(reported, strings.TrimPrefix(l, "committed "))
			}
		}

		db, err := Open(path, nil)
		if err != nil {
			t.Fatalf("cycle %d: reopening after SIGKILL: %v", cycle, err)
		}
		verifyReported(t, ctx, db, reported)
		verifyAllOrNothing(t, ctx, db)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("cycle %d: killed after %d lines; %d commits reported so far", cycle, len(lines), len(reported))
	}
	if len(reported) < cycles {
		t.Errorf("only %d commits reported in %d cycles; the test proved little", len(reported), cycles)
	}
}

func verifyReported(t *testing.T, ctx context.Context, db *DB, reported []string) {
	t.Helper()
	for _, r := range reported {
		var kind string
		var a, b int64
		if _, err := fmt.Sscan(r, &kind, &a, &b); err != nil {
			t.Fatalf("bad line %q: %v", r, err)
		}
		var err error
		switch kind {
		case "mail": // uid, row id
			var m Mail
			m, err = db.Mail(ctx, b)
			if err == nil && (m.UID != uint32(a) || !bytes.Equal(m.Raw, crashMailRaw(uint32(a)))) {
				err = fmt.Errorf("mail %d holds uid %d", b, m.UID)
			}
		case "sub": // uid, submission id
			var ss []Submission
			ss, err = db.Submissions(ctx, "crash", int(a))
			if err == nil && (len(ss) != 1 || ss[0].ID != b) {
				err = fmt.Errorf("submissions for %d: %+v", a, ss)
			}
		case "turn": // turn, version
			_, err = db.TurnVersion(ctx, "crash", int(a), int(b))
		case "game":
			_, err = db.Game(ctx, "crash")
		}
		if err != nil {
			t.Errorf("reported commit %q is missing after SIGKILL: %v", r, err)
		}
	}
}

func verifyAllOrNothing(t *testing.T, ctx context.Context, db *DB) {
	t.Helper()
	latest, err := db.LatestTurn(ctx, "crash")
	if errors.Is(err, ErrNotFound) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	queued, err := db.MessagesInState(ctx, OutboxPending)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range queued {
		ids[m.MessageID] = true
	}
	for turn := 0; turn <= latest.Turn; turn++ {
		es, err := db.Events(ctx, "crash", turn, 1)
		if err != nil || len(es) != 3 {
			t.Errorf("turn %d has %d events, want 3 (%v)", turn, len(es), err)
		}
		for n := range 2 {
			if id := crashMessageID(turn, n); !ids[id] {
				t.Errorf("turn %d committed without its outbox row %s", turn, id)
			}
		}
	}
	if len(queued) != 2*(latest.Turn+1) {
		t.Errorf("%d outbox rows for %d turns", len(queued), latest.Turn+1)
	}
	// A submission and its mail's status change commit together.
	var orphanSubs, orphanHandled int
	if err := db.reader.QueryRow(`SELECT COUNT(*) FROM submissions s JOIN mail m ON m.id = s.mail_id
		WHERE m.status != 'handled'`).Scan(&orphanSubs); err != nil {
		t.Fatal(err)
	}
	if err := db.reader.QueryRow(`SELECT COUNT(*) FROM mail m WHERE m.status = 'handled'
		AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.mail_id = m.id)`).Scan(&orphanHandled); err != nil {
		t.Fatal(err)
	}
	if orphanSubs != 0 || orphanHandled != 0 {
		t.Errorf("%d submissions whose mail is not handled, %d handled mails without a submission", orphanSubs, orphanHandled)
	}
}

func crashMailRaw(uid uint32) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "mail %d\r\n", uid), 200)
}

func crashMessageID(turn, n int) string { return fmt.Sprintf("<t%d.%d@crash.pbem.localhost>", turn, n) }

// TestCrashChild is the child process of
// TestKillDuringWritesLeavesStoreReadable; run by itself it skips. It writes
// until killed, printing "committed …" after each commit returns.
func TestCrashChild(t *testing.T) {
	path := killtest.Helper(t, crashChildEnv, "TestKillDuringWritesLeavesStoreReadable")
	ctx := context.Background()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	say := func(format string, args ...any) {
		fmt.Fprintf(os.Stdout, "committed "+format+"\n", args...) // os.Stdout is unbuffered
	}
	err = db.CreateGame(ctx, Game{ID: "crash", Name: "Crash", Ruleset: "syw-1752", CreatedAt: t0})
	if err != nil && !errors.Is(err, ErrExists) {
		t.Fatal(err)
	}
	say("game 0 0")
	var uid uint32
	if err := db.reader.QueryRow(`SELECT COALESCE(MAX(uid) + 1, 0) FROM mail`).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	turn := 0
	if rec, err := db.LatestTurn(ctx, "crash"); err == nil {
		turn = rec.Turn + 1
	}
	deadline := time.Now().Add(30 * time.Second) // never outlive a broken parent
	for ; time.Now().Before(deadline); uid++ {
		m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 7, UID: uid, Raw: crashMailRaw(uid),
			ReceivedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		say("mail %d %d", uid, m.ID)

		var subID int64
		err = db.Update(ctx, func(tx *Tx) error {
			var err error
			subID, _, err = tx.SaveSubmission(ctx, Submission{GameID: "crash", Turn: int(uid), Nation: "eisenmark",
				Kind: "orders", MailID: m.ID, RawText: "orders", Valid: true, SubmittedAt: t0})
			if err != nil {
				return err
			}
			return tx.SetMailStatus(ctx, m.ID, MailHandled, "orders", "")
		})
		if err != nil {
			t.Fatal(err)
		}
		say("sub %d %d", uid, subID)

		if uid%3 == 0 {
			rec := TurnRecord{GameID: "crash", Turn: turn, Status: TurnResolved, State: bytes.Repeat([]byte("s"), 20000),
				Seed: uint64(turn) << 40, ResolvedAt: t0}
			events := []Event{{Kind: "a"}, {Kind: "b"}, {Kind: "c"}}
			out := []OutboxMessage{
				{MessageID: crashMessageID(turn, 0), Recipients: []string{"x@y"}, Raw: []byte("r0"), CreatedAt: t0},
				{MessageID: crashMessageID(turn, 1), Recipients: []string{"x@y"}, Raw: []byte("r1"), CreatedAt: t0},
			}
			v, err := db.CommitTurn(ctx, rec, events, out)
			if err != nil {
				t.Fatal(err)
			}
			say("turn %d %d", turn, v)
			turn++
		}
	}
}
