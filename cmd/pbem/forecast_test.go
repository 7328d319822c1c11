package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckForecast: `pbem check --forecast MAP.pdf` prints the forecast
// of the turn after the reply and writes its map.
func TestCheckForecast(t *testing.T) {
	pdf := filepath.Join(t.TempDir(), "map.pdf")
	code, out, errs := run(t, "", "check", "--forecast", pdf, "docs/examples/monthly.txt")
	if code != exitOK {
		t.Fatalf("check --forecast: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"== Forecast ==", "E1: from 1910 (Konigsfeld)", "Fleet E3", "The map of these moves is in " + pdf} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(pdf)
	if err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("no map written: %v", err)
	}
}
