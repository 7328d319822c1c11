package reports_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/syw-pbem/pbem/reports"
)

// TestWriteSamples writes sample PDFs to $REPORTS_SAMPLES for looking at.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("REPORTS_SAMPLES")
	if dir == "" {
		t.Skip("set REPORTS_SAMPLES=DIR to write sample PDFs")
	}
	g := scriptedGame(t)
	for _, n := range g.start.Nations {
		ms := reportsOf(t, g, n.ID)
		for _, size := range []string{"A4", "A3"} {
			for i, md := range []*reports.Model{ms[0], ms[len(ms)-1]} {
				f, err := os.Create(filepath.Join(dir, string(n.ID)+"-"+size+"-"+[]string{"start", "last"}[i]+".pdf"))
				if err != nil {
					t.Fatal(err)
				}
				if err := reports.Render(f, md, g.m, &reports.Options{PageSize: size}); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
		}
	}
}

// TestWriteRefereeSample writes the referee's report to $REPORTS_SAMPLES.
func TestWriteRefereeSample(t *testing.T) {
	dir := os.Getenv("REPORTS_SAMPLES")
	if dir == "" {
		t.Skip("set REPORTS_SAMPLES=DIR to write sample PDFs")
	}
	g := scriptedGame(t)
	f, err := os.Create(filepath.Join(dir, "referee.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := reports.RenderReferee(f, refereeOf(t, g, 4), g.m, &reports.Options{PageSize: "A3"}); err != nil {
		t.Fatal(err)
	}
}
