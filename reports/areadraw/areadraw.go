// Package areadraw draws an area map (package areamap) as vector PDF: the
// map page of a Trossian report, as package mapdraw draws the hex map of
// an SYW one.
//
// An area map has no outlines, only a point for each province and lane
// and the graph of borders, roads and sea links. The drawing gives each
// province the land nearest its point: the page's map square is sampled
// on a fine grid, each sample going to the nearest province or lane point
// (a sample nearest a lane is sea), and each row's runs of samples of one
// province are filled as one rectangle in the colour of its controller.
// The territories are a wash for reading the map at a glance; what the
// rules read is drawn on top of them as lines between the points: a thin
// grey line where two provinces border, a brown band where a road runs
// along the border, a dashed blue line between linked lanes and a dotted
// blue line from a coastal province to each lane its coast touches. So a
// border is never inferred from two washes meeting.
//
// Layers, bottom up: sea, the territories (Marks.Control), their outlines,
// the fog (provinces the viewer does not watch, Marks.Watched, washed
// pale), the border, coast and link lines, roads, the lanes (frozen ones
// with a snowflake, and iced over when Marks.Frozen), the provinces'
// symbols (a disc for open country, a square for a town, a square with an
// anchor ring for a port; the capitals ringed in red), the battle marks,
// the labels, then the counters (Marks.Counters) beside their place.
//
// Everything is deterministic: the same map and marks give the same
// drawing commands.
package areadraw

import (
	"math"
	"slices"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// RGB is a colour.
type RGB struct{ R, G, B int }

// Palette colours the kingdoms in the order of the map's kingdom list;
// none is the capitals' red.
var Palette = []RGB{
	{44, 84, 150}, {40, 128, 80}, {120, 70, 160}, {214, 140, 30}, {0, 140, 150}, {176, 60, 120}, {120, 100, 60},
}

// Unclaimed is the colour of a province no kingdom controls.
var Unclaimed = RGB{236, 230, 214}

// Colour returns a kingdom's colour: its place in the map's kingdom list
// picks it from Palette.
func Colour(m *areamap.Map, n game.NationID) RGB {
	for i, k := range m.Kingdoms {
		if k.ID == n {
			return Palette[i%len(Palette)]
		}
	}
	return Unclaimed
}

// Counter is a force drawn beside its place.
type Counter struct {
	// Label is what the counter reads: "N1 12" (an army and its stands),
	// "O2 large", "NV1" (a navy).
	Label  string
	Nation game.NationID
	// Navy draws it as a ship counter (rounded); Courier as a small one.
	Navy, Courier bool
}

// Marks are what a report draws on the map besides the map itself.
type Marks struct {
	// Control is each province's controller (absent: unclaimed).
	Control map[string]game.NationID
	// Watched are the places the viewer watches; nil: all (the referee).
	// The others are washed pale: what happens there is not seen.
	Watched map[string]bool
	// Counters are the forces to draw, by province or lane.
	Counters map[string][]Counter
	// Battles are the provinces (or lanes) where a battle was fought.
	Battles []string
	// Frozen: the frozen lanes are iced over this phase.
	Frozen bool
}

// Options say where to draw. The zero value draws nothing.
type Options struct {
	X, Y, W, H float64 // the region, in the page's units (mm)
}

// Projection maps the map's units to the page.
type Projection struct {
	scale, x0, y0 float64
	minX, minY    float64
}

// Page returns where a map point is drawn.
func (p Projection) Page(x, y float64) (float64, float64) {
	return p.x0 + (x-p.minX)*p.scale, p.y0 + (y-p.minY)*p.scale
}

// step is the sampling grid in map units.
const step = 0.5

type site struct {
	id   string
	lane bool
	x, y float64
}

// Draw draws m with its marks into the region and returns the projection.
func Draw(pdf *fpdf.Fpdf, m *areamap.Map, mk *Marks, o Options) Projection {
	if mk == nil {
		mk = &Marks{}
	}
	fonts.Register(pdf, fonts.SansRegular, fonts.SansBold, fonts.SansOblique, fonts.CondensedRegular, fonts.CondensedBold)
	var sites []site
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(id string, lane bool, at areamap.Point) {
		s := site{id: id, lane: lane, x: float64(at.X), y: float64(at.Y)}
		sites = append(sites, s)
		minX, minY, maxX, maxY = math.Min(minX, s.x), math.Min(minY, s.y), math.Max(maxX, s.x), math.Max(maxY, s.y)
	}
	for _, p := range m.Provinces {
		add(p.ID, false, p.At)
	}
	for _, l := range m.Lanes {
		add(l.ID, true, l.At)
	}
	if len(sites) == 0 {
		return Projection{}
	}
	minX, minY, maxX, maxY = minX-4, minY-4, maxX+4, maxY+4
	scale := math.Min(o.W/(maxX-minX), o.H/(maxY-minY))
	pr := Projection{scale: scale, minX: minX, minY: minY}
	pr.x0 = o.X + (o.W-(maxX-minX)*scale)/2
	pr.y0 = o.Y + (o.H-(maxY-minY)*scale)/2
	d := &drawer{pdf: pdf, m: m, mk: mk, pr: pr, sites: sites}
	d.cols = int(math.Ceil((maxX - minX) / step))
	d.rows = int(math.Ceil((maxY - minY) / step))
	d.sample()
	d.sea()
	d.territories()
	d.outlines()
	d.fog()
	d.links()
	d.lanes()
	d.provinces()
	d.counters()
	return pr
}

type drawer struct {
	pdf        *fpdf.Fpdf
	m          *areamap.Map
	mk         *Marks
	pr         Projection
	sites      []site
	rows, cols int
	// owner is the site index of each sample, row by row.
	owner []int
}

func (d *drawer) fill(c RGB)   { d.pdf.SetFillColor(c.R, c.G, c.B) }
func (d *drawer) stroke(c RGB) { d.pdf.SetDrawColor(c.R, c.G, c.B) }
func (d *drawer) ink(c RGB)    { d.pdf.SetTextColor(c.R, c.G, c.B) }

// sample assigns every grid sample its nearest site (ties to the first in
// the map's order: provinces before lanes, each sorted).
func (d *drawer) sample() {
	d.owner = make([]int, d.rows*d.cols)
	for r := 0; r < d.rows; r++ {
		y := d.pr.minY + (float64(r)+0.5)*step
		for c := 0; c < d.cols; c++ {
			x := d.pr.minX + (float64(c)+0.5)*step
			best, bd := 0, math.Inf(1)
			for i, s := range d.sites {
				dd := (s.x-x)*(s.x-x) + (s.y-y)*(s.y-y)
				if s.lane {
					dd *= 0.55 // the sea reaches further than a province's land: a coastline, not a straight cut
				}
				if dd < bd {
					best, bd = i, dd
				}
			}
			d.owner[r*d.cols+c] = best
		}
	}
}

func (d *drawer) cell(r, c int) (x, y float64) {
	return d.pr.Page(d.pr.minX+float64(c)*step, d.pr.minY+float64(r)*step)
}

// sea paints the whole square as sea.
func (d *drawer) sea() {
	x0, y0 := d.cell(0, 0)
	x1, y1 := d.cell(d.rows, d.cols)
	d.fill(RGB{200, 222, 238})
	d.pdf.Rect(x0, y0, x1-x0, y1-y0, "F")
}

func (d *drawer) colourOf(i int) RGB {
	s := d.sites[i]
	if s.lane {
		return RGB{200, 222, 238}
	}
	if n, ok := d.mk.Control[s.id]; ok && n != "" {
		c := Colour(d.m, n)
		// A wash: the colour mixed with paper, so labels stay legible.
		return RGB{(c.R + 2*250) / 3, (c.G + 2*248) / 3, (c.B + 2*240) / 3}
	}
	return Unclaimed
}

// runs calls f for every run of samples of one site in each row.
func (d *drawer) runs(f func(r, c0, c1, site int)) {
	for r := 0; r < d.rows; r++ {
		c0 := 0
		for c := 1; c <= d.cols; c++ {
			if c == d.cols || d.owner[r*d.cols+c] != d.owner[r*d.cols+c0] {
				f(r, c0, c, d.owner[r*d.cols+c0])
				c0 = c
			}
		}
	}
}

// territories fills each province's land in its controller's wash.
func (d *drawer) territories() {
	d.runs(func(r, c0, c1, i int) {
		if d.sites[i].lane {
			return
		}
		d.fill(d.colourOf(i))
		x0, y0 := d.cell(r, c0)
		x1, y1 := d.cell(r+1, c1)
		// A hair wider than the run, so that no seam shows between rows.
		d.pdf.Rect(x0, y0, x1-x0+0.05, y1-y0+0.05, "F")
	})
}

// outlines strokes the edges between samples of different sites: the
// provinces' outlines (thin) and the coast (darker).
func (d *drawer) outlines() {
	type seg struct{ x0, y0, x1, y1 float64 }
	var inner, coast []seg
	edge := func(a, b int, s seg) {
		if a == b {
			return
		}
		la, lb := d.sites[a].lane, d.sites[b].lane
		switch {
		case la && lb:
		case la || lb:
			coast = append(coast, s)
		default:
			inner = append(inner, s)
		}
	}
	for r := 0; r < d.rows; r++ {
		for c := 0; c < d.cols; c++ {
			o := d.owner[r*d.cols+c]
			if c+1 < d.cols {
				x, y0 := d.cell(r, c+1)
				_, y1 := d.cell(r+1, c+1)
				edge(o, d.owner[r*d.cols+c+1], seg{x, y0, x, y1})
			}
			if r+1 < d.rows {
				x0, y := d.cell(r+1, c)
				x1, _ := d.cell(r+1, c+1)
				edge(o, d.owner[(r+1)*d.cols+c], seg{x0, y, x1, y})
			}
		}
	}
	d.pdf.SetLineCapStyle("square")
	d.stroke(RGB{150, 140, 120})
	d.pdf.SetLineWidth(0.15)
	for _, s := range inner {
		d.pdf.Line(s.x0, s.y0, s.x1, s.y1)
	}
	d.stroke(RGB{60, 90, 120})
	d.pdf.SetLineWidth(0.4)
	for _, s := range coast {
		d.pdf.Line(s.x0, s.y0, s.x1, s.y1)
	}
	d.pdf.SetLineCapStyle("butt")
}

// fog washes pale the land the viewer does not watch.
func (d *drawer) fog() {
	if d.mk.Watched == nil {
		return
	}
	d.pdf.SetAlpha(0.55, "Normal")
	d.fill(RGB{255, 255, 255})
	d.runs(func(r, c0, c1, i int) {
		s := d.sites[i]
		if s.lane || d.mk.Watched[s.id] {
			return
		}
		x0, y0 := d.cell(r, c0)
		x1, y1 := d.cell(r+1, c1)
		// Exactly the run: a translucent wash laid twice would show as a stripe.
		d.pdf.Rect(x0, y0, x1-x0, y1-y0, "F")
	})
	d.pdf.SetAlpha(1, "Normal")
}

func (d *drawer) at(id string) (float64, float64, bool) {
	for _, s := range d.sites {
		if s.id == id {
			x, y := d.pr.Page(s.x, s.y)
			return x, y, true
		}
	}
	return 0, 0, false
}

// links draws the graph the rules read: borders, coasts, sea links, roads.
func (d *drawer) links() {
	line := func(a, b string) {
		x0, y0, ok0 := d.at(a)
		x1, y1, ok1 := d.at(b)
		if ok0 && ok1 {
			d.pdf.Line(x0, y0, x1, y1)
		}
	}
	d.stroke(RGB{120, 112, 100})
	d.pdf.SetLineWidth(0.2)
	d.pdf.SetDashPattern([]float64{0.8, 0.8}, 0)
	for _, p := range d.m.Borders {
		if !d.m.Road(p.A, p.B) {
			line(p.A, p.B)
		}
	}
	d.stroke(RGB{40, 100, 170})
	d.pdf.SetDashPattern([]float64{0.3, 0.9}, 0)
	d.pdf.SetLineWidth(0.35)
	for _, p := range d.m.Provinces {
		for _, l := range p.Coast {
			line(p.ID, l)
		}
	}
	d.pdf.SetDashPattern([]float64{2.5, 1.2}, 0)
	d.pdf.SetLineWidth(0.5)
	for _, p := range d.m.Links {
		line(p.A, p.B)
	}
	d.pdf.SetDashPattern(nil, 0)
	d.pdf.SetLineCapStyle("round")
	d.stroke(RGB{150, 90, 40})
	d.pdf.SetLineWidth(1.1)
	for _, p := range d.m.Roads {
		line(p.A, p.B)
	}
	d.stroke(RGB{235, 205, 150})
	d.pdf.SetLineWidth(0.35)
	for _, p := range d.m.Roads {
		line(p.A, p.B)
	}
	d.pdf.SetLineCapStyle("butt")
}

// lanes draws each lane's mark and name.
func (d *drawer) lanes() {
	for _, l := range d.m.Lanes {
		x, y, _ := d.at(l.ID)
		r := 3.2
		c := RGB{232, 242, 250}
		if l.Frozen && d.mk.Frozen {
			c = RGB{255, 255, 255}
		}
		d.fill(c)
		d.stroke(RGB{40, 100, 170})
		d.pdf.SetLineWidth(0.4)
		d.pdf.Ellipse(x, y, r*1.6, r, 0, "FD")
		d.ink(RGB{20, 70, 130})
		d.pdf.SetFont(fonts.Condensed, "B", 7)
		id := l.ID
		if l.Frozen {
			id += " \u2744"
		}
		w := d.pdf.GetStringWidth(id)
		d.pdf.Text(x-w/2, y+1, id)
		d.pdf.SetFont(fonts.Sans, "I", 5.5)
		name := l.Name
		if l.Frozen && d.mk.Frozen {
			name += " (frozen)"
		}
		w = d.pdf.GetStringWidth(name)
		d.pdf.Text(x-w/2, y+r+2.2, name)
	}
	d.ink(RGB{0, 0, 0})
}

// provinces draws each province's symbol, capital ring, battle mark and
// name.
func (d *drawer) provinces() {
	capitals := map[string]bool{}
	for _, k := range d.m.Kingdoms {
		capitals[k.Capital] = true
	}
	for _, p := range d.m.Provinces {
		x, y, _ := d.at(p.ID)
		owner := d.mk.Control[p.ID]
		c := Unclaimed
		if owner != "" {
			c = Colour(d.m, owner)
		}
		d.fill(c)
		d.stroke(RGB{30, 30, 30})
		d.pdf.SetLineWidth(0.3)
		switch p.Kind {
		case areamap.Plain:
			d.pdf.Circle(x, y, 1.2, "FD")
		default:
			d.pdf.Rect(x-1.5, y-1.5, 3, 3, "FD")
			if p.Kind == areamap.Port {
				d.stroke(RGB{40, 100, 170})
				d.pdf.SetLineWidth(0.5)
				d.pdf.Circle(x, y, 2.6, "D")
			}
		}
		if capitals[p.ID] {
			d.stroke(RGB{200, 30, 30})
			d.pdf.SetLineWidth(0.6)
			d.pdf.Circle(x, y, 3.4, "D")
		}
		if slices.Contains(d.mk.Battles, p.ID) {
			d.stroke(RGB{200, 20, 20})
			d.pdf.SetLineWidth(0.7)
			d.pdf.Line(x-3, y-3, x+3, y+3)
			d.pdf.Line(x-3, y+3, x+3, y-3)
		}
		style := ""
		size := 6.5
		if p.Kind.IsCity() {
			style, size = "B", 7
		}
		d.pdf.SetFont(fonts.Sans, style, size)
		d.ink(RGB{20, 20, 20})
		w := d.pdf.GetStringWidth(p.ID)
		d.pdf.Text(x-w/2, y+5.6, p.ID)
	}
	d.ink(RGB{0, 0, 0})
}

// counters draws each place's forces in a column to the right of it.
func (d *drawer) counters() {
	var places []string
	for p := range d.mk.Counters {
		places = append(places, p)
	}
	slices.Sort(places)
	d.pdf.SetFont(fonts.Condensed, "B", 6)
	for _, place := range places {
		x, y, ok := d.at(place)
		if !ok {
			continue
		}
		cs := d.mk.Counters[place]
		cx, cy := x+3.8, y-4
		for _, c := range cs {
			col := Colour(d.m, c.Nation)
			w := d.pdf.GetStringWidth(c.Label) + 1.6
			h := 3.2
			if c.Courier {
				h = 2.8
			}
			d.fill(col)
			d.stroke(RGB{20, 20, 20})
			d.pdf.SetLineWidth(0.2)
			style := "FD"
			if c.Navy {
				d.pdf.RoundedRect(cx, cy, w, h, 1.2, "1234", style)
			} else {
				d.pdf.Rect(cx, cy, w, h, style)
			}
			if 299*col.R+587*col.G+114*col.B > 150*1000 {
				d.ink(RGB{0, 0, 0})
			} else {
				d.ink(RGB{255, 255, 255})
			}
			d.pdf.Text(cx+0.8, cy+h-0.9, c.Label)
			cy += h + 0.5
		}
	}
	d.ink(RGB{0, 0, 0})
}

// Legend draws the key to the drawing in a box.
// It returns the y below the key.
func Legend(pdf *fpdf.Fpdf, m *areamap.Map, x, y float64) float64 {
	fonts.Register(pdf, fonts.SansRegular, fonts.SansBold)
	pdf.SetFont(fonts.Sans, "B", 7.5)
	pdf.SetTextColor(0, 0, 0)
	pdf.Text(x, y+3, "Key")
	y += 5
	pdf.SetFont(fonts.Sans, "", 6.5)
	row := func(draw func(cx, cy float64), text string) {
		draw(x+3, y+1.5)
		pdf.Text(x+8, y+2.5, text)
		y += 4.4
	}
	pdf.SetDrawColor(30, 30, 30)
	pdf.SetLineWidth(0.3)
	pdf.SetFillColor(255, 255, 255)
	row(func(cx, cy float64) { pdf.Circle(cx, cy, 1.2, "FD") }, "open country (plain)")
	row(func(cx, cy float64) { pdf.Rect(cx-1.5, cy-1.5, 3, 3, "FD") }, "town")
	row(func(cx, cy float64) {
		pdf.Rect(cx-1.5, cy-1.5, 3, 3, "FD")
		pdf.SetDrawColor(40, 100, 170)
		pdf.Circle(cx, cy, 2.6, "D")
		pdf.SetDrawColor(30, 30, 30)
	}, "port (at most two navies)")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(200, 30, 30)
		pdf.Circle(cx, cy, 2.2, "D")
		pdf.SetDrawColor(30, 30, 30)
	}, "capital, the King's seat")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(120, 112, 100)
		pdf.SetLineWidth(0.2)
		pdf.SetDashPattern([]float64{0.8, 0.8}, 0)
		pdf.Line(cx-3, cy, cx+3, cy)
		pdf.SetDashPattern(nil, 0)
	}, "border: the provinces so joined are neighbours")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(150, 90, 40)
		pdf.SetLineWidth(1.1)
		pdf.Line(cx-3, cy, cx+3, cy)
	}, "road along a border (+1 province a move)")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(40, 100, 170)
		pdf.SetLineWidth(0.5)
		pdf.SetDashPattern([]float64{2.5, 1.2}, 0)
		pdf.Line(cx-3, cy, cx+3, cy)
		pdf.SetDashPattern(nil, 0)
	}, "sea link between lanes")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(40, 100, 170)
		pdf.SetLineWidth(0.35)
		pdf.SetDashPattern([]float64{0.3, 0.9}, 0)
		pdf.Line(cx-3, cy, cx+3, cy)
		pdf.SetDashPattern(nil, 0)
	}, "coast on a lane")
	pdf.SetLineWidth(0.3)
	row(func(cx, cy float64) {
		pdf.SetFont(fonts.Condensed, "B", 7)
		pdf.SetTextColor(20, 70, 130)
		pdf.Text(cx-2, cy+1, "\u2744")
		pdf.SetTextColor(0, 0, 0)
		pdf.SetFont(fonts.Sans, "", 6.5)
	}, "northern lane: frozen Early Spring and Late Autumn")
	row(func(cx, cy float64) {
		pdf.SetDrawColor(200, 20, 20)
		pdf.SetLineWidth(0.7)
		pdf.Line(cx-2, cy-2, cx+2, cy+2)
		pdf.Line(cx-2, cy+2, cx+2, cy-2)
	}, "battle this turn")
	pdf.SetLineWidth(0.2)
	row(func(cx, cy float64) {
		pdf.SetFillColor(255, 255, 255)
		pdf.SetAlpha(0.55, "Normal")
		pdf.SetFillColor(180, 180, 180)
		pdf.Rect(cx-3, cy-1.5, 6, 3, "F")
		pdf.SetAlpha(1, "Normal")
	}, "pale: beyond your watch (foreign forces unseen)")
	y += 1
	pdf.SetFont(fonts.Sans, "B", 6.5)
	pdf.Text(x, y+2, "Kingdoms")
	y += 4
	pdf.SetFont(fonts.Sans, "", 6.5)
	for _, k := range m.Kingdoms {
		c := Colour(m, k.ID)
		row(func(cx, cy float64) {
			pdf.SetFillColor(c.R, c.G, c.B)
			pdf.Rect(cx-2.5, cy-1.5, 5, 3, "FD")
		}, k.Name+" ("+k.Letter+"), capital "+k.Capital)
	}
	row(func(cx, cy float64) {
		pdf.SetFillColor(Unclaimed.R, Unclaimed.G, Unclaimed.B)
		pdf.Rect(cx-2.5, cy-1.5, 5, 3, "FD")
	}, "unclaimed imperial land")
	return y
}
