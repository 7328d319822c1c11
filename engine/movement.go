package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Movement (rules "Land Movement", "Movement Table", "Sea Movement") is
// simultaneous and prorated in time. Every land force and fleet spends its MP
// at its own rate over the turn's TicksPerTurn ticks: a force that has spent
// s of its MA MP is ceil(s·120/MA) ticks into the turn, so a foot force
// entering clear hexes (2 MP of 6) arrives at ticks 40, 80, 120 and a mounted
// one (2 of 8) at 30, 60, 90, 120. A force stays in a hex until the tick it
// enters the next one; a step it cannot pay for by tick 120 is not taken.
//
// The clock advances from one arrival tick to the next. At each tick, in this
// order: forces trying to get away from chasing cavalry may be slowed;
// hostile forces swapping hexes at the same tick meet at the border (see
// meetAtBorder); all movers leave their hexes, then all enter the next; every
// hex now holding hostile forces is a contact (contact.go); every force that
// arrived scouts, and is scouted by, the hostile forces next to it, and a
// force whose standing order says so retreats before an attacking enemy
// next to it. A force that entered a hex where an enemy stood found it there:
// forces marching at each other therefore meet in the hex the earlier one
// reached, and forces crossing paths meet wherever they overlap in time.
// docs/engine.md draws the cases.
type movement struct {
	t     *turn
	units map[game.ForceID]*unit
	list  []*unit // sorted by force ID
	land  *hexUnits
	sea   map[game.Place][]*unit
	tick  int
	// slowed records chaser→target pairs already resolved this turn.
	slowed map[[2]game.ForceID]bool
	// embarkLater are embark orders carried out when the land force arrives.
	embarkLater map[game.ForceID]nationOrder
	// debarks are debark orders by fleet, carried out when it stops.
	debarks    map[game.ForceID][]nationOrder
	seaMet     map[[2]game.ForceID]bool
	standoff   map[[2]game.ForceID]bool
	commanders map[game.NationID][]game.SeaID
	// starting is set while the contacts standing from the last turn are
	// resolved, before the clock starts.
	starting bool
}

// unit is a land force or a fleet during movement. Land forces aboard a
// fleet are not units: they ride with it.
type unit struct {
	f      *game.Force
	id     game.ForceID
	nation game.NationID
	fleet  bool
	class  ruleset.MoveClass
	ma     int
	at     game.Place
	start  game.Place
	// route are the places still to enter, from next on; costs their MP.
	route []game.Place
	costs []int
	next  int
	spent int
	// moving: the unit still has places to enter this turn.
	moving bool
	// ordered: it had a move or sail order, or was moved by the engine
	// (retreat, pursuit): ForceMoved / SeaMoved report it.
	ordered  bool
	stopped  string
	lastTick int
	entered  []game.Place
	// from is the hex it last came from (the approach vector of a battle).
	from game.Hex
	// filteredIn is the hex Grenzers infiltrated (no contact there).
	filteredIn game.Hex
	// cut and cutReason: the order's route was cut short at the start of
	// the turn before place cut (impassable, hostile port).
	cut       game.Place
	cutReason string
	retreats  int
	dead      bool
	// notBefore is the earliest tick of its next arrival: a force given a
	// new route mid-turn (a pursuit) cannot arrive before the present.
	notBefore int
}

// Stop reasons reported in ForceMoved / MoveStopped.
const (
	stopAllowance = "not enough movement points left this turn"
	stopBattle    = "battle"
	stopStandoff  = "standoff: neither side attacks, neither may move past the other"
	stopBorder    = "met the enemy at the border"
	stopOverran   = "overran the enemy"
	stopSlowed    = "slowed by enemy cavalry"
	stopRetreated = "retreated before battle"
	stopSeaBattle = "sea battle"
	stopLanded    = "landed"
)

// maxRetreats bounds the retreats of one force in one turn. The rules let a
// force "keep retreating one hex at a time"; each retreat is forced by an
// enemy's arrival, so the bound is never met in play, only in a loop the
// engine must not run forever.
const maxRetreats = 24

func (t *turn) stepMovement() {
	mv := &movement{t: t, units: map[game.ForceID]*unit{}, land: newHexUnits(t.m), sea: map[game.Place][]*unit{},
		slowed: map[[2]game.ForceID]bool{}, embarkLater: map[game.ForceID]nationOrder{}, debarks: map[game.ForceID][]nationOrder{},
		seaMet: map[[2]game.ForceID]bool{}, standoff: map[[2]game.ForceID]bool{}}
	t.mv = mv
	defer func() { t.mv = nil }()
	for _, f := range t.live() {
		if f.Aboard != "" {
			continue
		}
		mv.addUnit(f)
	}
	mv.commanders = t.commandedSeas()
	mv.orderMoves()
	mv.orderSails()
	mv.embarkAtStart()
	mv.debarkIdleFleets()
	// Forces already together at the start of the turn (a standoff or a
	// battle of the last turn) are in contact from tick 0; a standoff of the
	// last turn does not hold them again (contactPair).
	mv.starting = true
	for _, h := range mv.hexesWithHostiles() {
		mv.landContact(h)
	}
	mv.starting = false
	mv.run()
	mv.unfinishedSeaOrders()
	mv.finish()
}

func (mv *movement) addUnit(f *game.Force) *unit {
	u := &unit{f: f, id: f.ID, nation: f.Nation, at: f.At, start: f.At, fleet: f.IsFleet()}
	if u.fleet {
		u.ma = mv.t.r.SeaMovement.FleetMP(f.Ships)
		mv.sea[u.at] = insertUnit(mv.sea[u.at], u)
	} else {
		u.class = ruleset.ClassOf(f)
		u.ma = mv.t.r.Movement.Rows[u.class].MP
		mv.land.put(u.at.Hex, insertUnit(mv.land.at(u.at.Hex), u))
	}
	mv.units[f.ID] = u
	i, _ := slices.BinarySearchFunc(mv.list, f.ID, func(x *unit, id game.ForceID) int { return game.CompareForceIDs(x.id, id) })
	mv.list = slices.Insert(mv.list, i, u)
	return u
}

func insertUnit(list []*unit, u *unit) []*unit {
	i, _ := slices.BinarySearchFunc(list, u.id, func(x *unit, id game.ForceID) int { return game.CompareForceIDs(x.id, id) })
	return slices.Insert(list, i, u)
}

// hexUnits holds the moving units on land by hex, in canonical order: an
// array by hex says which list a hex has, as the contact checks ask it for
// the hexes round every unit at every tick, most of them empty, and a hash
// map of a big map's hexes misses the processor's caches. Hexes off the
// map (never, in a valid game) go to a map.
type hexUnits struct {
	m     *hexmap.Map
	slot  []int32 // per hex, row-major: 1 + the index of its list; 0: none yet
	lists [][]*unit
	off   map[game.Hex][]*unit
}

func newHexUnits(m *hexmap.Map) *hexUnits {
	return &hexUnits{m: m, slot: make([]int32, m.Cols*m.Rows)}
}

// at returns the units in hex x (the list is the holder's own).
func (h *hexUnits) at(x game.Hex) []*unit {
	if !h.m.InBounds(x) {
		return h.off[x]
	}
	if s := h.slot[(x.Row-1)*h.m.Cols+x.Col-1]; s > 0 {
		return h.lists[s-1]
	}
	return nil
}

// put sets the units in hex x.
func (h *hexUnits) put(x game.Hex, list []*unit) {
	if !h.m.InBounds(x) {
		if h.off == nil {
			h.off = map[game.Hex][]*unit{}
		}
		h.off[x] = list
		return
	}
	i := (x.Row-1)*h.m.Cols + x.Col - 1
	if s := h.slot[i]; s > 0 {
		h.lists[s-1] = list
		return
	}
	h.lists = append(h.lists, list)
	h.slot[i] = int32(len(h.lists))
}

func removeUnit(list []*unit, u *unit) []*unit {
	return slices.DeleteFunc(list, func(x *unit) bool { return x == u })
}

// drop takes a removed force's unit off the board.
func (mv *movement) drop(id game.ForceID) {
	u := mv.units[id]
	if u == nil || u.dead {
		return
	}
	u.dead = true
	u.moving = false
	if u.fleet {
		mv.sea[u.at] = removeUnit(mv.sea[u.at], u)
	} else {
		mv.land.put(u.at.Hex, removeUnit(mv.land.at(u.at.Hex), u))
	}
}

// place moves a unit to a new place on the board (its force follows at the
// end of movement; forces aboard a fleet follow at once).
func (mv *movement) place(u *unit, p game.Place) {
	if u.fleet {
		mv.sea[u.at] = removeUnit(mv.sea[u.at], u)
		mv.sea[p] = insertUnit(mv.sea[p], u)
	} else {
		mv.land.put(u.at.Hex, removeUnit(mv.land.at(u.at.Hex), u))
		mv.land.put(p.Hex, insertUnit(mv.land.at(p.Hex), u))
	}
	if !u.at.IsSea() {
		u.from = u.at.Hex
	}
	u.at = p
	if u.fleet {
		for _, f := range mv.t.aboard(u.f) {
			mv.t.setAt(f, p)
		}
	}
	mv.t.setAt(u.f, p)
}

// orderMoves turns Move orders into routes.
func (mv *movement) orderMoves() {
	t := mv.t
	rule := t.cite("Land Movement", "")
	for _, no := range t.ordersFor("movement", "move") {
		o := no.o.(Move)
		f := t.ownForce(no.nation, o, o.Force, rule)
		if f == nil || !t.legal(no.nation, o, rule) {
			continue
		}
		u := mv.units[f.ID]
		switch {
		case f.IsFleet():
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is a fleet: fleets sail", f.ID))
			continue
		case f.Aboard != "" || u == nil:
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s is aboard %s: debark it first", f.ID, f.Aboard))
			continue
		case u.ordered:
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s already has a move order this turn", f.ID))
			continue
		case !f.HasRole(game.General):
			t.ignore(no.nation, o, f.ID, rule, "a land force must have a general with it in order to move")
			continue
		}
		path := o.Path
		if len(path) == 0 {
			if o.Dest.IsZero() || o.Dest == u.at.Hex {
				t.ignore(no.nation, o, f.ID, rule, "no path and no destination other than where the force is")
				continue
			}
			p, _, ok := t.scratch.route(u.class, u.at.Hex, o.Dest)
			if !ok {
				t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("no legal route from %s to %s for %s", u.at.Hex, o.Dest, u.class))
				continue
			}
			path = p
		}
		prev := u.at.Hex
		bad := ""
		for _, h := range path {
			if !t.m.InBounds(h) || !hexmap.Adjacent(prev, h) {
				bad = fmt.Sprintf("%s is not next to %s", h, prev)
				break
			}
			prev = h
		}
		if bad != "" {
			t.ignore(no.nation, o, f.ID, rule, "the path is broken: "+bad)
			continue
		}
		u.ordered = true
		prev = u.at.Hex
		for _, h := range path {
			c, ok := StepCost(t.m, t.r, u.class, prev, h, false)
			if !ok {
				u.cut, u.cutReason = game.AtHex(h), mv.impassable(u.class, prev, h)
				break
			}
			u.route = append(u.route, game.AtHex(h))
			u.costs = append(u.costs, c)
			prev = h
		}
		u.moving = len(u.route) > 0
		if !u.moving && u.cutReason != "" {
			t.emit(&MoveStopped{Force: f.ID, Next: u.cut.Hex, Reason: u.cutReason}, t.cite("Land Movement", "Movement Table"), u.at, to(u.nation), u.nation)
		}
	}
}

// impassable explains why a step is forbidden.
func (mv *movement) impassable(c ruleset.MoveClass, a, b game.Hex) string {
	m := mv.t.m
	switch {
	case !m.IsLand(b):
		return fmt.Sprintf("%s is not land", b)
	case m.TerrainAt(b).MoveClass() == game.Mountain:
		return fmt.Sprintf("%s is mountains: no force may enter", b)
	case m.River(a, b):
		return fmt.Sprintf("%s cannot cross the river into %s", c, b)
	}
	return fmt.Sprintf("%s cannot enter %s", c, b)
}

// nextTick returns the tick a moving unit enters its next place, or -1.
func (u *unit) nextTick() int {
	if !u.moving || u.dead || u.next >= len(u.route) || u.ma <= 0 {
		return -1
	}
	return max(ceilDiv((u.spent+u.costs[u.next])*TicksPerTurn, u.ma), u.notBefore)
}

// run advances the clock from arrival to arrival.
func (mv *movement) run() {
	for {
		best := -1
		var spent []*unit
		for _, u := range mv.list {
			if !u.moving || u.dead {
				continue
			}
			tk := u.nextTick()
			if tk < 0 || tk > TicksPerTurn {
				spent = append(spent, u)
				continue
			}
			if best < 0 || tk < best {
				best = tk
			}
		}
		// Halted after the scan: a fleet that halts lands its troops, and
		// a landing adds a unit to mv.list, which must not change under
		// the range above.
		for _, u := range spent {
			mv.halt(u, stopAllowance)
		}
		if len(spent) > 0 {
			continue
		}
		if best < 0 {
			return
		}
		mv.tick = best
		var arr []*unit
		for _, u := range mv.list {
			if u.moving && !u.dead && u.nextTick() == best {
				arr = append(arr, u)
			}
		}
		mv.arrive(arr)
	}
}

// halt stops a unit's movement for the rest of the turn.
func (mv *movement) halt(u *unit, reason string) {
	if u.moving && u.next < len(u.route) {
		rule := mv.t.cite("Land Movement", "")
		if u.fleet {
			rule = mv.t.cite("Sea Movement", "")
		}
		mv.t.emit(&MoveStopped{Force: u.id, Next: u.route[u.next].Hex, Tick: mv.tick, Reason: reason}, rule, u.at, to(u.nation), u.nation)
	}
	if u.moving || u.stopped == "" {
		u.stopped = reason
	}
	u.moving = false
	if u.fleet {
		mv.fleetStopped(u)
	}
}

// arrive moves every unit due at this tick.
func (mv *movement) arrive(arr []*unit) {
	t := mv.t
	// Chasing cavalry may stop a force trying to get away.
	kept := arr[:0]
	for _, u := range arr {
		if !u.fleet && mv.slowDeparture(u) {
			continue
		}
		if !u.dead && u.moving {
			kept = append(kept, u)
		}
	}
	arr = kept
	// Hostile forces swapping places at the same tick meet at the border.
	going := map[[2]game.Place]*unit{}
	for _, u := range arr {
		going[[2]game.Place{u.at, u.route[u.next]}] = u
	}
	kept = arr[:0]
	for _, u := range arr {
		if !u.moving || u.dead {
			continue
		}
		v := going[[2]game.Place{u.route[u.next], u.at}]
		if v != nil && v.moving && !v.dead && v.fleet == u.fleet && t.hostile(u.nation, v.nation) {
			if keeper := mv.meetAtBorder(u, v); keeper == u {
				continue
			}
		}
		kept = append(kept, u)
	}
	arr = kept
	// Leave, then enter.
	for _, u := range arr {
		if !u.moving || u.dead {
			continue
		}
		p := u.route[u.next]
		u.spent += u.costs[u.next]
		u.next++
		mv.place(u, p)
		u.entered = append(u.entered, p)
		u.lastTick = mv.tick
		if u.next >= len(u.route) {
			u.moving = false
			if u.cutReason != "" {
				u.stopped = u.cutReason
				t.emit(&MoveStopped{Force: u.id, Next: u.cut.Hex, Tick: mv.tick, Reason: u.cutReason}, t.cite("Land Movement", "Movement Table"), u.at, to(u.nation), u.nation)
			}
			if u.fleet {
				mv.fleetStopped(u)
			}
		}
	}
	// Contacts, in hex order.
	var hexes []game.Hex
	var seas []game.Place
	for _, u := range arr {
		if u.dead {
			continue
		}
		if u.fleet {
			if mv.fleetHostiles(u.at, u.nation) && !slices.Contains(seas, u.at) {
				seas = append(seas, u.at)
			}
			continue
		}
		if mv.landHostiles(u.at.Hex, u.nation) && !slices.Contains(hexes, u.at.Hex) {
			hexes = append(hexes, u.at.Hex)
		}
	}
	slices.SortFunc(hexes, game.Hex.Compare)
	for _, h := range hexes {
		mv.landContact(h)
	}
	slices.SortFunc(seas, func(a, b game.Place) int { return cmpStr(a.String(), b.String()) })
	for _, p := range seas {
		mv.seaContact(p)
	}
	// Scouting and retreat before an enemy next door.
	for _, u := range arr {
		if !u.dead && !u.fleet {
			mv.neighbours(u)
			if !u.dead && !u.moving {
				mv.embarkOnArrival(u)
			}
		}
	}
}

// meetAtBorder settles two hostile forces stepping into each other's place
// at the same tick: they meet in the place of one of them, which stops there;
// the other enters it. The keeper is the one on defend orders when only one
// is; else the one that has entered fewer places this turn (it moved less);
// else the place that sorts first. Grenzers that can filter past simply pass.
func (mv *movement) meetAtBorder(u, v *unit) *unit {
	if !u.fleet {
		if g, e := mv.filterer(u, v); g != nil {
			mv.filter(g, []*unit{e}, g.route[g.next].Hex, false)
			return nil
		}
	}
	keeper := v
	switch {
	case u.f.Stance == game.Defend && v.f.Stance == game.Attack:
		keeper = u
	case u.f.Stance == game.Attack && v.f.Stance == game.Defend:
		keeper = v
	case len(u.entered) < len(v.entered):
		keeper = u
	case len(v.entered) < len(u.entered):
		keeper = v
	case cmpStr(u.at.String(), v.at.String()) < 0:
		keeper = u
	}
	mv.halt(keeper, stopBorder)
	return keeper
}

// filterer returns the Grenzer force of a pair that can filter past the
// other, and the other.
func (mv *movement) filterer(u, v *unit) (*unit, *unit) {
	sp := mv.t.r.ScoutingPoints
	if grenzersOnly(u.f) && sp.Of(v.f) < sp.Of(u.f) {
		return u, v
	}
	if grenzersOnly(v.f) && sp.Of(u.f) < sp.Of(v.f) {
		return v, u
	}
	return nil, nil
}

func (mv *movement) landHostiles(h game.Hex, n game.NationID) bool {
	for _, x := range mv.land.at(h) {
		if !x.dead && mv.t.hostile(x.nation, n) {
			return true
		}
	}
	return false
}

func (mv *movement) fleetHostiles(p game.Place, n game.NationID) bool {
	for _, x := range mv.sea[p] {
		if !x.dead && mv.t.hostile(x.nation, n) {
			return true
		}
	}
	return false
}

func (mv *movement) hexesWithHostiles() []game.Hex {
	var out []game.Hex
	for _, u := range mv.list {
		if u.fleet || u.dead || slices.Contains(out, u.at.Hex) {
			continue
		}
		if mv.landHostiles(u.at.Hex, u.nation) {
			out = append(out, u.at.Hex)
		}
	}
	slices.SortFunc(out, game.Hex.Compare)
	return out
}

// finish writes the units' places back and reports each march and voyage.
func (mv *movement) finish() {
	t := mv.t
	for _, u := range mv.list {
		if u.dead {
			// Gone from the game, or embarked: an embarked force's march to
			// its fleet is still reported.
			if t.force(u.id) == nil || u.f.Aboard == "" || len(u.entered) == 0 || mv.units[u.id] != u {
				continue
			}
		} else {
			t.setAt(u.f, u.at)
		}
		if u.at != u.start {
			t.fi(u.id).moved = true
			// A garrison that marched off garrisons its city no longer.
			u.f.Garrison = false
		}
		if !u.ordered && len(u.entered) == 0 {
			continue
		}
		if u.fleet {
			t.emit(&SeaMoved{Fleet: u.id, From: u.start, Path: u.entered, MP: u.spent, MA: u.ma, Tick: u.lastTick, Stopped: u.stopped},
				t.cite("Sea Movement", ""), u.at, to(u.nation), u.nation)
			continue
		}
		path := make([]game.Hex, len(u.entered))
		for i, p := range u.entered {
			path[i] = p.Hex
		}
		t.emit(&ForceMoved{Force: u.id, From: u.start.Hex, Path: path, MP: u.spent, MA: u.ma, Tick: u.lastTick, Stopped: u.stopped},
			t.cite("Land Movement", "Movement Table"), u.at, to(u.nation), u.nation)
	}
}

// landStack returns the live land units of nation n in hex h.
func (mv *movement) landStack(h game.Hex, n game.NationID) []*unit {
	var out []*unit
	for _, x := range mv.land.at(h) {
		if !x.dead && x.nation == n {
			out = append(out, x)
		}
	}
	return out
}

func forcesOf(us []*unit) []*game.Force {
	out := make([]*game.Force, len(us))
	for i, u := range us {
		out[i] = u.f
	}
	return out
}

func idsOf(us []*unit) []game.ForceID {
	out := make([]game.ForceID, len(us))
	for i, u := range us {
		out[i] = u.id
	}
	return out
}
