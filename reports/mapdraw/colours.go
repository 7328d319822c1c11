package mapdraw

import (
	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// RGB is a colour, each channel 0–255.
type RGB struct{ R, G, B int }

// NationColours is the one table of the nations' colours, for flags, counters
// and the legend: each nation of the default campaign in the colour of its
// historical model, none of them the capitols' red. A nation not listed takes
// the next colour of FallbackColours by its place in the map's nation list.
var NationColours = map[game.NationID]RGB{
	"eisenmark":   {30, 52, 122},  // Prussian blue
	"morgronskia": {28, 122, 66},  // Russian green
	"unterreich":  {236, 188, 30}, // Habsburg yellow
	"fromande":    {130, 72, 168}, // royal violet
	"hispardia":   {232, 112, 24}, // Spanish orange
}

// FallbackColours colour nations missing from NationColours.
var FallbackColours = []RGB{
	{0, 138, 150}, {196, 50, 128}, {110, 90, 60}, {120, 140, 30}, {90, 90, 200}, {160, 40, 40},
}

// NeutralColour is the colour of no nation: the loyalty disc of a neutral
// city held by a nation.
var NeutralColour = RGB{250, 250, 246}

// NationColour returns a nation's colour: the override, then NationColours,
// then FallbackColours by the nation's place in m.Nations.
func NationColour(m *hexmap.Map, overrides map[game.NationID]RGB, id game.NationID) RGB {
	if id == game.Neutral {
		return NeutralColour
	}
	if c, ok := overrides[id]; ok {
		return c
	}
	if c, ok := NationColours[id]; ok {
		return c
	}
	i := 0
	for j, n := range m.Nations {
		if n.ID == id {
			i = j
			break
		}
	}
	return FallbackColours[i%len(FallbackColours)]
}

// The map's palette: the rules' map key ("Rough terrain: Brown or green
// hexes; Mountain: Dark brown hexes; Clear terrain: Cream-colored hexes").
var (
	colClear      = RGB{248, 240, 212}
	colRough      = RGB{214, 184, 136}
	colWoods      = RGB{176, 206, 138}
	colMountain   = RGB{150, 108, 70}
	colSea        = RGB{204, 226, 242}
	colSeaCoast   = RGB{188, 215, 238}
	colRoad       = RGB{150, 84, 32}
	colRiver      = RGB{38, 104, 200}
	colSeaLine    = RGB{40, 96, 176}
	colWind       = RGB{22, 66, 140}
	colBorder     = RGB{20, 20, 20}
	colCapitol    = RGB{204, 20, 24}
	colCity       = RGB{40, 36, 32}
	colHexNum     = RGB{128, 116, 96}
	colHexNumDark = RGB{222, 200, 172}
	colGridLand   = RGB{170, 156, 128}
	colGridSea    = RGB{170, 198, 224}
	colHalo       = RGB{255, 252, 240}
	colPaper      = RGB{255, 255, 255}
)

func terrainColour(t game.Terrain) RGB {
	switch t {
	case game.Rough:
		return colRough
	case game.Woods:
		return colWoods
	case game.Mountain:
		return colMountain
	case game.Sea:
		return colSea
	}
	return colClear
}

// darker returns c scaled towards black by f (0–1).
func (c RGB) darker(f float64) RGB {
	return RGB{int(float64(c.R) * (1 - f)), int(float64(c.G) * (1 - f)), int(float64(c.B) * (1 - f))}
}

// light reports a colour light enough to need black text on it.
func (c RGB) light() bool { return 299*c.R+587*c.G+114*c.B > 150*1000 }

func fill(pdf *fpdf.Fpdf, c RGB)   { pdf.SetFillColor(c.R, c.G, c.B) }
func stroke(pdf *fpdf.Fpdf, c RGB) { pdf.SetDrawColor(c.R, c.G, c.B) }
func ink(pdf *fpdf.Fpdf, c RGB)    { pdf.SetTextColor(c.R, c.G, c.B) }
