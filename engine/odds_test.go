package engine

import (
	"math"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestPercentOddsMatchTheDice: the odds a forecast quotes for a percentage
// loss are what the engine's dice give, thrown many times.
func TestPercentOddsMatchTheDice(t *testing.T) {
	t.Parallel()
	for _, rules := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
		for _, tc := range []struct {
			n int
			p ruleset.Percent
		}{{40, 15}, {7, 25}, {100, 5}, {13, 10}, {3, 5}} {
			lo, hi, c := PercentOdds(rules, tc.n, tc.p)
			d := NewDice(uint64(tc.n*1000 + int(tc.p)))
			const throws = 20000
			his := 0
			for range throws {
				got := d.PercentOf(rules, tc.n, tc.p, "test", "")
				if got != lo && got != hi {
					t.Fatalf("%s %d%% of %d: the dice gave %d, the odds say %d–%d", rules.ID, tc.p, tc.n, got, lo, hi)
				}
				if got == hi && hi != lo {
					his++
				}
			}
			if hi == lo {
				continue
			}
			if seen := 100 * float64(his) / throws; math.Abs(seen-float64(c)) > 2 {
				t.Errorf("%s %d%% of %d: %d on %.1f%% of throws, the odds say %d%%", rules.ID, tc.p, tc.n, hi, seen, c)
			}
		}
	}
}

// TestAssaultOddsCoverTheDie: the assault odds share the six faces of the
// die among the table's results, and a sure win at high odds with every
// breach reads as one result.
func TestAssaultOddsCoverTheDie(t *testing.T) {
	t.Parallel()
	rules := ruleset.SYW1752()
	for _, tc := range []struct{ att, def, breaches int }{{100, 100, 0}, {600, 100, 5}, {150, 100, 2}} {
		total := 0
		for _, o := range AssaultOdds(rules, tc.att, tc.def, tc.breaches) {
			total += o.Sixths
			if o.Outcome == "" {
				t.Errorf("%v: a result without a name", tc)
			}
		}
		if total != 6 {
			t.Errorf("%v: the odds cover %d faces of the die, want 6", tc, total)
		}
	}
	pv := AssaultPV(rules, []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 100}}, nil, 0)
	if pv <= 0 {
		t.Fatalf("AssaultPV of 100 line infantry = %d", pv)
	}
	dist := BreachOdds(rules, 3, 0)
	sum := 0.0
	for _, p := range dist {
		sum += p
	}
	if math.Abs(sum-100) > 1e-6 || math.Abs(dist[3]-12.5) > 1e-6 {
		t.Errorf("3 heavy guns on unbreached walls: %v (sum %v), want 12.5%% of 3 breaches", dist, sum)
	}
}
