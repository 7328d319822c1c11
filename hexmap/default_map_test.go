package hexmap_test

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// The default map is a design with promises (docs/map.md): the rules'
// nations and provinces, 1600 crowns each, neutrals worth less than the 3200
// a nation needs to win, the rules' winds, roads joining every capitol. These
// tests keep a hand edit from breaking a promise silently.
func TestDefaultMapDesign(t *testing.T) {
	m := loadDefault(t)
	tax := ruleset.SYW1752().Taxes
	s := m.Summary(tax.Of)

	if m.Cols < 30 || m.Cols > 40 || m.Rows < 25 || m.Rows > 35 {
		t.Errorf("map is %dx%d, want about 35x30", m.Cols, m.Rows)
	}
	if s.Cities < 55 || s.Cities > 65 {
		t.Errorf("%d cities, want about 60", s.Cities)
	}
	// "The Nations and Neutral Provinces": each nation's home provinces.
	want := map[game.NationID][]string{
		"eisenmark": {"F", "K", "L"}, "morgronskia": {"N", "P"}, "unterreich": {"E", "S"},
		"fromande": {"G", "H"}, "hispardia": {"J", "M", "R"},
	}
	if len(s.Nations) != len(want) {
		t.Errorf("%d nations, want 5", len(s.Nations))
	}
	for _, n := range s.Nations {
		var letters []string
		for _, p := range n.Provinces {
			letters = append(letters, p.Letter)
		}
		if !slices.Equal(letters, want[n.ID]) {
			t.Errorf("%s holds %v, want %v", n.ID, letters, want[n.ID])
		}
		if n.Tax != tax.StartingTaxBase {
			t.Errorf("%s's home cities are worth %d, want %d", n.ID, n.Tax, tax.StartingTaxBase)
		}
		if n.Ports == 0 {
			t.Errorf("%s has no port", n.ID)
		}
		rival := false
		for _, l := range n.Neighbours {
			if p, _ := m.Province(l); p.Owner != game.Neutral {
				rival = true
			}
		}
		if !rival {
			t.Errorf("%s borders no other nation by land (neighbours %v)", n.ID, n.Neighbours)
		}
	}
	var neutral []string
	for _, p := range s.Neutral {
		neutral = append(neutral, p.Letter)
	}
	if !slices.Equal(neutral, []string{"A", "C", "I", "O", "Q", "U", "V", "W"}) {
		t.Errorf("neutral provinces %v, want A, V, C, Q, O, U, W, I", neutral)
	}
	// Conquering every neutral city must not be enough to win.
	if tax.StartingTaxBase+s.NeutralTax >= tax.VictoryTaxBase {
		t.Errorf("neutrals are worth %d: %d + %d reaches the %d victory without touching another nation",
			s.NeutralTax, tax.StartingTaxBase, s.NeutralTax, tax.VictoryTaxBase)
	}
}

// "The winds flow East-West in the south and West-East in the north, with a
// difficult section of doldrums in the middle areas."
func TestDefaultMapWinds(t *testing.T) {
	m := loadDefault(t)
	centre := func(id game.SeaID) (float64, float64) {
		s, _ := m.Sea(id)
		var x, y float64
		for _, h := range s.Hexes {
			x += float64(h.Col)
			y += float64(h.Row)
		}
		return x / float64(len(s.Hexes)), y / float64(len(s.Hexes))
	}
	middle := float64(m.Rows) / 2
	doldrums := 0
	for _, w := range m.Winds {
		fx, fy := centre(w.From)
		tx, ty := centre(w.To)
		switch {
		case w.Kind == hexmap.BothWays:
			doldrums++
		case fy < middle && ty < middle:
			if fx >= tx {
				t.Errorf("northern wind %s > %s blows west", w.From, w.To)
			}
		case fy > middle && ty > middle:
			if fx <= tx {
				t.Errorf("southern wind %s > %s blows east", w.From, w.To)
			}
		default:
			t.Errorf("wind %s > %s crosses the middle: expected doldrums (<>) there", w.From, w.To)
		}
	}
	if doldrums == 0 {
		t.Errorf("no doldrums on the map")
	}
}

// Roads join every capitol to every other; every city but the island's can
// be reached on foot (mountains are impassable) from every capitol.
func TestDefaultMapRoadsAndPasses(t *testing.T) {
	m := loadDefault(t)
	reach := func(from game.Hex, step func(a, b game.Hex) bool) map[game.Hex]bool {
		seen := map[game.Hex]bool{from: true}
		queue := []game.Hex{from}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			for _, n := range m.Neighbors(h) {
				if !seen[n] && step(h, n) {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
		return seen
	}
	byRoad := func(a, b game.Hex) bool { return m.Road(a, b) }
	onFoot := func(_, b game.Hex) bool { t := m.TerrainAt(b); return t.IsLand() && t != game.Mountain }
	mountains := 0
	for _, t := range m.Terrain {
		if t == game.Mountain {
			mountains++
		}
	}
	if mountains < 20 {
		t.Errorf("%d mountain hexes: too few for passes to matter", mountains)
	}
	for _, n := range m.Nations {
		c, _ := m.City(n.Capitol)
		roads := reach(c.Hex, byRoad)
		foot := reach(c.Hex, onFoot)
		for _, o := range m.Nations {
			oc, _ := m.City(o.Capitol)
			if !roads[oc.Hex] {
				t.Errorf("no road from %s to %s", c.Name, oc.Name)
			}
		}
		for _, city := range m.Cities {
			if !foot[city.Hex] && city.Province != "I" {
				t.Errorf("%s cannot be reached on foot from %s", city.Name, c.Name)
			}
		}
	}
	s := m.Summary(ruleset.SYW1752().Taxes.Of)
	if s.RiverCities < 10 {
		t.Errorf("%d cities on rivers, want plenty", s.RiverCities)
	}
	for _, sea := range s.Seas {
		if len(sea.GoodHolding) == 0 {
			t.Errorf("sea area %s has no good-holding hex", sea.ID)
		}
	}
}

// River and Road answer, from both sides of every hexside of the default
// map, exactly what its lists of rivers and roads say.
func TestRiverAndRoadFromBothSides(t *testing.T) {
	m := loadDefault(t)
	rivers, roads := map[hexmap.Edge]bool{}, map[hexmap.Edge]bool{}
	for _, e := range m.Rivers {
		rivers[e] = true
	}
	for _, e := range m.Roads {
		roads[e] = true
	}
	for row := 1; row <= m.Rows; row++ {
		for col := 1; col <= m.Cols; col++ {
			h := game.Hex{Col: col, Row: row}
			for _, n := range m.Neighbors(h) {
				e := hexmap.EdgeOf(h, n)
				if m.River(h, n) != rivers[e] || m.River(n, h) != rivers[e] {
					t.Errorf("River(%s, %s) = %v, the map's list says %v", h, n, m.River(h, n), rivers[e])
				}
				if m.Road(h, n) != roads[e] || m.Road(n, h) != roads[e] {
					t.Errorf("Road(%s, %s) = %v, the map's list says %v", h, n, m.Road(h, n), roads[e])
				}
			}
		}
	}
}
