package enginebench_test

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestAlliedBattleOnDefaultMap: on the default map, two allied nations'
// armies attack a third nation's army in its hex: one battle, the allies one
// side under one commander; each nation's copy of the battle shows the enemy
// only as far as it scouted.
func TestAlliedBattleOnDefaultMap(t *testing.T) {
	m, st := load(t)
	var picked []*game.Force
	for i := range st.Forces {
		f := &st.Forces[i]
		if f.IsFleet() || f.Aboard != "" || !f.HasRole(game.General) || f.FightingFigures() < 40 {
			continue
		}
		if !slices.ContainsFunc(picked, func(p *game.Force) bool { return p.Nation == f.Nation }) {
			picked = append(picked, f)
		}
		if len(picked) == 3 {
			break
		}
	}
	if len(picked) < 3 {
		t.Skip("the default scenario has fewer than three armies with generals")
	}
	a, b, enemy := picked[0], picked[1], picked[2]
	// The enemy stands in the field next to its city: within its walls it
	// would stay behind them, and the attack would be no field battle.
	enemy.At = fieldNextTo(m, enemy.At.Hex)
	for _, f := range []*game.Force{a, b} {
		f.At, f.Stance = enemy.At, game.Attack
	}
	allied := func(x, y game.NationID) bool {
		return (x == a.Nation && y == b.Nation) || (x == b.Nation && y == a.Nation)
	}
	for _, model := range ruleset.BattleModels {
		res, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752().WithBattle(model), State: st, Seed: 3,
			Hostile: func(x, y game.NationID) bool { return engine.DefaultHostility(x, y) && !allied(x, y) }})
		if err != nil {
			t.Fatal(err)
		}
		var battles []*engine.LandBattle
		for _, e := range res.Events {
			if lb, ok := e.(*engine.LandBattle); ok {
				battles = append(battles, lb)
			}
			if c, ok := e.(*engine.Contact); ok && slices.Contains(c.Forces, a.ID) && slices.Contains(c.Forces, b.ID) && !slices.Contains(c.Forces, enemy.ID) {
				t.Errorf("%s: allies %s and %s made contact with each other: %+v", model, a.Nation, b.Nation, c)
			}
		}
		if len(battles) != 1 {
			t.Fatalf("%s: %d land battles, want one", model, len(battles))
		}
		lb := battles[0]
		as := lb.SideOf(a.Nation)
		if as < 0 || lb.SideOf(b.Nation) != as || lb.SideOf(enemy.Nation) != 1-as {
			t.Fatalf("%s: sides %+v, want %s and %s together against %s", model, lb.Sides, a.Nation, b.Nation, enemy.Nation)
		}
		for _, n := range []game.NationID{a.Nation, b.Nation, enemy.Nation} {
			var mine *engine.LandBattle
			for _, e := range engine.EventsFor(res.Events, n) {
				if x, ok := e.(*engine.LandBattle); ok {
					mine = x
				}
			}
			if mine == nil {
				t.Fatalf("%s: %s does not see its battle", model, n)
			}
			own, other := mine.Sides[mine.SideOf(n)], mine.Sides[1-mine.SideOf(n)]
			if own.Level != -1 || len(mine.Seen) != 0 {
				t.Errorf("%s: %s's copy: own side level %d, Seen %v", model, n, own.Level, mine.Seen)
			}
			if other.Level < ruleset.LevelApprox && other.Commander != "" {
				t.Errorf("%s: %s learns the enemy commander %q at scouting level %d", model, n, other.Commander, other.Level)
			}
			if other.Level < ruleset.LevelExact && len(other.Stacks) > 0 {
				t.Errorf("%s: %s learns the enemy's losses by stack at level %d", model, n, other.Level)
			}
		}
	}
}

// threeBattles returns the default scenario's turn-1 state with three armies
// of different nations sent into the hexes of three others, on attack.
func threeBattles(tb testing.TB) (*hexmap.Map, *engine.State) {
	tb.Helper()
	m, st := load(tb)
	var armies []*game.Force
	for i := range st.Forces {
		f := &st.Forces[i]
		if !f.IsFleet() && f.Aboard == "" && f.HasRole(game.General) && f.FightingFigures() >= 40 {
			armies = append(armies, f)
		}
	}
	pairs := 0
	used := map[game.ForceID]bool{}
	for _, a := range armies {
		for _, b := range armies {
			if pairs == 3 || a.Nation == b.Nation || used[a.ID] || used[b.ID] {
				continue
			}
			used[a.ID], used[b.ID] = true, true
			b.At = fieldNextTo(m, b.At.Hex)
			a.At, a.Stance = b.At, game.Attack
			pairs++
		}
	}
	if pairs < 3 {
		tb.Skip("fewer than three pairs of armies")
	}
	return m, st
}

// TestThreeBattlesOnDefaultMap: three battles in one turn of the default
// scenario, each fought and told.
func TestThreeBattlesOnDefaultMap(t *testing.T) {
	m, st := threeBattles(t)
	res, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: st, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range res.Events {
		if _, ok := e.(*engine.LandBattle); ok {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d land battles, want 3", n)
	}
}

// BenchmarkDefaultScenarioThreeBattles: a turn of the default scenario with
// three land battles (docs/engine.md).
func BenchmarkDefaultScenarioThreeBattles(b *testing.B) {
	m, st := threeBattles(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := engine.Resolve(engine.Input{Map: m, Rules: ruleset.SYW1752(), State: st, Seed: uint64(i) + 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// fieldNextTo is a hex next to h with no city, on land an army may stand
// on: an army there fights in the field (a garrison within its city's walls
// stays behind them).
func fieldNextTo(m *hexmap.Map, h game.Hex) game.Place {
	for _, nb := range m.Neighbors(h) {
		if _, city := m.CityAt(nb); !city && m.TerrainAt(nb) != game.Mountain && m.TerrainAt(nb) != game.Sea {
			return game.AtHex(nb)
		}
	}
	return game.AtHex(h)
}
