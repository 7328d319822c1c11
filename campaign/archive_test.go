package campaign

import (
	"bytes"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/scenarios"
)

// TestTrossianArchiveOpens: a Trossian game gives its archive header (its
// tables' version and its map as text), and the campaign opens a game from
// that header alone that resolves a turn to the same bytes as the game it
// was written from; it has no starting position of its own, and a damaged
// map is refused with its line.
func TestTrossianArchiveOpens(t *testing.T) {
	c := Trossian()
	sc, err := c.LoadScenario(c.DefaultScenario(), scenarios.TrossianDir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Open("trossian", sc)
	if err != nil {
		t.Fatal(err)
	}
	version, mapText, err := g.(Archived).ArchiveRules()
	if err != nil || len(version) != 16 || !strings.HasPrefix(mapText, `map "Trossia, 1801"`) {
		t.Fatalf("ArchiveRules: %q %v\n%.100s", version, err, mapText)
	}
	back, err := c.(ArchiveOpener).OpenArchived("trossian", mapText)
	if err != nil {
		t.Fatal(err)
	}
	if v, m, _ := back.(Archived).ArchiveRules(); v != version || m != mapText {
		t.Error("the game opened from its archive gives another header")
	}
	if _, err := back.NewState("g1"); err == nil {
		t.Error("a game opened from its archive made a starting position")
	}
	st, err := g.NewState("g1")
	if err != nil {
		t.Fatal(err)
	}
	r := g.Check("GAME g1\nNATION norvale\nTURN 1\nMOVE N1 TO Trossburg\nEND\n", CheckContext{State: st, Game: "g1"})
	if r.Refused || len(r.Diagnostics) > 0 {
		t.Fatal(r.Text)
	}
	resolved := func(g Game) []byte {
		data, err := st.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.DecodeState(data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := g.Resolve(TurnInput{State: s, Orders: []engine.Orders{r.Orders}, Seed: 11})
		if err != nil || out.State == nil {
			t.Fatalf("%v %+v", err, out)
		}
		b, _ := out.State.MarshalJSON()
		evs, _ := engine.MarshalEvents(out.Events)
		return append(b, evs...)
	}
	if !bytes.Equal(resolved(g), resolved(back)) {
		t.Error("the game opened from its archive resolves turn 1 otherwise")
	}
	if _, err := c.(ArchiveOpener).OpenArchived("trossian", strings.Replace(mapText, "lane N1", "lane", 1)); err == nil ||
		!strings.Contains(err.Error(), "the archive's map") {
		t.Errorf("a damaged map: %v", err)
	}
	if _, err := c.(ArchiveOpener).OpenArchived("trossian-1900", mapText); err == nil {
		t.Error("an unknown ruleset was opened")
	}
}
