package battle

import (
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// bigSetup is a 2,000-figure battle: two armies of 1,000 figures (800
// infantry, 120 cavalry of three kinds, 20 field and heavy guns with 80
// gunners), one attacking.
func bigSetup(r *ruleset.Ruleset, d Dice) *Setup {
	side := func(n game.NationID, st game.Stance) armySpec {
		return armySpec{nation: n, stance: st, leaders: 4, xp: 1, sp: 120, troops: []game.Troops{
			inf(game.GradeC, 600), inf(game.GradeB, 160), {Arm: game.LightInfantry, Grade: game.GradeC, Count: 40},
			cav(game.HeavyCavalry, game.GradeB, 36), cav(game.MediumCavalry, game.GradeC, 48), cav(game.LightCavalry, game.GradeC, 36),
			{Arm: game.Gunners, Grade: game.GradeC, Count: 80}},
			guns: []game.Guns{{Kind: game.FieldGun, Count: 14}, {Kind: game.HeavyGun, Count: 6}}}
	}
	return setupOf(r, game.Clear, side("eisenmark", game.Attack), side("fromande", game.Defend), d)
}

func benchModel(b *testing.B, m Model, r *ruleset.Ruleset) {
	s := bigSetup(r, newDice(1))
	if f := s.Sides[0].Figures() + s.Sides[1].Figures(); f != 2000 {
		b.Fatalf("%d figures, want 2000", f)
	}
	b.ReportAllocs()
	rolls := 0
	for i := 0; b.Loop(); i++ {
		d := newDice(uint64(i) + 1)
		m.Fight(r, s, d)
		rolls += d.rolls
	}
	b.ReportMetric(float64(rolls)/float64(b.N), "dice/op")
}

// BenchmarkSimulation2000 fights a 2,000-figure battle with the default
// model (docs/engine.md: under 5 ms).
func BenchmarkSimulation2000(b *testing.B) { benchModel(b, Simulation{}, ruleset.SYW1752()) }

// BenchmarkLGG2000 fights the same battle with La Grande Guerre.
func BenchmarkLGG2000(b *testing.B) { benchModel(b, LGG{}, ruleset.SYW1752()) }

// BenchmarkAftermath applies the post-battle rules to the 2,000-figure
// battle's result.
func BenchmarkAftermath(b *testing.B) {
	r := ruleset.SYWV4()
	s := bigSetup(r, newDice(1))
	res := Simulation{}.Fight(r, s, newDice(1))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var forces [2][]*game.Force
		for k := range 2 {
			f := game.Force{ID: s.Sides[k].Forces[0], Nation: s.Sides[k].Nations[0],
				Troops: []game.Troops{inf(game.GradeC, 600), inf(game.GradeB, 160), {Arm: game.LightInfantry, Grade: game.GradeC, Count: 40}, cav(game.LightCavalry, game.GradeC, 36), {Arm: game.Gunners, Grade: game.GradeC, Count: 80}},
				Guns:   []game.Guns{{Kind: game.FieldGun, Count: 14}, {Kind: game.HeavyGun, Count: 6}}}
			f.Normalize()
			forces[k] = []*game.Force{&f}
		}
		Aftermath(r, s, res, forces, newDice(uint64(i)+1))
	}
}
