package fonts_test

import (
	"bytes"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/reports/fonts"
)

// TestRegisterWritesUnicode checks that every registered style can set text
// outside cp1252 and that the document still writes.
func TestRegisterWritesUnicode(t *testing.T) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(time.Date(1752, 4, 1, 0, 0, 0, 0, time.UTC))
	pdf.SetModificationDate(time.Date(1752, 4, 1, 0, 0, 0, 0, time.UTC))
	fonts.Register(pdf)
	fonts.Register(pdf) // twice is harmless
	pdf.AddPage()
	y := 20.0
	for _, f := range []struct{ family, style string }{
		{fonts.Sans, ""}, {fonts.Sans, "B"}, {fonts.Sans, "I"},
		{fonts.Condensed, ""}, {fonts.Condensed, "B"},
	} {
		pdf.SetFont(f.family, f.style, 12)
		pdf.Text(20, y, "SYW Big Game Campaign — Königsau, Łódź")
		y += 10
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatalf("Output: %v", err)
	}
	if buf.Len() < 1000 {
		t.Fatalf("PDF is only %d bytes", buf.Len())
	}
}

func ExampleRegister() {
	pdf := fpdf.New("L", "mm", "A3", "")
	fonts.Register(pdf)
	pdf.AddPage()
	pdf.SetFont(fonts.Sans, "B", 18)
	pdf.Text(20, 20, "SYW Big Game Campaign — Königsau")
	if err := pdf.Error(); err != nil {
		panic(err)
	}
	// Output:
}
