package mapdraw

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// Page layout of Render, in millimetres.
const (
	pageMargin = 10.0
	sideWidth  = 80.0 // landscape: the column right of the map with title and legend
	titleBand  = 21.0 // portrait: the band above the map
	legendBand = 80.0 // portrait: the band under the map
	gutter     = 6.0  // between the map's frame and the panels
	frameRoom  = 3.0  // the map's frame lies this far outside its hexes
)

// sheet is the page layout Render uses.
type sheet struct {
	orientation string // "L" or "P"
	mapArea     Rect   // where the hexes go
	title       Rect   // title block
	legend      Rect   // the key
}

// Render writes a one-page PDF of the whole map: the map with a title block,
// compass, scale bar and legend in a column beside it (landscape) or in bands
// above and below it (portrait), on Options.PageSize paper (A3 by default)
// turned whichever way draws the hexes larger — landscape unless the map is
// tall. The output depends only on m and opts: the same input gives the same
// bytes.
func Render(w io.Writer, m *hexmap.Map, opts *Options) error {
	if m == nil || m.Cols <= 0 || m.Rows <= 0 || len(m.Terrain) < m.Cols*m.Rows {
		return errors.New("map drawing: the map has no hexes; load or build the map before drawing it")
	}
	o := opts.withDefaults()
	sh, ok := layout(m, o.PageSize)
	if !ok {
		return fmt.Errorf("map drawing: unknown page size %q: expected A2, A3, A4, A5, Letter, Legal or Tabloid", o.PageSize)
	}
	if o.Taxes == nil {
		return errNoTaxes
	}
	pdf := fpdf.New(sh.orientation, "mm", o.PageSize, "")
	pdf.SetCreationDate(o.CreationDate)
	pdf.SetModificationDate(o.CreationDate)
	pdf.SetCatalogSort(true)
	pdf.SetMargins(pageMargin, pageMargin, pageMargin)
	pdf.SetAutoPageBreak(false, 0)
	title := o.Title
	if title == "" {
		title = "SYW Big Game Campaign — " + m.Name
	}
	pdf.SetTitle(title, true)
	pdf.SetCreator("pbem", true)
	fonts.Register(pdf, usedFaces...)
	pdf.AddPage()

	o.Region = sh.mapArea
	p := Draw(pdf, m, &o)
	d := &drawer{pdf: pdf, m: m, o: &o, p: p, r: p.r, k: 1}
	bottom := d.titleBlock(title, sh.title)
	if o.shows(LayerLegend) {
		area := sh.legend
		if sh.orientation == "L" {
			area.H -= bottom + 4 - area.Y
			area.Y = bottom + 4
		}
		d.legend(area)
	}
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("map drawing: %w", err)
	}
	return pdf.Output(w)
}

// layout picks the orientation that draws the hexes larger, landscape on a
// tie; ok is false for an unknown page size.
func layout(m *hexmap.Map, size string) (sheet, bool) {
	sz, ok := pageSizes[strings.ToUpper(size)]
	if !ok {
		return sheet{}, false
	}
	mw, mh := mapSize(m)
	inset := pageMargin + frameRoom
	// Landscape: the map fills the left, title and legend share a column.
	lw, lh := math.Max(sz[0], sz[1]), math.Min(sz[0], sz[1])
	side := Rect{X: lw - pageMargin - sideWidth, Y: pageMargin, W: sideWidth, H: lh - 2*pageMargin}
	land := sheet{
		orientation: "L",
		mapArea:     Rect{X: inset, Y: inset, W: side.X - gutter - frameRoom - inset, H: lh - 2*inset},
		title:       side,
		legend:      side,
	}
	// Portrait: title above the map, legend below.
	pw, ph := lh, lw
	top := pageMargin + titleBand + gutter
	port := sheet{
		orientation: "P",
		mapArea:     Rect{X: inset, Y: top + frameRoom, W: pw - 2*inset, H: ph - top - 2*frameRoom - gutter - legendBand - pageMargin},
		title:       Rect{X: pageMargin, Y: pageMargin, W: pw - 2*pageMargin, H: titleBand},
		legend:      Rect{X: pageMargin, Y: ph - pageMargin - legendBand, W: pw - 2*pageMargin, H: legendBand},
	}
	scale := func(s sheet) float64 { return math.Min(s.mapArea.W/mw, s.mapArea.H/mh) }
	if scale(port) > scale(land)*1.02 {
		return port, true
	}
	return land, true
}

// pageSizes are fpdf's named sizes, portrait, in millimetres.
var pageSizes = map[string][2]float64{
	"A2": {420, 594}, "A3": {297, 420}, "A4": {210, 297}, "A5": {148, 210},
	"LETTER": {215.9, 279.4}, "LEGAL": {215.9, 355.6}, "TABLOID": {279.4, 431.8},
}

// wrap breaks s into lines no wider than w in the current font.
func wrap(pdf *fpdf.Fpdf, s string, w float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && pdf.GetStringWidth(try) > w {
			lines = append(lines, cur)
			try = word
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// titleBlock prints the title, subtitle, scale bar and compass in area and
// returns the lowest point it used. A narrow area (the landscape column)
// stacks them; a wide one (the portrait band) puts the title left and the
// compass right.
func (d *drawer) titleBlock(title string, area Rect) float64 {
	pdf := d.pdf
	sub := d.o.Subtitle
	if sub == "" {
		sub = fmt.Sprintf("%s · %s · %s · %d×%d hexes", english.Count(len(d.m.Provinces), "province"),
			english.Count(len(d.m.Cities), "city"), english.Count(len(d.m.Seas), "sea area"), d.m.Cols, d.m.Rows)
	}
	narrow := area.W < 150
	textW := area.W
	if !narrow {
		textW = area.W - 80
	}
	// A title too long for one line breaks after its dash ("SYW Big Game
	// Campaign — The Continent"), and shrinks until its longest part fits.
	size := 20.0
	if narrow {
		size = 18
	}
	pdf.SetFont(fonts.Sans, "B", size)
	parts := []string{title}
	if pdf.GetStringWidth(title) > textW {
		parts = strings.SplitAfter(title, "—")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
	}
	widest := 0.0
	for _, p := range parts {
		widest = math.Max(widest, pdf.GetStringWidth(p))
	}
	if widest > textW {
		size = math.Max(11, size*textW/widest)
		pdf.SetFont(fonts.Sans, "B", size)
	}
	ink(pdf, colBorder)
	y := area.Y
	for _, p := range parts {
		for _, l := range wrap(pdf, p, textW) {
			y += size * mmPerPt * 1.2
			pdf.Text(area.X, y, l)
		}
	}
	pdf.SetFont(fonts.Condensed, "", 10)
	ink(pdf, RGB{70, 66, 60})
	y += 1.5
	for _, l := range wrap(pdf, sub, textW) {
		y += 10 * mmPerPt * 1.25
		pdf.Text(area.X, y, l)
	}
	if narrow {
		y += 5
		d.scaleBar(area.X, y+9)
		drawCompass(pdf, area.X+area.W-9, y+7.5, 7.5)
		y += 17
	} else {
		right := area.X + area.W
		drawCompass(pdf, right-8, area.Y+area.H/2+1, 7.5)
		d.scaleBar(right-float64(d.scaleHexes())*sqrt3*d.r-24, area.Y+12)
		y = area.Y + area.H
	}
	stroke(pdf, colBorder)
	pdf.SetLineWidth(0.3)
	pdf.Line(area.X, y, area.X+area.W, y)
	return y
}

// drawCompass draws a north arrow of half-length s centred at (x, y).
func drawCompass(pdf *fpdf.Fpdf, x, y, s float64) {
	w := s * 0.3
	stroke(pdf, colBorder)
	pdf.SetLineWidth(0.2)
	fill(pdf, colBorder)
	pdf.Polygon([]fpdf.PointType{{X: x, Y: y - s}, {X: x - w, Y: y + s*0.15}, {X: x, Y: y}}, "FD")
	fill(pdf, colPaper)
	pdf.Polygon([]fpdf.PointType{{X: x, Y: y - s}, {X: x + w, Y: y + s*0.15}, {X: x, Y: y}}, "FD")
	pdf.Polygon([]fpdf.PointType{{X: x, Y: y + s*0.6}, {X: x - w*0.55, Y: y + s*0.1}, {X: x, Y: y}, {X: x + w*0.55, Y: y + s*0.1}}, "D")
	pdf.SetFont(fonts.Sans, "B", 9)
	ink(pdf, colBorder)
	tw := pdf.GetStringWidth("N")
	pdf.Text(x-tw/2, y-s-1.2, "N")
}

// scaleBar draws a bar of up to four hexes (0 to 100 miles), no longer
// than about 50 mm, from left at baseline y: a hex is 25 miles across its
// flat sides, √3 hex radii on the page.
func (d *drawer) scaleBar(left, y float64) {
	pdf := d.pdf
	seg := sqrt3 * d.r
	n := d.scaleHexes()
	stroke(pdf, colBorder)
	pdf.SetLineWidth(0.2)
	for i := range n {
		if i%2 == 0 {
			fill(pdf, colBorder)
		} else {
			fill(pdf, colPaper)
		}
		pdf.Rect(left+float64(i)*seg, y-1.6, seg, 1.6, "FD")
	}
	pdf.SetFont(fonts.Condensed, "", 6.5)
	ink(pdf, colBorder)
	for i := 0; i <= n; i++ {
		s := fmt.Sprint(25 * i)
		pdf.Text(left+float64(i)*seg-pdf.GetStringWidth(s)/2, y+3.2, s)
	}
	pdf.Text(left+float64(n)*seg+3, y+3.2, "miles")
	pdf.Text(left, y-2.6, "Scale: one hex is 25 miles across")
}

// scaleHexes is the number of hexes the scale bar spans.
func (d *drawer) scaleHexes() int { return max(1, min(4, int(50/(sqrt3*d.r)))) }
