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
// defaultSeeds is how many seeds TestGameInvariants plays unless told.
const defaultSeeds = 20

var seeds = flag.Int("seeds", defaultSeeds, "seeds per game, edition and battle model for TestGameInvariants (env PBEM_INVARIANT_SEEDS)")

// genTurns is how many turns of the generated 40-nation game are played.
const genTurns = 2

func seedCount() int {
	if s := os.Getenv("PBEM_INVARIANT_SEEDS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	if testing.Short() && *seeds == defaultSeeds {
		return shortSeeds
	}
	return *seeds
}

// shortSeeds is how many seeds of each game, edition and battle model
// go test -short plays: the everyday run. The full run (and CI) plays
// defaultSeeds.
const shortSeeds = 3

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
						var battles []Battle
						err := Play(s, Hooks{Each: func(tn *Turn) error {
							for _, f := range Check(tn) {
								if f.Known != "" {
									known = append(known, f.String())
								} else {
									faults = append(faults, f.String())
								}
							}
							battles = append(battles, Battles(tn)...)
							return nil
						}})
						if err != nil {
							t.Fatal(err)
						}
						if game == Demo {
							keepBattles(s, battles)
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

// TestDemoBattlesReadAsBattles reads the land battles of the demo's year
// for seeds 1–20, under both editions and both battle models (the games
// TestGameInvariants played, or played here when it did not run), as a
// referee would sign them (issue 20): no field battle against a garrison
// behind its walls, and no army of twice the enemy's strength breaking
// after losing fewer than it inflicted unless its commander fell while
// attached (Battle.Read); and, for each battle model, at least one field
// battle of the 20 demo years (both editions) a repulse, a withdrawal or a
// battle of more than one day ("Repulse Result", "Multi-Day Battles"). It
// logs the counts per edition and model.
//
// The demo's scripted players hold their garrisons on DEFEND, receive an
// enemy on good ground (woods, rough) or when outnumbered on DEFEND, and
// hold their siege lines so (demo/defend.go): about half the demo's field
// battles are attacks on a defender. But they are uneven — Eisenmark's
// King, a military genius by the autumn, with more men against Fromande's
// corps in the woods at Turn 6; Unterreich's army at twice Morgronskia's
// strength before Pressau — and the rest are meeting engagements, which
// the simulation decides in three or four turns (docs/battles.md,
// Calibration). The simulation's repulses are Eisenmark's attack in the
// woods, 1752 (seeds 6 and 16), since a battery fires once a bound as
// 001's units do (before, a battery of four guns fired twice, and the
// demo's armies, a gun to 24 figures, had none); in V4 the same attack,
// with fewer men and its genius's setup advantage, breaks Fromande in 14
// of 16 years and is broken in the other two, and neither model has a V4 repulse or second day: logged as a
// known fault of issue 20.
func TestDemoBattlesReadAsBattles(t *testing.T) {
	var setups []Setup
	for _, ed := range ruleset.IDs() {
		for _, model := range ruleset.BattleModels {
			for seed := uint64(1); seed <= 20; seed++ {
				setups = append(setups, Setup{Game: Demo, Edition: ed, Model: model, Seed: seed})
			}
		}
	}
	got, missing := playedBattles(setups)
	t.Run("play", func(t *testing.T) {
		for _, s := range missing {
			t.Run(fmt.Sprintf("%s/%s/%d", s.Edition, s.Model, s.Seed), func(t *testing.T) {
				t.Parallel()
				var battles []Battle
				if err := Play(s, Hooks{Each: func(tn *Turn) error {
					battles = append(battles, Battles(tn)...)
					return nil
				}}); err != nil {
					t.Fatal(err)
				}
				keepBattles(s, battles)
			})
		}
	})
	more, _ := playedBattles(missing)
	for s, bs := range more {
		got[s] = bs
	}
	total := map[[2]string]*BattleCounts{}
	for _, s := range setups {
		k := [2]string{s.Edition, s.Model}
		if total[k] == nil {
			total[k] = &BattleCounts{}
		}
		for _, b := range got[s] {
			total[k].Count(b)
			for _, bad := range b.Read() {
				t.Errorf("%s: %s", b, bad)
			}
		}
	}
	for _, ed := range ruleset.IDs() {
		for _, model := range ruleset.BattleModels {
			c := total[[2]string{ed, model}]
			t.Logf("%s, %s: %d field battles in 20 demo years, %d repulsed, %d withdrawals, %d of more than one day",
				ed, model, c.Battles, c.Repulses, c.Withdrawals, c.MultiDay)
		}
	}
	for _, model := range ruleset.BattleModels {
		n := 0
		for _, ed := range ruleset.IDs() {
			c := total[[2]string{ed, model}]
			n += c.Repulses + c.Withdrawals + c.MultiDay
			if c.Repulses+c.Withdrawals+c.MultiDay == 0 {
				t.Logf("known fault of issue 20: no field battle of the 20 demo years in %s with %s was a repulse, a withdrawal or a battle of more than one day", ed, model)
			}
		}
		if n == 0 {
			t.Errorf("%s: no field battle of the 20 demo years, in either edition, was a repulse, a withdrawal or a battle of more than one day (issue 20: at least one)", model)
		}
	}
}
