package battle

import (
	"fmt"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// winRate fights n battles of a (side 0) against b and returns a's share
// of wins.
func winRate(m Model, r *ruleset.Ruleset, terrain game.Terrain, a, b armySpec, n int) float64 {
	wins := 0
	for seed := range n {
		d := newDice(uint64(seed) + 1)
		s := setupOf(r, terrain, a, b, d)
		res := m.Fight(r, s, d)
		if res.Winner == 0 {
			wins++
		}
	}
	return float64(wins) / float64(n)
}

// army is a typical campaign army: infantry, a sixth as many dragoons, a
// field gun per 40 infantry with its crews.
func army(n game.NationID, st game.Stance, g game.Grade, foot int) armySpec {
	guns := max(1, foot/40)
	return armySpec{nation: n, stance: st, troops: []game.Troops{inf(g, foot), cav(game.MediumCavalry, g, foot/6),
		{Arm: game.Gunners, Grade: g, Count: 4 * guns}}, guns: []game.Guns{{Kind: game.FieldGun, Count: guns}}}
}

// TestPlausibility: over many seeds, for each model and edition, 3:1 at
// equal quality wins almost always, 1:1 is near a coin toss, and quality,
// terrain, fieldworks, a genius and supply tilt it the expected way.
func TestPlausibility(t *testing.T) {
	const n = 300
	for _, m := range []Model{Simulation{}, LGG{}} {
		for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
			att := army("eisenmark", game.Attack, game.GradeC, 120)
			def := army("fromande", game.Defend, game.GradeC, 120)
			even := winRate(m, r, game.Clear, att, def, n)
			check := func(name string, got float64, lo, hi float64) {
				t.Helper()
				if got < lo || got > hi {
					t.Errorf("%s %s: %s: attacker wins %.2f, want %.2f–%.2f", m.Name(), r.ID, name, got, lo, hi)
				}
			}
			check("1:1 equal quality", even, 0.35, 0.65)
			check("3:1", winRate(m, r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 360), def, n), 0.95, 1)
			check("1:3", winRate(m, r, game.Clear, att, army("fromande", game.Defend, game.GradeC, 360), n), 0, 0.05)
			better := func(name string, a, b armySpec, ter game.Terrain, up bool) {
				t.Helper()
				got := winRate(m, r, ter, a, b, n)
				if up && got < even+0.05 || !up && got > even-0.05 {
					t.Errorf("%s %s: %s: attacker wins %.2f against %.2f at 1:1, want it %s", m.Name(), r.ID, name, got, even, map[bool]string{true: "higher", false: "lower"}[up])
				}
				fmt.Printf("%s %s %-28s %.2f (1:1 %.2f)\n", m.Name(), r.ID, name, got, even)
			}
			better("attacker B against C", army("eisenmark", game.Attack, game.GradeB, 120), def, game.Clear, true)
			better("defender B against C", att, army("fromande", game.Defend, game.GradeB, 120), game.Clear, false)
			better("defender in woods", att, def, game.Woods, false)
			works := def
			works.works = 120
			better("defender in fieldworks", att, works, game.Clear, false)
			unsup := att
			unsup.unsup = true
			better("attacker unsupplied", unsup, def, game.Clear, false)
			genius := def
			genius.xp = 3
			better("defender's general a genius", att, genius, game.Clear, false)
		}
	}
}
