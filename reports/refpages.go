package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// The referee's first page (the turn at a glance) and the dice appendix.

// glanceHeading is a section heading of the first page: smaller than
// heading, so the whole turn fits on one page.
func (d *doc) glanceHeading(s string) { d.sectionHeading(s, 20, 1.5, 10.5, 5.5, false) }

// glancePage prints the turn at a glance under the title.
func (d *doc) glancePage(md *RefereeModel) {
	g := md.Glance
	if g == nil {
		g = &Glance{}
	}
	if len(g.Attention) > 0 {
		d.glanceHeading("Needs your attention")
		d.bullets(g.Attention)
	}
	d.glanceHeading("Orders")
	if len(g.Orders) == 0 {
		d.para("No orders were due (the opening position).")
	} else {
		var rows [][]string
		for _, o := range g.Orders {
			st := o.Status
			if o.NMRTurns > 0 {
				st += fmt.Sprintf(" (%s running)", english.Count(o.NMRTurns, "turn"))
			}
			if o.Errors > 0 {
				st += fmt.Sprintf("; %s", english.Count(o.Errors, "error"))
			}
			if o.Refused > 0 {
				st += fmt.Sprintf("; %s refused", english.Count(o.Refused, "sheet"))
			}
			rows = append(rows, []string{o.Name, st, o.Received, o.From, o.Receipt})
		}
		d.table([]string{"Nation", "Orders", "Received", "From", "Receipt"}, []float64{0.14, 0.22, 0.27, 0.25, 0.12}, rows)
		if len(md.Missing) > 0 {
			d.para("No orders (NMR), held on DEFEND: " + ids2(md.Missing) + ".")
		}
	}
	d.glanceHeading("Battles, sieges and assaults")
	if len(g.Clashes) == 0 {
		d.para("No fighting this turn.")
	} else {
		var rows [][]string
		for _, c := range g.Clashes {
			rows = append(rows, []string{c.Kind, c.Place, c.Sides, c.Outcome})
		}
		d.table([]string{"What", "Where", "Sides", "Outcome"}, []float64{0.1, 0.17, 0.43, 0.3}, rows)
	}
	if len(g.Captures)+len(g.Losses) > 0 {
		d.glanceHeading("Captures and losses")
		d.bullets(append(append([]string(nil), g.Captures...), g.Losses...))
	}
	d.glanceHeading("Treasuries")
	change := map[string]MoneyChange{}
	for _, c := range g.Money {
		change[string(c.Nation)] = c
	}
	var rows [][]string
	for _, t := range md.Treasuries {
		ch, why := "—", ""
		if c, ok := change[string(t.Nation)]; ok {
			ch, why = fmt.Sprintf("%+d", c.Change), c.Why
		}
		var cs []string
		for _, c := range t.Cities {
			cs = append(cs, fmt.Sprintf("%s %d", c.City, c.Crowns))
		}
		rows = append(rows, []string{t.Name, fmt.Sprint(t.Total), strings.Join(cs, ", "), ch, why})
	}
	d.table([]string{"Nation", "Crowns", "Held at", "Change", "Why"}, []float64{0.14, 0.08, 0.28, 0.08, 0.42}, rows)
	if len(g.Treaties) > 0 {
		d.glanceHeading("Treaties")
		d.bullets(g.Treaties)
	}
	if len(g.Rulings) > 0 {
		d.glanceHeading("Rulings applied")
		d.bullets(g.Rulings)
	}
	d.pdf.Ln(2)
	d.para(fmt.Sprintf("%s, %s, %s this turn. Every sheet, force, narrative and event follows the map; "+
		"every die is in the appendix at the end, by purpose.", english.Count(len(md.Battles), "narrative"),
		english.Count(len(md.Events), "event"), english.Count(len(md.Rolls), "die")+" thrown"))
}

// maxDiceColumns is the most runs of dice the appendix prints side by
// side; a group whose runs are wider gets fewer columns, so that no run
// wraps.
const maxDiceColumns = 6

// diceAppendix prints every die of the turn, grouped by step and purpose
// (RollGroups), each group a grid of runs in the order thrown.
func (d *doc) diceAppendix(rolls []engine.Roll) {
	d.heading("Appendix: every die roll")
	if len(rolls) == 0 {
		d.para("No die was thrown.")
		return
	}
	groups := RollGroups(rolls)
	d.para(fmt.Sprintf("%s in %s. Dice are numbered in the order thrown; “#12–15 F1.12: 3 2 6 6” is dice 12 to 15, "+
		"thrown in that order for F1.12, on the group's die unless one is named.",
		english.Count(len(rolls), "die"), english.Count(len(groups), "group")))
	pdf := d.pdf
	w, _ := pdf.GetPageSize()
	l, _, r, _ := pdf.GetMargins()
	tw := w - l - r
	const lh, headH = 3.6, 5.2
	// The appendix is one flow of rows — each group's heading, then its
	// grid of runs — kept together across the groups: a heading never ends
	// a page, no page breaks with fewer than minLines rows on either side,
	// and the last page (the report's) holds at least minLastPage rows.
	var heights []float64
	var glued []bool
	var draws []func()
	for _, g := range groups {
		die := g.die()
		kind := fmt.Sprintf("d%d", die)
		if die == 0 {
			kind = "dice as named"
		}
		head := fmt.Sprintf("%s · %s — %s, %s", g.Step, g.Purpose, english.Count(g.Count, "die"), kind)
		heights, glued = append(heights, headH), append(glued, true)
		draws = append(draws, func() {
			pdf.Ln(0.8)
			pdf.SetFont(fonts.Condensed, "B", 9)
			pdf.SetX(l)
			pdf.CellFormat(0, 4.4, head, "B", 1, "L", false, 0, "")
		})
		pdf.SetFont(fonts.Condensed, "", 8)
		widest := 0.0
		for _, run := range g.Runs {
			widest = max(widest, pdf.GetStringWidth(run.String(die)))
		}
		cols := max(1, min(maxDiceColumns, int(tw/(widest+3))))
		cw := tw / float64(cols)
		for i, k := 0, 0; i < len(g.Runs); i, k = i+cols, k+1 {
			row := g.Runs[i:min(i+cols, len(g.Runs))]
			lines := make([][]string, len(row))
			n := 1
			for c, run := range row {
				lines[c] = splitLines(pdf, run.String(die), cw-1.5)
				n = max(n, len(lines[c]))
			}
			h, odd := float64(n)*lh+0.6, k%2 == 1
			heights, glued = append(heights, h), append(glued, false)
			draws = append(draws, func() {
				pdf.SetFont(fonts.Condensed, "", 8)
				y := pdf.GetY()
				if odd {
					pdf.SetFillColor(246, 242, 232)
					pdf.Rect(l, y, w-l-r, h, "F")
				}
				for c := range lines {
					for j, s := range lines[c] {
						pdf.Text(l+float64(c)*cw+0.75, y+lh*float64(j+1)-0.6, s)
					}
				}
				pdf.SetXY(l, y+h)
			})
		}
	}
	d.flow(heights, glued, func(i int) { draws[i]() })
}

// refusedRows are the refused sheets as table rows.
func refusedRows(sheets []SheetLine) [][]string {
	var rows [][]string
	for _, s := range sheets {
		if s.Refused {
			rows = append(rows, []string{string(s.Nation), s.Received, s.Receipt, s.From})
		}
	}
	return rows
}

// glanceText prints the turn at a glance for the referee's mail body.
func glanceText(b *strings.Builder, md *RefereeModel) {
	g := md.Glance
	if g == nil {
		return
	}
	if len(g.Attention) > 0 {
		section(b, "Needs your attention")
		for _, s := range g.Attention {
			fmt.Fprintf(b, "- %s\n", s)
		}
	}
	if len(g.Orders) > 0 {
		section(b, "Orders")
		for _, o := range g.Orders {
			fmt.Fprintf(b, "%-12s %s", o.Name, o.Status)
			if o.NMRTurns > 0 {
				fmt.Fprintf(b, " (%s running)", english.Count(o.NMRTurns, "turn"))
			}
			if o.Received != "" {
				fmt.Fprintf(b, ", %s, receipt %s", o.Received, o.Receipt)
			}
			if o.From != "" {
				fmt.Fprintf(b, ", from %s", o.From)
			}
			if o.Errors > 0 {
				fmt.Fprintf(b, "; %s", english.Count(o.Errors, "error"))
			}
			if o.Refused > 0 {
				fmt.Fprintf(b, "; %s refused", english.Count(o.Refused, "sheet"))
			}
			b.WriteString("\n")
		}
		if len(md.Missing) > 0 {
			fmt.Fprintf(b, "Missing: %s\n", ids2(md.Missing))
		}
	}
	if len(g.Clashes) > 0 {
		section(b, "Battles, sieges and assaults")
		for _, c := range g.Clashes {
			fmt.Fprintf(b, "- %s at %s: %s. %s.\n", c.Kind, c.Place, c.Sides, c.Outcome)
		}
	}
	if len(g.Captures)+len(g.Losses) > 0 {
		section(b, "Captures and losses")
		for _, s := range append(append([]string(nil), g.Captures...), g.Losses...) {
			fmt.Fprintf(b, "- %s\n", s)
		}
	}
	section(b, "Treasuries")
	change := map[string]MoneyChange{}
	for _, c := range g.Money {
		change[string(c.Nation)] = c
	}
	for _, t := range md.Treasuries {
		fmt.Fprintf(b, "%-12s %6d %s", t.Name, t.Total, english.Noun(t.Total, "crown"))
		if c, ok := change[string(t.Nation)]; ok {
			fmt.Fprintf(b, "  %+d: %s", c.Change, c.Why)
		}
		b.WriteString("\n")
	}
	if len(g.Treaties) > 0 {
		section(b, "Treaties")
		for _, s := range g.Treaties {
			fmt.Fprintf(b, "- %s\n", s)
		}
	}
	if len(g.Rulings) > 0 {
		section(b, "Rulings applied")
		for _, s := range g.Rulings {
			fmt.Fprintf(b, "- %s\n", s)
		}
	}
}
