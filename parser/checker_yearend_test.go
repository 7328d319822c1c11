package parser

import (
	"strings"
	"testing"
)

// TestYearEndRunningTotal: a year-end sheet shows the crowns each order
// costs and the running total against what the nation will hold (treasury
// plus the taxes due); an order past it is warned about, not refused, and
// does not count towards the orders after it, as the engine pays them.
func TestYearEndRunningTotal(t *testing.T) {
	r := Check(sheetFor(7, "FIELD E1\nBUY 24 C infantry AT Konigsfeld\nBUY 600 B heavy-cavalry AT Konigsfeld\nBUY 10 C infantry AT Konigsfeld\nFIELD ALL"), fixture(t, 7))
	if r.HasErrors() {
		t.Fatalf("errors: %+v", r.Diagnostics)
	}
	if len(r.Accepted) != 5 {
		t.Fatalf("%d orders accepted, want 5", len(r.Accepted))
	}
	want := []string{"96 crowns, ", "12000 crowns, over the 4000 you will hold", "40 crowns, "}
	var annots []string
	for i := range r.Accepted {
		annots = append(annots, r.Annotations[i])
	}
	joined := strings.Join(annots, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("annotations %q lack %q", annots, w)
		}
	}
	if r.Count(Warning) != 1 {
		t.Errorf("%d warnings, want 1 (the heavy cavalry): %+v", r.Count(Warning), r.Diagnostics)
	}
	var note string
	for _, d := range r.Diagnostics {
		if d.Severity == Note && strings.Contains(d.Message, "you will hold at the year-end") {
			note = d.Message
		}
	}
	if !strings.Contains(note, "of the 4000 crowns you will hold at the year-end (treasury in Konigsfeld 2400 + taxes 1600)") {
		t.Errorf("closing note %q", note)
	}
	t.Log(r.canonical(true))
}

// TestTurnByName: a sheet may name its turn as the report prints it, the
// year first or last, instead of its number; a wrong name is refused.
func TestTurnByName(t *testing.T) {
	for _, tc := range []struct {
		turn int
		line string
		ok   bool
	}{
		{3, "TURN June 1752", true},
		{3, "TURN 1752 June", true},
		{3, "TURN 1752 Jun", true},
		{7, "TURN year-end 1752", true},
		{7, "TURN 1752 year-end", true},
		{7, "TURN 1752 YEAR END", true},
		{3, "TURN May 1752", false},
		{3, "TURN Juni 1752", false},
	} {
		sheet := "GAME syw\nNATION eisenmark\nPASSWORD tobacco\n" + tc.line + "\nEND\n"
		r := Check(sheet, fixture(t, tc.turn))
		if r.Refused == tc.ok {
			t.Errorf("%q at turn %d: refused %v, want %v: %+v", tc.line, tc.turn, r.Refused, !tc.ok, r.Diagnostics)
		}
	}
}

// TestYearEndCheckedInEngineOrder: the checker adds up a year-end sheet as
// the engine pays it — fielding before buying — whatever the sheet's order.
func TestYearEndCheckedInEngineOrder(t *testing.T) {
	r := Check(sheetFor(7, "BUY 10 C infantry AT Konigsfeld\nFIELD E1"), fixture(t, 7))
	if r.HasErrors() || len(r.Accepted) != 2 {
		t.Fatalf("%+v", r.Diagnostics)
	}
	if a := r.Annotations[0]; a != "40 crowns, 337 of 4000 spent" {
		t.Errorf("BUY annotated %q, want the fielding above it counted first", a)
	}
}
