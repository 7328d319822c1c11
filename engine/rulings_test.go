package engine

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// TestRulingJSONRoundTrip: a ruling of every effect kind survives the JSON
// the daemon stores it as, and every kind is listed.
func TestRulingJSONRoundTrip(t *testing.T) {
	r := Ruling{Token: "R1a2b3c", Nation: "eisenmark", Effects: []Effect{
		TreasuryChange{Nation: "eisenmark", Delta: -100},
		AddUnits{Force: "E9", Units: Units{Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 24}}, Leaders: []string{"Stockli"}}, At: game.Hex{Col: 19, Row: 10}},
		RemoveUnits{Force: "E1"},
		PlaceForce{Force: "E2", To: game.Hex{Col: 19, Row: 10}},
		SetLoyalty{City: "Dresna", Nation: "eisenmark"},
		DeclareBreach{Treaty: "T1", Offender: "fromande", Aggrieved: "eisenmark"},
		LiftPenalty{Treaty: "T1", Offender: "fromande", Aggrieved: "eisenmark"},
	}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Ruling
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if !reflect.DeepEqual(r, back) {
		t.Errorf("round trip changed the ruling:\n%+v\n%+v", r, back)
	}
	var kinds []string
	for _, e := range r.Effects {
		kinds = append(kinds, e.EffectKind())
	}
	slices.Sort(kinds)
	if !slices.Equal(kinds, EffectKinds()) {
		t.Errorf("the test covers %v, the engine knows %v", kinds, EffectKinds())
	}
	if err := json.Unmarshal([]byte(`{"Effects":[{"kind":"pardon"}]}`), &back); err == nil {
		t.Error("an unknown effect kind was read")
	}
}
