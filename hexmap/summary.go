package hexmap

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// Summary is what a referee wants to see of a map at a glance: each nation's
// home provinces, cities and tax base; the neutral provinces and what they are
// worth; the sea areas and their winds. Every list is in the map's canonical
// order.
type Summary struct {
	Name       string
	Cols, Rows int
	Nations    []NationSummary
	// Neutral lists the neutral provinces, by letter.
	Neutral []ProvinceSummary
	// NeutralTax is the tax value of all neutral cities together.
	NeutralTax int
	Seas       []SeaSummary
	// Cities, Ports and RiverCities count the map's cities.
	Cities, Ports, RiverCities int
}

// NationSummary is one nation's home.
type NationSummary struct {
	ID      game.NationID
	Name    string
	Letter  string
	Capitol string
	// Provinces are the nation's home provinces, by letter.
	Provinces []ProvinceSummary
	// Tax is the home tax base: the sum of the home cities' tax values.
	Tax int
	// Cities counts the home cities; Ports the coastal ones.
	Cities, Ports int
	// Neighbours are the provinces of other owners that share a hexside with
	// a home province, by letter.
	Neighbours []string
	// Seas are the sea areas the nation's ports open onto.
	Seas []game.SeaID
}

// ProvinceSummary is one province and its cities.
type ProvinceSummary struct {
	Letter string
	Name   string
	Owner  game.NationID
	Hexes  int
	Cities []CitySummary
	// Tax is the sum of the province's city tax values.
	Tax int
}

// CitySummary is one city with its tax value.
type CitySummary struct {
	Name        string
	Hex         game.Hex
	Port, River bool
	Capitol     bool
	Tax         int
	// Seas are the sea areas a port opens onto.
	Seas []game.SeaID `json:",omitempty"`
}

// SeaSummary is one sea area.
type SeaSummary struct {
	ID    game.SeaID
	Name  string
	Hexes int
	// Ports are the cities opening onto the area, by name; GoodHolding the
	// good-holding hexes beside it.
	Ports       []string
	GoodHolding []game.Hex
	// Links are the adjacent sea areas with the wind for sailing into each.
	Links []SeaLink
}

// SeaLink is the wind for sailing from a sea area into an adjacent one.
type SeaLink struct {
	To game.SeaID
	// Wind is WithWind when the marker blows this way, BothWays for doldrums,
	// NoWind when sailing against the marker (or there is none).
	Wind WindKind
}

// Summary gathers the map's numbers. tax gives a city's tax value
// (ruleset.TaxValues.Of); a nil tax leaves every tax at 0.
func (m *Map) Summary(tax TaxFunc) Summary {
	if tax == nil {
		tax = func(bool, bool) int { return 0 }
	}
	s := Summary{Name: m.Name, Cols: m.Cols, Rows: m.Rows}
	provs := map[string]ProvinceSummary{}
	for _, pr := range m.Provinces {
		ps := ProvinceSummary{Letter: pr.Letter, Name: pr.Name, Owner: pr.Owner, Hexes: len(pr.Hexes)}
		for _, c := range m.CitiesOf(pr.Letter) {
			cs := CitySummary{Name: c.Name, Hex: c.Hex, Port: c.Port, River: c.River,
				Capitol: c.Capitol != game.Neutral, Tax: tax(c.Port, c.River)}
			if c.Port {
				cs.Seas = m.SeasTouching(c.Hex)
			}
			ps.Cities = append(ps.Cities, cs)
			ps.Tax += cs.Tax
		}
		provs[pr.Letter] = ps
		if pr.Owner == game.Neutral {
			s.Neutral = append(s.Neutral, ps)
			s.NeutralTax += ps.Tax
		}
	}
	for _, c := range m.Cities {
		s.Cities++
		if c.Port {
			s.Ports++
		}
		if c.River {
			s.RiverCities++
		}
	}
	for _, n := range m.Nations {
		ns := NationSummary{ID: n.ID, Name: n.Name, Letter: n.Letter, Capitol: n.Capitol}
		for _, l := range n.Provinces {
			ps, ok := provs[l]
			if !ok {
				continue
			}
			ns.Provinces = append(ns.Provinces, ps)
			ns.Tax += ps.Tax
			for _, c := range ps.Cities {
				ns.Cities++
				if c.Port {
					ns.Ports++
					ns.Seas = appendNew(ns.Seas, c.Seas...)
				}
			}
		}
		ns.Neighbours = m.neighbourProvinces(n.ID)
		slices.Sort(ns.Seas)
		s.Nations = append(s.Nations, ns)
	}
	for _, sea := range m.Seas {
		ss := SeaSummary{ID: sea.ID, Name: sea.Name, Hexes: len(sea.Hexes)}
		for _, c := range m.Cities {
			if c.Port && containsSea(m.SeasTouching(c.Hex), sea.ID) {
				ss.Ports = append(ss.Ports, c.Name)
			}
		}
		for _, h := range m.GoodHolding {
			if containsSea(m.SeasTouching(h), sea.ID) {
				ss.GoodHolding = append(ss.GoodHolding, h)
			}
		}
		for _, to := range m.AdjacentSeas(sea.ID) {
			k, _ := m.WindBetween(sea.ID, to)
			ss.Links = append(ss.Links, SeaLink{To: to, Wind: k})
		}
		s.Seas = append(s.Seas, ss)
	}
	return s
}

// neighbourProvinces lists the provinces not owned by n that touch n's home
// provinces, sorted by letter.
func (m *Map) neighbourProvinces(n game.NationID) []string {
	seen := map[string]bool{}
	for _, pr := range m.Provinces {
		if pr.Owner != n {
			continue
		}
		for _, h := range pr.Hexes {
			for _, nb := range m.Neighbors(h) {
				if o, ok := m.ProvinceOf(nb); ok && o.Owner != n {
					seen[o.Letter] = true
				}
			}
		}
	}
	var out []string
	for _, pr := range m.Provinces {
		if seen[pr.Letter] {
			out = append(out, pr.Letter)
		}
	}
	return out
}

func containsSea(ids []game.SeaID, id game.SeaID) bool { return slices.Contains(ids, id) }

func appendNew(ids []game.SeaID, more ...game.SeaID) []game.SeaID {
	for _, x := range more {
		if !containsSea(ids, x) {
			ids = append(ids, x)
		}
	}
	return ids
}

// String names the wind for a sailor: "with the wind", "doldrums" or
// "against the wind".
func (k WindKind) String() string {
	switch k {
	case WithWind:
		return "with the wind"
	case BothWays:
		return "doldrums"
	}
	return "against the wind"
}

// Print writes the summary as plain-text tables, the way `pbem map` shows it.
func (s Summary) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s (%dx%d): %s, %s, %d on rivers\n\n", s.Name, s.Cols, s.Rows, english.Count(s.Cities, "city"), english.Count(s.Ports, "port"), s.RiverCities)
	for _, n := range s.Nations {
		fmt.Fprintf(tw, "%s (%s, forces %s…): capitol %s, tax base %d, %s (%s)\n",
			n.Name, n.ID, n.Letter, n.Capitol, n.Tax, english.Count(n.Cities, "city"), english.Count(n.Ports, "port"))
		fmt.Fprintf(tw, "  borders %s; ports open onto %s\n", strings.Join(n.Neighbours, ","), joinSeas(n.Seas))
		for _, p := range n.Provinces {
			printProvince(tw, p)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "Neutral provinces: %d, worth %d together\n", len(s.Neutral), s.NeutralTax)
	for _, p := range s.Neutral {
		printProvince(tw, p)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Sea areas:")
	for _, sea := range s.Seas {
		var links []string
		for _, l := range sea.Links {
			links = append(links, fmt.Sprintf("%s %s", l.To, l.Wind))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\tports: %s\t%d good holding\tto %s\n", sea.ID, sea.Name, english.Count(sea.Hexes, "hex"),
			strings.Join(sea.Ports, ", "), len(sea.GoodHolding), strings.Join(links, ", "))
	}
	return tw.Flush()
}

func printProvince(tw io.Writer, p ProvinceSummary) {
	fmt.Fprintf(tw, "  %s %s\t%s\ttax %d\t", p.Letter, p.Name, english.Count(p.Hexes, "hex"), p.Tax)
	var cs []string
	for _, c := range p.Cities {
		var tags []string
		if c.Capitol {
			tags = append(tags, "capitol")
		}
		if c.Port {
			tags = append(tags, "port")
		}
		if c.River {
			tags = append(tags, "river")
		}
		t := ""
		if len(tags) > 0 {
			t = " " + strings.Join(tags, "+")
		}
		cs = append(cs, fmt.Sprintf("%s %s%s %d", c.Name, c.Hex, t, c.Tax))
	}
	fmt.Fprintf(tw, "%s\n", strings.Join(cs, "; "))
}

func joinSeas(ids []game.SeaID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}
