package mapdraw_test

import (
	"bytes"
	"fmt"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
)

// island is a two-province island in one sea area.
func island() *hexmap.Map {
	m := &hexmap.Map{Name: "Example Isle", Cols: 6, Rows: 5, Terrain: make([]game.Terrain, 30)}
	for i := range m.Terrain {
		m.Terrain[i] = game.Sea
	}
	var west, east, sea []game.Hex
	for c := 1; c <= 6; c++ {
		for r := 1; r <= 5; r++ {
			h := game.Hex{Col: c, Row: r}
			switch {
			case c >= 2 && c <= 3 && r >= 2 && r <= 4:
				west = append(west, h)
				m.Terrain[(r-1)*6+c-1] = game.Clear
			case c >= 4 && c <= 5 && r >= 2 && r <= 4:
				east = append(east, h)
				m.Terrain[(r-1)*6+c-1] = game.Woods
			default:
				sea = append(sea, h)
			}
		}
	}
	m.Provinces = []hexmap.Province{
		{Letter: "A", Name: "Westmark", Owner: "eisenmark", Hexes: west},
		{Letter: "B", Name: "Ostwald", Hexes: east},
	}
	m.Cities = []hexmap.City{
		{Name: "Altburg", Hex: game.Hex{Col: 2, Row: 3}, Port: true, Province: "A", Capitol: "eisenmark"},
		{Name: "Erlau", Hex: game.Hex{Col: 5, Row: 3}, Port: true, Province: "B"},
	}
	m.Seas = []hexmap.SeaArea{{ID: "S1", Name: "Home Waters", Hexes: sea}}
	m.Nations = []game.Nation{{ID: "eisenmark", Name: "Eisenmark", Letter: "E", Capitol: "Altburg", Provinces: []string{"A"}}}
	m.Build()
	return m
}

// Render writes the whole sheet: map, title, compass, scale and legend.
func ExampleRender() {
	var buf bytes.Buffer
	err := mapdraw.Render(&buf, island(), &mapdraw.Options{Subtitle: "Turn 1, April 1752", Taxes: &ruleset.SYW1752().Taxes})
	fmt.Println(err, bytes.HasPrefix(buf.Bytes(), []byte("%PDF")))
	// Output: <nil> true
}

// Draw puts the map into part of a page of your own; an Overlay draws on top
// of it in page coordinates, and Markers lay out counters.
func ExampleDraw() {
	m := island()
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddPage()
	mapdraw.Draw(pdf, m, &mapdraw.Options{
		Region: mapdraw.Rect{X: 15, Y: 60, W: 180, H: 150},
		Taxes:  &ruleset.SYW1752().Taxes,
		// Erlau taken by Eisenmark and under siege.
		Cities:  map[string]mapdraw.CityMarks{"Erlau": {Controller: "eisenmark", Siege: game.Besieged}},
		Markers: []mapdraw.Marker{{At: game.AtHex(game.Hex{Col: 4, Row: 3}), Nation: "eisenmark", Label: "E1", Size: "L"}},
		Dim:     func(h game.Hex) bool { return h.Col == 6 },
		Overlay: func(pdf *fpdf.Fpdf, p *mapdraw.Projection) {
			// An arrow of march from Altburg towards Erlau.
			x1, y1 := p.Center(game.Hex{Col: 2, Row: 3})
			x2, y2 := p.Center(game.Hex{Col: 4, Row: 3})
			pdf.SetDrawColor(200, 0, 0)
			pdf.SetLineWidth(p.Radius() / 8)
			pdf.Line(x1, y1, x2, y2)
		},
	})
	fmt.Println(pdf.Error())
	// Output: <nil>
}
