package mapdraw

import (
	"bytes"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// TestPathsAreDrawn: Options.Paths puts arrows and marks on the page —
// the drawing is not the same without them — and a path through a place
// the map does not have is drawn without it, not refused.
func TestPathsAreDrawn(t *testing.T) {
	t.Parallel()
	m := continent(18, 14, 3)
	h := func(c, r int) game.Place { return game.AtHex(game.Hex{Col: c, Row: r}) }
	paths := []Path{
		{Nation: m.Nations[0].ID, Places: []game.Place{h(5, 5), h(6, 5), h(7, 6)}, Short: true, Supply: Unsupplied, Contacts: []game.Place{h(6, 5)}},
		{Nation: m.Nations[0].ID, Places: []game.Place{h(3, 8)}, Supply: Supplied},
		{Nation: m.Nations[0].ID, Places: []game.Place{h(9, 9), h(99, 99), game.AtSea("nowhere"), h(10, 9)}, Fleet: true, Supply: SupplyAtRisk},
	}
	plain := render(t, m, &Options{Hide: LayerLegend})
	drawn := render(t, m, &Options{Hide: LayerLegend, Paths: paths})
	if bytes.Equal(plain, drawn) {
		t.Fatal("the paths drew nothing")
	}
	if again := render(t, m, &Options{Hide: LayerLegend, Paths: paths}); !bytes.Equal(again, drawn) {
		t.Error("the same paths drew different bytes")
	}
	if !strings.HasPrefix(string(drawn), "%PDF") {
		t.Error("not a PDF")
	}
}
