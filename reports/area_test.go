package reports_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/scenarios"
	"github.com/syw-pbem/pbem/trossian"
)

// trossianStart is the built-in Trossian scenario's opening position.
func trossianStart(t *testing.T) (*areamap.Map, *trossian.State) {
	t.Helper()
	fsys := scenarios.Trossian()
	f, err := fsys.Open("map.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := areamap.Parse(f, "map.txt")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../scenarios/trossian/scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := trossian.ParseScenario(data, m, "scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m, sc.InitialState("g", trossian.Trossian1801())
}

// TestAreaReportFog: a kingdom's report shows its own armies and the
// foreign ones within its watch, never one beyond it; the referee's shows
// every army. The PDF is a PDF with the map page, and the same input gives
// the same bytes.
func TestAreaReportFog(t *testing.T) {
	t.Parallel()
	m, st := trossianStart(t)
	in := reports.AreaInput{Map: m, View: trossian.View(m, trossian.Trossian1801(), st, "norvale"), Nation: "norvale", NationName: "Norvale",
		GameID: "g", GameName: "Trossia", TurnLabel: st.Label(), NextLabel: st.Label(), Starting: true}
	r, err := reports.Area(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "N1 at Norhaven") || strings.Contains(r.Text, "S1 ") || !strings.Contains(r.Text, "AP banked in your cities: 10") {
		t.Errorf("Norvale's report:\n%s", r.Text)
	}
	if !strings.Contains(r.Text, "C2 (Carrowland) at Linden") || !strings.Contains(r.Text, "OF1 (Ostmark) at port Rimeport") {
		// The foreign forces within Norvale's watch, their kingdoms named as
		// every other line of the report names them (not "carrowland").
		t.Errorf("Norvale's foreign forces seen:\n%s", r.Text)
	}
	if !bytes.HasPrefix(r.PDF, []byte("%PDF-")) || r.File != "norvale-start.pdf" {
		t.Errorf("the PDF: %q %s", r.PDF[:min(8, len(r.PDF))], r.File)
	}
	again, _ := reports.Area(in)
	if !bytes.Equal(again.PDF, r.PDF) {
		t.Error("the same input gave another PDF")
	}
	ref, err := reports.Area(reports.AreaInput{Map: m, View: st, Nation: engine.Referee, GameID: "g", GameName: "Trossia",
		TurnLabel: st.Label(), NextLabel: st.Label(), Starting: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range st.Armies {
		if !strings.Contains(ref.Text, string(a.ID)+" ("+string(a.Nation)+")") {
			t.Errorf("the referee's report misses %s:\n%s", a.ID, ref.Text)
		}
	}
	if p := os.Getenv("PBEM_AREA_PDF"); p != "" {
		os.WriteFile(p+"-norvale.pdf", r.PDF, 0o644)
		os.WriteFile(p+"-referee.pdf", ref.PDF, 0o644)
	}
}
