package demo

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// TestGoodGround: a scripted general marching into woods with an enemy army
// of his size a month's march away marches on DEFEND ("If a force has
// defend orders, it merely has to avoid having its army morale broken");
// with no enemy near, or into clear ground against an equal one, he
// marches on ATTACK; against a larger one he receives it on DEFEND
// anywhere. A garrison is left on DEFEND.
func TestGoodGround(t *testing.T) {
	sc, err := scenario.Load("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	m, rules := sc.Map, ruleset.SYW1752()
	// Fromande's corps at 1511, next to the woods of 1611 and to clear
	// ground.
	from, woods := game.Hex{Col: 15, Row: 11}, game.Hex{Col: 16, Row: 11}
	if m.TerrainAt(woods) != game.Woods {
		t.Fatalf("the default map's 1611 is %v: the test wants woods", m.TerrainAt(woods))
	}
	var clear game.Hex
	for _, h := range m.Neighbors(from) {
		if m.TerrainAt(h) == game.Clear {
			clear = h
			break
		}
	}
	f := &game.Force{ID: "F1", Nation: "fromande", At: game.AtHex(from),
		Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 84}}}
	enemy := func(size ruleset.SizeClass, at game.Hex) []engine.ForeignForce {
		return []engine.ForeignForce{{ID: "E1", Nation: "eisenmark", At: game.AtHex(at), Size: size}}
	}
	for _, c := range []struct {
		name    string
		foreign []engine.ForeignForce
		route   []game.Hex
		want    bool
	}{
		{"into the woods, an equal army near", enemy(ruleset.Small, game.Hex{Col: 17, Row: 12}), []game.Hex{woods}, true},
		{"into the woods, nobody near", enemy(ruleset.Small, game.Hex{Col: 2, Row: 2}), []game.Hex{woods}, false},
		{"into the woods the enemy holds", enemy(ruleset.Small, woods), []game.Hex{woods}, false},
		{"into clear ground, an equal army near", enemy(ruleset.Small, game.Hex{Col: 17, Row: 12}), []game.Hex{clear}, false},
		{"into clear ground, a larger army near", enemy(ruleset.Large, game.Hex{Col: 17, Row: 12}), []game.Hex{clear}, true},
	} {
		pl := &plan{p: &player{nation: "fromande"}, m: m, rules: rules, v: &engine.NationView{Nation: "fromande", Foreign: c.foreign}}
		if _, got := pl.goodGround(f, c.route); got != c.want {
			t.Errorf("%s: on DEFEND %v, want %v", c.name, got, c.want)
		}
	}
	pl := &plan{p: &player{nation: "fromande"}, m: m, rules: rules, v: &engine.NationView{Nation: "fromande"}}
	pl.garrison("F5", "Valmont")
	if got := strings.Join(pl.lines, "; "); got != "GARRISON F5 Valmont; STANCE F5 DEFEND" {
		t.Errorf("a garrison left with %q", got)
	}
}
