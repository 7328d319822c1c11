package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// resolveByMail has the referee resolve the open turn and waits for
// Eisenmark's report of it.
func (h *harness) resolveByMail(label string) {
	h.t.Helper()
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	if rep, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", isReport(label)); rep == "" {
		h.t.Fatalf("no report of %s", label)
	}
	h.settle()
}

// allRows returns every outbox row.
func allRows(t *testing.T, g *Game) []store.OutboxMessage {
	t.Helper()
	var out []store.OutboxMessage
	for _, s := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
		rows, err := g.DB.MessagesInState(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rows...)
	}
	return out
}

// TestRollbackThenRerun: ROLLBACK 1 after two resolved turns sets both
// aside (kept, voided) and opens turn 1 again without resolving it; RERUN 1
// and the turn runner's resolution of turn 2 with nothing changed restore
// the same bytes and send nothing; a correction of turn 1's orders then
// RERUN 1 voids turn 2, mails corrected reports for turn 1, holds turn 2
// open, and its RERUN (the CLI's) corrects it too.
func TestRollbackThenRerun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	id := h.send("eisenmark@pbem.localhost", "orders", marchSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	st, _ := g.State(ctx)
	l1, l2 := st.Calendar.Label(1), st.Calendar.Label(2)
	h.resolveByMail(l1)
	h.resolveByMail(l2)
	t1, _ := g.DB.Turn(ctx, "syw", 1)
	t2, _ := g.DB.Turn(ctx, "syw", 2)
	sentBefore := len(allRows(t, g))

	cmd := h.send("referee@pbem.localhost", "rollback", "PASSWORD "+refereePassword+"\nROLLBACK 1\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), l1+" is open again: 2 turn records set aside") {
		t.Fatalf("the answer to ROLLBACK 1:\n%s", body(ack))
	}
	// Turn 1 was resolved early: its deadline is still to come, and the
	// answer says that it resolves the reopened turn.
	if dl, _ := g.TurnDeadline(ctx, 1); !strings.Contains(strings.Join(strings.Fields(body(ack)), " "), "it is resolved at its deadline, "+g.showTime(dl)) {
		t.Errorf("the answer to ROLLBACK 1 does not say its deadline %s resolves it:\n%s", g.showTime(dl), body(ack))
	}
	h.settle()
	h.runnerLooked() // the runner had its chance to resolve the reopened turn
	if st, _ := g.State(ctx); st.Turn != 1 {
		t.Fatalf("after ROLLBACK 1 turn %d is open, want 1", st.Turn)
	}
	for _, r := range []store.TurnRecord{t1, t2} {
		if v, _ := g.DB.TurnVersion(ctx, "syw", r.Turn, r.Version); v.Status != store.TurnVoided {
			t.Errorf("turn %d after the rollback is %s, want voided (kept)", r.Turn, v.Status)
		}
	}
	if due, _, _ := g.turnDue(ctx); due {
		t.Error("the reopened turn is due although the referee has not resolved it again")
	}

	cmd = h.send("referee@pbem.localhost", "rerun", "PASSWORD "+refereePassword+"\nRERUN 1\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "same result as before the rollback, byte for byte") {
		t.Fatalf("the answer to RERUN 1 after the rollback:\n%s", body(ack))
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 1 || rec.Version != t1.Version || !sameResult(rec, t1) {
		t.Fatalf("after RERUN 1: turn %d v%d, want turn 1 v%d restored byte for byte", rec.Turn, rec.Version, t1.Version)
	}
	// Turn 2 is open again and held; resolved with nothing changed it is restored too.
	if due, _, _ := g.turnDue(ctx); due {
		t.Error("turn 2, set aside, is due without the referee")
	}
	cmd = h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	deadline := time.Now().Add(waitLimit)
	for {
		if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn == 2 {
			if rec.Version != t2.Version || !sameResult(rec, t2) {
				t.Fatalf("turn 2 resolved again after the rollback: v%d, want v%d restored byte for byte", rec.Version, t2.Version)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("turn 2 was not resolved after RESOLVE NOW")
		}
		time.Sleep(25 * time.Millisecond)
	}
	h.settle()
	// Nothing new but the referee's three answers.
	if n := len(allRows(t, g)); n != sentBefore+3 {
		t.Errorf("%d mails queued after rollback and reruns with nothing changed, want %d (the three answers only)", n, sentBefore+3)
	}

	// A correction of turn 1: E1 stays home. RERUN 1 now differs.
	js, err := encodeOrders([]engine.Order{engine.SetStance{Force: "E1", Stance: game.Defend}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.DB.SaveSubmission(ctx, store.Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: KindOrders,
		RawText: "correction", CanonicalText: "STANCE E1 DEFEND", Valid: true, SubmittedAt: time.Now(), Orders: js,
		Ruleset: g.Rules.ID, RulesVersion: g.rulesVersion()}); err != nil {
		t.Fatal(err)
	}
	cmd = h.send("referee@pbem.localhost", "rerun", "PASSWORD "+refereePassword+"\nRERUN 1\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "different result") || !strings.Contains(body(ack), "turn 2 is open again") {
		t.Fatalf("the answer to RERUN 1 after a correction:\n%s", body(ack))
	}
	// Turn 2's deadline is still to come: the answer says it resolves turn 2.
	if dl, _ := g.TurnDeadline(ctx, 2); !strings.Contains(strings.Join(strings.Fields(body(ack)), " "), "it is resolved at its deadline, "+g.showTime(dl)) {
		t.Errorf("the answer to RERUN 1 does not say turn 2's deadline %s resolves it:\n%s", g.showTime(dl), body(ack))
	}
	if c, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "resolved again")
	}); strings.Contains(body(c), "CityCaptured") {
		t.Errorf("the corrected report of turn 1 still has the capture:\n%s", body(c))
	}
	h.settle()
	if st, _ := g.State(ctx); st.Turn != 2 {
		t.Errorf("after RERUN 1 with a change turn %d is open, want 2", st.Turn)
	}
	if v, _ := g.DB.TurnVersion(ctx, "syw", 2, t2.Version); v.Status != store.TurnVoided {
		t.Errorf("turn 2's record after turn 1 changed is %s, want voided", v.Status)
	}
	if due, _, _ := g.turnDue(ctx); due {
		t.Error("turn 2, set aside by the rerun, is due without the referee")
	}
	if n := len(reportRows(t, g, 1)); n != 12 {
		t.Errorf("%d report rows for turn 1 after the correction, want 12 (six corrected)", n)
	}
	line, err := g.Rerun(ctx, 2)
	if err != nil || !strings.Contains(line, "different result") {
		t.Fatalf("pbem rerun 2: %q, %v", line, err)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 2 || rec.Version != t2.Version+1 {
		t.Errorf("after RERUN 2: turn %d v%d, want turn 2 v%d", rec.Turn, rec.Version, t2.Version+1)
	}
	if _, err := g.Rollback(ctx, 5); err == nil {
		t.Error("a rollback to a turn never resolved was accepted")
	}
}

// TestRollbackSentenceSaysWhenTheTurnIsResolved: the answer to a rollback
// says what the turn runner will do with the reopened turn (reopenedDeadline):
// a deadline still to come resolves it; one passed, or none, leaves it to
// the referee.
func TestRollbackSentenceSaysWhenTheTurnIsResolved(t *testing.T) {
	t.Parallel()
	g := &Game{Zone: time.UTC}
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		deadline time.Time
		want     string
	}{
		{now.Add(48 * time.Hour), "it is resolved at its deadline, Sunday 29 November 2026, 03:00 UTC, unless RESOLVE NOW or RERUN 3 resolves it sooner"},
		{now.Add(-time.Hour), "its deadline, Friday 27 November 2026, 02:00 UTC, has passed and does not resolve it: it is held until RESOLVE NOW or RERUN 3, or a deadline set from now on"},
		{time.Time{}, "it has no deadline: it is resolved on RESOLVE NOW or RERUN 3, or at a deadline set from now on"},
	} {
		got := g.rollbackSentence(rollbackPlan{turn: 3, label: "May 1758", void: make([]store.TurnRecord, 1), deadline: tc.deadline, now: now})
		if !strings.Contains(got, tc.want) {
			t.Errorf("deadline %v: %q\nlacks %q", tc.deadline, got, tc.want)
		}
	}
}
