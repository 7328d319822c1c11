package hexmap_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// brokenProblems are the problems testdata/broken.map must show: the line and
// the start of the message, in Validate's order.
var brokenProblems = []struct {
	line int
	msg  string
}{
	{9, "2 land hexes are in no province"},
	{14, "6 sea hexes are in no sea area"},
	{19, "hex 0404 is in provinces B and C"},
	{20, "province A is not contiguous"},
	{24, "nation north declares tax=700 but its home cities are worth 400 (Inlan"},
	{24, "nation north's home cities are worth 400, expected the starting tax ba"},
	{25, "nations north and south both use force letter N"},
	{25, "nation south's capitol \"Nowhere\" is not a city on the map"},
	{25, "nation south lists province C, whose owner is neutral"},
	{25, "nation south's home cities are worth 600, expected the starting tax ba"},
	{26, "nation east's capitol Dry (0604) is not in one of its home provinces Y"},
	{26, "nation east lists province Y, which is not declared"},
	{26, "nation east declares tax=100 but its home cities are worth 0 (no home "},
	{26, "nation east's home cities are worth 0, expected the starting tax base "},
	{28, "province B has no city"},
	{30, "province D has sea hexes 0907"},
	{31, "province Z's owner atlantis is not a declared nation"},
	{32, "city Shore (0202) is on the coast, so it is a port (\"All coastal citie"},
	{33, "city Inland (0303) is marked port but no sea hex touches it"},
	{34, "city Dry (0604) is on the coast, so it is a port (\"All coastal cities "},
	{34, "city Dry (0604) is marked river but no river runs along its hexsides"},
	{35, "city Wet (0705) has a river along a hexside (0705/0805), so it is on a"},
	{36, "city Atlantis is at 0601, a sea hex"},
	{41, "sea area E has land hexes 0702"},
	{41, "sea area E is not contiguous"},
	{41, "sea areas E and S touch but have no wind marker"},
	{42, "sea area S is not contiguous"},
	{43, "sea areas N and W touch but have no wind marker"},
	{45, "wind marker E–X names sea area X, which is not declared"},
	{46, "wind marker from W to itself"},
	{47, "wind marker between S and N, which do not touch"},
	{48, "river 0101/0102 touches the sea"},
	{48, "river 0304/0306"},
	{49, "road 0303/0505"},
	{50, "road 0606/0607 runs into the sea"},
	{51, "good-holding hex 0206 holds the city Cape Town"},
	{51, "good-holding hex 0704 is not coastal land"},
}

func TestValidateBrokenMap(t *testing.T) {
	path := filepath.Join("testdata", "broken.map")
	m, err := hexmap.Load(path)
	if err != nil {
		t.Fatalf("broken.map should parse (its mistakes are for Validate): %v", err)
	}
	got := m.Validate(rulesOptions())
	for i, want := range brokenProblems {
		if i >= len(got) {
			t.Errorf("missing problem at line %d: %s…", want.line, want.msg)
			continue
		}
		if got[i].Line != want.line || !strings.HasPrefix(got[i].Message, want.msg) {
			t.Errorf("problem %d = %s\nwant line %d: %s…", i, got[i].In(path), want.line, want.msg)
		}
	}
	for _, p := range got[min(len(got), len(brokenProblems)):] {
		t.Errorf("unexpected problem: %s", p.In(path))
	}
}

// Mistakes Parse refuses outright (duplicates) can still come from a
// generator; Validate finds them too.
func TestValidateGeneratedMistakes(t *testing.T) {
	good := func() *hexmap.Map {
		m := &hexmap.Map{Name: "G", Cols: 3, Rows: 1,
			Terrain:   []game.Terrain{game.Clear, game.Clear, game.Sea},
			Nations:   []game.Nation{{ID: "a", Name: "A", Letter: "A", Capitol: "X", Provinces: []string{"P"}}},
			Provinces: []hexmap.Province{{Letter: "P", Name: "Pe", Owner: "a", Hexes: []game.Hex{hx("0101"), hx("0201")}}},
			Cities:    []hexmap.City{{Name: "X", Hex: hx("0101"), Province: "P", Capitol: "a"}, {Name: "Y", Hex: hx("0201"), Port: true, Province: "P"}},
			Seas:      []hexmap.SeaArea{{ID: "S", Name: "Sea", Hexes: []game.Hex{hx("0301")}}},
		}
		m.Build()
		return m
	}
	if ps := good().Validate(hexmap.ValidateOptions{}); len(ps) != 0 {
		t.Fatalf("the good generated map has problems: %v", ps)
	}
	tests := []struct {
		name  string
		spoil func(m *hexmap.Map)
		want  string
	}{
		{"duplicate nation", func(m *hexmap.Map) { m.Nations = append(m.Nations, m.Nations[0]) }, "nation a is declared twice"},
		{"duplicate province letter", func(m *hexmap.Map) {
			m.Provinces = append(m.Provinces, hexmap.Province{Letter: "P", Name: "Again", Hexes: []game.Hex{hx("0201")}})
		}, "province letter P is used twice"},
		{"duplicate city name", func(m *hexmap.Map) { m.Cities[1].Name = "x" }, "city name x is used twice"},
		{"two cities in a hex", func(m *hexmap.Map) { m.Cities[1].Hex = hx("0101") }, "cities X and Y are both in hex 0101"},
		{"wrong province field", func(m *hexmap.Map) { m.Cities[1].Province = "Q" }, `city Y (0201) says province "Q", but its hex is in province P`},
		{"capitol field without a nation", func(m *hexmap.Map) { m.Cities[1].Capitol = "a" }, "city Y is marked capitol of a, which does not name it as capitol"},
		{"capitol field missing", func(m *hexmap.Map) { m.Cities[0].Capitol = "" }, "city X is nation a's capitol but is marked as"},
		{"duplicate wind marker", func(m *hexmap.Map) {
			m.Seas = append(m.Seas, hexmap.SeaArea{ID: "T", Name: "T"})
			m.Winds = []hexmap.Wind{{From: "S", To: "T", Kind: hexmap.WithWind}, {From: "T", To: "S", Kind: hexmap.BothWays}}
		}, "a second wind marker between S and T"},
		{"terrain size", func(m *hexmap.Map) { m.Terrain = m.Terrain[:2] }, "the map is 3x1 but has 2 terrain hexes"},
		{"province off the map", func(m *hexmap.Map) { m.Provinces[0].Hexes = append(m.Provinces[0].Hexes, hx("0909")) }, "province P has hexes off the map: 0909"},
		{"no name", func(m *hexmap.Map) { m.Provinces[0].Name = "" }, "province P has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := good()
			tt.spoil(m)
			m.Build()
			ps := m.Validate(hexmap.ValidateOptions{})
			found := false
			for _, p := range ps {
				if strings.Contains(p.Message, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("problems %v, want one saying %q", ps, tt.want)
			}
		})
	}
}

func TestProblemPrinting(t *testing.T) {
	p := hexmap.Problem{Line: 12, Message: "city X is lost"}
	if got := p.In("map.txt"); got != "map.txt:12: city X is lost" {
		t.Errorf("In = %q", got)
	}
	p = hexmap.Problem{Hex: hx("0812"), Message: "no province"}
	if got := p.In("map.txt"); got != "map.txt: hex 0812: no province" {
		t.Errorf("In = %q", got)
	}
}
