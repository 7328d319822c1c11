package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// After is what the post-battle rules did to each side, for the engine's
// events and the narrative.
type After struct {
	// Roles: "winner" or "loser" per side, as the regaining rules treat it
	// (a repulsed attacker is treated as the loser).
	Roles [2]string
	// Retreat is the side that must leave the hex (-1: none): the beaten
	// army, or in V4 a repulsed attacker that gives up the battle.
	Retreat int
	// Free: the side that leaves does so by V4's free withdrawal (Result.Withdrawn):
	// unpursued, and a force with nowhere to go stays rather than being
	// captured (it was not beaten).
	Free bool
	// Pursued: pursuit losses were taken.
	Pursued bool
	Sides   [2]AfterSide
}

// AfterSide is one side's post-battle account.
type AfterSide struct {
	// Figures before the battle; Killed, Routed and Captured are the
	// battle's losses before regaining; Regained came back; PursuitLost
	// fell in the pursuit; Exhausted became exhausted (1752).
	Figures, Killed, Routed, Captured, Regained, PursuitLost, Exhausted int
	// Stacks are the changes by force, arm and grade.
	Stacks []StackChange `json:",omitempty"`
	// GunsLost: taken on the field (Reason "field") or in the pursuit
	// ("pursuit"); GunsTaken are the enemy guns this side took.
	GunsLost  []GunChange `json:",omitempty"`
	GunsTaken []GunChange `json:",omitempty"`
	// Excess cavalry the winner pursued with.
	PursuitLight, PursuitHeavy int           `json:",omitempty"`
	Promotions                 []Promotion   `json:",omitempty"`
	Experience                 *XPGain       `json:",omitempty"`
	Generals                   []GeneralFate `json:",omitempty"`
}

// StackChange is what happened to one stack of one force.
type StackChange struct {
	Force                                                game.ForceID
	Arm                                                  game.Arm
	Grade                                                game.Grade
	Before                                               int
	Killed, Routed, Captured, Regained, Pursuit, Exhaust int `json:",omitempty"`
}

// GunChange is gun models lost or taken.
type GunChange struct {
	Force  game.ForceID
	Kind   game.GunKind
	Count  int
	Reason string
}

// Promotion is figures of one stack raised a grade.
type Promotion struct {
	Force    game.ForceID
	Arm      game.Arm
	From, To game.Grade
	Figures  int
	Points   int
}

// XPGain is the experience point the winning side's senior general earned.
type XPGain struct {
	Nation game.NationID
	Force  game.ForceID
	ID     string
	Name   string
	XP     int // after the gain
	Genius bool
}

// Aftermath applies a battle's result to the sides' forces by the edition's
// post-battle rules, in the rules' order: losses and regaining (by role),
// V4's capture of surrounded losers, guns taken on the field, pursuit by
// excess cavalry and the loser's gun losses on a D6, 1752's exhaustion, the
// senior general's experience, generals lost, field promotions. forces[i]
// are side i's forces (the engine's working copies, changed in place; the
// caller normalises them). The result may come from a model or from a
// referee's table.
func Aftermath(r *ruleset.Ruleset, s *Setup, res *Result, forces [2][]*game.Force, d Dice) *After {
	a := &After{Retreat: -1}
	lb := r.LandBattles
	for i := range 2 {
		a.Roles[i] = "loser"
		if res.Winner == i {
			a.Roles[i] = "winner"
		}
		for _, f := range forces[i] {
			a.Sides[i].Figures += f.Figures()
		}
	}
	switch res.Outcome {
	case Decisive:
		a.Retreat = 1 - res.Winner
	case Repulse:
		if lb.MultiDay {
			a.Retreat = 1 - res.Winner
		}
	case Withdrew:
		// V4: "The enemy may then retire one hex with no pursuit losses";
		// the defender that withdraws unbroken is the winner (it "merely
		// has to avoid having its army morale broken"), so it is the
		// winner that leaves the hex.
		a.Retreat, a.Free = res.Winner, true
	case BothRepulsed:
		// V4, both on attack: "either may withdraw one hex for free".
		if w := res.withdrawnSide(); w >= 0 && lb.MultiDay {
			a.Retreat, a.Free = w, true
		}
	}
	pursuit := a.Retreat >= 0 && res.Winner >= 0 && res.Outcome != Withdrew
	for i := range 2 {
		applyLosses(r, s, res, forces, i, a.Roles[i] == "winner", res.Outcome == Decisive && res.Winner == 1-i, &a.Sides[i], d)
	}
	// Guns taken on the field are "deemed Captured by the Winner": they go
	// to the winning side's senior general's force; a side that won the
	// battle recovers its own overrun guns.
	for i := range 2 {
		if res.Winner == i {
			continue
		}
		for _, g := range res.Sides[i].GunsLost {
			lost := removeGuns(forces[i], g.Nation, g.Force, g.Kind, g.Count)
			if lost == 0 {
				continue
			}
			a.Sides[i].GunsLost = append(a.Sides[i].GunsLost, GunChange{Force: g.Force, Kind: g.Kind, Count: lost, Reason: "field"})
			if res.Winner == 1-i {
				if f := leadForce(s, 1-i, forces); f != nil {
					f.Guns = append(f.Guns, game.Guns{Kind: g.Kind, Count: lost})
					a.Sides[1-i].GunsTaken = append(a.Sides[1-i].GunsTaken, GunChange{Force: f.ID, Kind: g.Kind, Count: lost, Reason: "field"})
				}
			}
		}
	}
	if pursuit {
		a.Pursued = true
		pursue(r, forces, res.Winner, a, d)
	}
	// Generals killed or captured leave their forces.
	for i := range 2 {
		for _, g := range res.Sides[i].Generals {
			a.Sides[i].Generals = append(a.Sides[i].Generals, g)
			if g.Fate != Killed && g.Fate != Captured {
				continue
			}
			for _, f := range forces[i] {
				f.Leaders = slices.DeleteFunc(f.Leaders, func(l game.Leader) bool { return l.ID == g.ID })
			}
		}
	}
	// Experience: "Each time an army wins a battle the senior general gets
	// 1 experience point" — the army's senior general when the battle is
	// won: the commander, or, if he was killed or taken, the general who
	// took over from him (the next of the staff still with the army).
	if w := res.Winner; w >= 0 && lb.ExperiencePerWin > 0 {
		if f, l := seniorSurvivor(s, w, forces); l != nil {
			l.Experience += lb.ExperiencePerWin
			a.Sides[w].Experience = &XPGain{Nation: f.Nation, Force: f.ID, ID: l.ID, Name: l.Name, XP: l.Experience,
				Genius: lb.GeniusXP > 0 && l.Experience >= lb.GeniusXP}
		}
	}
	for i := range 2 {
		promote(r, res.Sides[i].Hits, forces[i], &a.Sides[i])
	}
	return a
}

// seniorSurvivor is the winning side's senior general after the battle:
// the first of its staff (the commander first, then by seniority) still
// with one of its forces — a general killed or captured has left it.
func seniorSurvivor(s *Setup, w int, forces [2][]*game.Force) (*game.Force, *game.Leader) {
	staff := s.Sides[w].Staff
	if len(staff) == 0 && s.Sides[w].Commander != nil {
		staff = []Commander{*s.Sides[w].Commander}
	}
	for _, c := range staff {
		for _, f := range forces[w] {
			for k := range f.Leaders {
				if l := &f.Leaders[k]; l.ID == c.ID && l.Role == game.General {
					return f, l
				}
			}
		}
	}
	return nil, nil
}

// frac returns n·num/den, rolling for the fraction when the ruleset says so
// (a D(den) at or under the remainder adds one), otherwise rounding down.
func frac(r *ruleset.Ruleset, n int, f ruleset.Fraction, d Dice, purpose, subject string) int {
	if n <= 0 || f.Num <= 0 || f.Den <= 0 {
		return 0
	}
	exact := n * f.Num
	whole, rem := exact/f.Den, exact%f.Den
	if rem > 0 && r.DiceRounding && d.Roll(purpose, f.Den, subject) <= rem {
		whole++
	}
	return whole
}

type stackAt struct {
	f *game.Force
	i int
}

// stacks finds the stacks a line of casualties applies to: the named force's
// stack, or every stack of that nation, arm and grade on the side.
func stacks(forces []*game.Force, n game.NationID, force game.ForceID, arm game.Arm, grade game.Grade) []stackAt {
	var out []stackAt
	for _, f := range forces {
		if f.Nation != n || (force != "" && f.ID != force) {
			continue
		}
		for k, tr := range f.Troops {
			if tr.Arm == arm && tr.Grade == grade && tr.Count > 0 {
				out = append(out, stackAt{f, k})
			}
		}
	}
	return out
}

// spread divides n over the stacks in proportion to their counts (largest
// remainders first), never more than a stack holds.
func spread(st []stackAt, n int) []int {
	out := make([]int, len(st))
	total := 0
	for _, s := range st {
		total += s.f.Troops[s.i].Count
	}
	if total == 0 || n <= 0 {
		return out
	}
	n = min(n, total)
	given := 0
	order := make([]int, len(st))
	for k, s := range st {
		out[k] = n * s.f.Troops[s.i].Count / total
		given += out[k]
		order[k] = k
	}
	rem := func(k int) int { return n * st[k].f.Troops[st[k].i].Count % total }
	slices.SortStableFunc(order, func(a, b int) int { return rem(b) - rem(a) })
	for j := 0; given < n; j = (j + 1) % len(st) {
		if k := order[j]; out[k] < st[k].f.Troops[st[k].i].Count {
			out[k]++
			given++
		}
	}
	return out
}

func applyLosses(r *ruleset.Ruleset, s *Setup, res *Result, forces [2][]*game.Force, i int, winner, beaten bool, as *AfterSide, d Dice) {
	lb := r.LandBattles
	rk, rr := r.Regain.LoserKilled, r.Regain.LoserRouted
	if winner {
		rk, rr = r.Regain.WinnerKilled, r.Regain.WinnerRouted
	}
	for _, c := range res.Sides[i].Losses {
		st := stacks(forces[i], c.Nation, c.Force, c.Arm, c.Grade)
		if len(st) == 0 {
			continue
		}
		captured, routed := 0, c.Routed
		if lb.SurroundedCaptured && beaten {
			captured = c.Surrounded
		} else {
			routed += c.Surrounded
		}
		subject := string(c.Nation) + " " + c.Grade.String() + " " + c.Arm.String()
		if c.Force != "" {
			subject = string(c.Force) + " " + c.Grade.String() + " " + c.Arm.String()
		}
		backK := frac(r, c.Killed, rk, d, "regain killed figures", subject)
		backR := frac(r, routed, rr, d, "regain routed figures", subject)
		net := c.Killed + routed + captured - backK - backR
		ex := 0
		if lb.ExhaustRegained {
			ex += backK + backR
		}
		if lb.ExhaustHalfStrength {
			ex += c.HalfStrength
		}
		nets := spread(st, net)
		exs := spread(st, ex)
		for k, sa := range st {
			tr := &sa.f.Troops[sa.i]
			ch := StackChange{Force: sa.f.ID, Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count}
			tr.Count -= nets[k]
			tr.Exhausted = min(tr.Count, max(0, tr.Exhausted-nets[k])+exs[k])
			ch.Exhaust = exs[k]
			if k == 0 {
				ch.Killed, ch.Routed, ch.Captured, ch.Regained = c.Killed, routed, captured, backK+backR
			}
			as.Stacks = append(as.Stacks, ch)
		}
		as.Killed += c.Killed
		as.Routed += routed
		as.Captured += captured
		as.Regained += backK + backR
		as.Exhausted += ex
	}
}

func removeGuns(forces []*game.Force, n game.NationID, force game.ForceID, kind game.GunKind, count int) int {
	lost := 0
	for _, f := range forces {
		if f.Nation != n || (force != "" && f.ID != force) {
			continue
		}
		for k := range f.Guns {
			g := &f.Guns[k]
			if g.Kind != kind || count == 0 {
				continue
			}
			take := min(g.Count, count)
			g.Count -= take
			count -= take
			lost += take
		}
	}
	return lost
}

func leadForce(s *Setup, i int, forces [2][]*game.Force) *game.Force {
	if c := s.Sides[i].Commander; c != nil {
		for _, f := range forces[i] {
			if f.ID == c.Force {
				return f
			}
		}
	}
	if len(forces[i]) > 0 {
		return forces[i][0]
	}
	return nil
}

func countArms(forces []*game.Force, keep func(game.Arm) bool) int {
	n := 0
	for _, f := range forces {
		n += f.CountArms(keep)
	}
	return n
}

// pursue: the loser loses figures of (line) infantry or gunners for each
// excess light cavalry figure of the winner (V4 also each excess heavy or
// medium cavalry figure), then rolls a D6 for each gun model.
func pursue(r *ruleset.Ruleset, forces [2][]*game.Force, w int, a *After, d Dice) {
	pr := r.Pursuit
	l := 1 - w
	light := func(x game.Arm) bool { return x == game.LightCavalry }
	heavy := func(x game.Arm) bool { return x == game.HeavyCavalry || x == game.MediumCavalry }
	exL := max(0, countArms(forces[w], light)-countArms(forces[l], light))
	exH := 0
	if pr.PerHeavyMediumCavalry > 0 {
		exH = max(0, countArms(forces[w], heavy)-countArms(forces[l], heavy))
	}
	as := &a.Sides[l]
	a.Sides[w].PursuitLight, a.Sides[w].PursuitHeavy = exL, exH
	kill := exL*pr.PerLightCavalry + exH*pr.PerHeavyMediumCavalry
	victims := func(x game.Arm) bool { return x == game.LineInfantry || x == game.Gunners }
	if pr.AllInfantry {
		victims = func(x game.Arm) bool { return x.IsInfantry() || x == game.Gunners }
	}
	var st []stackAt
	for _, f := range forces[l] {
		for k, tr := range f.Troops {
			if victims(tr.Arm) && tr.Count > 0 {
				st = append(st, stackAt{f, k})
			}
		}
	}
	for k, n := range spread(st, kill) {
		if n == 0 {
			continue
		}
		tr := &st[k].f.Troops[st[k].i]
		as.Stacks = append(as.Stacks, StackChange{Force: st[k].f.ID, Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Pursuit: n})
		tr.Count -= n
		tr.Exhausted = min(tr.Exhausted, tr.Count)
		as.PursuitLost += n
	}
	for _, f := range forces[l] {
		for k := range f.Guns {
			g := &f.Guns[k]
			on := pr.GunLossOn[g.Kind]
			if on <= 0 {
				continue
			}
			lost := 0
			for range g.Count {
				if d.Roll("pursuit: gun lost", 6, string(f.ID)+" "+g.Kind.String()) <= on {
					lost++
				}
			}
			if lost > 0 {
				g.Count -= lost
				as.GunsLost = append(as.GunsLost, GunChange{Force: f.ID, Kind: g.Kind, Count: lost, Reason: "pursuit"})
			}
		}
	}
}

// promote turns a side's hits into field promotions.
func promote(r *ruleset.Ruleset, hits []Hits, forces []*game.Force, as *AfterSide) {
	pr := r.Promotions
	if pr.HitsPerPoint <= 0 {
		return
	}
	cost := func(a game.Arm, g game.Grade) int {
		if a.IsCavalry() {
			return pr.CavalryCost[g]
		}
		return pr.Cost[g]
	}
	raise := func(sa stackAt, n, points int) {
		tr := &sa.f.Troops[sa.i]
		n = min(n, tr.Count)
		if n <= 0 || tr.Grade == game.GradeA {
			return
		}
		to := tr.Grade - 1
		fresh := tr.Count - tr.Exhausted
		ex := max(0, n-fresh)
		tr.Count -= n
		tr.Exhausted -= ex
		sa.f.Troops = append(sa.f.Troops, game.Troops{Arm: tr.Arm, Grade: to, Count: n, Exhausted: ex})
		as.Promotions = append(as.Promotions, Promotion{Force: sa.f.ID, Arm: tr.Arm, From: to + 1, To: to, Figures: n, Points: points})
	}
	if pr.ByArm {
		for _, h := range hits {
			pts := h.Hits / pr.HitsPerPoint
			c := cost(h.Arm, h.Grade)
			if pts <= 0 || c <= 0 || h.Grade == game.GradeA {
				continue
			}
			st := stacks(forces, h.Nation, "", h.Arm, h.Grade)
			for k, n := range spread(st, pts/c) {
				raise(st[k], n, n*c)
			}
		}
		return
	}
	pts := 0
	for _, h := range hits {
		pts += h.Hits
	}
	pts /= pr.HitsPerPoint
	if pts <= 0 {
		return
	}
	var st []stackAt
	for _, f := range forces {
		for k, tr := range f.Troops {
			if tr.Grade != game.GradeA && tr.Count > 0 && cost(tr.Arm, tr.Grade) > 0 {
				st = append(st, stackAt{f, k})
			}
		}
	}
	// Points in rough proportion to each stack's figures; each stack buys
	// what its share pays for.
	shares := spread(st, pts)
	for k, p := range shares {
		c := cost(st[k].f.Troops[st[k].i].Arm, st[k].f.Troops[st[k].i].Grade)
		if n := p / c; n > 0 {
			raise(st[k], n, n*c)
		}
	}
}
