package scenario_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

var defaultDir = filepath.Join("..", "scenarios", "default")

func loadDefault(t *testing.T) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Load(defaultDir)
	if err != nil {
		t.Fatalf("the default scenario does not load:\n%v", err)
	}
	return s
}

func TestDefaultScenarioStartsUnderBothEditions(t *testing.T) {
	s := loadDefault(t)
	for _, id := range ruleset.IDs() {
		if _, err := s.InitialState("g1", id); err != nil {
			t.Errorf("InitialState under %s: %v", id, err)
		}
	}
	if _, err := s.InitialState("g1", "syw-1066"); err == nil {
		t.Errorf("InitialState accepted an unknown rule edition")
	}
}

func TestDefaultInitialState(t *testing.T) {
	s := loadDefault(t)
	st, err := s.InitialState("g1", "syw-1752")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Map
	if st.Turn != 1 || st.Game != "g1" || st.Ruleset != "syw-1752" {
		t.Errorf("state header = %q %q turn %d", st.Game, st.Ruleset, st.Turn)
	}
	if got := st.Calendar.Label(1); got != "Turn 1, April 1752" {
		t.Errorf("turn 1 is %q, want Turn 1, April 1752", got)
	}
	if len(st.Nations) != 5 {
		t.Fatalf("%d nations, want 5", len(st.Nations))
	}
	if len(st.Cities) != len(m.Cities) {
		t.Errorf("%d city states for %d cities", len(st.Cities), len(m.Cities))
	}
	for _, ns := range st.Nations {
		n, _ := m.Nation(ns.ID)
		t.Run(string(ns.ID), func(t *testing.T) {
			capitol, ok := st.City(n.Capitol)
			if !ok || capitol.Controller != n.ID || capitol.Treasury <= 0 {
				t.Errorf("capitol %s = %+v, want held by %s with a treasury", n.Capitol, capitol, n.ID)
			}
			var general, fleet, big bool
			maxID := 0
			for _, id := range st.ForcesOf(ns.ID) {
				f, _ := st.Force(id)
				general = general || f.HasRole(game.General)
				fleet = fleet || (f.IsFleet() && f.HasRole(game.Admiral))
				big = big || f.FightingFigures() >= 100
				if !strings.HasPrefix(string(id), n.Letter) {
					t.Errorf("force %s does not start with %s's letter %s", id, n.ID, n.Letter)
				}
				var num int
				fmt.Sscanf(strings.TrimPrefix(string(id), n.Letter), "%d", &num)
				maxID = max(maxID, num)
				checkPlace(t, s, f)
			}
			if !general || !fleet || !big {
				t.Errorf("general %v, fleet with admiral %v, force of 100+ figures %v: want all", general, fleet, big)
			}
			if ns.NextForce != maxID+1 {
				t.Errorf("NextForce = %d, want %d", ns.NextForce, maxID+1)
			}
			depots := 0
			for _, d := range st.Depots {
				if d.Nation != ns.ID {
					continue
				}
				depots++
				c, ok := m.CityAt(d.At.Hex)
				if !ok || m.HomeCities(ns.ID) == nil || c == nil {
					t.Errorf("depot %s is not in a city", d.ID)
					continue
				}
				if cs, _ := st.City(c.Name); cs.Controller != ns.ID {
					t.Errorf("depot %s in %s, held by %q", d.ID, c.Name, cs.Controller)
				}
				if !strings.HasPrefix(d.ID, n.Letter+"-D") {
					t.Errorf("depot ID %s, want %s-D…", d.ID, n.Letter)
				}
			}
			if depots == 0 || ns.NextDepot != depots+1 {
				t.Errorf("%d depots, NextDepot %d", depots, ns.NextDepot)
			}
		})
	}
	for _, c := range m.Cities {
		cs, _ := st.City(c.Name)
		p, _ := m.Province(c.Province)
		if cs.Controller != p.Owner || cs.Loyalty != p.Owner {
			t.Errorf("city %s starts held by %q loyal to %q, want %q (its province's owner)", c.Name, cs.Controller, cs.Loyalty, p.Owner)
		}
		if c.Capitol == game.Neutral && cs.Treasury != 0 {
			t.Errorf("city %s has a treasury but is no capitol", c.Name)
		}
	}
	// The state is normalised: normalising again changes nothing.
	again := st.Clone()
	again.Normalize()
	if !reflect.DeepEqual(st, again) {
		t.Errorf("InitialState is not normalised")
	}
}

// checkPlace: land forces on land in their home provinces, fleets in their
// ports or at sea.
func checkPlace(t *testing.T, s *scenario.Scenario, f *game.Force) {
	t.Helper()
	m := s.Map
	if f.IsFleet() {
		if f.At.IsSea() {
			if _, ok := m.Sea(f.At.Sea); !ok {
				t.Errorf("fleet %s at unknown sea area %s", f.ID, f.At.Sea)
			}
			return
		}
		if c, ok := m.CityAt(f.At.Hex); !ok || !c.Port {
			t.Errorf("fleet %s at %s, not a port", f.ID, f.At)
		}
		return
	}
	if f.At.IsSea() || !m.IsLand(f.At.Hex) || m.TerrainAt(f.At.Hex) == game.Mountain {
		t.Errorf("land force %s at %s, not passable land", f.ID, f.At)
	}
	if p, ok := m.ProvinceOf(f.At.Hex); !ok || p.Owner != f.Nation {
		t.Errorf("land force %s at %s, outside its home provinces", f.ID, f.At)
	}
}

func TestInitialStateEncodesStably(t *testing.T) {
	s := loadDefault(t)
	encode := func() []byte {
		st, err := s.InitialState("g1", "syw-1752")
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first, second := encode(), encode()
	if !bytes.Equal(first, second) {
		t.Errorf("two InitialStates encode differently")
	}
	var back engine.State
	if err := json.Unmarshal(first, &back); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&back)
	if !bytes.Equal(first, b) {
		t.Errorf("the state does not survive a JSON round trip")
	}
	// A fresh load gives the same bytes too.
	s2 := loadDefault(t)
	st2, _ := s2.InitialState("g1", "syw-1752")
	b2, _ := json.Marshal(st2)
	if !bytes.Equal(first, b2) {
		t.Errorf("two loads of the scenario encode differently")
	}
}

// The nations start of comparable strength: every total within 5% of the
// mean, and docs/scenario.md shows the numbers the code computes.
func TestStrengthsAreComparable(t *testing.T) {
	s := loadDefault(t)
	strengths := s.Strengths(ruleset.SYW1752())
	sum := 0
	for _, st := range strengths {
		sum += st.Total
	}
	mean := sum / len(strengths)
	for _, st := range strengths {
		if d := st.Total - mean; d*20 > mean || -d*20 > mean {
			t.Errorf("%s starts with %d, more than 5%% off the mean %d", st.Nation, st.Total, mean)
		}
		if st.FieldCost >= ruleset.SYW1752().Taxes.StartingTaxBase {
			t.Errorf("%s cannot field its own army: %d crowns against a %d tax base", st.Nation, st.FieldCost, ruleset.SYW1752().Taxes.StartingTaxBase)
		}
	}
	table := strengthTable(s, strengths)
	doc, err := os.ReadFile(filepath.Join("..", "docs", "scenario.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), table) {
		t.Errorf("docs/scenario.md does not show the current strengths; it should contain:\n%s", table)
	}
}

// strengthTable is the markdown table docs/scenario.md carries.
func strengthTable(s *scenario.Scenario, strengths []scenario.Strength) string {
	var b strings.Builder
	b.WriteString("| nation | infantry | cavalry | gunners | guns | generals | admirals | warships | transports | depots | land PV | leaders | navy | depots PV | treasury | total | field cost |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, st := range strengths {
		n, _ := s.Map.Nation(st.Nation)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | **%d** | %d |\n",
			n.Name, st.Infantry, st.Cavalry, st.Gunners, st.Guns, st.Generals, st.Admirals, st.Warships, st.Transports,
			st.Depots, st.LandPV, st.LeaderPV, st.NavalPV, st.DepotPV, st.Treasury, st.Total, st.FieldCost)
	}
	return b.String()
}
