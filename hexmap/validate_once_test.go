package hexmap_test

import (
	"os"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/hexmap"
)

// TestTaxBaseProblemReportedOnce: a nation that declares the starting tax
// base while its cities are worth another sum gets one problem, not the
// same sum twice.
func TestTaxBaseProblemReportedOnce(t *testing.T) {
	b, err := os.ReadFile(defaultMapPath)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), `city "Garzow"          2007 river`, `city "Garzow"          2007      `, 1)
	m, err := hexmap.Parse(strings.NewReader(text), "map.txt")
	if err != nil {
		t.Fatal(err)
	}
	var about []string
	for _, p := range m.Validate(rulesOptions()) {
		if strings.Contains(p.Message, "nation eisenmark") {
			about = append(about, p.Message)
		}
	}
	if len(about) != 1 || !strings.Contains(about[0], "declares tax=1600, the starting tax base, but its home cities are worth") {
		t.Errorf("eisenmark's tax base: %q, want one problem", about)
	}
}
