package trossian

import (
	"reflect"
	"strings"
	"testing"
)

// TestParams: each doubtful reading is a parameter whose default is the
// edition's value, which takes every value it lists and refuses others.
func TestParams(t *testing.T) {
	for _, p := range Params {
		r := Trossian1801()
		if err := r.WithParam(p.Name, p.Default); err != nil {
			t.Errorf("%s=%s: %v", p.Name, p.Default, err)
		}
		if !reflect.DeepEqual(r, Trossian1801()) {
			t.Errorf("%s: the default %q is not the edition's value", p.Name, p.Default)
		}
		for _, v := range strings.Split(p.Values, " | ") {
			if err := Trossian1801().WithParam(p.Name, v); err != nil {
				t.Errorf("%s=%s: %v", p.Name, v, err)
			}
		}
		if err := Trossian1801().WithParam(p.Name, "bogus"); err == nil {
			t.Errorf("%s=bogus accepted", p.Name)
		}
	}
	if err := Trossian1801().WithParam("nonsense", "1"); err == nil {
		t.Error("an unknown parameter was accepted")
	}
}

// TestPostBattleModifiers: the two readings of the sign slip, row by row.
func TestPostBattleModifiers(t *testing.T) {
	guard := Stand{Type: HeavyInfantry, Guard: true, Count: 1}
	militia := Stand{Type: Militia, Count: 1}
	line := Stand{Type: LineInfantry, Count: 1}
	for _, c := range []struct {
		reading, outcome string
		s                Stand
		want             int
	}{
		{ModifierTougher, "win", guard, 1}, {ModifierTougher, "loss", militia, -1}, {ModifierTougher, "draw", guard, 1},
		{ModifierAsWritten, "win", guard, -1}, {ModifierAsWritten, "loss", militia, 1}, {ModifierAsWritten, "draw", guard, 1},
		{ModifierAsWritten, "draw", militia, -1}, {ModifierTougher, "win", line, 0},
	} {
		r := Trossian1801()
		r.PostBattle.Modifiers = c.reading
		if got := r.PostBattle.Modifier(c.outcome, r.PostBattle.Rows(c.outcome).Destroyed, c.s); got != c.want {
			t.Errorf("%s %s %s: %d, want %d", c.reading, c.outcome, c.s.Label(), got, c.want)
		}
		if got := r.PostBattle.Modifier(c.outcome, r.PostBattle.Rows(c.outcome).Routed, c.s); got != 0 {
			t.Errorf("%s %s %s: the routed roll is modified (%d)", c.reading, c.outcome, c.s.Label(), got)
		}
	}
}
