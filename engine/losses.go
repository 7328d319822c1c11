package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

func distance(a, b game.Hex) int { return hexmap.Distance(a, b) }

type stackRef struct {
	f *game.Force
	i int
}

// takeLosses kills n figures from the forces' troop stacks: first from the
// stacks whose arm passes eligible, in proportion to their size (largest
// remainders first, ties in stack order), then, if they are all dead, from
// the others the same way. Within a stack exhausted figures die first. The
// forces are not normalised; the caller does that.
func takeLosses(forces []*game.Force, n int, eligible func(game.Arm) bool) []Loss {
	var out []Loss
	for pass := 0; pass < 2 && n > 0; pass++ {
		var refs []stackRef
		total := 0
		for _, f := range forces {
			for i, tr := range f.Troops {
				if tr.Count > 0 && (eligible(tr.Arm) == (pass == 0)) {
					refs = append(refs, stackRef{f, i})
					total += tr.Count
				}
			}
		}
		if total == 0 {
			continue
		}
		take := make([]int, len(refs))
		if n >= total {
			for k, r := range refs {
				take[k] = r.f.Troops[r.i].Count
			}
		} else {
			given := 0
			for k, r := range refs {
				take[k] = n * r.f.Troops[r.i].Count / total
				given += take[k]
			}
			order := make([]int, len(refs))
			for k := range order {
				order[k] = k
			}
			slices.SortStableFunc(order, func(a, b int) int {
				ra := n * refs[a].f.Troops[refs[a].i].Count % total
				rb := n * refs[b].f.Troops[refs[b].i].Count % total
				return rb - ra
			})
			for k := 0; given < n; k++ {
				take[order[k%len(order)]]++
				given++
			}
		}
		for k, r := range refs {
			if take[k] == 0 {
				continue
			}
			tr := &r.f.Troops[r.i]
			l := Loss{Force: r.f.ID, Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Lost: take[k]}
			tr.Count -= take[k]
			tr.Exhausted = max(0, tr.Exhausted-take[k])
			n -= take[k]
			out = append(out, l)
		}
	}
	return out
}

// percentLosses applies a per-grade percentage loss to every stack of a
// force (gun models at the guns' rate), rolling for fractions as the ruleset
// says. With exhaust set, the same percentage of each stack's fresh
// survivors becomes exhausted (1752 retreat: "with the same percentage
// becoming exhausted"); the total newly exhausted is returned.
func (t *turn) percentLosses(f *game.Force, rates ruleset.AttritionRates, exhaust bool, purpose string) ([]Loss, int) {
	var out []Loss
	exhausted := 0
	for i := range f.Troops {
		tr := &f.Troops[i]
		if tr.Count == 0 {
			continue
		}
		p := rates.Of(tr.Grade)
		lost := t.dice.PercentOf(t.r, tr.Count, p, purpose, string(f.ID)+" "+tr.Grade.String()+" "+tr.Arm.String())
		l := Loss{Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Lost: lost}
		tr.Count -= lost
		tr.Exhausted = max(0, tr.Exhausted-lost)
		if exhaust {
			fresh := tr.Count - tr.Exhausted
			ex := t.dice.PercentOf(t.r, fresh, p, purpose+": exhausted", string(f.ID)+" "+tr.Grade.String()+" "+tr.Arm.String())
			tr.Exhausted += ex
			l.Exhausted = ex
			exhausted += ex
		}
		if l.Lost > 0 || l.Exhausted > 0 {
			out = append(out, l)
		}
	}
	for i := range f.Guns {
		g := &f.Guns[i]
		lost := t.dice.PercentOf(t.r, g.Count, rates.Guns, purpose, string(f.ID)+" "+g.Kind.String())
		if lost > 0 {
			out = append(out, Loss{Gun: g.Kind, Before: g.Count, Lost: lost})
			g.Count -= lost
		}
	}
	f.Normalize()
	return out, exhausted
}

// checkMinimumAt applies the rules' "Minimum Force Sizes" to nation n's
// land forces in place p, as one stack (docs/rules-notes.md §Minimum force
// sizes): in a city not loyal to n, 9 or fewer figures are killed by the
// militia; in a city loyal to n, 4 or fewer without a general desert;
// elsewhere, at sea included, 9 or fewer without a general desert. Forces of
// leaders alone are not "figures" and are left be; fleets have no minimum.
func (t *turn) checkMinimumAt(p game.Place, n game.NationID) {
	if p.IsZero() {
		return
	}
	var stack []*game.Force
	for _, f := range t.forcesAt(p) {
		if f.Nation == n && !f.IsFleet() {
			stack = append(stack, f)
		}
	}
	t.checkStack(p, n, stack)
}

// checkStack applies the minimum force sizes to one stack.
func (t *turn) checkStack(p game.Place, n game.NationID, stack []*game.Force) {
	figures, guns, general := 0, 0, false
	for _, f := range stack {
		figures += f.Figures()
		guns += f.GunCount()
		general = general || f.HasRole(game.General)
	}
	if figures == 0 && guns == 0 {
		return
	}
	if figures == 0 && !slices.ContainsFunc(stack, func(f *game.Force) bool { return f.Aboard == "" }) {
		// Guns alone in a fleet's hold (prizes of a sea battle) are
		// cargo, not a force that can desert.
		return
	}
	mf := t.r.MinimumForce
	reason := ""
	if c, ok := t.m.CityAt(p.Hex); ok && !p.IsSea() {
		loyal := false
		if cs, ok := t.s.City(c.Name); ok {
			loyal = cs.Loyalty == n
		}
		switch {
		case !loyal && figures <= mf.ForeignCityMilitia:
			reason = "militia"
		case loyal && figures <= mf.FriendlyTownDeserts && !general:
			reason = "desertion"
		}
	} else if figures <= mf.OutsideCityDeserts && !general {
		reason = "desertion"
	}
	if reason == "" {
		return
	}
	for _, f := range stack {
		if f.Figures() == 0 && f.GunCount() == 0 {
			continue
		}
		t.emit(&ForceDisbanded{Force: f.ID, Reason: reason, Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
			t.cite("Minimum Force Sizes", ""), p, to(n), n)
		t.remove(f.ID)
	}
}

// stepMinimumSizes checks every stack at the end of the turn. A force with
// nothing left in it — no troops, guns, ships or leaders, after attrition or
// the losses of a fight — is disbanded first ("empty").
func (t *turn) stepMinimumSizes() {
	type key struct {
		n game.NationID
		p game.Place
	}
	var keys []key
	stacks := map[key][]*game.Force{}
	for _, f := range t.live() {
		if f.IsEmpty() {
			t.emit(&ForceDisbanded{Force: f.ID, Reason: "empty"}, t.cite("Minimum Force Sizes", ""), f.At, to(f.Nation), f.Nation)
			t.remove(f.ID)
			continue
		}
		if f.IsFleet() {
			continue
		}
		k := key{f.Nation, f.At}
		if _, ok := stacks[k]; !ok {
			keys = append(keys, k)
		}
		stacks[k] = append(stacks[k], f)
	}
	for _, k := range keys {
		t.checkStack(k.p, k.n, stacks[k])
	}
}

// stepAttrition: "Unsupplied troops suffer attrition: A = 5%, B and guns =
// 10%, C = 15%, D = 25%", for every force the start-of-turn trace found
// unsupplied. Fractions are rolled (ruleset DiceRounding). A force left with
// nothing is disbanded at the minimum-sizes step that follows.
func (t *turn) stepAttrition() {
	for _, f := range t.live() {
		if !f.Unsupplied || f.IsFleet() {
			continue
		}
		losses, _ := t.percentLosses(f, t.r.SupplyAttrition, false, "supply attrition")
		if len(losses) == 0 {
			continue
		}
		t.emit(&Attrition{Force: f.ID, Cause: "supply", Losses: losses}, t.cite("Supply", "Unsupplied troops suffer attrition"), f.At, to(f.Nation), f.Nation)
	}
}
