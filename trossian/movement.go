package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Movement on a clock. A phase is Ticks ticks. A mover with an allowance of
// a steps a phase takes its k-th step at tick ⌈k·Ticks/a⌉: infantry (1) at
// 12, cavalry (2) at 6 and 12, an army on the road (+1) at 6 and 12 or 4, 8
// and 12, a courier (4) at 3, 6, 9 and 12, a navy's four actions at 3, 6, 9
// and 12. A mover stays where it is until the tick it enters the next
// place, so that forces meet where they would really meet. At each tick
// couriers ride first (an order delivered at a tick is carried out from the
// next step on), then navies act, then armies step, then every province
// holding hostile armies is a contact.
const Ticks = 12

// slotTick is the tick of the k-th of a steps (k from 1).
func slotTick(k, a int) int {
	if a <= 0 {
		return Ticks + 1
	}
	return (k*Ticks + a - 1) / a
}

// slotAt returns the step k whose tick is tick, if any.
func slotAt(tick, a int) (int, bool) {
	for k := 1; k <= a; k++ {
		if slotTick(k, a) == tick {
			return k, true
		}
	}
	return 0, false
}

// clock is the movement step's working state.
type clock struct {
	marches map[game.ForceID]*march
	log     map[game.ForceID]*march
	navies  map[game.ForceID]*voyage
	nlog    map[game.ForceID]*voyage
	riders  map[game.ForceID]*ride
	// met records each province's contact: "battle" or "standoff".
	met map[string]string
}

// march is an army's march this phase.
type march struct {
	start     int
	allowance int
	road      bool
	taken     int
	from      string
	path      []string
	stopped   string
}

func (t *turn) startClock() {
	t.clock = &clock{marches: map[game.ForceID]*march{}, log: map[game.ForceID]*march{},
		navies: map[game.ForceID]*voyage{}, nlog: map[game.ForceID]*voyage{}, riders: map[game.ForceID]*ride{},
		met: map[string]string{}}
}

// startMarch starts (or restarts, with new orders delivered at tick) an
// army's march on its March. An army that must stand still this phase, or
// is aboard a navy, does not march; its order stands for a later phase.
func (t *turn) startMarch(a *Army, tick int) {
	c := t.clock
	if c == nil || len(a.March) == 0 || a.Aboard != "" {
		return
	}
	m := c.log[a.ID]
	if m == nil {
		m = &march{from: a.At}
		c.log[a.ID] = m
	}
	if a.StillUntil >= t.s.Turn {
		m.stopped = "it must stand still this phase (\"An army victorious in the field must spend one full phase stationary\"; a draw: \"cannot move in the following phase\")"
		return
	}
	speed := t.r.Speeds.Of(a.Stands)
	n := min(len(a.March), speed+t.r.Speeds.RoadBonus)
	road := n > 0 && t.r.Speeds.RoadBonus > 0
	prev := a.At
	for _, p := range a.March[:n] {
		road = road && t.m.Road(prev, p)
		prev = p
	}
	m.start, m.allowance, m.road, m.stopped = tick, speed, road, ""
	if road {
		m.allowance = speed + t.r.Speeds.RoadBonus
	}
	c.marches[a.ID] = m
}

// stopMarch ends an army's march this phase.
func (t *turn) stopMarch(a *Army) {
	if t.clock != nil {
		delete(t.clock.marches, a.ID)
	}
}

// halt stops an army's march and records why.
func (t *turn) halt(a *Army, next string, tick int, reason string) {
	if m := t.clock.log[a.ID]; m != nil {
		m.stopped = reason
	}
	t.stopMarch(a)
	a.March = nil
	t.emit(&Halted{Header: t.head(secMovement, a.At, to(a.Nation), a.Nation), Army: a.ID, At: a.At, Next: next, Tick: tick, Reason: reason})
}

// stepMovement runs the clock.
func (t *turn) stepMovement() {
	c := t.clock
	for _, id := range t.armyIDs() {
		a, _ := t.s.Army(id)
		if len(a.March) > 0 && c.log[id] == nil {
			t.startMarch(a, 0)
		}
	}
	t.dispatchCouriers()
	t.planRides()
	t.seaClashes(0)
	t.contacts(0)
	for tick := 1; tick <= Ticks; tick++ {
		t.courierTick(tick)
		t.navyTick(tick)
		t.armyTick(tick)
		t.contacts(tick)
	}
	t.reportMovement()
}

// armyTick moves every army whose step falls on this tick.
func (t *turn) armyTick(tick int) {
	c := t.clock
	type step struct {
		a    *Army
		from string
		to   string
	}
	var steps []step
	for _, id := range t.armyIDs() {
		m := c.marches[id]
		if m == nil || tick <= m.start {
			continue
		}
		a, _ := t.s.Army(id)
		k, ok := slotAt(tick, m.allowance)
		if !ok || k > m.allowance || m.taken >= m.allowance || len(a.March) == 0 {
			continue
		}
		next := a.March[0]
		if c.met[a.At] == "battle" {
			// Orders delivered to an army in a battle wait for the battle.
			t.halt(a, next, tick, "it is in the battle at "+a.At)
			continue
		}
		if t.r.Leaderless.NoContact && !a.HasHQ() && t.hostileArmyIn(a.Nation, next) {
			t.halt(a, next, tick, "it has no HQ: \"An army without an HQ will not move to contact an enemy force\"")
			continue
		}
		steps = append(steps, step{a, a.At, next})
	}
	// Hostile armies swapping provinces meet at the border: in the
	// province of the one on DEFEND if only one is, else in the province
	// that sorts first; the army already there stays.
	cancel := map[game.ForceID]bool{}
	for i := range steps {
		for j := i + 1; j < len(steps); j++ {
			x, y := steps[i], steps[j]
			if x.from != y.to || x.to != y.from || !t.s.Hostile(x.a.Nation, y.a.Nation) || cancel[x.a.ID] || cancel[y.a.ID] {
				continue
			}
			meet := min(x.from, y.from)
			switch {
			case x.a.Stance == game.Defend && y.a.Stance != game.Defend:
				meet = x.from
			case y.a.Stance == game.Defend && x.a.Stance != game.Defend:
				meet = y.from
			}
			stay := x.a
			if y.from == meet {
				stay = y.a
			}
			cancel[stay.ID] = true
			t.halt(stay, map[bool]string{true: x.to, false: y.to}[stay == x.a], tick, "it met the enemy at the border and holds its ground")
		}
	}
	for _, s := range steps {
		if cancel[s.a.ID] {
			continue
		}
		a := s.a
		m := c.marches[a.ID]
		a.At = s.to
		a.March = a.March[1:]
		m.taken++
		m.path = append(m.path, s.to)
		t.moved[a.ID] = true
		if a.Task != "" {
			a.TaskSince = t.s.Turn + 1 // "Movement … negate[s] this"
		}
		p, _ := t.m.Province(s.to)
		if t.r.Battles.CitiesStopMarches && p != nil && p.Kind.IsCity() && len(a.March) > 0 {
			if ctl := t.s.Controller(s.to); ctl != game.Neutral && t.s.Hostile(a.Nation, ctl) {
				t.halt(a, a.March[0], tick, "the garrison of "+s.to+" bars the road (\"Every city possesses a garrison of troops that will defend the city from invasion\")")
				continue
			}
		}
		if len(a.March) == 0 {
			t.stopMarch(a)
		}
	}
}

// hostileArmyIn reports an army hostile to n standing in a province.
func (t *turn) hostileArmyIn(n game.NationID, p string) bool {
	for _, a := range t.s.ArmiesAt(p) {
		if t.s.Hostile(n, a.Nation) {
			return true
		}
	}
	return false
}

// contacts finds the provinces holding hostile armies at a tick. A new
// contact where any army attacks is a battle: every army there stops and
// later arrivals join it; where all defend it is a standoff, stopping the
// armies that arrived. A standoff of the last phase (tick 0) holds nobody.
func (t *turn) contacts(tick int) {
	c := t.clock
	byProvince := map[string][]*Army{}
	var provinces []string
	for i := range t.s.Armies {
		a := &t.s.Armies[i]
		if a.Aboard != "" || a.At == "" {
			continue
		}
		if byProvince[a.At] == nil {
			provinces = append(provinces, a.At)
		}
		byProvince[a.At] = append(byProvince[a.At], a)
	}
	slices.Sort(provinces)
	for _, p := range provinces {
		armies := byProvince[p]
		hostile, attack := false, false
		for i, a := range armies {
			for _, b := range armies[i+1:] {
				if t.s.Hostile(a.Nation, b.Nation) {
					hostile = true
					attack = attack || a.Stance == game.Attack || b.Stance == game.Attack
				}
			}
		}
		if !hostile {
			continue
		}
		outcome := "standoff"
		if attack {
			outcome = "battle"
		}
		prev := c.met[p]
		var ids []game.ForceID
		var ns []game.NationID
		for _, a := range armies {
			ids = append(ids, a.ID)
			ns = append(ns, a.Nation)
		}
		switch {
		case prev == "battle" || outcome == "battle":
			for _, a := range armies {
				if c.marches[a.ID] != nil || len(a.March) > 0 {
					if m := c.log[a.ID]; m != nil && m.stopped == "" {
						m.stopped = "it met the enemy in " + p
					}
					t.stopMarch(a)
					a.March = nil
				}
			}
			if prev != "battle" {
				c.met[p] = "battle"
				t.emit(&Met{Header: t.head("004 The Battles", p, to(ns...), ns...), Province: p, Tick: tick, Armies: ids, Outcome: "battle"})
				t.battles = append(t.battles, &battle{province: p, tick: tick})
			}
		case prev == "":
			c.met[p] = "standoff"
			for _, a := range armies {
				if m := c.marches[a.ID]; tick > 0 && m != nil && len(m.path) > 0 && m.path[len(m.path)-1] == p {
					m.stopped = "it met the enemy in " + p + ", both sides on DEFEND"
					t.stopMarch(a)
					a.March = nil
				}
			}
			t.emit(&Met{Header: t.head("004 The Battles", p, to(ns...), ns...), Province: p, Tick: tick, Armies: ids, Outcome: "standoff"})
		}
	}
}

// reportMovement emits each army's, navy's and courier's movement.
func (t *turn) reportMovement() {
	c := t.clock
	for _, id := range sortedIDs(c.log) {
		m := c.log[id]
		a, ok := t.s.Army(id)
		if !ok || (len(m.path) == 0 && m.stopped == "") {
			continue
		}
		t.emit(&Marched{Header: t.head(secMovement, m.from, to(a.Nation), a.Nation), Army: id, From: m.from, Path: m.path,
			Allowance: m.allowance, Road: m.road, Stopped: m.stopped})
	}
	t.reportVoyages()
	t.reportRides()
}

func sortedIDs[V any](m map[game.ForceID]V) []game.ForceID {
	out := make([]game.ForceID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, game.CompareForceIDs)
	return out
}

// route is an army of n's quickest land route (Route), round the towns and
// ports of its enemies. Empty when there is none.
func (t *turn) route(n game.NationID, from, to string) []string {
	return Route(t.m, from, to, func(p string) bool { return t.barred(n, p) })
}

// barred reports a town or port held by an enemy of n.
func (t *turn) barred(n game.NationID, p string) bool {
	pr, ok := t.m.Province(p)
	c := t.s.Controller(p)
	return ok && pr.Kind.IsCity() && c != game.Neutral && t.s.Hostile(n, c)
}
