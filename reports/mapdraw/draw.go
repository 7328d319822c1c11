package mapdraw

import (
	"math"
	"slices"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// usedFaces are the faces the map and its legend are set in: province
// names and titles in Sans Bold, sea areas in Sans Oblique, everything else
// in DejaVu Sans Condensed.
var usedFaces = []fonts.Face{fonts.SansBold, fonts.SansOblique, fonts.CondensedRegular, fonts.CondensedBold}

// mmPerPt converts font sizes: fpdf takes points, the page is in millimetres.
const mmPerPt = 25.4 / 72

// drawer carries one Draw call's state.
type drawer struct {
	pdf *fpdf.Fpdf
	m   *hexmap.Map
	o   *Options
	p   *Projection
	r   float64 // hex circumradius in mm
	k   float64 // line-width scale: 1 at a 5 mm hex
	// obstacles are the page boxes labels should not cover; grid files
	// them by place (nearby: obstaclegrid.go).
	obstacles []obstacle
	nearby    *obstacleGrid
	areaIdx   *areaIndex // areaindex.go
}

// Draw draws the whole map into opts.Region of the current page (the page
// inside its margins when Region is zero) and returns the projection it used.
// It registers the report fonts on pdf (fonts.Register) and leaves pdf's
// colours, line style and font changed. Errors are fpdf's sticky error: check
// pdf.Error() before Output. A map without hexes draws nothing; options
// without Taxes draw nothing and set pdf's error.
func Draw(pdf *fpdf.Fpdf, m *hexmap.Map, opts *Options) *Projection {
	o := opts.withDefaults()
	if o.Region.IsZero() {
		w, h := pdf.GetPageSize()
		l, t, r, b := pdf.GetMargins()
		o.Region = Rect{X: l, Y: t, W: w - l - r, H: h - t - b}
	}
	p := newProjection(m, o.Region)
	if !o.Window.IsZero() {
		p = windowProjection(m, o.Region, o.Window)
	}
	if o.Taxes == nil {
		pdf.SetError(errNoTaxes)
		return p
	}
	if m.Cols <= 0 || m.Rows <= 0 || len(m.Terrain) < m.Cols*m.Rows {
		return p
	}
	if p.win != nil {
		pdf.ClipRect(p.win.X, p.win.Y, p.win.W, p.win.H, false)
	}
	fonts.Register(pdf, usedFaces...)
	d := &drawer{pdf: pdf, m: m, o: &o, p: p, r: p.r, k: p.r / 5}
	pdf.SetLineCapStyle("round")
	pdf.SetLineJoinStyle("round")

	if p.win == nil && p.r < rasterBelow {
		d.rasterFill() // raster.go: a big map's tiny hexes as one picture
	} else {
		d.terrain()
		if o.Tint != nil {
			d.tint()
		}
	}
	if o.shows(LayerTerrainSymbols) {
		d.terrainSymbols()
	}
	if o.shows(LayerGrid) {
		d.grid()
	}
	if o.shows(LayerSeaAreas) {
		d.seaBorders()
	}
	if o.shows(LayerProvinces) {
		d.provinceBorders()
	}
	if o.shows(LayerRivers) {
		d.rivers()
	}
	if o.shows(LayerRoads) {
		d.roads()
	}
	if o.shows(LayerHexNumbers) {
		d.hexNumbers()
	}
	if o.Dim != nil {
		d.dim()
	}
	if o.shows(LayerGoodHolding) {
		d.goodHolding()
	}
	if o.Highlight != nil {
		d.highlight()
	}
	var counters []placedMarker
	if o.shows(LayerMarkers) {
		counters = d.planLandMarkers()
	}
	var cities []cityPlan
	var battles []battleMark
	if o.shows(LayerCities) {
		cities, battles = d.planCities()
	} else {
		battles = d.planBattles()
	}
	var winds []windPlan
	if o.shows(LayerWinds) {
		winds = d.planWinds()
	}
	var provs []labelPlan
	if o.shows(LayerProvinces) {
		provs = d.planProvinceLabels()
	}
	var seas []labelPlan
	if o.shows(LayerSeaAreas) || o.shows(LayerMarkers) {
		seas = d.planSeaLabels()
	}
	d.drawWinds(winds)
	d.drawCities(cities)
	for _, l := range provs {
		d.drawLabel(l)
	}
	if o.shows(LayerSeaAreas) {
		for _, l := range seas {
			d.drawLabel(l)
		}
	}
	if o.shows(LayerMarkers) {
		d.drawMarkers(counters)
	}
	for _, b := range battles {
		DrawBattleMark(pdf, b.at.X, b.at.Y, b.r)
	}
	if len(o.Paths) > 0 {
		d.paths() // paths.go
	}
	if o.Overlay != nil {
		o.Overlay(pdf, p)
	}
	if p.win != nil {
		pdf.ClipEnd()
	}
	if o.shows(LayerFrame) {
		d.frame()
	}
	return p
}

// tint washes the hexes Options.Tint colours, one colour at a time, each
// hex's colour asked once.
func (d *drawer) tint() {
	type tinted struct {
		h game.Hex
		c RGB
	}
	var hs []tinted
	var colours []RGB
	d.hexes(func(h game.Hex, t game.Terrain) {
		if !t.IsLand() {
			return
		}
		if c, ok := d.o.Tint(h); ok {
			hs = append(hs, tinted{h, c})
			if !slices.Contains(colours, c) {
				colours = append(colours, c)
			}
		}
	})
	d.pdf.SetAlpha(0.28, "Multiply")
	for _, c := range colours {
		fill(d.pdf, c)
		for _, x := range hs {
			if x.c == c {
				d.pdf.Polygon(d.p.Corners(x.h), "F")
			}
		}
	}
	d.pdf.SetAlpha(1, "Normal")
}

// width sets a line width scaled to the hex size, never thinner than min.
func (d *drawer) width(mm, min float64) {
	d.pdf.SetLineWidth(math.Max(mm*d.k, min))
}

// hexes calls f for every hex of the map in canonical order (column, row);
// in a windowed drawing only for the hexes in (or next to) the clip region.
func (d *drawer) hexes(f func(h game.Hex, t game.Terrain)) {
	c0, c1, r0, r1 := 1, d.m.Cols, 1, d.m.Rows
	if d.p.win != nil {
		c0, c1, r0, r1 = d.p.visMin.Col, d.p.visMax.Col, d.p.visMin.Row, d.p.visMax.Row
	}
	for c := c0; c <= c1; c++ {
		for r := r0; r <= r1; r++ {
			h := game.Hex{Col: c, Row: r}
			f(h, d.m.TerrainAt(h))
		}
	}
}

func (d *drawer) coastalSea(h game.Hex) bool {
	for _, n := range d.m.Neighbors(h) {
		if d.m.IsLand(n) {
			return true
		}
	}
	return false
}

// terrain fills every hex by terrain, one colour at a time so the page
// stream sets each colour once.
func (d *drawer) terrain() {
	type group struct {
		c    RGB
		keep func(game.Hex, game.Terrain) bool
	}
	groups := []group{
		{colSea, func(h game.Hex, t game.Terrain) bool { return t == game.Sea && !d.coastalSea(h) }},
		{colSeaCoast, func(h game.Hex, t game.Terrain) bool { return t == game.Sea && d.coastalSea(h) }},
		{colClear, func(_ game.Hex, t game.Terrain) bool {
			return t.IsLand() && t != game.Rough && t != game.Woods && t != game.Mountain
		}},
		{colRough, func(_ game.Hex, t game.Terrain) bool { return t == game.Rough }},
		{colWoods, func(_ game.Hex, t game.Terrain) bool { return t == game.Woods }},
		{colMountain, func(_ game.Hex, t game.Terrain) bool { return t == game.Mountain }},
	}
	// A hair of stroke in the fill colour closes the anti-aliasing seams
	// viewers show between adjacent fills.
	d.pdf.SetLineWidth(0.05)
	for _, g := range groups {
		fill(d.pdf, g.c)
		stroke(d.pdf, g.c)
		d.hexes(func(h game.Hex, t game.Terrain) {
			if t != 0 && g.keep(h, t) {
				d.pdf.Polygon(d.p.Corners(h), "FD")
			}
		})
	}
}

// terrainSymbols draws small marks in the lower half of rough, woods and
// mountain hexes, so the map reads in black and white and for colour-blind
// players. City hexes stay plain.
func (d *drawer) terrainSymbols() {
	pdf, r := d.pdf, d.r
	d.width(0.16, 0.08)
	for _, t := range []game.Terrain{game.Rough, game.Woods, game.Mountain} {
		mark := terrainColour(t).darker(0.3)
		stroke(pdf, mark)
		fill(pdf, mark)
		d.hexes(func(h game.Hex, ht game.Terrain) {
			if ht != t {
				return
			}
			if _, ok := d.m.CityAt(h); ok {
				return
			}
			x, y := d.p.Center(h)
			drawTerrainMark(pdf, t, x, y+0.48*r, r)
		})
	}
}

// drawTerrainMark draws a terrain's symbol centred at (x, y) for a hex of
// circumradius r.
func drawTerrainMark(pdf *fpdf.Fpdf, t game.Terrain, x, y, r float64) {
	switch t {
	case game.Woods:
		for _, o := range [][2]float64{{-0.3, 0.04}, {0, -0.06}, {0.3, 0.04}} {
			pdf.Circle(x+o[0]*r, y+o[1]*r, 0.1*r, "F")
		}
	case game.Rough:
		for _, o := range [][2]float64{{-0.24, 0.06}, {0.2, -0.04}} {
			pdf.Arc(x+o[0]*r, y+o[1]*r+0.08*r, 0.14*r, 0.12*r, 0, 180, 360, "D")
		}
	case game.Mountain:
		pts := func(cx, base, w, h float64) []fpdf.PointType {
			return []fpdf.PointType{{X: cx - w, Y: base}, {X: cx, Y: base - h}, {X: cx + w, Y: base}}
		}
		base := y + 0.14*r
		pdf.Polygon(pts(x-0.12*r, base, 0.24*r, 0.34*r), "F")
		pdf.Polygon(pts(x+0.22*r, base, 0.18*r, 0.24*r), "F")
	}
}

// grid strokes every hexside once: each hex draws its three upper sides,
// and the lower ones where the map ends.
func (d *drawer) grid() {
	for _, sea := range []bool{true, false} {
		segs := d.gridSides(sea)
		if sea {
			stroke(d.pdf, colGridSea)
		} else {
			stroke(d.pdf, colGridLand)
		}
		d.width(0.1, 0.05)
		d.p.strokeSegments(d.pdf, segs)
	}
}

// gridSides are the hexsides within the sea (sea) or within the land, each
// once: each hex gives its three upper sides, and the lower ones where the
// map ends. The coastline is a province border, drawn apart.
func (d *drawer) gridSides(sea bool) []segment {
	var segs []segment
	d.hexes(func(h game.Hex, t game.Terrain) {
		if (t == game.Sea) != sea {
			return
		}
		for _, dir := range hexmap.Directions {
			n := hexmap.Step(h, dir)
			upper := dir == hexmap.NorthWest || dir == hexmap.North || dir == hexmap.NorthEast
			if !upper && d.m.InBounds(n) {
				continue
			}
			if d.m.InBounds(n) && (d.m.TerrainAt(n) == game.Sea) != sea {
				continue
			}
			a, b := sideCorners(h, dir)
			segs = append(segs, segment{a, b})
		}
	})
	return segs
}

// boundary returns the sides of the hexes in a set where the set ends: the
// sides to hexes outside it or off the map.
func (d *drawer) boundary(in func(game.Hex) bool) []segment {
	var segs []segment
	d.hexes(func(h game.Hex, _ game.Terrain) {
		if !in(h) {
			return
		}
		for _, dir := range hexmap.Directions {
			if n := hexmap.Step(h, dir); !in(n) {
				a, b := sideCorners(h, dir)
				segs = append(segs, segment{a, b})
			}
		}
	})
	return segs
}

// seaBorders outlines sea areas in blue along the sides where one sea area
// meets another; where they meet land the coastline bounds them.
func (d *drawer) seaBorders() {
	stroke(d.pdf, colSeaLine)
	d.width(0.5, 0.2)
	d.pdf.SetDashPattern([]float64{2.2 * d.k, 0.9 * d.k}, 0)
	d.p.strokeSegments(d.pdf, d.seaBorderSides())
	d.pdf.SetDashPattern([]float64{}, 0)
}

// seaBorderSides are the sides where one sea area meets another, each once;
// the PDF and the SVG map draw the same.
func (d *drawer) seaBorderSides() []segment {
	var segs []segment
	for _, s := range d.m.Seas {
		for _, h := range s.Hexes {
			for _, dir := range hexmap.Directions {
				n := hexmap.Step(h, dir)
				if o, ok := d.m.SeaOf(n); ok && o.ID != s.ID && h.Less(n) {
					a, b := sideCorners(h, dir)
					segs = append(segs, segment{a, b})
				}
			}
		}
	}
	return segs
}

// rivers run along hexsides: each river edge is the side its two hexes share.
func (d *drawer) rivers() {
	segs := make([]segment, 0, len(d.m.Rivers))
	for _, e := range d.m.Rivers {
		if a, b, ok := edgeCorners(e); ok {
			segs = append(segs, segment{a, b})
		}
	}
	stroke(d.pdf, colRiver)
	d.width(0.6, 0.25)
	d.p.strokeSegments(d.pdf, segs)
}

// provinceBorders draws the thick black outline of every province: each
// side where the province changes, and the coast. Where a border follows a
// river it is drawn wider, so that the river drawn over it keeps a black
// edge on either side.
func (d *drawer) provinceBorders() {
	plain, river := d.provinceBorderSides()
	stroke(d.pdf, colBorder)
	d.width(0.62, 0.3)
	d.p.strokeSegments(d.pdf, plain)
	d.width(1.25, 0.6)
	d.p.strokeSegments(d.pdf, river)
}

// provinceBorderSides are the sides where a province changes or meets the
// sea, each once: those along a river (when rivers are shown) and the rest.
// The PDF and the SVG map draw the same.
func (d *drawer) provinceBorderSides() (plain, river []segment) {
	for _, p := range d.m.Provinces {
		for _, h := range p.Hexes {
			for _, dir := range hexmap.Directions {
				n := hexmap.Step(h, dir)
				q, ok := d.m.ProvinceOf(n)
				if ok && q.Letter == p.Letter {
					continue
				}
				if ok && !h.Less(n) {
					continue // the other province draws it
				}
				a, b := sideCorners(h, dir)
				if d.o.shows(LayerRivers) && d.m.River(h, n) {
					river = append(river, segment{a, b})
				} else {
					plain = append(plain, segment{a, b})
				}
			}
		}
	}
	return plain, river
}

// roads run from hex centre to hex centre.
func (d *drawer) roads() {
	segs := make([]segment, 0, len(d.m.Roads))
	for _, e := range d.m.Roads {
		segs = append(segs, segment{center(e.A), center(e.B)})
	}
	stroke(d.pdf, colRoad)
	d.width(0.42, 0.2)
	d.p.strokeSegments(d.pdf, segs)
}

// seaward returns the unit vector from a coastal hex towards a sea
// neighbour, trying directions in the order given (clockwise from north when
// none is), or straight down for an inland hex.
func (d *drawer) seaward(h game.Hex, order ...hexmap.Direction) (pt, bool) {
	if len(order) == 0 {
		order = hexmap.Directions
	}
	for _, dir := range order {
		n := hexmap.Step(h, dir)
		if d.m.TerrainAt(n) == game.Sea {
			return center(n).sub(center(h)).unit(), true
		}
	}
	return pt{0, 1}, false
}

// anchorOrder keeps a port's anchor off the flag (north-east of the block)
// and the label's first place (east).
var anchorOrder = []hexmap.Direction{hexmap.SouthWest, hexmap.South, hexmap.NorthWest, hexmap.SouthEast, hexmap.North, hexmap.NorthEast}

// goodHolding marks each good-holding hex with a small dot towards the sea.
func (d *drawer) goodHolding() {
	fill(d.pdf, colBorder)
	stroke(d.pdf, colPaper)
	d.width(0.15, 0.08)
	for _, h := range d.m.GoodHolding {
		v, _ := d.seaward(h)
		c := d.p.page(center(h).add(v.scale(0.55)))
		d.pdf.Circle(c.X, c.Y, 0.11*d.r, "FD")
		d.symbol(HoldingDot, "", boxAround(c, 0.11*d.r, 0.11*d.r), boxAround(c, 0.15*d.r, 0.15*d.r))
	}
}

// hexNumbers prints "0812" at the top of every land hex, light on the
// dark mountain brown.
func (d *drawer) hexNumbers() {
	size := 0.22 * d.r / mmPerPt
	d.pdf.SetFont(fonts.Condensed, "", size)
	for _, dark := range []bool{false, true} {
		if dark {
			ink(d.pdf, colHexNumDark)
		} else {
			ink(d.pdf, colHexNum)
		}
		d.hexes(func(h game.Hex, t game.Terrain) {
			if !t.IsLand() || (t == game.Mountain) != dark {
				return
			}
			s := h.String()
			x, y := d.p.Center(h)
			w := d.pdf.GetStringWidth(s)
			d.pdf.Text(x-w/2, y-0.62*d.r, s)
		})
	}
}

// dim washes out the hexes Options.Dim names with translucent paper.
func (d *drawer) dim() {
	d.pdf.SetAlpha(0.6, "Normal")
	fill(d.pdf, colPaper)
	d.hexes(func(h game.Hex, _ game.Terrain) {
		if d.o.Dim(h) {
			d.pdf.Polygon(d.p.Corners(h), "F")
		}
	})
	d.pdf.SetAlpha(1, "Normal")
}

// highlight outlines the hexes Options.Highlight names.
func (d *drawer) highlight() {
	in := func(h game.Hex) bool { return d.m.InBounds(h) && d.o.Highlight(h) }
	stroke(d.pdf, d.o.HighlightColour)
	d.width(0.9, 0.4)
	d.p.strokeSegments(d.pdf, d.boundary(in))
}

// frame draws a double rule round the map.
func (d *drawer) frame() {
	b := d.p.Bounds()
	stroke(d.pdf, colBorder)
	d.pdf.SetLineWidth(0.2)
	d.pdf.Rect(b.X-1, b.Y-1, b.W+2, b.H+2, "D")
	d.pdf.SetLineWidth(0.7)
	d.pdf.Rect(b.X-2.2, b.Y-2.2, b.W+4.4, b.H+4.4, "D")
}
