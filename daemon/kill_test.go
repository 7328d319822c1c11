package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/store"
)

// The SIGKILL test runs the daemon in a child process (this test binary,
// running TestKillHelperProcess), kills it with SIGKILL at a random instant
// while a turn is due — before it is resolved, while it is being resolved,
// after the commit, while the reports are being sent, after they are sent
// — and starts it again. Every time, the turn must end resolved once, with
// the same bytes as a run that was never killed, and every nation and the
// referee must hold their report under one Message-ID.

const killHelperEnv = "PBEM_KILL_HELPER"

// TestKillHelperProcess is the child: it runs the daemon of the game in
// $PBEM_KILL_HELPER until SIGTERM, and writes the mail server's addresses to
// addr.txt there.
func TestKillHelperProcess(t *testing.T) {
	dir := os.Getenv(killHelperEnv)
	if dir == "" {
		t.Skip("the child process of TestTurnSurvivesSIGKILL")
	}
	text, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(text, filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	d, err := Start(ctx, cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	addrs := d.Mail.IMAPAddr() + " " + d.Mail.SMTPAddr()
	tmp := filepath.Join(dir, "addr.tmp")
	if err := os.WriteFile(tmp, []byte(addrs), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "addr.txt")); err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx); err != nil {
		t.Error(err)
	}
	d.Close()
}

// turnState reads how far the turn has got in dir's store: "open",
// "committed", or "sent" (every report row sent), and the turn's event log.
func turnState(t *testing.T, db *store.DB) (string, []byte) {
	t.Helper()
	ctx := context.Background()
	rec, err := db.LatestTurn(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Turn == 0 {
		return "open", nil
	}
	if rec.Turn != 1 || rec.Version != 1 {
		t.Fatalf("latest turn %d version %d: the turn was resolved more than once", rec.Turn, rec.Version)
	}
	rows, err := db.MessagesInState(ctx, store.OutboxSent)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, r := range rows {
		if (r.Kind == MailReport || r.Kind == MailRefereeReport) && strings.HasPrefix(r.MessageID, "<syw.t1.") {
			sent++
		}
	}
	if sent == len(killAccounts) {
		return "sent", rec.EventLog
	}
	return fmt.Sprintf("committed, %d of %d sent", sent, len(killAccounts)), rec.EventLog
}

// waitSent waits until the turn is resolved and every report sent.
func waitSent(t *testing.T, db *store.DB) []byte {
	t.Helper()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(20 * time.Millisecond) {
		if st, log := turnState(t, db); st == "sent" {
			return log
		}
	}
	st, _ := turnState(t, db)
	t.Fatalf("after %v the turn is %s", waitLimit, st)
	return nil
}

// checkMailboxes checks that each account holds its turn-1 report under
// exactly one Message-ID (a report sent again after a kill keeps its id).
func checkMailboxes(t *testing.T, imapAddr string) {
	t.Helper()
	for _, acct := range killAccounts {
		msgs, err := imaptest.Messages(imapAddr, acct+"@pbem.localhost", "pw-"+acct, "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, m := range msgs {
			if isReport("Turn 1,")(string(m)) {
				ids[header(string(m), "Message-ID")] = true
			}
		}
		if len(ids) != 1 {
			t.Errorf("%s holds the turn report under %d Message-IDs, want 1: %v", acct, len(ids), ids)
		}
	}
}

// TestTurnSurvivesSIGKILL kills the daemon at random instants around a
// turn's resolution (PBEM_KILL_POINTS times, default 4; docs/turns.md gives
// the figure of a long run) and checks after each restart that the turn was
// resolved once, to the same bytes, and every report delivered under one
// Message-ID.
func TestTurnSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the daemon many times")
	}
	points := killtest.Points(4)
	template := newKillTemplate(t)

	// A run never killed: the bytes every killed run must reach, and how
	// long a turn takes from the start.
	ref := t.TempDir()
	copyTree(t, template, ref)
	db := openKillStore(t, ref)
	c := startChild(t, ref)
	c.addrs(t, ref)
	up := time.Now()
	want := waitSent(t, db)
	span := time.Since(up)
	checkMailboxes(t, c.imap)
	c.stop(t)
	db.Close()

	stages := map[string]int{}
	rng := killtest.Rand()
	for i := range points {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		copyTree(t, template, dir)
		db := openKillStore(t, dir)
		c := startChild(t, dir)
		killSoon(t, rng, c, dir, i, span, nil)
		stage, _ := turnState(t, db)
		stages[stage]++
		c = startChild(t, dir)
		got := waitSent(t, db)
		if string(got) != string(want) {
			t.Errorf("kill %d (%s): the turn's events differ from a run never killed", i, stage)
		}
		c.addrs(t, dir)
		checkMailboxes(t, c.imap)
		c.stop(t)
		db.Close()
	}
	var lines []string
	for s, n := range stages {
		lines = append(lines, fmt.Sprintf("%s: %d", s, n))
	}
	sort.Strings(lines)
	t.Logf("%d kills, a turn takes %v from the daemon's start to the last report sent; killed when the turn was: %s",
		points, span, strings.Join(lines, "; "))
}
