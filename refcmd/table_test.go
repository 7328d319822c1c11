package refcmd

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// resultBattle is a battle at 0502 between Eisenmark's E1 (general Keith,
// 2 field guns) and Fromande's F1 (general Saxe, 3 field guns and 1 heavy
// gun), begun at the start of the turn.
func resultBattle() (*engine.State, []engine.LandBattle) {
	h, _ := game.ParseHex("0502")
	st := &engine.State{Forces: []game.Force{
		{ID: "E1", Nation: "eisenmark", At: game.AtHex(h), Guns: []game.Guns{{Kind: game.FieldGun, Count: 2}},
			Leaders: []game.Leader{{ID: "Keith", Name: "Field Marshal James Keith", Role: game.General}}},
		{ID: "F1", Nation: "fromande", At: game.AtHex(h), Guns: []game.Guns{{Kind: game.FieldGun, Count: 3}, {Kind: game.HeavyGun, Count: 1}},
			Leaders: []game.Leader{{ID: "Saxe", Name: "Maurice de Saxe", Role: game.General}, {ID: "Lowendal", Name: "Lowendal", Role: game.General}}},
	}}
	lb := engine.LandBattle{Hex: h}
	lb.Sides[0].Nations, lb.Sides[0].Forces = []game.NationID{"eisenmark"}, []game.ForceID{"E1"}
	lb.Sides[1].Nations, lb.Sides[1].Forces = []game.NationID{"fromande"}, []game.ForceID{"F1"}
	return st, []engine.LandBattle{lb}
}

// TestParseResult: a RESULT mail after the referee's PASSWORD line is read
// as one; every mistake comes with its line.
func TestParseResult(t *testing.T) {
	st, lbs := resultBattle()
	mail := "PASSWORD s3cret\nRESULT 0502\nOUTCOME repulse\nWINNER fromande\nLOSSES E1 infantry C KILLED 3 ROUTED 1\nHITS fromande infantry C 4\nEND\n"
	if !IsResult(mail) || IsResult("PASSWORD s3cret\nRESOLVE NOW\n") {
		t.Fatal("IsResult does not tell a RESULT mail from commands")
	}
	tb, errs := ParseResult(mail, st, lbs, ruleset.SYW1752())
	if len(errs) > 0 || tb.Result.Outcome != "repulse" || tb.Result.Winner != 1 || len(tb.Result.Sides[0].Losses) != 1 ||
		tb.Result.Sides[0].Losses[0].Killed != 3 || len(tb.Result.Sides[1].Hits) != 1 || tb.Result.Days != 1 {
		t.Fatalf("parsed %+v, errors %v", tb, errs)
	}
	_, errs = ParseResult("RESULT 0502\nOUTCOME decisive\nWINNER hispardia\nLOSSES X9 infantry C KILLED 1\nHITS fromande infantry C many\n", st, lbs, ruleset.SYW1752())
	want := []string{"line 3:", "fought on neither side", "line 4:", "no force X9", "line 5:", "no WINNER line"}
	for _, w := range want {
		if !strings.Contains(strings.Join(errs, "\n"), w) {
			t.Errorf("the errors lack %q:\n%s", w, strings.Join(errs, "\n"))
		}
	}
}

const resultHead = "RESULT 0502\nOUTCOME decisive\nWINNER eisenmark\n"

// TestParseResultGenerals: GENERAL lines name a general by id, by name or
// by his force, give his fate and, with TURN (and DAY), the moment the
// narratives tell; the general goes to his side's fates.
func TestParseResultGenerals(t *testing.T) {
	st, lbs := resultBattle()
	tb, errs := ParseResult(resultHead+"DAYS 2\nGENERAL saxe KILLED TURN 9\nGENERAL Field Marshal James Keith WOUNDED TURN 3 DAY 1\nGENERAL lowendal CAPTURED\nEND\n",
		st, lbs, ruleset.SYWV4())
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	r := tb.Result
	if g := r.Sides[1].Generals; len(g) != 2 || g[0] != (battle.GeneralFate{Nation: "fromande", Force: "F1", ID: "Saxe", Name: "Maurice de Saxe", Fate: battle.Killed}) ||
		g[1].ID != "Lowendal" || g[1].Fate != battle.Captured {
		t.Errorf("Fromande's generals: %+v", g)
	}
	if g := r.Sides[0].Generals; len(g) != 1 || g[0].ID != "Keith" || g[0].Fate != battle.Wounded {
		t.Errorf("Eisenmark's generals: %+v", g)
	}
	// Two moments, in the order they happened: Keith on day 1, Saxe on the last day; none for Lowendal (no TURN).
	if m := r.Moments; len(m) != 2 || m[0].General != "Field Marshal James Keith" || m[0].Day != 1 || m[0].Turn != 3 ||
		m[1].General != "Maurice de Saxe" || m[1].Day != 2 || m[1].Turn != 9 || m[1].What != battle.MGeneral || m[1].Side != 1 || m[1].Outcome != battle.Killed {
		t.Errorf("moments: %+v", m)
	}
	// A force with one general names him.
	if tb, errs := ParseResult(resultHead+"GENERAL e1 KILLED\n", st, lbs, ruleset.SYW1752()); len(errs) > 0 || len(tb.Result.Sides[0].Generals) != 1 {
		t.Errorf("GENERAL E1: %+v, %v", tb.Result.Sides[0].Generals, errs)
	}
	for _, c := range []struct{ line, want string }{
		{"GENERAL Keith", `line 4: "GENERAL Keith": expected GENERAL, the general's id or name, then KILLED, WOUNDED or CAPTURED`},
		{"GENERAL KILLED", "line 4: \"GENERAL KILLED\": expected GENERAL, the general's id"},
		{"GENERAL Daun KILLED", `no general "Daun" in this battle; its generals are Keith (Field Marshal James Keith, E1); Saxe (Maurice de Saxe, F1); Lowendal (Lowendal, F1)`},
		{"GENERAL F1 KILLED", `"F1" names 2 generals (F1 has more than one): write the general's id instead`},
		{"GENERAL Keith KILLED\nGENERAL Keith WOUNDED", "line 5: \"GENERAL Keith WOUNDED\": Keith's fate is already given on line 4"},
		{"GENERAL Keith KILLED TURN 17", `expected the tabletop turn he was struck, 1 to 16, after TURN, read "17"`},
		{"GENERAL Keith KILLED BADLY", `expected TURN n or DAY n after the fate, read "BADLY"`},
		{"GENERAL Keith KILLED DAY 1", "DAY without TURN"},
		{"GENERAL Keith KILLED TURN 4 DAY 2", "line 4: DAY 2, but the battle lasted 1 day:"},
	} {
		_, errs := ParseResult(resultHead+c.line+"\nEND\n", st, lbs, ruleset.SYW1752())
		if got := strings.Join(errs, "\n"); !strings.Contains(got, c.want) {
			t.Errorf("%q: want %q, got:\n%s", c.line, c.want, got)
		}
	}
}

// TestParseResultGuns: GUNS force [kind] LOST n records guns the losing
// side lost on the field; the captor is the rules' business.
func TestParseResultGuns(t *testing.T) {
	st, lbs := resultBattle()
	tb, errs := ParseResult(resultHead+"GUNS F1 field-gun LOST 2\nGUNS F1 heavy-gun LOST 1\nEND\n", st, lbs, ruleset.SYW1752())
	if g := tb.Result.Sides[1].GunsLost; len(errs) > 0 || len(g) != 2 ||
		g[0] != (battle.GunsLost{Nation: "fromande", Force: "F1", Kind: game.FieldGun, Count: 2}) || g[1].Kind != game.HeavyGun {
		t.Fatalf("guns lost %+v, errors %v", g, errs)
	}
	// The kind may be left out for a force with one kind of gun.
	tb, errs = ParseResult("RESULT 0502\nOUTCOME decisive\nWINNER fromande\nGUNS e1 LOST 2\n", st, lbs, ruleset.SYW1752())
	if g := tb.Result.Sides[0].GunsLost; len(errs) > 0 || len(g) != 1 || g[0].Kind != game.FieldGun || g[0].Count != 2 {
		t.Fatalf("guns lost %+v, errors %v", g, errs)
	}
	for _, c := range []struct{ line, want string }{
		{"GUNS F1 CAPTURED 2", "write the guns the force lost, GUNS F1 LOST 2: the rules give them to the winner"},
		{"GUNS F1 field-gun", "expected GUNS force [gun kind] LOST n, such as GUNS F1 field-gun LOST 2"},
		{"GUNS X9 LOST 1", "no force X9 in the battle"},
		{"GUNS F1 LOST 1", "F1 has field-gun and heavy-gun: name the kind, such as GUNS F1 field-gun LOST 1"},
		{"GUNS F1 cannon LOST 1", `gun "cannon": expected light-gun, field-gun or heavy-gun`},
		{"GUNS F1 field-gun LOST 4", `expected the field-gun models F1 lost, 1 to 3, read "4"`},
		{"GUNS F1 light-gun LOST 1", `expected the light-gun models F1 lost, 1 to 0, read "1"`},
		{"GUNS F1 field-gun LOST 1\nGUNS F1 field-gun LOST 1", "line 5: \"GUNS F1 field-gun LOST 1\": F1's field-gun lost are already given on line 4"},
		{"GUNS E1 LOST 1", "line 4: E1's side won the battle, and a winner recovers its own overrun guns"},
	} {
		_, errs := ParseResult(resultHead+c.line+"\nEND\n", st, lbs, ruleset.SYW1752())
		if got := strings.Join(errs, "\n"); !strings.Contains(got, c.want) {
			t.Errorf("%q: want %q, got:\n%s", c.line, c.want, got)
		}
	}
}

// TestParseResultDays: DAYS n is V4's, within MaxDays and the sixths of
// the turn left when the battle began.
func TestParseResultDays(t *testing.T) {
	st, lbs := resultBattle()
	tb, errs := ParseResult(resultHead+"DAYS 3\nEND\n", st, lbs, ruleset.SYWV4())
	if len(errs) > 0 || tb.Result.Days != 3 {
		t.Fatalf("days %d, errors %v", tb.Result.Days, errs)
	}
	late := []engine.LandBattle{lbs[0]}
	late[0].Tick = engine.TicksPerTurn - engine.TicksPerTurn/6*2 // two sixths left
	for _, c := range []struct {
		line, want string
		r          *ruleset.Ruleset
		lbs        []engine.LandBattle
	}{
		{"DAYS 2", "this game plays SYW Big Game Campaign Rules (1752 Edition), where a battle is fought in one day (multi-day battles are V4's): leave the DAYS line out", ruleset.SYW1752(), lbs},
		{"DAYS 4", "this battle may last 1 to 3 days (at most 3 in SYW Big Game Campaign Rules (V4)", ruleset.SYWV4(), lbs},
		{"DAYS 3", "this battle may last 1 to 2 days", ruleset.SYWV4(), late},
		{"DAYS 0", `expected DAYS and the days the battle lasted, 1 to 3, read "0"`, ruleset.SYWV4(), lbs},
		{"DAYS two", `read "two"`, ruleset.SYWV4(), lbs},
		{"DAYS 1\nDAYS 2", "line 5: \"DAYS 2\": the days are already given on line 4", ruleset.SYWV4(), lbs},
	} {
		_, errs := ParseResult(resultHead+c.line+"\nEND\n", st, c.lbs, c.r)
		if got := strings.Join(errs, "\n"); !strings.Contains(got, c.want) {
			t.Errorf("%q: want %q, got:\n%s", c.line, c.want, got)
		}
	}
}

// FuzzParseResult: no RESULT mail makes the reader panic, and what it
// accepts without errors the engine's checks can read: generals on their
// sides, guns within what the forces brought, days of battle from 1.
func FuzzParseResult(f *testing.F) {
	f.Add("RESULT 0502\nOUTCOME decisive\nWINNER eisenmark\nLOSSES F1 infantry C KILLED 2 ROUTED 1\nEND\n", false)
	f.Add("RESULT 0502\nLOSSES E1 cavalry E HALF 1 KILLED\nHITS eisenmark guns C 1\n", false)
	f.Add(resultHead+"GENERAL Saxe KILLED TURN 9 DAY 2\nGUNS F1 field-gun LOST 2\nDAYS 2\nEND\n", true)
	f.Add(resultHead+"GENERAL Maurice de Saxe CAPTURED\nGUNS F1 LOST 9\nDAYS 9\nGENERAL\nGUNS\nDAYS\n", false)
	st, lbs := resultBattle()
	f.Fuzz(func(t *testing.T, s string, v4 bool) {
		r := ruleset.SYW1752()
		if v4 {
			r = ruleset.SYWV4()
		}
		tb, errs := ParseResult(s, st, lbs, r)
		IsResult(s)
		if len(errs) > 0 {
			return
		}
		if tb.Result.Days < 1 || tb.Result.Days > engine.BattleDaysRoom(r, lbs[0].Tick) {
			t.Errorf("accepted %d days", tb.Result.Days)
		}
		for i, sd := range tb.Result.Sides {
			for _, g := range sd.Generals {
				if !strings.Contains(string(lbs[0].Sides[i].Forces[0]), string(g.Force)) {
					t.Errorf("general %s of %s on side %d", g.ID, g.Force, i)
				}
			}
			for _, g := range sd.GunsLost {
				if g.Count < 1 || tb.Result.Winner == i {
					t.Errorf("guns lost %+v on side %d, winner %d", g, i, tb.Result.Winner)
				}
			}
		}
	})
}
