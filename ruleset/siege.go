package ruleset

import "github.com/syw-pbem/pbem/game"

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
	// SiegeSurrender and the rest are below.
	SiegeSurrender
}

// SiegeSurrender holds the rules' "Sieges" numbers the siege step needs
// beyond SiegeRules' first fields: the surrender roll, counter-battery fire
// and what a failed assault costs. The same in both editions except
// ExhaustAfterFailedAssault.
type SiegeSurrender struct {
	// SurrenderOn, SurrenderBonusMax: "The first time the walls are
	// breached, the defenders may surrender (they must be besieged to
	// surrender): 1-3 = surrender, +1 for each breach up to +2." Read as: a
	// D6 of SurrenderOn or less with the first breach, plus one for each
	// breach beyond it, at most SurrenderBonusMax more (1–3 with one
	// breach, 1–4 with two, 1–5 with three or more): the roll comes only
	// once a breach is made, so a bonus for the first breach would leave
	// "1-3" never used (docs/rules-notes.md §Sieges).
	SurrenderOn, SurrenderBonusMax int
	// CounterBatteryOn: "On a 6 an enemy heavy gun is destroyed, along with
	// 4 crewmen"; CrewPerGun the crewmen. The attackers roll one die per
	// AttackerGunsPerDie heavy guns ("one die per turn per 2 heavy gun
	// models").
	CounterBatteryOn, CrewPerGun, AttackerGunsPerDie int
	// GunnerModifier: "Morale effects: +1 if A or B gunners, -1 if D
	// gunners", added to each counter-battery die.
	GunnerModifier map[game.Grade]int
	// ExhaustAfterFailedAssault (1752): "Figures that take part in a failed
	// assault are exhausted and may not assault again until they recover."
	// V4 leaves the sentence out.
	ExhaustAfterFailedAssault bool
}

// CounterBatteryHits reports whether a counter-battery die hits, for gunners
// of the grade given.
func (s SiegeSurrender) CounterBatteryHits(die int, gunners game.Grade) bool {
	return die+s.GunnerModifier[gunners] >= s.CounterBatteryOn
}

// SurrenderNeed is the highest die on which the garrison surrenders with the
// walls breached breaches times (at least one).
func (s SiegeSurrender) SurrenderNeed(breaches int) int {
	return s.SurrenderOn + min(max(breaches-1, 0), s.SurrenderBonusMax)
}

// Surrenders reports whether the garrison surrenders on the die, with the
// walls breached breaches times.
func (s SiegeSurrender) Surrenders(die, breaches int) bool {
	return die <= s.SurrenderNeed(breaches)
}

func siegeSurrender(exhaust bool) SiegeSurrender {
	return SiegeSurrender{
		SurrenderOn: 3, SurrenderBonusMax: 2,
		CounterBatteryOn: 6, CrewPerGun: 4, AttackerGunsPerDie: 2,
		GunnerModifier:            map[game.Grade]int{game.GradeA: 1, game.GradeB: 1, game.GradeD: -1},
		ExhaustAfterFailedAssault: exhaust,
	}
}
