package battle

import (
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// FuzzRefereeResult: a result typed by a referee (it will come by mail) is
// read, checked against the battle and, if accepted, applied by the
// post-battle rules, without a panic and without a stack going negative.
func FuzzRefereeResult(f *testing.F) {
	f.Add(`{"Outcome":"decisive","Winner":1,"Sides":[{"Losses":[{"Nation":"eisenmark","Arm":"infantry","Grade":"C","Killed":5,"Routed":3,"Surrounded":2,"HalfStrength":4}],"Hits":[{"Nation":"eisenmark","Arm":"infantry","Grade":"C","Hits":9}]},{"GunsLost":[{"Nation":"fromande","Kind":"field-gun","Count":1}]}]}`)
	f.Add(`{"Outcome":"repulse","Winner":0}`)
	f.Add(`{"Outcome":"both-repulsed","Winner":-1,"Sides":[{"Losses":[{"Nation":"eisenmark","Force":"e1","Arm":"gunners","Grade":"A","Killed":999999}]},{}]}`)
	f.Fuzz(func(t *testing.T, js string) {
		for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
			a := army("eisenmark", game.Attack, game.GradeC, 60)
			b := army("fromande", game.Defend, game.GradeC, 60)
			s := setupOf(r, game.Clear, a, b, newDice(1))
			res, err := UnmarshalResult([]byte(js))
			if err != nil || res.Validate(s) != nil {
				return
			}
			var forces [2][]*game.Force
			for i, sp := range []armySpec{a, b} {
				f := game.Force{ID: s.Sides[i].Forces[0], Nation: sp.nation, Troops: append([]game.Troops(nil), sp.troops...), Guns: append([]game.Guns(nil), sp.guns...),
					Leaders: []game.Leader{{ID: s.Sides[i].Commander.ID, Role: game.General}}}
				f.Normalize()
				forces[i] = []*game.Force{&f}
			}
			Aftermath(r, s, res, forces, newDice(2))
			for _, fs := range forces {
				for _, f := range fs {
					for _, tr := range f.Troops {
						if tr.Count < 0 || tr.Exhausted < 0 || tr.Exhausted > tr.Count {
							t.Fatalf("%s: stack %+v after %s", r.ID, tr, js)
						}
					}
					for _, g := range f.Guns {
						if g.Count < 0 {
							t.Fatalf("%s: guns %+v after %s", r.ID, g, js)
						}
					}
				}
			}
		}
	})
}
