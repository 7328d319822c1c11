package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// StepCost returns the MP a mover of class c pays to step from hex a into the
// adjacent hex b (rules "Land Movement", "Movement Table"): the road rate when
// a road joins the two hexes, otherwise the cost of b's terrain (woods as
// rough), plus the river cost when a river runs along the hexside shared —
// except along a road when the ruleset's RoadBridgesRivers holds. ok is false
// where the table says "No" (mountains; artillery across a river) or b is not
// land. noRoad drops the road rate (Grenzers infiltrating a hex).
func StepCost(m *hexmap.Map, rules *ruleset.Ruleset, c ruleset.MoveClass, a, b game.Hex, noRoad bool) (int, bool) {
	if !m.IsLand(b) || !hexmap.Adjacent(a, b) {
		return 0, false
	}
	road := !noRoad && m.Road(a, b)
	return rules.Movement.Cost(c, m.TerrainAt(b), road, m.River(a, b))
}

// Route returns the cheapest legal route for force f from hex from to hex to,
// as the engine computes it at the start of the turn for a destination order:
// the hexes entered in order (from excluded), its cost in MP for the force's
// movement class (ruleset.ClassOf: its slowest part), and ok. The route
// ignores other forces. Among routes of equal cost the one with fewer hexes
// wins, then the one found first by the search's fixed order (A* with the
// hex distance times the cheapest step as heuristic; equal keys are broken
// by hex row, then column), so the same map always gives the same route. The
// order checker uses the same function.
func Route(m *hexmap.Map, rules *ruleset.Ruleset, f *game.Force, from, to game.Hex) ([]game.Hex, int, bool) {
	r := newRouter(m, rules)
	return r.route(ruleset.ClassOf(f), from, to)
}

// SeaStepCost returns the MP a fleet pays from one place to the next along a
// voyage (rules "Sea Movement"): between adjacent sea areas 1 MP with the
// wind and 3 against it or across a double-headed (doldrums) marker; 1 MP to
// enter or leave a port and 2 to enter or leave a good-holding hex, which
// must touch the sea area. Adjacent areas without any wind marker cost the
// with-the-wind rate (docs/rules-notes.md §Sea movement).
func SeaStepCost(m *hexmap.Map, rules *ruleset.Ruleset, from, to game.Place) (int, bool) {
	sm := rules.SeaMovement
	switch {
	case from.IsSea() && to.IsSea():
		if !slices.Contains(m.AdjacentSeas(from.Sea), to.Sea) {
			return 0, false
		}
		kind, marked := m.WindBetween(from.Sea, to.Sea)
		switch {
		case kind == hexmap.WithWind:
			return sm.WithWind, true
		case kind == hexmap.BothWays || marked:
			return sm.AgainstWind, true
		}
		return sm.WithWind, true
	case from.IsSea() && !to.IsSea():
		return anchorageCost(m, rules, to.Hex, from.Sea)
	case !from.IsSea() && to.IsSea():
		return anchorageCost(m, rules, from.Hex, to.Sea)
	}
	return 0, false
}

// anchorageCost is the cost of entering or leaving a port or good-holding hex
// from or to a sea area it touches.
func anchorageCost(m *hexmap.Map, rules *ruleset.Ruleset, h game.Hex, sea game.SeaID) (int, bool) {
	if !slices.Contains(m.SeasTouching(h), sea) {
		return 0, false
	}
	if c, ok := m.CityAt(h); ok && c.Port {
		return rules.SeaMovement.Port, true
	}
	if m.IsGoodHolding(h) {
		return rules.SeaMovement.GoodHolding, true
	}
	return 0, false
}

// router holds reusable scratch arrays for route searches over one map.
type router struct {
	m     *hexmap.Map
	rules *ruleset.Ruleset
	gen   []uint32
	cur   uint32
	g     []int32
	steps []int32
	prev  []int32
	done  []bool
	heap  []node
	// steps are the step costs of each class from each hex in each
	// direction (index*6+direction), -1 where forbidden; built on first use.
	stepCost map[ruleset.MoveClass][]int8
}

// cost returns the step cost for class c from hex index i in direction d,
// filling the hex's six entries of the class's table on first use.
func (r *router) cost(c ruleset.MoveClass, i int32, d hexmap.Direction) (int, bool) {
	tab := r.stepCost[c]
	if tab == nil {
		tab = make([]int8, r.m.Cols*r.m.Rows*6)
		for k := range tab {
			tab[k] = unknownCost
		}
		if r.stepCost == nil {
			r.stepCost = map[ruleset.MoveClass][]int8{}
		}
		r.stepCost[c] = tab
	}
	k := int(i)*6 + int(d)
	if tab[k] == unknownCost {
		h := r.hexOf(i)
		for _, dd := range hexmap.Directions {
			v := int8(-1)
			if nb := hexmap.Step(h, dd); r.m.InBounds(nb) {
				if x, ok := StepCost(r.m, r.rules, c, h, nb, false); ok {
					v = int8(min(x, 126))
				}
			}
			tab[int(i)*6+int(dd)] = v
		}
	}
	v := tab[k]
	return int(v), v >= 0
}

// unknownCost marks a step cost not computed yet.
const unknownCost = -2

func newRouter(m *hexmap.Map, rules *ruleset.Ruleset) *router {
	n := m.Cols * m.Rows
	return &router{m: m, rules: rules, gen: make([]uint32, n), g: make([]int32, n), steps: make([]int32, n),
		prev: make([]int32, n), done: make([]bool, n)}
}

func (r *router) index(h game.Hex) int32 { return int32((h.Row-1)*r.m.Cols + (h.Col - 1)) }

func (r *router) hexOf(i int32) game.Hex {
	return game.Hex{Col: int(i)%r.m.Cols + 1, Row: int(i)/r.m.Cols + 1}
}

func (r *router) reset() {
	r.cur++
	if r.cur == 0 {
		clear(r.gen)
		r.cur = 1
	}
	r.heap = r.heap[:0]
}

func (r *router) visit(i int32) bool {
	if r.gen[i] != r.cur {
		r.gen[i] = r.cur
		r.g[i] = -1
		r.done[i] = false
		return false
	}
	return true
}

func nodeLess(a, b node) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.steps != b.steps {
		return a.steps < b.steps
	}
	return a.idx < b.idx
}

func (r *router) push(n node) {
	r.heap = append(r.heap, n)
	i := len(r.heap) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !nodeLess(r.heap[i], r.heap[p]) {
			break
		}
		r.heap[i], r.heap[p] = r.heap[p], r.heap[i]
		i = p
	}
}

func (r *router) pop() node {
	top := r.heap[0]
	last := len(r.heap) - 1
	r.heap[0] = r.heap[last]
	r.heap = r.heap[:last]
	i := 0
	for {
		l, rt := 2*i+1, 2*i+2
		m := i
		if l < len(r.heap) && nodeLess(r.heap[l], r.heap[m]) {
			m = l
		}
		if rt < len(r.heap) && nodeLess(r.heap[rt], r.heap[m]) {
			m = rt
		}
		if m == i {
			return top
		}
		r.heap[i], r.heap[m] = r.heap[m], r.heap[i]
		i = m
	}
}

// minStep is the cheapest step a class can ever pay: the A* heuristic's unit.
func (r *router) minStep(c ruleset.MoveClass) int {
	row := r.rules.Movement.Rows[c]
	best := row.Road
	for _, v := range row.Terrain {
		if v != ruleset.Impassable && (best <= 0 || v < best) {
			best = v
		}
	}
	return max(best, 0)
}

// route is Route with this router's scratch space.
func (r *router) route(c ruleset.MoveClass, from, to game.Hex) ([]game.Hex, int, bool) {
	if !r.m.InBounds(from) || !r.m.IsLand(to) || from == to {
		return nil, 0, false
	}
	if v, known := r.rules.Movement.Rows[c].Terrain[r.m.TerrainAt(to).MoveClass()]; !known || v == ruleset.Impassable {
		return nil, 0, false
	}
	r.reset()
	unit := int32(r.minStep(c))
	h := func(x game.Hex) int32 { return int32(hexmap.Distance(x, to)) * unit }
	s, goal := r.index(from), r.index(to)
	r.visit(s)
	r.g[s], r.steps[s], r.prev[s] = 0, 0, -1
	r.push(node{f: h(from), g: 0, steps: 0, idx: s})
	for len(r.heap) > 0 {
		n := r.pop()
		if r.done[n.idx] || n.g != r.g[n.idx] || n.steps != r.steps[n.idx] {
			continue
		}
		r.done[n.idx] = true
		if n.idx == goal {
			break
		}
		cur := r.hexOf(n.idx)
		for _, d := range hexmap.Directions {
			cost, ok := r.cost(c, n.idx, d)
			if !ok {
				continue
			}
			nb := hexmap.Step(cur, d)
			j := r.index(nb)
			ng, ns := n.g+int32(cost), n.steps+1
			if r.visit(j) && (r.done[j] || r.g[j] >= 0 && (r.g[j] < ng || r.g[j] == ng && r.steps[j] <= ns)) {
				continue
			}
			r.g[j], r.steps[j], r.prev[j] = ng, ns, n.idx
			r.push(node{f: ng + h(nb), g: ng, steps: ns, idx: j})
		}
	}
	if r.gen[goal] != r.cur || !r.done[goal] {
		return nil, 0, false
	}
	var path []game.Hex
	for i := goal; i != s; i = r.prev[i] {
		path = append(path, r.hexOf(i))
	}
	slices.Reverse(path)
	return path, int(r.g[goal]), true
}

// reach is a bounded multi-source search backwards from the sources (depots)
// at class c's costs: dist[i] is the cheapest MP of a path from hex i into a
// source, and the index of that source. A path may start in a blocked hex but
// never passes through one (nor ends in one: a source in a blocked hex reaches
// its own hex only). It is the supply trace.
func (r *router) reach(c ruleset.MoveClass, sources []game.Hex, limit int, blocked func(int32) bool, dist map[int32][2]int) {
	r.reset()
	for k, src := range sources {
		i := r.index(src)
		if blocked(i) {
			// A depot in a blocked hex supplies the troops on it (their
			// line passes through nothing) and nobody outside.
			if _, ok := dist[i]; !ok {
				dist[i] = [2]int{0, k}
			}
			continue
		}
		if r.visit(i) {
			continue
		}
		r.g[i], r.prev[i] = 0, int32(k)
		r.push(node{idx: i})
	}
	for len(r.heap) > 0 {
		n := r.pop()
		if r.done[n.idx] || n.g != r.g[n.idx] {
			continue
		}
		r.done[n.idx] = true
		dist[n.idx] = [2]int{int(n.g), int(r.prev[n.idx])}
		cur := r.hexOf(n.idx)
		for _, d := range hexmap.Directions {
			nb := hexmap.Step(cur, d)
			if !r.m.InBounds(nb) {
				continue
			}
			// The tracer walks from nb into cur.
			j := r.index(nb)
			cost, ok := r.cost(c, j, d.Opposite())
			if !ok {
				continue
			}
			ng := n.g + int32(cost)
			if int(ng) > limit {
				continue
			}
			if r.visit(j) && (r.done[j] || r.g[j] >= 0 && r.g[j] <= ng) {
				continue
			}
			r.g[j], r.prev[j] = ng, r.prev[n.idx]
			if blocked(j) {
				// A force may stand in a blocked hex and trace out of it, but
				// no line passes through: record, do not expand.
				if old, ok := dist[j]; !ok || int(ng) < old[0] {
					dist[j] = [2]int{int(ng), int(r.prev[n.idx])}
				}
				continue
			}
			r.push(node{f: ng, g: ng, idx: j})
		}
	}
}

type node struct {
	f, g, steps, idx int32
}
