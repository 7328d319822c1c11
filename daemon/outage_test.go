package daemon

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestOutageHoldsTheTurn: with the intake unable to reach the mailbox at
// the deadline the turn waits, the referee is mailed why (once) and "pbem
// status" shows the intake down; back up after a ten-minute outage within
// the window the turn still waits; the referee's RESOLVE NOW resolves it.
func TestOutageHoldsTheTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	st, _ := g.State(ctx)
	label := st.Calendar.Label(1)
	h.settle()
	for start := time.Now(); ; time.Sleep(25 * time.Millisecond) {
		if ih, _ := g.IntakeHealth(ctx); ih.Known && ih.Up {
			break
		}
		if time.Since(start) > waitLimit {
			t.Fatal("the intake's connection was never recorded")
		}
	}
	if s, _ := g.Status(ctx); !strings.Contains(s.Text(time.Now()), "Intake: connected since") {
		t.Errorf("the status of a running daemon:\n%s", s.Text(time.Now()))
	}
	g.noteIntake(ctx, false, "dial tcp 127.0.0.1:993: connection refused", time.Now().Add(-10*time.Minute))
	if err := g.DB.SetDeadline(ctx, "syw", 1, time.Now().Add(300*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	told, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), label+" waits: the mail is not working")
	})
	if !strings.Contains(body(told), "cannot read the game's mailbox") || !strings.Contains(body(told), "connection refused") {
		t.Fatalf("the referee's outage notice:\n%s", body(told))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved while the intake was down")
	}
	s, _ := g.Status(ctx)
	if text := s.Text(time.Now()); !strings.Contains(text, "Intake: DOWN since") || !strings.Contains(text, "Outbox: flowing") {
		t.Errorf("the status during the outage:\n%s", text)
	}

	g.noteIntake(ctx, true, "", time.Now())
	h.runnerLooked()
	if due, _, _ := g.turnDue(ctx); due {
		t.Error("the turn is due right after a ten-minute outage before its deadline")
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved right after the outage")
	}
	h.settle()
	n := 0
	for _, m := range h.inbox("referee@pbem.localhost", "pw-referee") {
		if strings.Contains(header(string(m), "Subject"), "waits") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("the referee got %d outage notices, want 2 (one per cause)", n)
	}
	h.resolveByMail(label)
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 1 {
		t.Error("RESOLVE NOW did not release the turn")
	}
}
