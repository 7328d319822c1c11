package ruleset

import "github.com/syw-pbem/pbem/game"

// PointValues give a unit's point value (PV), the measure the rules use for
// overrun odds ("a 7:1 ratio in point value, exclusive of generals") and for
// assaults. The campaign rules take PV from the Old Dessauer battle rules,
// which pbem does not have; pbem reads a figure's PV as its buy cost on the
// Cost Chart (Grade A as Grade B), a gun's as its buy cost, and a general's as
// 50 (docs/rules-notes.md §Point value).
type PointValues struct {
	Costs CostChart
}

// Figure returns the PV of one figure.
func (p PointValues) Figure(a game.Arm, g game.Grade) int {
	if g == game.GradeA {
		g = game.GradeB
	}
	if a == game.IrregularLight {
		g = game.GradeD
	}
	bf, _ := p.Costs.Figure(a, g)
	return bf.Buy
}

// Gun returns the PV of a gun model.
func (p PointValues) Gun(k game.GunKind) int { return p.Costs.Guns[k].Buy }

// Leader returns the PV of a general.
func (p PointValues) Leader() int { return p.Costs.Leader.Buy }

// Force returns the PV of a force's troops and guns; generals are added only
// when withLeaders is set.
func (p PointValues) Force(f *game.Force, withLeaders bool) int {
	n := 0
	for _, t := range f.Troops {
		n += t.Count * p.Figure(t.Arm, t.Grade)
	}
	for _, g := range f.Guns {
		n += g.Count * p.Gun(g.Kind)
	}
	if withLeaders {
		n += len(f.Leaders) * p.Leader()
	}
	return n
}
