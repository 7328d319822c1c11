package areamap

import (
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// Kind is what a province is: open country, a town, or a port town. Towns
// and ports are the campaign's cities ("Every city possesses a garrison").
type Kind uint8

// The province kinds.
const (
	Plain Kind = iota
	Town
	Port
)

// String returns "plain", "town" or "port".
func (k Kind) String() string {
	switch k {
	case Town:
		return "town"
	case Port:
		return "port"
	}
	return "plain"
}

// IsCity reports a town or a port.
func (k Kind) IsCity() bool { return k == Town || k == Port }

// ParseKind reads "plain", "town" or "port".
func ParseKind(s string) (Kind, bool) {
	switch strings.ToLower(s) {
	case "plain":
		return Plain, true
	case "town":
		return Town, true
	case "port":
		return Port, true
	}
	return 0, false
}

// Point is where a place is drawn, in the map's own units (x to the east, y
// to the south, 0–1000). It carries no rule: movement reads borders, roads
// and links only.
type Point struct{ X, Y int }

// IsZero reports a place with no position.
func (p Point) IsZero() bool { return p == Point{} }

// Kingdom is one of the kingdoms freed by the Emperor's death: a playing
// nation, its letter (prefixing its forces' IDs) and its capital, where its
// King stays.
type Kingdom struct {
	ID      game.NationID
	Name    string
	Letter  string
	Capital string
	Line    int
}

// Province is one land area: its kind, the kingdom it belongs to at the
// start (empty: the old Empire's unclaimed lands), the sea lanes its coast
// touches (a coastal province; a port is always coastal) and where it is
// drawn.
type Province struct {
	ID      string
	Kind    Kind
	Kingdom game.NationID
	Coast   []string
	At      Point
	Line    int
}

// Lane is one sea lane ("ocean province"). Frozen lanes are the northern
// lanes marked with a snowflake: closed in the phases the rules name.
type Lane struct {
	ID     string
	Name   string
	Frozen bool
	At     Point
	Line   int
}

// Pair is two places joined by a border, a road or a sea link, A < B.
type Pair struct {
	A, B string
	Line int
}

// Map is an area map: kingdoms, provinces, sea lanes, the land borders
// between provinces, the roads along some of them, and the links between
// lanes. Everything is kept sorted; Build makes the indexes the queries
// read.
type Map struct {
	Name      string
	Kingdoms  []Kingdom
	Provinces []Province
	Lanes     []Lane
	Borders   []Pair
	Roads     []Pair
	Links     []Pair
	// Line is the map header's line.
	Line int

	province map[string]int
	lane     map[string]int
	folded   map[string]string
	land     map[string][]string
	sea      map[string][]string
	coastsOn map[string][]string
	road     map[[2]string]bool
}

// pairOf returns the pair of a and b in order.
func pairOf(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{A: a, B: b}
}

// Build sorts the map and builds its indexes; Parse calls it, and a map
// made in code must call it before any query.
func (m *Map) Build() {
	slices.SortFunc(m.Kingdoms, func(a, b Kingdom) int { return strings.Compare(string(a.ID), string(b.ID)) })
	slices.SortFunc(m.Provinces, func(a, b Province) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(m.Lanes, func(a, b Lane) int { return strings.Compare(a.ID, b.ID) })
	for _, l := range [][]Pair{m.Borders, m.Roads, m.Links} {
		for i := range l {
			if l[i].B < l[i].A {
				l[i].A, l[i].B = l[i].B, l[i].A
			}
		}
		slices.SortFunc(l, comparePairs)
	}
	m.province = map[string]int{}
	m.lane = map[string]int{}
	m.folded = map[string]string{}
	m.land = map[string][]string{}
	m.sea = map[string][]string{}
	m.coastsOn = map[string][]string{}
	m.road = map[[2]string]bool{}
	for i := range m.Provinces {
		p := &m.Provinces[i]
		slices.Sort(p.Coast)
		m.province[p.ID] = i
		m.folded[strings.ToLower(p.ID)] = p.ID
		for _, l := range p.Coast {
			m.coastsOn[l] = append(m.coastsOn[l], p.ID)
		}
	}
	for i := range m.Lanes {
		m.lane[m.Lanes[i].ID] = i
		m.folded[strings.ToLower(m.Lanes[i].ID)] = m.Lanes[i].ID
	}
	for _, b := range m.Borders {
		m.land[b.A] = append(m.land[b.A], b.B)
		m.land[b.B] = append(m.land[b.B], b.A)
	}
	for _, l := range m.Links {
		m.sea[l.A] = append(m.sea[l.A], l.B)
		m.sea[l.B] = append(m.sea[l.B], l.A)
	}
	for _, r := range m.Roads {
		m.road[[2]string{r.A, r.B}] = true
	}
	for _, idx := range []map[string][]string{m.land, m.sea, m.coastsOn} {
		for k := range idx {
			slices.Sort(idx[k])
			idx[k] = slices.Compact(idx[k])
		}
	}
}

func comparePairs(a, b Pair) int {
	if c := strings.Compare(a.A, b.A); c != 0 {
		return c
	}
	return strings.Compare(a.B, b.B)
}

// Province returns a province by its exact ID.
func (m *Map) Province(id string) (*Province, bool) {
	i, ok := m.province[id]
	if !ok {
		return nil, false
	}
	return &m.Provinces[i], true
}

// Lane returns a sea lane by its exact ID.
func (m *Map) Lane(id string) (*Lane, bool) {
	i, ok := m.lane[id]
	if !ok {
		return nil, false
	}
	return &m.Lanes[i], true
}

// Kingdom returns a kingdom by its ID.
func (m *Map) Kingdom(id game.NationID) (*Kingdom, bool) {
	for i := range m.Kingdoms {
		if m.Kingdoms[i].ID == id {
			return &m.Kingdoms[i], true
		}
	}
	return nil, false
}

// Lookup finds a province or lane by name in any case ("elkmoor", "n1"):
// its ID, and whether it is a lane.
func (m *Map) Lookup(name string) (id string, lane, ok bool) {
	id, ok = m.folded[strings.ToLower(name)]
	if !ok {
		return "", false, false
	}
	_, lane = m.lane[id]
	return id, lane, true
}

// Names lists every province and lane ID, sorted: the words a sheet may use
// for places.
func (m *Map) Names() []string {
	out := make([]string, 0, len(m.Provinces)+len(m.Lanes))
	for _, p := range m.Provinces {
		out = append(out, p.ID)
	}
	for _, l := range m.Lanes {
		out = append(out, l.ID)
	}
	slices.Sort(out)
	return out
}

// Neighbors returns the provinces bordering a province, sorted.
func (m *Map) Neighbors(p string) []string { return m.land[p] }

// Bordering reports whether two provinces share a border.
func (m *Map) Bordering(a, b string) bool { return slices.Contains(m.land[a], b) }

// Road reports whether a road runs along the border between a and b.
func (m *Map) Road(a, b string) bool {
	if b < a {
		a, b = b, a
	}
	return m.road[[2]string{a, b}]
}

// LaneNeighbors returns the lanes linked to a lane, sorted.
func (m *Map) LaneNeighbors(l string) []string { return m.sea[l] }

// Linked reports whether two lanes are linked.
func (m *Map) Linked(a, b string) bool { return slices.Contains(m.sea[a], b) }

// Coast returns the lanes a province's coast touches (none: inland).
func (m *Map) Coast(p string) []string {
	if pr, ok := m.Province(p); ok {
		return pr.Coast
	}
	return nil
}

// Coastal reports a province with a coast.
func (m *Map) Coastal(p string) bool { return len(m.Coast(p)) > 0 }

// CoastsOn returns the provinces whose coast touches a lane, sorted: the
// ports and coastlines "entered via the adjacent ocean space".
func (m *Map) CoastsOn(lane string) []string { return m.coastsOn[lane] }

// Touches reports whether a province's coast touches a lane.
func (m *Map) Touches(p, lane string) bool { return slices.Contains(m.Coast(p), lane) }

// Capital returns a kingdom's capital province ("" if none).
func (m *Map) Capital(n game.NationID) string {
	if k, ok := m.Kingdom(n); ok {
		return k.Capital
	}
	return ""
}

// ProvincesOf returns the provinces a kingdom starts with, sorted.
func (m *Map) ProvincesOf(n game.NationID) []string {
	var out []string
	for _, p := range m.Provinces {
		if p.Kingdom == n && n != game.Neutral {
			out = append(out, p.ID)
		}
	}
	return out
}

// Nations returns the kingdoms as game nations (ID, name, letter, capital),
// sorted by ID: what a sheet's NATION line may name.
func (m *Map) Nations() []game.Nation {
	out := make([]game.Nation, len(m.Kingdoms))
	for i, k := range m.Kingdoms {
		out[i] = game.Nation{ID: k.ID, Name: k.Name, Letter: k.Letter, Capitol: k.Capital, Provinces: m.ProvincesOf(k.ID)}
	}
	return out
}

// LandDistances returns every province's distance in borders crossed from
// the given provinces (missing: unreachable by land), by breadth-first
// search over the sorted borders.
func (m *Map) LandDistances(from ...string) map[string]int {
	dist := map[string]int{}
	queue := make([]string, 0, len(m.Provinces))
	for _, p := range from {
		if _, ok := m.province[p]; ok {
			if _, seen := dist[p]; !seen {
				dist[p] = 0
				queue = append(queue, p)
			}
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range m.land[p] {
			if _, seen := dist[q]; !seen {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	return dist
}
