package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestAnswerListsAtMostMaxListedProblems: a sheet of thousands of bad lines
// gets an answer that lists the first MaxListedProblems problems and says
// how many more there are, of which kind and where, and what to do — not an
// answer of megabytes. The summary still counts them all.
func TestAnswerListsAtMostMaxListedProblems(t *testing.T) {
	t.Parallel()
	const bad = MaxListedProblems + 120
	r := Check(sheetFor(3, strings.Repeat("STANCE E2 ATACK\n", bad)), fixture(t, 3))
	if n := r.Count(Error); n != bad {
		t.Fatalf("%d errors, want %d", n, bad)
	}
	text := r.Text()
	if n := strings.Count(text, ": error: "); n != MaxListedProblems {
		t.Errorf("the answer lists %d errors, want %d", n, MaxListedProblems)
	}
	last := r.Diagnostics[len(r.Diagnostics)-1].Line
	first := r.Diagnostics[MaxListedProblems].Line
	want := fmt.Sprintf("... and 120 more problems not listed here (120 errors, on lines %d-%d): an answer lists the first %d.", first, last, MaxListedProblems)
	if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("the answer does not say what it left out (%q):\n%s", want, text[len(text)-2000:])
	}
	if !strings.Contains(text, fmt.Sprintf("%d errors", bad)) {
		t.Errorf("the summary does not count all %d errors", bad)
	}
}
