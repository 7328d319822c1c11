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
