package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// stepEndOfTurn closes the turn: exhausted figures that rested the whole turn
// in supply in a city recover ("To recover from exhaustion, the figures must
// rest in supply for one full turn in a town or city"); forces that moved
// stand in their hex since the next turn; this turn's scouting becomes
// State.Intel (replacing the last turn's); the turn number advances and the
// state is normalised.
func (t *turn) stepEndOfTurn() {
	if !t.yearEnd {
		for _, f := range t.live() {
			fi := t.fi(f.ID)
			ex := 0
			for _, tr := range f.Troops {
				ex += tr.Exhausted
			}
			if fi.moved {
				f.Since = t.number + 1
			}
			if ex == 0 || fi.moved || fi.engaged || f.Unsupplied || f.At.IsSea() || f.Aboard != "" || fi.start != f.At {
				continue
			}
			c, ok := t.m.CityAt(f.At.Hex)
			if !ok || t.hostileCity(f.Nation, t.cityState(c.Name)) && t.cityState(c.Name).Controller != game.Neutral {
				// Not in a city, or before an enemy's walls (besieging
				// it, or after an assault on it): no rest there.
				continue
			}
			for i := range f.Troops {
				f.Troops[i].Exhausted = 0
			}
			t.emit(&ExhaustionRecovered{Force: f.ID, Figures: ex}, t.cite("Land Battles", "Exhaustion after Battle"), f.At, to(f.Nation), f.Nation)
		}
		intel := make([]Sighting, 0, len(t.seen))
		for _, s := range t.seen {
			if t.force(s.Force) != nil {
				intel = append(intel, *s)
			}
		}
		t.s.Intel = intel
	}
	forces := make([]game.Force, 0, len(t.forces))
	for _, f := range t.live() {
		if f.Garrison && !t.garrisons(f) {
			// Driven out, retreated or marched off: a force is the garrison
			// only of a city its nation holds, standing in it.
			f.Garrison = false
		}
		forces = append(forces, *f)
	}
	t.s.Forces = forces
	t.s.Depots = slices.DeleteFunc(t.s.Depots, func(d game.Depot) bool { return d.Aboard != "" && t.force(d.Aboard) == nil })
	for i := range t.s.Depots {
		if d := &t.s.Depots[i]; d.Aboard != "" {
			d.At = t.force(d.Aboard).At
		}
	}
	next := t.number + 1
	t.emit(&TurnEnded{Turn: t.number, Next: next, YearEnd: t.yearEnd}, t.cite("Scales", ""), game.Place{}, public())
	t.s.Turn = next
	t.s.Normalize()
}

// garrisons reports whether a force flagged as a garrison still stands in a
// city its nation controls.
func (t *turn) garrisons(f *game.Force) bool {
	if f.At.IsSea() || f.Aboard != "" {
		return false
	}
	c, ok := t.m.CityAt(f.At.Hex)
	return ok && t.cityState(c.Name).Controller == f.Nation
}
