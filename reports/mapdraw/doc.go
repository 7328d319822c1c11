// Package mapdraw draws the campaign map as vector PDF: the base of the
// public map sheet and of every nation's masked map.
//
// Draw puts the whole map into a region of an fpdf page; Render makes a
// complete one-page sheet (A3 by default) with a title block, compass, scale
// bar and legend; SVG draws the same map, layer for layer and with the same
// label placement, as an SVG image for a screen (svg.go), with a key under
// it and tooltips on hexes, cities and counters. Both follow the rules' map key (The Map): cream clear,
// brown rough, green woods and dark brown mountain hexes; roads as brown
// lines from hex centre to hex centre; rivers as blue lines along hexsides;
// provinces outlined in black with name, letter and total tax value; cities
// as block patterns with name and tax value, capitols larger and red, a flag
// in the colour of the nation holding a city (and, on a city held against
// its loyalty, a disc in the colour of the nation it is loyal to), an
// anchor at ports, a red ringed cross where a battle was fought; sea
// areas outlined in blue with their ID and the prevailing winds as arrows
// across their borders (double-headed for the doldrums); good-holding hexes
// marked with a dot; a hex number in every land hex.
//
// # Geometry
//
// Hexes are flat-topped, in columns, even columns half a hex lower
// (hexmap.Center). Everything is computed in hex units, where a hex has
// circumradius 1, and projected to the page by one uniform scale chosen so
// the map fills its region (Projection). A hexside is the two corners its
// hexes share: the side of a hex facing direction d runs between corners
// d+4 and d+5, counted clockwise from the east corner. Borders, rivers and
// grid lines are collected as such sides and chained end to end into
// polylines before they are stroked, so thick lines join cleanly and each
// point is written once.
//
// # Layers
//
// The map is painted bottom up: terrain fills (one colour at a time), the
// Options.Tint wash (provinces by controller, translucent), terrain marks, grid, sea-area borders, province borders and coast (wider where a
// river runs along them, so the river keeps a black edge), rivers, roads,
// hex numbers, the Dim wash, good-holding dots, the Highlight outline, wind
// arrows, cities, then the labels, Markers and finally Options.Overlay.
// Options.Hide turns layers off.
//
// # Windows
//
// Options.Window draws a rectangle of hexes enlarged to fill the region (a
// nation's zoomed page): the projection fits the window's hex outlines to
// the region, the page is clipped to the region, and only the hexes under
// it (and a ring round them) are painted; labels are still placed against
// the whole map, so they read the same as on the continent page.
//
// # Labels
//
// Labels are placed greedily against a list of obstacle boxes: city blocks,
// flags, control discs, anchors, good-holding dots, counters in hexes (laid
// out before any label), wind arrows and labels already placed. A place
// that covers any of them but a wind arrow is a clash, and a label takes a
// clear place whenever there is one. Capitols' labels come first, then other
// cities': ten positions round the block (right, right a little raised,
// left, left raised, below, above clear of the flag, the four corners),
// then the same ten a little further out; the first clear one in that order
// wins, covering a wind arrow or running off the map counting against a
// place as if it came later. Then each province's label, centred on one
// of its hexes or half-way from one to a neighbour, never on a city's hex:
// of the clear places the one that best trades
// nearness to the province's centroid against covering wind arrows and
// spilling out of the province. Then sea-area labels the same way, each
// keeping clear the room under it where the counters at sea stand. A label
// with no clear place at full size is tried at 88%, 76% and 64% of it;
// with none at any size (not seen on the default map or the generated test
// continents) it takes the full-size place that clashes least. No label is
// dropped: provinces are named nowhere else on a report's map page.
// Projection.Labels and Projection.Symbols list what was placed, and
// Projection.Clashes any overlap, for tests. Labels have a thin
// paper-coloured halo so that lines under them do not hide them.
//
// # Determinism
//
// Every loop runs over the map's sorted slices or over columns and rows in
// order; Go maps are only looked up. Render stamps a fixed creation date
// (Options.CreationDate, default DefaultCreationDate) and sorts the PDF
// catalog, so the same map and options always give the same bytes.
package mapdraw
