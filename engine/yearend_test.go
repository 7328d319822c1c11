package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// yearEndState is the yearend test map at the 1752 year-end, every home
// city held by its nation.
func yearEndState(t testing.TB) (*hexmap.Map, *engine.State) {
	t.Helper()
	m, err := hexmap.Load("testdata/maps/yearend.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := &engine.State{Game: "t", Ruleset: "syw-1752", Turn: 7, Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4}}
	for _, nat := range m.Nations {
		s.Nations = append(s.Nations, engine.NationState{ID: nat.ID, NextForce: 50})
	}
	for _, c := range m.Cities {
		cs := game.CityState{Name: c.Name}
		if p, ok := m.Province(c.Province); ok {
			cs.Controller, cs.Loyalty = p.Owner, p.Owner
		}
		s.Cities = append(s.Cities, cs)
	}
	s.Normalize()
	return m, s
}

// TestVictoryTiePlayOn: with YearEnd.VictoryTie play-on a tie at the
// largest tax base names no winner, and the game goes on.
func TestVictoryTiePlayOn(t *testing.T) {
	m, s := yearEndState(t)
	for i := range s.Cities {
		c := &s.Cities[i]
		var col, row int
		if _, err := fmt.Sscanf(c.Name, "V%02d%02d", &col, &row); err != nil {
			continue
		}
		// Eisenmark 1000 + 11 × 400, Fromande 400 + 12 × 400 + Dorf 200.
		switch k := (row-8)*12 + col; {
		case k <= 11:
			c.Controller = "eisenmark"
		case k <= 23:
			c.Controller = "fromande"
		}
	}
	if c, ok := s.City("Dorf"); ok {
		c.Controller = "fromande"
	}
	r := ruleset.SYW1752()
	r.YearEnd.VictoryTie = ruleset.TiePlayOn
	res, err := engine.Resolve(engine.Input{Map: m, Rules: r, State: s})
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Victory != nil {
		t.Fatalf("victory %+v, want none (play on)", res.State.Victory)
	}
	var v *engine.VictoryDeclared
	for _, e := range res.Events {
		if x, ok := e.(*engine.VictoryDeclared); ok {
			v = x
		}
	}
	if v == nil || !v.Tie || len(v.Winners) != 0 || len(v.Contenders) != 2 {
		t.Fatalf("VictoryDeclared %+v, want a tie of two contenders and no winner", v)
	}
}

// TestUnfieldedDisband: with YearEnd.Unfielded disband, a force the sheet
// forgot is disbanded even though the treasury could pay.
func TestUnfieldedDisband(t *testing.T) {
	m, s := yearEndState(t)
	s.Forces = []game.Force{
		{ID: "E1", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 1, Row: 5}), Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 10}}},
		{ID: "E2", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 1, Row: 5}), Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 10}}},
	}
	orders := []engine.Orders{{Nation: "eisenmark", Turn: 7, List: []engine.Order{engine.Field{Force: "E1"}}}}
	for _, tc := range []struct {
		rule ruleset.UnfieldedDefault
		keep bool
	}{{ruleset.UnfieldedDisband, false}, {ruleset.UnfieldedKeep, true}} {
		r := ruleset.SYW1752()
		r.YearEnd.Unfielded = tc.rule
		res, err := engine.Resolve(engine.Input{Map: m, Rules: r, State: s, Orders: orders})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := res.State.Force("E1"); !ok {
			t.Errorf("%s: E1, fielded, is gone", tc.rule)
		}
		if _, ok := res.State.Force("E2"); ok != tc.keep {
			t.Errorf("%s: E2 kept %v, want %v", tc.rule, ok, tc.keep)
		}
	}
}

// TestTreatyLife: a treaty gets its ID at once, is ratified by the last
// attestation, published when that turn is resolved, breached by the
// referee's ruling and its penalty ended only by the aggrieved party.
func TestTreatyLife(t *testing.T) {
	m, s := yearEndState(t)
	s.Turn = 3
	tr, err := engine.ProposeTreaty(s, "eisenmark", "Peace", "Peace between us.", []game.NationID{"fromande", "eisenmark"})
	if err != nil || tr.ID != "T1" {
		t.Fatalf("ProposeTreaty: %v, %+v", err, tr)
	}
	if _, err := engine.ProposeTreaty(s, "unterreich", "x", "y", []game.NationID{"fromande", "eisenmark"}); !errors.Is(err, engine.ErrNotParty) {
		t.Fatalf("a non-party's treaty: %v, want ErrNotParty", err)
	}
	if _, err := engine.AttestTreaty(s, "T1", "unterreich"); !errors.Is(err, engine.ErrNotParty) {
		t.Fatalf("a non-party's attestation: %v", err)
	}
	if err := engine.BreachTreaty(s, "T1", "eisenmark", "fromande"); err == nil {
		t.Fatal("a breach of a treaty not yet public was accepted")
	}
	ok, err := engine.AttestTreaty(s, "t1", "fromande")
	if err != nil || !ok {
		t.Fatalf("AttestTreaty: %v %v", ok, err)
	}
	if v := engine.View(m, ruleset.SYW1752(), s, "unterreich"); len(v.Treaties) != 0 {
		t.Fatalf("unterreich sees %d treaties before publication", len(v.Treaties))
	}
	res, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: s})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := engine.FindTreaty(res.State, "T1")
	if got.Published != 4 {
		t.Fatalf("published %d, want 4", got.Published)
	}
	v := engine.View(m, ruleset.SYW1752(), res.State, "unterreich")
	if len(v.Treaties) != 1 {
		t.Fatalf("unterreich sees %d treaties after publication, want 1", len(v.Treaties))
	}
	for _, ns := range v.Nations {
		if ns.ID == "eisenmark" && ns.TaxBase != 1000 {
			t.Errorf("unterreich sees Eisenmark's tax base as %d, want 1000", ns.TaxBase)
		}
	}
	s = res.State
	if err := engine.BreachTreaty(s, "T1", "eisenmark", "fromande"); err != nil {
		t.Fatal(err)
	}
	if err := engine.EndPenalty(s, "T1", "eisenmark", "fromande", "eisenmark"); !errors.Is(err, engine.ErrNotAggrieved) {
		t.Fatalf("the offender lifted his own penalty: %v", err)
	}
	if err := engine.EndPenalty(s, "T1", "eisenmark", "fromande", "fromande"); err != nil {
		t.Fatal(err)
	}
	if engine.NextTreatyID(s) != "T2" {
		t.Fatalf("next ID %s", engine.NextTreatyID(s))
	}
}

// BenchmarkYearEndLarge: the year-end of the generated 200×200-hex,
// 40-nation game (4,000 land forces and a fleet each), every nation
// fielding everything and buying in its capitol.
func BenchmarkYearEndLarge(b *testing.B) {
	g := newGenGame(1, 200, 200, 40, 100)
	in := g.input(1)
	st := g.state.Clone()
	st.Turn = 7
	for i := range st.Cities {
		st.Cities[i].Treasury = 5000
	}
	in.State = st
	in.Orders = nil
	for _, nat := range g.m.Nations {
		in.Orders = append(in.Orders, engine.Orders{Nation: nat.ID, Turn: 7, List: []engine.Order{
			engine.Field{At: engine.At{Line: 1}, All: true},
			engine.Buy{At: engine.At{Line: 2}, City: nat.Capitol, What: engine.Purchase{Troops: &game.Troops{Arm: game.LineInfantry, Grade: game.GradeC, Count: 50}}},
			engine.Buy{At: engine.At{Line: 3}, City: nat.Capitol, What: engine.Purchase{Gun: game.FieldGun, Count: 2}},
		}})
	}
	b.ReportAllocs()
	var events int
	for b.Loop() {
		res, err := engine.Resolve(in)
		if err != nil {
			b.Fatal(err)
		}
		events = len(res.Events)
	}
	b.ReportMetric(float64(len(st.Forces)), "forces")
	b.ReportMetric(float64(events), "events")
}

// TestFundsAtFieldingForecast: what the checker forecasts a nation will
// hold at the year-end's fielding is what the engine gives it, with the
// capitol held, lost (the crowns left in it are not counted), regained
// (the temporary capitol's crowns come home), and under a treaty penalty.
func TestFundsAtFieldingForecast(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(s *engine.State)
	}{
		{"held", func(s *engine.State) {}},
		{"lost", func(s *engine.State) {
			c, _ := s.City("Altburg")
			c.Controller, c.Treasury = "fromande", 500
			h, _ := s.City("Hafen")
			h.Treasury = 40
			n, _ := s.Nation("eisenmark")
			n.TemporaryCapitol = "Hafen"
		}},
		{"regained", func(s *engine.State) {
			c, _ := s.City("Altburg")
			c.Treasury = 10
			h, _ := s.City("Hafen")
			h.Treasury = 400
			n, _ := s.Nation("eisenmark")
			n.TemporaryCapitol = "Hafen"
		}},
		{"penalty", func(s *engine.State) {
			s.Treaties = []game.Treaty{{ID: "T1", Parties: []game.NationID{"eisenmark", "fromande"}, Ratified: 2, Published: 3,
				Penalties: []game.TreatyPenalty{{Offender: "eisenmark", Aggrieved: "fromande", Since: 4}}}}
		}},
	} {
		m, s := yearEndState(t)
		tc.setup(s)
		want := engine.FundsAtFielding(m, ruleset.SYW1752(), s, "eisenmark")
		res, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: s})
		if err != nil {
			t.Fatal(err)
		}
		if _, got := engine.Treasury(m, res.State, "eisenmark"); got != want {
			t.Errorf("%s: forecast %d, the engine gives %d", tc.name, want, got)
		}
	}
}

// TestYearEndDeterminism: the year-end of a generated game, with fielding,
// buying and penalties, gives the same bytes twice, and leaves its input
// state untouched.
func TestYearEndDeterminism(t *testing.T) {
	g := newGenGame(3, 40, 40, 6, 12)
	st := g.state.Clone()
	st.Turn = 7
	for i := range st.Cities {
		st.Cities[i].Treasury = 700
	}
	st.Treaties = []game.Treaty{{ID: "T1", Parties: []game.NationID{st.Nations[0].ID, st.Nations[1].ID}, Ratified: 7,
		Penalties: []game.TreatyPenalty{{Offender: st.Nations[0].ID, Aggrieved: st.Nations[1].ID, Since: 3}}}}
	var orders []engine.Orders
	for _, nat := range g.m.Nations {
		orders = append(orders, engine.Orders{Nation: nat.ID, Turn: 7, List: []engine.Order{
			engine.Field{At: engine.At{Line: 1}, All: true},
			engine.Buy{At: engine.At{Line: 2}, City: nat.Capitol, What: engine.Purchase{Troops: &game.Troops{Arm: game.LightCavalry, Grade: game.GradeC, Count: 12}}},
		}})
	}
	before, _ := json.Marshal(st)
	in := engine.Input{Map: g.m, Rules: ruleset.SYW1752(), State: st, Orders: orders, Seed: 5}
	a, err := engine.Resolve(in)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := engine.Resolve(in)
	if !bytes.Equal(encodeResult(t, a), encodeResult(t, b)) {
		t.Fatal("two resolutions of the same year-end differ")
	}
	after, _ := json.Marshal(st)
	if !bytes.Equal(before, after) {
		t.Fatal("Resolve changed its input state")
	}
}
