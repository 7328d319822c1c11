package battle

import (
	"fmt"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestBreakCountIsTheRule: "Army morale breaks if, at the end of a passive
// turn, half or more of your army's figures excluding artillery [V4:
// infantry or cavalry figures] are eliminated, have routed off the table,
// or are in shaken status." Over many seeds, both models and both
// editions, a battle decided by a broken army records the count at the
// break: for the beaten side, on its infantry and cavalry figures alone
// (never the gunners), with half or more of them eliminated, routed or
// shaken, at a turn of the day; a battle no army lost records none; and
// the count survives the result's JSON and its validation.
func TestBreakCountIsTheRule(t *testing.T) {
	a := army("eisenmark", game.Attack, game.GradeC, 120)
	b := army("fromande", game.Defend, game.GradeC, 120)
	broke := 0
	for _, m := range []Model{Simulation{}, LGG{}} {
		for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
			for seed := uint64(1); seed <= 60; seed++ {
				name := fmt.Sprintf("%s %s seed %d", m.Name(), r.ID, seed)
				d := newDice(seed)
				s := setupOf(r, game.Clear, a, b, d)
				s.Days = r.LandBattles.MaxDays
				res := m.Fight(r, s, d)
				c := res.BreakCount()
				if res.Outcome != Decisive {
					if c != nil {
						t.Errorf("%s: outcome %s, yet a break count %+v", name, res.Outcome, *c)
					}
					continue
				}
				if c == nil {
					t.Fatalf("%s: decisive, but no break count recorded", name)
				}
				broke++
				if c.Side != 1-res.Winner || !res.Broken[c.Side] {
					t.Errorf("%s: count for side %d, winner %d, broken %v", name, c.Side, res.Winner, res.Broken)
				}
				foot := 0
				for _, u := range s.Sides[c.Side].Units {
					if u.Kind != Battery {
						foot += u.Figures
					}
				}
				if c.Counted != foot || c.Gunners {
					t.Errorf("%s: counted %d (gunners %v), want the %d infantry and cavalry figures alone", name, c.Counted, c.Gunners, foot)
				}
				if c.Lost()*2 < c.Counted {
					t.Errorf("%s: broke with %d of %d eliminated, routed or shaken: less than half", name, c.Lost(), c.Counted)
				}
				if c.Eliminated < 0 || c.Routed < 0 || c.Shaken < 0 || c.Lost() > c.Counted {
					t.Errorf("%s: count %+v does not add up", name, *c)
				}
				if m.Name() == ruleset.BattleLGG && c.Shaken != 0 {
					t.Errorf("%s: LGG has no shaken status, counted %d shaken", name, c.Shaken)
				}
				if c.Day < 1 || c.Day > res.Days || c.Turn < 1 || c.Turn > r.LandBattles.TableTurns {
					t.Errorf("%s: broke on day %d, turn %d of a %d-day battle", name, c.Day, c.Turn, res.Days)
				}
				if m.Name() == ruleset.BattleSimulation && (c.Bound < 1 || c.Bound > 2 || c.Turn != res.Turns) {
					t.Errorf("%s: broke in bound %d of turn %d; the day ended at turn %d", name, c.Bound, c.Turn, res.Turns)
				}
				if f := c.CommanderLost; f != "" {
					struck := false
					for _, mo := range res.Moments {
						struck = struck || mo.What == MGeneral && mo.Side == c.Side && mo.Outcome == f && mo.Day == c.Day && mo.Turn >= c.Turn-1
					}
					if m.Name() != ruleset.BattleSimulation || !struck {
						t.Errorf("%s: commander %s at the break, but no such moment that day", name, f)
					}
				}
				j, err := MarshalResult(res)
				if err != nil {
					t.Fatal(err)
				}
				back, err := UnmarshalResult(j)
				if err != nil {
					t.Fatal(err)
				}
				if got := back.BreakCount(); got == nil || *got != *c {
					t.Errorf("%s: the count after JSON is %+v, want %+v", name, got, *c)
				}
				if err := back.Validate(s); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
	if broke < 20 {
		t.Errorf("only %d battles broke an army: the test proves little", broke)
	}
}

// TestBreakCountValidated: a referee's result whose break count does not
// fit (for the winner, or more lost than counted) is refused.
func TestBreakCountValidated(t *testing.T) {
	r := ruleset.SYW1752()
	d := newDice(1)
	s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 60), army("fromande", game.Defend, game.GradeC, 60), d)
	for _, c := range []ArmyBreak{
		{Side: 0, Counted: 70, Shaken: 40},                 // side 0 won
		{Side: 1, Counted: 70, Shaken: 40, Eliminated: 40}, // more than counted
		{Side: 1, Counted: 70, Shaken: -1, Eliminated: 40}, // negative
	} {
		res := &Result{Outcome: Decisive, Winner: 0, Broken: [2]bool{false, true}, Turning: -1,
			Moments: []Moment{{What: MBreak, Side: c.Side, Count: &c}}}
		if err := res.Validate(s); err == nil {
			t.Errorf("count %+v accepted", c)
		}
	}
	ok := ArmyBreak{Side: 1, Counted: 70, Shaken: 30, Routed: 5}
	res := &Result{Outcome: Decisive, Winner: 0, Broken: [2]bool{false, true}, Turning: -1, Moments: []Moment{{What: MBreak, Side: 1, Count: &ok}}}
	if err := res.Validate(s); err != nil {
		t.Errorf("a fitting count refused: %v", err)
	}
}
