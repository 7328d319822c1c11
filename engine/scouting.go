package engine

import (
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Scouting (rules "Scouting", "General Intelligence"): "When two forces enter
// adjacent hexes, scouting will take place." A nation's forces in one hex
// scout together: their scouting points (regular light infantry 1 per
// figure, irregular light 2, light cavalry 3) are compared with those of the
// target nation's forces in the target's hex, which screen it, and the
// scouting results generator (ruleset.ScoutingResults) gives the level; each
// level reveals what ForeignForce documents. A nation keeps the best level it
// reached on a force this turn; it becomes State.Intel at the end of the
// turn, and View shows it.

// scout records what nation n's scouts learn of target, screened by screen.
func (t *turn) scout(n game.NationID, scouts []*game.Force, target *game.Force, screen []*game.Force, tick int) {
	sp := t.r.ScoutingPoints
	ssp, tsp := 0, 0
	var ids []game.ForceID
	for _, f := range scouts {
		ssp += sp.Of(f)
		ids = append(ids, f.ID)
	}
	for _, f := range screen {
		tsp += sp.Of(f)
	}
	level := t.r.ScoutingResults.Level(ssp, tsp)
	key := intelKey{n, target.ID}
	prev := t.seen[key]
	if prev != nil && ruleset.ScoutingLevel(prev.Level) >= level {
		return
	}
	learned := Reveal(t.r, target, level)
	// What the scouts saw now is the snapshot the View will show: a better
	// look later in the turn replaces it, nothing else does.
	var seen *Revealed
	if level > ruleset.LevelSize {
		r := learned.Revealed.Clone()
		seen = &r
	}
	if prev != nil {
		prev.Level, prev.Seen = int(level), seen
	} else {
		t.seen[key] = &Sighting{Nation: n, Force: target.ID, Level: int(level), Turn: t.number, Seen: seen}
	}
	t.emit(&Scouted{Nation: n, Scouts: ids, Target: target.ID, TargetNation: target.Nation, ScoutSP: ssp, ScreenSP: tsp,
		Level: level, LevelName: LevelName(level), Learned: learned, Tick: tick},
		t.cite("Scouting", ""), target.At, to(n), n, target.Nation)
}

// stepScouting: at the end of movement every land force scouts the hostile
// land forces in its hex and the hexes next to it.
func (t *turn) stepScouting() {
	idx := map[game.Hex][]*game.Force{}
	var hexes []game.Hex
	for _, f := range t.live() {
		if !isLandUnit(f) || f.At.IsSea() {
			continue
		}
		if _, ok := idx[f.At.Hex]; !ok {
			hexes = append(hexes, f.At.Hex)
		}
		idx[f.At.Hex] = append(idx[f.At.Hex], f)
	}
	stack := func(h game.Hex, n game.NationID) []*game.Force {
		var out []*game.Force
		for _, f := range idx[h] {
			if f.Nation == n {
				out = append(out, f)
			}
		}
		return out
	}
	for _, h := range hexes {
		var nations []game.NationID
		for _, f := range idx[h] {
			if len(nations) == 0 || nations[len(nations)-1] != f.Nation {
				if !containsNation(nations, f.Nation) {
					nations = append(nations, f.Nation)
				}
			}
		}
		for _, n := range nations {
			scouts := stack(h, n)
			for _, nb := range append([]game.Hex{h}, t.m.Neighbors(h)...) {
				var targets []game.NationID
				for _, f := range idx[nb] {
					if t.hostile(n, f.Nation) && !containsNation(targets, f.Nation) {
						targets = append(targets, f.Nation)
					}
				}
				for _, tn := range targets {
					screen := stack(nb, tn)
					for _, target := range screen {
						t.scout(n, scouts, target, screen, TicksPerTurn)
					}
				}
			}
		}
	}
}

func containsNation(ns []game.NationID, n game.NationID) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}
