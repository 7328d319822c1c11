package daemon

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestRulingStoredAsEngineInput: the referee's APPROVE with effects is stored
// as the engine's typed ruling bound to the request token and the requester,
// and Rulings gives it back as engine input; a later DENY of the same
// request leaves nothing of it to apply. (A BREACH acts on the treaty ledger
// at once, treaty.go, and is not a ruling left for the turn.)
func TestRulingStoredAsEngineInput(t *testing.T) {
	h := newHarness(t, nil)
	token := h.sendRequest()
	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n  TREASURY eisenmark -100\n")
	h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "Referee commands received")
	})
	h.settle()
	ctx := context.Background()
	got, err := h.d.Game.Rulings(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Ruling{
		{Token: token, Nation: "eisenmark", Effects: []engine.Effect{engine.TreasuryChange{Nation: "eisenmark", Delta: -100}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rulings in force:\n%+v\nwant\n%+v", got, want)
	}
	for _, s := range submissionsOf(t, h, KindRuling) {
		var r engine.Ruling
		if err := json.Unmarshal([]byte(s.CanonicalText), &r); err != nil || r.Token != s.ReceiptHash {
			t.Errorf("stored ruling %q is not the engine's JSON bound to its token %q: %v", s.CanonicalText, s.ReceiptHash, err)
		}
	}

	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nDENY "+token+"\n")
	h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "denied")
	})
	h.settle()
	got, err = h.d.Game.Rulings(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("after the DENY, rulings in force:\n%+v\nwant none", got)
	}
}
