package reports

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestTemplateReference: the order template points to nothing a player
// does not have (docs/orders.md is in the repository, not in the mail); it
// ends, after END, with the orders in short, naming every kind given on
// that kind of turn, as comments no wider than the template.
func TestTemplateReference(t *testing.T) {
	t.Parallel()
	for _, yearEnd := range []bool{false, true} {
		md := &Model{Game: "syw", Nation: "eisenmark", NationName: "Eisenmark", Turn: 1, TurnLabel: "Turn 1", YearEnd: yearEnd}
		tpl := Template(md)
		if strings.Contains(tpl, "docs/") {
			t.Errorf("year-end %v: the template points to the repository's docs:\n%s", yearEnd, tpl)
		}
		_, after, ok := strings.Cut(tpl, "\nEND\n")
		if !ok || !strings.Contains(after, "The orders in short") {
			t.Fatalf("year-end %v: no reference after END:\n%s", yearEnd, tpl)
		}
		for _, l := range strings.Split(strings.TrimSpace(after), "\n") {
			if !strings.HasPrefix(l, "#") || len([]rune(l)) > TemplateWidth {
				t.Errorf("year-end %v: reference line not a comment within %d characters: %q", yearEnd, TemplateWidth, l)
			}
		}
		for _, k := range engine.Kinds() {
			given := k.Turn&engine.MonthlyTurn != 0
			if yearEnd {
				given = k.Turn&engine.YearEndTurn != 0
			}
			kw := strings.ToUpper(k.Keyword)
			first, _, _ := strings.Cut(kw, "-") // FLEET-STANCE is written FLEET
			if given && !strings.Contains(after, strings.ReplaceAll(kw, "-", " ")) && !strings.Contains(after, " "+first+" ") {
				t.Errorf("year-end %v: the reference lacks %s", yearEnd, kw)
			}
		}
	}
}
