package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
)

// Options says how to print a report. A nil *Options, and every zero field,
// means the default noted on the field.
type Options struct {
	// PageSize is "A4" (default) or "A3", or another fpdf page size name.
	// Text pages are portrait, map pages landscape.
	PageSize string
	// CreationDate is stamped into the PDF; default
	// mapdraw.DefaultCreationDate, never the clock, so the same model always
	// gives the same bytes.
	CreationDate time.Time
	// Taxes is the tax scale the map labels use; default the tax scale of
	// the model's edition (Model.Ruleset). There is no default edition.
	Taxes *ruleset.TaxValues
	// NoZoom leaves out the zoomed map page.
	NoZoom bool
	// Uncompressed writes the page streams uncompressed (for inspection and
	// the benchmarks' count of drawing operations).
	Uncompressed bool

	// prepared is the document Prepare started (prepare.go).
	prepared *preparedDoc
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.PageSize == "" {
		out.PageSize = "A4"
	}
	if out.CreationDate.IsZero() {
		out.CreationDate = mapdraw.DefaultCreationDate
	}
	return out
}

// usedFaces are the faces a report sets text in: headings in DejaVu Sans
// Bold, everything else in DejaVu Sans Condensed, sea areas on the map in
// Sans Oblique. Each face registered costs about 9 ms of CPU per document
// (fpdf parses and subsets it), so regular Sans is left out.
var usedFaces = []fonts.Face{fonts.SansBold, fonts.SansOblique, fonts.CondensedRegular, fonts.CondensedBold}

// Layout of the text pages, in millimetres.
const (
	margin   = 14.0
	bodySize = 9.5
	lineH    = 4.6
)

// doc carries one PDF being written.
type doc struct {
	pdf  *fpdf.Fpdf
	o    Options
	m    *hexmap.Map
	size fpdf.SizeType
	// footer is the text at the foot of every page.
	footer string
}

// newDoc starts a PDF with the report fonts, a fixed date and a footer.
func newDoc(m *hexmap.Map, opts *Options, title, footer string) (*doc, error) {
	o := opts.withDefaults()
	pdf, size, ok, err := o.prepared.take(&o)
	if !ok {
		pdf, size, err = startPDF(&o)
	}
	if err != nil {
		return nil, err
	}
	pdf.SetTitle(title, true)
	d := &doc{pdf: pdf, o: o, m: m, size: size, footer: footer}
	pdf.SetFooterFunc(func() {
		w, h := pdf.GetPageSize()
		pdf.SetFont(fonts.Condensed, "", 7.5)
		pdf.SetTextColor(110, 104, 96)
		s := fmt.Sprintf("%s — page %d", d.footer, pdf.PageNo())
		pdf.Text(w-margin-pdf.GetStringWidth(s), h-7, s)
		pdf.SetTextColor(0, 0, 0)
	})
	return d, nil
}

func (d *doc) portrait()  { d.pdf.AddPageFormat("P", d.size) }
func (d *doc) landscape() { d.pdf.AddPageFormat("L", d.size) }

func (d *doc) finish(w io.Writer) error {
	if err := d.pdf.Error(); err != nil {
		return fmt.Errorf("report PDF: %w", err)
	}
	return d.pdf.Output(w)
}

// heading prints a section heading, starting a new page if fewer than
// 30 mm are left, with a rule under it.
func (d *doc) heading(s string) { d.sectionHeading(s, 30, 3, 13, 7, true) }

// sectionHeading prints a heading in the reports' red: a new page first if
// less than room mm are left, gap mm above, the font size and line height
// given, and a rule under it when rule is set.
func (d *doc) sectionHeading(s string, room, gap, size, lineHeight float64, rule bool) {
	pdf := d.pdf
	_, h := pdf.GetPageSize()
	if pdf.GetY() > h-margin-room {
		pdf.AddPage()
	}
	pdf.Ln(gap)
	pdf.SetFont(fonts.Sans, "B", size)
	pdf.SetTextColor(120, 20, 24)
	pdf.CellFormat(0, lineHeight, s, "", 1, "L", false, 0, "")
	if rule {
		pdf.SetDrawColor(120, 20, 24)
		pdf.SetLineWidth(0.3)
		x, y := pdf.GetXY()
		w, _ := pdf.GetPageSize()
		pdf.Line(x, y, w-margin, y)
		pdf.Ln(1.5)
	}
	pdf.SetTextColor(0, 0, 0)
}

// table prints rows under a header; widths are fractions of the text width.
// Each cell wraps; a row's height is its tallest cell's.
func (d *doc) table(head []string, widths []float64, rows [][]string) {
	pdf := d.pdf
	w, h := pdf.GetPageSize()
	l, _, r, _ := pdf.GetMargins()
	tw := w - l - r
	cols := make([]float64, len(widths))
	for i, f := range widths {
		cols[i] = f * tw
	}
	const size = 8.5
	const lh = 3.9
	drawHead := func() {
		pdf.SetFont(fonts.Condensed, "B", size)
		pdf.SetFillColor(232, 224, 204)
		pdf.SetX(l)
		for i, s := range head {
			pdf.CellFormat(cols[i], lh+1.5, s, "", 0, "L", true, 0, "")
		}
		pdf.Ln(-1)
	}
	drawHead()
	for ri, row := range rows {
		pdf.SetFont(fonts.Condensed, "", size)
		lines := make([][]string, len(row))
		n := 1
		for i, s := range row {
			lines[i] = splitLines(pdf, s, cols[i]-1.5)
			n = max(n, len(lines[i]))
		}
		rh := float64(n)*lh + 1.2
		if pdf.GetY()+rh > h-margin-4 {
			pdf.AddPage()
			drawHead()
			pdf.SetFont(fonts.Condensed, "", size)
		}
		y := pdf.GetY()
		if ri%2 == 1 {
			pdf.SetFillColor(246, 242, 232)
			pdf.Rect(l, y, tw, rh, "F")
		}
		x := l
		for i := range row {
			for k, s := range lines[i] {
				pdf.Text(x+0.75, y+lh*float64(k+1)-0.6, s)
			}
			x += cols[i]
		}
		pdf.SetXY(l, y+rh)
	}
	pdf.Ln(2)
}

// splitLines wraps s to width w in the current font, keeping its newlines.
func splitLines(pdf *fpdf.Fpdf, s string, w float64) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		cur := ""
		for _, word := range strings.Fields(para) {
			try := word
			if cur != "" {
				try = cur + " " + word
			}
			if cur != "" && pdf.GetStringWidth(try) > w {
				out = append(out, cur)
				try = word
			}
			cur = try
		}
		out = append(out, cur)
	}
	return out
}

// Render writes a nation's report PDF: the cover, the masked map of the
// whole continent and a zoomed page round the nation's forces, its forces
// and fleets, scouting, battles, the treasury, treaties and rulings, and the
// order template. The same model and options give the same bytes.
func Render(w io.Writer, md *Model, m *hexmap.Map, opts *Options) error {
	if memo := renderMemo.Load(); memo != nil && md != nil && m != nil {
		return memo.render(w, "nation", md, m, opts, func(w io.Writer) error { return render(w, md, m, opts) })
	}
	return render(w, md, m, opts)
}

// render is Render without the tests' memo.
func render(w io.Writer, md *Model, m *hexmap.Map, opts *Options) error {
	if md == nil || m == nil {
		return errors.New("report: the model and the map are required")
	}
	opts, err := withTaxes(opts, md.Ruleset)
	if err != nil {
		return err
	}
	md = printable(md)
	title := fmt.Sprintf("%s — %s", md.NationName, reportOf(md.Resolved))
	d, err := newDoc(m, opts, title, fmt.Sprintf("%s · %s · %s", md.GameName, md.NationName, reportOf(md.Resolved)))
	if err != nil {
		return err
	}
	d.cover(md)
	d.mapPages(nationMap(md, m), md.NationName)
	d.forcesPages(md)
	d.intelPages(md)
	d.battlePages(md)
	d.moneyPages(md)
	d.templatePage(md.TurnLabel, md.Template)
	return d.finish(w)
}

// reportOf names what a report tells of, as its title and every page's
// footer print it: "report of Turn 1, April 1752" — the turn resolved, never
// the turn the next orders are for — or "starting report" for the opening
// position (resolved "").
func reportOf(resolved string) string {
	if resolved == "" {
		return "starting report"
	}
	return "report of " + resolved
}

func (d *doc) cover(md *Model) {
	pdf := d.pdf
	d.portrait()
	w, _ := pdf.GetPageSize()
	pdf.SetFont(fonts.Condensed, "", 11)
	pdf.SetTextColor(110, 104, 96)
	pdf.CellFormat(0, 6, md.GameName, "", 1, "L", false, 0, "")
	pdf.SetTextColor(0, 0, 0)
	pdf.SetFont(fonts.Sans, "B", 28)
	pdf.CellFormat(0, 14, md.NationName, "", 1, "L", false, 0, "")
	pdf.SetFont(fonts.Sans, "B", 15)
	sub := "Report of " + md.Resolved
	if md.Starting {
		sub = "Starting report — the opening position"
	}
	pdf.CellFormat(0, 8, sub, "", 1, "L", false, 0, "")
	pdf.Ln(2)
	box := func(label, value string) {
		pdf.SetFont(fonts.Condensed, "B", 9)
		pdf.SetTextColor(110, 104, 96)
		pdf.CellFormat(45, 6, label, "", 0, "L", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
		pdf.SetFont(fonts.Sans, "B", 11)
		pdf.CellFormat(0, 6, value, "", 1, "L", false, 0, "")
	}
	box("NEXT ORDERS", md.TurnLabel)
	if md.Deadline != "" {
		box("DEADLINE", md.Deadline)
	} else {
		box("DEADLINE", "to be announced by the referee")
	}
	box("TREASURY", english.Count(md.Treasury.Total, "crown"))
	box("FORCES", fmt.Sprintf("%s, %s, %s", english.Count(len(md.Forces), "land force"), english.Count(len(md.Fleets), "fleet"),
		english.Count(len(md.Depots), "depot")))
	figs := 0
	for _, f := range md.Forces {
		figs += f.Figures
	}
	box("FIGURES", fmt.Sprintf("%d", figs))
	pdf.SetDrawColor(120, 20, 24)
	pdf.SetLineWidth(0.6)
	pdf.Line(margin, pdf.GetY()+3, w-margin, pdf.GetY()+3)
	pdf.Ln(5)
	d.heading("The month")
	d.bullets(md.Summary)
	if len(md.Treasury.Cities) > 0 {
		d.heading("Treasury at a glance")
		var rows [][]string
		for _, c := range md.Treasury.Cities {
			rows = append(rows, []string{c.City, fmt.Sprintf("%d", c.Crowns)})
		}
		rows = append(rows, []string{"Total", fmt.Sprintf("%d", md.Treasury.Total)})
		d.table([]string{"Treasury", "Crowns"}, []float64{0.4, 0.2}, rows)
	}
	d.heading("The nations")
	var rows [][]string
	for _, n := range md.Nations {
		held := 0
		for _, c := range md.Cities {
			if c.Controller == n.ID {
				held++
			}
		}
		state := ""
		if n.Eliminated {
			state = "eliminated"
		}
		rows = append(rows, []string{n.Name, fmt.Sprintf("%d", held), state})
	}
	d.table([]string{"Nation", "Cities held", ""}, []float64{0.4, 0.2, 0.4}, rows)
}

func (d *doc) forcesPages(md *Model) {
	d.portrait()
	d.heading("Your forces")
	var rows [][]string
	for _, f := range md.Forces {
		rows = append(rows, ownRow(f))
	}
	if len(rows) == 0 {
		d.para("You have no land forces.")
	} else {
		d.table([]string{"Force", "Where", "Troops and guns", "Generals", "Orders", "Supply and state"},
			[]float64{0.07, 0.15, 0.28, 0.18, 0.14, 0.18}, rows)
	}
	if len(md.Fleets) > 0 {
		d.heading("Your fleets")
		rows = nil
		for _, f := range md.Fleets {
			rows = append(rows, ownRow(f))
		}
		d.table([]string{"Fleet", "Where", "Ships", "Admirals", "Orders", "Cargo"},
			[]float64{0.07, 0.15, 0.28, 0.18, 0.14, 0.18}, rows)
	}
	if len(md.Depots) > 0 {
		d.heading("Depots")
		rows = nil
		for _, dp := range md.Depots {
			rows = append(rows, []string{dp.ID, dp.Where, strings.TrimSpace(depotNote(md, dp))})
		}
		d.table([]string{"Depot", "Where", ""}, []float64{0.12, 0.3, 0.58}, rows)
	}
	if len(md.Movements) > 0 {
		d.heading("Marches, supply and orders")
		d.bullets(md.Movements)
	}
}

func ownRow(f OwnForce) []string {
	var troops, leaders []string
	for _, t := range f.Troops {
		troops = append(troops, troopText(t))
	}
	for _, g := range f.Guns {
		troops = append(troops, gunsText(g))
	}
	if f.Ships != nil {
		troops = append(troops, shipsText(*f.Ships))
	}
	for _, l := range f.Leaders {
		leaders = append(leaders, leaderText(l))
	}
	orders := fmt.Sprintf("%s, %d MP", f.Stance, f.MP)
	if f.Standing != "" {
		orders += "\n" + f.Standing
	}
	var state []string
	if f.Ships != nil {
		state = append(state, fmt.Sprintf("%s (%d of %d points)", orNone(ids(f.Cargo)), f.CargoPoints, f.CargoCapacity))
	} else {
		state = append(state, fmt.Sprintf("%s, %s", english.Count(f.Figures, "figure"), f.Size))
	}
	if f.Supply != "" {
		state = append(state, f.Supply)
	}
	if f.Exhausted > 0 {
		state = append(state, fmt.Sprintf("%d exhausted", f.Exhausted))
	}
	if f.Garrison {
		state = append(state, "garrison")
	}
	if f.Fieldworks > 0 {
		state = append(state, fmt.Sprintf("fieldworks %d\"", f.Fieldworks))
	}
	if f.Aboard != "" {
		state = append(state, "aboard "+string(f.Aboard))
	}
	return []string{string(f.ID), f.Where, strings.Join(troops, "\n"), strings.Join(leaders, "\n"), orders, strings.Join(state, "\n")}
}

func (d *doc) intelPages(md *Model) {
	d.heading("Scouting")
	if len(md.Scouting) == 0 {
		d.para("Your scouts made no contact this month.")
	} else {
		var rows [][]string
		for _, s := range md.Scouting {
			rows = append(rows, []string{ids(s.Scouts), string(s.Target) + " (" + string(s.Of) + ")", s.Where, s.Level, s.Learned})
		}
		d.table([]string{"Scouts", "Looked at", "Where", "Level", "What they learned"}, []float64{0.1, 0.14, 0.16, 0.1, 0.5}, rows)
	}
	d.heading("Foreign forces")
	var rows [][]string
	for _, f := range md.Foreign {
		rows = append(rows, foreignRow(md, f))
	}
	if len(rows) == 0 {
		d.para("No foreign forces are in the field.")
	} else {
		d.table([]string{"Force", "Nation", "Where", "Size", "What is known"}, []float64{0.08, 0.14, 0.2, 0.14, 0.44}, rows)
	}
	if len(md.LastSeen) > 0 {
		d.heading("Last seen")
		rows = nil
		for _, f := range md.LastSeen {
			r := foreignRow(md, f)
			r[4] = fmt.Sprintf("seen %s (%s ago): %s", f.Seen, english.Count(f.Age, "turn"), r[4])
			rows = append(rows, r)
		}
		d.table([]string{"Force", "Nation", "Where seen", "Size", "What was known"}, []float64{0.08, 0.14, 0.2, 0.14, 0.44}, rows)
	}
}

func foreignRow(md *Model, f Foreign) []string {
	id := string(f.ID)
	if id == "" {
		id = "—"
	}
	size := string(f.Size)
	if f.Ships != "" {
		size = "fleet " + string(f.Ships)
		if f.Size != "" {
			size += ", troops " + string(f.Size)
		}
	}
	known := "size class only"
	if f.Level != "" && f.Level != "size" {
		known = f.Level + ": " + revealedText(f)
	}
	return []string{id, md.nationName(f.Nation), f.Where, size, known}
}

func (d *doc) battlePages(md *Model) {
	d.heading("Battles, sieges and encounters")
	if len(md.Battles) == 0 {
		d.para("Your forces fought no battle this month.")
		return
	}
	d.narratives(md.Battles)
}

func (d *doc) narratives(ns []Narrative) {
	for _, n := range ns {
		d.titled(n.Title)
		for _, t := range n.Text {
			d.para(t)
		}
		d.pdf.Ln(2)
	}
}

func (d *doc) moneyPages(md *Model) {
	d.heading("Treasury")
	// The ledger, whose column adds up to the balance (LedgerRows), then
	// where the balance lies: each crown counted once in each table.
	var rows [][]string
	for i, l := range LedgerRows(md.Treasury) {
		crowns := fmt.Sprintf("%+d", l.Crowns)
		if i == 0 {
			crowns = fmt.Sprintf("%d", l.Crowns)
		}
		rows = append(rows, []string{l.What, l.City, crowns, l.Why})
	}
	rows = append(rows, []string{"Balance", "", fmt.Sprintf("%d", md.Treasury.Total), ""})
	d.table([]string{"Entry", "City", "Crowns", "Why"}, []float64{0.3, 0.2, 0.12, 0.38}, rows)
	if len(md.Treasury.Cities) > 0 {
		rows = nil
		for _, c := range md.Treasury.Cities {
			rows = append(rows, []string{c.City, fmt.Sprintf("%d", c.Crowns)})
		}
		rows = append(rows, []string{"Total", fmt.Sprintf("%d", md.Treasury.Total)})
		d.table([]string{"The balance is held at", "Crowns"}, []float64{0.3, 0.12}, rows)
	}
	if len(md.Treaties) > 0 {
		d.heading("Treaties")
		for _, t := range md.Treaties {
			state := "awaiting attestations"
			if t.Published != "" {
				state = "published " + t.Published
			}
			d.pdf.SetFont(fonts.Sans, "B", 10.5)
			d.pdf.MultiCell(0, 5.5, fmt.Sprintf("%s — %s (%s; %s)", t.ID, t.Title, md.nationNames(t.Parties), state), "", "L", false)
			d.para(t.Text)
			d.pdf.Ln(2)
		}
	}
	d.heading("Rulings")
	if len(md.Rulings) == 0 {
		d.para("The referee made no ruling that concerns you this month.")
	} else {
		d.bullets(md.Rulings)
	}
}

func (d *doc) templatePage(turn, tmpl string) {
	d.portrait()
	d.heading("Order sheet for " + turn)
	d.para("Fill in your password and your orders, and mail this sheet back as it is (the orders are listed in short at its end). Lines starting with # are comments.")
	d.pdf.Ln(2)
	// Template lines are at most TemplateWidth characters and print
	// unwrapped: a wrapped comment would not be a comment any more. Each
	// block (the header, a force's lines, the reference) stays on one
	// page, so no page starts or ends with a stray line of one.
	pdf := d.pdf
	pdf.SetFont(fonts.Condensed, "", 9)
	l, _, _, _ := pdf.GetMargins()
	for i, block := range templateBlocks(tmpl) {
		if i > 0 {
			pdf.Ln(2.5)
		}
		d.block(len(block), 4.2, func(k int) {
			pdf.SetX(l)
			pdf.CellFormat(0, 4.2, block[k], "", 1, "L", false, 0, "")
		})
	}
}

// withTaxes returns the options with the tax scale of the edition named
// when they set none: the map's labels are drawn in the game's own edition,
// never a guessed one.
func withTaxes(opts *Options, edition string) (*Options, error) {
	if opts != nil && opts.Taxes != nil {
		return opts, nil
	}
	rules, err := ruleset.ByID(edition)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var out Options
	if opts != nil {
		out = *opts
	}
	out.Taxes = &rules.Taxes
	return &out, nil
}
