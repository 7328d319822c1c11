package areamap

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

const tiny = `map "Tiny"
kingdom alba name="Alba Mhor" letter=A capital=Ashport
lane N1 "North Water" frozen at=10,1
lane W1 "West Water" at=1,10
link N1 W1
province Ashport port kingdom=alba coast=N1 at=10,10
province Moor plain at=20,10   # unclaimed
province Keep town kingdom=alba at=10,20
border Ashport Moor Keep
  # a comment inside a continued directive
border Moor
  Keep
road Ashport Keep
`

func TestParseTiny(t *testing.T) {
	m, err := Parse(strings.NewReader(tiny), "tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	if probs := m.Validate(ValidateOptions{FrozenLanes: 1}); len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if k, _ := m.Kingdom("alba"); k.Name != "Alba Mhor" || k.Capital != "Ashport" {
		t.Errorf("kingdom %+v", k)
	}
	if got := m.Neighbors("Moor"); !reflect.DeepEqual(got, []string{"Ashport", "Keep"}) {
		t.Errorf("Moor borders %v", got)
	}
	if !m.Road("Keep", "Ashport") || m.Road("Moor", "Keep") {
		t.Error("roads wrong")
	}
	if got := m.CoastsOn("N1"); !reflect.DeepEqual(got, []string{"Ashport"}) {
		t.Errorf("coasts on N1: %v", got)
	}
	if id, lane, ok := m.Lookup("ashport"); id != "Ashport" || lane || !ok {
		t.Errorf("Lookup ashport = %q %v %v", id, lane, ok)
	}
	if id, lane, ok := m.Lookup("n1"); id != "N1" || !lane || !ok {
		t.Errorf("Lookup n1 = %q %v %v", id, lane, ok)
	}
	if d := m.LandDistances("Ashport"); d["Keep"] != 1 || d["Moor"] != 1 {
		t.Errorf("distances %v", d)
	}
}

// TestParseErrors: every syntax error names its line and says what was read
// and what was expected; all of them come back at once.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		line int
		want string
	}{
		{"kingdom a name=A letter=A capital=X\n", 1, "before the map header"},
		{"map \"M\"\nmap \"N\"\n", 2, "a second map header"},
		{"map \"M\"\nfrobnicate x\n", 2, `read "frobnicate": expected a directive`},
		{"map \"M\"\nkingdom Alba name=A letter=A capital=X\n", 2, "expected a lower-case word"},
		{"map \"M\"\nkingdom alba name=A letter=ab capital=X\n", 2, "expected one capital letter"},
		{"map \"M\"\nkingdom alba letter=A capital=X\n", 2, "has no name="},
		{"map \"M\"\nprovince elk plain\n", 2, "expected one word starting with a capital letter"},
		{"map \"M\"\nprovince Elk swamp\n", 2, "expected plain, town or port"},
		{"map \"M\"\nprovince Elk plain colour=red\n", 2, "expected kingdom=, coast= or at="},
		{"map \"M\"\nprovince Elk port coast=north\n", 2, "expected lane IDs such as N1"},
		{"map \"M\"\nprovince Elk plain at=5\n", 2, "expected two whole numbers"},
		{"map \"M\"\nprovince Elk plain\nprovince Elk town\n", 3, "declared twice (first on line 2)"},
		{"map \"M\"\nlane n1 \"x\"\n", 2, "expected capital letters then digits"},
		{"map \"M\"\nlane N1 \"x\" icy\n", 2, "expected frozen or at=X,Y"},
		{"map \"M\"\nborder Elk\n", 2, "expected border FIRST NEXT"},
		{"map \"M\"\nlink N1 moor\n", 2, "expected lane IDs"},
		{"map \"M\"\nroad Elk\n", 2, "expected road FIRST SECOND"},
		{"  border A B\nmap \"M\"\n", 1, "no directive above it to continue"},
		{"map \"M\nprovince A plain\n", 1, "never closed"},
		{"", 0, "no map header"},
	}
	for _, c := range cases {
		_, err := Parse(strings.NewReader(c.in), "m.txt")
		errs, ok := err.(SyntaxErrors)
		if !ok || len(errs) == 0 {
			t.Errorf("%q: want an error at line %d, got %v", c.in, c.line, err)
			continue
		}
		found := false
		for _, e := range errs {
			if e.Line == c.line && strings.Contains(e.Msg, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want line %d %q, got\n%v", c.in, c.line, c.want, err)
		}
	}
}

// TestValidateBroken: each mistake of testdata/broken.txt is found at its
// line.
func TestValidateBroken(t *testing.T) {
	m, err := Load("testdata/broken.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		3:  {"the map has 1 frozen lanes: expected 4"},
		5:  {"letter A, which alba has already", `named "Alba", as alba is`, "capital=Nowhere is no province"},
		7:  {"its capital Ashgate belongs to alba"},
		9:  {"lane N2 is linked to no lane"},
		11: {"Ashgate is a port with no coast"},
		12: {"coast lane N9 is not declared"},
		13: {"kingdom=zed is not declared", "province Island has no border and no coast"},
		14: {"Dupe is at 5,5, where Coldmoor is drawn"},
		15: {"Undrawn has no at=X,Y"},
		16: {"Nowhere is no province"},
		17: {"border Ashfield–Ashgate is given twice (first on line 16)"},
		18: {"joins a province to itself"},
		19: {"road Ashgate–Coldmoor: the two provinces share no border"},
	}
	got := map[int][]string{}
	for _, p := range m.Validate(ValidateOptions{FrozenLanes: 4}) {
		got[p.Line] = append(got[p.Line], p.Message)
	}
	for line, msgs := range want {
		for _, w := range msgs {
			ok := false
			for _, g := range got[line] {
				ok = ok || strings.Contains(g, w)
			}
			if !ok {
				t.Errorf("line %d: want %q, got %q", line, w, got[line])
			}
		}
	}
	if len(got[6]) != 0 {
		t.Errorf("line 6 is a good kingdom, got %v", got[6])
	}
}

// TestFormatRoundTrip: Format writes what Parse reads back to the same map.
func TestFormatRoundTrip(t *testing.T) {
	for _, src := range []string{tiny, mustRead(t, "../scenarios/trossian/map.txt")} {
		m, err := Parse(strings.NewReader(src), "in")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Format(&b, m); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&b, "out")
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		if !sameMap(m, back) {
			t.Errorf("round trip differs:\n%+v\n%+v", m.Provinces[:2], back.Provinces[:2])
		}
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameMap compares two maps without their line numbers.
func sameMap(a, b *Map) bool {
	strip := func(m *Map) Map {
		c := Map{Name: m.Name}
		for _, k := range m.Kingdoms {
			k.Line = 0
			c.Kingdoms = append(c.Kingdoms, k)
		}
		for _, p := range m.Provinces {
			p.Line = 0
			c.Provinces = append(c.Provinces, p)
		}
		for _, l := range m.Lanes {
			l.Line = 0
			c.Lanes = append(c.Lanes, l)
		}
		nolines := func(l []Pair) []Pair {
			out := []Pair{}
			for _, p := range l {
				p.Line = 0
				out = append(out, p)
			}
			return out
		}
		c.Borders, c.Roads, c.Links = nolines(m.Borders), nolines(m.Roads), nolines(m.Links)
		return c
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// FuzzParse: no input makes Parse panic, and a map it reads survives the
// round trip through Format; Validate never panics either.
func FuzzParse(f *testing.F) {
	f.Add(tiny)
	f.Add(mustReadF(f, "../scenarios/trossian/map.txt"))
	f.Add(mustReadF(f, "testdata/broken.txt"))
	f.Add("map \"x\"\nprovince A\"b plain\n")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(strings.NewReader(src), "fuzz")
		if err != nil {
			return
		}
		m.Validate(ValidateOptions{FrozenLanes: 4})
		var b bytes.Buffer
		if err := Format(&b, m); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(bytes.NewReader(b.Bytes()), "again")
		if err != nil {
			t.Fatalf("Format wrote what Parse refuses: %v\n%s", err, b.String())
		}
		if !sameMap(m, back) {
			t.Fatalf("round trip differs:\n%s", b.String())
		}
	})
}

func mustReadF(f *testing.F, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}
