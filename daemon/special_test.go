package daemon

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestSpecialForwardedAndCarriedOver: a SPECIAL order goes to the
// referee with a token, like a REQUEST; the referee's APPROVE with it is
// recorded for the nation; a later sheet without it carries it over,
// approved, with the SPECIAL among its orders and the ruling in force, and
// does not forward it again; a sheet withdrawing it takes the ruling back.
func TestSpecialForwardedAndCarriedOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nSPECIAL \"Send an envoy to the court of Valmont\"", 1)
	id := h.send("eisenmark@pbem.localhost", "orders", sheet)
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if !strings.Contains(body(ack), "goes to the referee to rule on, as request S") {
		t.Fatalf("the answer to a sheet with SPECIAL:\n%s", body(ack))
	}
	fwd, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "SPECIAL S")
	})
	var token string
	for _, line := range strings.Split(body(fwd), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "APPROVE" {
			token = f[1]
		}
	}
	if token == "" || !strings.Contains(body(fwd), "Send an envoy") {
		t.Fatalf("the SPECIAL forwarded to the referee:\n%s", body(fwd))
	}
	cmd := h.send("referee@pbem.localhost", "ruling", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n  TREASURY eisenmark +50\n")
	if a, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd)); !strings.Contains(body(a), "recorded for Eisenmark's request") {
		t.Fatalf("the APPROVE of the SPECIAL:\n%s", body(a))
	}
	if told, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), token+" was approved")
	}); told == "" {
		t.Error("Eisenmark was not told of the ruling")
	}
	id = h.send("eisenmark@pbem.localhost", "orders again", goodSheet)
	ack, _ = h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if !strings.Contains(body(ack), "Carried over from your earlier sheet") || !strings.Contains(body(ack), "SPECIAL \"Send an envoy to the court of Valmont\"   # "+token) {
		t.Errorf("the answer to a sheet without the approved SPECIAL:\n%s", body(ack))
	}
	h.settle()
	ctx := context.Background()
	if rs, err := h.d.Game.Rulings(ctx, 1); err != nil || len(rs) != 1 || rs[0].Token != token {
		t.Errorf("the approved SPECIAL's ruling is not in force after the replacement: %+v %v", rs, err)
	}
	orders, err := h.d.Game.SheetsInForce(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(orders[0].List, func(o engine.Order) bool {
		sp, ok := o.(engine.Special)
		return ok && strings.Contains(sp.Text, "Valmont")
	}) {
		t.Errorf("the carried SPECIAL is not among the orders in force: %+v", orders)
	}
	forwarded := 0
	for _, m := range h.inbox("referee@pbem.localhost", "pw-referee") {
		if strings.Contains(header(string(m), "Subject"), "SPECIAL "+token) {
			forwarded++
		}
	}
	if forwarded != 1 {
		t.Errorf("the SPECIAL was forwarded %d times, want once", forwarded)
	}
	withdraw := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nWITHDRAW SPECIAL "+token, 1)
	id = h.send("eisenmark@pbem.localhost", "orders withdrawn", withdraw)
	if ack, _ = h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); !strings.Contains(body(ack), "Withdrawn by this sheet") {
		t.Errorf("the answer to a sheet withdrawing the SPECIAL:\n%s", body(ack))
	}
	h.settle()
	if rs, _ := h.d.Game.Rulings(ctx, 1); len(rs) != 0 {
		t.Errorf("the withdrawn SPECIAL's ruling still applies: %+v", rs)
	}
}
