package battle

import (
	"math/rand/v2"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// testDice is a seeded die that counts its rolls.
type testDice struct {
	r     *rand.Rand
	rolls int
}

func newDice(seed uint64) *testDice {
	return &testDice{r: rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))}
}

func (d *testDice) Roll(purpose string, sides int, subject string) int {
	d.rolls++
	return d.r.IntN(max(sides, 1)) + 1
}

// army builds a side of one nation from troop stacks and guns.
type armySpec struct {
	nation  game.NationID
	troops  []game.Troops
	guns    []game.Guns
	stance  game.Stance
	xp      int
	works   int
	unsup   bool
	traits  game.Traits
	sp      int
	leaders int
}

func buildSide(r *ruleset.Ruleset, a armySpec) Side {
	f := game.Force{ID: game.ForceID(string(a.nation[:1]) + "1"), Nation: a.nation, Troops: a.troops, Guns: a.guns, Unsupplied: a.unsup}
	f.Normalize()
	s := Side{Nations: []game.NationID{a.nation}, Stance: a.stance, Forces: []game.ForceID{f.ID}, Fieldworks: a.works, ScoutingPoints: a.sp}
	s.Units = FormUnits(r, &f, a.traits)
	n := max(a.leaders, 1)
	for i := range n {
		c := Commander{Nation: a.nation, Force: f.ID, ID: string(a.nation) + string(rune('A'+i)), Name: "General " + string(rune('A'+i)), XP: a.xp}
		if i > 0 {
			c.XP = 0
		}
		c.Genius = c.XP >= r.LandBattles.GeniusXP
		s.Staff = append(s.Staff, c)
	}
	s.Commander = &s.Staff[0]
	s.Generals = n
	return s
}

func setupOf(r *ruleset.Ruleset, terrain game.Terrain, a, b armySpec, d Dice) *Setup {
	s := &Setup{Hex: game.Hex{Col: 5, Row: 5}, Terrain: terrain, CitySide: -1, Days: 1, Month: 6}
	s.Sides[0] = buildSide(r, a)
	s.Sides[1] = buildSide(r, b)
	Advantages(r, s, d)
	return s
}

func inf(g game.Grade, n int) game.Troops {
	return game.Troops{Arm: game.LineInfantry, Grade: g, Count: n}
}
func cav(a game.Arm, g game.Grade, n int) game.Troops {
	return game.Troops{Arm: a, Grade: g, Count: n}
}

// army is a typical campaign army: infantry, a sixth as many dragoons, a
// field gun per 40 infantry with its crews.
func army(n game.NationID, st game.Stance, g game.Grade, foot int) armySpec {
	guns := max(1, foot/40)
	return armySpec{nation: n, stance: st, troops: []game.Troops{inf(g, foot), cav(game.MediumCavalry, g, foot/6),
		{Arm: game.Gunners, Grade: g, Count: 4 * guns}}, guns: []game.Guns{{Kind: game.FieldGun, Count: guns}}}
}
