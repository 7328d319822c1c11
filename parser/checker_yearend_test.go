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
