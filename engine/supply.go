package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// stepSupply is the start-of-turn supply trace (rules "Supply"): "A force is
// unsupplied unless at the start of the current turn it can trace an LOS back
// to a depot, or is in a city able to supply it. Generals do not need
// supply." Ships never need it.
//
//   - A land force traces an LOS at the artillery rate, up to 12 MP (18 for a
//     force of Grenzers alone), to a depot of its nation or one granted to it.
//     The search runs backwards from the depots, once per nation.
//   - The LOS may not pass through a hex blocked by a hostile nation: a hex
//     where it has 100 or more infantry and cavalry figures (a city loyal to
//     and held by it counts as 100 figures more), and every hex next to that
//     one that holds no troops hostile to the blocker — unless the tracing
//     nation has a larger force (more infantry and cavalry) within 2 hexes of
//     the blocking hex. A force may trace out of a blocked hex it stands in.
//   - Still unsupplied, a force in a city its nation controls and that is not
//     masked or besieged is fed by the city, which feeds as many figures as
//     its tax value: garrisons first, then the smaller forces first, then by
//     ID; a force is fed whole or not at all.
//   - Troops aboard a fleet at sea need a depot of their nation in their sea
//     area (aboard a fleet there), or in a port or good-holding hex touching
//     it, unless hostile warships there (in the area or the hex) outnumber
//     their nation's warships.
func (t *turn) stepSupply() {
	sr := t.r.Supply
	rule := t.cite("Supply", "")
	type nh struct {
		n game.NationID
		h game.Hex
	}
	fighting := map[nh]int{}
	troops := map[game.Hex][]game.NationID{}
	var needy []*game.Force
	var nations []game.NationID
	fleets := map[game.Place][]*game.Force{}
	for _, f := range t.live() {
		if f.IsFleet() {
			fleets[f.At] = append(fleets[f.At], f)
			continue
		}
		if f.Aboard == "" && !f.At.IsSea() {
			fighting[nh{f.Nation, f.At.Hex}] += f.FightingFigures()
			if f.Figures() > 0 && !slices.Contains(troops[f.At.Hex], f.Nation) {
				troops[f.At.Hex] = append(troops[f.At.Hex], f.Nation)
			}
		}
		if f.Figures() > 0 || f.GunCount() > 0 {
			needy = append(needy, f)
			if !slices.Contains(nations, f.Nation) {
				nations = append(nations, f.Nation)
			}
		} else {
			f.Unsupplied = false
		}
	}
	slices.Sort(nations)
	// Blocking forces and cities.
	type blocker struct {
		h        game.Hex
		n        game.NationID
		strength int
	}
	var blockers []blocker
	var keys []nh
	for k := range fighting {
		keys = append(keys, k)
	}
	for i := range t.m.Cities {
		c := &t.m.Cities[i]
		if cs, ok := t.s.City(c.Name); ok && cs.Loyalty != game.Neutral && cs.Controller == cs.Loyalty {
			k := nh{cs.Loyalty, c.Hex}
			if _, ok := fighting[k]; !ok {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(a, b nh) int {
		if c := a.h.Compare(b.h); c != 0 {
			return c
		}
		return cmpStr(string(a.n), string(b.n))
	})
	for _, k := range keys {
		s := fighting[k]
		if c, ok := t.m.CityAt(k.h); ok {
			if cs, ok := t.s.City(c.Name); ok && cs.Loyalty == k.n && cs.Controller == k.n {
				s += sr.CityBlocksAs
			}
		}
		if s >= sr.BlockingFigures {
			blockers = append(blockers, blocker{k.h, k.n, s})
		}
	}
	// Each blocker's zone (its hex, and each hex next to it holding no
	// troops hostile to it) and the nations protecting lines through it (a
	// stack of more infantry and cavalry within ProtectRadius hexes) are the
	// same for every tracing nation: found once, then looked up hex by hex
	// as each nation's trace reaches them.
	within := func(h game.Hex, r int) []game.Hex {
		out := []game.Hex{h}
		frontier := []game.Hex{h}
		for d := 0; d < r; d++ {
			var nextF []game.Hex
			for _, x := range frontier {
				for _, nb := range t.m.Neighbors(x) {
					if !slices.Contains(out, nb) {
						out = append(out, nb)
						nextF = append(nextF, nb)
					}
				}
			}
			frontier = nextF
		}
		return out
	}
	stacksAt := map[game.Hex][]game.NationID{}
	for _, k := range keys {
		if fighting[k] > 0 {
			stacksAt[k.h] = append(stacksAt[k.h], k.n)
		}
	}
	protectors := make([][]game.NationID, len(blockers))
	zoneOf := map[int32][]int{}
	for bi, b := range blockers {
		for _, x := range within(b.h, sr.ProtectRadius) {
			for _, n := range stacksAt[x] {
				if fighting[nh{n, x}] > b.strength && !slices.Contains(protectors[bi], n) {
					protectors[bi] = append(protectors[bi], n)
				}
			}
		}
		zone := []game.Hex{b.h}
		for _, nb := range t.m.Neighbors(b.h) {
			if !slices.ContainsFunc(troops[nb], func(x game.NationID) bool { return t.hostile(x, b.n) }) {
				zone = append(zone, nb)
			}
		}
		for _, h := range zone {
			i := t.scratch.index(h)
			zoneOf[i] = append(zoneOf[i], bi)
		}
	}
	done := map[game.ForceID]bool{}
	report := func(f *game.Force, ok bool, source string, mp int, reason string) {
		f.Unsupplied = !ok
		done[f.ID] = true
		t.emit(&SupplyTraced{Force: f.ID, Supplied: ok, Source: source, MP: mp, Reason: reason}, rule, f.At, to(f.Nation), f.Nation)
	}
	maxRange := max(sr.RangeMP, sr.GrenzerRangeMP)
	for _, n := range nations {
		blocked := func(i int32) bool {
			for _, bi := range zoneOf[i] {
				if t.hostile(blockers[bi].n, n) && !slices.Contains(protectors[bi], n) {
					return true
				}
			}
			return false
		}
		var depots []game.Depot
		var sources []game.Hex
		for _, d := range t.s.Depots {
			if (d.Nation == n || slices.Contains(d.GrantedTo, n)) && !d.At.IsSea() && !d.At.IsZero() {
				depots = append(depots, d)
				sources = append(sources, d.At.Hex)
			}
		}
		dist := map[int32][2]int{}
		if len(sources) > 0 {
			t.scratch.reach(ruleset.Artillery, sources, maxRange, blocked, dist)
		}
		for _, f := range needy {
			if f.Nation != n {
				continue
			}
			if f.At.IsSea() {
				t.seaSupply(f, fleets, report)
				continue
			}
			rng := sr.RangeMP
			if grenzersOnly(f) {
				rng = sr.GrenzerRangeMP
			}
			if d, ok := dist[t.scratch.index(f.At.Hex)]; ok && d[0] <= rng {
				report(f, true, "depot "+depots[d[1]].ID, d[0], "")
			}
		}
	}
	// Cities feed the forces still unsupplied.
	hungry := map[game.Hex][]*game.Force{}
	for _, f := range needy {
		if !done[f.ID] && !f.At.IsSea() {
			hungry[f.At.Hex] = append(hungry[f.At.Hex], f)
		}
	}
	for i := range t.m.Cities {
		c := &t.m.Cities[i]
		cs, ok := t.s.City(c.Name)
		if !ok || cs.Controller == game.Neutral || cs.Siege != game.NotBesieged {
			continue
		}
		var eaters []*game.Force
		for _, f := range hungry[c.Hex] {
			if f.Nation == cs.Controller {
				eaters = append(eaters, f)
			}
		}
		slices.SortStableFunc(eaters, func(a, b *game.Force) int {
			if a.Garrison != b.Garrison {
				if a.Garrison {
					return -1
				}
				return 1
			}
			if d := a.Figures() - b.Figures(); d != 0 {
				return d
			}
			return game.CompareForceIDs(a.ID, b.ID)
		})
		left := t.r.Taxes.Of(c.Port, c.River)
		for _, f := range eaters {
			if f.Figures() <= left {
				left -= f.Figures()
				report(f, true, "city "+c.Name, 0, "")
			}
		}
	}
	for _, f := range needy {
		if done[f.ID] {
			continue
		}
		why := fmt.Sprintf("no line of supply of %d MP or less to a depot, and no city to feed it", sr.RangeMP)
		if grenzersOnly(f) {
			why = fmt.Sprintf("no line of supply of %d MP or less to a depot, and no city to feed it", sr.GrenzerRangeMP)
		}
		if f.At.IsSea() {
			why = "no depot in its sea area or in a port or good-holding hex of it that hostile warships do not cut off"
		}
		report(f, false, "", 0, why)
	}
}

// seaSupply: "Troops at sea must have a depot in their sea area, or in a
// good-holding hex or port in their sea area, to be in supply"; "a fleet of
// hostile warships blocks supply in/out of ports and good-holding hexes
// unless you have a fleet of warships of ≥ strength in the sea area, port, or
// good-holding hex in question".
func (t *turn) seaSupply(f *game.Force, fleets map[game.Place][]*game.Force, report func(*game.Force, bool, string, int, string)) {
	sea := f.At.Sea
	warships := func(p game.Place, hostileTo game.NationID, own bool) int {
		n := 0
		for _, x := range fleets[p] {
			if (own && x.Nation == hostileTo) || (!own && t.hostile(x.Nation, hostileTo)) {
				n += x.Ships.AllWarships()
			}
		}
		return n
	}
	for _, d := range t.s.Depots {
		if d.Nation != f.Nation && !slices.Contains(d.GrantedTo, f.Nation) {
			continue
		}
		if d.At.IsSea() && d.At.Sea == sea {
			report(f, true, "depot "+d.ID, 0, "")
			return
		}
		if d.At.IsSea() || d.At.IsZero() || !slices.Contains(t.m.SeasTouching(d.At.Hex), sea) {
			continue
		}
		hostile := warships(game.AtSea(sea), f.Nation, false) + warships(d.At, f.Nation, false)
		own := warships(game.AtSea(sea), f.Nation, true) + warships(d.At, f.Nation, true)
		if hostile > 0 && own < hostile {
			continue
		}
		report(f, true, "depot "+d.ID, 0, "")
		return
	}
}
