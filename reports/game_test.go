package reports_test

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// turnPlayed is one resolved turn of the scripted game: the state after it
// and its events.
type turnPlayed struct {
	state  *engine.State
	events []engine.Event
	rolls  []engine.Roll
}

type scripted struct {
	m     *hexmap.Map
	start *engine.State
	turns []turnPlayed
}

var (
	gameOnce sync.Once
	theGame  *scripted
	gameErr  error
)

// scriptedGame plays the default scenario for six monthly turns, the
// year-end and one more month with
// plausible orders (every army marches on the nearest city it does not
// hold, attacking and pursuing; fleets sail), so that contacts, scouting,
// overruns and captures happen. It is computed once.
func scriptedGame(t testing.TB) *scripted {
	t.Helper()
	gameOnce.Do(func() {
		sc, err := scenario.Load("../scenarios/default")
		if err != nil {
			gameErr = err
			return
		}
		st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
		if err != nil {
			gameErr = err
			return
		}
		g := &scripted{m: sc.Map, start: st}
		r := rand.New(rand.NewPCG(7, 7))
		for st.Turn < 9 {
			var orders []engine.Orders
			if !st.Calendar.Date(st.Turn).IsYearEnd() {
				orders = plausibleOrders(sc.Map, st, r)
			}
			res, err := engine.Resolve(engine.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: st,
				Orders: orders, Seed: uint64(st.Turn)})
			if err != nil {
				gameErr = err
				return
			}
			g.turns = append(g.turns, turnPlayed{state: res.State, events: res.Events, rolls: res.Rolls})
			st = res.State
		}
		theGame = g
	})
	if gameErr != nil {
		t.Fatal(gameErr)
	}
	return theGame
}

var testDeadline = time.Date(2026, 5, 3, 18, 0, 0, 0, time.UTC)

func zone() *time.Location {
	z, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		return time.UTC
	}
	return z
}

// reportsOf builds every turn's report of a nation, carrying the previous
// one; index 0 is the starting report.
func reportsOf(t testing.TB, g *scripted, n game.NationID) []*reports.Model {
	t.Helper()
	var out []*reports.Model
	md, err := reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: g.start, Nation: n,
		Deadline: testDeadline, Zone: zone()})
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, md)
	for _, tp := range g.turns {
		md, err = reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: tp.state, Events: tp.events,
			Nation: n, Deadline: testDeadline, Zone: zone(), Previous: md,
			Rulings: []reports.Ruling{{Text: "The referee allows the marriage of the Eisenmark prince.", Public: true}}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, md)
	}
	return out
}

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
			if dest, ok := nearestForeignCity(m, st, &f); ok {
				add(engine.Move{At: at, Force: f.ID, Dest: dest})
			}
		}
		out = append(out, o)
	}
	return out
}

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
