package ruleset

import "github.com/syw-pbem/pbem/game"

// SiegeSurrender holds the rules' "Sieges" numbers the siege step needs
// beyond SiegeRules' first fields: the surrender roll, counter-battery fire
// and what a failed assault costs. The same in both editions except
// ExhaustAfterFailedAssault.
type SiegeSurrender struct {
	// SurrenderOn, SurrenderBonusMax: "The first time the walls are
	// breached, the defenders may surrender (they must be besieged to
	// surrender): 1-3 = surrender, +1 for each breach up to +2." Read as: a
	// D6 of SurrenderOn or less plus one per breach made, at most
	// SurrenderBonusMax more (1–3 with one breach, 1–4 with two, 1–5 with
	// three or more).
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

// Surrenders reports whether the garrison surrenders on the die, with the
// walls breached breaches times.
func (s SiegeSurrender) Surrenders(die, breaches int) bool {
	return die <= s.SurrenderOn+min(breaches, s.SurrenderBonusMax)
}

func siegeSurrender(exhaust bool) SiegeSurrender {
	return SiegeSurrender{
		SurrenderOn: 3, SurrenderBonusMax: 2,
		CounterBatteryOn: 6, CrewPerGun: 4, AttackerGunsPerDie: 2,
		GunnerModifier:            map[game.Grade]int{game.GradeA: 1, game.GradeB: 1, game.GradeD: -1},
		ExhaustAfterFailedAssault: exhaust,
	}
}
