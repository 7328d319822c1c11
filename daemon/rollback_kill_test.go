package daemon

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/store"
)

// The referee's ROLLBACK and RERUN under SIGKILL. The template is a game
// with turns 1 and 2 resolved and every report delivered, and a correction
// of Eisenmark's turn-1 orders stored since (E1 stays home), so that turn 1
// resolved again differs: corrected reports go to every nation. Each run
// mails the referee's command(s) to a child daemon, kills it at a random
// instant while it applies them, resolves and sends, starts it again, and
// waits for the end state of a run never killed: the same turn records with
// the same statuses (the set-aside turns voided), the same outbox rows, all
// sent, and in every mailbox the same mails, each under one Message-ID.

// TestRollbackSurvivesSIGKILL: ROLLBACK 1, then RESOLVE NOW (two mails).
func TestRollbackSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	refereeKillTest(t, "ROLLBACK 1", "RESOLVE NOW")
}

// TestRerunSurvivesSIGKILL: RERUN 1 (one mail), which also sets turn 2 aside.
func TestRerunSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	refereeKillTest(t, "RERUN 1")
}

// refereeKillTest mails the referee's commands, one mail each, and kills
// the daemon around them (PBEM_KILL_POINTS times, default 4).
func refereeKillTest(t *testing.T, commands ...string) {
	if testing.Short() {
		t.Skip("starts the daemon many times")
	}
	points := killtest.Points(4)
	template := resolvedTemplate(t)
	send := func(c *child) {
		for i, cmd := range commands {
			sendMail(t, c.smtp, "referee@pbem.localhost", fmt.Sprintf("From: referee@pbem.localhost\nTo: orders@pbem.localhost\n"+
				"Subject: command %d\nMessage-ID: <cmd%d@x>\n\nPASSWORD %s\n%s\n", i, i, refereePassword, cmd))
		}
	}

	// A run never killed.
	ref := t.TempDir()
	copyTree(t, template, ref)
	db := openKillStore(t, ref)
	c := startChild(t, ref)
	c.addrs(t, ref)
	up := time.Now()
	send(c)
	want := waitRefereeEnd(t, db, "", len(commands))
	span := time.Since(up)
	wantBoxes := mailboxKeys(t, c.imap)
	c.stop(t)
	db.Close()
	if !strings.Contains(want, "turn 1 v1 voided") || !strings.Contains(want, "turn 1 v2 resolved") {
		t.Fatalf("a run never killed does not correct turn 1:\n%s", want)
	}

	resends, stages := 0, map[string]int{}
	rng := killtest.Rand()
	for i := range points {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		copyTree(t, template, dir)
		db := openKillStore(t, dir)
		c := startChild(t, dir)
		sent := false
		killSoon(t, rng, c, dir, i, span, func(c *child) { send(c); sent = true })
		stages[refereeStage(refereeEnd(t, db), len(commands))]++
		c = startChild(t, dir)
		c.addrs(t, dir)
		if !sent {
			send(c)
		}
		got := waitRefereeEnd(t, db, want, len(commands))
		if got != want {
			t.Errorf("kill %d: the end state differs from a run never killed:\n%s\nwant:\n%s", i, got, want)
		}
		boxes := mailboxKeys(t, c.imap)
		for acct, keys := range wantBoxes {
			if !slices.Equal(boxes[acct].ids, keys.ids) {
				t.Errorf("kill %d: %s holds\n%s\nwant (each mail under one Message-ID)\n%s", i, acct,
					strings.Join(boxes[acct].ids, "\n"), strings.Join(keys.ids, "\n"))
			}
			resends += boxes[acct].copies - keys.copies
		}
		c.stop(t)
		db.Close()
	}
	var lines []string
	for s, n := range stages {
		lines = append(lines, fmt.Sprintf("%s: %d", s, n))
	}
	slices.Sort(lines)
	t.Logf("%d kills; the commands take %v from the daemon's start to the last mail sent; %d copies delivered again "+
		"under their Message-ID (a drop after the final dot); killed when: %s", points, span, resends, strings.Join(lines, "; "))
}

// refereeStage says how far a run had got when it was killed, from its
// store's description (refereeEnd): the commands answered, turn 1
// resolved again, its corrected reports sent.
func refereeStage(end string, n int) string {
	answered := strings.Count(end, "Referee commands received")
	if !strings.Contains(end, "turn 1 v2 resolved") {
		return fmt.Sprintf("%d of %d commands applied, turn 1 not yet resolved again", answered, n)
	}
	sent := 0
	for _, l := range strings.Split(end, "\n") {
		if strings.Contains(l, "(correction)") && strings.HasSuffix(l, ": sent") {
			sent++
		}
	}
	return fmt.Sprintf("turn 1 resolved again, %d of %d corrected reports sent", sent, len(killAccounts))
}

// resolvedTemplate returns a copy of the template of the referee's crash
// tests (see the top of the file), built once per test binary.
func resolvedTemplate(t *testing.T) string {
	t.Helper()
	return killFixtures.resolved.copyOf(t, buildResolvedTemplate)
}

// buildResolvedTemplate makes the referee's crash tests' template in the
// folder template, from turn1Template.
func buildResolvedTemplate(t *testing.T, template string) {
	t.Helper()
	copyTree(t, turn1Template(t), template)
	resolveTurns(t, template, 2)
	// The correction: E1 stays home, stored as a sheet of Eisenmark's for turn 1.
	ctx := context.Background()
	db := openKillStore(t, template)
	defer db.Close()
	subs, err := db.SubmissionsOf(ctx, "syw", 1, "eisenmark", KindOrders)
	if err != nil || len(subs) == 0 {
		t.Fatalf("Eisenmark's turn-1 sheet: %v (%d)", err, len(subs))
	}
	js, err := encodeOrders([]engine.Order{engine.SetStance{Force: "E1", Stance: game.Defend}})
	if err != nil {
		t.Fatal(err)
	}
	s := subs[len(subs)-1]
	s.ID, s.MailID, s.RawText, s.CanonicalText, s.Orders, s.SubmittedAt = 0, 0, "correction", "STANCE E1 DEFEND", js, time.Now()
	if _, _, err := db.SaveSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// resolveTurns has the daemon resolve the game in dir from its open turn
// up to turn upto and send every report (each turn's deadline set just
// past in turn).
func resolveTurns(t *testing.T, dir string, upto int) {
	t.Helper()
	db := openKillStore(t, dir)
	latest, err := db.LatestTurn(context.Background(), "syw")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for turn := latest.Turn + 1; turn <= upto; turn++ {
		setDeadlinePast(t, dir, turn)
		db := openKillStore(t, dir)
		c := startChild(t, dir)
		for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			if rec, _ := db.LatestTurn(context.Background(), "syw"); rec.Turn == turn && outboxQuiet(t, db) {
				break
			}
			if time.Since(start) > waitLimit {
				t.Fatalf("turn %d was not resolved and sent", turn)
			}
		}
		c.stop(t)
		db.Close()
	}
}

// outboxQuiet reports whether every outbox row is sent (none pending,
// sending or failed). It counts them: the rows are megabytes of reports,
// and the waits poll.
func outboxQuiet(t *testing.T, db *store.DB) bool {
	t.Helper()
	for _, s := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxFailed} {
		n, err := db.CountInState(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return false
		}
	}
	return true
}

// refereeEnd describes what a user of the game would notice of the store:
// every turn record (turn, version, status, a hash of its result) and every
// outbox row (kind, recipients, subject, the mail it answers, state).
func refereeEnd(t *testing.T, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	recs, err := db.TurnVersions(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range recs {
		h := sha256.Sum256(append(append(append([]byte{}, r.State...), r.EventLog...), r.Dice...))
		fmt.Fprintf(&b, "turn %d v%d %s %x\n", r.Turn, r.Version, r.Status, h[:6])
	}
	var rows []string
	for _, s := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
		msgs, err := db.MessagesInState(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			raw := string(m.Raw)
			rows = append(rows, fmt.Sprintf("%s to %s: %q re %s: %s", m.Kind, strings.Join(m.Recipients, ","),
				header(raw, "Subject"), header(raw, "In-Reply-To"), m.State))
		}
	}
	slices.Sort(rows)
	b.WriteString(strings.Join(rows, "\n"))
	return b.String()
}

// waitRefereeEnd waits until the referee's commands (n mails) are answered,
// turn 1 resolved again (both tests correct it) and the outbox quiet, and, given want, until the store is described
// as want (a killed run may still be sending).
func waitRefereeEnd(t *testing.T, db *store.DB, want string, n int) string {
	t.Helper()
	var got string
	// Twice the usual limit: a restart, a resolution and six PDF reports
	// on a loaded machine.
	for start := time.Now(); time.Since(start) < 2*waitLimit; time.Sleep(25 * time.Millisecond) {
		// The rows (megabytes of reports) are read only when the counts
		// say the outbox may be quiet.
		if !outboxQuiet(t, db) {
			continue
		}
		// One read: a row is quiet when it is sent (the states are read
		// one after another, so a row moving on shows in two of them).
		got = refereeEnd(t, db)
		quiet := !strings.Contains(got, ": "+string(store.OutboxPending)) && !strings.Contains(got, ": "+string(store.OutboxSending)) &&
			!strings.Contains(got, ": "+string(store.OutboxFailed))
		if !quiet || strings.Count(got, "Referee commands received") < n || !strings.Contains(got, "turn 1 v2 resolved") {
			continue
		}
		if want == "" || got == want {
			return got
		}
	}
	got = refereeEnd(t, db)
	t.Fatalf("after %v the game is not where a run never killed ends:\n%s\nwant:\n%s", 2*waitLimit, got, want)
	return ""
}

// boxKeys is what a mailbox holds: one line per Message-ID (the subject
// and the mail it answers), sorted, and how many copies in all.
type boxKeys struct {
	ids    []string
	copies int
}

// mailboxKeys reads every account's INBOX.
func mailboxKeys(t *testing.T, imapAddr string) map[string]boxKeys {
	t.Helper()
	out := map[string]boxKeys{}
	for _, acct := range killAccounts {
		msgs, err := imaptest.Messages(imapAddr, acct+"@pbem.localhost", "pw-"+acct, "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var k boxKeys
		for _, m := range msgs {
			s := string(m)
			k.copies++
			id := header(s, "Message-ID")
			if seen[id] {
				continue
			}
			seen[id] = true
			k.ids = append(k.ids, fmt.Sprintf("%q re %s", header(s, "Subject"), header(s, "In-Reply-To")))
		}
		slices.Sort(k.ids)
		out[acct] = k
	}
	return out
}
