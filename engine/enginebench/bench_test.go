package enginebench_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// load returns the default scenario's map and turn-1 state.
func load(tb testing.TB) (*hexmap.Map, *engine.State) {
	tb.Helper()
	sc, err := scenario.Load("../../scenarios/default")
	if err != nil {
		tb.Fatal(err)
	}
	st, err := sc.InitialState("bench", ruleset.SYW1752().ID)
	if err != nil {
		tb.Fatal(err)
	}
	return sc.Map, st
}

// plausibleOrders gives every nation orders for the state's turn: each land
// force with a general attacks and pursues, and marches on the nearest city
// its nation does not hold (by hex distance, among those it has a route to);
// a big army first splits off its light cavalry under a second general, if it
// has one, to scout ahead on its own; every fleet with an admiral sails to a
// sea area next to where it lies.
func plausibleOrders(m *hexmap.Map, st *engine.State, r *rand.Rand) []engine.Orders {
	var out []engine.Orders
	for _, ns := range st.Nations {
		o := engine.Orders{Nation: ns.ID, Turn: st.Turn}
		line := 0
		add := func(x engine.Order) { o.List = append(o.List, x) }
		for _, f := range st.Forces {
			if f.Nation != ns.ID || f.Aboard != "" {
				continue
			}
			line++
			at := engine.At{Line: line}
			if f.IsFleet() {
				if !f.HasRole(game.Admiral) {
					continue
				}
				var next []game.SeaID
				if f.At.IsSea() {
					next = m.AdjacentSeas(f.At.Sea)
				} else {
					next = m.SeasTouching(f.At.Hex)
				}
				if len(next) > 0 {
					add(engine.Sail{At: at, Fleet: f.ID, Path: []game.Place{game.AtSea(next[r.IntN(len(next))])}})
				}
				continue
			}
			if !f.HasRole(game.General) {
				continue
			}
			add(engine.SetStance{At: at, Force: f.ID, Stance: game.Attack})
			add(engine.Pursue{At: at, Force: f.ID, On: true})
			if f.FightingFigures() > 150 && r.IntN(2) == 0 {
				add(engine.Retreat{At: at, Force: f.ID, Odds: 2})
			}
			if dest, ok := nearestForeignCity(m, st, &f); ok {
				add(engine.Move{At: at, Force: f.ID, Dest: dest})
			}
		}
		out = append(out, o)
	}
	return out
}

// nearestForeignCity is the closest city (in hexes) the force's nation does
// not hold that the force has a route to.
func nearestForeignCity(m *hexmap.Map, st *engine.State, f *game.Force) (game.Hex, bool) {
	type cand struct {
		h game.Hex
		d int
	}
	var cs []cand
	for _, c := range m.Cities {
		if cs2, ok := st.City(c.Name); ok && cs2.Controller == f.Nation {
			continue
		}
		cs = append(cs, cand{c.Hex, hexmap.Distance(f.At.Hex, c.Hex)})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return a.h.Compare(b.h)
	})
	for _, c := range cs {
		if _, _, ok := engine.Route(m, ruleset.SYW1752(), f, f.At.Hex, c.h); ok {
			return c.h, true
		}
	}
	return game.Hex{}, false
}

// play resolves turns 1 … n-1 with plausible orders and returns the state of
// turn n.
func play(tb testing.TB, m *hexmap.Map, st *engine.State, n int) *engine.State {
	r := rand.New(rand.NewPCG(7, 7))
	for st.Turn < n {
		var orders []engine.Orders
		if !st.Calendar.Date(st.Turn).IsYearEnd() {
			orders = plausibleOrders(m, st, r)
		}
		res, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: st, Orders: orders, Seed: uint64(st.Turn)})
		if err != nil {
			tb.Fatal(err)
		}
		st = res.State
	}
	return st
}

func benchTurn(b *testing.B, turn int) {
	m, st := load(b)
	st = play(b, m, st, turn)
	in := engine.Input{Map: m, Rules: ruleset.SYW1752(), State: st, Orders: plausibleOrders(m, st, rand.New(rand.NewPCG(1, 1))), Seed: 1}
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

// BenchmarkDefaultScenarioTurn1 resolves the first turn of the default
// scenario, every nation marching on its nearest foreign city.
func BenchmarkDefaultScenarioTurn1(b *testing.B) { benchTurn(b, 1) }

// BenchmarkDefaultScenarioTurn5 resolves the fifth turn, after four turns of
// such orders: armies in contact, cities changing hands, fleets at sea.
func BenchmarkDefaultScenarioTurn5(b *testing.B) { benchTurn(b, 5) }

// TestDefaultScenarioPlays: the default scenario plays six monthly turns and
// the year-end with plausible orders, deterministically, and the orders are
// carried out (not ignored wholesale).
func TestDefaultScenarioPlays(t *testing.T) {
	m, st := load(t)
	a := play(t, m, st.Clone(), 8)
	b := play(t, m, st.Clone(), 8)
	ja, _ := jsonOf(a)
	jb, _ := jsonOf(b)
	if ja != jb {
		t.Fatal("two plays of the default scenario differ")
	}
	if a.Turn != 8 {
		t.Fatalf("turn %d after playing, want 8", a.Turn)
	}
	moved := 0
	for _, f := range a.Forces {
		if orig, ok := st.Force(f.ID); ok && orig.At != f.At {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no force moved in seven turns of orders")
	}
}
