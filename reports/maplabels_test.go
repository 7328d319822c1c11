package reports

import (
	"math"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// drawMapAsReport draws s's map the way mapPage does (same region, layers,
// window, cities, markers and tint on a landscape page of the given size)
// and returns mapdraw's projection with the labels it placed.
func drawMapAsReport(t *testing.T, m *hexmap.Map, size string, s mapSpec, win mapdraw.HexWindow) *mapdraw.Projection {
	t.Helper()
	pdf := fpdf.New("L", "mm", size, "")
	pdf.AddPage()
	w, h := pdf.GetPageSize()
	const mg = 10.0
	region := mapdraw.Rect{X: mg + 3, Y: mg + 3, W: w - 2*mg - legendW - 8, H: h - 2*mg - 9}
	var hide mapdraw.Layer
	cols, rows := m.Cols, m.Rows
	if !win.IsZero() {
		cols, rows = win.Max.Col-win.Min.Col+1, win.Max.Row-win.Min.Row+1
	}
	if r := math.Min(region.W/(1.5*float64(cols)+0.5), region.H/(1.7320508*float64(rows)+0.87)); r < 0.75 {
		hide = mapdraw.LayerHexNumbers | mapdraw.LayerTerrainSymbols | mapdraw.LayerGrid
	}
	p := mapdraw.Draw(pdf, m, &mapdraw.Options{Hide: hide, Region: region, Window: win, Cities: s.cities,
		Taxes: &ruleset.SYW1752().Taxes, Markers: s.markers, Tint: tint(m, s.cities)})
	if err := pdf.Error(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReportMapLabelsDoNotOverlap draws every nation's continent page and
// zoomed page of the default scenario's opening, and the referee's
// continent page, on A4 and A3: no label may cover another label, or a
// city block, flag, disc, anchor, good-holding dot or counter not its own.
func TestReportMapLabelsDoNotOverlap(t *testing.T) {
	t.Parallel()
	sc, err := scenario.Load("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	rules := ruleset.SYW1752()
	st, err := sc.InitialState("syw", rules.ID)
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, p *mapdraw.Projection) {
		if c := p.Clashes(); len(c) > 0 {
			t.Errorf("%d label clashes:\n  %s", len(c), strings.Join(c, "\n  "))
		}
		if len(p.Labels()) == 0 {
			t.Error("no labels placed")
		}
		for _, l := range p.Labels() {
			if l.Scale < 1 {
				t.Logf("%s %s set at %.0f%% to fit", l.Kind, l.Name, 100*l.Scale)
			}
		}
	}
	for _, size := range []string{"A4", "A3"} {
		for _, n := range sc.Map.Nations {
			md, err := Build(Input{Map: sc.Map, Rules: rules, State: st, Nation: n.ID})
			if err != nil {
				t.Fatal(err)
			}
			s := nationMap(md, sc.Map)
			t.Run(size+"/"+string(n.ID)+"/continent", func(t *testing.T) {
				check(t, drawMapAsReport(t, sc.Map, size, s, mapdraw.HexWindow{}))
			})
			if len(s.focus) == 0 {
				continue
			}
			t.Run(size+"/"+string(n.ID)+"/zoomed", func(t *testing.T) {
				check(t, drawMapAsReport(t, sc.Map, size, s, zoomWindow(sc.Map, s.focus, s.weights)))
			})
		}
		rm, err := BuildReferee(RefereeInput{Map: sc.Map, Rules: rules, State: st})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(size+"/referee", func(t *testing.T) {
			check(t, drawMapAsReport(t, sc.Map, size, refereeMap(rm, sc.Map), mapdraw.HexWindow{}))
		})
	}
}
