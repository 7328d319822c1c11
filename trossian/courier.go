package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Couriers. "Players assume the role of the King … assumed to remain inside
// their capital city, and shall direct their generals via messages sent by
// couriers." A courier leaves the King's seat at tick 0 with its orders,
// rides four provinces a phase (five when the whole ride is along roads)
// toward the force it carries them to, following it if it moves, by land
// or by sea ("freely convert back and forth at any coastal town"). Each
// province held by an enemy, and each lane an enemy navy holds, that it
// enters risks a D6: on InterceptOn or less it fails to pass, and a second
// D6 gives its fate ("1: Captured! … 2-5: Killed … 6: Captured! False
// messages/plans"). On reaching the force its orders are carried out from
// that tick (carryOut), and it rides home again.

// ride is a courier's ride this phase.
type ride struct {
	speed     int
	taken     int
	path      []CourierPlace
	delivered bool
	home      bool
	returning bool
	reported  bool
}

const (
	purposePass = "courier: pass through"
	purposeFate = "courier: fate"
)

// dispatchCouriers sends the phase's couriers from the seat, in kingdom
// then sheet order, while couriers wait there.
func (t *turn) dispatchCouriers() {
	for _, n := range t.nationIDs() {
		ns, _ := t.s.Nation(n)
		seat := t.seat(n)
		for _, x := range t.couriers[n] {
			if !t.legal(n, x) {
				continue
			}
			id := t.nextCourierID(ns)
			ns.Couriers--
			c := Courier{ID: id, Nation: n, At: CourierPlace{Province: seat}, Target: x.To, Carries: x.Carries, Via: x.Via, Sent: t.s.Turn}
			t.s.Couriers = append(t.s.Couriers, c)
			t.dirty = true
			t.emit(&CourierSent{Header: t.head(secCouriers, seat, to(n), n), Courier: id, To: x.To, From: seat, Orders: len(x.Carries)})
		}
	}
	t.compact()
}

// courier returns a courier by ID.
func (t *turn) courier(id game.ForceID) *Courier {
	for i := range t.s.Couriers {
		if t.s.Couriers[i].ID == id {
			return &t.s.Couriers[i]
		}
	}
	return nil
}

func (t *turn) courierIDs() []game.ForceID {
	out := make([]game.ForceID, len(t.s.Couriers))
	for i, c := range t.s.Couriers {
		out[i] = c.ID
	}
	return out
}

// destination is where a courier rides: its force, or home.
func (t *turn) destination(c *Courier) (CourierPlace, bool) {
	if c.Returning {
		seat := t.seat(c.Nation)
		return CourierPlace{Province: seat}, seat != ""
	}
	if !t.owns(c.Nation, c.Target) {
		return CourierPlace{}, false
	}
	return t.forcePlace(c.Target), true
}

// closedLane reports a lane a courier may not enter this phase.
func (t *turn) closedLane(l string) bool {
	x, ok := t.m.Lane(l)
	return ok && x.Frozen && t.r.Frozen.CouriersToo && t.r.Frozen.IsClosed(t.phase)
}

// risky reports a place where a courier of n risks capture: a province an
// enemy holds, a lane an enemy navy holds.
func (t *turn) risky(n game.NationID, p CourierPlace) (bool, game.NationID) {
	if p.Lane != "" {
		for _, x := range t.s.Navies {
			if x.At.AtSea() && x.At.Lane == p.Lane && t.s.Hostile(n, x.Nation) {
				return true, x.Nation
			}
		}
		return false, ""
	}
	if c := t.s.Controller(p.Province); c != game.Neutral && t.s.Hostile(n, c) {
		return true, c
	}
	return false, ""
}

// courierPath is a courier's way to its destination now, through its Via
// places first.
func (t *turn) courierPath(c *Courier, dest CourierPlace) []CourierPlace {
	risky := func(p CourierPlace) bool { r, _ := t.risky(c.Nation, p); return r }
	from := c.At
	var path []CourierPlace
	if !c.Returning {
		for _, v := range c.Via {
			vp, ok := courierPlaceOf(t.m, v)
			if !ok || vp == from {
				continue
			}
			leg := courierRoute(t.m, from, vp, risky, t.closedLane)
			if leg == nil {
				break
			}
			path = append(path, leg...)
			from = vp
		}
	}
	return append(path, courierRoute(t.m, from, dest, risky, t.closedLane)...)
}

// planRides sets every courier's speed for the phase: four provinces, five
// when its whole ride this phase is along roads.
func (t *turn) planRides() {
	for _, id := range t.courierIDs() {
		c := t.courier(id)
		r := &ride{speed: t.r.Speeds.Courier, returning: c.Returning}
		t.clock.riders[id] = r
		dest, ok := t.destination(c)
		if !ok {
			continue
		}
		path := t.courierPath(c, dest)
		n := min(len(path), r.speed+t.r.Speeds.RoadBonus)
		road := n > 0 && t.r.Speeds.RoadBonus > 0 && c.At.Lane == ""
		prev := c.At.Province
		for _, p := range path[:n] {
			road = road && p.Lane == "" && t.m.Road(prev, p.Province)
			prev = p.Province
		}
		if road {
			r.speed += t.r.Speeds.RoadBonus
		}
	}
	// A courier already with its force delivers at once.
	for _, id := range t.courierIDs() {
		t.arrive(t.courier(id), 0)
	}
}

// courierTick moves every courier whose step falls on this tick.
func (t *turn) courierTick(tick int) {
	for _, id := range t.courierIDs() {
		c := t.courier(id)
		r := t.clock.riders[id]
		if c == nil || r == nil {
			continue
		}
		if _, ok := slotAt(tick, r.speed); !ok || r.taken >= r.speed {
			continue
		}
		dest, ok := t.destination(c)
		if !ok {
			t.targetGone(c, tick)
			continue
		}
		path := t.courierPath(c, dest)
		if len(path) == 0 {
			t.arrive(c, tick)
			continue
		}
		next := path[0]
		r.taken++
		c.At = next
		r.path = append(r.path, next)
		if risk, captor := t.risky(c.Nation, next); risk && t.intercepted(c, captor, tick) {
			continue
		}
		t.arrive(c, tick)
	}
}

// arrive delivers a courier's orders, or brings it home, when it is where
// it rides to.
func (t *turn) arrive(c *Courier, tick int) {
	if c == nil {
		return
	}
	dest, ok := t.destination(c)
	if !ok {
		if !c.Returning {
			t.targetGone(c, tick)
		}
		return
	}
	if c.At != dest {
		return
	}
	r := t.clock.riders[c.ID]
	if c.Returning {
		ns, _ := t.s.Nation(c.Nation)
		ns.Couriers++
		if r != nil {
			r.home = true
			t.reportRide(c, r)
		}
		t.s.Couriers = slices.DeleteFunc(t.s.Couriers, func(x Courier) bool { return x.ID == c.ID })
		return
	}
	var kinds []string
	carried := c.Carries
	for _, o := range carried {
		kinds = append(kinds, o.Kind())
	}
	t.emit(&Delivered{Header: t.head(secCouriers, dest.String(), to(c.Nation), c.Nation), Courier: c.ID, To: c.Target, At: dest, Tick: tick, Orders: kinds})
	if r != nil {
		r.delivered = true
	}
	id, n := c.ID, c.Nation
	c.Carries, c.Via = nil, nil
	if t.r.Couriers.Returns {
		c.Returning = true
	} else {
		ns, _ := t.s.Nation(n)
		ns.Couriers++
		if r != nil {
			t.reportRide(c, r)
		}
		t.s.Couriers = slices.DeleteFunc(t.s.Couriers, func(x Courier) bool { return x.ID == id })
	}
	for _, o := range carried {
		f := SubjectOf(o)
		if fp := t.forcePlace(f); !t.owns(n, f) || fp != dest {
			k, _ := KindOf(o.Kind())
			t.ignore(n, o, k.Section, "%s was not with the courier when it arrived", f)
			continue
		}
		t.carryOut(n, o, tick)
	}
}

// targetGone turns a courier whose force is no more for home; its orders
// are reported not carried out.
func (t *turn) targetGone(c *Courier, tick int) {
	for _, o := range c.Carries {
		k, _ := KindOf(o.Kind())
		t.ignore(c.Nation, o, k.Section, "courier %s found no %s to give it to", c.ID, c.Target)
	}
	c.Carries, c.Via, c.Returning = nil, nil, true
	if r := t.clock.riders[c.ID]; r != nil {
		r.returning = true
	}
}

// intercepted throws the courier's dice for entering a risky place; it
// reports whether the courier was lost.
func (t *turn) intercepted(c *Courier, captor game.NationID, tick int) bool {
	die := t.dice.Roll(purposePass, 6, string(c.ID))
	if die > t.r.Couriers.InterceptOn {
		return false
	}
	fate := t.dice.Roll(purposeFate, 6, string(c.ID))
	e := &Intercepted{Courier: c.ID, Nation: c.Nation, At: c.At, Tick: tick, Die: die, FateDie: fate, Carried: c.Carries}
	switch {
	case fate <= t.r.Couriers.CapturedOn:
		e.Fate, e.Captor = "captured", captor
		e.Header = t.head(secCouriers, c.At.String(), to(c.Nation, captor), c.Nation, captor)
	case fate >= t.r.Couriers.FalseFrom:
		// The referee rules what the captor is given ("as judged by the
		// umpire"); the captor learns nothing from the engine.
		e.Fate, e.Captor = "false-plans", captor
		e.Header = t.head(secCouriers, c.At.String(), to(c.Nation), c.Nation, captor)
	default:
		e.Fate = "killed"
		e.Header = t.head(secCouriers, c.At.String(), to(c.Nation), c.Nation)
	}
	t.emit(e)
	if r := t.clock.riders[c.ID]; r != nil {
		t.reportRide(c, r)
		delete(t.clock.riders, c.ID)
	}
	t.s.Couriers = slices.DeleteFunc(t.s.Couriers, func(x Courier) bool { return x.ID == c.ID })
	return true
}

// reportRide emits a courier's ride once.
func (t *turn) reportRide(c *Courier, r *ride) {
	if r == nil || r.reported {
		return
	}
	t.emit(&CourierRode{Header: t.head(secCouriers, c.At.String(), to(c.Nation), c.Nation), Courier: c.ID, Path: r.path,
		Delivered: r.delivered, Returning: c.Returning, Home: r.home})
	r.reported = true
}

// reportRides emits the rides of the couriers still out.
func (t *turn) reportRides() {
	for _, id := range t.courierIDs() {
		c := t.courier(id)
		if r := t.clock.riders[id]; r != nil && (len(r.path) > 0 || r.delivered) {
			t.reportRide(c, r)
		}
	}
}
