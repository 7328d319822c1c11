package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Sieges and pacification: "To take control of a province, 20AP worth of
// troops must spend a full phase (three months) in the province pacifying
// the populace. Movement and battles negate this for one month - even
// cavalry patrols who attack in strength will ruin the attempt at
// pacification." Open country is pacified (PACIFY); a town or port, whose
// garrison "will defend the city from invasion", is besieged (BESIEGE) the
// same way, and a port only with an enemy navy in its lane: "Ports do not
// count as besieged unless an enemy navy occupies the adjacent sea lane for
// the duration of the siege." A phase counts when the kingdom's armies on
// the task that stood there the whole phase (no march, no retreat, the
// task set by tick 0) are worth 20AP, no battle was fought there and no
// enemy army stands there; Rules.Control.Phases such phases take the
// province. A phase that does not count ruins the attempt: it starts again.

// taskers returns, by kingdom, the armies in a province on a task, and the
// AP worth of those that count this phase.
func (t *turn) taskers(p, task string) (map[game.NationID][]*Army, map[game.NationID]int) {
	by := map[game.NationID][]*Army{}
	worth := map[game.NationID]int{}
	for _, a := range t.s.ArmiesAt(p) {
		if a.Task != task {
			continue
		}
		if t.s.Controller(p) == a.Nation {
			a.Task, a.TaskSince = "", 0
			continue
		}
		by[a.Nation] = append(by[a.Nation], a)
		if a.TaskSince <= t.s.Turn && !t.moved[a.ID] {
			worth[a.Nation] += t.r.Costs.Worth(a.Stands)
		}
	}
	return by, worth
}

// besieger picks the kingdom a province's task belongs to: the one already
// at it, else the first by name.
func besieger(by map[game.NationID][]*Army, current game.NationID) game.NationID {
	if _, ok := by[current]; ok && current != "" {
		return current
	}
	var ns []game.NationID
	for n := range by {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	if len(ns) == 0 {
		return ""
	}
	return ns[0]
}

// stepSieges counts the sieges.
func (t *turn) stepSieges() {
	for _, pr := range t.m.Provinces {
		if !pr.Kind.IsCity() {
			continue
		}
		ps, _ := t.s.Province(pr.ID)
		by, worth := t.taskers(pr.ID, TaskBesiege)
		cur := game.Neutral
		if ps.Siege != nil {
			cur = ps.Siege.By
		}
		n := besieger(by, cur)
		if ps.Siege != nil && n != ps.Siege.By {
			t.emit(&SiegeChanged{Header: t.head(secSiege, pr.ID, public(), ps.Siege.By, ps.Controller), Province: pr.ID, By: ps.Siege.By,
				Status: "broken", Progress: ps.Siege.Progress, Required: ps.Siege.Required, Reason: "the besiegers left"})
			ps.Siege = nil
		}
		if n == "" {
			continue
		}
		if ps.Siege == nil {
			ps.Siege = &Siege{By: n, Required: t.r.Control.Phases, Since: t.s.Turn}
			t.emit(&SiegeChanged{Header: t.head(secSiege, pr.ID, public(), n, ps.Controller), Province: pr.ID, By: n, Status: "begun",
				Required: ps.Siege.Required})
			if pr.Kind == Port {
				t.disembarkBesieged(pr.ID)
			}
			if worth[n] < t.r.Control.PacifyAP {
				continue // troops that arrived this phase: the next is the first full one
			}
		}
		t.countPhase(pr.ID, n, worth[n], true, pr.Kind == Port)
	}
}

// stepPacification counts the pacifications.
func (t *turn) stepPacification() {
	for _, pr := range t.m.Provinces {
		if pr.Kind.IsCity() {
			continue
		}
		ps, _ := t.s.Province(pr.ID)
		by, worth := t.taskers(pr.ID, TaskPacify)
		cur := game.Neutral
		if ps.Pacify != nil {
			cur = ps.Pacify.By
		}
		n := besieger(by, cur)
		if ps.Pacify != nil && n != ps.Pacify.By {
			t.emit(&PacifyChanged{Header: t.head(secSiege, pr.ID, public(), ps.Pacify.By), Province: pr.ID, By: ps.Pacify.By,
				Status: "ruined", Progress: ps.Pacify.Progress, Required: ps.Pacify.Required, Reason: "the troops left"})
			ps.Pacify = nil
		}
		if n == "" {
			continue
		}
		if ps.Pacify == nil {
			ps.Pacify = &Pacification{By: n, Required: t.r.Control.Phases, Since: t.s.Turn}
			t.emit(&PacifyChanged{Header: t.head(secSiege, pr.ID, public(), n), Province: pr.ID, By: n, Status: "begun", Required: ps.Pacify.Required})
			if worth[n] < t.r.Control.PacifyAP {
				continue
			}
		}
		t.countPhase(pr.ID, n, worth[n], false, false)
	}
}

// countPhase decides whether this phase counts for a siege (city) or a
// pacification, and takes the province when enough have.
func (t *turn) countPhase(p string, n game.NationID, worth int, city, port bool) {
	ps, _ := t.s.Province(p)
	var progress *int
	var required int
	if city {
		progress, required = &ps.Siege.Progress, ps.Siege.Required
	} else {
		progress, required = &ps.Pacify.Progress, ps.Pacify.Required
	}
	reason := ""
	switch {
	case t.fought[p]:
		reason = "a battle was fought here (\"Movement and battles negate this\")"
	case t.hostileArmyIn(n, p):
		reason = "enemy troops stand in the province"
	case worth < t.r.Control.PacifyAP:
		reason = "fewer than 20AP of troops stood at it the whole phase (\"20AP worth of troops must spend a full phase\")"
	case port && !t.blockaded(p, n):
		reason = "no navy holds the port's lane (\"Ports do not count as besieged unless an enemy navy occupies the adjacent sea lane for the duration of the siege\")"
	}
	if reason != "" {
		status := "stalled"
		if *progress > 0 {
			status = "ruined"
		}
		*progress = 0
		t.taskEvent(p, n, city, status, 0, required, reason)
		return
	}
	*progress++
	if *progress < required {
		t.taskEvent(p, n, city, "progress", *progress, required, "")
		return
	}
	how := "pacified"
	if city {
		how = "taken by siege"
	}
	t.capture(p, n, how)
}

func (t *turn) taskEvent(p string, n game.NationID, city bool, status string, progress, required int, reason string) {
	ps, _ := t.s.Province(p)
	if city {
		t.emit(&SiegeChanged{Header: t.head(secSiege, p, public(), n, ps.Controller), Province: p, By: n, Status: status, Progress: progress, Required: required, Reason: reason})
		return
	}
	t.emit(&PacifyChanged{Header: t.head(secSiege, p, public(), n, ps.Controller), Province: p, By: n, Status: status, Progress: progress, Required: required, Reason: reason})
}

// blockaded reports an enemy navy of the port — the besieger's or an
// ally's — in a lane of its coast (or off it) since the phase began and
// not beaten during it.
func (t *turn) blockaded(p string, n game.NationID) bool {
	owner := t.s.Controller(p)
	holds := func(at NavyPlace) bool {
		return at.Lane != "" && t.m.Touches(p, at.Lane) && (at.AtSea() || at.Province == p)
	}
	for _, nv := range t.s.Navies {
		if nv.Nation != n && t.s.Hostile(n, nv.Nation) {
			continue
		}
		if owner != game.Neutral && !t.s.Hostile(nv.Nation, owner) {
			continue
		}
		start, ok := t.blockadeStart[nv.ID]
		if ok && holds(start) && holds(nv.At) && !t.beaten[nv.ID] {
			return true
		}
	}
	return false
}

// disembarkBesieged: "Any units loaded onto a ship when a port is besieged
// automatically disembarks for the battle/siege."
func (t *turn) disembarkBesieged(p string) {
	for _, nv := range t.s.NaviesInPort(p) {
		for _, a := range t.s.Aboard(nv.ID) {
			a.Aboard, a.At = "", p
			t.emit(&Shipped{Header: t.head(secNavy, p, to(a.Nation), a.Nation), Army: a.ID, Navy: nv.ID, Landed: true, Province: p,
				Load: t.r.Costs.Load(a.Stands), Reason: "the port is besieged"})
		}
	}
}

// capture hands a province to a kingdom: with a city go the AP banked in it
// ("those AP are captured and may be spent the following winter by the
// capturing player") and the navies in its port ("captured by the
// conquering army").
func (t *turn) capture(p string, n game.NationID, how string) {
	ps, _ := t.s.Province(p)
	from := ps.Controller
	ps.Controller, ps.Siege, ps.Pacify = n, nil, nil
	t.emit(&ControlChanged{Header: t.head(secSiege, p, public(), from, n), Province: p, From: from, To: n, How: how, Bank: ps.Bank})
	for _, a := range t.s.ArmiesAt(p) {
		if a.Nation == n {
			a.Task, a.TaskSince = "", 0
		}
	}
	ns, _ := t.s.Nation(n)
	for _, nv := range t.s.NaviesInPort(p) {
		if nv.Nation == n || !t.s.Hostile(n, nv.Nation) || ns == nil {
			continue
		}
		for _, a := range t.s.Aboard(nv.ID) {
			a.Aboard, a.At = "", p
		}
		old, oldN := nv.ID, nv.Nation
		nv.ID, nv.Nation = t.nextNavyID(ns), n
		t.dirty = true
		t.emit(&NavyCaptured{Header: t.head(secNavy, p, public(), oldN, n), Navy: old, From: oldN, By: n, Port: p, New: nv.ID})
	}
}

// winterSieges: "Sieges can extend through the winter"; "If a port siege
// lasts through the winter, the blockade must be lifted as the navy returns
// to port … the limited shipping during winter months increases the siege
// cost by one phase." A town's siege counts the winter as a phase
// (Rules.Control.WinterCounts) while 20AP of besiegers stay at it.
func (t *turn) winterSieges() {
	for _, pr := range t.m.Provinces {
		ps, _ := t.s.Province(pr.ID)
		if ps.Siege == nil {
			continue
		}
		sg := ps.Siege
		if pr.Kind == Port {
			sg.Required += t.r.Control.PortWinterExtra
			sg.Wintered = true
			t.emit(&SiegeChanged{Header: t.head(secSiege, pr.ID, public(), sg.By, ps.Controller), Province: pr.ID, By: sg.By, Status: "wintered",
				Progress: sg.Progress, Required: sg.Required, Reason: "the blockade is lifted for the winter: \"increases the siege cost by one phase\""})
			continue
		}
		if !t.r.Control.WinterCounts {
			continue
		}
		_, worth := t.taskers(pr.ID, TaskBesiege)
		t.countPhase(pr.ID, sg.By, worth[sg.By], true, false)
	}
}
