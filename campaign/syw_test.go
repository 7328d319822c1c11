package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/scenarios"
)

// TestSYWThroughTheSeam plays SYW turns through the interface only, as the
// Trossian ones are played, and checks each turn against engine.Resolve
// called directly with the same inputs: the same state, events and dice,
// byte for byte — the seam changes nothing of SYW. A sheet is checked, its
// orders stored and read back, the state stored and read back, a nation's
// view taken; with the battles on the table, a turn with a land battle
// waits for it and the referee's RESULT is read against it.
func TestSYWThroughTheSeam(t *testing.T) {
	c, err := ForRuleset("syw-1752")
	if err != nil || c.ID() != "syw" {
		t.Fatalf("%v %v", c, err)
	}
	sc, err := c.LoadScenario(c.DefaultScenario(), scenarios.DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Open("syw-1752", sc)
	if err != nil {
		t.Fatal(err)
	}
	hp, ok := g.(HexPlayed)
	if !ok {
		t.Fatal("the SYW game is not HexPlayed")
	}
	st, err := g.NewState("syw")
	if err != nil {
		t.Fatal(err)
	}
	es, _ := SYWState(st)
	// A force of Eisenmark's to give an order to.
	var force game.ForceID
	for _, f := range es.Forces {
		if f.Nation == "eisenmark" && !f.IsFleet() {
			force = f.ID
			break
		}
	}
	for turn := 1; turn <= 2; turn++ {
		r := g.Check(fmt.Sprintf("GAME syw\nNATION eisenmark\nPASSWORD x\nTURN %d\nSTANCE %s ATTACK\nEND\n", turn, force), CheckContext{State: st, Game: "syw"})
		if r.Refused || len(r.Orders.List) != 1 {
			t.Fatalf("turn %d: the sheet:\n%s", turn, r.Text)
		}
		data, err := g.EncodeOrders(r.Orders)
		if err != nil {
			t.Fatal(err)
		}
		back, err := g.DecodeOrders(data)
		if err != nil || len(back.List) != 1 {
			t.Fatalf("orders do not survive the store: %v", err)
		}
		back.Nation, back.Turn = "eisenmark", turn
		orders := []engine.Orders{back}
		out, err := g.Resolve(TurnInput{State: st, Orders: orders, Seed: uint64(turn) * 17})
		if err != nil || out.State == nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		direct, err := engine.Resolve(engine.Input{Map: hp.HexMap(), Rules: hp.HexRules(), State: es, Orders: orders, Seed: uint64(turn) * 17})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := out.State.MarshalJSON()
		b, _ := json.Marshal(direct.State)
		ea, _ := engine.MarshalEvents(out.Events)
		eb, _ := engine.MarshalEvents(direct.Events)
		ra, _ := json.Marshal(out.Rolls)
		rb, _ := json.Marshal(direct.Rolls)
		if !bytes.Equal(a, b) || !bytes.Equal(ea, eb) || !bytes.Equal(ra, rb) {
			t.Fatalf("turn %d through the seam differs from engine.Resolve", turn)
		}
		if st, err = g.DecodeState(a); err != nil || st.TurnNumber() != turn+1 {
			t.Fatalf("state read back: %v", err)
		}
		if again, _ := st.MarshalJSON(); !bytes.Equal(again, a) {
			t.Error("the state does not survive the store")
		}
		es, _ = SYWState(st)
	}
	if st.TurnLabel() != "Turn 3, June 1752" || len(st.Playing()) != 5 {
		t.Errorf("%s, %v", st.TurnLabel(), st.Playing())
	}
	if v, err := g.View(st, "eisenmark"); err != nil {
		t.Error(err)
	} else if _, ok := v.(*engine.NationView); !ok {
		t.Errorf("the view is a %T", v)
	}
	if len(g.OrderKinds()) < 10 {
		t.Error("too few order kinds")
	}
}

// TestSYWTableThroughTheSeam: with the battles on the table, a turn whose
// armies meet waits for the referee, and his RESULT is read against the
// battle: a wrong one refused, a right one taken and the turn resolved
// with it.
func TestSYWTableThroughTheSeam(t *testing.T) {
	c := SYW()
	sc, err := c.LoadScenario(c.DefaultScenario(), scenarios.DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	ss := sc.(sywScenario).sc
	g0, err := c.Open("syw-1752", sc)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := SYWGame(ss, g0.(HexPlayed).HexRules(), true)
	st, _ := g.NewState("syw")
	es, _ := SYWState(st)
	// Two armies of different nations in one open hex, one attacking.
	var a, b *game.Force
	for i := range es.Forces {
		f := &es.Forces[i]
		if f.IsFleet() || f.Aboard != "" || f.At.Hex == (game.Hex{}) || !f.HasRole(game.General) || f.FightingFigures() < 40 {
			continue
		}
		switch {
		case a == nil:
			a = f
		case b == nil && f.Nation != a.Nation:
			b = f
		}
	}
	if a == nil || b == nil {
		t.Skip("no two armies of different nations")
	}
	m := ss.Map
	for _, nb := range m.Neighbors(b.At.Hex) {
		if _, city := m.CityAt(nb); !city && m.TerrainAt(nb) != game.Mountain && m.TerrainAt(nb) != game.Sea {
			b.At = game.AtHex(nb)
			break
		}
	}
	a.At, a.Stance, b.Stance = b.At, game.Attack, game.Attack
	orders := []engine.Orders{{Nation: a.Nation, Turn: 1, List: []engine.Order{engine.SetStance{Force: a.ID, Stance: game.Attack}}}}
	out, err := g.Resolve(TurnInput{State: st, Orders: orders, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if out.State != nil || len(out.Awaiting) == 0 || out.Awaiting[0].Key != b.At.Hex.String() {
		t.Fatalf("the turn did not wait for the battle at %s: %+v", b.At.Hex, out.Awaiting)
	}
	if _, _, probs := g.ReadResult(fmt.Sprintf("RESULT %s\nOUTCOME smashing\nEND\n", b.At.Hex), out.Awaiting); len(probs) == 0 {
		t.Error("a wrong result was taken")
	}
	good := fmt.Sprintf("RESULT %s\nOUTCOME decisive\nWINNER %s\nLOSSES %s %s %s KILLED 2 ROUTED 1\nEND\n", b.At.Hex, a.Nation, b.ID, b.Troops[0].Arm, b.Troops[0].Grade)
	key, res, probs := g.ReadResult(good, out.Awaiting)
	if len(probs) > 0 || key != b.At.Hex.String() {
		t.Fatalf("%v", probs)
	}
	out, err = g.Resolve(TurnInput{State: st, Orders: orders, Seed: 5, Results: []json.RawMessage{res}})
	if err != nil || out.State == nil {
		t.Fatalf("with its result: %v %+v", err, out.Awaiting)
	}
	ev, _ := engine.MarshalEvents(out.Events)
	if !strings.Contains(string(ev), `"Model":"tabletop"`) {
		t.Error("the battle was not fought with the referee's result")
	}
}
