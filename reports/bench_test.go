package reports_test

import (
	"bytes"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
)

// BenchmarkNationReport builds and renders one nation's report (model, PDF
// on A4 with the continent and the zoomed map) on the default map.
func BenchmarkNationReport(b *testing.B) {
	g := scriptedGame(b)
	last := g.turns[len(g.turns)-1]
	prev := reportsOf(b, g, "eisenmark")
	var size int
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		md, err := reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: last.state, Events: last.events,
			Nation: "eisenmark", Previous: prev[len(prev)-2]})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := reports.Render(&buf, md, g.m, nil); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	reportCPU(b, start)
	b.ReportMetric(float64(size), "pdf-bytes")
}

// pdfOps counts the drawing operators of an uncompressed PDF's page
// streams: paths begun (m), segments (l), curves (c), rectangles (re),
// text shows (Tj) and pages.
type pdfOps struct{ pages, moves, lines, curves, rects, texts int }

func countOps(pdf []byte) pdfOps {
	var o pdfOps
	for _, l := range bytes.Split(pdf, []byte("\n")) {
		// fpdf ends a polygon's segments with a space ("x y l "): trimmed,
		// or the floor would leave out every polygon's sides.
		l = bytes.TrimRight(l, " ")
		switch {
		case bytes.HasSuffix(l, []byte(" m")):
			o.moves++
		case bytes.HasSuffix(l, []byte(" l")):
			o.lines++
		case bytes.HasSuffix(l, []byte(" c")):
			o.curves++
		case bytes.HasSuffix(l, []byte(" re f")) || bytes.HasSuffix(l, []byte(" re S")) || bytes.HasSuffix(l, []byte(" re B")) || bytes.HasSuffix(l, []byte(" re W n")):
			o.rects++
		case bytes.Contains(l, []byte(" Tj")):
			o.texts += bytes.Count(l, []byte(" Tj"))
		}
		o.pages += bytes.Count(l, []byte("/Type /Page")) - bytes.Count(l, []byte("/Type /Pages"))
	}
	return o
}

// bareDrawing draws ops with fpdf alone: the same fonts, pages, paths,
// segments, curves, rectangles and text shows, with none of the report's
// logic. It is the floor a report's rendering is measured against.
func bareDrawing(b *testing.B, o pdfOps) int {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(mapdraw.DefaultCreationDate)
	// The faces the report registers (reports' usedFaces).
	fonts.Register(pdf, fonts.SansBold, fonts.SansOblique, fonts.CondensedRegular, fonts.CondensedBold)
	perPage := func(n, p int) int { return (n + o.pages - 1 - p) / o.pages }
	for p := range o.pages {
		pdf.AddPage()
		pdf.SetFont(fonts.Condensed, "", 8)
		moves, lines := perPage(o.moves, p), perPage(o.lines, p)
		for i := range moves {
			x, y := float64(i%150), float64(i%250)
			pdf.MoveTo(x, y)
			for j := range lines / max(moves, 1) {
				pdf.LineTo(x+float64(j), y+1)
			}
			pdf.DrawPath("D")
		}
		for i := range perPage(o.curves, p) / 4 {
			pdf.Circle(float64(i%150), float64(i%250), 1, "F")
		}
		for i := range perPage(o.rects, p) {
			pdf.Rect(float64(i%150), float64(i%250), 2, 1, "F")
		}
		for i := range perPage(o.texts, p) {
			pdf.Text(float64(i%150), float64(i%250), "Konigsfeld 1410")
		}
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Len()
}

// BenchmarkBareFpdfFloor draws, with fpdf alone, as many primitives as
// Eisenmark's report has (counted from its uncompressed PDF): the floor
// BenchmarkNationReport is compared with.
func BenchmarkBareFpdfFloor(b *testing.B) {
	g := scriptedGame(b)
	md := reportsOf(b, g, "eisenmark")
	var raw bytes.Buffer
	if err := reports.Render(&raw, md[len(md)-1], g.m, &reports.Options{Uncompressed: true}); err != nil {
		b.Fatal(err)
	}
	ops := countOps(raw.Bytes())
	b.Logf("primitives: %+v", ops)
	var size int
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		size = bareDrawing(b, ops)
	}
	reportCPU(b, start)
	b.ReportMetric(float64(size), "pdf-bytes")
}

// BenchmarkRefereeReport builds and renders the referee's master report
// after the scripted game's busiest turn.
func BenchmarkRefereeReport(b *testing.B) {
	g := scriptedGame(b)
	tp := g.turns[4]
	var size int
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		md, err := reports.BuildReferee(reports.RefereeInput{Map: g.m, Rules: ruleset.SYW1752(), State: tp.state, Events: tp.events, Rolls: tp.rolls})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := reports.RenderReferee(&buf, md, g.m, nil); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	reportCPU(b, start)
	b.ReportMetric(float64(size), "pdf-bytes")
}

// BenchmarkNationReportLarge builds and renders one nation's report in the
// generated 200×200-hex, 40-nation, 4,000-force game after one turn.
func BenchmarkNationReportLarge(b *testing.B) {
	g := newGenGame(1, 200, 200, 40, 100)
	res, err := engine.Resolve(engine.Input{Map: g.m, Rules: ruleset.SYW1752(), State: g.state, Orders: g.orders, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	n := g.state.Nations[17].ID
	var size int
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		md, err := reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: res.State, Events: res.Events, Nation: n})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := reports.Render(&buf, md, g.m, nil); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	reportCPU(b, start)
	b.ReportMetric(float64(size), "pdf-bytes")
}
