package daemon

import (
	"context"
	"strings"
	"testing"
)

// TestRefusedSheetSaysWhatStands: a sheet refused for a wrong password or
// for another turn says that the earlier sheet in force still stands, with
// its receipt; with none in force, that there is none and the forces hold
// on DEFEND.
func TestRefusedSheetSaysWhatStands(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	const owner, ownerPW = "eisenmark@pbem.localhost", "pw-eisenmark"
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	// Nothing in force yet.
	wrong := h.send(owner, "orders", strings.Replace(goodSheet, "demo-eisenmark", "guess", 1))
	ans, _ := h.waitFor(owner, ownerPW, replyTo(wrong))
	if text := flat(body(ans)); !strings.Contains(text, "No sheet of Eisenmark is in force for Turn 1") ||
		!strings.Contains(text, "hold where they are, on DEFEND") {
		t.Errorf("the refusal does not say no sheet is in force:\n%s", body(ans))
	}

	good := h.send(owner, "orders", goodSheet)
	if ack, _ := h.waitFor(owner, ownerPW, replyTo(good)); ack == "" {
		t.Fatal("no answer to the good sheet")
	}
	sub, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders)
	if err != nil || sub.ReceiptHash == "" {
		t.Fatalf("the good sheet is not in force: %v", err)
	}
	for name, sheet := range map[string]string{
		"wrong password": strings.Replace(goodSheet, "demo-eisenmark", "guess", 1),
		"another turn":   strings.Replace(goodSheet, "TURN 1", "TURN 0", 1),
	} {
		id := h.send(owner, "orders", strings.Replace(sheet, "STANCE E1 ATTACK", "STANCE E1 DEFEND", 1))
		ans, _ := h.waitFor(owner, ownerPW, replyTo(id))
		text := flat(body(ans))
		if !strings.Contains(text, "REFUSED") || !strings.Contains(text, "Your earlier sheet for Turn 1, April 1752 (receipt "+sub.ReceiptHash) ||
			!strings.Contains(text, "is still in force") {
			t.Errorf("%s: the refusal does not say the earlier sheet (receipt %s) stands:\n%s", name, sub.ReceiptHash, body(ans))
		}
	}
	h.settle()
	if now, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders); err != nil || now.ID != sub.ID {
		t.Errorf("a refused sheet replaced the one in force: %v", err)
	}
}
