package mapdraw

import (
	"fmt"
	"math"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// box is an axis-aligned page area in millimetres.
type box struct{ x0, y0, x1, y1 float64 }

func boxAround(c pt, hw, hh float64) box { return box{c.X - hw, c.Y - hh, c.X + hw, c.Y + hh} }

func (b box) area() float64 { return (b.x1 - b.x0) * (b.y1 - b.y0) }

func (b box) overlap(o box) float64 {
	if o.x0 >= b.x1 || b.x0 >= o.x1 || o.y0 >= b.y1 || b.y0 >= o.y1 {
		return 0
	}
	return (min(b.x1, o.x1) - max(b.x0, o.x0)) * (min(b.y1, o.y1) - max(b.y0, o.y0))
}

func (b box) union(o box) box {
	return box{math.Min(b.x0, o.x0), math.Min(b.y0, o.y0), math.Max(b.x1, o.x1), math.Max(b.y1, o.y1)}
}

// samples returns the corners, edge midpoints and centre of b.
func (b box) samples() []pt {
	mx, my := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	return []pt{{b.x0, b.y0}, {mx, b.y0}, {b.x1, b.y0}, {b.x0, my}, {mx, my}, {b.x1, my}, {b.x0, b.y1}, {mx, b.y1}, {b.x1, b.y1}}
}

// cover returns the area of b, in mm², over obstacles a label must not
// cover (every obstacle but wind arrows), and the share of b covered by
// any obstacle (may exceed 1 where obstacles overlap each other).
func (d *drawer) cover(b box) (clash, crowding float64) {
	a := 0.0
	for _, i := range d.near(b) {
		o := &d.obstacles[i]
		if v := b.overlap(o.box); v > 0 {
			a += v
			if !o.soft {
				clash += v
			}
		}
	}
	return clash, a / b.area()
}

// labelSteps are the sizes, as shares of a label's full size, a label is
// tried at: the full size first, smaller only where no place at a larger
// size is clear.
var labelSteps = []float64{1, 0.88, 0.76, 0.64}

// choice is a candidate place for a label: the area it would clash with
// and how much it is otherwise disliked.
type choice struct{ clash, score float64 }

// better reports whether c beats o: a clear place beats any clash, a
// smaller clash a larger one, then the lower score. Ties keep the first
// candidate, so the order candidates are tried in decides.
func (c choice) better(o choice) bool {
	const eps = 1e-9
	if (c.clash > eps) != (o.clash > eps) {
		return c.clash <= eps
	}
	if c.clash > eps && math.Abs(c.clash-o.clash) > eps {
		return c.clash < o.clash
	}
	return c.score < o.score-eps
}

// offMap is the share of b's sample points outside the map's bounds.
func (d *drawer) offMap(b box) float64 {
	m := d.p.Bounds()
	n := 0
	for _, q := range b.samples() {
		if q.X < m.X || q.Y < m.Y || q.X > m.X+m.W || q.Y > m.Y+m.H {
			n++
		}
	}
	return float64(n) / 9
}

// outside is the share of b's sample points over hexes for which in is false.
func (d *drawer) outside(b box, in func(game.Hex) bool) float64 {
	n := 0
	for _, q := range b.samples() {
		u := pt{(q.X - d.p.x0) / d.r, (q.Y - d.p.y0) / d.r}
		if !in(hexAt(u)) {
			n++
		}
	}
	return float64(n) / 9
}

// textLine is one run of text at a baseline position on the page.
type textLine struct {
	text          string
	family, style string
	size          float64 // points
	colour        RGB
	x, y          float64 // left end of the baseline, mm
}

// labelPlan is a placed label: its runs and the box they cover.
type labelPlan struct {
	lines []textLine
	box   box
	// keep is the area other labels keep off, when more than box: box and
	// the room reserved under it.
	keep box
	// scale is the label's size as a share of its full size.
	scale float64
	halo  float64 // width of the paper-coloured outline behind the text, mm
	// gaps are paper-coloured patches between runs on one line, so that the
	// halo has no hole where a line could show through.
	gaps []box
}

// width measures a run.
func (d *drawer) textWidth(family, style string, size float64, s string) float64 {
	d.pdf.SetFont(family, style, size)
	return d.pdf.GetStringWidth(s)
}

// drawLabel sets a label: first every run's halo, then the text over it.
func (d *drawer) drawLabel(l labelPlan) {
	pdf := d.pdf
	if len(l.gaps) > 0 {
		fill(pdf, colHalo)
		for _, g := range l.gaps {
			pdf.Rect(g.x0, g.y0, g.x1-g.x0, g.y1-g.y0, "F")
		}
	}
	if l.halo > 0 {
		pdf.SetTextRenderingMode(1)
		stroke(pdf, colHalo)
		pdf.SetLineWidth(l.halo)
		for _, t := range l.lines {
			pdf.SetFont(t.family, t.style, t.size)
			pdf.Text(t.x, t.y, t.text)
		}
		pdf.SetTextRenderingMode(0)
	}
	for _, t := range l.lines {
		pdf.SetFont(t.family, t.style, t.size)
		ink(pdf, t.colour)
		pdf.Text(t.x, t.y, t.text)
	}
}

// Font metrics of DejaVu Sans, as fractions of the font size.
const (
	capHeight = 0.73
	descent   = 0.24
)

// cityPlan is a city ready to draw.
type cityPlan struct {
	city    *hexmap.City
	at      pt      // page centre of the block
	size    float64 // block side, mm
	capitol bool
	marks   CityMarks
	anchor  pt // page centre of the port's anchor badge
	label   labelPlan
}

func (d *drawer) cityTax(c *hexmap.City) int { return d.o.Taxes.Of(c.Port, c.River) }

// marksOf returns a city's marks from Options.Cities, or its home loyalty.
func (d *drawer) marksOf(c *hexmap.City) CityMarks {
	if mk, ok := d.o.Cities[c.Name]; ok {
		return mk
	}
	var owner game.NationID
	if p, ok := d.m.Province(c.Province); ok {
		owner = p.Owner
	}
	return CityMarks{Controller: owner, Loyalty: owner}
}

// planCities places every city's block, flag, loyalty disc and anchor
// (planCitySymbols), the battle marks clear of them (planBattles), then the
// cities' labels clear of both (planCityLabels).
func (d *drawer) planCities() ([]cityPlan, []battleMark) {
	plans := d.planCitySymbols()
	battles := d.planBattles()
	d.planCityLabels(plans)
	return plans, battles
}

// planCitySymbols places every city's block, flag, loyalty disc and anchor.
func (d *drawer) planCitySymbols() []cityPlan {
	r := d.r
	plans := make([]cityPlan, len(d.m.Cities))
	for i := range d.m.Cities {
		c := &d.m.Cities[i]
		pl := cityPlan{city: c, at: d.p.page(center(c.Hex)), size: 0.44 * r, capitol: c.Capitol != game.Neutral, marks: d.marksOf(c)}
		if pl.capitol {
			pl.size = 0.58 * r
		}
		hs := pl.size / 2
		d.symbol(CityBlock, c.Name, boxAround(pl.at, hs, hs), boxAround(pl.at, hs+0.04*r, hs+0.04*r))
		if pl.marks.Controller != game.Neutral {
			d.symbol(CityFlag, c.Name, box{pl.at.X + hs, pl.at.Y - hs - 0.5*r, pl.at.X + hs + 0.36*r, pl.at.Y - hs},
				box{pl.at.X + hs - 0.02*r, pl.at.Y - hs - 0.52*r, pl.at.X + hs + 0.4*r, pl.at.Y - hs})
		}
		if pl.marks.Controller != pl.marks.Loyalty {
			disc := pt{pl.at.X - hs, pl.at.Y}
			d.symbol(CityDisc, c.Name, boxAround(disc, 0.13*r, 0.13*r), boxAround(disc, 0.16*r, 0.16*r))
		}
		if c.Port {
			v, _ := d.seaward(c.Hex, anchorOrder...)
			pl.anchor = d.p.page(center(c.Hex).add(v.scale(0.62)))
			d.symbol(CityAnchor, c.Name, boxAround(pl.anchor, 0.2*r, 0.2*r), boxAround(pl.anchor, 0.22*r, 0.22*r))
		}
		plans[i] = pl
	}
	return plans
}

// planCityLabels places the cities' labels: the capitols' first, then the
// rest in the map's order (placeCityLabel).
func (d *drawer) planCityLabels(plans []cityPlan) {
	order := make([]int, 0, len(plans))
	for _, capitols := range []bool{true, false} {
		for i := range plans {
			if plans[i].capitol == capitols {
				order = append(order, i)
			}
		}
	}
	for _, i := range order {
		plans[i].label = d.placeCityLabel(&plans[i])
		d.label(CityLabel, plans[i].city.Name, plans[i].label)
	}
}

// placeCityLabel puts a city's "name tax" label at the first of ten
// positions round its block (right, right a little raised, left, left
// raised, below, above, then the four corners) that is clear of everything
// placed; failing that, at the same ten a little further out, then the
// twenty again at smaller sizes (labelSteps). Among clear positions of one size the preferred order
// trades against covering wind arrows and leaving the map. Where nothing is
// clear at any size, the full-size position that clashes least is taken.
func (d *drawer) placeCityLabel(pl *cityPlan) labelPlan {
	r := d.r
	baseName := 0.4 * r / mmPerPt
	colour := colCity
	if pl.capitol {
		baseName *= 1.15
		colour = colCapitol
	}
	name := pl.city.Name
	tax := fmt.Sprint(d.cityTax(pl.city))
	hs := pl.size / 2
	at := pl.at
	var best labelPlan
	bestC := choice{math.Inf(1), math.Inf(1)}
	fallback, fallbackC := labelPlan{}, choice{math.Inf(1), math.Inf(1)}
	for si, step := range labelSteps {
		nameSize := baseName * step
		taxSize := nameSize * 0.82
		wName := d.textWidth(fonts.Condensed, "B", nameSize, name)
		wGap := 0.12 * r * step
		wTax := d.textWidth(fonts.Condensed, "", taxSize, tax)
		w := wName + wGap + wTax
		em := nameSize * mmPerPt
		capH, desc := capHeight*em, descent*em
		type cand struct {
			x, y, pref float64 // left end of baseline; preference penalty
		}
		var cands []cand
		for ring, g := range []float64{0.12 * r, 0.34 * r} {
			p := 0.4 * float64(ring)
			cands = append(cands,
				cand{at.X + hs + g, at.Y + capH/2, p},                            // right
				cand{at.X + hs + g, at.Y + capH/2 - 0.08*r, p + 0.02},            // right, raised off a counter
				cand{at.X - hs - g - w, at.Y + capH/2, p + 0.05},                 // left
				cand{at.X - hs - g - w, at.Y + capH/2 - 0.08*r, p + 0.07},        // left, raised
				cand{at.X - w/2, at.Y + hs + g + capH, p + 0.1},                  // below
				cand{at.X - w/2 - 0.25*r, at.Y - hs - g - desc, p + 0.15},        // above, clear of the flag
				cand{at.X + hs + g/2, at.Y + hs + capH + g/2, p + 0.2},           // below right
				cand{at.X - hs - g/2 - w, at.Y + hs + capH + g/2, p + 0.22},      // below left
				cand{at.X - hs - g/2 - w, at.Y - hs - desc - g/2, p + 0.25},      // above left
				cand{at.X + hs + 0.45*r, at.Y - hs - desc - g + 0.02*r, p + 0.3}, // above right, past the flag
			)
		}
		found := false
		for _, c := range cands {
			b := box{c.x - 0.03*r, c.y - capH - 0.03*r, c.x + w + 0.03*r, c.y + desc}
			clash, crowd := d.cover(b)
			ch := choice{clash, c.pref + 4*crowd + 3*d.offMap(b)}
			l := labelPlan{
				lines: []textLine{
					{text: name, family: fonts.Condensed, style: "B", size: nameSize, colour: colour, x: c.x, y: c.y},
					{text: tax, family: fonts.Condensed, style: "", size: taxSize, colour: RGB{70, 64, 56}, x: c.x + wName + wGap, y: c.y},
				},
				box:   box{c.x, c.y - capH, c.x + w, c.y + desc},
				halo:  0.09 * r * step,
				scale: step,
				gaps:  []box{{c.x + wName - 0.05*r*step, c.y - capH*0.8, c.x + wName + wGap + 0.05*r*step, c.y}},
			}
			if ch.clash <= 1e-9 && ch.better(bestC) {
				best, bestC, found = l, ch, true
			}
			if si == 0 && ch.better(fallbackC) {
				fallback, fallbackC = l, ch
			}
		}
		if found {
			return best
		}
	}
	return fallback
}

// hexCentroid returns the mean of hexes' centres in hex units.
func hexCentroid(hexes []game.Hex) pt {
	var s pt
	for _, h := range hexes {
		s = s.add(center(h))
	}
	return s.scale(1 / float64(max(1, len(hexes))))
}

// areaOffsets are where, round a hex's centre, an area label may be
// centred, in hex units: the centre, then half-way to each neighbour.
var areaOffsets = []pt{{0, 0}, {0, -sqrt3 / 2}, {0, sqrt3 / 2}, {-0.75, -sqrt3 / 4}, {0.75, -sqrt3 / 4}, {-0.75, sqrt3 / 4}, {0.75, sqrt3 / 4}}

// placeArea labels an area of hexes (a province, a sea area): the label is
// centred on a hex of the area, or half-way from one to a neighbour, never
// on a hex skip rejects. Places that clash with a symbol or a label are
// out; of the rest, the one that best trades nearness to the area's
// centroid against covering wind arrows, spilling out of the area and
// leaving the map wins. Where no place is clear the label is tried smaller
// (labelSteps); where none is clear at any size, the full-size place that
// clashes least is taken. below reserves room under the label (markers at
// sea): it is kept clear too. It returns the label and its centre in hex
// units.
func (d *drawer) placeArea(hexes []game.Hex, in func(game.Hex) bool, skip func(game.Hex) bool, runs []textLine, lineGap, dy float64, below Rect) (labelPlan, pt, bool) {
	c := hexCentroid(hexes)
	var fallback labelPlan
	var fallbackAt pt
	fallbackC, found := choice{math.Inf(1), math.Inf(1)}, false
	for si, step := range labelSteps {
		widths := make([]float64, len(runs))
		height := 0.0
		for i, t := range runs {
			widths[i] = d.textWidth(t.family, t.style, t.size*step, t.text)
			if i > 0 {
				height += lineGap * step
			}
			height += capHeight * t.size * step * mmPerPt
		}
		lastDesc := descent * runs[len(runs)-1].size * step * mmPerPt
		w := 0.0
		for _, x := range widths {
			w = math.Max(w, x)
		}
		var best labelPlan
		var bestAt pt
		bestC, clear := choice{math.Inf(1), math.Inf(1)}, false
		for _, h := range hexes {
			for oi, off := range areaOffsets {
				u := center(h).add(off)
				if skip != nil && skip(hexAt(u)) {
					continue
				}
				at := d.p.page(u)
				top := at.Y + dy*d.r - height/2
				b := box{at.X - w/2 - 0.05*d.r, top, at.X + w/2 + 0.05*d.r, top + height + lastDesc}
				keep := b
				if below.W > 0 {
					keep = keep.union(box{at.X - below.W/2, b.y1, at.X + below.W/2, b.y1 + below.H})
				}
				pref := 0.0
				if oi > 0 {
					pref = 0.1
				}
				clash, crowd := d.cover(keep)
				// Skip what cannot win before the costlier sampling: a clash
				// once a clear place is known or at a smaller size, a larger
				// clash than the fallback's, a place that is no better even
				// before its spill and overhang count.
				if clash > 1e-9 && (si > 0 || clear || clash > fallbackC.clash+1e-9) {
					continue
				}
				score := pref + u.dist(c)/sqrt3*0.3 + 6*crowd
				if clash <= 1e-9 && clear && score >= bestC.score-1e-9 {
					continue
				}
				ch := choice{clash, score + 2*d.outside(b, in) + 4*d.offMap(keep)}
				okClear := ch.clash <= 1e-9 && ch.better(bestC)
				okFall := si == 0 && ch.better(fallbackC)
				if !okClear && !okFall {
					continue
				}
				lines := make([]textLine, len(runs))
				y := top
				for i, t := range runs {
					if i > 0 {
						y += lineGap * step
					}
					t.size *= step
					y += capHeight * t.size * mmPerPt
					t.x, t.y = at.X-widths[i]/2, y
					lines[i] = t
				}
				l := labelPlan{lines: lines, box: b, keep: keep, halo: 0.1 * d.r * step, scale: step}
				if okClear {
					best, bestAt, bestC, clear = l, u, ch, true
				}
				if okFall {
					fallback, fallbackAt, fallbackC, found = l, u, ch, true
				}
			}
		}
		if clear {
			return best, bestAt, true
		}
	}
	return fallback, fallbackAt, found
}

// planProvinceLabels places each province's name and "letter · tax value"
// label.
func (d *drawer) planProvinceLabels() []labelPlan {
	var out []labelPlan
	nameSize := 0.5 * d.r / mmPerPt
	for _, p := range d.m.Provinces {
		if len(p.Hexes) == 0 {
			continue
		}
		total := 0
		for _, c := range d.m.CitiesOf(p.Letter) {
			total += d.cityTax(c)
		}
		runs := []textLine{
			{text: p.Name, family: fonts.Sans, style: "B", size: nameSize, colour: RGB{24, 22, 20}},
			{text: fmt.Sprintf("%s · %d", p.Letter, total), family: fonts.Condensed, style: "", size: nameSize * 0.78, colour: RGB{60, 56, 50}},
		}
		letter := p.Letter
		in := func(h game.Hex) bool { return d.inProvince(h, letter) }
		skip := func(h game.Hex) bool { _, ok := d.m.CityAt(h); return ok }
		l, _, ok := d.placeArea(p.Hexes, in, skip, runs, 0.1*d.r, 0.1, Rect{})
		if !ok {
			l, _, ok = d.placeArea(p.Hexes, in, nil, runs, 0.1*d.r, 0.1, Rect{})
		}
		if ok {
			out = append(out, l)
			d.label(ProvinceLabel, p.Letter, l)
		}
	}
	return out
}

// planSeaLabels places each sea area's ID (and name, if it has one), with
// room under it for the counters at sea there, and records the spot for
// them.
func (d *drawer) planSeaLabels() []labelPlan {
	var out []labelPlan
	idSize := 0.75 * d.r / mmPerPt
	atSea := map[game.SeaID]int{}
	if d.o.shows(LayerMarkers) {
		for _, mk := range d.o.Markers {
			if mk.At.IsSea() {
				atSea[mk.At.Sea]++
			}
		}
	}
	for _, s := range d.m.Seas {
		if len(s.Hexes) == 0 {
			continue
		}
		runs := []textLine{{text: string(s.ID), family: fonts.Sans, style: "I", size: idSize, colour: colSeaLine}}
		if s.Name != "" {
			runs = append(runs, textLine{text: s.Name, family: fonts.Sans, style: "I", size: idSize * 0.55, colour: colSeaLine})
		}
		id := s.ID
		in := func(h game.Hex) bool { return d.inSea(h, id) }
		var below Rect
		if n := atSea[s.ID]; n > 0 {
			w, h, gap := markerSize(d.r)
			rows := (n + 2) / 3
			below = Rect{W: float64(min(n, 3))*(w+gap) + gap, H: gap + float64(rows)*(h+gap)}
		}
		l, at, ok := d.placeArea(s.Hexes, in, nil, runs, 0.12*d.r, 0, below)
		if ok {
			out = append(out, l)
			if d.o.shows(LayerSeaAreas) {
				d.label(SeaLabel, string(s.ID), l)
			} else {
				d.obstacles = append(d.obstacles, obstacle{box: l.keep})
			}
			d.p.seaAt[s.ID] = pt{at.X, (l.box.y1 - d.p.y0) / d.r}
		}
	}
	return out
}

// windPlan is a wind marker: an arrow across the border of two sea areas.
type windPlan struct {
	from, to pt // page
	double   bool
}

// planWinds puts each wind marker across the middle side of the border its
// two sea areas share, pointing from → to.
func (d *drawer) planWinds() []windPlan {
	var out []windPlan
	for _, w := range d.m.Winds {
		if w.Kind == hexmap.NoWind {
			continue
		}
		from, ok1 := d.m.Sea(w.From)
		_, ok2 := d.m.Sea(w.To)
		if !ok1 || !ok2 {
			continue
		}
		type side struct{ a, b game.Hex }
		var sides []side
		var mean pt
		for _, h := range from.Hexes {
			for _, dir := range hexmap.Directions {
				n := hexmap.Step(h, dir)
				if s, ok := d.m.SeaOf(n); ok && s.ID == w.To {
					sides = append(sides, side{h, n})
					mean = mean.add(center(h).lerp(center(n), 0.5))
				}
			}
		}
		if len(sides) == 0 {
			continue
		}
		mean = mean.scale(1 / float64(len(sides)))
		best := sides[0]
		for _, s := range sides[1:] {
			if center(s.a).lerp(center(s.b), 0.5).dist(mean) < center(best.a).lerp(center(best.b), 0.5).dist(mean)-1e-9 {
				best = s
			}
		}
		mid := center(best.a).lerp(center(best.b), 0.5)
		v := center(best.b).sub(center(best.a)).unit()
		pl := windPlan{from: d.p.page(mid.sub(v.scale(1.0))), to: d.p.page(mid.add(v.scale(1.0))), double: w.Kind == hexmap.BothWays}
		out = append(out, pl)
		b := box{math.Min(pl.from.X, pl.to.X), math.Min(pl.from.Y, pl.to.Y), math.Max(pl.from.X, pl.to.X), math.Max(pl.from.Y, pl.to.Y)}
		b = b.union(boxAround(pl.from, 0.2*d.r, 0.2*d.r)).union(boxAround(pl.to, 0.2*d.r, 0.2*d.r))
		d.symbol(WindArrow, "", b, b)
	}
	return out
}
