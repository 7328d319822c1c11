package ruleset

import "github.com/syw-pbem/pbem/game"

// AttritionRates are percentage losses by grade, with a separate rate for gun
// models.
type AttritionRates struct {
	Grade map[game.Grade]Percent
	Guns  Percent
}

// Of returns the rate for a grade.
func (a AttritionRates) Of(g game.Grade) Percent { return a.Grade[g] }

// RetreatRules are the rules' "Retreat before Battle". Each hex retreated
// costs the RetreatAttrition rates: "A = 5%, B = 10%, C = 15%, D and guns =
// 25%". The editions differ in what follows:
//
//	1752: "… with the same percentage becoming exhausted."
//	V4:   "A force only suffers retreat losses if it is in the same hex with
//	      the enemy, or is retreating past its normal movement allowance."
type RetreatRules struct {
	Attrition AttritionRates
	// ExhaustSamePercent (1752): the same percentage of the survivors becomes
	// exhausted.
	ExhaustSamePercent bool
	// LossOnlyInContactOrBeyondMA (V4): no loss for a retreat that starts from
	// an adjacent hex and stays within the force's movement allowance.
	LossOnlyInContactOrBeyondMA bool
}

// SupplyRules are the rules' "Supply" section.
type SupplyRules struct {
	// RangeMP: "An LOS may be up to 12 MP long (18 MP for Grenzlers)", traced
	// at the artillery rate.
	RangeMP, GrenzerRangeMP int
	// BlockingFigures: "A force of 100 or more infantry and/or cavalry figures
	// blocks an LOS through its hex … It also blocks LOS through an adjacent
	// hex empty of enemy troops."
	BlockingFigures int
	// ProtectRadius: "unless there is a larger force acting to protect the LOS
	// within 2 hexes of the blocking force".
	ProtectRadius int
	// CityBlocksAs: "An enemy city acts as a 100-figure force for purposes of
	// blocking LOS. It must be loyal to the player doing the blocking."
	CityBlocksAs int
	// UnsuppliedPenalty: "-1 on shooting and morale die rolls and -1 combat
	// point" (carried to the battle resolver).
	UnsuppliedPenalty int
}

// MinimumForceSizes are the rules' "Minimum Force Sizes": "A force of 9 or
// fewer figures in a foreign city is killed off by the local militia. A force
// of 9 or fewer figures not in a city, including at sea, deserts/dies off
// unless it has a general with it. A force of 4 or fewer figures in a friendly
// town without a general deserts."
type MinimumForceSizes struct {
	ForeignCityMilitia  int // ≤ 9 killed
	OutsideCityDeserts  int // ≤ 9 without a general
	FriendlyTownDeserts int // ≤ 4 without a general
}

// CaptureRules are the rules' "Capturing and Controlling Cities".
type CaptureRules struct {
	// CaptureFigures: "enter it a force of 100 or more infantry or cavalry".
	CaptureFigures int
	// Garrison: "you need 10 infantry or cavalry figures as a garrison until
	// the province becomes loyal … below … the townsfolk kill off the
	// remaining men."
	Garrison int
}

// OverrunRules are the rules' "Force Sizes and Overrun Attacks": "If the odds
// are 7:1 or greater the attackers overrun the defenders at no MP cost. If the
// odds are 6:1 or greater they must use an extra 1/6 of a move (rounded up to
// the nearest MP) … For overruns I will use the assault table to decide the
// damage the defenders inflict before they are wiped out."
type OverrunRules struct {
	FreeOdds       int // 7
	OneSixthOdds   int // 6
	BattleFraction int // a battle, assault or costly overrun uses 1/6 of a move: 6
}

// SlowingEnemyRules are the rules' "Slowing the Enemy": "If you outnumber the
// enemy's cavalry 2:1, and have at least 1 cavalry figure per 3 enemy infantry,
// and gun models, you can force them to stop and give battle. If they refuse,
// you kill 1 figure per cavalry model you send after them, in excess of the
// enemy's cavalry."
type SlowingEnemyRules struct {
	CavalryOdds        int // 2
	InfantryPerCavalry int // 3
}

// IntelligenceSizeClasses are the rules' "General Intelligence": "Small: 3 or
// fewer ships, 100 or fewer land troops. Large: 4-8 ships, 101-300 land troops.
// Huge: 9+ ships, 301+ land troops. Generals, gunners, and guns do not count
// toward these totals."
type IntelligenceSizeClasses struct {
	SmallTroops, LargeTroops int // ≤100 small, ≤300 large, above huge
	SmallShips, LargeShips   int // ≤3, ≤8
}

// SizeClass is the general-intelligence description of a foreign force.
type SizeClass string

// The size classes.
const (
	Small SizeClass = "small"
	Large SizeClass = "large"
	Huge  SizeClass = "huge"
)

// Troops classifies a count of land troops (infantry and cavalry).
func (s IntelligenceSizeClasses) Troops(n int) SizeClass {
	switch {
	case n <= s.SmallTroops:
		return Small
	case n <= s.LargeTroops:
		return Large
	}
	return Huge
}

// Ships classifies a count of ships.
func (s IntelligenceSizeClasses) Ships(n int) SizeClass {
	switch {
	case n <= s.SmallShips:
		return Small
	case n <= s.LargeShips:
		return Large
	}
	return Huge
}

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
