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
	w := math.Min(b.x1, o.x1) - math.Max(b.x0, o.x0)
	h := math.Min(b.y1, o.y1) - math.Max(b.y0, o.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func (b box) union(o box) box {
	return box{math.Min(b.x0, o.x0), math.Min(b.y0, o.y0), math.Max(b.x1, o.x1), math.Max(b.y1, o.y1)}
}

// samples returns the corners, edge midpoints and centre of b.
func (b box) samples() []pt {
	mx, my := (b.x0+b.x1)/2, (b.y0+b.y1)/2
	return []pt{{b.x0, b.y0}, {mx, b.y0}, {b.x1, b.y0}, {b.x0, my}, {mx, my}, {b.x1, my}, {b.x0, b.y1}, {mx, b.y1}, {b.x1, b.y1}}
}

// crowding is the share of b already covered by obstacles (may exceed 1
// where obstacles overlap each other).
func (d *drawer) crowding(b box) float64 {
	a := 0.0
	for _, o := range d.obstacles {
		a += b.overlap(o)
	}
	return a / b.area()
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

// planCities places every city's block, flag and anchor, then its label: the
// capitols' labels first, then the rest by name, each at the first of eight
// positions round the block that covers least of what is already placed.
func (d *drawer) planCities() []cityPlan {
	r := d.r
	plans := make([]cityPlan, len(d.m.Cities))
	for i := range d.m.Cities {
		c := &d.m.Cities[i]
		pl := cityPlan{city: c, at: d.p.page(center(c.Hex)), size: 0.44 * r, capitol: c.Capitol != game.Neutral, marks: d.marksOf(c)}
		if pl.capitol {
			pl.size = 0.58 * r
		}
		hs := pl.size / 2
		d.obstacles = append(d.obstacles, boxAround(pl.at, hs+0.04*r, hs+0.04*r))
		if pl.marks.Loyalty != game.Neutral {
			d.obstacles = append(d.obstacles, box{pl.at.X + hs - 0.02*r, pl.at.Y - hs - 0.52*r, pl.at.X + hs + 0.4*r, pl.at.Y - hs})
		}
		if c.Port {
			v, _ := d.seaward(c.Hex, anchorOrder...)
			pl.anchor = d.p.page(center(c.Hex).add(v.scale(0.62)))
			d.obstacles = append(d.obstacles, boxAround(pl.anchor, 0.22*r, 0.22*r))
		}
		plans[i] = pl
	}
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
		d.obstacles = append(d.obstacles, plans[i].label.box)
	}
	return plans
}

func (d *drawer) placeCityLabel(pl *cityPlan) labelPlan {
	r := d.r
	nameSize := 0.4 * r / mmPerPt
	taxSize := nameSize * 0.82
	colour := colCity
	if pl.capitol {
		nameSize *= 1.15
		colour = colCapitol
	}
	name := pl.city.Name
	tax := fmt.Sprint(d.cityTax(pl.city))
	wName := d.textWidth(fonts.Condensed, "B", nameSize, name)
	wGap := 0.12 * r
	wTax := d.textWidth(fonts.Condensed, "", taxSize, tax)
	w := wName + wGap + wTax
	em := nameSize * mmPerPt
	capH, desc := capHeight*em, descent*em
	hs, g := pl.size/2, 0.12*r
	at := pl.at
	type cand struct {
		x, y, pref float64 // left end of baseline; preference penalty
	}
	cands := []cand{
		{at.X + hs + g, at.Y + capH/2, 0},                   // right
		{at.X - hs - g - w, at.Y + capH/2, 0.05},            // left
		{at.X - w/2, at.Y + hs + g + capH, 0.1},             // below
		{at.X - w/2 - 0.25*r, at.Y - hs - g - desc, 0.15},   // above, clear of the flag
		{at.X + hs + g/2, at.Y + hs + capH + g/2, 0.2},      // below right
		{at.X - hs - g/2 - w, at.Y + hs + capH + g/2, 0.22}, // below left
		{at.X - hs - g/2 - w, at.Y - hs - desc - g/2, 0.25}, // above left
		{at.X + hs + 0.45*r, at.Y - hs - desc - 0.1*r, 0.3}, // above right, past the flag
	}
	best, bestScore := cands[0], math.Inf(1)
	for _, c := range cands {
		b := box{c.x - 0.03*r, c.y - capH - 0.03*r, c.x + w + 0.03*r, c.y + desc}
		score := c.pref + 4*d.crowding(b) + 3*d.offMap(b)
		if score < bestScore-1e-9 {
			best, bestScore = c, score
		}
	}
	return labelPlan{
		lines: []textLine{
			{text: name, family: fonts.Condensed, style: "B", size: nameSize, colour: colour, x: best.x, y: best.y},
			{text: tax, family: fonts.Condensed, style: "", size: taxSize, colour: RGB{70, 64, 56}, x: best.x + wName + wGap, y: best.y},
		},
		box:  box{best.x, best.y - capH, best.x + w, best.y + desc},
		halo: 0.09 * r,
		gaps: []box{{best.x + wName - 0.05*r, best.y - capH*0.8, best.x + wName + wGap + 0.05*r, best.y}},
	}
}

// hexCentroid returns the mean of hexes' centres in hex units.
func hexCentroid(hexes []game.Hex) pt {
	var s pt
	for _, h := range hexes {
		s = s.add(center(h))
	}
	return s.scale(1 / float64(max(1, len(hexes))))
}

// placeArea labels an area of hexes (a province, a sea area): the label is
// centred on the candidate hex that best trades nearness to the area's
// centroid against covering other labels, cities and hexes outside the area.
func (d *drawer) placeArea(hexes []game.Hex, in func(game.Hex) bool, skip func(game.Hex) bool, runs []textLine, lineGap, dy float64) (labelPlan, pt, bool) {
	c := hexCentroid(hexes)
	widths := make([]float64, len(runs))
	height := 0.0
	for i, t := range runs {
		widths[i] = d.textWidth(t.family, t.style, t.size, t.text)
		if i > 0 {
			height += lineGap
		}
		height += capHeight * t.size * mmPerPt
	}
	lastDesc := descent * runs[len(runs)-1].size * mmPerPt
	w := 0.0
	for _, x := range widths {
		w = math.Max(w, x)
	}
	var best labelPlan
	var bestAt pt
	bestScore, found := math.Inf(1), false
	for _, h := range hexes {
		if skip != nil && skip(h) {
			continue
		}
		at := d.p.page(center(h))
		top := at.Y + dy*d.r - height/2
		b := box{at.X - w/2 - 0.05*d.r, top, at.X + w/2 + 0.05*d.r, top + height + lastDesc}
		score := center(h).dist(c)/sqrt3*0.3 + 6*d.crowding(b) + 2*d.outside(b, in) + 4*d.offMap(b)
		if score >= bestScore-1e-9 {
			continue
		}
		bestScore, found, bestAt = score, true, center(h)
		lines := make([]textLine, len(runs))
		y := top
		for i, t := range runs {
			if i > 0 {
				y += lineGap
			}
			y += capHeight * t.size * mmPerPt
			t.x, t.y = at.X-widths[i]/2, y
			lines[i] = t
		}
		best = labelPlan{lines: lines, box: b, halo: 0.1 * d.r}
	}
	return best, bestAt, found
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
		in := func(h game.Hex) bool { q, ok := d.m.ProvinceOf(h); return ok && q.Letter == letter }
		skip := func(h game.Hex) bool { _, ok := d.m.CityAt(h); return ok }
		l, _, ok := d.placeArea(p.Hexes, in, skip, runs, 0.1*d.r, 0.1)
		if !ok {
			l, _, ok = d.placeArea(p.Hexes, in, nil, runs, 0.1*d.r, 0.1)
		}
		if ok {
			out = append(out, l)
			d.obstacles = append(d.obstacles, l.box)
		}
	}
	return out
}

// planSeaLabels places each sea area's ID (and name, if it has one), and
// records the spot for markers at sea.
func (d *drawer) planSeaLabels() []labelPlan {
	var out []labelPlan
	idSize := 0.75 * d.r / mmPerPt
	for _, s := range d.m.Seas {
		if len(s.Hexes) == 0 {
			continue
		}
		runs := []textLine{{text: string(s.ID), family: fonts.Sans, style: "I", size: idSize, colour: colSeaLine}}
		if s.Name != "" {
			runs = append(runs, textLine{text: s.Name, family: fonts.Sans, style: "I", size: idSize * 0.55, colour: colSeaLine})
		}
		id := s.ID
		in := func(h game.Hex) bool { q, ok := d.m.SeaOf(h); return ok && q.ID == id }
		l, at, ok := d.placeArea(s.Hexes, in, nil, runs, 0.12*d.r, 0)
		if ok {
			out = append(out, l)
			d.obstacles = append(d.obstacles, l.box)
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
		d.obstacles = append(d.obstacles, b.union(boxAround(pl.from, 0.2*d.r, 0.2*d.r)).union(boxAround(pl.to, 0.2*d.r, 0.2*d.r)))
	}
	return out
}
