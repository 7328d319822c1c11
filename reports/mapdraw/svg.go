package mapdraw

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"sync"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// SVGOptions say what the SVG image carries beyond Options: its size, its
// legend and the supply lines of a nation's map. A nil *SVGOptions means
// an image DefaultSVGWidth wide with no legend.
type SVGOptions struct {
	// Width is the image's width in pixels (at least 200); the height
	// follows the map and the legend. Default DefaultSVGWidth.
	Width int
	// Legend, when set, adds a key under the map: the overlays as the
	// report's map page explains them, then the rules' map key.
	Legend *Legend
	// Supply are supply lines drawn dashed in SupplyColour from a force's
	// hex to its depot's or city's (a nation's own forces, as its report's
	// map page draws them).
	Supply       [][2]game.Hex
	SupplyColour RGB
}

// Legend is the key under an SVG map.
type Legend struct {
	// Title heads the key (the game, the nation, the turn).
	Title string
	// Nations are listed with their colours, in this order.
	Nations []game.NationID
	// Referee: every force is shown with its ID (the referee's map); else
	// the key explains a nation's view — own forces, others' as known,
	// last seen faded, supply lines.
	Referee bool
}

// DefaultSVGWidth is the width of an SVG map when SVGOptions give none.
const DefaultSVGWidth = 1400

// SVG draws the map as an SVG image for a page on screen (the referee's
// console), the same map as the PDF's (Draw) layer for layer: terrain with
// its marks, the Options.Tint wash, the grid, sea-area and province
// borders, rivers, roads, a hex number in every land hex (and, on every
// hex, a tooltip with its number, terrain and province or sea area), the
// Dim wash, good-holding dots, winds, cities with their flags, loyalty
// discs, siege rings and anchors, the labels of cities, provinces and sea
// areas (placed by the PDF's own placement, so they read the same), the
// counters (Options.Markers), the battles, supply lines and, with
// SVGOptions.Legend, the key under the map. It carries no script, no style
// sheet and no external resource: presentation attributes only, so that a
// Content-Security-Policy of default-src 'none' shows it whole. Text is set
// in DejaVu Sans (the PDF's faces) where the viewer has it, and stretched or
// squeezed to the PDF's measured width where it has not (textLength), so
// labels keep their places. The same map and options give the same bytes.
func SVG(w io.Writer, m *hexmap.Map, opts *Options, so *SVGOptions) error {
	if m == nil || m.Cols <= 0 || m.Rows <= 0 || len(m.Terrain) < m.Cols*m.Rows {
		return errors.New("mapdraw: the map is empty")
	}
	o := opts.withDefaults()
	if o.Taxes == nil {
		return errNoTaxes
	}
	var sv SVGOptions
	if so != nil {
		sv = *so
	}
	if sv.Width == 0 {
		sv.Width = DefaultSVGWidth
	}
	mw, mh := mapSize(m)
	W := float64(max(sv.Width, 200))
	H := math.Ceil(W * mh / mw)
	// The drawing's unit is the pixel; the PDF's placement works in any
	// unit, measuring text with an fpdf page of the image's size that is
	// never written.
	measure, done := measurer(W, H)
	defer done()
	p := newProjection(m, Rect{X: 0, Y: 0, W: W, H: H})
	d := &drawer{pdf: measure, m: m, o: &o, p: p, r: p.r, k: p.r / 5}
	s := &svgOut{d: d}
	var legend *svgLegend
	total := H
	if sv.Legend != nil {
		legend = newSVGLegend(s, sv.Legend, W, H)
		total += legend.height()
	}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s">`+"\n",
		W, total, W, total, svgFamily(fonts.Condensed))
	if o.Title != "" {
		fmt.Fprintf(&s.b, "<title>%s</title>\n", esc(o.Title))
	}
	fmt.Fprintf(&s.b, `<rect width="%.0f" height="%.0f" fill="#ffffff"/>`+"\n", W, total)
	s.base()
	s.overlays(sv)
	if legend != nil {
		legend.draw()
	}
	s.b.WriteString("</svg>\n")
	if err := measure.Error(); err != nil {
		return fmt.Errorf("mapdraw: measuring the map's text: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(s.b.String())
	return bw.Flush()
}

// measurers are fpdf pages with the map's faces registered, kept for the
// next drawing of the same size by pages: registering the fonts (parsing
// them) was two fifths of an image's time.
var measurers sync.Map // [2]float64{W, H} → *sync.Pool of *fpdf.Fpdf

// measurer returns a page of that size to measure text with, and the func
// that gives it back (a page in error is dropped).
func measurer(w, h float64) (*fpdf.Fpdf, func()) {
	pool, _ := measurers.LoadOrStore([2]float64{w, h}, &sync.Pool{New: func() any {
		pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "mm", Size: fpdf.SizeType{Wd: w, Ht: h}})
		fonts.Register(pdf, usedFaces...)
		return pdf
	}})
	p := pool.(*sync.Pool)
	pdf := p.Get().(*fpdf.Fpdf)
	return pdf, func() {
		if pdf.Error() == nil {
			p.Put(pdf)
		}
	}
}

// svgOut is one SVG drawing under way: the PDF's drawer (for its
// projection and placement) and the text written.
type svgOut struct {
	d *drawer
	b strings.Builder
}

// f formats a coordinate or length: one decimal, enough at screen size.
func f(v float64) string { return fmt.Sprintf("%.1f", v) }

// width is a line width scaled to the hex size, never thinner than min.
func (s *svgOut) width(u, minW float64) string { return f(math.Max(u*s.d.k, minW)) }

// points is a polygon's or polyline's points attribute.
func points(ps []pt) string {
	var b strings.Builder
	for i, q := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f(q.X) + "," + f(q.Y))
	}
	return b.String()
}

// hexPoints is a hex's outline on the page.
func (s *svgOut) hexPoints(h game.Hex) string {
	ps := make([]pt, 6)
	for i := range ps {
		ps[i] = s.d.p.page(corner(h, i))
	}
	return points(ps)
}

// path strokes segments (hex units) chained end to end, as one path.
func (s *svgOut) path(segs []segment, stroke RGB, width string, extra string) {
	if len(segs) == 0 {
		return
	}
	var b strings.Builder
	for _, line := range chain(segs) {
		for i, q := range line {
			x, y := s.d.p.xy(q)
			if i == 0 {
				b.WriteString("M" + f(x) + " " + f(y))
			} else {
				b.WriteString("L" + f(x) + " " + f(y))
			}
		}
	}
	fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="round" stroke-linejoin="round"%s/>`+"\n",
		b.String(), stroke.hex(), width, extra)
}

// base draws the map itself, bottom up as Draw does: terrain (each hex with
// its tooltip), its marks, the grid, borders, rivers, roads, hex numbers,
// the wash of dimmed hexes and the good-holding dots.
func (s *svgOut) base() {
	d := s.d
	colours := d.hexColours()
	s.b.WriteString(`<g id="terrain">` + "\n")
	d.hexes(func(h game.Hex, t game.Terrain) {
		if t == 0 {
			return
		}
		c := colours[(h.Row-1)*d.m.Cols+h.Col-1]
		fill := RGB{int(c.R), int(c.G), int(c.B)}
		fmt.Fprintf(&s.b, `<polygon points="%s" fill="%s" stroke="%s" stroke-width="0.6"><title>%s</title></polygon>`+"\n",
			s.hexPoints(h), fill.hex(), fill.hex(), esc(s.hexTip(h, t)))
	})
	s.b.WriteString("</g>\n")
	// Everything over the terrain but the cities, counters and marks lets
	// the pointer through to the hex under it, whose tooltip names it.
	s.b.WriteString(`<g pointer-events="none">` + "\n")
	if d.o.shows(LayerTerrainSymbols) {
		s.terrainMarks()
	}
	if d.o.shows(LayerGrid) {
		s.grid()
	}
	if d.o.shows(LayerSeaAreas) {
		s.seaBorders()
	}
	if d.o.shows(LayerProvinces) {
		s.provinceBorders()
	}
	if d.o.shows(LayerRivers) {
		segs := make([]segment, 0, len(d.m.Rivers))
		for _, e := range d.m.Rivers {
			if a, b, ok := edgeCorners(e); ok {
				segs = append(segs, segment{a, b})
			}
		}
		s.path(segs, colRiver, s.width(0.6, 1), "")
	}
	if d.o.shows(LayerRoads) {
		segs := make([]segment, 0, len(d.m.Roads))
		for _, e := range d.m.Roads {
			segs = append(segs, segment{center(e.A), center(e.B)})
		}
		s.path(segs, colRoad, s.width(0.42, 0.8), "")
	}
	if d.o.shows(LayerHexNumbers) && d.r >= svgHexNumbersFrom {
		s.hexNumbers()
	}
	if d.o.Dim != nil {
		s.b.WriteString(`<g fill="#ffffff" fill-opacity="0.6">` + "\n")
		d.hexes(func(h game.Hex, _ game.Terrain) {
			if d.o.Dim(h) {
				fmt.Fprintf(&s.b, `<polygon points="%s"/>`+"\n", s.hexPoints(h))
			}
		})
		s.b.WriteString("</g>\n")
	}
	if d.o.Highlight != nil {
		in := func(h game.Hex) bool { return d.m.InBounds(h) && d.o.Highlight(h) }
		s.path(d.boundary(in), d.o.HighlightColour, s.width(0.9, 1.5), "")
	}
	s.b.WriteString("</g>\n")
}

// svgHexNumbersFrom is the hex radius, in pixels, from which hex numbers
// are printed: below it (a big map at screen width) they would be a grey
// smudge even zoomed in, and the hexes' tooltips name them instead.
const svgHexNumbersFrom = 9.0

// hexTip is a hex's tooltip: "0812 woods — Kurmark (F)", "1203 sea — S3
// Amber Sea".
func (s *svgOut) hexTip(h game.Hex, t game.Terrain) string {
	tip := h.String() + " " + strings.ToLower(t.String())
	if p, ok := s.d.m.ProvinceOf(h); ok {
		tip += " — " + p.Name + " (" + p.Letter + ")"
	} else if sea, ok := s.d.m.SeaOf(h); ok {
		tip += " — " + strings.TrimSpace(string(sea.ID)+" "+sea.Name)
	}
	if c, ok := s.d.m.CityAt(h); ok {
		tip += ", " + c.Name
	}
	return tip
}

// terrainMarks draws the PDF's tree, hill and peak marks in the lower
// half of rough, woods and mountain hexes without a city.
func (s *svgOut) terrainMarks() {
	d, r := s.d, s.d.r
	for _, t := range []game.Terrain{game.Rough, game.Woods, game.Mountain} {
		mark := terrainColour(t).darker(0.3)
		var b strings.Builder
		d.hexes(func(h game.Hex, ht game.Terrain) {
			if ht != t {
				return
			}
			if _, ok := d.m.CityAt(h); ok {
				return
			}
			x, y := d.p.Center(h)
			b.WriteString(terrainMarkPath(t, x, y+0.48*r, r))
		})
		if b.Len() == 0 {
			continue
		}
		if t == game.Rough {
			fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"/>`+"\n", b.String(), mark.hex(), s.width(0.16, 0.5))
		} else {
			fmt.Fprintf(&s.b, `<path d="%s" fill="%s"/>`+"\n", b.String(), mark.hex())
		}
	}
}

// terrainMarkPath is drawTerrainMark as SVG path data.
func terrainMarkPath(t game.Terrain, x, y, r float64) string {
	var b strings.Builder
	switch t {
	case game.Woods:
		for _, o := range [][2]float64{{-0.3, 0.04}, {0, -0.06}, {0.3, 0.04}} {
			cx, cy, rr := x+o[0]*r, y+o[1]*r, 0.1*r
			fmt.Fprintf(&b, "M%s %sa%s %s 0 1 0 %s 0a%s %s 0 1 0 %s 0", f(cx-rr), f(cy), f(rr), f(rr), f(2*rr), f(rr), f(rr), f(-2*rr))
		}
	case game.Rough:
		for _, o := range [][2]float64{{-0.24, 0.06}, {0.2, -0.04}} {
			cx, cy := x+o[0]*r, y+o[1]*r+0.08*r
			rx, ry := 0.14*r, 0.12*r
			fmt.Fprintf(&b, "M%s %sA%s %s 0 0 1 %s %s", f(cx-rx), f(cy), f(rx), f(ry), f(cx+rx), f(cy))
		}
	case game.Mountain:
		base := y + 0.14*r
		for _, m := range [][3]float64{{x - 0.12*r, 0.24 * r, 0.34 * r}, {x + 0.22*r, 0.18 * r, 0.24 * r}} {
			fmt.Fprintf(&b, "M%s %sL%s %sL%s %sZ", f(m[0]-m[1]), f(base), f(m[0]), f(base-m[2]), f(m[0]+m[1]), f(base))
		}
	}
	return b.String()
}

// grid strokes the hexsides within the sea and within the land (the coast
// is a province border).
func (s *svgOut) grid() {
	d := s.d
	for _, sea := range []bool{true, false} {
		segs := d.gridSides(sea)
		c := colGridLand
		if sea {
			c = colGridSea
		}
		s.path(segs, c, s.width(0.1, 0.4), "")
	}
}

// seaBorders outlines sea areas, dashed blue, where one meets another.
func (s *svgOut) seaBorders() {
	d := s.d
	s.path(d.seaBorderSides(), colSeaLine, s.width(0.5, 0.8), fmt.Sprintf(` stroke-dasharray="%s %s"`, f(2.2*d.k), f(0.9*d.k)))
}

// provinceBorders outlines provinces and the coast in black, wider where a
// river runs along them (the river drawn over keeps a black edge).
func (s *svgOut) provinceBorders() {
	plain, river := s.d.provinceBorderSides()
	s.path(plain, colBorder, s.width(0.62, 1), "")
	s.path(river, colBorder, s.width(1.25, 2), "")
}

// hexNumbers prints "0812" at the top of every land hex, light on the
// dark mountain brown.
func (s *svgOut) hexNumbers() {
	d := s.d
	size := 0.22 * d.r
	fmt.Fprintf(&s.b, `<g font-size="%s" text-anchor="middle">`+"\n", f(size))
	d.hexes(func(h game.Hex, t game.Terrain) {
		if !t.IsLand() {
			return
		}
		c := colHexNum
		if t == game.Mountain {
			c = colHexNumDark
		}
		x, y := d.p.Center(h)
		fmt.Fprintf(&s.b, `<text x="%s" y="%s" fill="%s">%s</text>`+"\n", f(x), f(y-0.62*d.r), c.hex(), h)
	})
	s.b.WriteString("</g>\n")
}

// hex is the colour as #rrggbb.
func (c RGB) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R&255, c.G&255, c.B&255) }

// esc escapes text for SVG (XML).
func esc(s string) string { return html.EscapeString(s) }
