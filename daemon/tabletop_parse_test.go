package daemon

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// resultBattle is a battle at 0502 between Eisenmark's E1 and Fromande's F1.
func resultBattle() (*engine.State, []engine.LandBattle) {
	h, _ := game.ParseHex("0502")
	st := &engine.State{Forces: []game.Force{
		{ID: "E1", Nation: "eisenmark", At: game.AtHex(h)},
		{ID: "F1", Nation: "fromande", At: game.AtHex(h)},
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
	if !isResultMail(mail) || isResultMail("PASSWORD s3cret\nRESOLVE NOW\n") {
		t.Fatal("isResultMail does not tell a RESULT mail from commands")
	}
	tb, errs := parseResult(mail, st, lbs)
	if len(errs) > 0 || tb.Result.Outcome != "repulse" || tb.Result.Winner != 1 || len(tb.Result.Sides[0].Losses) != 1 ||
		tb.Result.Sides[0].Losses[0].Killed != 3 || len(tb.Result.Sides[1].Hits) != 1 {
		t.Fatalf("parsed %+v, errors %v", tb, errs)
	}
	_, errs = parseResult("RESULT 0502\nOUTCOME decisive\nWINNER hispardia\nLOSSES X9 infantry C KILLED 1\nHITS fromande infantry C many\n", st, lbs)
	want := []string{"line 3:", "fought on neither side", "line 4:", "no force X9", "line 5:", "no WINNER line"}
	for _, w := range want {
		if !strings.Contains(strings.Join(errs, "\n"), w) {
			t.Errorf("the errors lack %q:\n%s", w, strings.Join(errs, "\n"))
		}
	}
}

// FuzzParseResult: no RESULT mail makes the reader panic.
func FuzzParseResult(f *testing.F) {
	f.Add("RESULT 0502\nOUTCOME decisive\nWINNER eisenmark\nLOSSES F1 infantry C KILLED 2 ROUTED 1\nEND\n")
	f.Add("RESULT 0502\nLOSSES E1 cavalry E HALF 1 KILLED\nHITS eisenmark guns C 1\n")
	st, lbs := resultBattle()
	f.Fuzz(func(t *testing.T, s string) {
		parseResult(s, st, lbs)
		isResultMail(s)
	})
}
