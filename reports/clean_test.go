package reports

import (
	"testing"
	"unicode/utf8"
)

// FuzzCleanText: whatever a player writes, the text printed is valid UTF-8
// within the Basic Multilingual Plane (fpdf's limit for embedded fonts),
// with no control character but newlines, and text that needed no cleaning
// is left as it was.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"Peace of Garzow", "", "\x00\x01\x7f\t\r\n", "😀 𝔘𝔫𝔦", "\xff\xfe\xc3", "Königsau — Łódź\u2028\ufeff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := s
		if needsCleaning(s) {
			out = cleanText(s)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("%q → %q: invalid UTF-8", s, out)
		}
		for _, r := range out {
			if r > 0xFFFF || (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) {
				t.Fatalf("%q → %q: rune %U left in", s, out, r)
			}
		}
		if needsCleaning(out) {
			t.Fatalf("%q → %q: still needs cleaning", s, out)
		}
	})
}
