package ruleset

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
}
