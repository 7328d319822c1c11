package sheet

import (
	"reflect"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/trossian"
)

func TestParseResult(t *testing.T) {
	r, d := ParseResult("Here is the battle.\nRESULT Elkmoor\nOUTCOME win\nWINNER Norvale\nUNIT N1 line-infantry DESTROYED 2 ROUTED 1\nUNIT c1 guard heavy-infantry DEST 1\nEND\nthanks")
	want := trossian.BattleResult{Province: "Elkmoor", Outcome: "win", Winner: "norvale", Units: []trossian.UnitFate{
		{Army: "N1", Type: trossian.LineInfantry, Destroyed: 2, Routed: 1}, {Army: "C1", Type: trossian.HeavyInfantry, Guard: true, Destroyed: 1}}}
	if len(d) > 0 || !reflect.DeepEqual(r, want) {
		t.Fatalf("%+v %v", r, d)
	}
	back, d := ParseResult(FormatResult(r))
	if len(d) > 0 || !reflect.DeepEqual(back, r) {
		t.Errorf("round trip: %+v %v", back, d)
	}
	for _, c := range []struct{ in, want string }{
		{"RESULT Elkmoor\nOUTCOME victory\nEND", `expected win or draw, read "victory"`},
		{"RESULT Elkmoor\nOUTCOME win\nEND", "a win with no WINNER"},
		{"RESULT Elkmoor\nOUTCOME draw\nUNIT N1 lancers DESTROYED 1\nEND", `expected a stand type`},
		{"RESULT Elkmoor\nOUTCOME draw\nUNIT N1 hq DESTROYED 1\nUNIT N1 hq ROUTED 1\nEND", "given twice (first on line 3)"},
		{"nothing", "no RESULT line"},
	} {
		_, d := ParseResult(c.in)
		found := false
		for _, x := range d {
			found = found || strings.Contains(x.Message, c.want)
		}
		if !found {
			t.Errorf("%q: want %q, got %v", c.in, c.want, d)
		}
	}
}

// FuzzParseResult: no text makes the result reader panic, and a result it
// reads whole writes back to the same result.
func FuzzParseResult(f *testing.F) {
	f.Add("RESULT Elkmoor\nOUTCOME win\nWINNER norvale\nUNIT N1 line-infantry DESTROYED 2 ROUTED 1\nEND")
	f.Add("RESULT X\nOUTCOME draw\nUNIT N1 guard hq ROUTED 1\nEND")
	f.Fuzz(func(t *testing.T, s string) {
		r, d := ParseResult(s)
		if len(d) > 0 || r.Province == "" || strings.ContainsAny(r.Province, " \t\n") {
			return
		}
		back, d2 := ParseResult(FormatResult(r))
		if len(d2) > 0 || !reflect.DeepEqual(back, r) {
			t.Fatalf("%q → %+v → %q → %+v %v", s, r, FormatResult(r), back, d2)
		}
	})
}
