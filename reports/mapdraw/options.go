package mapdraw

import (
	"errors"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Options says what to draw beyond the map itself. A nil *Options, and every
// zero field, means the default noted on the field: the whole public map,
// cities loyal to the owners of their home provinces, 1752 tax values.
type Options struct {
	// Title is the heading Render prints; default "SYW Big Game Campaign —
	// <map name>".
	Title string
	// Subtitle is the line under the title (a turn, a nation's name); default
	// the map's size and scale.
	Subtitle string
	// CreationDate is stamped into the PDF as its creation and modification
	// date. The default is a fixed date (DefaultCreationDate), never the
	// clock, so the same map always renders to the same bytes.
	CreationDate time.Time
	// PageSize is the fpdf page size name for Render: "A3" (default), "A4",
	// "A2" … Render picks landscape or portrait, whichever draws the hexes
	// larger.
	PageSize string

	// Region is the page area Draw fits the map into, in millimetres. Zero
	// means the current page inside its margins. The map keeps its shape and
	// is centred in the region.
	Region Rect

	// Taxes is the tax scale for city and province labels: the game's
	// ruleset's Taxes. It is required (there is no default edition): Render
	// and Draw return (Draw: set on the pdf) an error without it.
	Taxes *ruleset.TaxValues
	// Cities is the changing state of cities by name (controller, loyalty,
	// siege). A city missing from it, or every city when Cities is nil, is
	// drawn loyal to and held by the owner of its province. Use
	// CityMarksFrom to build it from the engine's city states.
	Cities map[string]CityMarks
	// NationColours overrides entries of the package's NationColours table.
	NationColours map[game.NationID]RGB

	// Hide turns layers off; the zero value draws every layer.
	Hide Layer
	// Dim, when set, washes out the hexes it reports true for (a nation's
	// unseen hexes). Lines and hex numbers are dimmed; cities and labels
	// stay legible above the wash.
	Dim func(game.Hex) bool
	// Highlight, when set, outlines the hexes it reports true for in
	// HighlightColour (default red): a nation's view, an area under
	// discussion.
	Highlight       func(game.Hex) bool
	HighlightColour RGB
	// Markers are counters drawn on top of the map: forces with their size
	// class, fleets at sea. Several in one hex or sea area are laid out side
	// by side in the order given.
	Markers []Marker
	// Battles are the hexes where a battle or an encounter was fought:
	// each gets a red ringed cross, placed in its hex clear of the city's
	// block, flag, disc and anchor and of the counters (drawn over them
	// only where the hex has no clear place), and kept clear by the labels.
	Battles []game.Hex
	// Window, when set, draws only that part of the map, enlarged to fill
	// Region (a zoomed page round a nation's forces); everything outside
	// the region is clipped. The zero value draws the whole map.
	Window HexWindow
	// Paths are planned movements drawn as arrows over the counters, with
	// marks for where they stop short, their supply and the foreign forces
	// on the way (paths.go): the forecast's map.
	Paths []Path
	// Tint, when set, washes the hexes it reports a colour for with that
	// colour, translucent over the terrain (provinces tinted by the nation
	// controlling them).
	Tint func(game.Hex) (RGB, bool)
	// Overlay is called last, after every layer, with the projection from
	// hexes to the page, to draw anything else (movement arrows, battle
	// symbols). It must not change the page.
	Overlay func(pdf *fpdf.Fpdf, p *Projection)
}

// DefaultCreationDate is the date stamped into a PDF when Options gives none:
// the first turn of the campaign, so output never depends on the clock.
var DefaultCreationDate = time.Date(1752, time.April, 1, 12, 0, 0, 0, time.UTC)

// Rect is an area of the page in millimetres.
type Rect struct {
	X, Y, W, H float64
}

// IsZero reports the zero Rect.
func (r Rect) IsZero() bool { return r == Rect{} }

// Layer names a part of the drawing that Options.Hide can turn off.
type Layer uint32

// The layers, bottom to top.
const (
	LayerTerrainSymbols Layer = 1 << iota // tree, hill and peak marks inside hexes
	LayerGrid                             // thin hex outlines
	LayerHexNumbers                       // "0812" in every land hex
	LayerRivers
	LayerRoads
	LayerProvinces // province borders and labels
	LayerSeaAreas  // sea-area borders and labels
	LayerWinds
	LayerGoodHolding
	LayerCities // city blocks, flags, anchors, siege rings and labels
	LayerMarkers
	LayerFrame  // the border round the map
	LayerLegend // Render's legend panel
)

// CityMarks is what a map shows of a city's changing state.
type CityMarks struct {
	// Controller is the nation holding the city: its flag flies over the
	// city (none while no nation holds it), so a captured city shows its
	// captor.
	Controller game.NationID
	// Loyalty is the nation the city is loyal to; when it is not the
	// holder, a disc in its colour (NeutralColour for none) sits at the
	// middle of the block's left side, clear of the flag, of the counters
	// below the city and of a battle mark above it.
	Loyalty game.NationID
	// Siege rings the city: dashed when masked, solid when besieged.
	Siege game.SiegeStatus
}

// CityMarksFrom turns the engine's city states into Options.Cities.
func CityMarksFrom(states []game.CityState) map[string]CityMarks {
	out := make(map[string]CityMarks, len(states))
	for _, s := range states {
		out[s.Name] = CityMarks{Controller: s.Controller, Loyalty: s.Loyalty, Siege: s.Siege}
	}
	return out
}

// Marker is a counter on the map: a force or fleet with its intelligence size
// class.
type Marker struct {
	// At is the hex or sea area the counter stands in.
	At game.Place
	// Nation colours the counter.
	Nation game.NationID
	// Label is printed on the counter, usually the force ID ("E2").
	Label string
	// Size is the size class ("S", "M", "L"), printed after the label.
	Size string
	// Fleet draws a rounded (naval) counter.
	Fleet bool
	// Faded draws the counter washed out with a dashed outline: old
	// intelligence (where a force was last seen).
	Faded bool
}

// HexWindow is a rectangle of hexes, corners included: columns Min.Col to
// Max.Col, rows Min.Row to Max.Row.
type HexWindow struct {
	Min, Max game.Hex
}

// IsZero reports the zero window (the whole map).
func (w HexWindow) IsZero() bool { return w == HexWindow{} }

// defaults fills the zero fields.
func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.CreationDate.IsZero() {
		out.CreationDate = DefaultCreationDate
	}
	if out.PageSize == "" {
		out.PageSize = "A3"
	}
	if out.HighlightColour == (RGB{}) {
		out.HighlightColour = RGB{200, 30, 30}
	}
	return out
}

func (o *Options) shows(l Layer) bool { return o.Hide&l == 0 }

// errNoTaxes is the error for options without a tax scale: the map drawing
// does not guess an edition of the rules.
var errNoTaxes = errors.New("map drawing: Options.Taxes is not set; pass the game's ruleset's Taxes (the drawing does not guess an edition)")
