package mapdraw

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

var (
	update  = flag.Bool("update", false, "rewrite the golden PDFs in testdata")
	outFlag = flag.String("out", "", "also write the test continent's PDF to this file, to look at")
)

// defaultMapPath is the default campaign's continent, once it exists.
const defaultMapPath = "../../scenarios/default/map.txt"

// defaultMap loads the default continent, or builds the test continent of
// the same size when the scenario is not there or does not parse (the
// scenario's own tests report that).
func defaultMap(tb testing.TB) *hexmap.Map {
	tb.Helper()
	if _, err := os.Stat(defaultMapPath); err != nil {
		return continent(35, 30, 1)
	}
	m, err := hexmap.Load(defaultMapPath)
	if err != nil {
		tb.Logf("using the test continent: %s does not load: %v", defaultMapPath, err)
		return continent(35, 30, 1)
	}
	return m
}

// withTaxes returns o (nil for none) with the 1752 tax scale set when it has
// none: the drawing requires one.
func withTaxes(o *Options) *Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Taxes == nil {
		c.Taxes = &ruleset.SYW1752().Taxes
	}
	return &c
}

func render(tb testing.TB, m *hexmap.Map, o *Options) []byte {
	tb.Helper()
	o = withTaxes(o)
	var buf bytes.Buffer
	if err := Render(&buf, m, o); err != nil {
		tb.Fatalf("Render: %v", err)
	}
	return buf.Bytes()
}

// busyOptions exercise every overlay input.
func busyOptions(m *hexmap.Map) *Options {
	cities := map[string]CityMarks{}
	for i, c := range m.Cities {
		switch i % 5 {
		case 1:
			cities[c.Name] = CityMarks{Controller: "hispardia", Loyalty: "eisenmark", Siege: game.Masked}
		case 3:
			cities[c.Name] = CityMarks{Controller: game.Neutral, Loyalty: game.Neutral, Siege: game.Besieged}
		}
	}
	var markers []Marker
	if len(m.Cities) > 0 {
		h := m.Cities[0].Hex
		markers = append(markers,
			Marker{At: game.AtHex(h), Nation: "eisenmark", Label: "E1", Size: "L"},
			Marker{At: game.AtHex(h), Nation: "fromande", Label: "G12", Size: "S"},
			Marker{At: game.AtHex(h), Nation: "unterreich", Label: "U3", Size: "M"})
	}
	if len(m.Seas) > 0 {
		markers = append(markers, Marker{At: game.AtSea(m.Seas[0].ID), Nation: "hispardia", Label: "H4", Size: "M", Fleet: true})
	}
	return &Options{
		Subtitle:  "Turn 3, June 1752 — as Eisenmark sees it",
		Cities:    cities,
		Markers:   markers,
		Dim:       func(h game.Hex) bool { return h.Col > m.Cols*2/3 },
		Highlight: func(h game.Hex) bool { return h.Col >= 10 && h.Col <= 12 && h.Row >= 10 && h.Row <= 12 },
	}
}

// TestRenderIsDeterministic: the same map and options give the same bytes,
// so a turn's maps can be regenerated and compared.
func TestRenderIsDeterministic(t *testing.T) {
	m := defaultMap(t)
	for name, o := range map[string]*Options{"plain": nil, "busy": busyOptions(m)} {
		t.Run(name, func(t *testing.T) {
			a, b := render(t, m, o), render(t, m, o)
			if !bytes.Equal(a, b) {
				t.Fatalf("two renders of the same map differ (%d and %d bytes)", len(a), len(b))
			}
			if !bytes.HasPrefix(a, []byte("%PDF-")) {
				t.Fatalf("output does not start with %%PDF-: %q", a[:min(len(a), 16)])
			}
		})
	}
	if *outFlag != "" {
		if err := os.WriteFile(*outFlag, render(t, m, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		busy := strings.TrimSuffix(*outFlag, ".pdf") + "-busy.pdf"
		if err := os.WriteFile(busy, render(t, m, busyOptions(m)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRenderGolden pins the drawing of a small continent byte for byte. A
// change to the drawing shows up here; look at the new picture
// (pdftoppm -png) and rerun with -update if it is right.
func TestRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		m    *hexmap.Map
		o    func(*hexmap.Map) *Options
	}{
		{"small.golden.pdf", continent(18, 14, 3), func(*hexmap.Map) *Options { return nil }},
		{"small-busy.golden.pdf", continent(18, 14, 3), busyOptions},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := render(t, tc.m, tc.o(tc.m))
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./reports/mapdraw -run TestRenderGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				bad := filepath.Join(t.TempDir(), tc.file)
				_ = os.WriteFile(bad, got, 0o644)
				t.Fatalf("%s changed (%d bytes, golden %d); the new one is %s — view it with pdftoppm -png and rerun with -update if it is right",
					path, len(got), len(want), bad)
			}
		})
	}
}

// TestRenderTextNamesEveryProvinceAndCapitol reads the PDF back with
// pdftotext, as a player searching the PDF would: every province's name and
// every capitol's name must be there as text.
func TestRenderTextNamesEveryProvinceAndCapitol(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils); skipping the text check")
	}
	for name, m := range map[string]*hexmap.Map{"continent": continent(35, 30, 1), "default": defaultMap(t)} {
		t.Run(name, func(t *testing.T) { checkText(t, m) })
	}
}

func checkText(t *testing.T, m *hexmap.Map) {
	path := filepath.Join(t.TempDir(), "map.pdf")
	if err := os.WriteFile(path, render(t, m, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-raw", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	if !strings.Contains(text, "SYW Big Game Campaign") || !strings.Contains(text, m.Name) {
		t.Errorf("title missing from the PDF's text")
	}
	for _, p := range m.Provinces {
		if !strings.Contains(text, p.Name) {
			t.Errorf("province %s %q not found in the PDF's text", p.Letter, p.Name)
		}
	}
	capitols := 0
	for _, c := range m.Cities {
		if c.Capitol == game.Neutral {
			continue
		}
		capitols++
		if !strings.Contains(text, c.Name) {
			t.Errorf("capitol %q not found in the PDF's text", c.Name)
		}
	}
	if capitols == 0 {
		t.Errorf("the map has no capitols to look for")
	}
}

// TestDrawIntoRegion draws onto a caller's page and checks what an overlay
// gets: the map inside the region, hex centres inside the map, sea labels
// placed.
func TestDrawIntoRegion(t *testing.T) {
	m := continent(18, 14, 3)
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddPage()
	region := Rect{X: 20, Y: 40, W: 120, H: 150}
	called := false
	p := Draw(pdf, m, &Options{Region: region, Taxes: withTaxes(nil).Taxes, Overlay: func(pdf *fpdf.Fpdf, p *Projection) {
		called = true
		x, y := p.Center(game.Hex{Col: 5, Row: 5})
		pdf.Circle(x, y, p.Radius()/2, "D")
	}})
	if !called {
		t.Fatal("Overlay was not called")
	}
	if err := pdf.Error(); err != nil {
		t.Fatal(err)
	}
	b := p.Bounds()
	if b.X < region.X-1e-9 || b.Y < region.Y-1e-9 || b.X+b.W > region.X+region.W+1e-9 || b.Y+b.H > region.Y+region.H+1e-9 {
		t.Errorf("map bounds %+v spill out of region %+v", b, region)
	}
	if b.W < region.W-1e-6 && b.H < region.H-1e-6 {
		t.Errorf("map bounds %+v do not fill region %+v in either direction", b, region)
	}
	for _, h := range []game.Hex{{Col: 1, Row: 1}, {Col: m.Cols, Row: m.Rows}} {
		x, y := p.Center(h)
		if x < b.X || x > b.X+b.W || y < b.Y || y > b.Y+b.H {
			t.Errorf("centre of %s (%.1f, %.1f) outside the map %+v", h, x, y, b)
		}
		if c := p.Corners(h); len(c) != 6 {
			t.Errorf("Corners(%s) has %d points", h, len(c))
		}
	}
	for _, s := range m.Seas {
		if _, _, ok := p.SeaLabel(s.ID); !ok {
			t.Errorf("sea area %s has no label position", s.ID)
		}
	}
}

func TestRenderRefusesEmptyMapAndUnknownPaper(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, &hexmap.Map{Name: "Nothing"}, nil); err == nil || !strings.Contains(err.Error(), "no hexes") {
		t.Errorf("empty map: got %v, want an error saying the map has no hexes", err)
	}
	if err := Render(&buf, continent(10, 8, 1), nil); err == nil || !strings.Contains(err.Error(), "Taxes") {
		t.Errorf("options without a tax scale: got %v, want an error naming Taxes (no default edition)", err)
	}
	if err := Render(&buf, continent(10, 8, 1), &Options{PageSize: "B7"}); err == nil || !strings.Contains(err.Error(), "B7") {
		t.Errorf("unknown paper: got %v, want an error naming B7", err)
	}
}

// TestLayoutTurnsThePage: wide and square maps print landscape, tall ones
// portrait.
func TestLayoutTurnsThePage(t *testing.T) {
	for _, tc := range []struct {
		cols, rows int
		want       string
	}{{35, 30, "L"}, {50, 20, "L"}, {14, 40, "P"}} {
		sh, ok := layout(&hexmap.Map{Cols: tc.cols, Rows: tc.rows}, "a3")
		if !ok || sh.orientation != tc.want {
			t.Errorf("%d×%d map: orientation %q, want %q", tc.cols, tc.rows, sh.orientation, tc.want)
		}
	}
}

// TestSidesMeet: the side of a hex facing a neighbour is the same two
// corners as the neighbour's side facing back, so rivers and borders drawn
// from either hex coincide.
func TestSidesMeet(t *testing.T) {
	for _, h := range []game.Hex{{Col: 4, Row: 4}, {Col: 5, Row: 4}} {
		for _, d := range hexmap.Directions {
			n := hexmap.Step(h, d)
			a, b := sideCorners(h, d)
			c, e := sideCorners(n, d.Opposite())
			if keyOf(a) != keyOf(e) || keyOf(b) != keyOf(c) {
				t.Errorf("%s side %s is %v–%v, but %s side %s is %v–%v", h, d, a, b, n, d.Opposite(), c, e)
			}
			if got := hexAt(a.lerp(center(h), 0.1)); got != h {
				t.Errorf("hexAt near %s's corner = %s", h, got)
			}
		}
	}
}

func TestChainJoinsSegments(t *testing.T) {
	h := game.Hex{Col: 3, Row: 3}
	var ring []segment
	for _, d := range []hexmap.Direction{hexmap.South, hexmap.North, hexmap.NorthEast, hexmap.SouthWest, hexmap.SouthEast, hexmap.NorthWest} {
		a, b := sideCorners(h, d)
		ring = append(ring, segment{a, b})
	}
	lines := chain(ring)
	if len(lines) != 1 || len(lines[0]) != 7 || keyOf(lines[0][0]) != keyOf(lines[0][6]) {
		t.Fatalf("a hex's six sides chained into %d lines %v, want one closed ring of 7 points", len(lines), lines)
	}
	a, b := sideCorners(h, hexmap.North)
	c, d := sideCorners(game.Hex{Col: 9, Row: 9}, hexmap.North)
	if got := chain([]segment{{a, b}, {c, d}}); len(got) != 2 {
		t.Fatalf("two apart segments chained into %d lines", len(got))
	}
}

func BenchmarkRenderDefaultMap(b *testing.B) {
	m := defaultMap(b)
	var size int
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Render(&buf, m, withTaxes(nil)); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "pdf-bytes")
}
