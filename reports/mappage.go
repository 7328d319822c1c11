package reports

import (
	"math"
	"slices"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/reports/mapdraw"
)

// mapSpec is what a report's map pages show.
type mapSpec struct {
	cities  map[string]mapdraw.CityMarks
	markers []mapdraw.Marker
	// battles are the hexes where the turn's battles and encounters were.
	battles []game.Hex
	// focus are the hexes the zoomed page is drawn round (the nation's
	// forces), with weights (figures).
	focus   []game.Hex
	weights []int
	// supply are the nation's supply lines: force to depot or city.
	supply [][2]game.Hex
	colour mapdraw.RGB
	// nations are listed in the legend.
	nations []game.NationID
	// referee: every force is shown with its ID.
	referee bool
}

// nationMap turns a report model into map overlays: cities by controller
// and siege, own forces with their IDs and size class, foreign forces with
// their size class (and ID only when known), last-seen intelligence faded,
// battles marked.
func nationMap(md *Model, m *hexmap.Map) mapSpec {
	s := mapSpec{cities: map[string]mapdraw.CityMarks{}}
	for _, c := range md.Cities {
		st := game.NotBesieged
		switch c.Siege {
		case "masked":
			st = game.Masked
		case "besieged":
			st = game.Besieged
		}
		s.cities[c.Name] = mapdraw.CityMarks{Controller: c.Controller, Loyalty: c.Loyalty, Siege: st}
	}
	for _, f := range md.Forces {
		if f.Aboard != "" {
			continue
		}
		s.markers = append(s.markers, mapdraw.Marker{At: f.At, Nation: md.Nation, Label: string(f.ID), Size: sizeLetter(string(f.Size))})
		if f.SupplyAt != nil && !f.At.IsSea() && !f.SupplyAt.IsSea() && f.SupplyAt.Hex != f.At.Hex {
			s.supply = append(s.supply, [2]game.Hex{f.At.Hex, f.SupplyAt.Hex})
		}
		if !f.At.IsSea() {
			s.focus = append(s.focus, f.At.Hex)
			s.weights = append(s.weights, max(f.Figures, 1))
		}
	}
	for _, f := range md.Fleets {
		s.markers = append(s.markers, mapdraw.Marker{At: f.At, Nation: md.Nation, Label: string(f.ID), Size: sizeLetter(string(f.Size)), Fleet: true})
	}
	// The front: foreign land forces within three hexes of the nation's
	// own join the zoomed page's focus, with a small weight.
	own := slices.Clone(s.focus)
	for _, f := range md.Foreign {
		if f.At.IsSea() || f.Ships != "" {
			continue
		}
		if slices.ContainsFunc(own, func(h game.Hex) bool { return hexmap.Distance(h, f.At.Hex) <= 3 }) {
			s.focus = append(s.focus, f.At.Hex)
			s.weights = append(s.weights, 1)
		}
	}
	for _, f := range md.Foreign {
		mk := mapdraw.Marker{At: f.At, Nation: f.Nation, Label: string(f.ID), Size: sizeLetter(string(f.Size))}
		if f.Ships != "" {
			mk.Fleet = true
			mk.Size = sizeLetter(string(f.Ships))
		}
		if mk.Label == "" {
			mk.Label = "?"
		}
		s.markers = append(s.markers, mk)
	}
	for _, f := range md.LastSeen {
		// The counter carries the month it was seen: "F3 L Aug".
		size := strings.TrimSpace(sizeLetter(string(f.Size)) + " " + shortMonth(f.Seen))
		mk := mapdraw.Marker{At: f.At, Nation: f.Nation, Label: string(f.ID), Size: size, Faded: true, Fleet: f.Ships != ""}
		s.markers = append(s.markers, mk)
	}
	for _, b := range md.Battles {
		if h, err := game.ParseHex(firstWord(b.Where)); err == nil && m.InBounds(h) {
			s.battles = append(s.battles, h)
		}
	}
	for _, n := range md.Nations {
		s.nations = append(s.nations, n.ID)
	}
	s.colour = mapdraw.NationColour(m, nil, md.Nation)
	return s
}

// shortMonth turns "August 1752" into "Aug", "year-end 1752" into "YE".
func shortMonth(seen string) string {
	f := strings.Fields(seen)
	switch {
	case len(f) == 0:
		return ""
	case f[0] == "year-end":
		return "YE"
	case len(f[0]) > 3:
		return f[0][:3]
	}
	return f[0]
}

// refereeMap shows every force with its ID, size class and owner's colour,
// every city's state and the turn's battles; it has no zoomed page.
func refereeMap(md *RefereeModel, m *hexmap.Map) mapSpec {
	s := nationMap(&Model{Cities: md.Cities, Battles: md.Battles}, m)
	s.referee = true
	s.focus, s.weights = nil, nil
	for _, f := range md.Forces {
		if f.Aboard != "" {
			continue
		}
		s.markers = append(s.markers, mapdraw.Marker{At: f.At, Nation: f.Nation, Label: string(f.ID), Size: sizeLetter(string(f.Size)), Fleet: f.Ships != nil})
	}
	for _, t := range md.Treasuries {
		s.nations = append(s.nations, t.Nation)
	}
	return s
}

func firstWord(s string) string {
	for i, r := range s {
		if r == ' ' {
			return s[:i]
		}
	}
	return s
}

// sizeLetter shortens a size class for a counter: "small" → "S".
func sizeLetter(s string) string {
	if s == "" {
		return ""
	}
	return string(s[0] - 'a' + 'A')
}

// tint colours each province by the nation controlling most of its cities
// (its owner when it has none, none on a tie or when neutral).
func tint(m *hexmap.Map, cities map[string]mapdraw.CityMarks) func(game.Hex) (mapdraw.RGB, bool) {
	byProv := map[string]game.NationID{}
	for _, p := range m.Provinces {
		count := map[game.NationID]int{}
		var order []game.NationID
		for _, c := range m.CitiesOf(p.Letter) {
			ctl := p.Owner
			if cm, ok := cities[c.Name]; ok {
				ctl = cm.Controller
			}
			if count[ctl] == 0 {
				order = append(order, ctl)
			}
			count[ctl]++
		}
		best, bestN, tie := p.Owner, 0, false
		for _, n := range order {
			switch {
			case count[n] > bestN:
				best, bestN, tie = n, count[n], false
			case count[n] == bestN:
				tie = true
			}
		}
		if !tie {
			byProv[p.Letter] = best
		}
	}
	return func(h game.Hex) (mapdraw.RGB, bool) {
		p, ok := m.ProvinceOf(h)
		if !ok {
			return mapdraw.RGB{}, false
		}
		n := byProv[p.Letter]
		if n == game.Neutral {
			return mapdraw.RGB{}, false
		}
		return mapdraw.NationColour(m, nil, n), true
	}
}

// mapPages draws the whole continent on a landscape page and, unless
// switched off or there is nothing to zoom on, a second page enlarged round
// the focus hexes.
func (d *doc) mapPages(s mapSpec, who string) {
	d.mapPage(s, who+" — the continent", mapdraw.HexWindow{})
	if d.o.NoZoom || len(s.focus) == 0 {
		return
	}
	d.mapPage(s, who+" — around your forces", zoomWindow(d.m, s.focus, s.weights))
}

// zoomWindow picks at most 17 × 13 hexes round the focus: their bounding box
// widened by two hexes, or, when that is too big, a box of the largest size
// centred on the focus's weighted centre.
func zoomWindow(m *hexmap.Map, focus []game.Hex, weights []int) mapdraw.HexWindow {
	const maxCols, maxRows, minCols, minRows = 17, 13, 11, 8
	lo, hi := focus[0], focus[0]
	var sx, sy, sw float64
	for i, h := range focus {
		lo.Col, lo.Row = min(lo.Col, h.Col), min(lo.Row, h.Row)
		hi.Col, hi.Row = max(hi.Col, h.Col), max(hi.Row, h.Row)
		w := float64(weights[i])
		sx += w * float64(h.Col)
		sy += w * float64(h.Row)
		sw += w
	}
	lo.Col, lo.Row, hi.Col, hi.Row = lo.Col-2, lo.Row-2, hi.Col+2, hi.Row+2
	cx, cy := float64(lo.Col+hi.Col)/2, float64(lo.Row+hi.Row)/2
	cols, rows := hi.Col-lo.Col+1, hi.Row-lo.Row+1
	if cols > maxCols || rows > maxRows {
		cx, cy = sx/sw, sy/sw
	}
	cols = min(max(cols, minCols), maxCols, m.Cols)
	rows = min(max(rows, minRows), maxRows, m.Rows)
	c0 := int(math.Round(cx - float64(cols-1)/2))
	r0 := int(math.Round(cy - float64(rows-1)/2))
	c0 = min(max(c0, 1), m.Cols-cols+1)
	r0 = min(max(r0, 1), m.Rows-rows+1)
	return mapdraw.HexWindow{Min: game.Hex{Col: c0, Row: r0}, Max: game.Hex{Col: c0 + cols - 1, Row: r0 + rows - 1}}
}

const legendW = 62.0

func (d *doc) mapPage(s mapSpec, title string, win mapdraw.HexWindow) {
	pdf := d.pdf
	d.landscape()
	pdf.SetAutoPageBreak(false, 0)
	defer pdf.SetAutoPageBreak(true, margin+4)
	w, h := pdf.GetPageSize()
	const m = 10.0
	region := mapdraw.Rect{X: m + 3, Y: m + 3, W: w - 2*m - legendW - 8, H: h - 2*m - 9}
	// Where hexes come out under 1.5 mm across (a big map on one page), hex
	// numbers, terrain marks and the grid would be unreadable ink: leave
	// them out; the zoomed page has them.
	var hide mapdraw.Layer
	cols, rows := d.m.Cols, d.m.Rows
	if !win.IsZero() {
		cols, rows = win.Max.Col-win.Min.Col+1, win.Max.Row-win.Min.Row+1
	}
	if r := math.Min(region.W/(1.5*float64(cols)+0.5), region.H/(1.7320508*float64(rows)+0.87)); r < 0.75 {
		hide = mapdraw.LayerHexNumbers | mapdraw.LayerTerrainSymbols | mapdraw.LayerGrid
	}
	mapdraw.Draw(pdf, d.m, &mapdraw.Options{
		Hide:    hide,
		Region:  region,
		Window:  win,
		Cities:  s.cities,
		Taxes:   d.o.Taxes,
		Markers: s.markers,
		Battles: s.battles,
		Tint:    tint(d.m, s.cities),
		Overlay: func(pdf *fpdf.Fpdf, p *mapdraw.Projection) {
			if len(s.supply) > 0 {
				pdf.SetDrawColor(s.colour.R, s.colour.G, s.colour.B)
				pdf.SetLineWidth(math.Max(0.25, 0.07*p.Radius()))
				pdf.SetDashPattern([]float64{1.2, 0.8}, 0)
				pdf.SetAlpha(0.8, "Normal")
				for _, l := range s.supply {
					x0, y0 := p.Center(l[0])
					x1, y1 := p.Center(l[1])
					pdf.Line(x0, y0, x1, y1)
				}
				pdf.SetAlpha(1, "Normal")
				pdf.SetDashPattern(nil, 0)
			}
		},
	})
	// The legend ends at the text pages' margin, as the footer does.
	lx := w - m - legendW
	d.mapLegend(s, title, lx, m, w-margin-lx, h-2*m)
}

// mapLegend explains the overlays in a column w mm wide: every label wraps
// inside it, so the legend keeps the page's margin on its right.
func (d *doc) mapLegend(s mapSpec, title string, x, y, w, h float64) {
	pdf := d.pdf
	pdf.SetFont(fonts.Sans, "B", 12)
	pdf.SetTextColor(20, 20, 20)
	yy := y + 4
	for _, l := range splitLines(pdf, title, w) {
		pdf.Text(x, yy, l)
		yy += 5.5
	}
	yy += 2
	line := func(label string, draw func(cx, cy float64)) {
		draw(x+4, yy-1.2)
		pdf.SetFont(fonts.Condensed, "", 8.5)
		pdf.SetTextColor(20, 20, 20)
		for i, l := range splitLines(pdf, label, w-11) {
			if i > 0 {
				yy += 3.8
			}
			pdf.Text(x+11, yy, l)
		}
		yy += 5.5
	}
	sub := func(t string) {
		yy += 1.5
		pdf.SetFont(fonts.Condensed, "B", 9)
		pdf.SetTextColor(120, 20, 24)
		pdf.Text(x, yy, t)
		yy += 5
	}
	sub("Nations (counter, province tint)")
	for _, n := range s.nations {
		c := mapdraw.NationColour(d.m, nil, n)
		line(nationName(d.m, n), func(cx, cy float64) {
			pdf.SetFillColor(c.R, c.G, c.B)
			pdf.SetDrawColor(20, 20, 20)
			pdf.SetLineWidth(0.15)
			pdf.Rect(cx-3, cy-1.6, 6, 3.2, "FD")
		})
	}
	sub("Counters")
	counter := func(lbl string, faded, fleet bool) func(cx, cy float64) {
		return func(cx, cy float64) {
			pdf.SetFillColor(200, 200, 200)
			pdf.SetDrawColor(20, 20, 20)
			pdf.SetLineWidth(0.15)
			if faded {
				pdf.SetAlpha(0.45, "Normal")
				pdf.SetDashPattern([]float64{0.6, 0.4}, 0)
			}
			if fleet {
				pdf.RoundedRect(cx-3.5, cy-1.6, 7, 3.2, 1.6, "1234", "FD")
			} else {
				pdf.Rect(cx-3.5, cy-1.6, 7, 3.2, "FD")
			}
			pdf.SetAlpha(1, "Normal")
			pdf.SetDashPattern(nil, 0)
			pdf.SetFont(fonts.Condensed, "B", 6)
			pdf.SetTextColor(20, 20, 20)
			pdf.Text(cx-pdf.GetStringWidth(lbl)/2, cy+0.9, lbl)
		}
	}
	if s.referee {
		line("a force: ID and size class", counter("ID L", false, false))
	} else {
		line("your force: ID and size class", counter("ID L", false, false))
		line("foreign force: size class only", counter("? L", false, false))
		line("foreign force, named or scouted", counter("ID L", false, false))
		line("last seen (faded): see Last seen", counter("ID L", true, false))
	}
	line("fleet (rounded)", counter("ID S", false, true))
	line("S small, L large, H huge", func(cx, cy float64) {})
	sub("Marks")
	line("battle or encounter this month", func(cx, cy float64) { mapdraw.DrawBattleMark(pdf, cx, cy, 1.8) })
	if !s.referee {
		line("supply line: force to its depot or city", func(cx, cy float64) {
			pdf.SetDrawColor(s.colour.R, s.colour.G, s.colour.B)
			pdf.SetLineWidth(0.35)
			pdf.SetDashPattern([]float64{1.2, 0.8}, 0)
			pdf.Line(cx-4, cy, cx+4, cy)
			pdf.SetDashPattern(nil, 0)
		})
		line("last seen: counter with the month seen", func(cx, cy float64) {})
	}
	line("city besieged (solid) / masked (dashed ring)", func(cx, cy float64) {
		pdf.SetDrawColor(190, 20, 20)
		pdf.SetLineWidth(0.3)
		pdf.Circle(cx, cy, 2, "D")
	})
	line("flag: the nation holding the city", func(cx, cy float64) {
		pdf.SetDrawColor(20, 20, 20)
		pdf.SetLineWidth(0.2)
		pdf.Line(cx-1, cy+1.6, cx-1, cy-1.6)
		pdf.SetFillColor(120, 120, 120)
		pdf.Rect(cx-1, cy-1.6, 2.4, 1.6, "FD")
	})
	line("disc: the nation a city is loyal to, where another holds it", func(cx, cy float64) {
		pdf.SetDrawColor(20, 20, 20)
		pdf.SetLineWidth(0.15)
		pdf.SetFillColor(120, 120, 120)
		pdf.Circle(cx, cy, 1.2, "FD")
	})
	if yy < y+h-10 {
		pdf.SetFont(fonts.Condensed, "", 7.5)
		pdf.SetTextColor(90, 84, 76)
		for _, l := range splitLines(pdf, "Terrain, roads, rivers, provinces, cities and winds follow the rules' map key. Hex numbers read column then row.", w) {
			yy += 3.6
			pdf.Text(x, yy, l)
		}
	}
	pdf.SetTextColor(0, 0, 0)
}
