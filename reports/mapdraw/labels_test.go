package mapdraw

import (
	"fmt"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// drawOn draws m with o onto a fresh landscape page of the given size and
// returns the projection, failing on a PDF error.
func drawOn(t *testing.T, size string, m *hexmap.Map, o *Options) *Projection {
	t.Helper()
	pdf := fpdf.New("L", "mm", size, "")
	pdf.AddPage()
	p := Draw(pdf, m, withTaxes(o))
	if err := pdf.Error(); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkClear fails with every clash Draw's labels have, and checks that
// every province, city and sea area got its label.
func checkClear(t *testing.T, m *hexmap.Map, p *Projection, windowed bool) {
	t.Helper()
	if c := p.Clashes(); len(c) > 0 {
		t.Errorf("%d label clashes:\n  %s", len(c), strings.Join(c, "\n  "))
	}
	var shrunk []string
	for _, l := range p.Labels() {
		if l.Scale < 1 {
			shrunk = append(shrunk, fmt.Sprintf("%s %s at %.0f%%", l.Kind, l.Name, 100*l.Scale))
		}
	}
	if len(shrunk) > 0 {
		t.Logf("set smaller to fit: %s", strings.Join(shrunk, ", "))
	}
	if windowed {
		return
	}
	got := map[string]bool{}
	for _, l := range p.Labels() {
		got[string(l.Kind)+" "+l.Name] = true
	}
	for _, pr := range m.Provinces {
		if len(pr.Hexes) > 0 && !got[string(ProvinceLabel)+" "+pr.Letter] {
			t.Errorf("province %s %s has no label", pr.Letter, pr.Name)
		}
	}
	for _, c := range m.Cities {
		if !got[string(CityLabel)+" "+c.Name] {
			t.Errorf("city %s has no label", c.Name)
		}
	}
}

// TestLabelsDoNotOverlap draws the default continent and generated ones,
// plain and with every overlay, on A3 and A4, and windows of the default
// map as a nation's zoomed page shows them: no label may cover another
// label, or a city block, flag, control disc, anchor, good-holding dot or
// counter that is not its own.
func TestLabelsDoNotOverlap(t *testing.T) {
	maps := map[string]*hexmap.Map{"default": defaultMap(t)}
	for _, s := range []struct {
		cols, rows int
		seed       uint64
	}{{35, 30, 1}, {18, 14, 3}, {30, 24, 5}, {24, 20, 9}, {40, 30, 11}} {
		maps[fmt.Sprintf("continent-%dx%d-%d", s.cols, s.rows, s.seed)] = continent(s.cols, s.rows, s.seed)
	}
	for _, name := range []string{"default", "continent-35x30-1", "continent-18x14-3", "continent-30x24-5", "continent-24x20-9", "continent-40x30-11"} {
		m := maps[name]
		for _, size := range []string{"A3", "A4"} {
			for oname, o := range map[string]*Options{"plain": nil, "busy": busyOptions(m)} {
				t.Run(name+"/"+size+"/"+oname, func(t *testing.T) {
					checkClear(t, m, drawOn(t, size, m, o), false)
				})
			}
		}
	}
	m := maps["default"]
	for c := 1; c+10 <= m.Cols; c += 6 {
		for r := 1; r+7 <= m.Rows; r += 5 {
			win := HexWindow{Min: game.Hex{Col: c, Row: r}, Max: game.Hex{Col: c + 10, Row: r + 7}}
			t.Run(fmt.Sprintf("default/window-%s", win.Min), func(t *testing.T) {
				o := busyOptions(m)
				o.Window = win
				o.Region = Rect{X: 13, Y: 13, W: 207, H: 181}
				checkClear(t, m, drawOn(t, "A4", m, o), true)
			})
		}
	}
}

// TestAreaLabelShrinksToFit: a label whose area has room only for a
// narrower label is set at the largest smaller size that fits, and covers
// nothing; with no room at all it still gets its full-size place.
func TestAreaLabelShrinksToFit(t *testing.T) {
	m := continent(18, 14, 3)
	pdf := fpdf.New("L", "mm", "A4", "")
	pdf.AddPage()
	o := withTaxes(nil).withDefaults()
	p := newProjection(m, Rect{X: 10, Y: 10, W: 277, H: 190})
	d := &drawer{pdf: pdf, m: m, o: &o, p: p, r: p.r}
	fonts.Register(pdf, usedFaces...)
	h := game.Hex{Col: 9, Row: 7}
	runs := []textLine{{text: "Hohenlitz-Wartenberg", family: fonts.Sans, style: "B", size: 0.5 * d.r / mmPerPt}}
	full := d.textWidth(runs[0].family, runs[0].style, runs[0].size, runs[0].text) + 0.1*d.r
	at := d.p.page(center(h))
	height := (capHeight + descent) * runs[0].size * mmPerPt
	// A slot 80% as wide as the label, a hair taller: walls all round.
	sw, top, bot := 0.8*full, at.Y-height/2-0.02*d.r, at.Y+height/2+0.02*d.r
	far := 1000.0
	d.obstacles = []obstacle{
		{box: box{-far, -far, at.X - sw/2, far}}, {box: box{at.X + sw/2, -far, far, far}},
		{box: box{-far, -far, far, top}}, {box: box{-far, bot, far, far}},
	}
	in := func(game.Hex) bool { return true }
	l, _, ok := d.placeArea([]game.Hex{h}, in, nil, runs, 0, 0, Rect{})
	if !ok {
		t.Fatal("no place found")
	}
	if l.scale != 0.76 {
		t.Errorf("label set at %.2f of its size, want 0.76 (the largest step under 80%%)", l.scale)
	}
	if c, _ := d.cover(l.box); c > 0 {
		t.Errorf("the shrunk label clashes over %.2f mm²", c)
	}
	d.obstacles = append(d.obstacles, obstacle{box: boxAround(at, sw, sw)})
	if l, _, ok = d.placeArea([]game.Hex{h}, in, nil, runs, 0, 0, Rect{}); !ok || l.scale != 1 {
		t.Errorf("with no clear place: ok %v, scale %.2f; want the full-size place that clashes least", ok, l.scale)
	}
}
