package ruleset

// AssaultResult is a cell of the Assault table.
type AssaultResult string

// The results of the Assault table:
//
//	R1: Easily Repulsed: Attackers suffer casualties = 20% of defender strength.
//	    Defenders suffer casualties = 5% of attacker strength.
//	R2: Bloody Repulse: Attackers suffer casualties = 30% of defender strength.
//	    Defenders suffer casualties = 10% of attacker strength.
//	V1: Bloody Victory: Defenders wiped out. Attackers suffer casualties = 30%
//	    of defender strength.
//	V2: Easy Victory: Defenders wiped out. Attackers suffer casualties = 5% of
//	    defender strength.
const (
	R1 AssaultResult = "R1"
	R2 AssaultResult = "R2"
	V1 AssaultResult = "V1"
	V2 AssaultResult = "V2"
)

// AssaultOutcome is what a result does: casualties as a percentage of the other
// side's strength, and whether the defenders are wiped out.
type AssaultOutcome struct {
	Name              string
	AttackerLoss      Percent // of defender strength
	DefenderLoss      Percent // of attacker strength
	DefendersWipedOut bool
}

// AssaultTable is the rulebook's assault table (Sieges → Assaults), also used
// for the damage defenders inflict in an overrun. Columns are odds
// attacker:defender in PV; rows the die score 1–6 plus one per breach, up to +5.
//
//	Die  <3:2  3:2  2:1  3:1  4:1  5:1  6:1
//	1    R1    R1   R1   R1   R2   V1   V1
//	2    R1    R1   R1   R2   V1   V1   V2
//	3    R1    R1   R2   R2   V1   V1   V2
//	4    R1    R2   R2   V1   V1   V1   V2
//	5    R2    R2   V1   V1   V2   V2   V2
//	6    R2    V1   V1   V2   V2   V2   V2
type AssaultTable struct {
	// Columns are the odds each column needs, as num/den; the first column
	// ("Under 3:2") needs nothing.
	Columns []Odds
	// Rows[die-1][column].
	Rows     [6][7]AssaultResult
	Outcomes map[AssaultResult]AssaultOutcome
	// MaxBreachBonus: "Per breach: +1 to die score, up to +5". Scores above 6
	// read the 6 row.
	MaxBreachBonus int
	// MinInfantryForeign: "You must have at least 100 figures of infantry to
	// assault a foreign city."
	MinInfantryForeign int
}

// Odds is a ratio num:den.
type Odds struct{ Num, Den int }

// Column returns the column index for attacker and defender PV.
func (t AssaultTable) Column(attacker, defender int) int {
	col := 0
	for i, o := range t.Columns {
		if defender == 0 || attacker*o.Den >= defender*o.Num {
			col = i
		}
	}
	return col
}

// Result reads the table for a die score (with breaches already added) and a
// column.
func (t AssaultTable) Result(score, column int) AssaultResult {
	if score < 1 {
		score = 1
	}
	if score > 6 {
		score = 6
	}
	return t.Rows[score-1][column]
}

func assaultTable() AssaultTable {
	return AssaultTable{
		Columns: []Odds{{0, 1}, {3, 2}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}},
		Rows: [6][7]AssaultResult{
			{R1, R1, R1, R1, R2, V1, V1},
			{R1, R1, R1, R2, V1, V1, V2},
			{R1, R1, R2, R2, V1, V1, V2},
			{R1, R2, R2, V1, V1, V1, V2},
			{R2, R2, V1, V1, V2, V2, V2},
			{R2, V1, V1, V2, V2, V2, V2},
		},
		Outcomes: map[AssaultResult]AssaultOutcome{
			R1: {Name: "Easily Repulsed", AttackerLoss: 20, DefenderLoss: 5},
			R2: {Name: "Bloody Repulse", AttackerLoss: 30, DefenderLoss: 10},
			V1: {Name: "Bloody Victory", AttackerLoss: 30, DefendersWipedOut: true},
			V2: {Name: "Easy Victory", AttackerLoss: 5, DefendersWipedOut: true},
		},
		MaxBreachBonus:     5,
		MinInfantryForeign: 100,
	}
}

// SiegeRules are the rules' "Sieges" section. The combat issue's siege step
// reads them; the editions differ in AttackerLossPerDefenderInfantry and the
// healthy garrison.
type SiegeRules struct {
	// BesiegeOdds: "three times the strength in infantry and/or cavalry".
	BesiegeOdds int
	// ForeignMinimum: "If the city is foreign you also need a minimum of 100".
	ForeignMinimum int
	// DefenderLossPerAttackerGun: "2/1 figures lost per turn per heavy/field
	// gun the attackers possess" (heavy 2, field 1).
	DefenderLossPerHeavyGun, DefenderLossPerFieldGun int
	// AttackerLossPerDefenderGun: "3/2 casualties per turn for each
	// heavy/field gun the defenders possess".
	AttackerLossPerHeavyGun, AttackerLossPerFieldGun int
	// DefenderLossPerAttackerInfantry: "1 casualty per turn for each 50
	// figures of infantry the attackers possess".
	DefenderLossPerAttackerInfantry int
	// AttackerLossPerDefenderInfantry: 1752 "1 casualty for each 10 figures of
	// infantry the defenders possess"; V4 "each 25".
	AttackerLossPerDefenderInfantry int
	// BreachOn: a heavy gun breaches on a die of 4–6.
	BreachOn int
	// MaxBreaches: "The maximum breaches is 5."
	MaxBreaches int
	// HealthyGarrisonPer100 (V4 only, 0 = no such rule): "a maximum healthy
	// garrison size of 50 figures per 100 crowns of tax value"; overcrowding
	// costs OvercrowdingAttrition per turn under siege or masking.
	HealthyGarrisonPer100 int
	OvercrowdingAttrition Percent
	// CounterBatteryHitsFieldGuns (V4): the defenders' heavy guns may destroy
	// "an enemy heavy or field gun"; 1752 only heavy guns.
	CounterBatteryHitsFieldGuns bool
	// SiegeSurrender and the rest are in siege.go.
	SiegeSurrender
}
