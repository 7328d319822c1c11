package forecast_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// exampleOut, when set, is where TestExampleSheet writes the example's
// forecast text and map (docs/forecast-example.txt and .pdf; the PNG in
// docs is made from the PDF with pdftoppm).
var exampleOut = flag.String("example", "", "write the example sheet's forecast text and PDF into this folder")

var (
	scenOnce sync.Once
	scen     *scenario.Scenario
	scenErr  error
)

// exampleCheck checks docs/orders.md's first example sheet against the
// default scenario's first turn.
func exampleCheck(t testing.TB) (*parser.Report, parser.CheckContext) {
	t.Helper()
	scenOnce.Do(func() { scen, scenErr = scenario.Load("../scenarios/default") })
	if scenErr != nil {
		t.Fatal(scenErr)
	}
	rules := ruleset.SYW1752()
	st, err := scen.InitialState("syw", rules.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx := parser.CheckContext{Map: scen.Map, Rules: rules, State: st, Game: "syw",
		VerifyPassword: func(game.NationID, string) bool { return true }}
	r := parser.Check(exampleSheetText(t), ctx)
	if r.HasErrors() || r.Refused {
		t.Fatalf("the example sheet has errors:\n%s", r.Text())
	}
	return r, ctx
}

// exampleSheetText is the first sheet under "## Example sheets" in
// docs/orders.md.
func exampleSheetText(t testing.TB) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(doc), "## Example sheets")
	if at < 0 {
		t.Fatal("docs/orders.md has no section Example sheets")
	}
	m := regexp.MustCompile("(?s)```sheet\n(.*?)```").FindSubmatch(doc[at:])
	if m == nil {
		t.Fatal("docs/orders.md has no example sheet")
	}
	return string(m[1])
}

// TestExampleSheet: the example sheet of docs/orders.md is forecast as a
// player would read it — the army's march on Dresna hex by hex, the
// garrison split off staying, the squadron's voyage with its cargo — and
// its map is a small one-page PDF.
func TestExampleSheet(t *testing.T) {
	t.Parallel()
	r, ctx := exampleCheck(t)
	v := engine.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
	fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
	if err != nil {
		t.Fatal(err)
	}
	text := fc.Text(ctx.Map)
	for _, want := range []string{
		"E1: from 1910 (Konigsfeld) to 1810 (1 MP, road)", "2013 Dresna (5 MP, road)",
		"E4 (new): stays in 1910 (Konigsfeld)", "Fleet E3: from 2205 (Stettau)", "Cargo: E2",
		"E2: embarks on E3", "Siege of Dresna", "Crowns:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the forecast lacks %q:\n%s", want, text)
		}
	}
	// docs/forecast.md shows this answer as it is.
	doc, err := os.ReadFile("../docs/forecast.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := regexp.MustCompile("(?s)is answered with:\n\n```\n(.*?)```").FindSubmatch(doc)
	if want := text + forecast.PictureNote(1); shown == nil || strings.TrimSpace(string(shown[1])) != strings.TrimSpace(want) {
		t.Errorf("docs/forecast.md does not show the example's forecast as it is; it is:\n%s", want)
	}
	pdf, err := fc.PictureBytes(ctx.Map, ctx.Rules)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pdf), "%PDF") || len(pdf) > 300<<10 {
		t.Errorf("the map is %d bytes (want a PDF of at most 300 KB)", len(pdf))
	}
	if again, _ := fc.PictureBytes(ctx.Map, ctx.Rules); string(again) != string(pdf) {
		t.Error("the same forecast drew different bytes")
	}
	if *exampleOut != "" {
		if err := os.WriteFile(filepath.Join(*exampleOut, "forecast-example.pdf"), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*exampleOut, "forecast-example.txt"), []byte(r.Text()+text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestYearEndSheet: the year-end example (docs/examples/yearend.txt, with
// the year's taxes in the treasury as `pbem check --treasury 1900` puts
// them) is forecast as crowns: what the purchases spend against the
// treasury, as the engine's year-end steps reckon it.
func TestYearEndSheet(t *testing.T) {
	t.Parallel()
	_, ctx := exampleCheck(t)
	st := ctx.State.Clone()
	st.Turn = 7
	for i := range st.Cities {
		if st.Cities[i].Name == "Konigsfeld" {
			st.Cities[i].Treasury = 1900
		}
	}
	ctx.State = st
	ctx.Turn = 7
	sheet, err := os.ReadFile("../docs/examples/yearend.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := parser.Check(string(sheet), ctx)
	if r.Refused {
		t.Fatalf("refused:\n%s", r.Text())
	}
	v := engine.View(ctx.Map, ctx.Rules, st, r.Nation)
	fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
	if err != nil {
		t.Fatal(err)
	}
	if !fc.YearEnd || fc.Treasury != 1900 {
		t.Fatalf("year-end %v, treasury %d; want a year-end forecast from 1900 crowns", fc.YearEnd, fc.Treasury)
	}
	res, err := engine.Resolve(engine.Input{Map: ctx.Map, Rules: ctx.Rules, State: st, Orders: []engine.Orders{r.Orders}})
	if err != nil {
		t.Fatal(err)
	}
	after := 0
	for _, c := range res.State.Cities {
		if c.Controller == r.Nation {
			after += c.Treasury
		}
	}
	if fc.After != after {
		t.Errorf("the forecast leaves %d crowns, the engine %d", fc.After, after)
	}
	if text := fc.Text(ctx.Map); !strings.Contains(text, "Crowns:") {
		t.Errorf("no crowns in the year-end forecast:\n%s", text)
	} else {
		t.Log(text)
	}
}

// TestMapSizeOnABigGame: the map stays within the 300 KB on the
// biggest game the project plays (40 nations of 100 forces on 200×200
// hexes, engine/enginegen): its theatre is cut to a page's worth of hexes
// and the counters outside it are left out.
func TestMapSizeOnABigGame(t *testing.T) {
	t.Parallel()
	g := enginegen.New(1, 200, 200, 40, 100)
	rules := ruleset.SYW1752()
	for _, k := range []int{0, 7, 39} {
		n := g.Map.Nations[k].ID
		v := engine.View(g.Map, rules, g.State, n)
		fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: rules, View: v, Orders: ordersOf(g.Orders, n)})
		if err != nil {
			t.Fatal(err)
		}
		pdf, err := fc.PictureBytes(g.Map, rules)
		if err != nil {
			t.Fatal(err)
		}
		if len(pdf)+len(fc.Text(g.Map)) > 300<<10 {
			t.Errorf("%s: the forecast is %d bytes with its map, over 300 KB", n, len(pdf)+len(fc.Text(g.Map)))
		}
	}
}
