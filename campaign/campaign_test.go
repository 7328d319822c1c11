package campaign

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/scenarios"
)

// TestTrossianThroughTheSeam plays two turns of the Trossian campaign
// through the interface only, as the daemon will: a game opened by its
// ruleset, a sheet checked, a turn waiting for a battle, the referee's
// RESULT read against its sheet, the turn resolved, the state stored and
// read back.
func TestTrossianThroughTheSeam(t *testing.T) {
	c, err := ForRuleset("trossian")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := c.LoadScenario(c.DefaultScenario(), scenarios.TrossianDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Nations()) != 5 || sc.Name() != "Trossia, 1801" {
		t.Fatalf("scenario %q, %d nations", sc.Name(), len(sc.Nations()))
	}
	g, err := c.Open("trossian", sc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.NewState("g1")
	if err != nil {
		t.Fatal(err)
	}
	check := func(nation, body string) engine.Orders {
		r := g.Check("GAME g1\nNATION "+nation+"\nTURN "+itoa(st.TurnNumber())+"\n"+body+"\nEND\n", CheckContext{State: st, Game: "g1"})
		if r.Refused || len(r.Diagnostics) > 0 {
			t.Fatalf("%s", r.Text)
		}
		back, err := g.DecodeOrders(must(g.EncodeOrders(r.Orders)))
		if err != nil || len(back.List) != len(r.Orders.List) {
			t.Fatalf("orders do not survive the store: %v", err)
		}
		return back
	}
	var turn2 []engine.Orders
	// Turn 1: Norvale and Ostmark make for Trossburg.
	orders := []engine.Orders{check("norvale", "MOVE N1 TO Trossburg\nATTACK N1"), check("ostmark", "MOVE O1 TO Trossburg")}
	out, err := g.Resolve(TurnInput{State: st, Orders: orders, Seed: 7})
	if err != nil || out.State == nil {
		t.Fatalf("turn 1: %v %v", err, out)
	}
	st = out.State
	// Turn 2: the armies meet; the turn waits for the referee.
	out, err = g.Resolve(TurnInput{State: st, Orders: turn2, Seed: 8})
	if err != nil || out.State != nil || len(out.Awaiting) != 1 || out.Awaiting[0].Key != "Trossburg" {
		t.Fatalf("turn 2 should wait for the battle at Trossburg: %v %+v", err, out)
	}
	if !strings.Contains(out.Awaiting[0].Text, "RESULT Trossburg") {
		t.Errorf("battle sheet:\n%s", out.Awaiting[0].Text)
	}
	_, _, probs := g.ReadResult("RESULT Trossburg\nOUTCOME win\nWINNER ostmark\nUNIT N1 hussars DESTROYED 1\nEND", out.Awaiting)
	if len(probs) == 0 {
		t.Error("a result with an unknown stand type was read")
	}
	_, _, probs = g.ReadResult("RESULT Trossburg\nOUTCOME win\nWINNER ostmark\nUNIT N1 heavy-cavalry DESTROYED 1\nEND", out.Awaiting)
	if len(probs) == 0 || !strings.Contains(probs[0].Message, "N1 had 0 heavy-cavalry") {
		t.Errorf("a result that does not fit its battle: %v", probs)
	}
	key, res, probs := g.ReadResult("Fought on Sunday.\nRESULT Trossburg\nOUTCOME win\nWINNER ostmark\nUNIT N1 line-infantry DESTROYED 2\nEND", out.Awaiting)
	if len(probs) > 0 || key != "Trossburg" {
		t.Fatalf("%v", probs)
	}
	out, err = g.Resolve(TurnInput{State: st, Orders: turn2, Seed: 8, Results: []json.RawMessage{res}})
	if err != nil || out.State == nil {
		t.Fatalf("turn 2 with its result: %v", err)
	}
	fought := false
	for _, e := range out.Events {
		fought = fought || e.Kind() == "BattleFought"
	}
	if !fought {
		t.Error("no battle fought")
	}
	// The stored state and events read back the same.
	data, err := out.State.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := g.DecodeState(data)
	if err != nil || back.TurnNumber() != 3 || back.TurnLabel() != "Turn 3, Late Spring 1801" || len(back.Playing()) != 5 {
		t.Fatalf("state read back: %v %v", err, back)
	}
	if again, _ := back.MarshalJSON(); !bytes.Equal(again, data) {
		t.Error("the state does not survive the store")
	}
	evs, err := engine.MarshalEvents(out.Events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.UnmarshalEvents(evs); err != nil {
		t.Errorf("the events do not decode: %v", err)
	}
	v, err := g.View(back, "norvale")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(v); err != nil {
		t.Error(err)
	}
	if len(g.OrderKinds()) < 12 {
		t.Error("too few order kinds")
	}
}

// TestRulesetChoosesCampaign: the ruleset names the campaign; an unknown
// one is refused with the list.
func TestRulesetChoosesCampaign(t *testing.T) {
	if c, err := ForRuleset("trossian"); err != nil || c.ID() != "trossian" {
		t.Errorf("%v %v", c, err)
	}
	if _, err := ForRuleset("chess"); err == nil || !strings.Contains(err.Error(), "trossian") {
		t.Errorf("%v", err)
	}
	if ids := RulesetIDs(); len(ids) == 0 || len(All()) == 0 {
		t.Error("no campaigns")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
