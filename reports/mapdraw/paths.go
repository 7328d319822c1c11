package mapdraw

import (
	"math"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
)

// Path is a planned movement drawn over the map (Options.Paths): a force's
// or fleet's march as an arrow through the centres of the hexes it enters
// (a sea area at the point where its markers stand), in its nation's
// colour over a white casing, with marks for how it ends.
type Path struct {
	// Nation colours the arrow.
	Nation game.NationID
	// Places are where it goes, its start first. A path of one place draws
	// no arrow, only its marks.
	Places []game.Place
	// Short draws a bar across the arrow's head: the move stops before its
	// orders' end (MP out, a river, terrain).
	Short bool
	// Supply marks the end with a small disc: SupplyNone draws nothing.
	Supply SupplyMark
	// Contacts are places on the way where a known foreign force stands:
	// each gets a red diamond.
	Contacts []game.Place
	// Fleet draws the arrow dashed (a voyage).
	Fleet bool
}

// SupplyMark is the supply state a path's end is marked with.
type SupplyMark int

// The supply marks: none, supplied (a green disc), a line foreign forces
// could cut (amber), unsupplied (red).
const (
	SupplyNone SupplyMark = iota
	Supplied
	SupplyAtRisk
	Unsupplied
)

// supplyColours are the discs' colours.
var supplyColours = map[SupplyMark]RGB{
	Supplied:     {40, 150, 60},
	SupplyAtRisk: {235, 160, 20},
	Unsupplied:   {200, 30, 30},
}

// paths draws Options.Paths: casings first, then the arrows, then the
// marks, so that crossing paths stay readable.
func (d *drawer) paths() {
	pdf := d.pdf
	lines := make([][]pt, len(d.o.Paths))
	for i, pa := range d.o.Paths {
		for _, pl := range pa.Places {
			if q, ok := d.placePoint(pl); ok {
				lines[i] = append(lines[i], q)
			}
		}
	}
	w := math.Max(0.35, 0.16*d.r)
	pdf.SetLineCapStyle("round")
	pdf.SetLineJoinStyle("round")
	for pass := 0; pass < 2; pass++ {
		for i, pa := range d.o.Paths {
			line := lines[i]
			if len(line) < 2 {
				continue
			}
			c := NationColour(d.m, d.o.NationColours, pa.Nation)
			lw := w
			if pass == 0 {
				c, lw = RGB{255, 255, 255}, w*1.9
			}
			stroke(pdf, c)
			fill(pdf, c)
			pdf.SetLineWidth(lw)
			if pa.Fleet && pass == 1 {
				pdf.SetDashPattern([]float64{2.2 * w, 1.6 * w}, 0)
			}
			// The line stops short of the last centre, where the head is.
			end, prev := line[len(line)-1], line[len(line)-2]
			dir := end.sub(prev).unit()
			head := 0.55
			tip := end.sub(dir.scale(0.15))
			base := tip.sub(dir.scale(head))
			for k := 0; k+1 < len(line); k++ {
				a, b := line[k], line[k+1]
				if k+2 == len(line) {
					b = base
				}
				x0, y0 := d.p.xy(a)
				x1, y1 := d.p.xy(b)
				pdf.Line(x0, y0, x1, y1)
			}
			pdf.SetDashPattern(nil, 0)
			n := pt{-dir.Y, dir.X}
			half := 0.32
			if pass == 0 {
				half += 0.12
				tip = tip.add(dir.scale(0.1))
				base = base.sub(dir.scale(0.1))
			}
			pts := []pt{tip, base.add(n.scale(half)), base.sub(n.scale(half))}
			var poly []fpdf.PointType
			for _, q := range pts {
				x, y := d.p.xy(q)
				poly = append(poly, fpdf.PointType{X: x, Y: y})
			}
			pdf.SetLineWidth(0.1 * w)
			pdf.MoveTo(poly[0].X, poly[0].Y)
			pdf.LineTo(poly[1].X, poly[1].Y)
			pdf.LineTo(poly[2].X, poly[2].Y)
			pdf.ClosePath()
			pdf.DrawPath("FD")
			if pa.Short {
				// A bar across, just beyond the tip: "stops here".
				bar := tip.add(dir.scale(0.12))
				bw := 0.45
				x0, y0 := d.p.xy(bar.add(n.scale(bw)))
				x1, y1 := d.p.xy(bar.sub(n.scale(bw)))
				pdf.SetLineWidth(lw)
				pdf.Line(x0, y0, x1, y1)
			}
		}
	}
	for i, pa := range d.o.Paths {
		line := lines[i]
		if len(line) == 0 {
			continue
		}
		if c, ok := supplyColours[pa.Supply]; ok {
			q := line[len(line)-1].add(pt{0.42, 0.42})
			x, y := d.p.xy(q)
			pdf.SetLineWidth(math.Max(0.15, 0.05*d.r))
			pdf.SetDrawColor(255, 255, 255)
			fill(pdf, c)
			pdf.Circle(x, y, 0.17*d.r, "FD")
		}
		for _, cp := range pa.Contacts {
			q, ok := d.placePoint(cp)
			if !ok {
				continue
			}
			q = q.add(pt{-0.42, -0.42})
			x, y := d.p.xy(q)
			s := 0.22 * d.r
			pdf.SetFillColor(200, 20, 20)
			pdf.SetDrawColor(255, 255, 255)
			pdf.SetLineWidth(math.Max(0.15, 0.05*d.r))
			pdf.MoveTo(x, y-s)
			pdf.LineTo(x+s, y)
			pdf.LineTo(x, y+s)
			pdf.LineTo(x-s, y)
			pdf.ClosePath()
			pdf.DrawPath("FD")
		}
	}
}

// placePoint is where a path passes through a place, in map units: a hex's
// centre, or the point a sea area's markers stand at.
func (d *drawer) placePoint(pl game.Place) (pt, bool) {
	if !pl.IsSea() {
		if !d.m.InBounds(pl.Hex) {
			return pt{}, false
		}
		return center(pl.Hex), true
	}
	q, ok := d.p.seaAt[pl.Sea]
	return q, ok
}
