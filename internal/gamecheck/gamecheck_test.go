package gamecheck

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/ruleset"
)

// seeds is how many seeds TestGameInvariants plays of each game, edition
// and battle model: 20 by default, more with -seeds N or PBEM_INVARIANT_SEEDS.
var seeds = flag.Int("seeds", 20, "seeds per game, edition and battle model for TestGameInvariants (env PBEM_INVARIANT_SEEDS)")

// genTurns is how many turns of the generated 40-nation game are played.
const genTurns = 2

func seedCount() int {
	if s := os.Getenv("PBEM_INVARIANT_SEEDS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return *seeds
}

// TestGameInvariants plays the demo's scripted year and the generated
// 40-nation game over many seeds, under both editions and both battle
// models, and checks every invariant of Check after every turn, from the
// state, the events and every report model. A failing game prints its
// seed, edition, model, turn and the fact.
func TestGameInvariants(t *testing.T) {
	n := seedCount()
	for _, game := range []string{Demo, Generated} {
		for _, ed := range ruleset.IDs() {
			for _, model := range ruleset.BattleModels {
				for seed := uint64(1); seed <= uint64(n); seed++ {
					s := Setup{Game: game, Edition: ed, Model: model, Seed: seed}
					if game == Generated {
						s.Turns = genTurns
					}
					t.Run(fmt.Sprintf("%s/%s/%s/%d", game, ed, model, seed), func(t *testing.T) {
						t.Parallel()
						var faults, known []string
						err := Play(s, Hooks{Each: func(tn *Turn) error {
							for _, f := range Check(tn) {
								if f.Known != "" {
									known = append(known, f.String())
								} else {
									faults = append(faults, f.String())
								}
							}
							return nil
						}})
						if err != nil {
							t.Fatal(err)
						}
						if len(known) > 0 {
							t.Logf("%d known faults of open issues:\n%s", len(known), strings.Join(known, "\n"))
						}
						if len(faults) > 0 {
							t.Errorf("%d faults:\n%s", len(faults), strings.Join(faults, "\n"))
						}
					})
				}
			}
		}
	}
}
