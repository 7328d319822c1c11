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
	// LevelApprox: approximate counts per arm (rounded to ApproxRound) and
	// the leaders' names.
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
	// ApproxRound: counts at LevelApprox are rounded to this many figures.
	ApproxRound int
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
