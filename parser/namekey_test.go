package parser

import (
	"testing"
)

// TestASCIINameKeyAgrees: the ASCII path agrees with the general one.
func TestASCIINameKeyAgrees(t *testing.T) {
	for _, s := range []string{"", " ", "Königsfeld", "Port Aurele", "port aurele", " Saint-Nazelle ",
		"a  b", "a\tb\n", "-", "--a--", "E1", "Gen. von Kessel", "a - b", "\v\fX\r", "St.Pierre"} {
		if got, want := nameKey(s), generalNameKey(s); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzASCIINameKey(f *testing.F) {
	f.Add("Saint-Nazelle")
	f.Add(" Port  Aurele\t")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := nameKey(s), generalNameKey(s); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", s, got, want)
		}
	})
}
