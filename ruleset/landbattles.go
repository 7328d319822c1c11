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
	// City is a city on the table (Representing Cities During Battles):
	// its front and what its blocks hold.
	City CityOnTable
	// NoBattleBehindWalls: an attack on a city whose defenders all stand
	// within its walls (CityOnTable.Holds) and will not come out (none of
	// them on attack orders) is no field battle. "The attacker may not
	// launch an assault on a city during a field battle" (both editions),
	// and "If the attackers do not meet the siege limits but the defenders
	// will not come out and fight, the city is "masked"" (Masked Cities):
	// the attackers halt before the walls and the city is masked, or
	// besieged if they meet the siege limits; storming it is an ASSAULT.
	// Off, such an attack is fought as a field battle against the walls.
	NoBattleBehindWalls bool
}

// CityOnTable is a city as it stands on the battle table (Representing
// Cities During Battles). V4: "A 100-point city will be about 8" X 8". A
// 200-point city will be about 12" X 8". A 300-point city will be about
// 12"X12". A 400-point city will be about 12" X 16"", "Each block will be
// able to hold 24 figures plus a gun model and crew"; 1752's "a 400-point
// city will be about 16" on a side" agrees on the largest. The front is
// the longer side, the one that faces the enemy.
type CityOnTable struct {
	// Sizes by tax value, smallest first: a city of value up to UpTo is
	// Front × Depth inches (the last size for anything bigger).
	Sizes []CitySize
	// BlockInches is a town block's side ("a maze of town blocks": V4's
	// sizes are whole numbers of 4" blocks); FiguresPerBlock what one holds.
	BlockInches, FiguresPerBlock int
}

// CitySize is a city's size on the table up to a tax value.
type CitySize struct{ UpTo, Front, Depth int }

func (c CityOnTable) size(value int) CitySize {
	if len(c.Sizes) == 0 {
		return CitySize{}
	}
	for _, s := range c.Sizes {
		if value <= s.UpTo {
			return s
		}
	}
	return c.Sizes[len(c.Sizes)-1]
}

// FrontInches is the width of the city's front on the table.
func (c CityOnTable) FrontInches(value int) int { return c.size(value).Front }

// Holds is how many infantry and cavalry figures the city's blocks hold
// (V4: "Each block will be able to hold 24 figures plus a gun model and
// crew"; "During a battle you may of course cram as many figures inside as
// its town blocks will hold").
func (c CityOnTable) Holds(value int) int {
	s := c.size(value)
	if c.BlockInches <= 0 {
		return 0
	}
	return (s.Front / c.BlockInches) * (s.Depth / c.BlockInches) * c.FiguresPerBlock
}

// cityOnTable: V4's sizes and blocks, for both editions.
func cityOnTable() CityOnTable {
	return CityOnTable{
		Sizes:       []CitySize{{UpTo: 100, Front: 8, Depth: 8}, {UpTo: 200, Front: 12, Depth: 8}, {UpTo: 300, Front: 12, Depth: 12}, {UpTo: 400, Front: 16, Depth: 12}},
		BlockInches: 4, FiguresPerBlock: 24,
	}
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
		City:                    cityOnTable(), NoBattleBehindWalls: true,
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
