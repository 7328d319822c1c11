package mapdraw

import "fmt"

// PlacedKind says what a Placed box holds.
type PlacedKind string

// The kinds of label and symbol Draw reports.
const (
	CityLabel     PlacedKind = "city label"
	ProvinceLabel PlacedKind = "province label"
	SeaLabel      PlacedKind = "sea label"
	CityBlock     PlacedKind = "city block"
	CityFlag      PlacedKind = "flag"
	CityDisc      PlacedKind = "control disc"
	CityAnchor    PlacedKind = "anchor"
	HoldingDot    PlacedKind = "good-holding dot"
	WindArrow     PlacedKind = "wind arrow"
	Counter       PlacedKind = "counter"
	BattleMark    PlacedKind = "battle mark"
)

// Placed is a label or a symbol as Draw put it on the page: its kind, what
// it belongs to (a city's name, a province's letter, a sea area's ID, a
// counter's label; empty for dots and arrows) and the page area it covers.
type Placed struct {
	Kind PlacedKind
	Name string
	Box  Rect
	// Scale is a label's size as a share of its full size: below 1 where
	// no place was clear at full size (labelSteps). 1 for symbols.
	Scale float64
}

// Labels returns the labels Draw placed, in the order it placed them (city,
// province, sea-area labels), each with the box its text covers. Only
// labels Draw drew are listed; a windowed drawing lists every label,
// including those outside its clip region.
func (p *Projection) Labels() []Placed { return p.labels }

// Symbols returns what labels must keep clear of: city blocks, flags,
// control discs, anchors, good-holding dots, wind arrows and counters, each
// with the box it is drawn in.
func (p *Projection) Symbols() []Placed { return p.symbols }

// obstacle is a page box labels avoid. Only wind arrows may be covered
// (their box is a diagonal's bounding box, mostly empty); everything else
// is a clash.
type obstacle struct {
	box  box
	soft bool
}

func (b box) rect() Rect { return Rect{X: b.x0, Y: b.y0, W: b.x1 - b.x0, H: b.y1 - b.y0} }

// symbol records a symbol drawn in b, and keeps labels off pad (b with a
// margin).
func (d *drawer) symbol(kind PlacedKind, name string, b, pad box) {
	d.p.symbols = append(d.p.symbols, Placed{Kind: kind, Name: name, Box: b.rect(), Scale: 1})
	d.obstacles = append(d.obstacles, obstacle{box: pad, soft: kind == WindArrow})
}

// label records a placed label and keeps later labels off it.
func (d *drawer) label(kind PlacedKind, name string, l labelPlan) {
	d.p.labels = append(d.p.labels, Placed{Kind: kind, Name: name, Box: l.box.rect(), Scale: l.scale})
	keep := l.box
	if l.keep != (box{}) {
		keep = l.keep
	}
	d.obstacles = append(d.obstacles, obstacle{box: keep})
}

// Clashes lists, one line each, every pair of labels whose boxes intersect
// and every label over a symbol it does not belong to (a city's label may
// touch its own city's block, flag and anchor; wind arrows are not
// counted). A windowed drawing counts only what shows in its region. Draw
// places labels so that the list is empty; it is there for tests and for
// checking a map by hand.
func (p *Projection) Clashes() []string {
	view := p.Bounds()
	shows := func(r Rect) bool { return toBox(r).overlap(toBox(view)) > 0 }
	var out []string
	for i, a := range p.labels {
		if !shows(a.Box) {
			continue
		}
		for _, b := range p.labels[i+1:] {
			if shows(b.Box) && toBox(a.Box).overlap(toBox(b.Box)) > 1e-6 {
				out = append(out, fmt.Sprintf("%s %s overlaps %s %s", a.Kind, a.Name, b.Kind, b.Name))
			}
		}
		for _, s := range p.symbols {
			if s.Kind == WindArrow || !shows(s.Box) {
				continue
			}
			if a.Kind == CityLabel && s.Kind != Counter && s.Name == a.Name {
				continue
			}
			if toBox(a.Box).overlap(toBox(s.Box)) > 1e-6 {
				out = append(out, fmt.Sprintf("%s %s covers %s %s", a.Kind, a.Name, s.Kind, s.Name))
			}
		}
	}
	return out
}

func toBox(r Rect) box { return box{r.X, r.Y, r.X + r.W, r.Y + r.H} }
