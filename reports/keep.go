package reports

import (
	"strings"

	"github.com/syw-pbem/pbem/reports/fonts"
)

// Keeping text together. fpdf breaks a page wherever a line no longer fits,
// which can leave the first line of a paragraph alone at the foot of a page
// (an orphan), its last line alone at the head of the next (a widow), a
// heading without its text, or — at the end of a report — a last page with
// one or two lines on it. The text pages print through these helpers
// instead, which break only where at least minLines lines stay on each
// side, keep a short block (a bullet, the order template's block of one
// force) whole, and keep a title with the first lines of its text.

// minLines is the fewest lines of a block left at the foot of a page or
// carried to the next.
const minLines = 2

// keepWhole is the longest block kept whole on one page rather than
// split.
const keepWhole = 6

// room is the height left on the page above the bottom margin.
func (d *doc) room() float64 {
	_, h := d.pdf.GetPageSize()
	_, _, _, bottom := d.pdf.GetMargins()
	return h - bottom - d.pdf.GetY()
}

// need starts a new page unless height mm are left on this one.
func (d *doc) need(height float64) {
	if d.room() < height {
		d.pdf.AddPage()
	}
}

// lines prints a block of n lines lh mm high each: keep with the block
// kept whole up to keepWhole lines.
func (d *doc) lines(n int, lh float64, draw func(i int)) { d.keep(same(n, lh), keepWhole, draw) }

// block prints n lines lh mm high each on one page (unless they are more
// than a page holds).
func (d *doc) block(n int, lh float64, draw func(i int)) { d.keep(same(n, lh), n, draw) }

func same(n int, h float64) []float64 {
	hs := make([]float64, n)
	for i := range hs {
		hs[i] = h
	}
	return hs
}

// keep prints a block of rows of the heights given, draw printing row i at
// the current position and moving below it. A block of whole rows or fewer
// is kept on one page (a new page first if it does not fit, unless it is
// taller than a page); a longer one is split only where at least minLines
// rows stay on each side of the break.
func (d *doc) keep(heights []float64, whole int, draw func(i int)) {
	n := len(heights)
	for i := 0; i < n; {
		left := n - i
		fit, used := 0, 0.0
		for fit < left && used+heights[i+fit] <= d.room()+0.01 {
			used += heights[i+fit]
			fit++
		}
		_, top, _, _ := d.pdf.GetMargins()
		fresh := d.pdf.GetY() <= top+0.01 // nothing on this page yet
		switch {
		case fit == left:
		case fresh:
			fit = max(fit, 1) // taller than a page: as much as fits
		case left <= whole || fit < minLines:
			d.pdf.AddPage()
			continue
		case left-fit < minLines:
			fit = left - minLines
			if fit < minLines {
				d.pdf.AddPage()
				continue
			}
		}
		for k := 0; k < fit; k++ {
			draw(i + k)
		}
		i += fit
		if i < n {
			d.pdf.AddPage()
		}
	}
}

// minLastPage is the fewest rows a flow (flow) leaves on its last page:
// a report does not end on a page of one or two lines.
const minLastPage = 3

// flow prints a long run of rows to the end of the report, draw printing
// row i: a page breaks only where at least minLines rows stay on each
// side, never right after a row glued to the next (a heading), and the
// last page holds at least minLastPage rows.
func (d *doc) flow(heights []float64, glued []bool, draw func(i int)) {
	n := len(heights)
	for i := 0; i < n; {
		left := n - i
		fit, used := 0, 0.0
		for fit < left && used+heights[i+fit] <= d.room()+0.01 {
			used += heights[i+fit]
			fit++
		}
		if fit < left {
			if left-fit < minLastPage && left > minLastPage {
				fit = left - minLastPage
			}
			for fit > 0 && glued[i+fit-1] {
				fit--
			}
			_, top, _, _ := d.pdf.GetMargins()
			fresh := d.pdf.GetY() <= top+0.01
			if fit < minLines && !fresh {
				d.pdf.AddPage()
				continue
			}
			fit = max(fit, 1)
		}
		for k := 0; k < fit; k++ {
			draw(i + k)
		}
		i += fit
		if i < n {
			d.pdf.AddPage()
		}
	}
}

// textLines wraps s, in the current font, to the width a cell indent mm
// from the left margin prints text in (the cell's own margins taken off,
// as MultiCell wraps), keeping its newlines.
func (d *doc) textLines(s string, indent float64) []string {
	w, _ := d.pdf.GetPageSize()
	l, _, r, _ := d.pdf.GetMargins()
	return splitLines(d.pdf, s, w-l-r-indent-2*d.pdf.GetCellMargin())
}

// para prints wrapped text, kept together as lines allows.
func (d *doc) para(s string) {
	pdf := d.pdf
	pdf.SetFont(fonts.Condensed, "", bodySize)
	ls := d.textLines(s, 0)
	l, _, _, _ := pdf.GetMargins()
	d.lines(len(ls), lineH, func(i int) {
		pdf.SetX(l)
		pdf.CellFormat(0, lineH, ls[i], "", 1, "L", false, 0, "")
	})
}

// bullets prints a list, each item kept together as lines allows.
func (d *doc) bullets(items []string) {
	pdf := d.pdf
	pdf.SetFont(fonts.Condensed, "", bodySize)
	l, _, _, _ := pdf.GetMargins()
	const indent = 4
	for _, s := range items {
		ls := d.textLines(s, indent)
		d.lines(len(ls), lineH, func(i int) {
			pdf.SetX(l)
			mark := ""
			if i == 0 {
				mark = "•"
			}
			pdf.CellFormat(indent, lineH, mark, "", 0, "L", false, 0, "")
			pdf.CellFormat(0, lineH, ls[i], "", 1, "L", false, 0, "")
		})
	}
}

// titled prints a title in bold kept with the first lines of what follows
// it (minLines lines of body text).
func (d *doc) titled(title string) {
	pdf := d.pdf
	pdf.SetFont(fonts.Sans, "B", 10.5)
	ls := d.textLines(title, 0)
	d.need(float64(len(ls))*5.5 + minLines*lineH)
	l, _, _, _ := pdf.GetMargins()
	for _, s := range ls {
		pdf.SetX(l)
		pdf.CellFormat(0, 5.5, s, "", 1, "L", false, 0, "")
	}
}

// templateBlocks cuts the order template at its blank lines: each block (the
// header, one force's lines, the reference at the end) is printed whole on
// one page.
func templateBlocks(tmpl string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimRight(tmpl, "\n"), "\n") {
		if l == "" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
