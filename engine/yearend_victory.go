package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// checkVictory is the Introduction's victory condition: "The first player to
// end a game-year with a tax base of 4800 points is the winner. If several
// players fulfil this condition the same year, the player with the largest
// tax base is the winner." Every nation's tax base (TaxBase: the full tax
// values of the cities it controls, after loyalty) is published; the
// nations at or above the victory tax base contend, the largest wins, and a
// tie at the largest is settled by the ruleset's YearEnd.VictoryTie: shared
// (every tied nation wins) or play-on (no winner this year). A game already
// won records no second victory.
func (t *turn) checkVictory() {
	rule := t.cite("Introduction", "")
	year := t.s.Calendar.Date(t.number).Year
	ev := &TaxBasesCounted{Year: year}
	for _, n := range t.activeNations() {
		ev.Bases = append(ev.Bases, NationTaxBase{Nation: n, TaxBase: TaxBase(t.m, t.r, t.s, n)})
	}
	t.emit(ev, rule, game.Place{}, public())
	if t.s.Victory != nil || t.r.Taxes.VictoryTaxBase <= 0 {
		return
	}
	var cont []NationTaxBase
	for _, b := range ev.Bases {
		if b.TaxBase >= t.r.Taxes.VictoryTaxBase {
			cont = append(cont, b)
		}
	}
	if len(cont) == 0 {
		return
	}
	slices.SortStableFunc(cont, func(a, b NationTaxBase) int { return b.TaxBase - a.TaxBase })
	v := Victory{Year: year, Contenders: cont}
	for _, c := range cont {
		if c.TaxBase == cont[0].TaxBase {
			v.Winners = append(v.Winners, c.Nation)
		}
	}
	if len(v.Winners) > 1 {
		v.Tie = true
		if t.r.YearEnd.VictoryTie == ruleset.TiePlayOn {
			v.Winners = nil
		}
	}
	slices.Sort(v.Winners)
	t.emit(&VictoryDeclared{Victory: v}, rule, game.Place{}, public())
	if len(v.Winners) > 0 {
		t.s.Victory = &v
	}
}
