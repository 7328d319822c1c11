//go:build unix

package inbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/store"
)

// Environment of the child process; see TestIntakeCrashChild.
const (
	crashDBEnv   = "PBEM_INBOX_CRASH_DB"   // the store's file
	crashIMAPEnv = "PBEM_INBOX_CRASH_IMAP" // the IMAP server's address
	crashKillEnv = "PBEM_INBOX_CRASH_KILL" // "step:n": SIGKILL itself at the n-th occurrence of step; "" to loop until killed
)

// TestIntakeKillDuringIntake runs the intake in a child process (this test
// binary running TestIntakeCrashChild) and kills it with SIGKILL: first at
// each step of a mail — fetched, inside the handler before its transaction,
// stored, handled, moved — for the first and second mail of a poll, then at
// random moments while it works through a backlog. After every kill the
// store is reopened; at the end one more poll finishes the work, and every
// mail delivered has exactly one effect and has been moved exactly once.
func TestIntakeKillDuringIntake(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	srv := startMailServer(t)
	path := filepath.Join(t.TempDir(), "pbem.db")
	var sent [][]byte
	deliver := func(n int) {
		for range n {
			raw := testMail(len(sent))
			sent = append(sent, raw)
			send(t, srv, raw)
		}
	}
	run := func(kill string, after time.Duration) (killed bool, stderr string) {
		c := killtest.Start(t, "TestIntakeCrashChild", killtest.Options{},
			crashDBEnv+"="+path, crashIMAPEnv+"="+srv.IMAPAddr(), crashKillEnv+"="+kill)
		if after > 0 {
			time.Sleep(after)
			return c.Kill(), c.Stderr()
		}
		killed, err := c.Wait()
		return killed, fmt.Sprintf("%v\n%s", err, c.Stderr())
	}

	kills := 0
	for _, step := range []string{stepFetched, "handling", stepStored, stepHandled, stepMoved} {
		for _, at := range []int{1, 2} {
			deliver(3)
			killed, out := run(fmt.Sprintf("%s:%d", step, at), 0)
			if !killed {
				t.Fatalf("kill at %s:%d: the child was not killed: %s", step, at, out)
			}
			kills++
			checkStoreReadable(t, path)
		}
	}
	for i := range 8 {
		deliver(4)
		killed, out := run("", time.Duration(60+rand.IntN(120))*time.Millisecond)
		if !killed {
			t.Fatalf("random kill %d: the child ended by itself: %s", i, out)
		}
		kills++
		checkStoreReadable(t, path)
	}

	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &counter{db: db}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	checkAllOnce(t, db, srv, sent)
	calls, effs := 0, 0
	for _, raw := range sent {
		for _, r := range mailRows(t, db) {
			if bytes.HasSuffix(r.Raw, raw) {
				calls += metaInt(t, db, "test:calls:"+r.SHA256)
				effs += metaInt(t, db, "test:effects:"+r.SHA256)
			}
		}
	}
	t.Logf("%d SIGKILLs (10 at chosen steps, 8 at random moments), %d mails: %d handler calls, %d effects; 0 lost, 0 doubled",
		kills, len(sent), calls, effs)
}

func checkStoreReadable(t *testing.T, path string) {
	t.Helper()
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("reopening the store after SIGKILL: %v", err)
	}
	db.Close()
}

// TestIntakeCrashChild is the child of TestIntakeKillDuringIntake; it does
// nothing unless crashDBEnv is set.
func TestIntakeCrashChild(t *testing.T) {
	path := killtest.Helper(t, crashDBEnv, "TestIntakeKillDuringIntake")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	killStep, killAt := "", 0
	if k := os.Getenv(crashKillEnv); k != "" {
		s, n, _ := strings.Cut(k, ":")
		killStep = s
		killAt, _ = strconv.Atoi(n)
	}
	seen := map[string]int{}
	maybeDie := func(step string) {
		if step == killStep {
			if seen[step]++; seen[step] == killAt {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
	}
	// The handler dies, if told to, after counting the call and before its
	// transaction: the call is made again after the restart.
	c := &counter{db: db, fail: func(store.Mail) error {
		maybeDie("handling")
		if killStep == "" {
			time.Sleep(3 * time.Millisecond) // widen the window for a random kill
		}
		return nil
	}}
	opts := testOptions(t, os.Getenv(crashIMAPEnv), c.handle)
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	in := New(db, opts)
	in.hook = func(step string, m store.Mail) error {
		maybeDie(step)
		return nil
	}
	for {
		if err := in.PollOnce(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "poll:", err)
		}
		if killStep != "" {
			return // the kill point was not reached: the parent reports it
		}
	}
}
