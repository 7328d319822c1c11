package battle

import (
	"slices"
	"strings"
)

// What the two models share at the end of a day: who was attacking, what a
// battle no army lost comes to, and the hits counted for promotions in a
// fixed order.

// attackingSide returns the side on attack (0 or 1), -2 when both attack, -1
// when neither does.
func attackingSide(a0, a1 bool) int {
	switch {
	case a0 && a1:
		return -2
	case a0:
		return 0
	case a1:
		return 1
	}
	return -1
}

// undecided settles a battle whose armies both stood when it ended
// ("Repulse Result: If a force was on attack orders and fails to break the
// enemy's army morale after a day of battle, but its own morale is still
// intact, it has been repulsed"): the attacker att is repulsed and the
// other side wins; when both attacked, both are repulsed. A result already
// reached is left as it is.
func (r *Result) undecided(att int) {
	if r.Outcome != "" {
		return
	}
	if att == -2 {
		r.Outcome = BothRepulsed
		return
	}
	r.Outcome, r.Winner = Repulse, 1-att
}

// afterDay is V4's night of a multi-day battle ("Multi-Day Battles",
// 003:202), decided on the figures each side has standing (intact): with
// one attacker att, the defender "may then retire one hex with no pursuit
// losses suffered if it desires" — it does when it has less than half the
// attacker's standing, and is the winner (Withdrew) — and the attacker
// fights another day while it has no fewer standing than the defender;
// when both attacked, "each retires 9" and either may withdraw one hex for
// free": a side with less than half the other's standing does (both
// repulsed, that side Withdrawn), else both fight on. It reports whether
// the battle goes on next day.
func (r *Result) afterDay(att int, intact func(int) int) bool {
	switch {
	case att >= 0:
		ai, di := intact(att), intact(1-att)
		if di*2 < ai {
			r.Outcome, r.Winner = Withdrew, 1-att
			r.Withdrawn[1-att] = true
			return false
		}
		return ai >= di
	case att == -2:
		for i := range 2 {
			if intact(i)*2 < intact(1-i) {
				r.Outcome, r.Winner = BothRepulsed, -1
				r.Withdrawn[i] = true
				return false
			}
		}
		return true
	}
	return false
}

// withdrawnSide is the side that took the free withdrawal, or -1.
func (r *Result) withdrawnSide() int {
	for i, w := range r.Withdrawn {
		if w {
			return i
		}
	}
	return -1
}

// sortedHitKeys returns the keys of a side's hit count by nation, arm and
// grade, so that the result lists them the same way every time.
func sortedHitKeys(hits map[hitKey]int) []hitKey {
	hk := make([]hitKey, 0, len(hits))
	for k := range hits {
		hk = append(hk, k)
	}
	slices.SortFunc(hk, func(a, c hitKey) int {
		if a.n != c.n {
			return strings.Compare(string(a.n), string(c.n))
		}
		if a.a != c.a {
			return int(a.a) - int(c.a)
		}
		return int(a.g) - int(c.g)
	})
	return hk
}
