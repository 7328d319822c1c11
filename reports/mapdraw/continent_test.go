package mapdraw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// continent builds a plausible continent in code, for tests and benchmarks
// that must not depend on the scenario files: a noisy island, terrain from
// smooth noise, twenty provinces grown from spread-out seeds, the five nations
// of the rules on neighbouring provinces, cities, rivers flowing along
// hexsides to the sea, roads between nearby cities, sea areas and winds.
// The same arguments always build the same map.
func continent(cols, rows int, seed uint64) *hexmap.Map {
	rng := rand.New(rand.NewPCG(seed, 1752))
	m := &hexmap.Map{Name: "The Continent", Cols: cols, Rows: rows, Terrain: make([]game.Terrain, cols*rows)}
	idx := func(h game.Hex) int { return (h.Row-1)*cols + (h.Col - 1) }
	all := make([]game.Hex, 0, cols*rows)
	for c := 1; c <= cols; c++ {
		for r := 1; r <= rows; r++ {
			all = append(all, game.Hex{Col: c, Row: r})
		}
	}
	noise := func(f0, step float64) func(x, y float64) float64 {
		type wave struct{ a, kx, ky, ph float64 }
		var ws []wave
		for i := range 6 {
			f := f0 + float64(i)*step
			ang := rng.Float64() * 2 * math.Pi
			ws = append(ws, wave{1 / (1 + float64(i)*0.6), f * math.Cos(ang), f * math.Sin(ang), rng.Float64() * 2 * math.Pi})
		}
		return func(x, y float64) float64 {
			s, n := 0.0, 0.0
			for _, w := range ws {
				s += w.a * math.Cos(w.kx*x+w.ky*y+w.ph)
				n += w.a
			}
			return s / n
		}
	}
	shape, height, forest := noise(6, 3), noise(12, 5), noise(14, 6)
	mw, mh := mapSize(&hexmap.Map{Cols: cols, Rows: rows})
	norm := func(h game.Hex) (float64, float64) { c := center(h); return c.X / mw, c.Y / mh }

	set := func(h game.Hex, t game.Terrain) { m.Terrain[idx(h)] = t }
	get := func(h game.Hex) game.Terrain { return m.Terrain[idx(h)] }
	neighbours := func(h game.Hex) []game.Hex { return m.Neighbors(h) }
	for _, h := range all {
		x, y := norm(h)
		e := 1 - math.Pow((x-0.5)/0.44, 2) - math.Pow((y-0.5)/0.42, 2) + 0.75*shape(x, y)
		if e > 0.12 && h.Col > 1 && h.Row > 1 && h.Col < cols && h.Row < rows {
			set(h, game.Clear)
		} else {
			set(h, game.Sea)
		}
	}
	// Fill lakes, keep the largest land mass.
	flood := func(start []game.Hex, keep func(game.Hex) bool) map[game.Hex]bool {
		seen := map[game.Hex]bool{}
		q := slices.Clone(start)
		for _, h := range q {
			seen[h] = true
		}
		for len(q) > 0 {
			h := q[0]
			q = q[1:]
			for _, n := range neighbours(h) {
				if !seen[n] && keep(n) {
					seen[n] = true
					q = append(q, n)
				}
			}
		}
		return seen
	}
	open := flood([]game.Hex{{Col: 1, Row: 1}}, func(h game.Hex) bool { return get(h) == game.Sea })
	for _, h := range all {
		if get(h) == game.Sea && !open[h] {
			set(h, game.Clear)
		}
	}
	var biggest map[game.Hex]bool
	done := map[game.Hex]bool{}
	for _, h := range all {
		if get(h) == game.Sea || done[h] {
			continue
		}
		comp := flood([]game.Hex{h}, func(n game.Hex) bool { return get(n) != game.Sea })
		for n := range comp {
			done[n] = true
		}
		if len(comp) > len(biggest) {
			biggest = comp
		}
	}
	var land []game.Hex
	for _, h := range all {
		if get(h) != game.Sea && !biggest[h] {
			set(h, game.Sea)
		}
		if get(h) != game.Sea {
			land = append(land, h)
		}
	}
	for _, h := range land {
		x, y := norm(h)
		switch hv, fv := height(x, y), forest(x, y); {
		case hv > 0.45 && !m.IsCoastal(h):
			set(h, game.Mountain)
		case hv > 0.28:
			set(h, game.Rough)
		case fv > 0.3:
			set(h, game.Woods)
		}
	}

	// Provinces: farthest-point seeds, grown breadth first.
	farthest := func(pool []game.Hex, n int, first game.Hex) []game.Hex {
		seeds := []game.Hex{first}
		for len(seeds) < n {
			best, bestD := game.Hex{}, -1
			for _, h := range pool {
				d := math.MaxInt
				for _, s := range seeds {
					d = min(d, hexmap.Distance(h, s))
				}
				if d > bestD {
					best, bestD = h, d
				}
			}
			seeds = append(seeds, best)
		}
		return seeds
	}
	grow := func(seeds []game.Hex, keep func(game.Hex) bool) map[game.Hex]int {
		owner := map[game.Hex]int{}
		q := slices.Clone(seeds)
		for i, s := range seeds {
			owner[s] = i
		}
		for len(q) > 0 {
			h := q[0]
			q = q[1:]
			for _, n := range neighbours(h) {
				if _, ok := owner[n]; !ok && keep(n) {
					owner[n] = owner[h]
					q = append(q, n)
				}
			}
		}
		return owner
	}
	isLand := func(h game.Hex) bool { return get(h) != game.Sea }
	mid := hexAt(pt{mw / 2, mh / 2})
	pseeds := farthest(land, 20, land[len(land)/2])
	_ = mid
	region := grow(pseeds, isLand)
	regionHexes := make([][]game.Hex, len(pseeds))
	for _, h := range land {
		regionHexes[region[h]] = append(regionHexes[region[h]], h)
	}
	adjacent := func(a, b int) bool {
		for _, h := range regionHexes[a] {
			for _, n := range neighbours(h) {
				if r, ok := region[n]; ok && r == b && isLand(n) {
					return true
				}
			}
		}
		return false
	}
	type nationSpec struct {
		id      game.NationID
		name    string
		letters []string
		capitol string
		traits  game.Traits
	}
	specs := []nationSpec{
		{"eisenmark", "Eisenmark", []string{"F", "K", "L"}, "Altburg", game.Traits{VolleyRoutHit: true}},
		{"morgronskia", "Morgronskia", []string{"N", "P"}, "Velikograd", game.Traits{StationaryFireBonus: true}},
		{"unterreich", "Unterreich", []string{"E", "S"}, "Königsau", game.Traits{IrregularLight: true}},
		{"fromande", "Fromande", []string{"G", "H"}, "Beaumontier", game.Traits{AdvanceFireBonus: true}},
		{"hispardia", "Hispardia", []string{"J", "M", "R"}, "Sanlúcar", game.Traits{CavalryAdvanceBonus: true}},
	}
	neutralLetters := []string{"A", "V", "C", "Q", "O", "U", "W", "I"}
	// Nations start on regions far apart and grow into neighbours.
	var cents []game.Hex
	for _, hs := range regionHexes {
		cents = append(cents, hexAt(hexCentroid(hs)))
	}
	startHexes := farthest(cents, len(specs), cents[0])
	claim := make([]int, len(pseeds))
	for i := range claim {
		claim[i] = -1
	}
	var nationRegions [][]int
	for ni, s := range startHexes {
		ri := slices.Index(cents, s)
		claim[ri] = ni
		nationRegions = append(nationRegions, []int{ri})
	}
	for round := 0; round < 3; round++ {
		for ni, spec := range specs {
			if len(nationRegions[ni]) >= len(spec.letters) {
				continue
			}
			for cand := range claim {
				if claim[cand] != -1 {
					continue
				}
				if slices.ContainsFunc(nationRegions[ni], func(r int) bool { return adjacent(r, cand) }) {
					claim[cand] = ni
					nationRegions[ni] = append(nationRegions[ni], cand)
					break
				}
			}
		}
	}
	provNames := []string{"Altmark", "Brenzau", "Corvennes", "Drusland", "Eberfeld", "Falkenried", "Grisonne",
		"Hohenlitz", "Istrava", "Juvenois", "Kessland", "Lindholm", "Marovia", "Nordhagen", "Ostravie",
		"Pellingen", "Quercy", "Rosvald", "Sankt Veit", "Turenne", "Ulmgau", "Valdoria", "Westerwold"}
	cityNames := []string{"Aachstadt", "Bellac", "Corbach", "Dornitz", "Erlau", "Fiume", "Gradisca", "Hamelin",
		"Isenburg", "Jarville", "Kolberg", "Lützen", "Mirecourt", "Neisse", "Olmütz", "Parchim", "Quedlin",
		"Rheinau", "Saalfeld", "Torgau", "Udine", "Vallon", "Wetzlar", "Xanten", "Ypern", "Zittau", "Arlon",
		"Brieg", "Cleve", "Dinant", "Eger", "Freiberg", "Glatz", "Hanau", "Ingolstadt", "Jülich", "Kassel",
		"Landau", "Mainz", "Namur", "Ohrdruf", "Pirna", "Rastatt", "Schweidnitz", "Tournai", "Verdun", "Worms"}
	letterOf := make([]string, len(pseeds))
	owners := make([]game.NationID, len(pseeds))
	nl := 0
	for ri := range pseeds {
		if claim[ri] == -1 {
			letterOf[ri] = neutralLetters[nl%len(neutralLetters)]
			if nl >= len(neutralLetters) {
				letterOf[ri] = fmt.Sprint("X", nl)
			}
			nl++
		}
	}
	for ni, rs := range nationRegions {
		for j, ri := range rs {
			if j < len(specs[ni].letters) {
				letterOf[ri] = specs[ni].letters[j]
				owners[ri] = specs[ni].id
			}
		}
	}
	for ri, hs := range regionHexes {
		if letterOf[ri] == "" { // a nation that found too few neighbours
			letterOf[ri] = fmt.Sprint("Y", ri)
		}
		m.Provinces = append(m.Provinces, hexmap.Province{Letter: letterOf[ri], Name: provNames[ri], Owner: owners[ri], Hexes: hs})
	}

	// Cities: the capitol at the heart of a nation's first province, then one
	// to three more per province, kept apart.
	var cityHexes []game.Hex
	ci := 0
	farFromCities := func(h game.Hex, d int) bool {
		for _, c := range cityHexes {
			if hexmap.Distance(h, c) < d {
				return false
			}
		}
		return true
	}
	addCity := func(h game.Hex, name, prov string, capitol game.NationID) {
		cityHexes = append(cityHexes, h)
		m.Cities = append(m.Cities, hexmap.City{Name: name, Hex: h, Port: m.IsCoastal(h), Province: prov, Capitol: capitol})
	}
	for ni, rs := range nationRegions {
		hs := regionHexes[rs[0]]
		c := hexCentroid(hs)
		best := hs[0]
		for _, h := range hs {
			if get(h) != game.Mountain && (get(best) == game.Mountain || center(h).dist(c) < center(best).dist(c)) {
				best = h
			}
		}
		addCity(best, specs[ni].capitol, letterOf[rs[0]], specs[ni].id)
	}
	for ri, hs := range regionHexes {
		want := 1 + len(hs)/14
		have := 0
		for _, c := range m.Cities {
			if c.Province == letterOf[ri] {
				have++
			}
		}
		order := slices.Clone(hs)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, h := range order {
			if have >= want {
				break
			}
			if get(h) == game.Mountain || !farFromCities(h, 3) {
				continue
			}
			addCity(h, cityNames[ci%len(cityNames)], letterOf[ri], game.Neutral)
			ci++
			have++
		}
	}

	// Rivers: from high corners down the corner graph to the coast.
	type link struct {
		to   key
		edge hexmap.Edge
	}
	graph := map[key][]link{}
	var corners []key
	pos := map[key]pt{}
	coast := map[key]bool{}
	for _, h := range land {
		for _, dir := range hexmap.Directions {
			n := hexmap.Step(h, dir)
			a, b := sideCorners(h, dir)
			ka, kb := keyOf(a), keyOf(b)
			if !m.InBounds(n) || get(n) == game.Sea {
				coast[ka], coast[kb] = true, true
				continue
			}
			if !h.Less(n) {
				continue
			}
			for _, k := range []key{ka, kb} {
				if _, ok := pos[k]; !ok {
					corners = append(corners, k)
				}
			}
			pos[ka], pos[kb] = a, b
			e := hexmap.EdgeOf(h, n)
			graph[ka] = append(graph[ka], link{kb, e})
			graph[kb] = append(graph[kb], link{ka, e})
		}
	}
	dist := map[key]int{}
	var q []key
	for _, k := range corners {
		if coast[k] {
			dist[k] = 0
			q = append(q, k)
		}
	}
	for len(q) > 0 {
		k := q[0]
		q = q[1:]
		for _, l := range graph[k] {
			if _, ok := dist[l.to]; !ok {
				dist[l.to] = dist[k] + 1
				q = append(q, l.to)
			}
		}
	}
	onRiver := map[key]bool{}
	rivers := map[hexmap.Edge]bool{}
	sources := 0
	order := slices.Clone(corners)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, k := range order {
		if sources >= 8 || dist[k] < 5 || onRiver[k] {
			continue
		}
		near := false
		for o := range onRiver {
			if pos[o].dist(pos[k]) < 4 {
				near = true
				break
			}
		}
		if near {
			continue
		}
		sources++
		for cur := k; dist[cur] > 0; {
			onRiver[cur] = true
			var downs []link
			for _, l := range graph[cur] {
				if dist[l.to] == dist[cur]-1 {
					downs = append(downs, l)
				}
			}
			l := downs[rng.IntN(len(downs))]
			rivers[l.edge] = true
			if onRiver[l.to] {
				break
			}
			cur = l.to
		}
	}
	for e := range rivers {
		m.Rivers = append(m.Rivers, e)
	}

	// Roads: each city to its two nearest neighbours, by the cheapest path.
	cost := map[game.Terrain]int{game.Clear: 1, game.Woods: 2, game.Rough: 2, game.Mountain: 6}
	path := func(a, b game.Hex) []game.Hex {
		best := map[game.Hex]int{a: 0}
		prev := map[game.Hex]game.Hex{}
		frontier := []game.Hex{a}
		for len(frontier) > 0 {
			slices.SortStableFunc(frontier, func(x, y game.Hex) int { return best[x] - best[y] })
			h := frontier[0]
			frontier = frontier[1:]
			if h == b {
				break
			}
			for _, n := range neighbours(h) {
				if !isLand(n) {
					continue
				}
				c := best[h] + cost[get(n)]
				if old, ok := best[n]; !ok || c < old {
					best[n] = c
					prev[n] = h
					frontier = append(frontier, n)
				}
			}
		}
		var out []game.Hex
		for h := b; h != a; h = prev[h] {
			out = append(out, h)
			if _, ok := prev[h]; !ok {
				return nil
			}
		}
		return append(out, a)
	}
	roads := map[hexmap.Edge]bool{}
	for i, c := range m.Cities {
		others := slices.Clone(m.Cities)
		others = slices.Delete(others, i, i+1)
		slices.SortStableFunc(others, func(x, y hexmap.City) int {
			return hexmap.Distance(c.Hex, x.Hex) - hexmap.Distance(c.Hex, y.Hex)
		})
		for _, o := range others[:min(2, len(others))] {
			if hexmap.Distance(c.Hex, o.Hex) > 9 {
				continue
			}
			p := path(c.Hex, o.Hex)
			for j := 1; j < len(p); j++ {
				roads[hexmap.EdgeOf(p[j-1], p[j])] = true
			}
		}
	}
	for e := range roads {
		m.Roads = append(m.Roads, e)
	}

	// Sea areas and their winds.
	var sea []game.Hex
	for _, h := range all {
		if get(h) == game.Sea {
			sea = append(sea, h)
		}
	}
	sseeds := farthest(sea, 9, sea[0])
	sregion := grow(sseeds, func(h game.Hex) bool { return get(h) == game.Sea })
	seaNames := []string{"Northern Sea", "Gulf of Storms", "Bay of Corvennes", "Amber Sea", "Western Approaches",
		"Strait of Vells", "Southern Reach", "Sea of Marovia", "Eastern Deep"}
	for i := range sseeds {
		s := hexmap.SeaArea{ID: game.SeaID(fmt.Sprint("S", i+1)), Name: seaNames[i]}
		for _, h := range sea {
			if sregion[h] == i {
				s.Hexes = append(s.Hexes, h)
			}
		}
		m.Seas = append(m.Seas, s)
	}
	m.Build()
	wi := 0
	for _, s := range m.Seas {
		for _, t := range m.AdjacentSeas(s.ID) {
			if t <= s.ID {
				continue
			}
			switch wi % 3 {
			case 0:
				m.Winds = append(m.Winds, hexmap.Wind{From: s.ID, To: t, Kind: hexmap.WithWind})
			case 1:
				m.Winds = append(m.Winds, hexmap.Wind{From: t, To: s.ID, Kind: hexmap.WithWind})
			default:
				m.Winds = append(m.Winds, hexmap.Wind{From: s.ID, To: t, Kind: hexmap.BothWays})
			}
			wi++
		}
	}
	for i := range m.Cities {
		m.Cities[i].River = m.HasRiver(m.Cities[i].Hex)
	}
	for _, h := range land {
		if _, ok := m.CityAt(h); !ok && m.IsCoastal(h) && rng.Float64() < 0.22 {
			m.GoodHolding = append(m.GoodHolding, h)
		}
	}
	for ni, s := range specs {
		n := game.Nation{ID: s.id, Name: s.name, Letter: s.name[:1], Capitol: s.capitol, Traits: s.traits}
		for _, ri := range nationRegions[ni] {
			n.Provinces = append(n.Provinces, letterOf[ri])
		}
		slices.Sort(n.Provinces)
		m.Nations = append(m.Nations, n)
	}
	m.Build()
	return m
}
