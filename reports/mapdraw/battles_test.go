package mapdraw

import (
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// TestBattleMarksKeepOffCities: a battle in every city's hex, each city
// held against its loyalty and garrisoned by two counters, on the default
// map's continent page and on a zoomed window: no battle mark covers a
// city's block, flag or loyalty disc, no counter covers a block or a disc,
// and no label runs over a mark.
func TestBattleMarksKeepOffCities(t *testing.T) {
	m := defaultMap(t)
	cities := map[string]CityMarks{}
	var battles []game.Hex
	var markers []Marker
	for _, c := range m.Cities {
		cities[c.Name] = CityMarks{Controller: "hispardia", Loyalty: "eisenmark"}
		battles = append(battles, c.Hex)
		markers = append(markers, Marker{At: game.AtHex(c.Hex), Nation: "hispardia", Label: "H1", Size: "L"},
			Marker{At: game.AtHex(c.Hex), Nation: "eisenmark", Label: "E2", Size: "S"})
	}
	for _, win := range []HexWindow{{}, {Min: game.Hex{Col: 10, Row: 8}, Max: game.Hex{Col: 26, Row: 20}}} {
		p := drawOn(t, "A4", m, &Options{Cities: cities, Battles: battles, Markers: markers, Window: win})
		var marks, counters []Placed
		own := map[string][]Placed{}
		for _, s := range p.Symbols() {
			switch s.Kind {
			case BattleMark:
				marks = append(marks, s)
			case Counter:
				counters = append(counters, s)
			case CityBlock, CityFlag, CityDisc:
				own[s.Name] = append(own[s.Name], s)
			}
		}
		if len(marks) != len(m.Cities) {
			t.Fatalf("window %v: %d battle marks for %d battles", win, len(marks), len(m.Cities))
		}
		for _, c := range m.Cities {
			for _, s := range own[c.Name] {
				for _, b := range marks {
					if toBox(b.Box).overlap(toBox(s.Box)) > 0 {
						t.Errorf("window %v: the battle mark at %s covers %s's %s", win, b.Name, c.Name, s.Kind)
					}
				}
				if s.Kind == CityFlag {
					continue // a flag's staff may rise behind a neighbour's counter
				}
				for _, k := range counters {
					if toBox(k.Box).overlap(toBox(s.Box)) > 0 {
						t.Errorf("window %v: counter %s covers %s's %s", win, k.Name, c.Name, s.Kind)
					}
				}
			}
		}
		if cl := p.Clashes(); len(cl) > 0 {
			t.Errorf("window %v: %d label clashes, the first %s", win, len(cl), cl[0])
		}
	}
}
