package ruleset

// The battle models a game may use (Ruleset.Battle). The engine's battle
// package implements them; the names live here so that config and the
// ruleset can be checked without importing the engine.
const (
	// BattleSimulation is the default model: a non-geometric simulation of
	// the SYW tabletop rules (strength points, 2d6 fire, morale tests,
	// charges, melee, rallying) abstracted to lines and reserves.
	BattleSimulation = "simulation"
	// BattleLGG is La Grande Guerre's big-battle resolution adapted to the
	// campaign's forces: fewer, bigger units, command dice, d10 combat.
	BattleLGG = "lgg"
)

// BattleModels lists the battle models, the default first.
var BattleModels = []string{BattleSimulation, BattleLGG}

// LandBattleRules are the rules' "Land Battles" section as far as the battle
// itself goes: how long a day is, when an army's morale breaks, how units are
// formed, the setup advantage, military genius and the multi-day battle.
type LandBattleRules struct {
	// TableTurns: "A day of battle is 16 turns long on the table top".
	TableTurns int
	// NoRetreatTurns: "no unit may do any voluntary retreat moves for the
	// first 8 turns" (the simulation holds the attacker to the field that
	// long).
	NoRetreatTurns int
	// BreakFraction (num/den) of the figures counted by BreakCounts that
	// are eliminated, routed off or shaken breaks an army's morale: "half or
	// more".
	BreakNum, BreakDen int
	// BreakCountsGunners: 1752 "half or more of your army's figures excluding
	// artillery" (gunners excluded, false); V4 "half or more of your army's
	// infantry or cavalry figures" (also false). Kept as a parameter for
	// a referee who counts crews as figures.
	BreakCountsGunners bool
	// UnitSize: "infantry battalions and cavalry regiments must be 12
	// figures strong".
	UnitSize int
	// MergeRemainder (V4): "Some units can be a bit larger than stated to
	// allow for remainders": a remainder below half a unit is spread over
	// the full units. 1752 keeps a "remainder" unit ("42 C line infantry
	// would have 3 units of 12 and 1 unit of 6").
	MergeRemainder bool
	// GunnersPerGun, BatteryMin, BatteryMax: "guns must start with 4 gunners
	// per model and 2-4 guns per battery".
	GunnersPerGun, BatteryMin, BatteryMax int
	// Setup is the 1752 setup by scouting ratio; OperationalAdvantage the
	// V4 table. An edition uses one (the other is zero).
	Setup                ScoutingSetup
	OperationalAdvantage OperationalAdvantage
	// GeniusXP: "If a general has 3+ experience points he becomes a military
	// genius. His command radius doubles and bonuses for attaching him to a
	// unit double."
	GeniusXP int
	// ExperiencePerWin: "Each time an army wins a battle the senior general
	// gets 1 experience point."
	ExperiencePerWin int
	// MultiDay (V4): a repulsed attacker retires 18" and the battle goes on
	// next day, without regaining until it is over. MaxDays bounds the days
	// one battle may last within a turn (each costs 1/6 of a move).
	MultiDay bool
	MaxDays  int
	// SurroundedCaptured (V4): "Losing-side figures that end the battle
	// surrounded such that they could not do a retreat move are captured and
	// removed from the game."
	SurroundedCaptured bool
	// ExhaustRegained (1752): "Resurrected and regained figures after a
	// battle are exhausted"; ExhaustHalfStrength (1752): "any figures
	// belonging to units that were reduced to half strength or less during
	// that day of battle are exhausted". V4: "Resurrected figures are in
	// normal status."
	ExhaustRegained, ExhaustHalfStrength bool
	// GunsTakenOnField: a battery routed on the table loses its guns to
	// the winner ("When ART Routs the Crew run away & the Gun is deemed
	// Captured by the Winner", 001). The campaign rules take the loser's
	// guns in the pursuit instead ("The loser also has a chance to lose gun
	// models as follows (D6 score)", Pursuit Losses), so both editions
	// leave it off: a battery overrun by a model is told, and its guns are
	// lost only to the pursuit roll. A referee's tabletop result that names
	// guns lost on the field is his ruling and is applied either way.
	GunsTakenOnField bool
	// FieldworksInchesPerUnit is how many inches of works shelter one
	// 12-figure unit (a battalion's frontage in line): a reading, the rules
	// give the works in inches and the units in figures.
	FieldworksInchesPerUnit int
}

// ScoutingSetup is the 1752 setup: "We will set out units 4 at a time,
// taking turns. If one side has a 2:1 scouting advantage, and at least 24
// scouting points, it only needs to set out 2 at a time. 3:1 or more, only 1
// at a time."
type ScoutingSetup struct {
	Base, AtTwoToOne, AtThreeToOne int
	MinSP                          int
}

// UnitsAtATime returns how many units a side with sp scouting points sets out
// at a time against an enemy with enemySP.
func (s ScoutingSetup) UnitsAtATime(sp, enemySP int) int {
	if s.Base == 0 {
		return 0
	}
	if sp < s.MinSP {
		return s.Base
	}
	switch {
	case sp >= 3*enemySP:
		return s.AtThreeToOne
	case sp >= 2*enemySP:
		return s.AtTwoToOne
	}
	return s.Base
}

// OperationalAdvantage is the V4 table: "An army on attack with an
// operational advantage may shift the setup area one foot per point of
// difference, up to 4 feet."
//
//	Each XP difference between senior generals:  +1
//	Ratio of generals to figures < 1:100:        -2
//	Ratio of generals to figures >= 1:50:        +1
//	Outnumber enemy 2:1:                         +2
//	You have the enemy outscouted 2:1 or more:   +2
type OperationalAdvantage struct {
	PerXP                       int
	FewGenerals, FewGeneralsPer int // -2 when generals:figures < 1:100
	ManyGenerals, ManyPer       int // +1 when generals:figures >= 1:50
	Outnumber, OutnumberOdds    int // +2 at 2:1
	Outscout, OutscoutOdds      int // +2 at 2:1
	MaxShift                    int // 4 feet
}

// Points returns a side's advantage points against the enemy.
func (o OperationalAdvantage) Points(xpDiff, generals, figures, enemyFigures, sp, enemySP int) int {
	if o.MaxShift == 0 {
		return 0
	}
	p := o.PerXP * xpDiff
	if figures > 0 && generals*o.FewGeneralsPer < figures {
		p += o.FewGenerals
	}
	if figures > 0 && generals*o.ManyPer >= figures {
		p += o.ManyGenerals
	}
	if enemyFigures > 0 && figures >= o.OutnumberOdds*enemyFigures {
		p += o.Outnumber
	}
	if sp > 0 && sp >= o.OutscoutOdds*enemySP {
		p += o.Outscout
	}
	return p
}

func landBattles1752() LandBattleRules {
	return LandBattleRules{
		TableTurns: 16, NoRetreatTurns: 8, BreakNum: 1, BreakDen: 2,
		UnitSize: 12, GunnersPerGun: 4, BatteryMin: 2, BatteryMax: 4,
		Setup:    ScoutingSetup{Base: 4, AtTwoToOne: 2, AtThreeToOne: 1, MinSP: 24},
		GeniusXP: 3, ExperiencePerWin: 1, MaxDays: 1,
		ExhaustRegained: true, ExhaustHalfStrength: true,
		FieldworksInchesPerUnit: 6,
	}
}

func landBattlesV4() LandBattleRules {
	r := landBattles1752()
	r.MergeRemainder = true
	r.Setup = ScoutingSetup{}
	r.OperationalAdvantage = OperationalAdvantage{PerXP: 1, FewGenerals: -2, FewGeneralsPer: 100, ManyGenerals: 1, ManyPer: 50,
		Outnumber: 2, OutnumberOdds: 2, Outscout: 2, OutscoutOdds: 2, MaxShift: 4}
	r.MultiDay, r.MaxDays = true, 3
	r.SurroundedCaptured = true
	r.ExhaustRegained, r.ExhaustHalfStrength = false, false
	return r
}

// WithBattle returns a copy of the ruleset that fights its land battles with
// the named model (one of BattleModels; "" keeps the ruleset's own). The
// ruleset itself is not changed.
func (r *Ruleset) WithBattle(model string) *Ruleset {
	if model == "" || model == r.Battle {
		return r
	}
	c := *r
	c.Battle = model
	return &c
}
