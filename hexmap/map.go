// Package hexmap is the continent the campaign is fought on: a grid of
// flat-topped hexes named column-then-row ("0812"), each clear, rough, woods,
// mountain or sea; rivers and roads on hexsides; provinces of hexes; cities
// with their port and river; the nations' capitols; sea areas of sea hexes and
// the prevailing winds between them; good-holding hexes.
//
// A Map is built once (from the text format in format.go, or by a generator)
// and never changes during a game: what changes — who holds a city, its
// loyalty, sieges — is in the engine's state. All lookups are by value or
// through indexes built in Build; nothing here iterates a Go map to produce
// output, so every list a Map returns is in a stable order.
package hexmap

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Map is a whole continent. Fill the exported fields, then call Build to make
// the indexes the lookups use; Validate checks the invariants.
type Map struct {
	Name       string
	Cols, Rows int
	// Terrain of every hex, row-major: Terrain[(row-1)*Cols+(col-1)].
	Terrain []game.Terrain
	// Rivers and Roads are the hexsides that carry a river or a road, sorted.
	Rivers []Edge
	Roads  []Edge
	// GoodHolding lists the coastal hexes where troops may embark and debark
	// outside a port, sorted.
	GoodHolding []game.Hex
	Nations     []game.Nation // sorted by ID
	Provinces   []Province    // sorted by letter
	Cities      []City        // sorted by name
	Seas        []SeaArea     // sorted by ID
	Winds       []Wind        // sorted by (From, To)
	// HomeTax is each nation's home tax base as the map file declares it
	// (tax= on the nation line), for Validate to check against the cities;
	// a nation without a declared figure has no entry.
	HomeTax map[game.NationID]int
	// Lines records where each thing was declared in the source file, for
	// error messages. The keys (docs/map-format.md): "map", "terrain",
	// "provinces", "hex 0812" (its terrain grid row), "nation eisenmark",
	// "province F", "province F 0812" (where 0812 was put in F), "city
	// Altburg" (the name as written), "sea S1", "sea S1 0101", "wind S1 S2"
	// (the two IDs sorted), "river 0812/0813" and "road 0812/0813" (the edge,
	// lesser hex first), "goodholding 0812".
	Lines map[string]int

	// sides holds, for each hex (row-major like Terrain), a bit per
	// direction for a river on that side (bits 0-5) and for a road across
	// it (bits 6-11): River and Road are asked for every step of every
	// route, and an array stays fast on a big map where a hash map misses
	// the cache. Edges that are not between two adjacent hexes on the map
	// (which Validate rejects) are kept in oddEdges.
	sides       []uint16
	oddEdges    map[Edge]uint16
	goodHolding map[game.Hex]bool
	cityAt      map[game.Hex]int
	cityByName  map[string]int
	provinceOf  map[game.Hex]int
	provByLet   map[string]int
	seaOf       map[game.Hex]int
	seaByID     map[game.SeaID]int
	winds       map[[2]game.SeaID]WindKind
	nationByID  map[game.NationID]int
	seaNeigh    map[game.SeaID][]game.SeaID
}

// Province is a set of hexes outlined in black, with a letter and a name.
// Provinces are indivisible. Owner is the nation whose home province it is, or
// game.Neutral.
type Province struct {
	Letter string
	Name   string
	Owner  game.NationID
	Hexes  []game.Hex // sorted
}

// City is a city's fixed description. Its tax value follows from Port and
// River by the rules (ruleset.TaxValues.Of); it is never typed in.
type City struct {
	Name     string
	Hex      game.Hex
	Port     bool
	River    bool
	Province string // letter
	// Capitol is the nation whose capitol this is, or game.Neutral.
	Capitol game.NationID
}

// SeaArea is a water area outlined in blue: a set of sea hexes with an ID.
type SeaArea struct {
	ID    game.SeaID
	Name  string
	Hexes []game.Hex // sorted
}

// WindKind is the prevailing wind between two adjacent sea areas.
type WindKind uint8

// The wind kinds, as the map's wind markers show them.
const (
	NoWind WindKind = iota
	// WithWind: the wind blows From → To: 1 MP that way, 3 MP back.
	WithWind
	// BothWays: a double-headed arrow (doldrums): 3 MP either way.
	BothWays
)

// Wind is a wind marker between two adjacent sea areas.
type Wind struct {
	From, To game.SeaID
	Kind     WindKind
}

// Build makes the lookup indexes from the exported fields. It does not
// validate; call Validate for that. It sorts every list into canonical order.
func (m *Map) Build() {
	slices.SortFunc(m.Rivers, compareEdges)
	slices.SortFunc(m.Roads, compareEdges)
	slices.SortFunc(m.GoodHolding, game.Hex.Compare)
	slices.SortFunc(m.Nations, func(a, b game.Nation) int { return compareStrings(string(a.ID), string(b.ID)) })
	slices.SortFunc(m.Provinces, func(a, b Province) int { return compareStrings(a.Letter, b.Letter) })
	slices.SortFunc(m.Cities, func(a, b City) int { return compareStrings(a.Name, b.Name) })
	slices.SortFunc(m.Seas, func(a, b SeaArea) int { return compareStrings(string(a.ID), string(b.ID)) })
	slices.SortFunc(m.Winds, func(a, b Wind) int {
		if c := compareStrings(string(a.From), string(b.From)); c != 0 {
			return c
		}
		return compareStrings(string(a.To), string(b.To))
	})
	m.sides = make([]uint16, m.Cols*m.Rows)
	m.oddEdges = nil
	for _, e := range m.Rivers {
		m.markSide(e, riverSide)
	}
	for _, e := range m.Roads {
		m.markSide(e, roadSide)
	}
	m.goodHolding = make(map[game.Hex]bool, len(m.GoodHolding))
	for _, h := range m.GoodHolding {
		m.goodHolding[h] = true
	}
	m.cityAt = make(map[game.Hex]int, len(m.Cities))
	m.cityByName = make(map[string]int, len(m.Cities))
	for i, c := range m.Cities {
		m.cityAt[c.Hex] = i
		m.cityByName[foldName(c.Name)] = i
	}
	m.provinceOf = make(map[game.Hex]int)
	m.provByLet = make(map[string]int, len(m.Provinces))
	for i := range m.Provinces {
		p := &m.Provinces[i]
		slices.SortFunc(p.Hexes, game.Hex.Compare)
		m.provByLet[p.Letter] = i
		for _, h := range p.Hexes {
			m.provinceOf[h] = i
		}
	}
	m.seaOf = make(map[game.Hex]int)
	m.seaByID = make(map[game.SeaID]int, len(m.Seas))
	for i := range m.Seas {
		s := &m.Seas[i]
		slices.SortFunc(s.Hexes, game.Hex.Compare)
		m.seaByID[s.ID] = i
		for _, h := range s.Hexes {
			m.seaOf[h] = i
		}
	}
	m.winds = make(map[[2]game.SeaID]WindKind, 2*len(m.Winds))
	for _, w := range m.Winds {
		m.winds[[2]game.SeaID{w.From, w.To}] = w.Kind
	}
	m.nationByID = make(map[game.NationID]int, len(m.Nations))
	for i, n := range m.Nations {
		m.nationByID[n.ID] = i
	}
	m.seaNeigh = make(map[game.SeaID][]game.SeaID, len(m.Seas))
	for _, s := range m.Seas {
		seen := map[game.SeaID]bool{}
		for _, h := range s.Hexes {
			for _, d := range Directions {
				n := Step(h, d)
				if j, ok := m.seaOf[n]; ok && m.Seas[j].ID != s.ID && !seen[m.Seas[j].ID] {
					seen[m.Seas[j].ID] = true
					m.seaNeigh[s.ID] = append(m.seaNeigh[s.ID], m.Seas[j].ID)
				}
			}
		}
		slices.Sort(m.seaNeigh[s.ID])
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareEdges(a, b Edge) int {
	if c := a.A.Compare(b.A); c != 0 {
		return c
	}
	return a.B.Compare(b.B)
}

// InBounds reports whether h is on the map.
func (m *Map) InBounds(h game.Hex) bool {
	return h.Col >= 1 && h.Row >= 1 && h.Col <= m.Cols && h.Row <= m.Rows
}

// TerrainAt returns the terrain of a hex; 0 if off the map.
func (m *Map) TerrainAt(h game.Hex) game.Terrain {
	if !m.InBounds(h) {
		return 0
	}
	return m.Terrain[(h.Row-1)*m.Cols+(h.Col-1)]
}

// IsLand reports a land hex on the map.
func (m *Map) IsLand(h game.Hex) bool { return m.TerrainAt(h).IsLand() }

// Neighbors returns the on-map hexes adjacent to h, clockwise from north.
func (m *Map) Neighbors(h game.Hex) []game.Hex {
	out := make([]game.Hex, 0, 6)
	for _, d := range Directions {
		if n := Step(h, d); m.InBounds(n) {
			out = append(out, n)
		}
	}
	return out
}

// River reports a river on the hexside between a and b.
func (m *Map) River(a, b game.Hex) bool { return m.side(a, b, riverSide) }

// Road reports a road between adjacent hexes a and b.
func (m *Map) Road(a, b game.Hex) bool { return m.side(a, b, roadSide) }

// The two kinds of hexside feature, as the shift of their bits in sides.
const (
	riverSide = 0
	roadSide  = 6
)

// markSide records a river or a road on edge e, on both its hexes.
func (m *Map) markSide(e Edge, kind uint) {
	d, ok := DirectionTo(e.A, e.B)
	if !ok || !m.InBounds(e.A) || !m.InBounds(e.B) || len(m.sides) != m.Cols*m.Rows {
		if m.oddEdges == nil {
			m.oddEdges = map[Edge]uint16{}
		}
		m.oddEdges[e] |= 1 << kind
		return
	}
	m.sides[(e.A.Row-1)*m.Cols+(e.A.Col-1)] |= 1 << (kind + uint(d))
	m.sides[(e.B.Row-1)*m.Cols+(e.B.Col-1)] |= 1 << (kind + uint(d.Opposite()))
}

// side reports a river or a road between a and b.
func (m *Map) side(a, b game.Hex, kind uint) bool {
	if d, ok := DirectionTo(a, b); ok && m.InBounds(a) && m.InBounds(b) && len(m.sides) == m.Cols*m.Rows {
		return m.sides[(a.Row-1)*m.Cols+(a.Col-1)]&(1<<(kind+uint(d))) != 0
	}
	return m.oddEdges[EdgeOf(a, b)]&(1<<kind) != 0
}

// HasRiver reports whether any of h's sides carries a river (a city on a
// river pays more tax).
func (m *Map) HasRiver(h game.Hex) bool {
	for _, n := range m.Neighbors(h) {
		if m.River(h, n) {
			return true
		}
	}
	return false
}

// IsGoodHolding reports a good-holding hex.
func (m *Map) IsGoodHolding(h game.Hex) bool { return m.goodHolding[h] }

// IsCoastal reports a land hex next to a sea hex.
func (m *Map) IsCoastal(h game.Hex) bool {
	if !m.IsLand(h) {
		return false
	}
	for _, n := range m.Neighbors(h) {
		if m.TerrainAt(n) == game.Sea {
			return true
		}
	}
	return false
}

// CityAt returns the city in a hex, if any.
func (m *Map) CityAt(h game.Hex) (*City, bool) {
	i, ok := m.cityAt[h]
	if !ok {
		return nil, false
	}
	return &m.Cities[i], true
}

// City returns a city by name (case and accents as written; matching ignores
// case).
func (m *Map) City(name string) (*City, bool) {
	i, ok := m.cityByName[foldName(name)]
	if !ok {
		return nil, false
	}
	return &m.Cities[i], true
}

// Province returns a province by letter.
func (m *Map) Province(letter string) (*Province, bool) {
	i, ok := m.provByLet[letter]
	if !ok {
		return nil, false
	}
	return &m.Provinces[i], true
}

// ProvinceOf returns the province a land hex belongs to.
func (m *Map) ProvinceOf(h game.Hex) (*Province, bool) {
	i, ok := m.provinceOf[h]
	if !ok {
		return nil, false
	}
	return &m.Provinces[i], true
}

// Sea returns a sea area by ID.
func (m *Map) Sea(id game.SeaID) (*SeaArea, bool) {
	i, ok := m.seaByID[id]
	if !ok {
		return nil, false
	}
	return &m.Seas[i], true
}

// SeaOf returns the sea area a sea hex belongs to.
func (m *Map) SeaOf(h game.Hex) (*SeaArea, bool) {
	i, ok := m.seaOf[h]
	if !ok {
		return nil, false
	}
	return &m.Seas[i], true
}

// SeasTouching returns the sea areas whose hexes touch a coastal land hex,
// sorted: the areas a port or good-holding hex opens onto.
func (m *Map) SeasTouching(h game.Hex) []game.SeaID {
	var out []game.SeaID
	for _, n := range m.Neighbors(h) {
		if s, ok := m.SeaOf(n); ok && !slices.Contains(out, s.ID) {
			out = append(out, s.ID)
		}
	}
	slices.Sort(out)
	return out
}

// AdjacentSeas returns the sea areas sharing a hexside with a sea area, sorted.
func (m *Map) AdjacentSeas(id game.SeaID) []game.SeaID { return m.seaNeigh[id] }

// WindBetween returns the wind for sailing from one sea area into an adjacent
// one: WithWind when a marker blows from → to, BothWays for a double-headed
// marker, and NoWind when the only marker blows the other way (sailing against
// the wind) or there is none.
func (m *Map) WindBetween(from, to game.SeaID) (kind WindKind, marked bool) {
	if k, ok := m.winds[[2]game.SeaID{from, to}]; ok {
		return k, true
	}
	if k, ok := m.winds[[2]game.SeaID{to, from}]; ok {
		if k == BothWays {
			return BothWays, true
		}
		return NoWind, true
	}
	return NoWind, false
}

// Nation returns a nation by ID.
func (m *Map) Nation(id game.NationID) (*game.Nation, bool) {
	i, ok := m.nationByID[id]
	if !ok {
		return nil, false
	}
	return &m.Nations[i], true
}

// CitiesOf returns the cities of a province, sorted by name.
func (m *Map) CitiesOf(letter string) []*City {
	var out []*City
	for i := range m.Cities {
		if m.Cities[i].Province == letter {
			out = append(out, &m.Cities[i])
		}
	}
	return out
}

// HomeCities returns the cities in a nation's home provinces, sorted by name.
func (m *Map) HomeCities(n game.NationID) []*City {
	var out []*City
	for i := range m.Cities {
		if p, ok := m.Province(m.Cities[i].Province); ok && p.Owner == n {
			out = append(out, &m.Cities[i])
		}
	}
	return out
}

// Line returns the source line a thing was declared at (0 if unknown).
func (m *Map) Line(key string) int { return m.Lines[key] }

// HexLabel returns a hex's name with its city, for messages: "0812 (Altburg)".
func (m *Map) HexLabel(h game.Hex) string {
	if c, ok := m.CityAt(h); ok {
		return fmt.Sprintf("%s (%s)", h, c.Name)
	}
	return h.String()
}

func foldName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
