package mapdraw

import (
	"math"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/fonts"
)

var colAnchor = RGB{20, 44, 96}

// drawCities draws every city: siege ring, block pattern, the holder's flag,
// the loyalty disc of a city held against its loyalty, port anchor, then the
// labels above them all.
func (d *drawer) drawCities(plans []cityPlan) {
	pdf, r := d.pdf, d.r
	for _, pl := range plans {
		hs := pl.size / 2
		if pl.marks.Siege != game.NotBesieged {
			stroke(pdf, colCapitol)
			d.width(0.45, 0.25)
			if pl.marks.Siege == game.Masked {
				pdf.SetDashPattern([]float64{0.7 * d.k, 0.5 * d.k}, 0)
			}
			pdf.Circle(pl.at.X, pl.at.Y, hs*1.55, "D")
			pdf.SetDashPattern([]float64{}, 0)
		}
		colour := colCity
		if pl.capitol {
			colour = colCapitol
		}
		drawCityBlock(pdf, pl.at.X, pl.at.Y, pl.size, colour, d.k)
		if pl.marks.Controller != game.Neutral {
			drawFlag(pdf, pl.at.X+hs, pl.at.Y-hs, r, NationColour(d.m, d.o.NationColours, pl.marks.Controller), d.k)
		}
		if pl.marks.Controller != pl.marks.Loyalty {
			drawLoyaltyDisc(pdf, pl.at.X-hs, pl.at.Y, 0.13*r, NationColour(d.m, d.o.NationColours, pl.marks.Loyalty), d.k)
		}
		if pl.city.Port {
			drawAnchor(pdf, pl.anchor.X, pl.anchor.Y, 0.2*r, d.k)
		}
	}
	for _, pl := range plans {
		d.drawLabel(pl.label)
	}
}

// drawCityBlock draws the city symbol: a square of four blocks of houses
// on white, side s, centred at (x, y).
func drawCityBlock(pdf *fpdf.Fpdf, x, y, s float64, c RGB, k float64) {
	fill(pdf, colPaper)
	stroke(pdf, c)
	pdf.SetLineWidth(math.Max(0.14*k, 0.08))
	pdf.Rect(x-s/2, y-s/2, s, s, "FD")
	fill(pdf, c)
	gap := s * 0.12
	b := (s - 3*gap) / 2
	for _, o := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		pdf.Rect(x-s/2+gap+o[0]*(b+gap), y-s/2+gap+o[1]*(b+gap), b, b, "F")
	}
}

// drawLoyaltyDisc draws the disc of a city held against its loyalty: the
// colour of the nation it is loyal to (NeutralColour for none), radius a,
// at (x, y) — the middle of the block's left side, clear of the holder's
// flag (upper right), of the counters standing below the city and of a
// battle mark (above it).
func drawLoyaltyDisc(pdf *fpdf.Fpdf, x, y, a float64, c RGB, k float64) {
	fill(pdf, c)
	stroke(pdf, colBorder)
	pdf.SetLineWidth(math.Max(0.12*k, 0.08))
	pdf.Circle(x, y, a, "FD")
}

// drawFlag plants a flag in colour c on a staff rising from (x, y).
func drawFlag(pdf *fpdf.Fpdf, x, y, r float64, c RGB, k float64) {
	stroke(pdf, colBorder)
	pdf.SetLineWidth(math.Max(0.14*k, 0.08))
	top := y - 0.5*r
	pdf.Line(x, y, x, top)
	fill(pdf, c)
	pdf.SetLineWidth(math.Max(0.1*k, 0.06))
	pdf.Rect(x, top, 0.36*r, 0.24*r, "FD")
}

// drawAnchor draws a port's anchor on a white disc of radius a at (x, y).
func drawAnchor(pdf *fpdf.Fpdf, x, y, a, k float64) {
	fill(pdf, colPaper)
	stroke(pdf, colAnchor)
	pdf.SetLineWidth(math.Max(0.1*k, 0.06))
	pdf.Circle(x, y, a, "FD")
	pdf.SetLineWidth(math.Max(0.13*k, 0.07))
	pdf.Circle(x, y-0.6*a, 0.14*a, "D")            // ring
	pdf.Line(x, y-0.46*a, x, y+0.7*a)              // shank
	pdf.Line(x-0.32*a, y-0.3*a, x+0.32*a, y-0.3*a) // stock
	pdf.Arc(x, y+0.12*a, 0.55*a, 0.55*a, 0, 200, 340, "D")
	for _, s := range []float64{-1, 1} { // flukes
		fx := x + s*0.55*a*math.Cos(20*math.Pi/180)
		fy := y + 0.12*a + 0.55*a*math.Sin(20*math.Pi/180)
		pdf.Line(fx, fy, fx-s*0.02*a, fy-0.22*a)
	}
}

// drawArrow draws a wind marker from → to with a head at to, and at from
// too when double.
func drawArrow(pdf *fpdf.Fpdf, from, to pt, double bool, r, k float64) {
	v := to.sub(from).unit()
	n := pt{-v.Y, v.X}
	head := 0.5 * r
	halfW := 0.26 * r
	shaftFrom, shaftTo := from, to.sub(v.scale(head*0.8))
	if double {
		shaftFrom = from.add(v.scale(head * 0.8))
	}
	// A paper-coloured casing keeps the arrow clear of borders it crosses.
	stroke(pdf, colPaper)
	pdf.SetLineWidth(math.Max(1.3*k, 0.5))
	pdf.Line(shaftFrom.X, shaftFrom.Y, shaftTo.X, shaftTo.Y)
	stroke(pdf, colWind)
	pdf.SetLineWidth(math.Max(0.6*k, 0.25))
	pdf.Line(shaftFrom.X, shaftFrom.Y, shaftTo.X, shaftTo.Y)
	fill(pdf, colWind)
	tri := func(tip pt, dir pt) {
		base := tip.sub(dir.scale(head))
		a, b := base.add(n.scale(halfW)), base.sub(n.scale(halfW))
		pdf.Polygon([]fpdf.PointType{{X: tip.X, Y: tip.Y}, {X: a.X, Y: a.Y}, {X: b.X, Y: b.Y}}, "F")
	}
	tri(to, v)
	if double {
		tri(from, v.scale(-1))
	}
}

func (d *drawer) drawWinds(winds []windPlan) {
	for _, w := range winds {
		drawArrow(d.pdf, w.from, w.to, w.double, d.r, d.k)
	}
}

// markerSize returns a counter's width and height and the gap between
// counters at sea, for hexes of circumradius r.
func markerSize(r float64) (w, h, gap float64) { return 0.92 * r, 0.4 * r, 0.08 * r }

// placedMarker is a counter and the page centre it is drawn at.
type placedMarker struct {
	mk Marker
	at pt
}

// layoutMarkers lays out Options.Markers: in a hex two abreast below the
// centre, at sea in rows of three under the sea area's label. With sea
// false it lays out only those in hexes (known before any label is
// placed), with sea true only those at sea (after the sea labels).
func (d *drawer) layoutMarkers(sea bool) []placedMarker {
	r := d.r
	w, h, gap := markerSize(r)
	type slotKey struct {
		hex game.Hex
		sea game.SeaID
	}
	counts := map[slotKey]int{}
	totals := map[slotKey]int{}
	for _, mk := range d.o.Markers {
		totals[slotKey{mk.At.Hex, mk.At.Sea}]++
	}
	var out []placedMarker
	for _, mk := range d.o.Markers {
		key := slotKey{mk.At.Hex, mk.At.Sea}
		i := counts[key]
		counts[key]++
		n := totals[key]
		if mk.At.IsSea() != sea {
			continue
		}
		var c pt
		if mk.At.IsSea() {
			q, ok := d.p.seaAt[mk.At.Sea]
			if !ok {
				continue
			}
			perRow := min(n, 3)
			row, col := i/3, i%3
			inRow := min(perRow, n-row*3)
			base := d.p.page(q)
			c = pt{base.X + (float64(col)-float64(inRow-1)/2)*(w+gap), base.Y + h/2 + gap + float64(row)*(h+gap)}
		} else {
			if !d.m.InBounds(mk.At.Hex) {
				continue
			}
			base := d.p.page(center(mk.At.Hex))
			// The first row stands below the centre; in a city's hex below
			// the city's block, so that no counter hides the block or the
			// disc at its corner.
			top := 0.3 * r
			if n == 1 {
				top = 0.42 * r
			}
			if city, ok := d.m.CityAt(mk.At.Hex); ok {
				hs := 0.22 * r
				if city.Capitol != game.Neutral {
					hs = 0.29 * r
				}
				top = max(top, hs+0.04*r+h/2)
			}
			if n == 1 {
				c = pt{base.X, base.Y + top}
			} else {
				row, col := i/2, i%2
				c = pt{base.X + (float64(col)-0.5)*(w+0.06*r), base.Y + top + float64(row)*(h+0.06*r)}
			}
		}
		out = append(out, placedMarker{mk, c})
	}
	return out
}

// planLandMarkers lays out the counters in hexes and keeps labels off them.
func (d *drawer) planLandMarkers() []placedMarker {
	pm := d.layoutMarkers(false)
	w, h, _ := markerSize(d.r)
	for _, p := range pm {
		b := boxAround(p.at, w/2, h/2)
		d.symbol(Counter, p.mk.Label, b, boxAround(p.at, w/2+0.03*d.r, h/2+0.03*d.r))
	}
	return pm
}

// drawMarkers draws the counters in hexes, then lays out and draws those
// at sea.
func (d *drawer) drawMarkers(land []placedMarker) {
	w, h, _ := markerSize(d.r)
	for _, p := range land {
		d.drawMarker(p.mk, p.at, w, h)
	}
	for _, p := range d.layoutMarkers(true) {
		d.p.symbols = append(d.p.symbols, Placed{Kind: Counter, Name: p.mk.Label, Box: boxAround(p.at, w/2, h/2).rect(), Scale: 1})
		d.drawMarker(p.mk, p.at, w, h)
	}
}

// drawMarker draws one counter centred at c.
func (d *drawer) drawMarker(mk Marker, c pt, w, h float64) {
	pdf := d.pdf
	col := NationColour(d.m, d.o.NationColours, mk.Nation)
	fill(pdf, col)
	stroke(pdf, colBorder)
	d.width(0.14, 0.08)
	if mk.Faded {
		pdf.SetAlpha(0.45, "Normal")
		pdf.SetDashPattern([]float64{0.6, 0.4}, 0)
	}
	if mk.Fleet {
		pdf.RoundedRect(c.X-w/2, c.Y-h/2, w, h, h/2, "1234", "FD")
	} else {
		pdf.Rect(c.X-w/2, c.Y-h/2, w, h, "FD")
	}
	if mk.Faded {
		pdf.SetAlpha(1, "Normal")
		pdf.SetDashPattern(nil, 0)
		col = colPaper
	}
	text := mk.Label
	if mk.Size != "" {
		text += " " + mk.Size
	}
	size := 0.26 * d.r / mmPerPt
	tw := d.textWidth(fonts.Condensed, "B", size, text)
	if tw > w*0.92 {
		size *= w * 0.92 / tw
		tw = d.textWidth(fonts.Condensed, "B", size, text)
	}
	if col.light() {
		ink(pdf, colBorder)
	} else {
		ink(pdf, colPaper)
	}
	pdf.Text(c.X-tw/2, c.Y+capHeight*size*mmPerPt/2, text)
}

// battleRadius is the radius of a battle mark: a third of a hex, a quarter
// in a hex with a city (it stands beside the city's block), never under
// 1 mm so that it reads on the continent page.
func (d *drawer) battleRadius(city bool) float64 {
	if city {
		return math.Max(1, 0.24*d.r)
	}
	return math.Max(1.2, 0.32*d.r)
}

// battleSpots are the places a battle mark is tried at in its hex, in hex
// units from the centre, in order: a little above the centre (a hex with
// no city), then round the city block — above it to the left, far left,
// right of it, the lower corners — so that it covers neither the block,
// the holder's flag (upper right), the loyalty disc (left) nor the
// counters below.
var battleSpots = []pt{{0, -0.1}, {-0.25, -0.63}, {-0.75, -0.38}, {0.75, -0.1}, {-0.62, 0.55}, {0.62, 0.55}}

// battleMark is a planned battle mark: its centre and radius.
type battleMark struct {
	at pt
	r  float64
}

// planBattles places each battle mark at the first spot in its hex clear of
// every symbol placed so far (city symbols, counters, anchors, dots), or,
// where none is clear, the one covering least — a city's block, flag or
// disc, or another mark, weighing a hundred times a counter's area and a
// counter ten times an anchor's or a dot's, so that what says who holds a
// city stays in sight. The city labels, placed after, keep off the marks.
func (d *drawer) planBattles() []battleMark {
	r := d.r
	var out []battleMark
	seen := map[game.Hex]bool{}
	for _, h := range d.o.Battles {
		if !d.m.InBounds(h) || seen[h] {
			continue // one mark a hex, however many fights it saw
		}
		seen[h] = true
		_, city := d.m.CityAt(h)
		a := d.battleRadius(city)
		spots := battleSpots
		if city {
			spots = spots[1:] // never over the city's block
		}
		c := center(h)
		best, bestCover := pt{}, math.Inf(1)
		for _, s := range spots {
			at := d.p.page(c.add(s))
			cover := 0.0
			b := boxAround(at, a, a)
			for _, o := range d.p.symbols {
				w := 1.0
				switch o.Kind {
				case CityBlock, CityFlag, CityDisc, BattleMark:
					w = 100
				case Counter:
					w = 10
				}
				cover += w * b.overlap(toBox(o.Box))
			}
			if cover < bestCover-1e-9 {
				best, bestCover = at, cover
			}
			if cover == 0 {
				break
			}
		}
		d.symbol(BattleMark, h.String(), boxAround(best, a, a), boxAround(best, a+0.03*r, a+0.03*r))
		out = append(out, battleMark{best, a})
	}
	return out
}

// DrawBattleMark draws a battle mark: a red ring round a cross, radius r,
// centred at (x, y). The reports' legends draw it too.
func DrawBattleMark(pdf *fpdf.Fpdf, x, y, r float64) {
	pdf.SetAlpha(0.85, "Normal")
	pdf.SetFillColor(255, 255, 255)
	pdf.SetDrawColor(190, 20, 20)
	pdf.SetLineWidth(math.Max(0.2, r*0.18))
	pdf.Circle(x, y, r, "FD")
	k := r * 0.6
	pdf.Line(x-k, y-k, x+k, y+k)
	pdf.Line(x-k, y+k, x+k, y-k)
	pdf.SetAlpha(1, "Normal")
}
