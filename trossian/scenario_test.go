package trossian

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/scenarios"
)

// loadDefault reads the embedded default scenario.
func loadDefault(t testing.TB) *Scenario {
	t.Helper()
	fsys := scenarios.Trossian()
	mf, err := fsys.Open("map.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	m, err := areamap.Parse(mf, "map.txt")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(fsys, "scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(data, m, "scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestDefaultScenario: the default scenario reads, every kingdom of the map
// starts with armies in its towns, navies in its ports, couriers and a
// census that covers what it fields.
func TestDefaultScenario(t *testing.T) {
	sc := loadDefault(t)
	st := sc.InitialState("g", Trossian1801())
	if len(st.Nations) != 5 || st.Turn != 1 || st.Calendar.Name(1) != "Early Spring 1801" {
		t.Fatalf("nations %d, turn %s", len(st.Nations), st.Calendar.Name(st.Turn))
	}
	for _, ns := range st.Nations {
		if ns.Couriers == 0 || ns.Census.Total() == 0 {
			t.Errorf("%s: couriers %d census %s", ns.ID, ns.Couriers, ns.Census)
		}
		if seatOf(sc.Map, st, ns.ID) != ns.Capital {
			t.Errorf("%s: the King is not in his capital", ns.ID)
		}
	}
	if st.Controller("Trossburg") != "" || st.Controller("Kessel") != "ostmark" {
		t.Error("controllers wrong")
	}
}

// TestScenarioErrors: every mistake comes back with its line.
func TestScenarioErrors(t *testing.T) {
	m := loadDefault(t).Map
	src := `name: x
start_year: 1801
kingdoms:
  - id: norvale
    census: [1 hq, 2 line-infantry]
    armies:
      - id: X1
        at: Elkmoor
        stands: [2 line-infantry, 1 line-infantry]
    navies:
      - {id: NF1, at: Tarnwick}
  - id: atlantis
`
	_, err := ParseScenario([]byte(src), m, "s.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`s.yaml:7: army ID "X1"`,
		`s.yaml:8: army X1 at Elkmoor: expected one of norvale's towns or ports`,
		`s.yaml:9: army X1 has no hq`,
		`s.yaml:5: norvale fields 3 line-infantry, more than its census of 2`,
		`s.yaml:11: navy NF1 at "Tarnwick": expected one of norvale's ports`,
		`s.yaml:12: kingdom "atlantis" is not on the map`,
		`kingdom ostmark of the map has no entry`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in\n%v", want, err)
		}
	}
	if _, err := ParseScenario([]byte("name: x\nbogus: 1\n"), m, "s.yaml"); err == nil || !strings.Contains(err.Error(), "s.yaml:2:") {
		t.Errorf("unknown key: %v", err)
	}
}

// FuzzParseScenario: no scenario.yaml makes the reader panic, and one it
// accepts makes a state every kingdom of the map is in.
func FuzzParseScenario(f *testing.F) {
	data, err := fs.ReadFile(scenarios.Trossian(), "scenario.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("name: x\nstart_year: 1801\nkingdoms: []\n")
	f.Add("name: x\nkingdoms:\n  - id: norvale\n    banks: {Elkmoor: -1}\n")
	m := loadDefault(f).Map
	f.Fuzz(func(t *testing.T, src string) {
		sc, err := ParseScenario([]byte(src), m, "s.yaml")
		if err != nil {
			return
		}
		st := sc.InitialState("f", Trossian1801())
		if len(st.Nations) != len(m.Kingdoms) {
			t.Fatalf("%d nations", len(st.Nations))
		}
	})
}
