package game

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestHexNames(t *testing.T) {
	cases := []struct {
		in   string
		want Hex
		ok   bool
	}{
		{"0812", Hex{8, 12}, true},
		{"0101", Hex{1, 1}, true},
		{"108012", Hex{108, 12}, true},
		{"812", Hex{}, false},
		{"08a2", Hex{}, false},
		{"0012", Hex{}, false},
	}
	for _, c := range cases {
		h, err := ParseHex(c.in)
		if (err == nil) != c.ok || h != c.want {
			t.Errorf("ParseHex(%q) = %v, %v; want %v ok=%v", c.in, h, err, c.want, c.ok)
		}
		if c.ok && h.String() != c.in {
			t.Errorf("Hex %v prints as %q, want %q", h, h.String(), c.in)
		}
	}
}

func TestCalendar(t *testing.T) {
	c := Calendar{StartYear: 1752, FirstMonth: 4}
	cases := []struct {
		turn  int
		label string
	}{
		{1, "Turn 1, April 1752"},
		{6, "Turn 6, September 1752"},
		{7, "Turn 7, year-end 1752"},
		{8, "Turn 8, April 1753"},
	}
	for _, x := range cases {
		if got := c.Label(x.turn); got != x.label {
			t.Errorf("turn %d: %q, want %q", x.turn, got, x.label)
		}
		if back := c.Turn(c.Date(x.turn)); back != x.turn {
			t.Errorf("turn %d → %v → %d", x.turn, c.Date(x.turn), back)
		}
	}
}

func TestForceNormalizeMergesAndOrders(t *testing.T) {
	f := Force{
		Troops: []Troops{
			{Arm: LightCavalry, Grade: GradeC, Count: 6},
			{Arm: LineInfantry, Grade: GradeC, Count: 12, Exhausted: 2},
			{Arm: LineInfantry, Grade: GradeC, Count: 12},
			{Arm: LineInfantry, Grade: GradeB, Count: 0},
		},
		Guns:    []Guns{{Kind: HeavyGun, Count: 1}, {Kind: LightGun, Count: 2}, {Kind: HeavyGun, Count: 1}},
		Leaders: []Leader{{ID: "Zieten"}, {ID: "Keith"}},
	}
	f.Normalize()
	want := []Troops{{Arm: LineInfantry, Grade: GradeC, Count: 24, Exhausted: 2}, {Arm: LightCavalry, Grade: GradeC, Count: 6}}
	if len(f.Troops) != 2 || f.Troops[0] != want[0] || f.Troops[1] != want[1] {
		t.Errorf("troops %v, want %v", f.Troops, want)
	}
	if len(f.Guns) != 2 || f.Guns[0].Kind != LightGun || f.Guns[1].Count != 2 {
		t.Errorf("guns %v", f.Guns)
	}
	if f.Leaders[0].ID != "Keith" {
		t.Errorf("leaders not sorted: %v", f.Leaders)
	}
	if f.Figures() != 30 || f.FightingFigures() != 30 {
		t.Errorf("figures %d fighting %d", f.Figures(), f.FightingFigures())
	}
}

func TestForceIDOrder(t *testing.T) {
	if CompareForceIDs("E2", "E10") >= 0 || CompareForceIDs("E10", "F1") >= 0 {
		t.Error("E2 < E10 < F1 expected")
	}
}

func TestForceJSONStable(t *testing.T) {
	f := Force{ID: "E1", Nation: "eisenmark", At: AtHex(Hex{8, 12}), Troops: []Troops{{Arm: LineInfantry, Grade: GradeC, Count: 24}}}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back Force
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Errorf("round trip changed the force:\n%s\n%s", b, b2)
	}
	if want := `"At":{"Hex":"0812"}`; !strings.Contains(string(b), want) {
		t.Errorf("JSON %s lacks %s", b, want)
	}
}
