package trossian

import (
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Navies. "Navies can take four actions per phase": a navy's actions
// happen at its action ticks (3, 6, 9, 12), an embarking or landing that
// needs more than one action (20AP a port action, 10AP a beach action)
// taking as many. Navies in port "are protected by the guns of the city and
// cannot be attacked"; navies of kingdoms at war in the same lane, or off
// the same coast, fight at once: "A simple d6 will be rolled for each navy,
// with the highest score inflicting significant casualties on the loser.
// The losing navy will retreat one sea lane, and must dice for unit
// survival with one roll for each unit, and any result of 1 indicating a
// loss of that unit."

// voyage is a navy's actions this phase.
type voyage struct {
	start   int
	actions []NavyAction
	next    int
	slots   int
	cost    int
	used    int
	from    NavyPlace
	path    []NavyPlace
	stopped string
}

const (
	purposeSeaBattle = "sea battle"
	purposeSeaUnit   = "sea battle: unit"
)

// planNavy sets a navy's actions from tick on (orders delivered by a
// courier during the phase use the action ticks still to come).
func (t *turn) planNavy(x NavyOrders, tick int) {
	nv, _ := t.s.Navy(x.Navy)
	v := t.clock.nlog[nv.ID]
	if v == nil {
		v = &voyage{from: nv.At}
		t.clock.nlog[nv.ID] = v
	}
	v.start, v.actions, v.next, v.slots, v.cost, v.stopped = tick, slices.Clone(x.Actions), 0, 0, 0, ""
	t.clock.navies[nv.ID] = v
}

// stopVoyage ends a navy's actions this phase.
func (t *turn) stopVoyage(id game.ForceID, reason string) {
	if v := t.clock.nlog[id]; v != nil && reason != "" && v.stopped == "" {
		v.stopped = reason
	}
	delete(t.clock.navies, id)
}

// navyTick carries out the actions falling on this tick, then the sea
// battles.
func (t *turn) navyTick(tick int) {
	if _, ok := slotAt(tick, t.r.Navies.Actions); !ok {
		return
	}
	for _, id := range t.navyIDs() {
		v := t.clock.navies[id]
		if v == nil || tick <= v.start || v.next >= len(v.actions) {
			continue
		}
		nv, _ := t.s.Navy(id)
		act := v.actions[v.next]
		if v.cost == 0 {
			v.cost = t.actionSlots(nv, act)
		}
		v.slots++
		v.used++
		if v.slots < v.cost {
			continue
		}
		if reason := t.perform(nv, act); reason != "" {
			t.stopVoyage(id, act.String()+": "+reason)
			continue
		}
		v.next++
		v.slots, v.cost = 0, 0
		if act.Act == ActOut || act.Act == ActSail || act.Act == ActIn {
			v.path = append(v.path, nv.At)
		}
		if v.next >= len(v.actions) {
			delete(t.clock.navies, id)
		}
	}
	t.seaClashes(tick)
}

// actionSlots is how many action ticks an action takes.
func (t *turn) actionSlots(nv *Navy, act NavyAction) int {
	if act.Act != ActEmbark && act.Act != ActLand {
		return 1
	}
	a, ok := t.s.Army(act.Army)
	if !ok {
		return 1
	}
	return actionCost(t.situation(nv.Nation), nv.At, t.r.Costs.Load(a.Stands))
}

// perform carries out one action now; it returns why not ("" done).
func (t *turn) perform(nv *Navy, act NavyAction) string {
	s := t.situation(nv.Nation)
	switch act.Act {
	case ActOut, ActSail, ActIn:
		var at NavyPlace
		var r *engine.Refusal
		switch act.Act {
		case ActOut:
			at, r = navyOut(s, nv.ID, nv.At, act)
		case ActSail:
			at, r = navySail(s, nv.ID, nv.At, act)
		default:
			at, r = navyIn(s, nv.ID, nv.At, act)
		}
		if r != nil {
			return r.Reason
		}
		if at.InPort() && len(t.s.NaviesInPort(at.Province)) >= t.r.Navies.PortCapacity {
			return "the port of " + at.Province + " is full: \"Each port can hold a maximum of two navies\""
		}
		nv.At = at
		return ""
	case ActEmbark:
		a, ok := t.s.Army(act.Army)
		switch {
		case !ok || a.Nation != nv.Nation:
			return "no army " + string(act.Army)
		case nv.At.Province == "":
			return "the navy is at sea"
		case a.Aboard != "" || a.At != nv.At.Province:
			return string(a.ID) + " is not in " + nv.At.Province
		}
		load := t.cargo(nv.ID) + t.r.Costs.Load(a.Stands)
		if load > t.r.Navies.Capacity {
			return "it would carry more than 20AP (\"A single navy can transport up to 20AP worth of units\")"
		}
		a.Aboard, a.At, a.March, a.Task, a.TaskSince = nv.ID, "", nil, "", 0
		t.stopMarch(a)
		t.moved[a.ID] = true
		t.emit(&Shipped{Header: t.head(secNavy, nv.At.Province, to(a.Nation), a.Nation), Army: a.ID, Navy: nv.ID, Province: nv.At.Province,
			Load: t.r.Costs.Load(a.Stands), Actions: t.clock.nlog[nv.ID].cost})
		return ""
	case ActLand:
		a, ok := t.s.Army(act.Army)
		switch {
		case !ok || a.Aboard != nv.ID:
			return string(act.Army) + " is not aboard"
		case nv.At.Province == "":
			return "the navy is at sea"
		}
		a.Aboard, a.At = "", nv.At.Province
		t.moved[a.ID] = true
		t.emit(&Shipped{Header: t.head(secNavy, a.At, to(a.Nation), a.Nation), Army: a.ID, Navy: nv.ID, Landed: true, Province: a.At,
			Load: t.r.Costs.Load(a.Stands), Actions: t.clock.nlog[nv.ID].cost})
		return ""
	}
	return "no action " + act.Act
}

// cargo is the AP a navy carries.
func (t *turn) cargo(id game.ForceID) int {
	n := 0
	for _, a := range t.s.Aboard(id) {
		n += t.r.Costs.Load(a.Stands)
	}
	return n
}

// seaPlaceKey names a sea space where navies can meet: a lane, or a
// province's coast ("consider the ports and coastlines as a separate
// sea-lane"); ports are "" (no battles in port).
func seaPlaceKey(p NavyPlace) string {
	switch {
	case p.InPort():
		return ""
	case p.AtSea():
		return "lane " + p.Lane
	}
	return "coast " + p.Province + " " + p.Lane
}

// seaClashes fights every sea space holding navies at war.
func (t *turn) seaClashes(tick int) {
	spaces := map[string][]game.ForceID{}
	var keys []string
	for _, nv := range t.s.Navies {
		k := seaPlaceKey(nv.At)
		if k == "" {
			continue
		}
		if spaces[k] == nil {
			keys = append(keys, k)
		}
		spaces[k] = append(spaces[k], nv.ID)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ids := spaces[k]
		var ns []game.NationID
		for _, id := range ids {
			nv, _ := t.s.Navy(id)
			ns = append(ns, nv.Nation)
		}
		if !anyHostile(t.s, ns) {
			continue
		}
		t.seaClash(ids, tick)
	}
}

func anyHostile(s *State, ns []game.NationID) bool {
	for i := range ns {
		for j := i + 1; j < len(ns); j++ {
			if s.Hostile(ns[i], ns[j]) {
				return true
			}
		}
	}
	return false
}

// seaClash fights one: a D6 each, the highest wins for its side (a tie
// between sides is rolled again); every navy of the other sides retreats
// one lane and dices for each unit aboard.
func (t *turn) seaClash(ids []game.ForceID, tick int) {
	first, _ := t.s.Navy(ids[0])
	place := first.At
	var dice []int
	var winner game.ForceID
	for try := 0; ; try++ {
		dice = dice[:0]
		best, bestN := 0, []game.ForceID(nil)
		for _, id := range ids {
			d := t.dice.Roll(purposeSeaBattle, 6, string(id))
			dice = append(dice, d)
			switch {
			case d > best:
				best, bestN = d, []game.ForceID{id}
			case d == best:
				bestN = append(bestN, id)
			}
		}
		if t.oneSide(bestN) || try >= 20 {
			winner = bestN[0]
			break
		}
	}
	w, _ := t.s.Navy(winner)
	e := &SeaClash{Place: place, Tick: tick, Navies: ids, Dice: slices.Clone(dice), Winner: winner}
	var involved []game.NationID
	for _, id := range ids {
		nv, _ := t.s.Navy(id)
		involved = append(involved, nv.Nation)
		t.stopVoyage(id, "a battle at sea")
		if nv.Nation == w.Nation || !t.s.Hostile(nv.Nation, w.Nation) {
			continue
		}
		e.Losers = append(e.Losers, id)
	}
	for _, id := range e.Losers {
		nv, _ := t.s.Navy(id)
		t.beaten[id] = true
		var aboard []game.ForceID
		for _, a := range t.s.Aboard(id) {
			aboard = append(aboard, a.ID)
		}
		// By ID: an army that loses its last stand leaves the slice.
		for _, aid := range aboard {
			a, _ := t.s.Army(aid)
			var lost Stands
			for _, st := range a.Stands {
				for i := 0; i < st.Count; i++ {
					d := t.dice.Roll(purposeSeaUnit, 6, string(a.ID))
					fr := FateRoll{Army: a.ID, Type: st.Type, Guard: st.Guard, Fate: "aboard", Die: d, Eliminated: d <= t.r.Navies.UnitLostOn}
					e.Rolls = append(e.Rolls, fr)
					if fr.Eliminated {
						lost = append(lost, Stand{Type: st.Type, Guard: st.Guard, Count: 1})
					}
				}
			}
			t.loseStands(a, lost.Normalize())
		}
		if lane, ok := t.seaRetreat(nv); ok {
			nv.At = NavyPlace{Lane: lane}
			e.Retreats = append(e.Retreats, SeaRetreat{Navy: id, To: lane})
			continue
		}
		e.Lost = append(e.Lost, id)
	}
	e.Header = t.head(secNavy, seaPlaceKey(place), to(involved...), involved...)
	t.emit(e)
	for _, id := range e.Lost {
		nv, _ := t.s.Navy(id)
		t.loseNavy(nv, "beaten with no sea lane to retreat to (\"The losing navy will retreat one sea lane\")")
	}
}

// oneSide reports navies all of one side.
func (t *turn) oneSide(ids []game.ForceID) bool {
	first, _ := t.s.Navy(ids[0])
	for _, id := range ids[1:] {
		nv, _ := t.s.Navy(id)
		if t.s.Hostile(first.Nation, nv.Nation) {
			return false
		}
	}
	return true
}

// seaRetreat picks the lane a beaten navy retreats to: its coast's lane or
// a lane linked to its lane, open and free of its enemies, the nearest to a
// port of its own (then by ID).
func (t *turn) seaRetreat(nv *Navy) (string, bool) {
	lane := nv.At.Lane
	var cands []string
	if !nv.At.AtSea() {
		cands = append(cands, lane)
	}
	cands = append(cands, t.m.LaneNeighbors(lane)...)
	closed := func(l string) bool {
		x, ok := t.m.Lane(l)
		return ok && x.Frozen && t.r.Frozen.IsClosed(t.phase)
	}
	var home []string
	for _, p := range t.m.Provinces {
		if p.Kind == Port && t.s.Controller(p.ID) == nv.Nation {
			home = append(home, p.Coast...)
		}
	}
	dist := laneDistances(t.m, home, closed)
	best, bestD := "", 1<<30
	for _, l := range cands {
		if closed(l) || t.enemyNavyIn(nv.Nation, l) {
			continue
		}
		d, ok := dist[l]
		if !ok {
			d = 1 << 20
		}
		if d < bestD || d == bestD && lessName(l, best) {
			best, bestD = l, d
		}
	}
	return best, best != ""
}

func (t *turn) enemyNavyIn(n game.NationID, lane string) bool {
	for _, x := range t.s.Navies {
		if x.At.AtSea() && x.At.Lane == lane && t.s.Hostile(n, x.Nation) {
			return true
		}
	}
	return false
}

// loseNavy removes a navy and every army aboard.
func (t *turn) loseNavy(nv *Navy, reason string) {
	var armies []game.ForceID
	for _, a := range t.s.Aboard(nv.ID) {
		armies = append(armies, a.ID)
	}
	t.emit(&NavyLost{Header: t.head(secNavy, nv.At.String(), public(), nv.Nation), Navy: nv.ID, Nation: nv.Nation, Place: nv.At, Armies: armies, Reason: reason})
	for _, id := range armies {
		a, _ := t.s.Army(id)
		t.emit(&Destroyed{Header: t.head(secNavy, "", to(a.Nation), a.Nation), Army: id, Nation: a.Nation, Stands: a.Stands, Reason: "lost at sea with " + string(nv.ID)})
		t.removeArmy(id)
	}
	t.removeNavy(nv.ID)
}

// reportVoyages emits each navy's phase.
func (t *turn) reportVoyages() {
	for _, id := range sortedIDs(t.clock.nlog) {
		v := t.clock.nlog[id]
		nv, ok := t.s.Navy(id)
		if !ok {
			continue
		}
		t.emit(&NavyMoved{Header: t.head(secNavy, nv.At.String(), to(nv.Nation), nv.Nation), Navy: id, From: v.from, Path: v.path,
			Actions: v.used, Stopped: v.stopped})
	}
}

// ---- the frozen lanes ----

func (t *turn) stepFrozenStart() {
	if t.phase == t.r.Frozen.LostIn && t.r.Frozen.LossAt == FrozenLossAtStart {
		t.loseFrozen()
	}
}

func (t *turn) stepFrozenEnd() {
	if t.phase == t.r.Frozen.LostIn && t.r.Frozen.LossAt == FrozenLossAtEnd {
		t.loseFrozen()
	}
}

// loseFrozen: "Navies that are present in these lanes in Late Autumn are
// presumed lost at sea with all hands" — in a frozen lane or off a coast on
// one (the ice takes the shore as well); ports are safe.
func (t *turn) loseFrozen() {
	for _, id := range t.navyIDs() {
		nv, _ := t.s.Navy(id)
		if nv.At.InPort() {
			continue
		}
		if l, ok := t.m.Lane(nv.At.Lane); ok && l.Frozen {
			t.loseNavy(nv, "in the frozen lane "+l.ID+" ("+l.Name+") in "+t.phase.String()+": \"presumed lost at sea with all hands\"")
		}
	}
}

// ---- winter ----

// winterNavies: "the navy returns to port for the winter" — every navy at
// sea or off a coast goes to the nearest port of its kingdom or an ally
// with room (fewest lanes, then by name); with none it stays.
func (t *turn) winterNavies() {
	for _, id := range t.navyIDs() {
		nv, _ := t.s.Navy(id)
		if nv.At.InPort() {
			continue
		}
		from := nv.At
		dist := laneDistances(t.m, []string{nv.At.Lane}, func(string) bool { return false })
		best, bestD := "", 1<<30
		for _, p := range t.m.Provinces {
			if p.Kind != Port || len(t.s.NaviesInPort(p.ID)) >= t.r.Navies.PortCapacity {
				continue
			}
			if c := t.s.Controller(p.ID); c == game.Neutral || t.s.Hostile(nv.Nation, c) {
				continue
			}
			for _, l := range p.Coast {
				if d, ok := dist[l]; ok && (d < bestD || d == bestD && strings.Compare(p.ID, best) < 0) {
					best, bestD = p.ID, d
				}
			}
		}
		e := &NavyWintered{Header: t.head(secNavy, from.String(), to(nv.Nation), nv.Nation), Navy: id, From: from, To: from}
		if best != "" {
			nv.At = NavyPlace{Province: best}
			e.To = nv.At
		} else {
			e.Reason = "no port of its own or an ally has room: it winters at sea"
		}
		t.emit(e)
	}
}
