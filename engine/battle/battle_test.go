package battle

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestFormUnits: "a force with 42 C line infantry would have 3 units of 12
// and 1 unit of 6" (1752); V4 spreads a small remainder ("Some units can be a
// bit larger"); guns in batteries of 2–4 with 4 gunners each; exhausted
// figures in units of their own.
func TestFormUnits(t *testing.T) {
	f := &game.Force{ID: "E1", Nation: "eisenmark", Troops: []game.Troops{
		{Arm: game.LineInfantry, Grade: game.GradeC, Count: 42},
		{Arm: game.LightCavalry, Grade: game.GradeB, Count: 15, Exhausted: 5},
		{Arm: game.Gunners, Grade: game.GradeC, Count: 18},
	}, Guns: []game.Guns{{Kind: game.FieldGun, Count: 5}}}
	sizes := func(us []Unit, k Kind) []int {
		var out []int
		for _, u := range us {
			if u.Kind == k {
				out = append(out, u.Figures)
			}
		}
		return out
	}
	u1752 := FormUnits(ruleset.SYW1752(), f, game.Traits{})
	if got := sizes(u1752, Infantry); !reflect.DeepEqual(got, []int{12, 12, 12, 6}) {
		t.Errorf("1752 infantry units %v, want 12 12 12 6", got)
	}
	// V4 spreads a remainder under half a unit: 40 is 14, 13, 13; 42
	// keeps its half unit of 6.
	if got := sizes(FormUnits(ruleset.SYWV4(), f, game.Traits{}), Infantry); !reflect.DeepEqual(got, []int{12, 12, 12, 6}) {
		t.Errorf("V4 infantry units of 42 %v, want 12 12 12 6", got)
	}
	f40 := &game.Force{ID: "E2", Nation: "eisenmark", Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 40}}}
	if got := sizes(FormUnits(ruleset.SYWV4(), f40, game.Traits{}), Infantry); !reflect.DeepEqual(got, []int{14, 13, 13}) {
		t.Errorf("V4 infantry units of 40 %v, want 14 13 13", got)
	}
	var tired []int
	for _, u := range u1752 {
		if u.Kind == LightCav && u.Tired {
			tired = append(tired, u.Figures)
		}
	}
	if got := sizes(u1752, LightCav); !reflect.DeepEqual(got, []int{10, 5}) || !reflect.DeepEqual(tired, []int{5}) {
		t.Errorf("hussars %v (tired %v), want 10 fresh and 5 exhausted apart", got, tired)
	}
	var guns, crews []int
	for _, u := range u1752 {
		if u.Kind == Battery {
			guns, crews = append(guns, u.Guns), append(crews, u.Figures)
		}
	}
	// 5 guns: a battery of 3 (12 gunners) and one of 2 with the 6 left.
	if !reflect.DeepEqual(guns, []int{3, 2}) || !reflect.DeepEqual(crews, []int{12, 6}) {
		t.Errorf("batteries %v guns with %v gunners, want [3 2] with [12 6]", guns, crews)
	}
}

// TestDeterministic: the same setup and dice give the same result.
func TestDeterministic(t *testing.T) {
	for _, m := range []Model{Simulation{}, LGG{}} {
		a := army("eisenmark", game.Attack, game.GradeC, 200)
		b := army("fromande", game.Defend, game.GradeB, 150)
		r1 := m.Fight(ruleset.SYWV4(), setupOf(ruleset.SYWV4(), game.Woods, a, b, newDice(9)), newDice(9))
		r2 := m.Fight(ruleset.SYWV4(), setupOf(ruleset.SYWV4(), game.Woods, a, b, newDice(9)), newDice(9))
		j1, _ := MarshalResult(r1)
		j2, _ := MarshalResult(r2)
		if string(j1) != string(j2) {
			t.Errorf("%s: two fights of one battle differ", m.Name())
		}
	}
}

// TestMultiDayV4: in V4 a day that breaks nobody is not the end: the
// attacker fights on while still the stronger, or the much weaker defender
// takes its free withdrawal; 1752 battles end with the day.
func TestMultiDayV4(t *testing.T) {
	for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
		long, outcomes := 0, map[string]int{}
		for seed := range 200 {
			d := newDice(uint64(seed) + 1)
			// A garrison in a city cannot be charged ("The attacker may not
			// launch an assault on a city during a field battle"): only fire
			// can break it (V4: "All targets in a city are hit on a
			// 6(4-6)"; 1752: not at all while it holds its fire), and a day
			// is not enough.
			garrison := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{inf(game.GradeC, 96)}}
			s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeB, 120), garrison, d)
			s.City, s.CitySide, s.CityValue, s.Days = "Mitte", 1, 100, 3
			res := Simulation{}.Fight(r, s, d)
			outcomes[res.Outcome+map[int]string{0: " attacker", 1: " defender", -1: ""}[res.Winner]]++
			if res.Days > 1 || res.Outcome == Withdrew {
				long++
				if !slices.ContainsFunc(res.Moments, func(m Moment) bool { return m.What == MNightfall }) {
					t.Errorf("%s seed %d: %d days, %s, without a nightfall", r.ID, seed, res.Days, res.Outcome)
				}
			}
		}
		t.Logf("%s: %v, %d battles that went past the first night", r.ID, outcomes, long)
		if r.LandBattles.MultiDay && long == 0 {
			t.Errorf("%s: no battle went past the first night (%v)", r.ID, outcomes)
		}
		if !r.LandBattles.MultiDay && long > 0 {
			t.Errorf("%s: %d battles went past the first night", r.ID, long)
		}
	}
}

// TestResultJSON: a referee's result read from JSON is checked against the
// battle, with errors a referee can act on.
func TestResultJSON(t *testing.T) {
	s := setupOf(ruleset.SYW1752(), game.Clear, army("eisenmark", game.Attack, game.GradeC, 60), army("fromande", game.Defend, game.GradeC, 60), newDice(1))
	good := `{"Outcome":"decisive","Winner":1,"Sides":[{"Losses":[{"Nation":"eisenmark","Arm":"infantry","Grade":"C","Killed":5}]},{}]}`
	r, err := UnmarshalResult([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(s); err != nil {
		t.Errorf("a good result refused: %v", err)
	}
	back, _ := MarshalResult(r)
	r2, _ := UnmarshalResult(back)
	if !reflect.DeepEqual(r, r2) {
		t.Error("a result does not survive a JSON round trip")
	}
	for bad, want := range map[string]string{
		`{"Outcome":"won","Winner":0}`:     "expected decisive",
		`{"Outcome":"repulse","Winner":3}`: "Winner 0 or 1",
		`{"Outcome":"decisive","Winner":0,"Sides":[{"Losses":[{"Nation":"fromande","Arm":"infantry","Grade":"C","Killed":5}]},{}]}`:   "not on that side",
		`{"Outcome":"decisive","Winner":0,"Sides":[{"Losses":[{"Nation":"eisenmark","Arm":"infantry","Grade":"C","Killed":-5}]},{}]}`: "negative",
	} {
		r, err := UnmarshalResult([]byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", bad, err, want)
		}
	}
}

// TestNightV4: V4's night after a day no army broke ("Multi-Day Battles",
// 003:202). One attacker: the defender with less than half the attacker's
// standing withdraws one hex, the winner; an attacker with fewer standing
// than the defender gives up; else it fights on. Both attacking: "each
// retires 9" and either may withdraw one hex for free" — the side with
// less than half the other's standing does, and nobody won; else both
// fight on.
func TestNightV4(t *testing.T) {
	for _, c := range []struct {
		name      string
		att       int
		standing  [2]int
		on        bool
		outcome   string
		winner    int
		withdrawn [2]bool
	}{
		{"defender outnumbered 3:1 withdraws", 0, [2]int{90, 30}, false, Withdrew, 1, [2]bool{false, true}},
		{"attacker weaker gives up", 0, [2]int{40, 50}, false, "", -1, [2]bool{}},
		{"attacker fights on", 0, [2]int{60, 50}, true, "", -1, [2]bool{}},
		{"both attacked, side 0 outnumbered withdraws", -2, [2]int{20, 50}, false, BothRepulsed, -1, [2]bool{true, false}},
		{"both attacked, side 1 outnumbered withdraws", -2, [2]int{90, 40}, false, BothRepulsed, -1, [2]bool{false, true}},
		{"both attacked, both fight on", -2, [2]int{60, 50}, true, "", -1, [2]bool{}},
	} {
		r := &Result{Winner: -1}
		on := r.afterDay(c.att, func(i int) int { return c.standing[i] })
		if on != c.on || r.Outcome != c.outcome || r.Winner != c.winner || r.Withdrawn != c.withdrawn {
			t.Errorf("%s: fight on %v, outcome %q, winner %d, withdrawn %v; want %v, %q, %d, %v",
				c.name, on, r.Outcome, r.Winner, r.Withdrawn, c.on, c.outcome, c.winner, c.withdrawn)
		}
	}
}

// TestBothAttackFightOnV4: two armies both on attack that do not break
// each other in a day (a day of one tabletop turn here: 18" apart, neither
// comes within musket range) fight on day after day in V4 ("If both sides
// were on attack, each retires 9" and either may withdraw one hex for
// free"), as long as the turn leaves room; in 1752 the day ends it.
func TestBothAttackFightOnV4(t *testing.T) {
	for _, c := range []struct {
		r    *ruleset.Ruleset
		days int
	}{{ruleset.SYW1752(), 1}, {ruleset.SYWV4(), 3}} {
		c.r.LandBattles.TableTurns = 1
		d := newDice(1)
		s := setupOf(c.r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 48), army("fromande", game.Attack, game.GradeC, 48), d)
		s.Days = 3
		res := Simulation{}.Fight(c.r, s, d)
		if res.Days != c.days || res.Outcome != BothRepulsed || res.Winner != -1 || res.Withdrawn != [2]bool{} {
			t.Errorf("%s: %d days, %s, winner %d, withdrawn %v; want %d days, %s, nobody", c.r.ID, res.Days, res.Outcome, res.Winner, res.Withdrawn, c.days, BothRepulsed)
		}
	}
}
