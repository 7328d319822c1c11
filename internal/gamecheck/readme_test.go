package gamecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
)

// exampleSheets are the example monthly sheet the README mails
// (docs/examples/monthly.txt) and the one docs/orders.md prints.
func exampleSheets(t *testing.T) map[string]string {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "docs", "examples", "monthly.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"docs/examples/monthly.txt": string(b)}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "A monthly sheet for Eisenmark in the default scenario")
	_, rest, ok2 := strings.Cut(rest, "```sheet\n")
	sheet, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/orders.md: the example monthly sheet is not found")
	}
	out["docs/orders.md"] = sheet
	return out
}

// TestExampleSheetCarriedOut: the README's example sheet, acknowledged
// without an error or a warning, is carried out in full when the turn is
// resolved (the other nations holding): every order shows its effect, none
// is reported not carried out, and the invariants hold — under both
// editions and both battle models.
func TestExampleSheetCarriedOut(t *testing.T) {
	for name, text := range exampleSheets(t) {
		for _, ed := range ruleset.IDs() {
			for _, model := range ruleset.BattleModels {
				t.Run(name+"/"+ed+"/"+model, func(t *testing.T) {
					t.Parallel()
					s := Setup{Game: Demo, Edition: ed, Model: model, Seed: 1, Turns: 1}
					m, rules, st, _, err := newGame(s)
					if err != nil {
						t.Fatal(err)
					}
					const n = game.NationID("eisenmark")
					r := parser.Check(text, parser.CheckContext{Map: m, Rules: rules, State: st, Game: st.Game, Nation: n})
					if r.Refused || r.Count(parser.Error)+r.Count(parser.Warning) > 0 {
						t.Fatalf("the sheet is not acknowledged without warnings:\n%s", r.Text())
					}
					tn := &Turn{Setup: s, Map: m, Rules: rules, Sheets: map[game.NationID]*Sheet{n: {Text: text, Report: r}}}
					work := st.Clone()
					if err := ledger(work, n, r); err != nil {
						t.Fatal(err)
					}
					for _, ns := range work.Nations {
						if ns.ID == n {
							o := r.Orders
							o.Nation, o.Turn = n, work.Turn
							tn.Orders = append(tn.Orders, o)
						} else {
							tn.Orders = append(tn.Orders, holdOrders(work, ns.ID))
						}
					}
					tn.Before = work
					res, err := engine.Resolve(engine.Input{Map: m, Rules: rules, State: work, Orders: tn.Orders, Seed: 1})
					if err != nil {
						t.Fatal(err)
					}
					tn.After, tn.Events = res.State, res.Events
					if err := buildReports(tn, res.Rolls); err != nil {
						t.Fatal(err)
					}
					for _, f := range Unknown(Check(tn)) {
						t.Error(f)
					}
					c := &checker{t: tn}
					v := parser.NewVocabulary(m, work)
					for _, o := range r.Orders.List {
						if ig := c.ignored(n, o.SourceLine()); ig != nil {
							t.Errorf("line %d %s: not carried out: %s", o.SourceLine(), parser.FormatOrder(o, v), ig.Reason)
						} else if !c.done(n, o) {
							t.Errorf("line %d %s: nothing came of it", o.SourceLine(), parser.FormatOrder(o, v))
						}
					}
					if len(r.Requests) != 1 || r.Requests[0].Token == "" {
						t.Errorf("the request has no token: %+v", r.Requests)
					}
					if len(work.Treaties) != 1 || work.Treaties[0].Title != "Peace of Garzow" {
						t.Errorf("the treaty was not proposed: %+v", work.Treaties)
					}
				})
			}
		}
	}
}
