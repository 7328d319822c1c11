package scenario_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/scenario"
)

// writeScenario makes a scenario directory with the small test map and the
// given scenario.yaml.
func writeScenario(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	m, err := os.ReadFile(filepath.Join("testdata", "small", "map.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "map.txt"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, scenario.FileName), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const goodSmall = `name: Small war
calendar: {start_year: 1752, first_month: 4}
nations:
  - id: east
    treasury: 100
    depots: [Ost]
    forces:
      - id: E1
        at: Ost
        generals: [{id: Ernst, name: General Ernst, experience: 1}]
        troops: [24 C infantry, 12 D grenzer, 8 C gunners]
        guns: [2 light-gun]
      - id: E3
        at: N
        admirals: [{id: Ewald, name: Admiral Ewald}]
        ships: {warships: 1, transports: 2}
  - id: west
    forces:
      - id: W1
        at: "0302"
        stance: attack
        generals: [{id: Willem, name: General Willem}]
        troops: [30 B infantry]
      - id: W2
        at: West Port
        garrison: true
        troops: [10 C infantry]
`

func TestLoadSmallScenario(t *testing.T) {
	s, err := scenario.Load(writeScenario(t, goodSmall))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Small war" || len(s.Nations) != 2 || s.Nations[0].ID != "east" {
		t.Fatalf("scenario = %+v", s)
	}
	e := s.Nations[0]
	if len(e.Forces) != 2 || e.Forces[1].At.Sea != "N" || e.Forces[1].Ships.Transports != 2 {
		t.Errorf("east's forces = %+v", e.Forces)
	}
	w := s.Nations[1]
	if w.Forces[0].Stance.String() != "attack" || !w.Forces[1].Garrison || w.Forces[0].At.Hex.String() != "0302" {
		t.Errorf("west's forces = %+v", w.Forces)
	}
	// The small map's nations are not worth 1600, so the rules refuse it.
	_, err = s.InitialState("g", "syw-1752")
	var errs scenario.Errors
	if !errors.As(err, &errs) || !strings.Contains(err.Error(), "expected the starting tax base 1600") {
		t.Errorf("InitialState on a map of small nations: %v", err)
	}
}

func TestLoadReportsEveryMistake(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // "line: fragment"
	}{
		{"unknown key", strings.Replace(goodSmall, "        stance: attack\n", "        stance: attack\n        colour: blue\n", 1),
			[]string{`22: read unknown key "colour" in a force, expected one of: id, at, stance`}},
		{"wrong type", strings.Replace(goodSmall, "treasury: 100", "treasury: lots", 1),
			[]string{`5: read "lots" where a whole number was expected`}},
		{"yaml syntax", "name: x\n  nations: [\n", []string{"2: mapping values are not allowed"}},
		{"empty", "", []string{"the file is empty"}},
		{"everything else", `name: Broken
calendar: {start_year: 1752, first_month: 13}
nations:
  - id: east
    depots: [Mitte, Ost, Ost, Atlantis]
    forces:
      - id: W1
        at: Ost
        generals: [{id: Ernst, name: General Ernst}]
        troops: [24 Z infantry, 12 B grenzer, 8 C gunners, lots of men]
        guns: [4 light-gun, 1 cannon]
      - id: E2
        at: N
        generals: [{id: Ernst, name: Another Ernst}]
        troops: [100 C infantry]
      - id: E3
        at: Mitte
        admirals: [{id: Ewald}]
        ships: {warships: 1}
      - id: E4
        at: "0402"
        troops: [20 C infantry]
      - id: E5
        at: "0909"
        troops: [20 C infantry]
      - id: E6
        at: "0403"
        generals: [{id: Egon, name: General Egon}]
  - id: north
  - id: east
`, []string{
			"2: read first_month 13, expected the month of the first turn",
			`5: depot in Mitte: expected one of east's own cities`,
			`5: a second depot in Ost`,
			`5: depot in "Atlantis": no such city on the map`,
			`7: read force ID "W1", expected east's letter and a number, such as E1`,
			`10: read troops "24 Z infantry": grade "Z": expected A, B, C or D`,
			`10: "12 B grenzer": irregular light infantry are Grade D only`,
			`10: read troops "lots of men": expected a count of 1 or more first`,
			`11: read guns "1 cannon": gun "cannon": expected light-gun, field-gun or heavy-gun`,
			`11: force W1 has 4 guns and 8 gunners: expected 4 gunners per gun (16)`,
			`13: land force E2 at N: expected a land hex`,
			`14: general ID Ernst is already used (line 9)`,
			`17: fleet E3 in Mitte: expected one of east's own ports`,
			`18: admiral Ewald has no name`,
			`20: force E4 has no general and is not in a city`,
			`24: force E5 at "0909": expected a city of the map, a hex on it (0812) or a sea area ID`,
			`27: land force E6 at 0403: a mountain hex`,
			`29: read nation "north", expected one of the map's nations: east, west`,
			`30: nation east is set up twice (first at line 4)`,
			`3: nation west has no starting position`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeScenario(t, tt.yaml)
			_, err := scenario.Load(dir)
			if err == nil {
				t.Fatalf("Load accepted it, want %d errors", len(tt.want))
			}
			var errs scenario.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error %T %v, want scenario.Errors", err, err)
			}
			file := filepath.Join(dir, scenario.FileName)
			for _, w := range tt.want {
				line, frag, found := strings.Cut(w, ": ")
				if !found {
					line, frag = "", w
				}
				ok := false
				for _, e := range errs {
					prefix := file + ":" + line + ": "
					if line == "" {
						prefix = file
					}
					if strings.HasPrefix(e.Error(), prefix) && strings.Contains(e.Error(), frag) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("missing %s:%s: …%s…", scenario.FileName, line, frag)
				}
			}
			if len(errs) != len(tt.want) {
				t.Errorf("got %d errors, want %d:\n%v", len(errs), len(tt.want), err)
			}
		})
	}
}

func TestLoadReportsMapErrors(t *testing.T) {
	dir := writeScenario(t, goodSmall)
	if err := os.WriteFile(filepath.Join(dir, "map.txt"), []byte("map x 2x2\nterrain\n01 ..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := scenario.Load(dir)
	var syn hexmap.SyntaxErrors
	if !errors.As(err, &syn) || !strings.Contains(err.Error(), "map.txt:3: the file ends inside the terrain grid") {
		t.Errorf("Load with a broken map: %v", err)
	}
	if _, err := scenario.Load(t.TempDir()); !os.IsNotExist(err) {
		t.Errorf("Load of an empty directory: %v", err)
	}
}
