package ruleset

import "github.com/syw-pbem/pbem/game"

// ScoutingPoints are the rules' "Scouting": "Each figure of regular light
// infantry is worth 1 Scouting Point (SP). Each figure of irregular light
// infantry is worth 2 SP. Each figure of light cavalry is worth 3 SP. Other
// troop types have no scouting value."
type ScoutingPoints map[game.Arm]int

// Of returns a force's scouting points.
func (s ScoutingPoints) Of(f *game.Force) int {
	n := 0
	for _, t := range f.Troops {
		n += t.Count * s[t.Arm]
	}
	return n
}

// ScoutingLevel is how much a scouting nation learns of a foreign force.
type ScoutingLevel int

// The scouting levels, from the general intelligence every nation has to an
// exact count.
const (
	// LevelSize: the size class only (the general intelligence rule).
	LevelSize ScoutingLevel = iota
	// LevelArms: which arms are present (infantry, cavalry, guns, ships by
	// kind) and whether a general leads it.
	LevelArms
	// LevelApprox: approximate counts per arm (Approximate) and the
	// leaders' names.
	LevelApprox
	// LevelExact: exact counts by arm and grade, guns by kind, leaders with
	// their experience, exhaustion and supply state.
	LevelExact
)

// ScoutingResults is pbem's scouting results generator, which the rulebook
// leaves to the referee ("The scouting results generator will be used for
// specific results"). The scout's SP are compared with the scouted force's SP
// (its own light troops screen it); each level needs both an odds ratio and a
// minimum of SP. A scout with no SP learns nothing beyond general intelligence.
// The defaults follow the one place the rules grade scouting advantage —
// battle setup: "a 2:1 scouting advantage, and at least 24 scouting points …
// 3:1 or more" — docs/rules-notes.md §Scouting.
type ScoutingResults struct {
	Levels []ScoutingThreshold // ascending
}

// Approximate is a count as scouts at the approximate level report it: to
// the nearest 5 below 20, the nearest 10 below 100 and the nearest 25 from
// there — a unit that grows with the count, so that small counts stay small
// ("about 5 guns", never "about 25 guns" for 2) —
// and 0 for a count below 5, which the reports print as "a few" (the scouts
// saw some; a force's lists hold only what is present, so 0 there never
// means none). The rulebook leaves the scouting results to the referee
// ("The scouting results generator will be used for specific results");
// docs/rules-notes.md §Scouting. The same scale serves every edition and
// the battle narratives' view of the enemy (engine.EventsFor).
func Approximate(n int) int {
	if n < 5 {
		return 0
	}
	unit := 25
	switch {
	case n < 20:
		unit = 5
	case n < 100:
		unit = 10
	}
	return (n + unit/2) / unit * unit
}

// ScoutingThreshold is the odds and minimum SP that reach a level.
type ScoutingThreshold struct {
	Level   ScoutingLevel
	OddsNum int // scout SP × OddsDen ≥ screen SP × OddsNum
	OddsDen int
	MinSP   int
}

// Level returns what a scout with scoutSP learns of a force screened by
// screenSP.
func (r ScoutingResults) Level(scoutSP, screenSP int) ScoutingLevel {
	best := LevelSize
	if scoutSP <= 0 {
		return best
	}
	for _, t := range r.Levels {
		if scoutSP < t.MinSP {
			continue
		}
		if scoutSP*t.OddsDen >= screenSP*t.OddsNum && t.Level > best {
			best = t.Level
		}
	}
	return best
}
