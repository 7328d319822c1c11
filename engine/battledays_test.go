package engine_test

import (
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestModelBattlesKeepToMaxDays: V4's multi-day battles last "at most 3
// days" (LandBattleRules.MaxDays) and no more than the sixths of the turn
// left, for the battle model as for a tabletop result: over busy generated
// V4 turns, no land battle is told as lasting longer. (That the model keeps
// to the days its setup gives is battle.TestSimKeepsToSetupDays.)
func TestModelBattlesKeepToMaxDays(t *testing.T) {
	r := ruleset.SYWV4()
	var battles, multi int
	for seed := uint64(1); seed <= 16; seed++ {
		g := newGenGame(seed, 40, 30, 5, 25)
		in := g.input(seed)
		in.Rules = r
		in.State.Ruleset = r.ID
		res, err := engine.Resolve(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			lb, ok := e.(*engine.LandBattle)
			if !ok {
				continue
			}
			battles++
			if lb.Days > 1 {
				multi++
			}
			if room := engine.BattleDaysRoom(r, lb.Tick); lb.Days > room || lb.Days > r.LandBattles.MaxDays {
				t.Errorf("seed %d: the battle at %s (tick %d) lasted %d days; the edition allows %d and the turn left room for %d",
					seed, lb.Place.Hex, lb.Tick, lb.Days, r.LandBattles.MaxDays, room)
			}
		}
	}
	if battles == 0 {
		t.Fatal("no land battle in the generated turns: the test checks nothing")
	}
	t.Logf("%d V4 battles, %d of several days", battles, multi)
}
