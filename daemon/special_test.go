package daemon

import (
	"strings"
	"testing"
)

// TestSpecialForwardedAndDroppedApproval: a SPECIAL order goes to the
// referee with a token, like a REQUEST; the referee's APPROVE with it is
// recorded for the nation; a later sheet without it is told that it drops
// an approved request.
func TestSpecialForwardedAndDroppedApproval(t *testing.T) {
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
	if !strings.Contains(body(ack), "drops your request "+token) || !strings.Contains(body(ack), "already APPROVED") {
		t.Errorf("the answer to a sheet dropping an approved SPECIAL:\n%s", body(ack))
	}
}
