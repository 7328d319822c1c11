package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// stepBattles is the land-battle step. Until the combat issue fills it, it
// records each battle the movement step found as an EngagementPending event
// carrying everything the battle needs, and leaves the forces where they
// stopped. The combat issue replaces the body: fight each engagement (or hand
// it to the referee's table), apply losses, exhaustion, pursuit and
// experience.
func (t *turn) stepBattles() {
	slices.SortStableFunc(t.engs, func(a, b *engagement) int {
		if c := a.hex.Compare(b.hex); c != 0 {
			return c
		}
		if c := cmpStr(string(a.a), string(b.a)); c != 0 {
			return c
		}
		return cmpStr(string(a.b), string(b.b))
	})
	for _, e := range t.engs {
		ev := &EngagementPending{Hex: e.hex, Terrain: t.m.TerrainAt(e.hex), Tick: e.tick, TicksLeft: TicksPerTurn - e.tick}
		ev.EndOfTurn = ev.TicksLeft < TicksPerTurn/max(t.r.Overrun.BattleFraction, 1)
		if c, ok := t.m.CityAt(e.hex); ok {
			ev.City = c.Name
			ev.CityController = t.cityState(c.Name).Controller
		}
		for _, n := range []game.NationID{e.a, e.b} {
			side := EngagementSide{Nation: n}
			for _, m := range e.members {
				f := t.force(m.id)
				if f == nil || f.Nation != n {
					continue
				}
				ex := 0
				for _, tr := range f.Troops {
					ex += tr.Exhausted
				}
				side.Forces = append(side.Forces, EngagedForce{Force: f.Clone(), Joined: m.joined, From: m.from, Unsupplied: f.Unsupplied, ExhaustedFigures: ex})
				if f.Stance == game.Attack {
					side.Stance = game.Attack
				}
				side.PV += t.pv(f)
				side.FightingFigures += f.FightingFigures()
				side.ScoutingPoints += t.r.ScoutingPoints.Of(f)
				side.ExhaustedFigures += ex
				side.Unsupplied = side.Unsupplied || f.Unsupplied
			}
			ev.Sides = append(ev.Sides, side)
		}
		t.emit(ev, t.cite("Land Battles", "Attack and Defend"), game.AtHex(e.hex), refereeOnly(), e.a, e.b)
	}
}
