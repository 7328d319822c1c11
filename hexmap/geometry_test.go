package hexmap

import (
	"math"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

func hx(s string) game.Hex {
	h, err := game.ParseHex(s)
	if err != nil {
		panic(err)
	}
	return h
}

// The neighbours below were read off a printed hex sheet: flat-topped hexes,
// 0101 at the top left, even columns half a hex lower.
func TestStepOddAndEvenColumns(t *testing.T) {
	tests := []struct {
		from string
		want [6]string // N, NE, SE, S, SW, NW
	}{
		{"0712", [6]string{"0711", "0811", "0812", "0713", "0612", "0611"}},
		{"0812", [6]string{"0811", "0912", "0913", "0813", "0713", "0712"}},
		{"0101", [6]string{"", "", "0201", "0102", "", ""}},
	}
	for _, tt := range tests {
		for i, d := range Directions {
			got := Step(hx(tt.from), d)
			if tt.want[i] == "" {
				if got.Col >= 1 && got.Row >= 1 {
					t.Errorf("Step(%s, %s) = %s, want off the sheet", tt.from, d, got)
				}
				continue
			}
			if got != hx(tt.want[i]) {
				t.Errorf("Step(%s, %s) = %s, want %s", tt.from, d, got, tt.want[i])
			}
		}
	}
}

func TestDirectionsAreMutual(t *testing.T) {
	for _, h := range []game.Hex{hx("0712"), hx("0812"), hx("1005")} {
		for _, d := range Directions {
			n := Step(h, d)
			back, ok := DirectionTo(n, h)
			if !ok || back != d.Opposite() {
				t.Errorf("DirectionTo(%s, %s) = %s, %v; want %s", n, h, back, ok, d.Opposite())
			}
			if !Adjacent(h, n) || Distance(h, n) != 1 {
				t.Errorf("%s and %s should be adjacent at distance 1", h, n)
			}
		}
	}
}

func TestNeighborsClipToTheMap(t *testing.T) {
	m := &Map{Cols: 10, Rows: 8}
	got := m.Neighbors(hx("0101"))
	want := []game.Hex{hx("0201"), hx("0102")}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Neighbors(0101) = %v, want %v", got, want)
	}
	// An even column is half a hex lower: its bottom hex has only N and NW
	// neighbours in the last column.
	if got := m.Neighbors(hx("1008")); len(got) != 2 || got[0] != hx("1007") || got[1] != hx("0908") {
		t.Errorf("Neighbors(1008) = %v, want [1007 0908]", got)
	}
	if n := len(m.Neighbors(hx("0504"))); n != 6 {
		t.Errorf("Neighbors(0504) has %d hexes, want 6", n)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0101", "0101", 0},
		{"0101", "0105", 4},
		{"0101", "0201", 1},
		{"0101", "0501", 4}, // along the top edge: one step a column
		{"0101", "0704", 6}, // south-east diagonal: rows come free
		{"0101", "0705", 7},
		{"0812", "0712", 1},
		{"0812", "0911", 2},
		{"0812", "1212", 4},
		{"2904", "2217", 17}, // 7 columns west gain 3 rows; 10 more rows
	}
	for _, tt := range tests {
		if got := Distance(hx(tt.a), hx(tt.b)); got != tt.want {
			t.Errorf("Distance(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(hx(tt.b), hx(tt.a)); got != tt.want {
			t.Errorf("Distance(%s, %s) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestEdgesAreUnordered(t *testing.T) {
	a, b := hx("0812"), hx("0811")
	if EdgeOf(a, b) != EdgeOf(b, a) || EdgeOf(a, b).A != b {
		t.Errorf("EdgeOf(0812, 0811) = %v, want the lesser hex 0811 first either way", EdgeOf(a, b))
	}
	m := &Map{Cols: 20, Rows: 20, Terrain: make([]game.Terrain, 400), Rivers: []Edge{EdgeOf(hx("0812"), hx("0913"))}}
	for i := range m.Terrain {
		m.Terrain[i] = game.Clear
	}
	m.Build()
	if !m.River(hx("0913"), hx("0812")) || !m.HasRiver(hx("0812")) || !m.HasRiver(hx("0913")) {
		t.Errorf("the river on 0812/0913 should be seen from both hexes")
	}
	if m.HasRiver(hx("0912")) {
		t.Errorf("0912 touches the river's end but has no river on its own sides")
	}
}

func TestCenter(t *testing.T) {
	const s3 = 1.7320508075688772
	tests := []struct {
		h    string
		x, y float64
	}{
		{"0101", 1, s3 / 2},
		{"0201", 2.5, s3},
		{"0301", 4, s3 / 2},
		{"0102", 1, s3 * 1.5},
	}
	for _, tt := range tests {
		x, y := Center(hx(tt.h))
		if math.Abs(x-tt.x) > 1e-9 || math.Abs(y-tt.y) > 1e-9 {
			t.Errorf("Center(%s) = (%.3f, %.3f), want (%.3f, %.3f)", tt.h, x, y, tt.x, tt.y)
		}
	}
	// Adjacent centres are √3 apart (hexes of circumradius 1).
	for _, d := range Directions {
		x0, y0 := Center(hx("0812"))
		x1, y1 := Center(Step(hx("0812"), d))
		if dd := math.Hypot(x1-x0, y1-y0); math.Abs(dd-s3) > 1e-9 {
			t.Errorf("centre of 0812 to its %s neighbour is %.3f, want √3", d, dd)
		}
	}
}

// DirectionTo finds exactly the six neighbours Step gives, from odd and
// even columns, and nothing else around them.
func TestDirectionToMatchesStep(t *testing.T) {
	for _, h := range []game.Hex{hx("0712"), hx("0812"), hx("1005"), hx("0101"), hx("0201")} {
		want := map[game.Hex]Direction{}
		for _, d := range Directions {
			want[Step(h, d)] = d
		}
		for dc := -3; dc <= 3; dc++ {
			for dr := -3; dr <= 3; dr++ {
				x := game.Hex{Col: h.Col + dc, Row: h.Row + dr}
				d, ok := DirectionTo(h, x)
				w, wok := want[x]
				if ok != wok || ok && d != w {
					t.Errorf("DirectionTo(%s, %s) = %s, %v; want %s, %v", h, x, d, ok, w, wok)
				}
			}
		}
	}
}
