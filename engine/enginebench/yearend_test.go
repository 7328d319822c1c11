package enginebench_test

import (
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestScriptedGameYear plays the default scenario's first game-year — six
// monthly turns of plausible orders, then the buy, where every nation fields
// its first force and its depots by name, buys 20 Grade C infantry and a
// field gun in its capitol and leaves the rest to the default — and
// recomputes every treasury by hand: the taxes from the cities as they stood
// before the year-end (value by port and river, none besieged, half masked,
// half foreign, 3/4 without the capitol), each field cost from the Cost
// Chart and the force as it stood, each purchase from the chart; and checks
// that the TreasuryChanged events account for every crown, city by city.
func TestScriptedGameYear(t *testing.T) {
	m, st := load(t)
	st = play(t, m, st, 7)
	if !st.Calendar.Date(st.Turn).IsYearEnd() {
		t.Fatalf("turn %d is not the year-end", st.Turn)
	}
	rules := ruleset.SYW1752()
	costs := rules.Costs
	var orders []engine.Orders
	for _, ns := range st.Nations {
		o := engine.Orders{Nation: ns.ID, Turn: st.Turn}
		line := 0
		add := func(x engine.Order) { o.List = append(o.List, x) }
		if ids := st.ForcesOf(ns.ID); len(ids) > 0 {
			line++
			add(engine.Field{At: engine.At{Line: line}, Force: ids[0]})
		}
		for _, d := range st.Depots {
			if d.Nation == ns.ID {
				line++
				add(engine.Field{At: engine.At{Line: line}, Depot: d.ID})
			}
		}
		nat, _ := m.Nation(ns.ID)
		line++
		add(engine.Buy{At: engine.At{Line: line}, City: nat.Capitol, What: engine.Purchase{Troops: &game.Troops{Arm: game.LineInfantry, Grade: game.GradeC, Count: 20}}})
		line++
		add(engine.Buy{At: engine.At{Line: line}, City: nat.Capitol, What: engine.Purchase{Gun: game.FieldGun, Count: 1}})
		orders = append(orders, o)
	}
	res, err := engine.Resolve(engine.Input{Map: m, Rules: rules, State: st, Orders: orders, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}

	// Every crown: each city's treasury after = before + its changes, and
	// each event's Before/After chain holds.
	running := map[string]int{}
	for _, c := range st.Cities {
		running[c.Name] = c.Treasury
	}
	taxes := map[game.NationID]int{}
	spent := map[game.NationID]int{}
	for _, e := range res.Events {
		switch x := e.(type) {
		case *engine.TreasuryChanged:
			if x.Before != running[x.City] || x.After != x.Before+x.Change {
				t.Fatalf("%s: before %d after %d change %d, running %d", x.City, x.Before, x.After, x.Change, running[x.City])
			}
			running[x.City] = x.After
			switch x.Why {
			case "taxes":
				taxes[x.Nation] += x.Change
			case "field", "buy":
				spent[x.Nation] -= x.Change
			}
		case *engine.UnitsFielded:
			want := costs.Depot.Field
			if x.Force != "" {
				f, _ := st.Force(x.Force)
				want = fieldByHand(costs, f)
			}
			if x.Cost != want {
				t.Errorf("%s fielded %s%s for %d, by hand %d", x.Nation, x.Force, x.Depot, x.Cost, want)
			}
		case *engine.UnitsBought:
			want := map[string]int{"20 C infantry": 20 * 4, "1 field-gun": 30}[x.What]
			if x.Cost != want {
				t.Errorf("%s bought %s for %d, by hand %d", x.Nation, x.What, x.Cost, want)
			}
		}
	}
	for _, c := range res.State.Cities {
		if running[c.Name] != c.Treasury {
			t.Errorf("%s holds %d, the events account for %d", c.Name, c.Treasury, running[c.Name])
		}
	}
	// Taxes by hand, from the cities as they stood before the year-end.
	for _, ns := range st.Nations {
		nat, _ := m.Nation(ns.ID)
		sum := 0
		for _, c := range st.Cities {
			if c.Controller != ns.ID {
				continue
			}
			mc, _ := m.City(c.Name)
			v := 100
			switch {
			case mc.Port && mc.River:
				v = 400
			case mc.Port:
				v = 300
			case mc.River:
				v = 200
			}
			switch c.Siege {
			case game.Besieged:
				v = 0
			case game.Masked:
				v /= 2
			}
			if c.Loyalty != ns.ID {
				v /= 2
			}
			sum += v
		}
		if capCS, _ := st.City(nat.Capitol); capCS.Controller != ns.ID {
			sum = sum * 3 / 4
		}
		if taxes[ns.ID] != sum {
			t.Errorf("%s collected %d, by hand %d", ns.ID, taxes[ns.ID], sum)
		}
		before := 0
		if c, ok := st.City(engine.TreasuryCity(m, st, ns.ID)); ok {
			before = c.Treasury
		}
		_, after := engine.Treasury(m, res.State, ns.ID)
		if after != before+sum-spent[ns.ID] {
			t.Errorf("%s: %d in the treasury, by hand %d + %d - %d = %d", ns.ID, after, before, sum, spent[ns.ID], before+sum-spent[ns.ID])
		}
		t.Logf("%s: %d + taxes %d - spent %d = %d", ns.ID, before, sum, spent[ns.ID], after)
	}
}

// fieldByHand is the Cost Chart's field column summed for a force, written
// out row by row.
func fieldByHand(c ruleset.CostChart, f *game.Force) int {
	inf := map[game.Grade]int{game.GradeA: 3, game.GradeB: 3, game.GradeC: 2, game.GradeD: 2}
	cav := map[game.Grade]int{game.GradeA: 7, game.GradeB: 7, game.GradeC: 5, game.GradeD: 4}
	n := 0
	for _, tr := range f.Troops {
		switch {
		case tr.Arm == game.HeavyCavalry:
			n += (cav[tr.Grade] + 2) * tr.Count
		case tr.Arm.IsCavalry():
			n += cav[tr.Grade] * tr.Count
		default:
			n += inf[tr.Grade] * tr.Count
		}
	}
	for _, g := range f.Guns {
		if g.Owner == "" || g.Owner == f.Nation {
			n += map[game.GunKind]int{game.LightGun: 10, game.FieldGun: 15, game.HeavyGun: 20}[g.Kind] * g.Count
		}
	}
	n += f.Ships.AllWarships()*50 + f.Ships.AllTransports()*10 + len(f.Leaders)*25
	return n
}
