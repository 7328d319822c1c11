package reports_test

import (
	"bytes"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

// A nation's report in a 40-nation game on a 200 × 200-hex map stays a
// mail a player can receive: under 1 MB, its continent page's 40,000 tiny
// hexes filled as one picture (mapdraw's raster fill) rather than a
// polygon each. BenchmarkNationReportLarge gives its time.
func TestBigGameReportUnderAMegabyte(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4,000-force game's report (about a second)")
	}
	t.Parallel()
	g := newGenGame(1, 200, 200, 40, 100)
	res, err := engine.Resolve(engine.Input{Map: g.m, Rules: ruleset.SYW1752(), State: g.state, Orders: g.orders, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	md, err := reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: res.State, Events: res.Events, Nation: g.state.Nations[17].ID})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := reports.Render(&buf, md, g.m, nil); err != nil {
		t.Fatal(err)
	}
	if buf.Len() >= 1<<20 {
		t.Errorf("the report is %d bytes: a 40-nation game's report should stay under 1 MB", buf.Len())
	}
	if n := bytes.Count(buf.Bytes(), []byte("/Subtype /Image")); n != 1 {
		t.Errorf("%d pictures in the report, want 1: the continent's fill", n)
	}
}
