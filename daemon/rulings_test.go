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
	t.Parallel()
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

// TestRulingsReadAsSentences: a ruled request is told as a sentence — in
// "pbem status", in the player's ruling mail and in the report of the
// turn — and an approval with no effect reads as one, not as "no ruling"
// nor as the ruling's JSON; the referee's request mail shows the reply with
// its PASSWORD line.
func TestRulingsReadAsSentences(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	token := h.sendRequest()
	req, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "Request "+token)
	})
	for _, line := range []string{"PASSWORD your-referee-password", "APPROVE " + token, "DENY " + token} {
		if !strings.Contains(body(req), line) {
			t.Errorf("the request mail lacks the reply line %q:\n%s", line, body(req))
		}
	}
	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n")
	ruling, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "approved")
	})
	want := "Request " + token + " of Eisenmark approved, with no change to the game."
	if !strings.Contains(body(ruling), want) {
		t.Errorf("the ruling mail lacks %q:\n%s", want, body(ruling))
	}
	h.settle()
	ctx := context.Background()
	st, err := h.d.Game.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := st.Text(h.d.Game.Now())
	if !strings.Contains(text, "ruled: "+want) || strings.Contains(text, "{") {
		t.Errorf("pbem status does not tell the ruling as a sentence:\n%s", text)
	}
	rs, err := h.d.Game.reportRulings(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Text != want || len(rs[0].Nations) != 1 || rs[0].Nations[0] != "eisenmark" {
		t.Errorf("the report's rulings: %+v, want Eisenmark's %q", rs, want)
	}
}

// TestApproveWithABadEffectRecordsNothing: the referee approves a request
// with two effect lines, the second written wrong; nothing of the APPROVE is
// recorded (not the +50 alone), and the answer says which line is wrong,
// what was read and what was expected.
func TestApproveWithABadEffectRecordsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	token := h.sendRequest()
	id := h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+
		"\n  TREASURY eisenmark +50\n  TREASURY eisenmark 70\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(id))
	for _, want := range []string{
		"line 2: ERROR: APPROVE " + token + " was not recorded: its effect line 4 has an error",
		`line 4: ERROR: expected a signed number of crowns, such as +200 or -200, read "70"`,
	} {
		if !strings.Contains(body(ack), want) {
			t.Errorf("the referee's answer lacks %q:\n%s", want, body(ack))
		}
	}
	if strings.Contains(body(ack), "recorded for") {
		t.Errorf("the answer says the APPROVE was recorded:\n%s", body(ack))
	}
	h.settle()
	if rulings := submissionsOf(t, h, KindRuling); len(rulings) > 0 {
		t.Errorf("a ruling was recorded: %+v", rulings)
	}
}
