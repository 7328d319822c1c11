package mapdraw

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestWindowZoomsAndTints draws a 10 × 8 window of the default map, tinted,
// into an A4 landscape page: the hexes of the window are numbered at a
// readable size, hexes far from it are not drawn at all, and the output is
// the same twice.
func TestWindowZoomsAndTints(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	m := defaultMap(t)
	draw := func() []byte {
		pdf := fpdf.New("L", "mm", "A4", "")
		pdf.SetCreationDate(DefaultCreationDate)
		pdf.SetModificationDate(DefaultCreationDate)
		pdf.SetCatalogSort(true) // fpdf's catalog is a Go map: sorted, it is stable
		pdf.AddPage()
		p := Draw(pdf, m, &Options{
			Region: Rect{X: 10, Y: 10, W: 277, H: 190},
			Window: HexWindow{Min: game.Hex{Col: 10, Row: 10}, Max: game.Hex{Col: 19, Row: 17}},
			Tint:   func(h game.Hex) (RGB, bool) { return RGB{200, 0, 0}, h.Col%2 == 0 },
			Taxes:  &ruleset.SYW1752().Taxes,
		})
		if r := p.Radius(); r < 8 {
			t.Errorf("the window's hexes have radius %.1f mm, want ≥ 8 (readable hex numbers on A4)", r)
		}
		var b bytes.Buffer
		if err := pdf.Output(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b := draw(), draw()
	if !bytes.Equal(a, b) {
		t.Error("the windowed drawing differs between two runs")
	}
	cmd := exec.Command("pdftotext", "-raw", "-", "-")
	cmd.Stdin = bytes.NewReader(a)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, h := range []string{"1012", "1515", "1917"} {
		if m.IsLand(mustHex(t, h)) && !strings.Contains(text, h) {
			t.Errorf("hex %s of the window is not numbered", h)
		}
	}
	for _, h := range []string{"0101", "0303", "3530", "3028"} {
		if strings.Contains(text, h) {
			t.Errorf("hex %s, far outside the window, was drawn", h)
		}
	}
}

func mustHex(t *testing.T, s string) game.Hex {
	h, err := game.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
