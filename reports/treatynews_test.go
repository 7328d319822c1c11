package reports

import (
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// TestTreatyPublishedToldOnce: "The month" tells of a treaty in the report
// of the turn whose resolution published it (the TreatyPublished event,
// mailed with that report), and not again in the next month's report, the
// turn its Published label names — a player once read "was published" in
// two reports running.
func TestTreatyPublishedToldOnce(t *testing.T) {
	t.Parallel()
	sc, err := scenario.Load("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	rules := ruleset.SYW1752()
	st, err := sc.InitialState("syw", rules.ID)
	if err != nil {
		t.Fatal(err)
	}
	tr := game.Treaty{ID: "T1", Title: "Peace of Garzow", Parties: []game.NationID{"eisenmark", "fromande"}, Ratified: 1, Published: 2}
	st.Treaties = []game.Treaty{tr}
	published := &engine.TreatyPublished{Header: engine.Header{Visibility: engine.Visibility{Public: true}, Nations: tr.Parties},
		Treaty: tr.ID, Title: tr.Title, Parties: tr.Parties, Ratified: 1}
	told := func(turn int, events []engine.Event) bool {
		st.Turn = turn
		md, err := Build(Input{Map: sc.Map, Rules: rules, State: st, Nation: "hispardia", Events: events})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(md.Summary, func(s string) bool { return strings.Contains(s, `Treaty T1, "Peace of Garzow", was published.`) })
	}
	if !told(2, []engine.Event{published}) {
		t.Error("the month the treaty was published does not tell of it")
	}
	if told(3, nil) {
		t.Error("the month after tells of the treaty again")
	}
}
