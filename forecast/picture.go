package forecast

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
)

// PictureName is the attachment's file name for turn n.
func PictureName(n int) string { return fmt.Sprintf("forecast-turn-%d.pdf", n) }

// PictureNote is the line the answer's text ends with when the map of turn
// n is attached.
func PictureNote(n int) string {
	return "\nThe map of these moves is attached (" + PictureName(n) + ").\n"
}

// Picture writes the forecast's map as a one-page A4 PDF: the nation's
// theatre (the hexes round its forces and their paths) drawn by the reports'
// map drawing in the nation's fog — the cities as its view holds them, its
// own forces where they stand with their IDs, foreign forces by size class
// as its view shows them — with each planned path as an arrow (mapdraw
// Options.Paths), a bar where a force stops short, its supply as a disc at
// the end, and a red diamond where a known foreign force is on the way.
// The PDF's dates are fixed: the same forecast gives the same bytes.
func (fc *Forecast) Picture(w io.Writer, m *hexmap.Map, rules *ruleset.Ruleset) error {
	v := fc.view
	if v == nil {
		return fmt.Errorf("forecast: no view to draw")
	}
	pdf := fpdf.New("L", "mm", "A4", "")
	pdf.SetCreationDate(mapdraw.DefaultCreationDate)
	pdf.SetModificationDate(mapdraw.DefaultCreationDate)
	pdf.SetCatalogSort(true)
	title := fmt.Sprintf("Forecast — %s, %s", nationName(m, fc.Nation), fc.Label)
	pdf.SetTitle(title, true)
	pdf.SetCreator("pbem", true)
	pdf.SetMargins(10, 10, 10)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	pw, ph := pdf.GetPageSize()

	cities := map[string]mapdraw.CityMarks{}
	for _, c := range v.Cities {
		cities[c.Name] = mapdraw.CityMarks{Controller: c.Controller, Loyalty: c.Loyalty, Siege: c.Siege}
	}
	var markers []mapdraw.Marker
	for _, f := range v.Own {
		if f.Aboard != "" {
			continue
		}
		size := rules.SizeClasses.Troops(f.FightingFigures())
		if f.IsFleet() {
			size = rules.SizeClasses.Ships(f.Ships.Total())
		}
		markers = append(markers, mapdraw.Marker{At: f.At, Nation: fc.Nation, Label: string(f.ID), Size: sizeLetter(size), Fleet: f.IsFleet()})
	}
	for _, f := range v.Foreign {
		if f.Aboard != "" {
			continue
		}
		mk := mapdraw.Marker{At: f.At, Nation: f.Nation, Label: string(f.ID), Size: sizeLetter(f.Size)}
		if f.Ships != "" {
			mk.Fleet, mk.Size = true, sizeLetter(f.Ships)
		}
		markers = append(markers, mk)
	}
	paths, focus := fc.paths()
	region := mapdraw.Rect{X: 10, Y: 18, W: pw - 20, H: ph - 18 - 19}
	win := fitWindow(m, theatre(m, focus), region)
	if !win.IsZero() {
		// Counters outside the window would be drawn and clipped: leave
		// them out of the PDF (fleets at sea, few, all stay).
		markers = slices.DeleteFunc(markers, func(mk mapdraw.Marker) bool {
			h := mk.At.Hex
			return !mk.At.IsSea() && (h.Col < win.Min.Col-1 || h.Col > win.Max.Col+1 || h.Row < win.Min.Row-1 || h.Row > win.Max.Row+1)
		})
	}
	// Where hexes come out under 5 mm (a wide theatre), hex numbers and
	// terrain marks would be barely readable ink that swells the PDF past
	// its 300 KB: leave them out, as the reports' map pages do for small
	// hexes (the text names every hex of a path).
	var hide mapdraw.Layer
	cols, rows := m.Cols, m.Rows
	if !win.IsZero() {
		cols, rows = win.Max.Col-win.Min.Col+1, win.Max.Row-win.Min.Row+1
	}
	if r := math.Min(region.W/(1.5*float64(cols)+0.5), region.H/(1.7320508*float64(rows)+0.87)); r < 5 {
		hide = mapdraw.LayerHexNumbers | mapdraw.LayerTerrainSymbols
	}
	mapdraw.Draw(pdf, m, &mapdraw.Options{
		Hide:    hide,
		Region:  region,
		Window:  win,
		Cities:  cities,
		Taxes:   &rules.Taxes,
		Markers: markers,
		Paths:   paths,
	})
	pdf.SetFont(fonts.Sans, "B", 13)
	pdf.SetTextColor(20, 20, 20)
	pdf.Text(10, 14, title)
	pdf.SetFont(fonts.Condensed, "", 8.5)
	pdf.SetTextColor(60, 56, 50)
	legend := []string{
		"Arrows: the moves your orders plan (dashed: fleets), worked out on what you know, as if no foreign force moved.",
		"A bar across an arrow's head: the force stops short of its orders there. Disc at the end: green supplied, amber a line foreign forces could cut, red unsupplied. Red diamond: a known foreign force on the way (contact likely).",
	}
	y := ph - 11.5
	for _, l := range legend {
		for _, part := range splitWidth(pdf, l, pw-20) {
			pdf.Text(10, y, part)
			y += 3.6
		}
	}
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("forecast map: %w", err)
	}
	return pdf.Output(w)
}

// PictureBytes is Picture into memory.
func (fc *Forecast) PictureBytes(m *hexmap.Map, rules *ruleset.Ruleset) ([]byte, error) {
	var b bytes.Buffer
	if err := fc.Picture(&b, m, rules); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// paths turns the forecast into the map's arrows, and lists the hexes the
// picture must show.
func (fc *Forecast) paths() ([]mapdraw.Path, []game.Hex) {
	var out []mapdraw.Path
	var focus []game.Hex
	for _, ff := range fc.Forces {
		pa := mapdraw.Path{Nation: fc.Nation, Places: []game.Place{ff.Start}, Short: ff.Stopped != ""}
		for _, s := range ff.Path {
			pa.Places = append(pa.Places, s.At)
		}
		if !ff.Landed.IsZero() {
			pa.Places = append(pa.Places, game.AtHex(ff.Landed))
		}
		switch {
		case !ff.NeedsSupply || ff.Aboard != "" && ff.Landed.IsZero():
		case !ff.Supplied:
			pa.Supply = mapdraw.Unsupplied
		case ff.SupplyAtRisk:
			pa.Supply = mapdraw.SupplyAtRisk
		default:
			pa.Supply = mapdraw.Supplied
		}
		for _, c := range ff.Contacts {
			pa.Contacts = append(pa.Contacts, c.At)
		}
		if ff.Aboard != "" && ff.Landed.IsZero() && len(ff.Path) == 0 {
			continue // carried: the fleet's arrow shows it
		}
		for _, p := range pa.Places {
			if !p.IsSea() && !p.IsZero() {
				focus = append(focus, p.Hex)
			}
		}
		out = append(out, pa)
	}
	for _, fl := range fc.Fleets {
		pa := mapdraw.Path{Nation: fc.Nation, Places: []game.Place{fl.Start}, Short: fl.Stopped != "", Fleet: true}
		for _, s := range fl.Path {
			pa.Places = append(pa.Places, s.At)
		}
		for _, c := range fl.Contacts {
			pa.Contacts = append(pa.Contacts, c.At)
		}
		for _, p := range pa.Places {
			if !p.IsSea() && !p.IsZero() {
				focus = append(focus, p.Hex)
			}
		}
		out = append(out, pa)
	}
	return out, focus
}

// theatre is the window of hexes the picture shows: the focus hexes' box
// widened by two hexes, at least 13 × 9 and at most 40 × 28 (on one A4
// page a hex stays about 4.5 mm across: a wider box is centred on the
// focus's middle hexes, the median, and what lies outside is cut), within
// the map; the whole map when the box covers most of it.
func theatre(m *hexmap.Map, focus []game.Hex) mapdraw.HexWindow {
	if len(focus) == 0 {
		return mapdraw.HexWindow{}
	}
	lo, hi := focus[0], focus[0]
	for _, h := range focus {
		lo.Col, lo.Row = min(lo.Col, h.Col), min(lo.Row, h.Row)
		hi.Col, hi.Row = max(hi.Col, h.Col), max(hi.Row, h.Row)
	}
	const minCols, minRows, maxCols, maxRows = 13, 9, 40, 28
	cap := func(a, b, limit int, of func(game.Hex) int) (int, int) {
		if b-a+1+4 <= limit {
			return a, b
		}
		vals := make([]int, len(focus))
		for i, h := range focus {
			vals[i] = of(h)
		}
		slices.Sort(vals)
		mid := vals[len(vals)/2]
		return mid - (limit-4)/2, mid - (limit-4)/2 + limit - 5
	}
	lo.Col, hi.Col = cap(lo.Col, hi.Col, maxCols, func(h game.Hex) int { return h.Col })
	lo.Row, hi.Row = cap(lo.Row, hi.Row, maxRows, func(h game.Hex) int { return h.Row })
	grow := func(a, b, least, limit int) (int, int) {
		a, b = a-2, b+2
		for b-a+1 < least {
			a, b = a-1, b+1
		}
		if a < 1 {
			b += 1 - a
			a = 1
		}
		if b > limit {
			a -= b - limit
			b = limit
		}
		return max(a, 1), b
	}
	lo.Col, hi.Col = grow(lo.Col, hi.Col, minCols, m.Cols)
	lo.Row, hi.Row = grow(lo.Row, hi.Row, minRows, m.Rows)
	if (hi.Col-lo.Col+1)*(hi.Row-lo.Row+1)*10 > m.Cols*m.Rows*7 {
		return mapdraw.HexWindow{}
	}
	return mapdraw.HexWindow{Min: lo, Max: hi}
}

// fitWindow widens a window to the region's shape, as the map drawing
// fills the region with it (mapdraw's window projection), so that the
// window holds every hex the page shows and the counters kept for it are
// all those shown.
func fitWindow(m *hexmap.Map, win mapdraw.HexWindow, region mapdraw.Rect) mapdraw.HexWindow {
	if win.IsZero() {
		return win
	}
	const sqrt3 = 1.7320508075688772
	cols, rows := win.Max.Col-win.Min.Col+1, win.Max.Row-win.Min.Row+1
	w := 1.5*float64(cols-1) + 2
	h := sqrt3*float64(rows-1) + 1.5*sqrt3
	aspect := region.W / region.H
	widen := func(lo, hi, want, limit int) (int, int) {
		extra := want - (hi - lo + 1)
		if extra <= 0 {
			return lo, hi
		}
		lo -= extra / 2
		hi += extra - extra/2
		if lo < 1 {
			hi += 1 - lo
			lo = 1
		}
		if hi > limit {
			lo -= hi - limit
			hi = limit
		}
		return max(lo, 1), hi
	}
	if w/h < aspect {
		want := int(math.Ceil((aspect*h-2)/1.5)) + 1
		win.Min.Col, win.Max.Col = widen(win.Min.Col, win.Max.Col, want, m.Cols)
	} else {
		want := int(math.Ceil((w/aspect-1.5*sqrt3)/sqrt3)) + 1
		win.Min.Row, win.Max.Row = widen(win.Min.Row, win.Max.Row, want, m.Rows)
	}
	return win
}

// sizeLetter is the counter's size letter: "S", "L", "H".
func sizeLetter(c ruleset.SizeClass) string {
	if c == "" {
		return ""
	}
	return strings.ToUpper(string(c)[:1])
}

// splitWidth breaks s into lines no wider than w mm in the current font.
func splitWidth(pdf *fpdf.Fpdf, s string, w float64) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if pdf.GetStringWidth(try) > w && line != "" {
			out = append(out, line)
			line = word
			continue
		}
		line = try
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
