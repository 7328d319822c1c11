package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// TestStatusTellsTheRunApart: the mail's health in "pbem status" is this
// run's: after a restart the intake is "not yet connected in this run",
// not the previous process's "connected since"; a run that stopped is
// NOT RUNNING; a turn past its deadline is never "being resolved" unless
// the running daemon says it is.
func TestStatusTellsTheRunApart(t *testing.T) {
	t.Parallel()
	zone := time.UTC
	now := time.Date(2026, 6, 10, 13, 45, 0, 0, zone)
	before := runRecord{PID: 1, Host: "h", Started: now.Add(-2 * time.Hour)}
	this := runRecord{PID: 2, Host: "h", Started: now.Add(-time.Minute)}
	base := Status{Name: "G", Game: "syw", Turn: 3, TurnLabel: "Turn 3", Zone: zone, Deadline: now.Add(-47 * time.Second),
		Outbox: map[store.OutboxState]int{}}

	s := base
	s.Run, s.Running = this, true
	s.Intake = IntakeHealth{Run: before.ID(), Known: true, Up: true, Since: before.Started}
	s.OutboxHealth, s.OutboxKnown = outbox.Health{Run: before.ID(), OK: true, Since: before.Started}, true
	text := s.Text(now)
	for _, want := range []string{"pbem run: running since", "Intake: not yet connected in this run", "Outbox: nothing tried yet in this run",
		"Turn: pbem run has not looked at it yet"} {
		if !strings.Contains(text, want) {
			t.Errorf("after a restart the status lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "connected since") || strings.Contains(text, "being resolved") {
		t.Errorf("after a restart the status shows the last run's connection, or a resolution nobody runs:\n%s", text)
	}

	s.Runner, s.RunnerKnown = runnerState{Run: this.ID(), Turn: 3, State: runnerCatchingUp, Why: "taking in the mail", Since: now}, true
	if text := s.Text(now); !strings.Contains(text, "Turn: waiting (since") {
		t.Errorf("the status while the runner takes in the mail:\n%s", text)
	}
	s.IsHeld, s.Held = true, turnHold{Deadline: s.Deadline, Why: "pbem cannot read the game's mailbox", At: now}
	s.Runner.State, s.Runner.Why = runnerHeld, "pbem cannot read the game's mailbox"
	if text := s.Text(now); !strings.Contains(text, "Turn: HELD since") || !strings.Contains(text, "RESOLVE NOW") {
		t.Errorf("the status of a held turn:\n%s", text)
	}
	s.Running = false // the hold is recorded: it shows with pbem run stopped too
	if text := s.Text(now); !strings.Contains(text, "Turn: HELD since") {
		t.Errorf("the status of a held turn, pbem run stopped:\n%s", text)
	}

	s = base
	s.Run = runRecord{PID: 1, Host: "h", Started: before.Started, Stopped: now.Add(-time.Minute)}
	s.Intake = IntakeHealth{Run: before.ID(), Known: true, Up: true, Since: before.Started}
	s.OutboxHealth, s.OutboxKnown = outbox.Health{Run: before.ID(), OK: false, Since: before.Started, Failures: 9,
		LastError: "the mail server refused pbem's login: 535 5.7.8 Username and Password not accepted", LastErrorAt: now}, true
	text = s.Text(now)
	for _, want := range []string{"pbem run: NOT RUNNING", "Intake: was connected", "Outbox: FAILING since", "535",
		"Turn: not resolved: pbem run is not running"} {
		if !strings.Contains(text, want) {
			t.Errorf("with pbem run stopped the status lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Outbox: flowing") {
		t.Errorf("an outbox whose attempts failed is shown flowing:\n%s", text)
	}
}

// TestMergeLedger: a rerun's treaties replace the ledger's where the ledger
// still holds what the first resolution left; a treaty changed by mail
// since keeps the ledger's version.
func TestMergeLedger(t *testing.T) {
	t.Parallel()
	tr := func(id string, published int, attested ...game.NationID) game.Treaty {
		return game.Treaty{ID: id, Title: id, Parties: []game.NationID{"a", "b"}, Published: published, Attested: attested}
	}
	base := []game.Treaty{tr("T1", 0, "a", "b"), tr("T2", 0, "a")}
	ours := []game.Treaty{tr("T1", 0, "a", "b"), tr("T2", 0, "a", "b"), tr("T3", 0, "b")} // T2 attested since, T3 sent since
	rerun := []game.Treaty{tr("T1", 4, "a", "b"), tr("T2", 4, "a")}                       // the rerun publishes both
	got, changed := mergeLedger(base, ours, rerun)
	want := []game.Treaty{tr("T1", 4, "a", "b"), tr("T2", 0, "a", "b"), tr("T3", 0, "b")}
	if !changed || len(got) != 3 {
		t.Fatalf("merged %+v (changed %v)", got, changed)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Published != want[i].Published || len(got[i].Attested) != len(want[i].Attested) {
			t.Errorf("treaty %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, changed := mergeLedger(base, base, base); changed {
		t.Error("a rerun to the same treaties changes the ledger")
	}
}

// TestNextDeadlineAfterEarlyResolve: resolved before its deadline, the
// next turn's deadline follows the schedule (keep-schedule) or is counted
// from the day of the resolution (shift), and the referee is told which.
func TestNextDeadlineAfterEarlyResolve(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"keep-schedule", "shift"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			d, _ := startGameWith(t, t.TempDir(), func(s string) string {
				return strings.Replace(s, "  timezone: Europe/London\n", "  timezone: Europe/London\n  after_early_resolve: "+mode+"\n", 1)
			}, &Options{TurnMailer: PlainTurnMail})
			defer d.Close()
			g := d.Game
			ctx := context.Background()
			dl, err := g.DB.TurnDeadline(ctx, "syw", 1)
			if err != nil {
				t.Fatal(err)
			}
			early := dl.At.Add(-10 * 24 * time.Hour)
			next, note, err := g.nextDeadline(ctx, 1, early)
			if err != nil {
				t.Fatal(err)
			}
			keep := dl.At.In(g.Zone).AddDate(0, 0, 28)
			shifted := early.In(g.Zone).AddDate(0, 0, 28)
			want := keep
			if mode == "shift" {
				want = time.Date(shifted.Year(), shifted.Month(), shifted.Day(), 18, 0, 0, 0, g.Zone)
			}
			if !next.Equal(want) || !strings.Contains(note, "game.after_early_resolve: "+mode) {
				t.Errorf("next deadline %v, want %v; note %q", next, want, note)
			}
			// The note names the day it was resolved as that day, and the
			// deadline each setting gives as a deadline.
			shiftDL := g.showTime(time.Date(shifted.Year(), shifted.Month(), shifted.Day(), 18, 0, 0, 0, g.Zone))
			wantNote := "shift, counting from the day it was resolved, " + g.showDay(early) + ", would have given " + shiftDL
			if mode == "shift" {
				wantNote = "the next deadline, " + shiftDL + ", is counted from the day it was resolved, " + g.showDay(early)
			}
			if !strings.Contains(note, wantNote) {
				t.Errorf("note %q\nlacks %q", note, wantNote)
			}
			if _, note, _ := g.nextDeadline(ctx, 1, dl.At.Add(time.Minute)); note != "" {
				t.Errorf("a turn resolved at its deadline gets a note: %q", note)
			}
		})
	}
}

// TestClockSkewTold: the server's clock off from this machine's is told to
// the referee once a day for each size of the difference.
func TestClockSkewTold(t *testing.T) {
	t.Parallel()
	d, _ := startGameWith(t, t.TempDir(), nil, &Options{TurnMailer: PlainTurnMail})
	defer d.Close()
	g := d.Game
	now := time.Now()
	g.noteSkew(7*time.Minute, now.Add(7*time.Minute), now)
	g.noteSkew(7*time.Minute+20*time.Second, now.Add(7*time.Minute), now.Add(time.Second))
	g.noteSkew(-20*time.Minute, now.Add(-20*time.Minute), now)
	var told []string
	for _, r := range allRows(t, g) {
		if r.Kind == MailClock {
			told = append(told, header(string(r.Raw), "Subject"))
			if r.Priority != store.OutboxNotice {
				t.Errorf("the clock notice has priority %d", r.Priority)
			}
		}
	}
	if len(told) != 2 || !strings.Contains(strings.Join(told, "|"), "7m0s ahead of") || !strings.Contains(strings.Join(told, "|"), "20m0s behind") {
		t.Errorf("the referee was told %q; want one notice ahead (7m) and one behind (20m)", told)
	}
}

// TestHeldTurnResolvesWhenConfigured: with game.after_outage: resolve a
// turn held by the guard is resolved once the mail works again, and the
// referee is told so.
func TestHeldTurnResolvesWhenConfigured(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(s string) string {
		return strings.Replace(s, "  timezone: Europe/London\n", "  timezone: Europe/London\n  after_outage: resolve\n", 1)
	}, &Options{TurnMailer: PlainTurnMail})
	g := h.d.Game
	ctx := context.Background()
	waitUntil(t, "the intake connected", func() bool { ih, _ := g.IntakeHealth(ctx); return ih.Up && ih.Run == g.run.ID() })
	g.noteIntake(ctx, false, "dial tcp 127.0.0.1:993: connection refused", time.Now())
	if err := g.DB.SetDeadline(ctx, "syw", 1, time.Now().Add(100*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	waitUntil(t, "the turn held", func() bool { _, held, _ := g.heldTurn(ctx, 1, mustDeadline(t, g, 1)); return held })
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved while the intake was down")
	}
	g.noteIntake(ctx, true, "", time.Now())
	g.WakeTurns()
	waitUntil(t, "turn 1 resolved once the mail worked again", func() bool { rec, _ := g.DB.LatestTurn(ctx, "syw"); return rec.Turn == 1 })
	back, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "the mail works again")
	})
	if !strings.Contains(body(back), "it is resolved now") || !strings.Contains(body(back), "game.after_outage: resolve") {
		t.Errorf("the referee's notice:\n%s", body(back))
	}
}

// mustDeadline is a turn's stored deadline.
func mustDeadline(t *testing.T, g *Game, turn int) time.Time {
	t.Helper()
	d, err := g.TurnDeadline(context.Background(), turn)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTurnLineBindsCommands: a referee mail with TURN 2 while turn 1 is
// open is refused, and RESOLVE NOW with TURN 1 resolves turn 1; the answer
// names the turn.
func TestTurnLineBindsCommands(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, nil, &Options{TurnMailer: PlainTurnMail})
	g := h.d.Game
	ctx := context.Background()
	id := h.send("referee@pbem.localhost", "resolve", refereeCommand("TURN 2", "RESOLVE NOW"))
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(id))
	if !strings.Contains(body(ack), "REFUSED: this mail is about turn 2 (the TURN line (line 2) names it), which is not open yet") {
		t.Errorf("the answer to RESOLVE NOW for turn 2 while turn 1 is open:\n%s", body(ack))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("a RESOLVE NOW for turn 2 resolved turn 1")
	}
	id = h.send("referee@pbem.localhost", "resolve", refereeCommand("TURN 1", "RESOLVE NOW"))
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(id))
	if !strings.Contains(body(ack), "(TURN 1) will be resolved now") || !strings.Contains(body(ack), "Turn commands of this mail are about") {
		t.Errorf("the answer to RESOLVE NOW with TURN 1:\n%s", body(ack))
	}
	waitUntil(t, "turn 1 resolved", func() bool { rec, _ := g.DB.LatestTurn(ctx, "syw"); return rec.Turn == 1 })
}

// TestRefereeReleasesAFinalTurnHeld: a turn closed by every nation's FINAL
// while the intake is down is held; the referee's RESOLVE NOW releases it
// (the first close stands, the referee's word is added to it).
func TestRefereeReleasesAFinalTurnHeld(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, nil, &Options{TurnMailer: PlainTurnMail})
	g := h.d.Game
	ctx := context.Background()
	waitUntil(t, "the intake connected", func() bool { ih, _ := g.IntakeHealth(ctx); return ih.Up && ih.Run == g.run.ID() })
	g.noteIntake(ctx, false, "dial tcp 127.0.0.1:993: connection refused", time.Now())
	for _, n := range []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"} {
		h.send(n+"@pbem.localhost", "orders", strings.Replace(emptySheet(n, 1), "END\n", "FINAL\nEND\n", 1))
	}
	h.settle()
	waitUntil(t, "the turn held", func() bool { r, ok, _ := g.readRunner(ctx); return ok && r.State == runnerHeld })
	c, closed, _ := g.earlyClose(ctx, g.DB, 1)
	if !closed || c.By != closedByFinal || c.Referee {
		t.Fatalf("the close: %+v (closed %v)", c, closed)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved while the intake was down")
	}
	h.send("referee@pbem.localhost", "resolve", refereeCommand("RESOLVE NOW"))
	waitUntil(t, "turn 1 resolved on the referee's word", func() bool { rec, _ := g.DB.LatestTurn(ctx, "syw"); return rec.Turn == 1 })
	if c, _, _ := g.earlyClose(ctx, g.DB, 1); c.By != closedByFinal || !c.Referee {
		t.Errorf("the close after RESOLVE NOW: %+v", c)
	}
}
