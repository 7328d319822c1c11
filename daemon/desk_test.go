package daemon

import (
	"context"
	"strings"
	"testing"
)

// TestDeskActLoggedAndMasked: a desk act runs through the registry as a
// mail's commands do, is kept in the desk's log (latest first) with who,
// whence and the answer, and a new password is never kept.
func TestDeskActLoggedAndMasked(t *testing.T) {
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	lines, ok, err := g.DeskAct(ctx, "referee", "127.0.0.1", "RESET PASSWORD fromande snuffbox\n")
	if err != nil || !ok {
		t.Fatalf("RESET PASSWORD from the desk: %v %v %q", ok, err, lines)
	}
	if !g.VerifyPassword(ctx, "fromande", 1, "snuffbox") {
		t.Error("the new password is not in force")
	}
	if _, ok, _ := g.DeskAct(ctx, "referee", "127.0.0.1", "APPROVE R000000\n"); ok {
		t.Error("an unknown token was not refused")
	}
	log, err := g.DeskLog(ctx)
	if err != nil || len(log) != 2 {
		t.Fatalf("desk log: %v %+v", err, log)
	}
	if !strings.HasPrefix(log[0].Text, "APPROVE R000000") || log[0].OK || !strings.Contains(strings.Join(log[0].Answer, " "), "REFUSED") {
		t.Errorf("the latest act: %+v", log[0])
	}
	if e := log[1]; e.Text != "RESET PASSWORD fromande ********\n" || e.Who != "referee" || e.From != "127.0.0.1" || e.At.IsZero() {
		t.Errorf("the first act as logged: %+v", e)
	}
	for _, e := range log {
		if strings.Contains(e.Text+strings.Join(e.Answer, " "), "snuffbox") {
			t.Errorf("the desk's log keeps the new password: %+v", e)
		}
	}
	if !g.HasRefereePassword() || !g.VerifyReferee(refereePassword) || g.VerifyReferee("not-it") {
		t.Error("the referee password as the console checks it")
	}
}
