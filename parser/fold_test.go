package parser

import (
	"strings"
	"testing"
)

// FuzzFoldedCompare: the comparisons that spare building lower-cased copies
// (match, EditDistance) answer as the copies would.
func FuzzFoldedCompare(f *testing.F) {
	for _, s := range [][2]string{{"APPROVE", "approve"}, {"APPROVE", "app"}, {"Stance", "STANCE"}, {"ſtance", "STANCE"},
		{"KELVIN", "\u212aelvin"}, {"\xff\xfeA", "\ufffd\ufffda"}, {"DEADLINE", "deadlin"}, {strings.Repeat("x", 70), strings.Repeat("X", 70)}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		fa, fb := fold(a), fold(b)
		if got, want := foldedIs(a, fb, false), fa == fb; got != want {
			t.Errorf("foldedIs(%q, %q, false) = %v, want %v", a, fb, got, want)
		}
		if got, want := foldedIs(a, fb, true), strings.HasPrefix(fa, fb); got != want {
			t.Errorf("foldedIs(%q, %q, true) = %v, want %v", a, fb, got, want)
		}
		if got, want := EditDistance(a, b), distance(fa, fb); got != want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
