package sheet

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// docBlocks returns the ```orders and ```sheet blocks of the reference.
func docBlocks(t testing.TB) (orders, sheets []string) {
	b, err := os.ReadFile("../../docs/orders-trossian.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(b), "```") {
		if s, ok := strings.CutPrefix(part, "orders\n"); ok {
			orders = append(orders, s)
		}
		if s, ok := strings.CutPrefix(part, "sheet\n"); ok {
			sheets = append(sheets, s)
		}
	}
	return orders, sheets
}

// TestOrderKindsComplete: every kind of the engine's registry has a
// keyword whose grammar reads it, a canonical form, and an example in
// docs/orders-trossian.md that reads without a syntax error.
func TestOrderKindsComplete(t *testing.T) {
	m, _ := fixture(t, 1)
	orders, _ := docBlocks(t)
	seen := map[string]bool{}
	for _, block := range orders {
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			fl := parser.FrameLine{Text: strings.TrimSpace(line), Line: 1, EndLine: 1}
			o, d := parseStatement(m, fl, nil)
			if d != nil {
				t.Errorf("docs example %q: %s", line, d.Message)
				continue
			}
			seen[o.Kind()] = true
			if f := Format(o); strings.HasPrefix(f, "#") {
				t.Errorf("%s has no canonical form", o.Kind())
			} else if back, d := parseStatement(m, parser.FrameLine{Text: strings.Split(f, "\n")[0], Line: 1, EndLine: 1}, nil); d != nil || back.Kind() != o.Kind() {
				t.Errorf("%q formats as %q, which reads back as %v (%v)", line, f, back, d)
			}
		}
	}
	for _, k := range trossian.OrderKinds() {
		if !seen[k] {
			t.Errorf("order kind %s has no example in docs/orders-trossian.md", k)
		}
	}
	for _, kw := range Keywords {
		if statementParsers[kw] == nil {
			t.Errorf("keyword %s has no grammar", kw)
		}
	}
	if len(statementParsers) != len(Keywords) {
		t.Error("a grammar has no keyword")
	}
	if !slices.Contains(Keywords, "COURIER") {
		t.Error("no COURIER")
	}
}

// TestDocSheets: the reference's example sheets are accepted whole.
func TestDocSheets(t *testing.T) {
	_, sheets := docBlocks(t)
	for _, s := range sheets {
		turn := 2
		if strings.Contains(s, "Winter") {
			turn = 10
		}
		ctx := ctxFor(t, turn)
		ctx.Game = "trossia"
		ctx.VerifyPassword = nil
		r := Check(s, ctx)
		if r.Refused || r.HasErrors() {
			t.Errorf("docs sheet:\n%s\n%s", s, r.Text())
		}
	}
}
