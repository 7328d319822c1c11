package engine

import (
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Odds of the dice the engine throws, computed from the same tables the
// engine rolls against (never a copy of them), for a forecast to say "2 or
// 3 figures, 3 on 40%" instead of guessing. Each function here reads the
// ruleset the engine's step reads and mirrors the step's arithmetic; the
// tests in odds_test.go throw the engine's own dice many times and compare.

// LossOdds is what a percentage loss does to one stack: Min figures lost
// for certain, Max at worst, and the chance in percent (0–100) of Max when
// it differs from Min (the D100 "roll for the fraction" of
// ruleset.Ruleset.DiceRounding; without it the fraction rounds and the
// result is certain).
type LossOdds struct {
	Arm    game.Arm     `json:",omitzero"`
	Grade  game.Grade   `json:",omitzero"`
	Gun    game.GunKind `json:",omitzero"`
	Before int
	Min    int
	Max    int
	// ChanceOfMax is the percent chance that Max figures are lost.
	ChanceOfMax int `json:",omitempty"`
}

// PercentOdds returns the outcomes of Dice.PercentOf for p% of n figures:
// the smaller and larger whole result and the percent chance of the larger.
func PercentOdds(rules *ruleset.Ruleset, n int, p ruleset.Percent) (lo, hi, chanceHi int) {
	if n <= 0 || p <= 0 {
		return 0, 0, 0
	}
	exact := n * int(p)
	whole, rem := exact/100, exact%100
	switch {
	case rem == 0:
		return whole, whole, 0
	case rules.DiceRounding:
		// PercentOf adds one figure on a D100 of rem or less.
		return whole, whole + 1, rem
	case rem >= 50:
		return whole + 1, whole + 1, 0
	}
	return whole, whole, 0
}

// AttritionOdds returns the supply attrition an unsupplied force would
// suffer in the attrition step (rules "Supply": A 5%, B and guns 10%, C 15%,
// D 25% in 1752), stack by stack as the step takes it (percentLosses with
// the ruleset's SupplyAttrition). Stacks that lose nothing are left out.
func AttritionOdds(rules *ruleset.Ruleset, f *game.Force) []LossOdds {
	var out []LossOdds
	rates := rules.SupplyAttrition
	for _, tr := range f.Troops {
		if tr.Count == 0 {
			continue
		}
		lo, hi, c := PercentOdds(rules, tr.Count, rates.Of(tr.Grade))
		if hi > 0 {
			out = append(out, LossOdds{Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Min: lo, Max: hi, ChanceOfMax: c})
		}
	}
	for _, g := range f.Guns {
		lo, hi, c := PercentOdds(rules, g.Count, rates.Guns)
		if hi > 0 {
			out = append(out, LossOdds{Gun: g.Kind, Before: g.Count, Min: lo, Max: hi, ChanceOfMax: c})
		}
	}
	return out
}

// AssaultPV is the assault strength of troops, guns and generals as the
// sieges step counts it (rules "Sieges", "Assaults"): infantry and
// cavalry (as line infantry of their grade) at full point value, gunners
// and guns at half, each general his leader's value.
func AssaultPV(rules *ruleset.Ruleset, troops []game.Troops, guns []game.Guns, generals int) int {
	pv := rules.PointValues
	full, half := 0, 0
	for _, tr := range troops {
		switch {
		case tr.Arm == game.Gunners:
			half += tr.Count * pv.Figure(tr.Arm, tr.Grade)
		case tr.Arm.IsCavalry():
			full += tr.Count * pv.Figure(game.LineInfantry, tr.Grade)
		default:
			full += tr.Count * pv.Figure(tr.Arm, tr.Grade)
		}
	}
	for _, g := range guns {
		half += g.Count * pv.Gun(g.Kind)
	}
	return full + half/2 + generals*pv.Leader()
}

// OutcomeOdds is one result of a table and its chance in sixths of a D6
// (Sixths of 6 is certain).
type OutcomeOdds struct {
	Outcome string
	Sixths  int
}

// AssaultOdds returns the assault table's results for attacker and
// defender PV with the walls breached breaches times, each with the number
// of die faces that give it, as the sieges step reads the table: one D6
// plus one per breach (up to MaxBreachBonus), on the odds column. Results
// are in the order the die first reaches them.
func AssaultOdds(rules *ruleset.Ruleset, attackerPV, defenderPV, breaches int) []OutcomeOdds {
	at := rules.Assault
	col := at.Column(attackerPV, defenderPV)
	bonus := min(breaches, at.MaxBreachBonus)
	var out []OutcomeOdds
	for die := 1; die <= 6; die++ {
		name := at.Outcomes[at.Result(die+bonus, col)].Name
		if n := len(out); n > 0 && out[n-1].Outcome == name {
			out[n-1].Sixths++
			continue
		}
		found := false
		for i := range out {
			if out[i].Outcome == name {
				out[i].Sixths++
				found = true
			}
		}
		if !found {
			out = append(out, OutcomeOdds{Outcome: name, Sixths: 1})
		}
	}
	return out
}

// BreachOdds returns, for heavy guns bombarding walls already breached
// breaches times, the chance in percent of each number of breaches the
// walls will have after the sieges step (index = breaches, from the
// present count to the rules' maximum): each gun throws a D6 and breaches
// on BreachOn or more while the walls can take more (rules "Sieges",
// "Breaching the Walls").
func BreachOdds(rules *ruleset.Ruleset, guns, breaches int) []float64 {
	sr := rules.Siege
	p := float64(7-sr.BreachOn) / 6
	if sr.BreachOn <= 1 {
		p = 1
	}
	maxB := max(sr.MaxBreaches, breaches)
	dist := make([]float64, maxB+1)
	dist[breaches] = 1
	for range guns {
		next := make([]float64, maxB+1)
		for b, q := range dist {
			if q == 0 {
				continue
			}
			if b >= sr.MaxBreaches {
				next[b] += q
				continue
			}
			next[b+1] += q * p
			next[b] += q * (1 - p)
		}
		dist = next
	}
	for i := range dist {
		dist[i] *= 100
	}
	return dist
}

// SurrenderChance is the percent chance that a besieged garrison
// surrenders on the surrender die thrown when its walls are first breached
// (breaches after that first breach), as the sieges step decides it.
func SurrenderChance(rules *ruleset.Ruleset, breaches int) float64 {
	need := rules.Siege.SurrenderNeed(breaches)
	return float64(min(max(need, 0), 6)) * 100 / 6
}
