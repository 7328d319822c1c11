package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Sea movement (rules "Sea Movement"): fleets sail from place to place —
// sea areas, ports and good-holding hexes — on the same clock as the armies,
// at their slowest ship's MP (warships 6, transports 4, damaged ships 1
// less). A fleet moves only with an admiral aboard, or one at the start of
// the turn in its sea area or in an unmasked port or good-holding hex
// touching it. Land forces embark at no cost in the port or good-holding hex
// where the fleet lies (at the start of the turn, or when their march ends
// there while the fleet is still in the hex) and debark when the fleet's
// voyage ends: in its port or good-holding hex, or from a sea area onto a
// port or good-holding hex touching it. A landing on a good-holding hex
// held by the enemy needs 3:1 over the defenders' infantry, cavalry and
// gunners, each warship of the landing side counting as 50 infantry.

// commandedSeas returns, for each nation, the sea areas its admirals command
// at the start of the turn.
func (t *turn) commandedSeas() map[game.NationID][]game.SeaID {
	out := map[game.NationID][]game.SeaID{}
	for _, f := range t.live() {
		if !f.HasRole(game.Admiral) {
			continue
		}
		var seas []game.SeaID
		switch {
		case f.At.IsSea():
			seas = []game.SeaID{f.At.Sea}
		case t.m.IsGoodHolding(f.At.Hex):
			seas = t.m.SeasTouching(f.At.Hex)
		default:
			if c, ok := t.m.CityAt(f.At.Hex); ok && c.Port && t.cityState(c.Name).Siege == game.NotBesieged {
				seas = t.m.SeasTouching(f.At.Hex)
			}
		}
		for _, s := range seas {
			if !slices.Contains(out[f.Nation], s) {
				out[f.Nation] = append(out[f.Nation], s)
			}
		}
	}
	return out
}

// fleetSeas are the sea areas a fleet is in: its area, or the areas its
// port or good-holding hex touches.
func (t *turn) fleetSeas(p game.Place) []game.SeaID {
	if p.IsSea() {
		return []game.SeaID{p.Sea}
	}
	return t.m.SeasTouching(p.Hex)
}

// hostilePort reports a port whose city a hostile nation holds.
func (t *turn) hostilePort(p game.Place, n game.NationID) bool {
	if p.IsSea() {
		return false
	}
	c, ok := t.m.CityAt(p.Hex)
	return ok && t.hostile(t.cityState(c.Name).Controller, n)
}

func (mv *movement) orderSails() {
	t := mv.t
	rule := t.cite("Sea Movement", "")
	for _, no := range t.ordersFor("movement", "sail") {
		o := no.o.(Sail)
		f := t.ownForce(no.nation, o, o.Fleet, rule)
		if f == nil || !t.legal(no.nation, o, rule) {
			continue
		}
		u := mv.units[f.ID]
		switch {
		case !f.IsFleet() || u == nil:
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is not a fleet", f.ID))
			continue
		case u.ordered:
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s already has sailing orders this turn", f.ID))
			continue
		case len(o.Path) == 0:
			t.ignore(no.nation, o, f.ID, rule, "no voyage given")
			continue
		}
		if !f.HasRole(game.Admiral) && !slices.ContainsFunc(t.fleetSeas(f.At), func(s game.SeaID) bool { return slices.Contains(mv.commanders[f.Nation], s) }) {
			t.ignore(no.nation, o, f.ID, rule, "a ship must have an admiral in its sea area, or in an unmasked port or good-holding hex of it, at the start of the turn or with the fleet, in order to move")
			continue
		}
		prev := f.At
		var route []game.Place
		var costs []int
		bad := ""
		for _, p := range o.Path {
			c, ok := SeaStepCost(t.m, t.r, prev, p)
			if !ok {
				bad = fmt.Sprintf("cannot sail from %s to %s", prev, p)
				break
			}
			route = append(route, p)
			costs = append(costs, c)
			prev = p
		}
		if bad != "" {
			t.ignore(no.nation, o, f.ID, rule, "the voyage is broken: "+bad)
			continue
		}
		u.ordered = true
		for i, p := range route {
			if t.hostilePort(p, f.Nation) {
				u.cut, u.cutReason = p, fmt.Sprintf("%s is a port held by the enemy", p)
				route, costs = route[:i], costs[:i]
				break
			}
		}
		u.route, u.costs = route, costs
		u.moving = len(route) > 0
	}
}

// cargo returns the cargo points aboard a fleet and its capacity.
func (t *turn) cargo(fleet *game.Force) (used, capacity int) {
	c := t.r.Cargo
	for _, f := range t.aboard(fleet) {
		used += c.PointsOf(f)
	}
	for _, d := range t.s.Depots {
		if d.Aboard == fleet.ID {
			used += c.Depot
		}
	}
	return used, c.Capacity * fleet.Ships.AllTransports()
}

// passage is a unit's Passage this turn: where it stands at the start and
// the last place of its route it can pay for with its allowance.
func (u *unit) passage() Passage {
	p := Passage{Start: u.start, End: u.start}
	spent := 0
	for i, c := range u.costs {
		if spent+c > u.ma {
			break
		}
		spent += c
		p.End = u.route[i]
	}
	return p
}

// embarkAtStart carries out the embark orders of forces already with their
// fleet; the others wait for the two to meet (EmbarkMeeting): the force's
// arrival at its fleet, or the fleet's at the force.
func (mv *movement) embarkAtStart() {
	t := mv.t
	rule := t.cite("Sea Movement", "Transports")
	for _, no := range t.ordersFor("movement", "embark") {
		o := no.o.(Embark)
		f := t.ownForce(no.nation, o, o.Force, rule)
		if f == nil {
			continue
		}
		fl := t.ownForce(no.nation, o, o.Fleet, rule)
		if fl == nil || !t.legal(no.nation, o, rule) {
			continue
		}
		switch {
		case f.IsFleet() || f.Aboard != "":
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is not a land force ashore", f.ID))
			continue
		case !fl.IsFleet() || fl.Ships.AllTransports() == 0:
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s has no transports", fl.ID))
			continue
		}
		u, fu := mv.units[f.ID], mv.units[fl.ID]
		if u == nil || fu == nil {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is not in the port or good-holding hex of %s", f.ID, fl.ID))
			continue
		}
		_, atStart, r := EmbarkMeeting(t.m, f.ID, fl.ID, u.passage(), fu.passage())
		switch {
		case r != nil:
			t.ignore(no.nation, o, f.ID, rule, r.Reason)
		case atStart:
			mv.embark(no, u, fl)
		default:
			mv.embarkLater[f.ID] = no
		}
	}
}

func (mv *movement) embark(no nationOrder, u *unit, fl *game.Force) {
	t := mv.t
	o := no.o.(Embark)
	rule := t.cite("Sea Movement", "Transports")
	f := u.f
	used, capa := t.cargo(fl)
	need := t.r.Cargo.PointsOf(f)
	if used+need > capa {
		t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s needs %d cargo points; %s has %d of %d free", f.ID, need, fl.ID, capa-used, capa))
		return
	}
	if u.moving && u.next < len(u.route) {
		// Embarked with its fleet at the start of the turn, it does not
		// march as well.
		t.emit(&MoveStopped{Force: f.ID, Next: u.route[u.next].Hex, Tick: mv.tick, Reason: fmt.Sprintf("embarked on %s", fl.ID)},
			rule, u.at, to(f.Nation), f.Nation)
	}
	mv.land.put(u.at.Hex, removeUnit(mv.land.at(u.at.Hex), u))
	u.dead = true
	u.moving = false
	f.Aboard = fl.ID
	f.Garrison = false
	t.setAt(f, fl.At)
	t.emit(&Embarked{Force: f.ID, Fleet: fl.ID, Cargo: used + need, Capacity: capa}, rule, f.At, to(f.Nation), f.Nation)
}

// embarkOnArrival embarks a force whose march ended where its fleet has
// come to rest; while the fleet is still under sail the force waits for it
// (embarkWaiting).
func (mv *movement) embarkOnArrival(u *unit) {
	no, ok := mv.embarkLater[u.id]
	if !ok {
		return
	}
	t := mv.t
	o := no.o.(Embark)
	fl := t.force(o.Fleet)
	fu := mv.units[o.Fleet]
	if fl != nil && fu != nil && !fu.dead && fu.moving && u.stopped == "" {
		return // the fleet is still on its way here
	}
	delete(mv.embarkLater, u.id)
	if fl == nil || fu == nil || fu.dead || fu.at != u.at || u.stopped != "" {
		t.ignore(no.nation, o, u.id, t.cite("Sea Movement", "Transports"), fmt.Sprintf("%s did not meet %s in its port or good-holding hex", u.id, o.Fleet))
		return
	}
	mv.embark(no, u, fl)
}

// embarkWaiting embarks the forces waiting in the place where fleet fu has
// come to rest (EmbarkMeeting: the fleet sailed to them), in force order.
func (mv *movement) embarkWaiting(fu *unit) {
	var ids []game.ForceID
	for id, no := range mv.embarkLater {
		if no.o.(Embark).Fleet == fu.id {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, game.CompareForceIDs)
	for _, id := range ids {
		u := mv.units[id]
		if u == nil || u.dead || u.moving || u.at != fu.at || mv.t.force(fu.id) == nil {
			continue // not there yet, or gone: its own arrival or the end of movement settles it
		}
		no := mv.embarkLater[id]
		delete(mv.embarkLater, id)
		mv.embark(no, u, fu.f)
	}
}

// unfinishedSeaOrders reports, at the end of movement, the embark orders of
// forces that never reached their fleet (stopped short, slowed, held at the
// start) and the debark orders of fleets that never came to rest.
func (mv *movement) unfinishedSeaOrders() {
	t := mv.t
	rule := t.cite("Sea Movement", "Transports")
	var ids []game.ForceID
	for id := range mv.embarkLater {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, game.CompareForceIDs)
	for _, id := range ids {
		no := mv.embarkLater[id]
		o := no.o.(Embark)
		t.ignore(no.nation, o, id, rule, fmt.Sprintf("%s did not reach %s's port or good-holding hex this turn", id, o.Fleet))
	}
	mv.embarkLater = map[game.ForceID]nationOrder{}
	ids = ids[:0]
	for id := range mv.debarks {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, game.CompareForceIDs)
	for _, id := range ids {
		for _, no := range mv.debarks[id] {
			t.ignore(no.nation, no.o, no.o.(Debark).Force, t.cite("Sea Movement", "Coastal Landings"), fmt.Sprintf("%s did not come to rest this turn", id))
		}
	}
	mv.debarks = map[game.ForceID][]nationOrder{}
}

// debarkIdleFleets files the debark orders by fleet and carries out those of
// fleets that do not sail this turn.
func (mv *movement) debarkIdleFleets() {
	t := mv.t
	rule := t.cite("Sea Movement", "Coastal Landings")
	for _, no := range t.ordersFor("movement", "debark") {
		o := no.o.(Debark)
		f := t.ownForce(no.nation, o, o.Force, rule)
		if f == nil || !t.legal(no.nation, o, rule) {
			continue
		}
		if f.Aboard == "" || t.force(f.Aboard) == nil {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is not aboard a fleet", f.ID))
			continue
		}
		if fl := t.force(f.Aboard); fl.Nation != f.Nation {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s are prisoners aboard %s's fleet %s", f.ID, fl.Nation, fl.ID))
			continue
		}
		mv.debarks[f.Aboard] = append(mv.debarks[f.Aboard], no)
	}
	var fleets []game.ForceID
	for id := range mv.debarks {
		fleets = append(fleets, id)
	}
	slices.SortFunc(fleets, game.CompareForceIDs)
	for _, id := range fleets {
		if u := mv.units[id]; u != nil && !u.moving {
			mv.fleetStopped(u)
		}
	}
}

// fleetStopped carries out the debark orders of a fleet whose voyage ended.
func (mv *movement) fleetStopped(u *unit) {
	mv.embarkWaiting(u)
	orders := mv.debarks[u.id]
	if len(orders) == 0 {
		return
	}
	delete(mv.debarks, u.id)
	t := mv.t
	rule := t.cite("Sea Movement", "Coastal Landings")
	for _, no := range orders {
		o := no.o.(Debark)
		f := t.force(o.Force)
		if f == nil {
			continue
		}
		if f.Aboard != u.id {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is no longer aboard %s", f.ID, u.id))
			continue
		}
		if t.fi(u.id).engaged {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is in a sea battle", u.id))
			continue
		}
		target := o.Hex
		if !u.at.IsSea() {
			if !target.IsZero() && target != u.at.Hex {
				t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s lies at %s, not %s", u.id, u.at, target))
				continue
			}
			target = u.at.Hex
		} else if target.IsZero() || !slices.Contains(t.m.SeasTouching(target), u.at.Sea) {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is at sea in %s: name a port or good-holding hex of it to land on", u.id, u.at.Sea))
			continue
		}
		c, isCity := t.m.CityAt(target)
		port := isCity && c.Port
		if !Anchorage(t.m, target) {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is neither a port nor a good-holding hex", target))
			continue
		}
		if u.at.IsSea() && !mv.enterToLand(u, target, port, no, o, f) {
			continue
		}
		defenders := 0
		var defNations []game.NationID
		for _, x := range mv.land.at(target) {
			if !x.dead && t.hostile(x.nation, f.Nation) {
				defenders += x.f.Figures()
				defNations = append(defNations, x.nation)
			}
		}
		if port && (defenders > 0 || t.hostilePort(game.AtHex(target), f.Nation)) {
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("the enemy holds the port %s", target))
			continue
		}
		if defenders > 0 {
			warships := u.f.Ships.AllWarships()
			for _, x := range mv.sea[game.AtHex(target)] {
				if !x.dead && x.nation == f.Nation && x != u {
					warships += x.f.Ships.AllWarships()
				}
			}
			landing, holds := CoastalLandingHolds(t.r, f.Figures(), warships, defenders)
			if !holds {
				t.emit(&LandingRefused{Nation: f.Nation, Force: f.ID, Fleet: u.id, Hex: target, Landing: landing, Defenders: defenders, Odds: t.r.SeaMovement.CoastalLandingOdds},
					rule, game.AtHex(target), to(append(defNations, f.Nation)...), append(defNations, f.Nation)...)
				continue
			}
		}
		f.Aboard = ""
		t.setAt(f, game.AtHex(target))
		lu := mv.addUnit(f)
		lu.from = game.Hex{}
		lu.lastTick = mv.tick
		t.fi(f.ID).moved = true
		t.emit(&Debarked{Force: f.ID, Fleet: u.id, Hex: target}, rule, game.AtHex(target), to(f.Nation), f.Nation)
		if mv.landHostiles(target, f.Nation) {
			// A landing on the enemy is an attack (docs/rules-notes.md
			// §Landings): the force's stance becomes attack, so that the
			// contact is an overrun or a battle, never a standoff.
			f.Stance = game.Attack
			mv.landContact(target)
			mv.landingBattle(target, lu)
		}
		if !lu.dead {
			mv.neighbours(lu)
		}
	}
}

// seaContact: hostile fleets in the same sea area (or good-holding hex) at
// the same time. "They may have a battle if either side desires it … A fleet
// in a good-holding hex must fight, but ships in ports are immune to attack
// … Fleets with only transports do not fight each other." A battle stops
// both fleets; a SeaEngagementPending follows in the sea-battles step.
func (mv *movement) seaContact(p game.Place) {
	t := mv.t
	if !p.IsSea() {
		if c, ok := t.m.CityAt(p.Hex); ok && c.Port {
			return
		}
	}
	var nations []game.NationID
	for _, u := range mv.sea[p] {
		if !u.dead && !slices.Contains(nations, u.nation) {
			nations = append(nations, u.nation)
		}
	}
	slices.Sort(nations)
	rule := t.cite("Sea Battles", "")
	for i := range nations {
		for j := i + 1; j < len(nations); j++ {
			a, b := nations[i], nations[j]
			if !t.hostile(a, b) {
				continue
			}
			var all []*unit
			war, seek := 0, !p.IsSea()
			for _, u := range mv.sea[p] {
				if !u.dead && (u.nation == a || u.nation == b) {
					all = append(all, u)
					war += u.f.Ships.AllWarships()
					seek = seek || !u.f.Standing.AvoidBattle
				}
			}
			fresh := false
			for _, x := range all {
				for _, y := range all {
					k := [2]game.ForceID{x.id, y.id}
					if x.nation == a && y.nation == b && !mv.seaMet[k] {
						mv.seaMet[k] = true
						fresh = true
					}
				}
			}
			battle := war > 0 && seek
			if !battle {
				if fresh {
					t.emit(&SeaContact{Fleets: idsOf(all), Tick: mv.tick}, rule, p, to(a, b), a, b)
				}
				continue
			}
			var e *seaEngagement
			for _, x := range t.seaEngs {
				if x.place == p && x.a == a && x.b == b {
					e = x
				}
			}
			if e == nil {
				e = &seaEngagement{place: p, a: a, b: b, tick: mv.tick}
				t.seaEngs = append(t.seaEngs, e)
			}
			for _, u := range all {
				if !slices.Contains(e.members, u.id) {
					e.members = append(e.members, u.id)
				}
				t.fi(u.id).engaged = true
				mv.halt(u, stopSeaBattle)
			}
			if fresh {
				t.emit(&SeaContact{Fleets: idsOf(all), Tick: mv.tick, Battle: true}, rule, p, to(a, b), a, b)
			}
		}
	}
}

// enterToLand: "Good holding: Coastal hexes … where you may embark or
// debark troops from transports", and it "costs 1 MP to enter or leave a
// port, and 2 MP to enter or leave a good-holding hex". A fleet whose voyage
// ended in the sea area with troops to land sails into the hex first, if it
// has the MP left; there it meets any enemy fleet lying in the hex (which
// must fight). It reports whether the fleet is in the hex, free to land.
func (mv *movement) enterToLand(u *unit, target game.Hex, port bool, no nationOrder, o Debark, f *game.Force) bool {
	t := mv.t
	rule := t.cite("Sea Movement", "Coastal Landings")
	cost := t.r.SeaMovement.GoodHolding
	if port {
		cost = t.r.SeaMovement.Port
	}
	if u.spent+cost > u.ma {
		t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s has %d MP left and entering %s costs %d: troops land only from a fleet in the port or good-holding hex", u.id, max(u.ma-u.spent, 0), target, cost))
		return false
	}
	p := game.AtHex(target)
	mv.place(u, p)
	u.spent += cost
	u.entered = append(u.entered, p)
	u.ordered = true
	mv.seaContact(p)
	if t.fi(u.id).engaged {
		t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is in a sea battle at %s", u.id, target))
		return false
	}
	return true
}

// landingBattle: "If the landing is successful then we will figure the
// battle situation normally": a landing force still facing enemies in the
// hex after the contact (no overrun, nobody retreated) fights them, whatever
// the stances: an engagement for the battle step.
func (mv *movement) landingBattle(h game.Hex, lu *unit) {
	t := mv.t
	if lu.dead || t.fi(lu.id).engaged {
		return
	}
	var nations []game.NationID
	for _, x := range mv.land.at(h) {
		if !x.dead && !slices.Contains(nations, x.nation) {
			nations = append(nations, x.nation)
		}
	}
	slices.Sort(nations)
	blocs := t.blocs(nations)
	mine := slices.IndexFunc(blocs, func(b []game.NationID) bool { return slices.Contains(b, lu.nation) })
	for k, other := range blocs {
		if k == mine || mine < 0 || !t.blocsHostile(blocs[mine], other) {
			continue
		}
		a, b := blocs[mine], other
		if k < mine {
			a, b = other, blocs[mine]
		}
		sa, sb := mv.side(h, a), mv.side(h, b)
		if len(sa) == 0 || len(sb) == 0 {
			continue
		}
		e := t.engagementAt(h, a, b)
		if e == nil {
			e = &engagement{hex: h, a: a, b: b, tick: mv.tick}
			t.engs = append(t.engs, e)
		}
		var joined []game.ForceID
		for _, u := range append(slices.Clone(sa), sb...) {
			if !slices.ContainsFunc(e.members, func(m engMember) bool { return m.id == u.id }) {
				e.members = append(e.members, engMember{id: u.id, joined: mv.tick, from: u.from})
				joined = append(joined, u.id)
			}
			mv.halt(u, stopBattle)
			t.fi(u.id).engaged = true
		}
		if len(joined) > 0 {
			all := append(slices.Clone(a), b...)
			t.emit(&Contact{Forces: joined, Tick: mv.tick, Outcome: "battle"}, t.cite("Sea Movement", "Coastal Landings"), game.AtHex(h), to(all...), all...)
		}
	}
}
