package reports_test

import (
	"bytes"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// FuzzRenderPlayerText: text players write (treaty titles and articles,
// special requests that come back as rulings) is printed in other nations'
// reports; no text may stop a report from rendering. The fonts have no
// glyph for most of Unicode; fpdf prints nothing for those, and must not
// fail.
func FuzzRenderPlayerText(f *testing.F) {
	g := scriptedGame(f)
	base := reportsOf(f, g, "eisenmark")[0]
	f.Add("Peace of Garzow", "Article 1. There shall be peace.\nArticle 2. Neither shall march through Vogesia.")
	f.Add("", "")
	f.Add("\x00\x01\x7f", "\t\r\n\u2028\ufeff\U0001F600 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \xff\xfe")
	f.Add("(((\\)))", "%PDF-1.4 endstream endobj ) Tj")
	f.Fuzz(func(t *testing.T, title, text string) {
		md := *base
		md.Treaties = []reports.Treaty{{ID: "T1", Title: title, Parties: []game.NationID{"eisenmark"}, Text: text}}
		md.Rulings = []string{text}
		md.Summary = []string{title}
		var b bytes.Buffer
		if err := reports.Render(&b, &md, g.m, &reports.Options{NoZoom: true}); err != nil {
			t.Fatalf("title %q, text %q: %v", title, text, err)
		}
		_ = reports.Text(&md)
		if _, err := reports.JSON(&md); err != nil {
			t.Fatal(err)
		}
	})
}
