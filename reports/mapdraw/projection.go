package mapdraw

import (
	"math"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

const sqrt3 = 1.7320508075688772

// pt is a point in hex units: hexmap.Center's layout, where a hex has
// circumradius 1, x grows east and y south.
type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt             { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt             { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) scale(f float64) pt      { return pt{p.X * f, p.Y * f} }
func (p pt) lerp(q pt, f float64) pt { return p.add(q.sub(p).scale(f)) }
func (p pt) dist(q pt) float64       { return math.Hypot(p.X-q.X, p.Y-q.Y) }
func (p pt) unit() pt {
	l := math.Hypot(p.X, p.Y)
	if l == 0 {
		return p
	}
	return p.scale(1 / l)
}

func center(h game.Hex) pt {
	x, y := hexmap.Center(h)
	return pt{x, y}
}

// corner returns corner i of a flat-topped hex: 0 is the east corner, then
// clockwise on the page (y grows south): 1 lower right … 5 upper right.
func corner(h game.Hex, i int) pt {
	c := center(h)
	a := float64(i%6) * math.Pi / 3
	return pt{c.X + math.Cos(a), c.Y + math.Sin(a)}
}

// sideCorners returns the two corners of h on its side facing d: the north
// side runs between corners 4 and 5, and each direction clockwise moves both
// on by one.
func sideCorners(h game.Hex, d hexmap.Direction) (pt, pt) {
	return corner(h, int(d)+4), corner(h, int(d)+5)
}

// edgeCorners returns the two corners two adjacent hexes share.
func edgeCorners(e hexmap.Edge) (pt, pt, bool) {
	d, ok := hexmap.DirectionTo(e.A, e.B)
	if !ok {
		return pt{}, pt{}, false
	}
	a, b := sideCorners(e.A, d)
	return a, b, true
}

// mapSize returns the extent of the map in hex units.
func mapSize(m *hexmap.Map) (w, h float64) {
	w = 1.5*float64(m.Cols-1) + 2
	h = sqrt3 * float64(m.Rows)
	if m.Cols > 1 {
		h += sqrt3 / 2
	}
	return w, h
}

// hexAt returns the hex whose area holds a point (the nearest centre).
func hexAt(p pt) game.Hex {
	col := int(math.Round((p.X-1)/1.5)) + 1
	best, bestD := game.Hex{}, math.Inf(1)
	for c := col - 1; c <= col+1; c++ {
		off := 0.0
		if c%2 == 0 {
			off = sqrt3 / 2
		}
		row := int(math.Round((p.Y-sqrt3/2-off)/sqrt3)) + 1
		for r := row - 1; r <= row+1; r++ {
			h := game.Hex{Col: c, Row: r}
			// The squared distance orders the centres as the distance
			// does, without Hypot's cost (hexAt is asked nine times for
			// each candidate place of each label).
			q := center(h)
			dx, dy := q.X-p.X, q.Y-p.Y
			if d := dx*dx + dy*dy; d < bestD {
				best, bestD = h, d
			}
		}
	}
	return best
}

// Projection places the map on the page: it turns hexes into page
// coordinates (millimetres from the top-left corner). Draw returns one and
// passes it to Options.Overlay.
type Projection struct {
	m      *hexmap.Map
	x0, y0 float64 // page position of the hex-unit origin
	r      float64 // millimetres per hex unit: a hex's circumradius
	seaAt  map[game.SeaID]pt
	win    *Rect // the clip region of a windowed drawing
	// visMin and visMax bound the hexes a windowed drawing shows in its
	// clip region (the window and whatever else fits round it).
	visMin, visMax game.Hex
	// labels and symbols are what Draw placed (Labels, Symbols).
	labels, symbols []Placed
}

func newProjection(m *hexmap.Map, region Rect) *Projection {
	w, h := mapSize(m)
	r := math.Min(region.W/w, region.H/h)
	return &Projection{
		m:     m,
		r:     r,
		x0:    region.X + (region.W-w*r)/2,
		y0:    region.Y + (region.H-h*r)/2,
		seaAt: map[game.SeaID]pt{},
	}
}

// windowProjection fits the hexes of win (their full outlines) to region.
func windowProjection(m *hexmap.Map, region Rect, win HexWindow) *Projection {
	lo := pt{1.5*float64(win.Min.Col-1) + 1 - 1, sqrt3*float64(win.Min.Row-1) + sqrt3/2 - sqrt3/2}
	hi := pt{1.5*float64(win.Max.Col-1) + 1 + 1, sqrt3*float64(win.Max.Row-1) + sqrt3/2 + sqrt3}
	w, h := hi.X-lo.X, hi.Y-lo.Y
	r := math.Min(region.W/w, region.H/h)
	p := &Projection{
		m:     m,
		r:     r,
		x0:    region.X + (region.W-w*r)/2 - lo.X*r,
		y0:    region.Y + (region.H-h*r)/2 - lo.Y*r,
		seaAt: map[game.SeaID]pt{},
		win:   &Rect{X: region.X, Y: region.Y, W: region.W, H: region.H},
	}
	// The hexes under the region's corners, and one more all round.
	a := hexAt(pt{(region.X - p.x0) / r, (region.Y - p.y0) / r})
	b := hexAt(pt{(region.X + region.W - p.x0) / r, (region.Y + region.H - p.y0) / r})
	p.visMin = game.Hex{Col: max(1, a.Col-1), Row: max(1, a.Row-1)}
	p.visMax = game.Hex{Col: min(m.Cols, b.Col+1), Row: min(m.Rows, b.Row+1)}
	return p
}

// Radius is a hex's circumradius on the page in millimetres (a hex is
// 2·Radius wide corner to corner, √3·Radius side to side).
func (p *Projection) Radius() float64 { return p.r }

// Center returns the page position of a hex's centre.
func (p *Projection) Center(h game.Hex) (x, y float64) { return p.xy(center(h)) }

// Corners returns a hex's outline on the page, from the east corner
// clockwise, ready for Fpdf.Polygon or Fpdf.ClipPolygon.
func (p *Projection) Corners(h game.Hex) []fpdf.PointType {
	out := make([]fpdf.PointType, 6)
	for i := range out {
		x, y := p.xy(corner(h, i))
		out[i] = fpdf.PointType{X: x, Y: y}
	}
	return out
}

// SeaLabel returns the point just below the middle of a sea area's label,
// where Draw lays out markers at sea; an overlay can put its own there. ok is
// false for an unknown area, or when Draw placed no sea labels.
func (p *Projection) SeaLabel(id game.SeaID) (x, y float64, ok bool) {
	q, ok := p.seaAt[id]
	if !ok {
		return 0, 0, false
	}
	x, y = p.xy(q)
	return x, y, true
}

// Bounds returns the page area the map's hexes cover (for a windowed
// drawing, the region the window fills).
func (p *Projection) Bounds() Rect {
	if p.win != nil {
		return *p.win
	}
	w, h := mapSize(p.m)
	return Rect{X: p.x0, Y: p.y0, W: w * p.r, H: h * p.r}
}

func (p *Projection) xy(q pt) (float64, float64) { return p.x0 + q.X*p.r, p.y0 + q.Y*p.r }

func (p *Projection) page(q pt) pt {
	x, y := p.xy(q)
	return pt{x, y}
}

// segment is a line between two points in hex units.
type segment struct{ a, b pt }

// key identifies a point up to rounding, so that a corner computed from two
// hexes is one point.
type key [2]int64

func keyOf(p pt) key { return key{int64(math.Round(p.X * 1e4)), int64(math.Round(p.Y * 1e4))} }

// chain joins segments that meet end to end into polylines, so that thick
// lines get proper joins and the PDF carries each point once. The result
// depends only on the order of segs: the index maps are looked up, never
// ranged over.
func chain(segs []segment) [][]pt {
	at := make(map[key][]int, 2*len(segs))
	for i, s := range segs {
		at[keyOf(s.a)] = append(at[keyOf(s.a)], i)
		at[keyOf(s.b)] = append(at[keyOf(s.b)], i)
	}
	used := make([]bool, len(segs))
	next := func(p pt) (pt, bool) {
		for _, i := range at[keyOf(p)] {
			if used[i] {
				continue
			}
			used[i] = true
			if keyOf(segs[i].a) == keyOf(p) {
				return segs[i].b, true
			}
			return segs[i].a, true
		}
		return pt{}, false
	}
	var out [][]pt
	for i, s := range segs {
		if used[i] {
			continue
		}
		used[i] = true
		fwd := []pt{s.a, s.b}
		for q, ok := next(s.b); ok; q, ok = next(q) {
			fwd = append(fwd, q)
		}
		var back []pt
		for q, ok := next(s.a); ok; q, ok = next(q) {
			back = append(back, q)
		}
		line := make([]pt, 0, len(back)+len(fwd))
		for j := len(back) - 1; j >= 0; j-- {
			line = append(line, back[j])
		}
		out = append(out, append(line, fwd...))
	}
	return out
}

// polyline strokes a chain of hex-unit points.
func (p *Projection) polyline(pdf *fpdf.Fpdf, line []pt) {
	if len(line) < 2 {
		return
	}
	closed := keyOf(line[0]) == keyOf(line[len(line)-1]) && len(line) > 2
	x, y := p.xy(line[0])
	pdf.MoveTo(x, y)
	last := len(line)
	if closed {
		last--
	}
	for _, q := range line[1:last] {
		x, y = p.xy(q)
		pdf.LineTo(x, y)
	}
	if closed {
		pdf.ClosePath()
	}
	pdf.DrawPath("D")
}

func (p *Projection) strokeSegments(pdf *fpdf.Fpdf, segs []segment) {
	for _, line := range chain(segs) {
		p.polyline(pdf, line)
	}
}
