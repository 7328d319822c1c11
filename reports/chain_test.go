package reports_test

import (
	"bytes"
	"testing"

	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestChainWithoutEarlierEvents: a nation's report after turn T is the
// same whether the chain of reports before it was built with those turns'
// events or without them (what pbem report does, decoding only the
// earlier states): Build carries forward only what the events do not
// change (Input.Previous).
func TestChainWithoutEarlierEvents(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	carried := 0
	for _, ns := range g.start.Nations {
		full := reportsOf(t, g, ns.ID)
		for last := range g.turns {
			md, err := reports.Build(reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: g.start, Nation: ns.ID,
				Deadline: testDeadline, Zone: zone()})
			if err != nil {
				t.Fatal(err)
			}
			for i, tp := range g.turns[:last+1] {
				in := reports.Input{Map: g.m, Rules: ruleset.SYW1752(), State: tp.state, Nation: ns.ID,
					Deadline: testDeadline, Zone: zone(), Previous: md,
					Rulings: []reports.Ruling{{Text: "The referee allows the marriage of the Eisenmark prince.", Public: true}}}
				if i == last {
					in.Events = tp.events
				}
				if md, err = reports.Build(in); err != nil {
					t.Fatal(err)
				}
			}
			want, err := reports.JSON(full[last+1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := reports.JSON(md)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s after turn %d: the report differs when the earlier reports were built without their events", ns.ID, last+1)
			}
			carried += len(md.LastSeen)
		}
	}
	if carried == 0 {
		t.Fatal("no report carried a force seen earlier: the test compared nothing that Previous carries")
	}
	t.Logf("%d last-seen forces carried across the reports compared", carried)
}
