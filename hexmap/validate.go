package hexmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// TaxFunc gives a city's tax value from its port and river flags. The rules'
// table lives in package ruleset (ruleset.TaxValues.Of); hexmap does not
// import it, so callers pass it in.
type TaxFunc func(port, river bool) int

// ValidateOptions are the rule numbers Validate checks the map against. The
// zero value skips the checks that need them.
type ValidateOptions struct {
	// TaxValue gives a city's tax value (ruleset.TaxValues.Of). When nil, the
	// home tax base checks are skipped.
	TaxValue TaxFunc
	// StartingTaxBase is the home tax base every nation must start with
	// ("Each player starts with a 1600-point tax base"). 0 skips the check;
	// a nation's declared tax= is checked whenever TaxValue is set.
	StartingTaxBase int
}

// Problem is one thing wrong with a map: where it was declared (Line, 0 if
// unknown — a generated map has no lines) or the hex concerned, and what is
// wrong, said for the referee who will fix the file.
type Problem struct {
	// Line is the map file line the problem was found at (0 if unknown).
	Line int
	// Hex is the hex concerned, when one is.
	Hex     game.Hex `json:",omitzero"`
	Message string
}

// String prints "line 12: message", or "hex 0812: message" when only the hex
// is known.
func (p Problem) String() string {
	switch {
	case p.Line > 0:
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	case !p.Hex.IsZero():
		return fmt.Sprintf("hex %s: %s", p.Hex, p.Message)
	}
	return p.Message
}

// In prints the problem the way a compiler prints an error in file:
// "map.txt:12: message".
func (p Problem) In(file string) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", file, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", file, p.String())
}

// maxListed caps the hexes named in one problem.
const maxListed = 12

// Validate checks the map's invariants and returns every problem found,
// sorted by line. A map fit to play has none. The checks follow the rules'
// "The Map" section and the invariants the engine relies on:
//
//   - every land hex is in exactly one province, every sea hex in exactly one
//     sea area; provinces and sea areas are contiguous; provinces are land
//   - province letters, nation IDs, force letters, city names and sea IDs are
//     unique; province owners are declared nations (or neutral), and every
//     nation lists exactly the provinces it owns
//   - cities stand on land inside a province, one per hex; a city is a port
//     exactly when it is coastal ("All coastal cities are ports") and is on a
//     river exactly when a river runs along one of its hexsides
//   - each nation has exactly one capitol, in one of its home provinces, and
//     its home cities add up to its declared (and the starting) tax base
//   - every pair of adjacent sea areas has one wind marker
//   - good-holding hexes are coastal land and not cities
//   - rivers and roads run between adjacent hexes on the map (rivers between
//     land hexes)
//
// The map must have been built (Build, or Parse which calls it).
func (m *Map) Validate(opts ValidateOptions) []Problem {
	v := &validator{m: m}
	if m.Cols < 1 || m.Rows < 1 || len(m.Terrain) != m.Cols*m.Rows {
		v.add(m.Line("map"), "the map is %dx%d but has %d terrain hexes: expected columns × rows", m.Cols, m.Rows, len(m.Terrain))
		return v.out
	}
	v.terrain()
	v.nations(opts)
	v.provinces()
	v.cities()
	v.seas()
	v.winds()
	v.goodHolding()
	v.edges("river", m.Rivers, true)
	v.edges("road", m.Roads, false)
	slices.SortStableFunc(v.out, func(a, b Problem) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Hex.Compare(b.Hex)
	})
	return v.out
}

type validator struct {
	m   *Map
	out []Problem
}

func (v *validator) add(line int, format string, args ...any) {
	v.out = append(v.out, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) addHex(line int, h game.Hex, format string, args ...any) {
	v.out = append(v.out, Problem{Line: line, Hex: h, Message: fmt.Sprintf(format, args...)})
}

// hexList names up to maxListed hexes: "0101, 0102 and 14 more".
func hexList(hs []game.Hex) string {
	var b strings.Builder
	for i, h := range hs {
		if i == maxListed {
			fmt.Fprintf(&b, " and %d more", len(hs)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(h.String())
	}
	return b.String()
}

func (v *validator) terrain() {
	for i, t := range v.m.Terrain {
		if t < game.Sea || t > game.Mountain {
			h := game.Hex{Col: i%v.m.Cols + 1, Row: i/v.m.Cols + 1}
			v.addHex(v.m.Line("hex "+h.String()), h, "hex %s has no terrain: expected clear, rough, woods, mountain or sea", h)
		}
	}
}

func (v *validator) nations(opts ValidateOptions) {
	m := v.m
	ids := map[game.NationID]bool{}
	letters := map[string]game.NationID{}
	capitols := map[string]game.NationID{}
	for _, n := range m.Nations {
		line := m.Line("nation " + string(n.ID))
		if n.ID == game.Neutral {
			v.add(line, "a nation has no ID: expected a lower-case word")
			continue
		}
		if ids[n.ID] {
			v.add(line, "nation %s is declared twice: expected one nation line each", n.ID)
		}
		ids[n.ID] = true
		if n.Name == "" {
			v.add(line, "nation %s has no name: expected name=…", n.ID)
		}
		if n.Letter == "" {
			v.add(line, "nation %s has no force letter: expected letter=…", n.ID)
		} else if other, dup := letters[n.Letter]; dup {
			v.add(line, "nations %s and %s both use force letter %s: expected a different letter each (force IDs begin with it)", other, n.ID, n.Letter)
		} else {
			letters[n.Letter] = n.ID
		}
		c, ok := m.City(n.Capitol)
		switch {
		case n.Capitol == "":
			v.add(line, "nation %s has no capitol: expected capitol=CITY, one of its home cities", n.ID)
		case !ok:
			v.add(line, "nation %s's capitol %q is not a city on the map: expected the name of one of its home cities", n.ID, n.Capitol)
		default:
			if other, dup := capitols[foldName(c.Name)]; dup {
				v.add(line, "nations %s and %s both name %s as capitol: expected one capitol per nation", other, n.ID, c.Name)
			}
			capitols[foldName(c.Name)] = n.ID
			pr, inProv := m.ProvinceOf(c.Hex)
			if !inProv || pr.Owner != n.ID {
				v.add(line, "nation %s's capitol %s (%s) is not in one of its home provinces %s", n.ID, c.Name, c.Hex, strings.Join(n.Provinces, ","))
			}
			if c.Capitol != n.ID {
				v.add(m.Line("city "+c.Name), "city %s is nation %s's capitol but is marked as %q's", c.Name, n.ID, c.Capitol)
			}
		}
		for _, l := range n.Provinces {
			pr, ok := m.Province(l)
			switch {
			case !ok:
				v.add(line, "nation %s lists province %s, which is not declared: expected a province %s line", n.ID, l, l)
			case pr.Owner != n.ID:
				v.add(line, "nation %s lists province %s, whose owner is %s: expected owner=%s on the province line", n.ID, l, ownerName(pr.Owner), n.ID)
			}
		}
		if opts.TaxValue != nil {
			base := m.HomeTaxBase(n.ID, opts.TaxValue)
			if t, ok := m.HomeTax[n.ID]; ok && t != base && t == opts.StartingTaxBase {
				// One mistake, one problem: the declared sum is the right one.
				v.add(line, "nation %s declares tax=%d, the starting tax base, but its home cities are worth %d (%s)", n.ID, t, base, v.taxBreakdown(n.ID, opts.TaxValue))
				continue
			}
			if t, ok := m.HomeTax[n.ID]; ok && t != base {
				v.add(line, "nation %s declares tax=%d but its home cities are worth %d (%s)", n.ID, t, base, v.taxBreakdown(n.ID, opts.TaxValue))
			}
			if opts.StartingTaxBase > 0 && base != opts.StartingTaxBase {
				v.add(line, "nation %s's home cities are worth %d, expected the starting tax base %d (%s)", n.ID, base, opts.StartingTaxBase, v.taxBreakdown(n.ID, opts.TaxValue))
			}
		}
	}
	for _, c := range m.Cities {
		if c.Capitol == game.Neutral {
			continue
		}
		if n, ok := m.Nation(c.Capitol); !ok || !strings.EqualFold(n.Capitol, c.Name) {
			v.add(m.Line("city "+c.Name), "city %s is marked capitol of %s, which does not name it as capitol", c.Name, c.Capitol)
		}
	}
}

func (v *validator) taxBreakdown(n game.NationID, tax TaxFunc) string {
	var parts []string
	for _, c := range v.m.HomeCities(n) {
		parts = append(parts, fmt.Sprintf("%s %d", c.Name, tax(c.Port, c.River)))
	}
	if len(parts) == 0 {
		return "no home cities"
	}
	return strings.Join(parts, ", ")
}

// HomeTaxBase is the sum of the tax values of a nation's home cities: its tax
// base at the start of the game.
func (m *Map) HomeTaxBase(n game.NationID, tax TaxFunc) int {
	t := 0
	for _, c := range m.HomeCities(n) {
		t += tax(c.Port, c.River)
	}
	return t
}

func ownerName(n game.NationID) string {
	if n == game.Neutral {
		return "neutral"
	}
	return string(n)
}

// contiguous reports whether hexes form one connected piece, and if not the
// hexes cut off from the first.
func contiguous(hexes []game.Hex) (bool, []game.Hex) {
	if len(hexes) == 0 {
		return true, nil
	}
	in := make(map[game.Hex]bool, len(hexes))
	for _, h := range hexes {
		in[h] = true
	}
	seen := map[game.Hex]bool{hexes[0]: true}
	queue := []game.Hex{hexes[0]}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, d := range Directions {
			n := Step(h, d)
			if in[n] && !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	if len(seen) == len(in) {
		return true, nil
	}
	var cut []game.Hex
	for _, h := range hexes {
		if !seen[h] {
			cut = append(cut, h)
		}
	}
	slices.SortFunc(cut, game.Hex.Compare)
	return false, slices.Compact(cut)
}

func (v *validator) provinces() {
	m := v.m
	letters := map[string]bool{}
	owners := map[game.Hex][]string{}
	for _, pr := range m.Provinces {
		line := m.Line("province " + pr.Letter)
		if letters[pr.Letter] {
			v.add(line, "province letter %s is used twice: expected a different letter for each province", pr.Letter)
		}
		letters[pr.Letter] = true
		if pr.Name == "" {
			v.add(line, "province %s has no name", pr.Letter)
		}
		if pr.Owner != game.Neutral {
			n, ok := m.Nation(pr.Owner)
			switch {
			case !ok:
				v.add(line, "province %s's owner %s is not a declared nation: expected a nation ID or neutral", pr.Letter, pr.Owner)
			case !slices.Contains(n.Provinces, pr.Letter):
				v.add(line, "province %s is owned by %s, but nation %s does not list it in provinces=", pr.Letter, pr.Owner, pr.Owner)
			}
		}
		if len(pr.Hexes) == 0 {
			v.add(line, "province %s has no hexes: expected letters in the provinces grid or hexes=…", pr.Letter)
			continue
		}
		var sea, off []game.Hex
		for _, h := range pr.Hexes {
			switch {
			case !m.InBounds(h):
				off = append(off, h)
			case !m.IsLand(h):
				sea = append(sea, h)
			default:
				if !slices.Contains(owners[h], pr.Letter) {
					owners[h] = append(owners[h], pr.Letter)
				}
			}
		}
		if len(off) > 0 {
			v.add(line, "province %s has hexes off the map: %s", pr.Letter, hexList(off))
		}
		if len(sea) > 0 {
			v.add(m.Line("province "+pr.Letter+" "+sea[0].String()), "province %s has sea hexes %s: expected land only (sea hexes belong to sea areas)", pr.Letter, hexList(sea))
		}
		if ok, cut := contiguous(pr.Hexes); !ok {
			v.add(m.Line("province "+pr.Letter+" "+cut[0].String()), "province %s is not contiguous: %s are cut off from %s", pr.Letter, hexList(cut), pr.Hexes[0])
		}
		if len(m.CitiesOf(pr.Letter)) == 0 {
			v.add(line, "province %s has no city: expected at least one (a province is worth its cities' taxes)", pr.Letter)
		}
	}
	var none []game.Hex
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			h := game.Hex{Col: c, Row: r}
			if !m.IsLand(h) {
				continue
			}
			switch ls := owners[h]; {
			case len(ls) == 0:
				none = append(none, h)
			case len(ls) > 1:
				v.addHex(m.Line("province "+ls[1]+" "+h.String()), h, "hex %s is in provinces %s: expected exactly one", h, strings.Join(ls, " and "))
			}
		}
	}
	slices.SortFunc(none, game.Hex.Compare)
	if len(none) > 0 {
		v.addHex(m.Line("hex "+none[0].String()), none[0], "%s in no province: %s", english.Count(len(none), "land hex")+" "+english.Agree(len(none), "is", "are"), hexList(none))
	}
}

func (v *validator) cities() {
	m := v.m
	names := map[string]bool{}
	at := map[game.Hex]string{}
	for _, c := range m.Cities {
		line := m.Line("city " + c.Name)
		fold := foldName(c.Name)
		if names[fold] {
			v.add(line, "city name %s is used twice: expected a different name for each city", c.Name)
		}
		names[fold] = true
		if !m.InBounds(c.Hex) {
			v.add(line, "city %s is at %s, off the map", c.Name, c.Hex)
			continue
		}
		if other, dup := at[c.Hex]; dup {
			v.add(line, "cities %s and %s are both in hex %s: expected one city per hex", other, c.Name, c.Hex)
		}
		at[c.Hex] = c.Name
		if !m.IsLand(c.Hex) {
			v.add(line, "city %s is at %s, a sea hex: expected a land hex", c.Name, c.Hex)
			continue
		}
		pr, ok := m.ProvinceOf(c.Hex)
		switch {
		case !ok:
			v.add(line, "city %s (%s) is in no province", c.Name, c.Hex)
		case c.Province != pr.Letter:
			v.add(line, "city %s (%s) says province %q, but its hex is in province %s", c.Name, c.Hex, c.Province, pr.Letter)
		}
		coastal := m.IsCoastal(c.Hex)
		switch {
		case c.Port && !coastal:
			v.add(line, "city %s (%s) is marked port but no sea hex touches it: remove port, or move the city to the coast", c.Name, c.Hex)
		case !c.Port && coastal:
			v.add(line, "city %s (%s) is on the coast, so it is a port (\"All coastal cities are ports\"): add port", c.Name, c.Hex)
		}
		onRiver := m.HasRiver(c.Hex)
		switch {
		case c.River && !onRiver:
			v.add(line, "city %s (%s) is marked river but no river runs along its hexsides: remove river, or draw the river past it", c.Name, c.Hex)
		case !c.River && onRiver:
			v.add(line, "city %s (%s) has a river along a hexside (%s), so it is on a river: add river", c.Name, c.Hex, v.riverSide(c.Hex))
		}
	}
}

func (v *validator) riverSide(h game.Hex) string {
	for _, n := range v.m.Neighbors(h) {
		if v.m.River(h, n) {
			return edgeKey(EdgeOf(h, n))
		}
	}
	return ""
}

func (v *validator) seas() {
	m := v.m
	ids := map[game.SeaID]bool{}
	area := map[game.Hex][]game.SeaID{}
	for _, s := range m.Seas {
		line := m.Line("sea " + string(s.ID))
		if ids[s.ID] {
			v.add(line, "sea area %s is declared twice", s.ID)
		}
		ids[s.ID] = true
		if s.Name == "" {
			v.add(line, "sea area %s has no name", s.ID)
		}
		if len(s.Hexes) == 0 {
			v.add(line, "sea area %s has no hexes: expected hexes=…", s.ID)
			continue
		}
		var land []game.Hex
		for _, h := range s.Hexes {
			switch {
			case !m.InBounds(h):
				v.add(line, "sea area %s has hex %s, off the map", s.ID, h)
			case m.IsLand(h):
				land = append(land, h)
			default:
				if !slices.Contains(area[h], s.ID) {
					area[h] = append(area[h], s.ID)
				}
			}
		}
		if len(land) > 0 {
			v.add(m.Line("sea "+string(s.ID)+" "+land[0].String()), "sea area %s has land hexes %s: expected sea hexes only", s.ID, hexList(land))
		}
		if ok, cut := contiguous(s.Hexes); !ok {
			v.add(m.Line("sea "+string(s.ID)+" "+cut[0].String()), "sea area %s is not contiguous: %s are cut off from %s", s.ID, hexList(cut), s.Hexes[0])
		}
	}
	var none []game.Hex
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			h := game.Hex{Col: c, Row: r}
			if m.TerrainAt(h) != game.Sea {
				continue
			}
			switch ids := area[h]; {
			case len(ids) == 0:
				none = append(none, h)
			case len(ids) > 1:
				v.addHex(m.Line("sea "+string(ids[1])+" "+h.String()), h, "sea hex %s is in sea areas %s and %s: expected exactly one", h, ids[0], ids[1])
			}
		}
	}
	if len(none) > 0 {
		slices.SortFunc(none, game.Hex.Compare)
		v.addHex(m.Line("hex "+none[0].String()), none[0], "%s in no sea area: %s", english.Count(len(none), "sea hex")+" "+english.Agree(len(none), "is", "are"), hexList(none))
	}
}

func (v *validator) winds() {
	m := v.m
	marked := map[[2]game.SeaID]bool{}
	for _, w := range m.Winds {
		key := [2]game.SeaID{w.From, w.To}
		if w.To < w.From {
			key = [2]game.SeaID{w.To, w.From}
		}
		line := m.Line("wind " + string(key[0]) + " " + string(key[1]))
		_, okFrom := m.Sea(w.From)
		_, okTo := m.Sea(w.To)
		switch {
		case !okFrom || !okTo:
			missing := w.From
			if okFrom {
				missing = w.To
			}
			v.add(line, "wind marker %s–%s names sea area %s, which is not declared", w.From, w.To, missing)
			continue
		case w.From == w.To:
			v.add(line, "wind marker from %s to itself: expected two different sea areas", w.From)
			continue
		case !slices.Contains(m.AdjacentSeas(w.From), w.To):
			v.add(line, "wind marker between %s and %s, which do not touch: expected adjacent sea areas", w.From, w.To)
		}
		if w.Kind != WithWind && w.Kind != BothWays {
			v.add(line, "wind marker %s–%s has no direction: expected > or <>", w.From, w.To)
		}
		if marked[key] {
			v.add(line, "a second wind marker between %s and %s: expected one", key[0], key[1])
		}
		marked[key] = true
	}
	for _, s := range m.Seas {
		for _, n := range m.AdjacentSeas(s.ID) {
			if s.ID < n && !marked[[2]game.SeaID{s.ID, n}] {
				v.add(m.Line("sea "+string(s.ID)), "sea areas %s and %s touch but have no wind marker: expected wind %s > %s, wind %s > %s or wind %s <> %s",
					s.ID, n, s.ID, n, n, s.ID, s.ID, n)
			}
		}
	}
}

func (v *validator) goodHolding() {
	m := v.m
	for _, h := range m.GoodHolding {
		line := m.Line("goodholding " + h.String())
		switch {
		case !m.InBounds(h):
			v.addHex(line, h, "good-holding hex %s is off the map", h)
		case !m.IsCoastal(h):
			v.addHex(line, h, "good-holding hex %s is not coastal land: expected a land hex next to the sea", h)
		default:
			if c, ok := m.CityAt(h); ok {
				v.addHex(line, h, "good-holding hex %s holds the city %s: a city's anchorage is its port, so expected a hex without a city", h, c.Name)
			}
		}
	}
}

func (v *validator) edges(what string, edges []Edge, landOnly bool) {
	m := v.m
	for _, e := range edges {
		line := m.Line(what + " " + edgeKey(e))
		switch {
		case !m.InBounds(e.A) || !m.InBounds(e.B):
			v.add(line, "%s %s/%s leaves the map", what, e.A, e.B)
		case !Adjacent(e.A, e.B):
			v.add(line, "%s %s/%s: the hexes are not adjacent, expected neighbouring hexes", what, e.A, e.B)
		case landOnly && (!m.IsLand(e.A) || !m.IsLand(e.B)):
			v.add(line, "river %s/%s touches the sea: expected a hexside between two land hexes (a river ends at the coast)", e.A, e.B)
		case !landOnly && (!m.IsLand(e.A) || !m.IsLand(e.B)):
			v.add(line, "road %s/%s runs into the sea: expected land hexes", e.A, e.B)
		}
	}
}
