package trossian

import (
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
)

// Routes. Every search here is a shortest-path search over the area map
// with integer costs and ties broken by the places' names, so that the same
// map gives the same route on every machine. The graphs are small (tens of
// places): the search picks the cheapest open node by a scan.

// node is a place in a search: a province, or a lane (by sea).
type node struct {
	province, lane string
}

func (n node) key() string {
	if n.lane != "" {
		return "L:" + n.lane
	}
	return "P:" + n.province
}

// search is Dijkstra's algorithm over next(node) → (neighbour, cost) pairs;
// it returns the path from from to to (without from), nil if none.
func search(from, to node, next func(node) []edge) []node {
	type entry struct {
		cost int
		prev string
		n    node
		done bool
	}
	seen := map[string]*entry{from.key(): {n: from}}
	keys := []string{from.key()} // seen's keys, scanned in insertion order
	for {
		var cur *entry
		var curKey string
		for _, k := range keys {
			e := seen[k]
			if e.done {
				continue
			}
			if cur == nil || e.cost < cur.cost || e.cost == cur.cost && k < curKey {
				cur, curKey = e, k
			}
		}
		if cur == nil {
			return nil
		}
		cur.done = true
		if curKey == to.key() {
			var path []node
			for k := curKey; k != from.key(); k = seen[k].prev {
				path = append(path, seen[k].n)
			}
			slices.Reverse(path)
			return path
		}
		for _, e := range next(cur.n) {
			k := e.to.key()
			c := cur.cost + e.cost
			x, ok := seen[k]
			if ok && (x.done || x.cost < c || x.cost == c && x.prev <= curKey) {
				continue
			}
			if !ok {
				keys = append(keys, k)
			}
			seen[k] = &entry{cost: c, prev: curKey, n: e.to}
		}
	}
}

// edge is one step of a search.
type edge struct {
	to   node
	cost int
}

// Route returns the quickest land route between two provinces: a step
// along a road costs 2, any other 3 (a road moves foot twice as far and
// horse half as far again), a step into a province barred (a hostile town
// or port, whose garrison stops a march) 100 more unless it is the
// destination; ties by name. The engine marches MOVE … TO on it; the
// checker shows it. barred may be nil.
func Route(m *areamap.Map, from, to string, barred func(string) bool) []string {
	if from == to {
		return nil
	}
	path := search(node{province: from}, node{province: to}, func(n node) []edge {
		var out []edge
		for _, q := range m.Neighbors(n.province) {
			c := 3
			if m.Road(n.province, q) {
				c = 2
			}
			if q != to && barred != nil && barred(q) {
				c += 100
			}
			out = append(out, edge{node{province: q}, c})
		}
		return out
	})
	out := make([]string, len(path))
	for i, n := range path {
		out[i] = n.province
	}
	return out
}

// courierRoute is a courier's way from one place to another, by land and
// sea: "Couriers can travel by horse or by ship, and freely convert back
// and forth at any coastal town". Each place entered costs 10, a risky one
// (risky reports them: enemy provinces and enemy-held lanes) 18 — a
// courier rides one province out of its way to spare itself a 1-in-6 risk
// — and ties go by name. closed reports lanes the courier may not enter
// (the frozen lanes in Early Spring and Late Autumn).
func courierRoute(m *areamap.Map, from, to CourierPlace, risky func(CourierPlace) bool, closed func(string) bool) []CourierPlace {
	if from == to {
		return nil
	}
	next := func(n node) []edge {
		var out []edge
		add := func(p CourierPlace) {
			c := 10
			if risky(p) {
				c += 8 // a one-province detour is worth a 1-in-6 risk
			}
			out = append(out, edge{node{province: p.Province, lane: p.Lane}, c})
		}
		if n.lane == "" {
			for _, q := range m.Neighbors(n.province) {
				add(CourierPlace{Province: q})
			}
			for _, l := range m.Coast(n.province) {
				if !closed(l) {
					add(CourierPlace{Lane: l})
				}
			}
			return out
		}
		for _, l := range m.LaneNeighbors(n.lane) {
			if !closed(l) {
				add(CourierPlace{Lane: l})
			}
		}
		for _, p := range m.CoastsOn(n.lane) {
			add(CourierPlace{Province: p})
		}
		return out
	}
	path := search(node{province: from.Province, lane: from.Lane}, node{province: to.Province, lane: to.Lane}, next)
	out := make([]CourierPlace, len(path))
	for i, n := range path {
		out[i] = CourierPlace{Province: n.province, Lane: n.lane}
	}
	return out
}

// courierPlaceOf reads a Via word: a lane ID or a province name.
func courierPlaceOf(m *areamap.Map, s string) (CourierPlace, bool) {
	id, lane, ok := m.Lookup(s)
	if !ok {
		return CourierPlace{}, false
	}
	if lane {
		return CourierPlace{Lane: id}, true
	}
	return CourierPlace{Province: id}, true
}

// laneDistances returns each lane's distance in links from the given lanes
// (missing: unreachable), skipping closed lanes.
func laneDistances(m *areamap.Map, from []string, closed func(string) bool) map[string]int {
	dist := map[string]int{}
	var queue []string
	for _, l := range from {
		if _, ok := dist[l]; !ok {
			dist[l] = 0
			queue = append(queue, l)
		}
	}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, x := range m.LaneNeighbors(l) {
			if _, ok := dist[x]; !ok && !closed(x) {
				dist[x] = dist[l] + 1
				queue = append(queue, x)
			}
		}
	}
	return dist
}

// lessName orders names for ties.
func lessName(a, b string) bool { return strings.Compare(a, b) < 0 }
