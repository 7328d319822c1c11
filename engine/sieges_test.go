package engine

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestSiegeStateRoundTrip: a turn's siege state (the city besieged, its
// breaches, who besieges it and since when) and a fleet's damaged ships
// survive the JSON round trip of the state, and the next turn resolved from
// the decoded state is the same, byte for byte, as from the original.
func TestSiegeStateRoundTrip(t *testing.T) {
	c, err := readCase(filepath.Join("testdata", "cases", "siege-surrender-fails.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadMap(c.mapName)
	if err != nil {
		t.Fatal(err)
	}
	st, err := buildState(c)
	if err != nil {
		t.Fatal(err)
	}
	orders, _ := buildOrders(c)
	res, err := Resolve(Input{Map: m, Rules: ruleset.SYW1752(), State: st, Orders: orders, Seed: 1, fixedDice: c.dice})
	if err != nil {
		t.Fatal(err)
	}
	next := res.State
	if len(next.Sieges) != 1 || next.Sieges[0].City != "Mitte" || len(next.Sieges[0].Besiegers) != 1 {
		t.Fatalf("siege state after the turn: %+v", next.Sieges)
	}
	cs, _ := next.City("Mitte")
	if cs.Siege != game.Besieged || cs.Breaches != 1 {
		t.Fatalf("Mitte after the turn: %+v", cs)
	}
	next.Forces = append(next.Forces, game.Force{ID: "E60", Nation: "eisenmark", At: game.AtSea("S1"),
		Ships: game.Ships{Warships: 1, DamagedWarships: 2, DamagedTransports: 1}})
	next.Normalize()
	b, err := json.Marshal(next)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&back)
	if string(again) != string(b) {
		t.Fatalf("the state does not survive a JSON round trip:\n%s\n%s", b, again)
	}
	drop := func(fs []game.Force) []game.Force {
		return slices.DeleteFunc(fs, func(f game.Force) bool { return f.ID == "E60" })
	}
	next.Forces, back.Forces = drop(next.Forces), drop(back.Forces)
	r1, err := Resolve(Input{Map: m, Rules: ruleset.SYW1752(), State: next, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Resolve(Input{Map: m, Rules: ruleset.SYW1752(), State: &back, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(r1)
	j2, _ := json.Marshal(r2)
	if string(j1) != string(j2) {
		t.Error("the turn after differs when resolved from the decoded state")
	}
	// The siege held without a new order: losses again, and a breach roll.
	kinds := map[string]bool{}
	for _, e := range r1.Events {
		kinds[e.Kind()] = true
	}
	if !kinds["SiegeLosses"] || !kinds["Breach"] {
		t.Errorf("the second turn of the siege: events %v, want siege losses and a breach roll", kinds)
	}
}
