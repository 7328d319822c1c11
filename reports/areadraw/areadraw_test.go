package areadraw_test

import (
	"bytes"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/areadraw"
	"github.com/syw-pbem/pbem/scenarios"
)

func trossianMap(t *testing.T) *areamap.Map {
	t.Helper()
	f, err := scenarios.Trossian().Open("map.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := areamap.Parse(f, "map.txt")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func draw(t *testing.T, m *areamap.Map, mk *areadraw.Marks) ([]byte, areadraw.Projection) {
	t.Helper()
	pdf := fpdf.New("L", "mm", "A4", "")
	pdf.SetCreationDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	pdf.SetModificationDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) // unset, fpdf stamps the clock
	pdf.SetCompression(false)
	pdf.SetCatalogSort(true) // fpdf writes its resources in map order otherwise
	pdf.AddPage()
	pr := areadraw.Draw(pdf, m, mk, areadraw.Options{X: 10, Y: 10, W: 200, H: 180})
	areadraw.Legend(pdf, m, 215, 10)
	var b bytes.Buffer
	if err := pdf.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), pr
}

// TestDraw: every province is drawn inside the region; the same map and
// marks give the same bytes, and the marks (fog, counters, battles) change
// them; the kingdoms have colours of their own.
func TestDraw(t *testing.T) {
	t.Parallel()
	m := trossianMap(t)
	mk := &areadraw.Marks{
		Control:  map[string]game.NationID{"Norhaven": "norvale", "Kessel": "ostmark"},
		Watched:  map[string]bool{"Norhaven": true},
		Counters: map[string][]areadraw.Counter{"Norhaven": {{Label: "N1 11", Nation: "norvale"}}, "N1": {{Label: "NF1", Nation: "norvale", Navy: true}}},
		Battles:  []string{"Trossburg"},
		Frozen:   true,
	}
	a, pr := draw(t, m, mk)
	b, _ := draw(t, m, mk)
	if !bytes.Equal(a, b) {
		t.Error("the same map and marks drew different bytes")
	}
	for _, p := range m.Provinces {
		x, y := pr.Page(float64(p.At.X), float64(p.At.Y))
		if x < 10 || x > 210 || y < 10 || y > 190 {
			t.Errorf("%s drawn at %.1f,%.1f, outside the region", p.ID, x, y)
		}
	}
	seen := map[areadraw.RGB]bool{}
	for _, k := range m.Kingdoms {
		c := areadraw.Colour(m, k.ID)
		if seen[c] || c == areadraw.Unclaimed {
			t.Errorf("%s's colour %v is another's", k.ID, c)
		}
		seen[c] = true
	}
	fogless, _ := draw(t, m, &areadraw.Marks{Control: mk.Control})
	if bytes.Equal(fogless, a) {
		t.Error("the marks changed nothing")
	}
}
