package daemon

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
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
	"github.com/syw-pbem/pbem/mailserver"
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

// child is a running child daemon.
type child struct {
	cmd        *exec.Cmd
	imap, smtp string
}

func startChild(t *testing.T, dir string) *child {
	t.Helper()
	os.Remove(filepath.Join(dir, "addr.txt"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelperProcess$")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	c := &child{cmd: cmd}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return c
}

// addrs waits for the child's mail server addresses.
func (c *child) addrs(t *testing.T, dir string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, "addr.txt")); err == nil {
			f := strings.Fields(string(b))
			c.imap, c.smtp = f[0], f[1]
			return
		}
	}
	t.Fatal("the child daemon did not start")
}

func (c *child) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
}

func (c *child) stop(t *testing.T) {
	c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the child daemon exited with %v", err)
		}
	case <-time.After(waitLimit):
		c.kill()
		t.Error("the child daemon did not stop on SIGTERM")
	}
}

// killConfig gives every nation a mailbox, so that every report is delivered.
func killConfig(s string) string {
	return strings.Replace(s, "      - {user: stranger@pbem.localhost, password: pw-stranger}",
		"      - {user: unterreich@pbem.localhost, password: pw-unterreich}\n"+
			"      - {user: fromande@pbem.localhost, password: pw-fromande}\n"+
			"      - {user: hispardia@pbem.localhost, password: pw-hispardia}", 1)
}

var killAccounts = []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia", "referee"}

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

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o750)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTurnSurvivesSIGKILL kills the daemon at random instants around a
// turn's resolution (PBEM_KILL_POINTS times, default 4; docs/turns.md gives
// the figure of a long run) and checks after each restart that the turn was
// resolved once, to the same bytes, and every report delivered under one
// Message-ID.
func TestTurnSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon many times")
	}
	points := 4
	if n, err := strconv.Atoi(os.Getenv("PBEM_KILL_POINTS")); err == nil && n > 0 {
		points = n
	}
	ctx := context.Background()

	// The template: a game with Eisenmark's sheet acknowledged, and turn 1
	// due (its deadline just past).
	template := t.TempDir()
	scen, _ := filepath.Abs("../scenarios/default")
	text := killConfig(fmt.Sprintf(testConfig, scen, imapWait))
	if err := os.WriteFile(filepath.Join(template, "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, template)
	c.addrs(t, template)
	raw := "From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <kill@x>\r\n\r\n" +
		strings.ReplaceAll(marchSheet, "\n", "\r\n")
	sctx, cancel := context.WithTimeout(ctx, waitLimit)
	err := mailserver.SendAs(sctx, c.smtp, loginFor("eisenmark@pbem.localhost"), "eisenmark@pbem.localhost", []string{"orders@pbem.localhost"}, []byte(raw))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		msgs, _ := imaptest.Messages(c.imap, "eisenmark@pbem.localhost", "pw-eisenmark", "INBOX")
		if len(msgs) > 0 {
			break
		}
		if time.Since(start) > waitLimit {
			t.Fatal("the sheet was not acknowledged")
		}
	}
	c.stop(t)
	db, err := store.Open(filepath.Join(template, "data", "pbem.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetDeadline(ctx, "syw", 1, time.Now().Add(-time.Minute), 0); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// A run never killed: the bytes every killed run must reach, and how
	// long a turn takes from the start.
	ref := t.TempDir()
	copyTree(t, template, ref)
	db, err = store.Open(filepath.Join(ref, "data", "pbem.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c = startChild(t, ref)
	c.addrs(t, ref)
	up := time.Now()
	want := waitSent(t, db)
	span := time.Since(up)
	checkMailboxes(t, c.imap)
	c.stop(t)
	db.Close()

	stages := map[string]int{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	for i := range points {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		copyTree(t, template, dir)
		db, err := store.Open(filepath.Join(dir, "data", "pbem.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		c := startChild(t, dir)
		if i%10 == 0 {
			// Now and then during the start.
			time.Sleep(time.Duration(rng.Int64N(int64(300 * time.Millisecond))))
		} else {
			// Mostly from the daemon's start to about when the last report is sent
			// (three times the time a run never killed takes: this run may be slower).
			c.addrs(t, dir)
			time.Sleep(time.Duration(rng.Int64N(int64(3 * span))))
		}
		c.kill()
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
