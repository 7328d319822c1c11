package demo

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Good ground: a scripted general whose march this turn takes him into
// woods or rough ground within a month's march of an enemy army of his
// size, or into any ground within reach of a larger one, marches on DEFEND,
// to receive the enemy where he meets him rather than fight a meeting
// engagement; a besieger so threatened holds his siege lines on DEFEND.
// The campaign lets him: "Each side must declare "attack" or "defend""
// (Attack and Defend, 000 and 003), "If a force has defend orders, it
// merely has to avoid having its army morale broken" (Winning a Battle),
// and "If you are on defense: I will first send you the hex map and ask you
// to sketch your desired setup zone" (003, Battlefield Terrain). Without it
// every army of the demo marched on ATTACK and all its field battles were
// meeting engagements, which the simulation decides in their first hours.

// threatReach is how near (in hexes) to the ground an enemy army must be
// for the general to expect it there: a month's march of foot over clear
// ground (6 MP at 2 a hex, Movement Table).
const threatReach = 3

// goodGround is the hex of route (the hexes the force will enter, in
// order) where the general expects to receive the enemy, and ok: the first
// of the hexes the force reaches this turn (by the Movement Table) that is
// held by no enemy and threatened (pl.threatened). The general marches on
// DEFEND when there is one.
func (pl *plan) goodGround(f *game.Force, route []game.Hex) (game.Hex, bool) {
	class := ruleset.ClassOf(f)
	mp, at := pl.rules.Movement.Rows[class].MP, f.At.Hex
	for _, h := range route {
		cost, ok := engine.StepCost(pl.m, pl.rules, class, at, h, false)
		if !ok || cost > mp {
			break
		}
		mp, at = mp-cost, h
		if threat, held := pl.threatened(f, h); threat && !held {
			return h, true
		}
	}
	return game.Hex{}, false
}

// threatened reports whether force f, standing in hex h, may expect an
// enemy army there: a hostile army within threatReach of h that is of a
// larger size class than f (an outnumbered general receives the enemy on
// DEFEND wherever he stands: the defender "merely has to avoid having its
// army morale broken") or, in woods or rough ground, of the same class (a
// general chooses such ground to receive an equal enemy); held, whether an
// enemy force stands in h already. Every other nation's army counts: a
// treaty of peace does not keep armies from fighting where they meet (the
// battles step holds every nation hostile to every other). The size
// classes are the rules' general intelligence, which every nation sees.
func (pl *plan) threatened(f *game.Force, h game.Hex) (threat, held bool) {
	own := sizeRank(pl.rules.SizeClasses.Troops(f.CountArms(game.Arm.IsFighting)))
	good := pl.m.TerrainAt(h) == game.Woods || pl.m.TerrainAt(h) == game.Rough
	for _, e := range pl.v.Foreign {
		if e.Nation == pl.p.nation || e.At.IsSea() || e.Aboard != "" || e.Size == "" {
			continue
		}
		held = held || e.At.Hex == h
		if hexmap.Distance(e.At.Hex, h) <= threatReach && !pl.garrisonOnly(e) {
			threat = threat || sizeRank(e.Size) > own || good && sizeRank(e.Size) == own
		}
	}
	return threat, held
}

// garrisonOnly reports a foreign force that sits in its own city as its
// garrison and does not march: no threat to a general in the field.
func (pl *plan) garrisonOnly(e engine.ForeignForce) bool {
	c, ok := pl.cityAt(e.At.Hex)
	return ok && c.Controller == e.Nation && e.Size == ruleset.Small
}

// sizeRank orders the size classes.
func sizeRank(s ruleset.SizeClass) int {
	switch s {
	case ruleset.Small:
		return 1
	case ruleset.Large:
		return 2
	case ruleset.Huge:
		return 3
	}
	return 0
}

// garrison leaves force id in city as its garrison, on DEFEND: it is there
// to hold the walls, and a garrison the walls hold that "will not come out
// and fight" is masked or besieged, not met in a field battle (Masked
// Cities, 000 and 003). A force split off keeps the stance of the force it
// left, most often ATTACK, which would march the garrison out of its city
// against any enemy that came near.
func (pl *plan) garrison(id, city string) {
	pl.add("GARRISON %s %s", id, city)
	pl.add("STANCE %s DEFEND", id)
}
