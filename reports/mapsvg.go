package reports

import (
	"errors"
	"io"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/mapdraw"
)

// The maps of the reports as SVG images, for a page on screen (the
// referee's console): the same map and overlays as the PDF's map page
// (mappage.go) — a nation's own forces, its supply lines and what it knows
// of others' for a nation, every force for the referee — with the page's
// legend under the map, drawn by mapdraw.SVG.

// NationMapSVG draws the map of a nation's report md as an SVG image width
// pixels wide: what the report's map page shows, and nothing more.
func NationMapSVG(w io.Writer, md *Model, m *hexmap.Map, width int) error {
	if md == nil || m == nil {
		return errors.New("map: the report and the map are required")
	}
	title := md.GameName + " — " + md.NationName + ", " + md.TurnLabel
	return mapSVG(w, nationMap(md, m), m, md.Ruleset, title, width)
}

// RefereeMapSVG draws the referee's map of md (every force, as RenderMap)
// as an SVG image width pixels wide.
func RefereeMapSVG(w io.Writer, md *RefereeModel, m *hexmap.Map, width int) error {
	if md == nil || m == nil {
		return errors.New("map: the game and the map are required")
	}
	when := "the opening position"
	if md.Resolved != "" {
		when = "after " + md.Resolved
	}
	return mapSVG(w, refereeMap(md, m), m, md.Ruleset, md.GameName+" — "+when, width)
}

func mapSVG(w io.Writer, s mapSpec, m *hexmap.Map, edition, title string, width int) error {
	o, err := withTaxes(nil, edition)
	if err != nil {
		return err
	}
	return mapdraw.SVG(w, m, &mapdraw.Options{Title: title, Taxes: o.Taxes, Cities: s.cities, Markers: s.markers,
		Battles: s.battles, Tint: tint(m, s.cities)}, &mapdraw.SVGOptions{Width: width, Supply: s.supply, SupplyColour: s.colour,
		Legend: &mapdraw.Legend{Title: title, Nations: s.nations, Referee: s.referee}})
}
