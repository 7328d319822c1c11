package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// Exactly one copy on the embedded server, under SIGKILL (issue 21). The
// daemon is killed at random instants while it takes in the nations'
// sheets (intake), answers them (outbox) and resolves the turn that is due
// and mails its reports (turn runner), several times in a row on one game,
// while the players' mail programs send — and send again when a kill cut
// the connection, as mail programs do. At the end every recipient's INBOX
// shows each Message-ID exactly once, every sheet has exactly one answer,
// and the game's INBOX is empty. The server stores a mail sent again by the
// same login, with the same Message-ID and bytes, once per mailbox
// (mailserver/dedupe.go); before it did, 300 kills left 5 answers and 11
// reports twice.

// killsPerGame is how many times one game is killed before it may finish.
// Each kill ends a round; each round brings new work: five new sheets, and
// (but for the first, whose turn is due in the template) the open turn's
// deadline set in the past, so that a turn is resolved and six reports go
// out in every round.
const killsPerGame = 5

// eoMail is a sheet a nation's mail program sends until the server takes it.
type eoMail struct {
	from, id string
	raw      []byte
}

// eoMails are the sheets of a round: one from each nation.
func eoMails(round string) []eoMail {
	var out []eoMail
	for _, n := range []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"} {
		id := "eo." + round + "." + n + "@pbem.localhost"
		raw := fmt.Sprintf("From: %s@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <%s>\r\n\r\n"+
			"GAME syw\r\nNATION %s\r\nPASSWORD demo-%s\r\nTURN 2\r\nEND\r\n", n, id, n, n)
		out = append(out, eoMail{from: n + "@pbem.localhost", id: "<" + id + ">", raw: []byte(raw)})
	}
	return out
}

// eoSender is the players' mail programs: each mail is sent until the
// server has taken it (a send cut by a kill is sent again, unchanged).
type eoSender struct {
	mu       sync.Mutex
	mails    []eoMail
	accepted map[string]bool
	resent   int // sends after one that failed
}

// send tries every mail not yet taken, in order; it reports whether all
// are taken.
func (s *eoSender) send(smtpAddr string) bool {
	s.mu.Lock()
	mails := slices.Clone(s.mails)
	s.mu.Unlock()
	all := true
	for _, m := range mails {
		s.mu.Lock()
		done := s.accepted[m.id]
		s.mu.Unlock()
		if done {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := mailserver.SendAs(ctx, smtpAddr, loginFor(m.from), m.from, []string{"orders@pbem.localhost"}, m.raw)
		cancel()
		s.mu.Lock()
		if err == nil {
			s.accepted[m.id] = true
		} else {
			s.resent++
			all = false
		}
		s.mu.Unlock()
	}
	return all
}

// TestExactlyOnceSIGKILL kills the daemon PBEM_KILL_POINTS times (default
// 3: one game of three rounds, to keep go test quick), killsPerGame times
// per game, and checks each game's end. docs/intake.md gives the figures of
// runs of 200 kills.
func TestExactlyOnceSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the daemon many times")
	}
	points := killtest.Points(3)
	template := newKillTemplate(t)

	// A run never killed, one round: how long the work takes.
	ref := t.TempDir()
	copyTree(t, template, ref)
	db := openKillStore(t, ref)
	c := startChild(t, ref)
	c.addrs(t, ref)
	up := time.Now()
	sender := &eoSender{mails: eoMails("ref"), accepted: map[string]bool{}}
	sender.send(c.smtp)
	waitEODone(t, db, c.imap, sender, false)
	span := time.Since(up)
	waitEODone(t, db, c.imap, sender, true)
	checkExactlyOnce(t, c.imap, sender.mails, "a run never killed")
	c.stop(t)
	db.Close()

	rng := killtest.Rand()
	stages := map[string]int{}
	resent, turns, inFlight := 0, 0, 0
	for g := 0; g*killsPerGame < points; g++ {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(g))
		copyTree(t, template, dir)
		db := openKillStore(t, dir)
		sender := &eoSender{accepted: map[string]bool{}}
		for k := 0; k < killsPerGame && g*killsPerGame+k < points; k++ {
			if k > 0 {
				rec, err := db.LatestTurnHead(context.Background(), "syw")
				if err != nil {
					t.Fatal(err)
				}
				setDeadlinePast(t, dir, rec.Turn+1)
			}
			sender.mails = append(sender.mails, eoMails(fmt.Sprintf("%d.%d", g, k))...)
			c := startChild(t, dir)
			if rng.IntN(10) == 0 {
				time.Sleep(time.Duration(rng.Int64N(int64(300 * time.Millisecond)))) // while it starts
			} else {
				c.addrs(t, dir)
				var wg sync.WaitGroup
				wg.Add(1)
				go func() { defer wg.Done(); sender.send(c.smtp) }()
				time.Sleep(time.Duration(rng.Int64N(int64(2*span) + 1)))
				c.kill()
				wg.Wait()
			}
			c.kill()
			stages[eoStage(t, db, sender)]++
			if n, err := db.CountInState(context.Background(), store.OutboxSending); err == nil {
				inFlight += n
			}
		}
		c := startChild(t, dir)
		c.addrs(t, dir)
		for !sender.send(c.smtp) {
		}
		waitEODone(t, db, c.imap, sender, true)
		checkExactlyOnce(t, c.imap, sender.mails, fmt.Sprintf("game %d", g))
		rec, _ := db.LatestTurnHead(context.Background(), "syw")
		turns += rec.Turn
		resent += sender.resent
		c.stop(t)
		db.Close()
	}
	var lines []string
	for s, n := range stages {
		lines = append(lines, fmt.Sprintf("%s: %d", s, n))
	}
	slices.Sort(lines)
	verdict := "every INBOX shows each Message-ID once"
	if t.Failed() {
		verdict = "FAILED"
	}
	t.Logf("%d kills (%d per game, %d turns resolved); a round takes %v in a run never killed; %d of pbem's mails were being sent "+
		"at a kill and went again; %d sheets sent again by the players' mail programs; %s; killed when: %s",
		points, killsPerGame, turns, span.Round(time.Millisecond), inFlight, resent, verdict, strings.Join(lines, "; "))
}

// eoStage says how far a killed round had got: its sheets taken by the
// server, stored, answered; the turn resolved and its reports sent.
func eoStage(t *testing.T, db *store.DB, s *eoSender) string {
	t.Helper()
	ctx := context.Background()
	s.mu.Lock()
	taken := len(s.accepted)
	total := len(s.mails)
	s.mu.Unlock()
	waiting := 0
	for _, st := range []store.MailStatus{store.MailStored, store.MailHandled, store.MailIgnored, store.MailQuarantined, store.MailAcknowledged} {
		ms, err := db.MailHeadsByStatus(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		waiting += len(ms)
	}
	unsent := 0
	for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending} {
		n, err := db.CountInState(ctx, st) // (not the rows: a turn's reports are megabytes, and this polls)
		if err != nil {
			t.Fatal(err)
		}
		unsent += n
	}
	var parts []string
	if taken < total {
		parts = append(parts, "sheets still to send")
	}
	if waiting > 0 {
		parts = append(parts, "sheets in the intake")
	}
	rec, _ := db.LatestTurnHead(ctx, "syw")
	if d, err := db.TurnDeadline(ctx, "syw", rec.Turn+1); err == nil && !d.At.After(time.Now()) {
		parts = append(parts, "turn due")
	}
	if unsent > 0 {
		parts = append(parts, "mail to send")
	}
	if len(parts) == 0 {
		return "all done"
	}
	return strings.Join(parts, ", ")
}

// waitEODone waits until no turn is due, nothing waits in the intake or
// the outbox, and — with mailboxes — the game's INBOX is empty and every
// sheet the server took has its answer.
func waitEODone(t *testing.T, db *store.DB, imapAddr string, s *eoSender, mailboxes bool) {
	t.Helper()
	var why string
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(20 * time.Millisecond) {
		if why = eoStage(t, db, s); why != "all done" {
			continue
		}
		why = ""
		if !mailboxes {
			return
		}
		if msgs, _ := imaptest.Messages(imapAddr, "orders@pbem.localhost", "pw-orders", "INBOX"); len(msgs) > 0 {
			why = fmt.Sprintf("%d mails in the game's INBOX", len(msgs))
		}
		for _, m := range s.mails {
			local, _, _ := strings.Cut(m.from, "@")
			msgs, _ := imaptest.Messages(imapAddr, m.from, "pw-"+local, "INBOX")
			if !slices.ContainsFunc(msgs, func(b []byte) bool { return header(string(b), "In-Reply-To") == m.id }) {
				why = m.from + " has no answer to " + m.id
			}
		}
		if why == "" {
			return
		}
	}
	t.Fatalf("not done after %v: %s", waitLimit, why)
}

// checkExactlyOnce checks every recipient's INBOX: each Message-ID once,
// each sheet answered once; and the game's INBOX empty.
func checkExactlyOnce(t *testing.T, imapAddr string, mails []eoMail, what string) {
	t.Helper()
	for _, acct := range killAccounts {
		msgs, err := imaptest.Messages(imapAddr, acct+"@pbem.localhost", "pw-"+acct, "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, m := range msgs {
			seen[header(string(m), "Message-ID")]++
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("%s: %s's INBOX shows %s %d times", what, acct, id, n)
			}
		}
		for _, m := range mails {
			if m.from != acct+"@pbem.localhost" {
				continue
			}
			answers := 0
			for _, b := range msgs {
				if header(string(b), "In-Reply-To") == m.id {
					answers++
				}
			}
			if answers != 1 {
				t.Errorf("%s: %s has %d answers to %s, want 1", what, acct, answers, m.id)
			}
		}
	}
	if msgs, _ := imaptest.Messages(imapAddr, "orders@pbem.localhost", "pw-orders", "INBOX"); len(msgs) != 0 {
		t.Errorf("%s: %d mails left in the game's INBOX", what, len(msgs))
	}
}
