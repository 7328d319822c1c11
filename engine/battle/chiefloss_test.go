package battle

import (
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestCommanderLostShakesHisChainWithin18: 001, "If a General is
// Killed/Incapacitated all units in his chain of command within 18″ are
// shaken at end of bound." The commander lost shakes the units of the line
// within ChiefLossReach slots of his (18″ at a battalion's 6″), not the
// units beyond; ChiefLossReach 0 is the whole line.
func TestCommanderLostShakesHisChainWithin18(t *testing.T) {
	r := ruleset.SYW1752()
	for _, reach := range []int{3, 0} {
		p := DefaultSimParams
		p.ChiefLossReach = reach
		s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 240), army("fromande", game.Defend, game.GradeC, 240), newDice(1))
		b := &sim{r: r, p: p, s: s, d: newDice(1), res: &Result{Model: ruleset.BattleSimulation, Winner: -1, Turning: -1}}
		for i := range s.Sides {
			b.sides[i] = b.deploy(i)
		}
		b.assignCover()
		b.matchups()
		b.placeGenerals()
		ss := b.sides[0]
		chief := ss.chief
		if chief == nil || chief.unit == nil {
			t.Fatal("the attacker's commander is with no unit of the line")
		}
		at := chief.unit.slot
		b.generalOut(chief, Killed)
		var near, far, shakenFar int
		for _, u := range ss.line {
			if u == nil || u.st != stLine {
				continue
			}
			d := abs(u.slot - at)
			switch {
			case d <= 3 && !u.shaken:
				t.Errorf("reach %d: the unit %d slots from the commander is not shaken", reach, d)
			case d <= 3:
				near++
			default:
				far++
				if u.shaken {
					shakenFar++
				}
			}
		}
		if far == 0 {
			t.Fatalf("reach %d: the line has no unit beyond 18″ of the commander (%d near): the test needs a longer line", reach, near)
		}
		if reach == 3 && shakenFar > 0 {
			t.Errorf("%d units beyond 18″ of the commander were shaken by his loss", shakenFar)
		}
		if reach == 0 && shakenFar != far {
			t.Errorf("ChiefLossReach 0: %d of %d units beyond 18″ shaken, want the whole line", shakenFar, far)
		}
		if ss.chiefLost != Killed {
			t.Errorf("the side's lost commander is %q, want killed", ss.chiefLost)
		}
	}
}
