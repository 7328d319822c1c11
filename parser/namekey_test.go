package parser

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// slowNameKey is nameKey's general path, which asciiNameKey must agree
// with on every ASCII string.
func slowNameKey(s string) string {
	var b strings.Builder
	for _, r := range fold(s) {
		switch {
		case r == '-':
			b.WriteByte(' ')
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		default:
			if a, ok := unaccented[r]; ok {
				b.WriteString(a)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func TestASCIINameKeyAgrees(t *testing.T) {
	for _, s := range []string{"", " ", "Königsfeld", "Port Aurele", "port aurele", " Saint-Nazelle ",
		"a  b", "a\tb\n", "-", "--a--", "E1", "Gen. von Kessel", "a - b", "\v\fX\r", "St.Pierre"} {
		if got, want := nameKey(s), slowNameKey(s); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzASCIINameKey(f *testing.F) {
	f.Add("Saint-Nazelle")
	f.Add(" Port  Aurele\t")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := nameKey(s), slowNameKey(s); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", s, got, want)
		}
	})
}
