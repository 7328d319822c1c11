package enginebench_test

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// combatState is the default map's turn-1 state with the scenario's forces
// replaced by a siege, a landing and two fleets: Eisenmark besieges
// Morgronskia's Velikov with a siege train, an Eisenmark squadron sails
// from the Boreal into the Amber Sea where a Morgronskian one waits, and an
// Eisenmark convoy in the Varangian Sea lands troops on the good-holding hex
// 2805, held by a Morgronskian outpost.
func combatState(tb testing.TB) (*engine.State, []engine.Orders) {
	m, st := load(tb)
	_ = m
	st.Forces = []game.Force{
		{ID: "E20", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 30, Row: 8}),
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 200}, {Arm: game.Gunners, Grade: game.GradeC, Count: 12}},
			Guns:    []game.Guns{{Kind: game.HeavyGun, Count: 3}},
			Leaders: []game.Leader{{ID: "Vauban", Name: "Vauban", Role: game.General}}},
		{ID: "M20", Nation: "morgronskia", At: game.AtHex(game.Hex{Col: 30, Row: 8}), Garrison: true,
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 40}, {Arm: game.Gunners, Grade: game.GradeC, Count: 4}},
			Guns:    []game.Guns{{Kind: game.FieldGun, Count: 1}},
			Leaders: []game.Leader{{ID: "Munnich", Name: "Munnich", Role: game.General}}},
		{ID: "E21", Nation: "eisenmark", At: game.AtSea("S1"), Ships: game.Ships{Warships: 5},
			Leaders: []game.Leader{{ID: "Hood", Name: "Hood", Role: game.Admiral}}},
		{ID: "M21", Nation: "morgronskia", At: game.AtSea("S2"), Ships: game.Ships{Warships: 3},
			Leaders: []game.Leader{{ID: "Greig", Name: "Greig", Role: game.Admiral}}},
		{ID: "E22", Nation: "eisenmark", At: game.AtSea("S3"), Ships: game.Ships{Warships: 1, Transports: 2},
			Leaders: []game.Leader{{ID: "Anson", Name: "Anson", Role: game.Admiral}}},
		{ID: "E23", Nation: "eisenmark", At: game.AtSea("S3"), Aboard: "E22",
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 60}},
			Leaders: []game.Leader{{ID: "Keith", Name: "Keith", Role: game.General}}},
		{ID: "M23", Nation: "morgronskia", At: game.AtHex(game.Hex{Col: 26, Row: 9}),
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 60}},
			Leaders: []game.Leader{{ID: "Saltykov", Name: "Saltykov", Role: game.General}}},
		{ID: "E24", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 26, Row: 10}), Stance: game.Attack,
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 48}},
			Leaders: []game.Leader{{ID: "Seydlitz", Name: "Seydlitz", Role: game.General}}},
		{ID: "U20", Nation: "unterreich", At: game.AtHex(game.Hex{Col: 25, Row: 9}), Stance: game.Attack,
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 40}, {Arm: game.LightCavalry, Grade: game.GradeC, Count: 12}},
			Leaders: []game.Leader{{ID: "Laudon", Name: "Laudon", Role: game.General}}},
		{ID: "M22", Nation: "morgronskia", At: game.AtHex(game.Hex{Col: 28, Row: 5}),
			Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 15}},
			Leaders: []game.Leader{{ID: "Lacy", Name: "Lacy", Role: game.General}}},
	}
	st.Normalize()
	orders := []engine.Orders{{Nation: "unterreich", Turn: 1, List: []engine.Order{
		engine.Move{At: engine.At{Line: 1}, Force: "U20", Path: []game.Hex{{Col: 26, Row: 9}}},
	}}, {Nation: "eisenmark", Turn: 1, List: []engine.Order{
		engine.Move{At: engine.At{Line: 4}, Force: "E24", Path: []game.Hex{{Col: 26, Row: 9}}},
		engine.Besiege{At: engine.At{Line: 1}, Force: "E20", City: "Velikov"},
		engine.Sail{At: engine.At{Line: 2}, Fleet: "E21", Path: []game.Place{game.AtSea("S2")}},
		engine.Debark{At: engine.At{Line: 3}, Force: "E23", Hex: game.Hex{Col: 28, Row: 5}},
	}}}
	return st, orders
}

// TestCombatTurnDefaultMap resolves two turns on the default map: a siege
// with a breach, an assault, a sea battle, a landing against defenders (a
// land battle) and an allied land battle (Eisenmark and Unterreich as one
// side), and checks that each side's events carry none of the other side's
// own numbers.
func TestCombatTurnDefaultMap(t *testing.T) {
	m, _ := load(t)
	st, orders := combatState(t)
	seed := uint64(3) // a seed whose dice give a breach, no surrender, then an assault
	if s := os.Getenv("COMBAT_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	// Eisenmark and Unterreich are allies: E24 and U20 march on M23 at 2609
	// and fight it as one side.
	allied := func(x, y game.NationID) bool {
		return x == "eisenmark" && y == "unterreich" || x == "unterreich" && y == "eisenmark"
	}
	hostile := func(x, y game.NationID) bool { return engine.DefaultHostility(x, y) && !allied(x, y) }
	r1, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: st, Orders: orders, Seed: seed, Hostile: hostile})
	if err != nil {
		t.Fatal(err)
	}
	assault := []engine.Orders{{Nation: "eisenmark", Turn: 2, List: []engine.Order{
		engine.Assault{At: engine.At{Line: 1}, Force: "E20", City: "Velikov"},
	}}}
	r2, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: r1.State, Orders: assault, Seed: seed + 1, Hostile: hostile})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	all := append(append([]engine.Event{}, r1.Events...), r2.Events...)
	for _, e := range all {
		kinds[e.Kind()]++
		if lb, ok := e.(*engine.LandBattle); ok && lb.SideOf("eisenmark") >= 0 && lb.SideOf("eisenmark") == lb.SideOf("unterreich") {
			kinds["allied land battle"]++
		}
		if b, ok := e.(*engine.Breach); ok && b.Breaches > b.Before {
			kinds["breach made"]++
		}
	}
	for _, k := range []string{"SiegeStatusChanged", "SiegeLosses", "Breach", "breach made", "AssaultResolved", "SeaBattle", "Debarked", "LandBattle", "allied land battle"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the two turns (events: %v)", k, kinds)
		}
	}
	for _, n := range []game.NationID{"eisenmark", "morgronskia"} {
		for _, e := range engine.EventsFor(all, n) {
			b, _ := json.Marshal(e)
			switch x := e.(type) {
			case *engine.SiegeLosses:
				for _, l := range x.Losses {
					if f, ok := st.Force(l.Force); ok && f.Nation != n {
						t.Errorf("%s sees the enemy's siege losses: %s", n, b)
					}
				}
			case *engine.AssaultResolved:
				if x.Nation == n && (x.DefenderPV != 0 || x.DefenderLosses != nil) || x.Nation != n && (x.AttackerPV != 0 || x.AttackerLosses != nil) {
					t.Errorf("%s sees the other side's numbers of the assault: %s", n, b)
				}
			case *engine.SiegeStatusChanged:
				if n == "eisenmark" && x.DefenderFigures != 0 || n == "morgronskia" && x.AttackerFigures != 0 {
					t.Errorf("%s sees the other side's figures before Velikov: %s", n, b)
				}
			case *engine.Breach:
				if n == "morgronskia" && (x.Guns != 0 || x.Dice != nil) {
					t.Errorf("the besieged see the besiegers' guns: %s", b)
				}
			case *engine.SeaBattle:
				for _, s := range x.Sides {
					if s.Nation != n && s.Admiral != "" {
						t.Errorf("%s learns the enemy admiral's name: %s", n, b)
					}
				}
			}
		}
	}
}
