package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Assaults on cities, part of the sieges step (sieges.go): the rules'
// "Assaults" paragraph and the assault table (ruleset.AssaultTable).

// assaultPV is a side's point value in an assault: infantry at full value,
// cavalry (the defender's) as line infantry of its grade, artillery and
// gunners at half, generals at full ("Both sides may count half the PV of
// artillery or crew, and the full value of any generals present").
func (t *turn) assaultPV(troops []game.Troops, guns []game.Guns, generals int) int {
	return AssaultPV(t.r, troops, guns, generals)
}

// spread shares n among counts in proportion, largest remainders first
// (ties in order).
func spread(counts []int, n int) []int {
	total := 0
	for _, c := range counts {
		total += c
	}
	out := make([]int, len(counts))
	if total == 0 || n <= 0 {
		return out
	}
	if n >= total {
		copy(out, counts)
		return out
	}
	given := 0
	for i, c := range counts {
		out[i] = n * c / total
		given += out[i]
	}
	order := make([]int, len(counts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return n*counts[b]%total - n*counts[a]%total })
	for k := 0; given < n; k++ {
		i := order[k%len(order)]
		if out[i] < counts[i] {
			out[i]++
			given++
		}
	}
	return out
}

// assault storms the city: "Only infantry may take part in the assault …
// Assaults are decided by comparing the PV of the figures involved and
// rolling on the table below. For each breach in the walls, add one to the
// die score. Only part of a force needs to assault, but all defenders must
// defend."
func (t *turn) assault(sc *siegeCity, no nationOrder, att, def []*game.Force) {
	o := no.o.(Assault)
	rule := t.cite("Sieges", "Assaults")
	f := t.force(o.Force)
	if f == nil {
		t.ignore(no.nation, o, o.Force, rule, fmt.Sprintf("%s is no longer in the game", o.Force))
		return
	}
	if len(def) == 0 {
		t.ignore(no.nation, o, o.Force, rule, fmt.Sprintf("nobody defends %s: a city without defenders is taken by entering it", sc.name))
		return
	}
	sr := t.r.Siege
	// The infantry that may assault: 1752's exhausted figures "may not
	// assault again until they recover".
	avail := make([]int, len(f.Troops))
	for i, tr := range f.Troops {
		if !tr.Arm.IsInfantry() {
			continue
		}
		avail[i] = tr.Count
		if sr.ExhaustAfterFailedAssault {
			avail[i] = tr.Count - tr.Exhausted
		}
	}
	can := 0
	for _, a := range avail {
		can += a
	}
	n := o.Infantry
	if n == 0 || n > can {
		n = can
	}
	foreign := sc.cs.Loyalty != no.nation
	switch {
	case n == 0:
		t.ignore(no.nation, o, o.Force, rule, fmt.Sprintf("%s has no infantry fit to assault: only infantry may take part in the assault", o.Force))
		return
	case foreign && n < t.r.Assault.MinInfantryForeign:
		t.ignore(no.nation, o, o.Force, rule, fmt.Sprintf("%s has %d infantry fit to assault; a foreign city needs at least %d", o.Force, n, t.r.Assault.MinInfantryForeign))
		return
	}
	picked := spread(avail, n)
	var attTroops []game.Troops
	for i, k := range picked {
		if k > 0 {
			tr := f.Troops[i]
			attTroops = append(attTroops, game.Troops{Arm: tr.Arm, Grade: tr.Grade, Count: k})
		}
	}
	for _, tr := range f.Troops {
		if tr.Arm == game.Gunners {
			attTroops = append(attTroops, tr)
		}
	}
	attPV := t.assaultPV(attTroops, f.Guns, countRole(f, game.General))
	var defTroops []game.Troops
	var defGuns []game.Guns
	generals, defFigs := 0, 0
	for _, d := range def {
		defTroops = append(defTroops, d.Troops...)
		defGuns = append(defGuns, d.Guns...)
		generals += countRole(d, game.General)
		defFigs += d.Figures()
	}
	defPV := t.assaultPV(defTroops, defGuns, generals)
	at := t.r.Assault
	die := t.dice.Roll("assault", 6, sc.name)
	bonus := min(sc.cs.Breaches, at.MaxBreachBonus)
	col := at.Column(attPV, defPV)
	res := at.Result(die+bonus, col)
	out := at.Outcomes[res]
	ev := &AssaultResolved{City: sc.name, Nation: no.nation, Force: f.ID, Infantry: n, AttackerPV: attPV, DefenderPV: defPV, Column: assaultColumnName(at, col),
		Die: die, Breaches: sc.cs.Breaches, Score: die + bonus, Result: res, Outcome: out.Name, Defenders: idsOfForces(def), EndOfTurn: true}
	// Casualties: "Attackers suffer casualties = X% of defender strength",
	// strength counted in figures, taken from the figures that assaulted.
	aLoss := t.dice.PercentOf(t.r, defFigs, out.AttackerLoss, "assault: fraction of a figure", sc.name)
	lost := spread(picked, aLoss)
	for i, k := range lost {
		if k == 0 {
			continue
		}
		tr := &f.Troops[i]
		ev.AttackerLosses = append(ev.AttackerLosses, Loss{Force: f.ID, Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Lost: k})
		tr.Count -= k
		tr.Exhausted = min(tr.Exhausted, tr.Count)
	}
	if out.DefendersWipedOut {
		ev.DefendersWipedOut = true
		ev.Captured = t.captureGarrison(sc, att, def)
	} else {
		dLoss := t.dice.PercentOf(t.r, n, out.DefenderLoss, "assault: fraction of a figure", sc.name)
		ev.DefenderLosses = takeLosses(def, dLoss, game.Arm.IsFighting)
		for _, d := range def {
			d.Normalize()
		}
		if sr.ExhaustAfterFailedAssault {
			for i, k := range picked {
				tr := &f.Troops[i]
				fresh := k - lost[i]
				if fresh > 0 {
					tr.Exhausted = min(tr.Count, tr.Exhausted+fresh)
					ev.Exhausted += fresh
				}
			}
		}
	}
	f.Normalize()
	nations := append([]game.NationID{no.nation}, forceNations(def)...)
	t.emit(ev, rule, game.AtHex(sc.hex), to(nations...), nations...)
}

func countRole(f *game.Force, r game.LeaderRole) int {
	n := 0
	for _, l := range f.Leaders {
		if l.Role == r {
			n++
		}
	}
	return n
}

// assaultColumnName names an odds column: "under 3:2", "3:2" … "6:1".
func assaultColumnName(at ruleset.AssaultTable, col int) string {
	if col == 0 && len(at.Columns) > 1 {
		return fmt.Sprintf("under %d:%d", at.Columns[1].Num, at.Columns[1].Den)
	}
	o := at.Columns[col]
	return fmt.Sprintf("%d:%d", o.Num, o.Den)
}
