package engine

import (
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestFleetLostTakesItsPassengers: when a fleet leaves the game (the
// sea-battle step will sink and capture fleets), the forces aboard go with
// it and their owner is told, rather than the force silently vanishing.
func TestFleetLostTakesItsPassengers(t *testing.T) {
	m, err := loadMap("coast")
	if err != nil {
		t.Fatal(err)
	}
	st := &State{Game: "x", Ruleset: ruleset.SYW1752().ID, Turn: 1, Nations: []NationState{{ID: "eisenmark"}},
		Forces: []game.Force{
			{ID: "E1", Nation: "eisenmark", At: game.AtSea("S2"), Ships: game.Ships{Transports: 2}},
			{ID: "E2", Nation: "eisenmark", At: game.AtSea("S2"), Aboard: "E1", Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 40}}},
		}}
	st.Normalize()
	tr := newTurn(Input{Map: m, Rules: ruleset.SYW1752(), State: st})
	tr.remove("E1")
	if tr.force("E2") != nil {
		t.Fatal("the army aboard outlived its fleet")
	}
	found := false
	for _, e := range tr.events {
		if d, ok := e.(*ForceDisbanded); ok && d.Force == "E2" && d.Reason == "fleet lost" && d.Figures == 40 && d.VisibleTo("eisenmark") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no ForceDisbanded for E2: %v", tr.events)
	}
}
