package engine

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
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

// FuzzRulings: no stored ruling, however damaged, makes the engine panic or
// breaks the state's invariants (no negative counts); a ruling that decodes
// encodes to JSON that reads back the same.
func FuzzRulings(f *testing.F) {
	f.Add(`{"Token":"R1","Nation":"eisenmark","Effects":[{"kind":"treasury","Nation":"eisenmark","Delta":-100},{"kind":"add","Force":"E9","Units":{"Troops":[{"Arm":"infantry","Grade":"C","Count":24}],"Leaders":["Stockli"]},"At":"0305"}]}`)
	f.Add(`{"Effects":[{"kind":"remove","Force":"E1","Units":{"Ships":{"Warships":-3}}},{"kind":"move","Force":"E1","To":"9999"},{"kind":"loyalty","City":"Mitte"}]}`)
	f.Add(`{"Effects":[{"kind":"breach","Treaty":"T1","Offender":"fromande","Aggrieved":"eisenmark"},{"kind":"lift","Treaty":"T9"}]}`)
	m, err := loadMap("plain")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, js string) {
		var r Ruling
		if json.Unmarshal([]byte(js), &r) != nil {
			return
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Ruling
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s does not read back: %v", b, err)
		}
		if again, _ := json.Marshal(back); string(again) != string(b) {
			t.Fatalf("%s reads back as %s", b, again)
		}
		st := &State{Game: "f", Ruleset: ruleset.SYW1752().ID, Turn: 1, Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4},
			Nations: []NationState{{ID: "eisenmark", NextForce: 2}, {ID: "fromande", NextForce: 2}},
			Cities:  []game.CityState{{Name: "Altburg", Controller: "eisenmark", Loyalty: "eisenmark", Treasury: 50}},
			Forces: []game.Force{{ID: "E1", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 3, Row: 5}),
				Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 20}}, Ships: game.Ships{Warships: 1},
				Leaders: []game.Leader{{ID: "Keith", Name: "Keith", Role: game.General}}}},
			Treaties: []game.Treaty{{ID: "T1", Parties: []game.NationID{"eisenmark", "fromande"}, Published: 1}}}
		res, err := Resolve(Input{Map: m, Rules: ruleset.SYW1752(), State: st, Rulings: []Ruling{r}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.State.Forces {
			if f.Ships.Warships < 0 || f.Ships.Transports < 0 || f.Ships.DamagedWarships < 0 || f.Ships.DamagedTransports < 0 {
				t.Fatalf("negative ships: %+v", f)
			}
			for _, tr := range f.Troops {
				if tr.Count <= 0 {
					t.Fatalf("a stack of %d: %+v", tr.Count, f)
				}
			}
		}
		for _, c := range res.State.Cities {
			if c.Treasury < 0 {
				t.Fatalf("treasury %d in %s", c.Treasury, c.Name)
			}
		}
	})
}
