package parser

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// checkDefault checks a Hispardia sheet body against the default scenario
// at turn 1.
func checkDefault(t *testing.T, body string) *Report {
	t.Helper()
	ctx := defaultGame(t, 1)
	return Check("GAME syw\nNATION hispardia\nPASSWORD tobacco\nTURN 1\n"+body+"\nEND\n", ctx)
}

func errorsOf(r *Report) map[int]string {
	out := map[int]string{}
	for _, d := range r.Diagnostics {
		if d.Severity == Error {
			out[d.Line] += d.Message + " / " + d.Hint
		}
	}
	return out
}

// TestSeaAreasByName: sea areas may be named as the map prints them, with
// or without accents, in any case, quoted or not; the IDs still work.
func TestSeaAreasByName(t *testing.T) {
	for _, line := range []string{
		"SAIL H3 Sea of Calpe, Middle Sea",
		"SAIL H3 sea of calpe middle sea",
		"SAIL H3 \"Sea of Calpe\" \"Middle Sea\"",
		"SAIL H3 Séa of Cálpe, MIDDLE SEA",
		"SAIL H3 S7 S8",
		"SAIL H3 s7, Middle Sea",
	} {
		r := checkDefault(t, line)
		if errs := errorsOf(r); len(errs) > 0 {
			t.Errorf("%s: errors %v", line, errs)
			continue
		}
		var sail *engine.Sail
		for _, o := range r.Orders.List {
			if s, ok := o.(engine.Sail); ok {
				sail = &s
			}
		}
		if sail == nil {
			t.Errorf("%s: no SAIL accepted", line)
			continue
		}
		want := []game.Place{game.AtSea("S7"), game.AtSea("S8")}
		if len(sail.Path) != 2 || sail.Path[0] != want[0] || sail.Path[1] != want[1] {
			t.Errorf("%s: path %v, want S7, S8", line, sail.Path)
		}
	}
	r := checkDefault(t, "SAIL H3 Sea of Calpo")
	if errs := errorsOf(r); !strings.Contains(errs[5], "did you mean Sea of Calpe (S7)?") || !strings.Contains(errs[5], "ID or name on the map") {
		t.Errorf("a misspelt sea: %v", errs)
	}
}

// TestFailedSplitOneError: when a SPLIT without AS fails, whether the
// parser could not read it or the checker refused it, later orders naming
// the force it would have made say so and point back to its line.
func TestFailedSplitOneError(t *testing.T) {
	r := checkDefault(t, "SPLIT H1 24 C infantery\nMOVE H5 TO Pamplina\nSPLIT H1 300 C infantry\nSTANCE H6 DEFEND")
	errs := errorsOf(r)
	if !strings.Contains(errs[6], "no force H5: the order on line 5 that would form it failed") {
		t.Errorf("line 6: %q", errs[6])
	}
	if !strings.Contains(errs[8], "no force H6: the order on line 7 that would form it failed") {
		t.Errorf("line 8: %q", errs[8])
	}
	// A good SPLIT still makes H5, and orders to it are accepted.
	r = checkDefault(t, "SPLIT H1 24 C infantry\nSTANCE H5 DEFEND")
	if errs := errorsOf(r); len(errs) > 0 {
		t.Errorf("a good split: %v", errs)
	}
}

// TestBesiegeAdviceKnowsTheMove: BESIEGE never asks for a MOVE the sheet
// already has.
func TestBesiegeAdviceKnowsTheMove(t *testing.T) {
	errs := errorsOf(checkDefault(t, "MOVE H2 TO 1519\nBESIEGE H2 Taurinia"))
	if e := errs[6]; strings.Contains(e, "(MOVE H2 TO") || !strings.Contains(e, "The MOVE on line 5 takes H2 to Taurinia") || !strings.Contains(e, "next turn") {
		t.Errorf("too long a march: %q", e)
	}
	errs = errorsOf(checkDefault(t, "MOVE H2 TO 1519\nBESIEGE H2 Orleac"))
	if e := errs[6]; !strings.Contains(e, "The MOVE on line 5 sends H2 to 1519 (Taurinia) instead: change it to MOVE H2 TO 1212") {
		t.Errorf("a march elsewhere: %q", e)
	}
	errs = errorsOf(checkDefault(t, "BESIEGE H2 Taurinia"))
	if e := errs[5]; !strings.Contains(e, "(MOVE H2 TO 1519)") {
		t.Errorf("no march: %q", e)
	}
}
