package hexmap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

var defaultMapPath = filepath.Join("..", "scenarios", "default", "map.txt")

func rulesOptions() hexmap.ValidateOptions {
	t := ruleset.SYW1752().Taxes
	return hexmap.ValidateOptions{TaxValue: t.Of, StartingTaxBase: t.StartingTaxBase}
}

func loadDefault(t testing.TB) *hexmap.Map {
	t.Helper()
	m, err := hexmap.Load(defaultMapPath)
	if err != nil {
		t.Fatalf("the default map does not parse:\n%v", err)
	}
	return m
}

// small is a complete little map: two nations, a neutral, two seas.
const small = `# a test map
map "Small" 6x5
terrain
#  123456
01 ~~~~~~
02 ~..r.~  # a comment after a row
03 ~.w^.~
04 ~....~
05 ~~~~~~
provinces
01 ~~~~~~
02 ~AABB~
03 ~AABB~
04 ~CCCC~
05 ~~~~~~
nation east name="East Land" letter=E capitol=Ost provinces=B traits=volley_rout_hit,irregular_light tax=300
nation west name=West letter=W capitol="West Port" provinces=A tax=300
province A "Westmark" owner=west
province B "Ostmark" owner=east
province C "Sudland" owner=neutral
city "West Port" 0202 port
city Ost 0502 port
city "Mitte" 0404 port river
sea N "North Water" hexes=0101-0105 0201 0301 0401 0501 0601-0603
sea S "South Water"
    hexes=0205 0305,0405 0505
    0604-0605
wind N > S
river 0304/0404 0304/0403
road 0202 0302 0402 0502
road 0404 0304 0303
goodholding 0203
`

func TestDefaultMapValidates(t *testing.T) {
	m := loadDefault(t)
	for _, p := range m.Validate(rulesOptions()) {
		t.Errorf("%s", p.In(defaultMapPath))
	}
}

func TestSmallMapParses(t *testing.T) {
	m, err := hexmap.Parse(strings.NewReader(small), "small.map")
	if err != nil {
		t.Fatal(err)
	}
	if ps := m.Validate(rulesOptions()); len(ps) != 0 {
		// The small map's nations are worth 300, not 1600.
		for _, p := range ps {
			if !strings.Contains(p.Message, "starting tax base 1600") {
				t.Errorf("unexpected problem: %s", p)
			}
		}
	}
	if ps := m.Validate(hexmap.ValidateOptions{TaxValue: ruleset.SYW1752().Taxes.Of}); len(ps) != 0 {
		t.Errorf("small map problems: %v", ps)
	}
	if m.Name != "Small" || m.Cols != 6 || m.Rows != 5 {
		t.Errorf("header = %q %dx%d", m.Name, m.Cols, m.Rows)
	}
	if got := m.TerrainAt(hx("0302")); got != game.Clear {
		t.Errorf("0302 is %v, want clear", got)
	}
	if got := m.TerrainAt(hx("0403")); got != game.Mountain {
		t.Errorf("0403 is %v, want mountain", got)
	}
	if n, _ := m.Nation("east"); n.Name != "East Land" || !n.Traits.VolleyRoutHit || !n.Traits.IrregularLight || n.Traits.AdvanceFireBonus {
		t.Errorf("nation east = %+v", n)
	}
	if m.HomeTax["west"] != 300 {
		t.Errorf("declared tax of west = %d", m.HomeTax["west"])
	}
	if c, _ := m.City("west port"); c.Capitol != "west" || c.Province != "A" || !c.Port || c.River {
		t.Errorf("West Port = %+v", c)
	}
	if c, _ := m.City("Mitte"); c.Province != "C" || !c.River {
		t.Errorf("Mitte = %+v", c)
	}
	s, _ := m.Sea("S")
	if want := []game.Hex{hx("0205"), hx("0305"), hx("0405"), hx("0505"), hx("0604"), hx("0605")}; !reflect.DeepEqual(s.Hexes, want) {
		t.Errorf("sea S hexes (continued lines, commas, ranges) = %v, want %v", s.Hexes, want)
	}
	if k, _ := m.WindBetween("N", "S"); k != hexmap.WithWind {
		t.Errorf("N→S wind = %v", k)
	}
	if k, marked := m.WindBetween("S", "N"); k != hexmap.NoWind || !marked {
		t.Errorf("S→N wind = %v %v, want against the wind", k, marked)
	}
	if !m.Road(hx("0302"), hx("0202")) || !m.Road(hx("0303"), hx("0304")) || m.Road(hx("0202"), hx("0502")) {
		t.Errorf("roads = %v", m.Roads)
	}
	if got := m.Line("city Ost"); got != 22 {
		t.Errorf("Lines[city Ost] = %d, want 22", got)
	}
	if got := m.Line("sea S 0604"); got != 27 {
		t.Errorf("Lines[sea S 0604] = %d, want 27 (a continuation line)", got)
	}
	if got := m.Line("province B 0502"); got != 12 {
		t.Errorf("Lines[province B 0502] = %d, want 12 (its provinces grid row)", got)
	}
}

// equalMaps compares two maps field by field, ignoring where things were
// declared.
func equalMaps(t *testing.T, a, b *hexmap.Map) {
	t.Helper()
	ca, cb := *a, *b
	ca.Lines, cb.Lines = nil, nil
	if !reflect.DeepEqual(ca, cb) {
		var fa, fb bytes.Buffer
		hexmap.Format(&fa, a)
		hexmap.Format(&fb, b)
		t.Errorf("maps differ after a round trip:\n--- first\n%s\n--- second\n%s", clipText(fa.String()), clipText(fb.String()))
	}
}

func clipText(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

func roundTrip(t *testing.T, m *hexmap.Map) {
	t.Helper()
	var first bytes.Buffer
	if err := hexmap.Format(&first, m); err != nil {
		t.Fatal(err)
	}
	back, err := hexmap.Parse(bytes.NewReader(first.Bytes()), "formatted")
	if err != nil {
		t.Fatalf("Format wrote a file Parse refuses:\n%v\n%s", err, clipText(first.String()))
	}
	equalMaps(t, m, back)
	var second bytes.Buffer
	hexmap.Format(&second, back)
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("Format is not stable across a round trip")
	}
}

func TestRoundTrip(t *testing.T) {
	roundTrip(t, loadDefault(t))
	m, err := hexmap.Parse(strings.NewReader(small), "small.map")
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, m)
}

// A map built in code (as a generator would) writes and reads back the same,
// hexes in two provinces and all.
func TestFormatGeneratedMap(t *testing.T) {
	roundTrip(t, genMap())
}

func genMap() *hexmap.Map {
	m := &hexmap.Map{Name: "Generated", Cols: 3, Rows: 2,
		Terrain: []game.Terrain{game.Clear, game.Rough, game.Sea, game.Woods, game.Mountain, game.Sea},
		Nations: []game.Nation{{ID: "a", Name: "A", Letter: "A", Capitol: "X", Provinces: []string{"P", "QQ"}}},
		Provinces: []hexmap.Province{
			{Letter: "P", Name: "Pe", Owner: "a", Hexes: []game.Hex{hx("0101"), hx("0102")}},
			{Letter: "QQ", Name: "Two letters", Owner: "a", Hexes: []game.Hex{hx("0201"), hx("0102")}},
		},
		Cities: []hexmap.City{{Name: "X", Hex: hx("0101")}},
		Seas:   []hexmap.SeaArea{{ID: "S1", Name: "Sea", Hexes: []game.Hex{hx("0301"), hx("0302")}}},
		Roads:  []hexmap.Edge{hexmap.EdgeOf(hx("0101"), hx("0201")), hexmap.EdgeOf(hx("0101"), hx("0102")), hexmap.EdgeOf(hx("0201"), hx("0202"))},
		Rivers: []hexmap.Edge{hexmap.EdgeOf(hx("0101"), hx("0201"))},
	}
	m.Build()
	// Parse derives a city's province and capitol; set them as it would.
	m.Cities[0].Province = "P"
	m.Cities[0].Capitol = "a"
	return m
}

func hx(s string) game.Hex {
	h, err := game.ParseHex(s)
	if err != nil {
		panic(err)
	}
	return h
}

func TestParseReportsEveryError(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // "line: fragment", in order
	}{
		{"no header", "terrain\n", []string{"1: read \"terrain\", expected the header first"}},
		{"bad size", "map x 3by2\n", []string{"1: read size \"3by2\", expected COLSxROWS"}},
		{"unknown directive and bad rows", `map x 3x2
terrain
01 .~
02 .x.
castle 0101
`, []string{
			"3: row 01 of the terrain grid has 2 characters, expected 3",
			"4: hex 0202: read 'x', expected a terrain character",
			"5: read \"castle\", expected a directive",
		}},
		{"missing row", `map x 3x3
terrain
01 ...
03 ...
`, []string{"4: read row number \"03\", expected row 02"}},
		{"bad header swallows its grid", `map x
terrain
01 ...
02 ...
city x 0101
`, []string{"1: read 1 words after map", "2: read the terrain grid before a valid map header"}},
		{"everything at once", `map x 4x4
terrain
01 ....
02 ....
03 ....
04 ....
nation Big name=B letter=B capitol=C provinces=A
nation b name=B letter=b1 capitol=C provinces=a wings=2
province A "A" owner=b hexes=0101-0103 0201-0102
province A "Again" owner=b
city "C" 0505 port
city "D" 0101 harbour
sea S1 "S" hexes=0101 0101
wind S1 -> S2
river 0101-0102
road 0101
goodholding 0102 0102
`, []string{
			"7: read nation ID \"Big\", expected a lower-case word",
			"8: read letter \"b1\", expected one to three capital letters",
			"8: read province letter \"a\", expected capital letters",
			"8: read wings=, expected name, letter, capitol, provinces, traits or tax",
			"9: read range \"0201-0102\", expected a run down one column",
			"10: province A is declared again",
			"11: hex 0505 is off the map",
			"12: read \"harbour\" after the city's hex, expected port or river",
			"13: hex 0101 is given twice for sea area S1",
			"14: expected: wind FROM > TO",
			"15: read \"0101-0102\", expected a hexside as two hexes joined by /",
			"16: expected: road HEX HEX",
			"17: hex 0102 is marked good holding twice",
		}},
		{"unclosed quote and stray indent", `map x 2x2
terrain
01 ..
02 ..
  hexes=0101
city "Open 0101
province Z "Zed" owner=neutral
provinces
01 Z.
02 .Y
`, []string{
			"5: read an indented line",
			"6: a quoted name is not closed",
			"10: province letter Y in the provinces grid has no province line",
		}},
		{"no terrain", "map x 2x2\n", []string{"1: the file has no terrain grid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := hexmap.Parse(strings.NewReader(tt.in), "t.map")
			if err == nil {
				t.Fatalf("Parse accepted the map, want %d errors", len(tt.want))
			}
			errs, ok := err.(hexmap.SyntaxErrors)
			if !ok {
				t.Fatalf("error is %T, want hexmap.SyntaxErrors", err)
			}
			if len(errs) != len(tt.want) {
				t.Errorf("got %d errors, want %d:\n%v", len(errs), len(tt.want), err)
			}
			for i, w := range tt.want {
				if i >= len(errs) {
					break
				}
				line, frag, _ := strings.Cut(w, ": ")
				got := errs[i].Error()
				if !strings.HasPrefix(got, "t.map:"+line+": ") || !strings.Contains(got, frag) {
					t.Errorf("error %d = %q, want t.map:%s: …%s…", i, got, line, frag)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := hexmap.Load(filepath.Join(t.TempDir(), "none.map")); !os.IsNotExist(err) {
		t.Errorf("Load of a missing file: %v, want not-exist", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(small)
	if b, err := os.ReadFile(defaultMapPath); err == nil {
		f.Add(string(b))
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "broken.map")); err == nil {
		f.Add(string(b))
	}
	f.Add("map x 2x1\nterrain\n01 .~\nroad 0101 0101\nriver 0101/0101\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := hexmap.Parse(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		m.Validate(rulesOptions())
		m.Summary(ruleset.SYW1752().Taxes.Of)
		var first bytes.Buffer
		if err := hexmap.Format(&first, m); err != nil {
			t.Fatal(err)
		}
		back, err := hexmap.Parse(bytes.NewReader(first.Bytes()), "formatted")
		if err != nil {
			t.Fatalf("Format wrote a file Parse refuses:\n%v\n%s", err, clipText(first.String()))
		}
		equalMaps(t, m, back)
		var second bytes.Buffer
		hexmap.Format(&second, back)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Errorf("Format is not stable:\n%s\n---\n%s", first.String(), second.String())
		}
	})
}
