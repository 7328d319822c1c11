package reports_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
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

// fixture is the scripted game as testdata/scripted-game.json keeps it:
// the starting state and, for every turn, the state after it, its events
// (as engine.MarshalEvents writes them) and its rolls.
const fixture = "testdata/scripted-game.json"

type fixtureFile struct {
	Note  string
	Start *engine.State
	Turns []fixtureTurn
}

type fixtureTurn struct {
	State  *engine.State
	Events json.RawMessage
	Rolls  []engine.Roll
}

// scriptedGame is the default scenario played for six monthly turns, the
// year-end and one more month with plausible orders (every army marches on
// the nearest city it does not hold, attacking and pursuing; fleets sail),
// so that contacts, scouting, overruns and captures happen. It is read
// from testdata/scripted-game.json, so that the reports' goldens change
// only when the reports do; go test ./reports -update plays the game again
// with the engine as it is and rewrites the fixture (and the goldens). It
// is computed once.
func scriptedGame(t testing.TB) *scripted {
	t.Helper()
	gameOnce.Do(func() {
		sc, err := scenario.Load("../scenarios/default")
		if err != nil {
			gameErr = err
			return
		}
		if *update {
			theGame, gameErr = playScripted(sc)
			if gameErr == nil {
				gameErr = writeFixture(theGame)
			}
			return
		}
		theGame, gameErr = readFixture(sc.Map)
	})
	if gameErr != nil {
		t.Fatal(gameErr)
	}
	return theGame
}

// playScripted plays the scripted game with the engine.
func playScripted(sc *scenario.Scenario) (*scripted, error) {
	st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
	if err != nil {
		return nil, err
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
			return nil, err
		}
		g.turns = append(g.turns, turnPlayed{state: res.State, events: res.Events, rolls: res.Rolls})
		st = res.State
	}
	return g, nil
}

func writeFixture(g *scripted) error {
	f := fixtureFile{
		Note:  "The reports' test game: written by go test ./reports -update (game_test.go, playScripted); do not edit.",
		Start: g.start,
	}
	for _, tp := range g.turns {
		ev, err := engine.MarshalEvents(tp.events)
		if err != nil {
			return err
		}
		f.Turns = append(f.Turns, fixtureTurn{State: tp.state, Events: ev, Rolls: tp.rolls})
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(fixture, append(b, '\n'), 0o644)
}

func readFixture(m *hexmap.Map) (*scripted, error) {
	b, err := os.ReadFile(fixture)
	if err != nil {
		return nil, fmt.Errorf("%v (go test ./reports -update writes it)", err)
	}
	var f fixtureFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %v (go test ./reports -update writes it again)", fixture, err)
	}
	g := &scripted{m: m, start: f.Start}
	for i, ft := range f.Turns {
		events, err := engine.UnmarshalEvents(ft.Events)
		if err != nil {
			return nil, fmt.Errorf("%s: turn %d: %v (go test ./reports -update writes it again)", fixture, i+1, err)
		}
		g.turns = append(g.turns, turnPlayed{state: ft.State, events: events, rolls: ft.Rolls})
	}
	return g, nil
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
