package trossian

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The navy actions: "Navies can take four actions per phase as follows:
// Enter a new ocean province; Move from port or coastline out into the
// sealane …; Embark/Disembark up to 20AP worth of troops at a friendly
// port; Embark/Disembark 10AP worth of units at a non-port province".
const (
	ActOut    = "out"    // from a port or coast out into its lane
	ActSail   = "sail"   // into a linked lane
	ActIn     = "in"     // from a lane into a port, or off a coast
	ActEmbark = "embark" // an army goes aboard
	ActLand   = "land"   // an army goes ashore
)

// NavyAction is one action of a navy's phase.
type NavyAction struct {
	Act string
	// Lane is the lane of out (when the port touches several) and sail;
	// Province the port or coast of in; Army the army of embark and land.
	Lane     string       `json:",omitempty"`
	Province string       `json:",omitempty"`
	Army     game.ForceID `json:",omitempty"`
}

// String writes the action as a sheet does: "SAIL N2", "LAND N4".
func (a NavyAction) String() string {
	switch a.Act {
	case ActOut:
		if a.Lane != "" {
			return "OUT " + a.Lane
		}
		return "OUT"
	case ActSail:
		return "SAIL " + a.Lane
	case ActIn:
		return "IN " + a.Province
	case ActEmbark:
		return "EMBARK " + string(a.Army)
	case ActLand:
		return "LAND " + string(a.Army)
	}
	return a.Act
}

// NavyOrders are a navy's actions for the phase, in order.
type NavyOrders struct {
	engine.At
	Navy    game.ForceID
	Actions []NavyAction
}

// Kind returns "navy".
func (NavyOrders) Kind() string { return "navy" }

const secNavy = "004 Naval Considerations"

var navyOrderKinds = []OrderKind{
	{Keyword: "navy", Turn: PhaseTurn, Step: "organisation", Section: secNavy, Zero: NavyOrders{}, Legal: legalNavy, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(NavyOrders).Navy, "navy") }, apply: applyNavy},
}

// actionCost is how many of the four actions an action takes: one, or for
// embarking and landing one per 20AP at a friendly port, 10AP elsewhere
// ("Couriers and HQ do not count as an AP for loading purposes").
func actionCost(s *Situation, at NavyPlace, load int) int {
	per := s.Rules.Navies.BeachLoad
	if at.InPort() && s.friendly(at.Province) {
		per = s.Rules.Navies.PortLoad
	}
	if load <= per || per <= 0 {
		return 1
	}
	return (load + per - 1) / per
}

// legalNavy walks the actions from where the navy is: each must be
// possible where the one before leaves it, within four actions and the
// navy's 20AP.
func legalNavy(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(NavyOrders)
	nv := s.Navy(x.Navy)
	if nv == nil {
		if s.Army(x.Navy) != nil {
			return refusal("army-not-navy", string(x.Navy), "Give armies MOVE orders; they go to sea with NAVY … EMBARK.", "%s is an army, not a navy", x.Navy)
		}
		return nil
	}
	if len(x.Actions) == 0 {
		return refusal("no-actions", string(x.Navy), "List its actions: OUT, SAIL lane, IN province, EMBARK army, LAND army.", "no actions for %s", x.Navy)
	}
	at := nv.At
	used := 0
	load := 0
	aboard := map[game.ForceID]bool{}
	for _, a := range s.Armies() {
		if a.Aboard == nv.ID {
			load += s.Rules.Costs.Load(a.Stands)
			aboard[a.ID] = true
		}
	}
	for i, act := range x.Actions {
		cost := 1
		var r *engine.Refusal
		switch act.Act {
		case ActOut:
			at, r = navyOut(s, nv.ID, at, act)
		case ActSail:
			at, r = navySail(s, nv.ID, at, act)
		case ActIn:
			at, r = navyIn(s, nv.ID, at, act)
		case ActEmbark, ActLand:
			a := s.Army(act.Army)
			switch {
			case a == nil:
				r = refusal("no-force", string(act.Army), "Name one of your armies.", "you have no army %s", act.Army)
			case at.Province == "":
				r = refusal("at-sea", string(act.Army), "Go IN to a port or coast first.", "%s is at sea in %s: armies embark and land in a port or off a coast", nv.ID, at.Lane)
			case act.Act == ActEmbark && (aboard[a.ID] || a.Aboard != ""):
				r = refusal("aboard", string(a.ID), "", "%s is aboard %s already", a.ID, a.Aboard)
			case act.Act == ActEmbark && a.At != at.Province:
				r = refusal("not-there", string(a.ID), "The army must stand in the province the navy lies at.", "%s is in %s, not %s", a.ID, a.At, at.Province)
			case act.Act == ActEmbark && load+s.Rules.Costs.Load(a.Stands) > s.Rules.Navies.Capacity:
				r = refusal("too-heavy", string(a.ID), "Detach part of the army, or use two navies.",
					"%s is worth %dAP aboard and %s carries %dAP already: \"A single navy can transport up to %dAP worth of units\" (%s)",
					a.ID, s.Rules.Costs.Load(a.Stands), nv.ID, load, s.Rules.Navies.Capacity, secNavy)
			case act.Act == ActLand && !aboard[a.ID]:
				r = refusal("not-aboard", string(a.ID), "Embark it first.", "%s is not aboard %s", a.ID, nv.ID)
			default:
				l := s.Rules.Costs.Load(a.Stands)
				cost = actionCost(s, at, l)
				if act.Act == ActEmbark {
					aboard[a.ID] = true
					load += l
				} else {
					delete(aboard, a.ID)
					load -= l
				}
			}
		default:
			r = refusal("bad-action", act.Act, "Write OUT, SAIL lane, IN province, EMBARK army or LAND army.", "no navy action %q", act.Act)
		}
		if r != nil {
			return r
		}
		used += cost
		if used > s.Rules.Navies.Actions {
			return refusal("too-many-actions", act.String(), "Give the rest next phase.",
				"%s would take %d actions by its action %d (%s): \"Navies can take four actions per phase\" (%s)", nv.ID, used, i+1, act, secNavy)
		}
	}
	return nil
}

// navyOut: from a port or coast out into its lane.
func navyOut(s *Situation, id game.ForceID, at NavyPlace, act NavyAction) (NavyPlace, *engine.Refusal) {
	if at.AtSea() {
		return at, refusal("at-sea", "OUT", "Write SAIL to enter another lane.", "%s is at sea in %s already", id, at.Lane)
	}
	lane := act.Lane
	coast := s.Map.Coast(at.Province)
	if at.Lane != "" && lane == "" {
		lane = at.Lane
	}
	if lane == "" {
		if len(coast) != 1 {
			return at, refusal("which-lane", "OUT", "Write OUT and the lane: "+orList(coast)+".", "%s touches %d lanes", at.Province, len(coast))
		}
		lane = coast[0]
	}
	if !slices.Contains(coast, lane) {
		return at, refusal("not-coast", lane, "Go out into "+orList(coast)+".", "%s's coast does not touch %s", at.Province, lane)
	}
	if r := frozenRefusal(s, lane); r != nil {
		return at, r
	}
	return NavyPlace{Lane: lane}, nil
}

// navySail: "Enter a new ocean province".
func navySail(s *Situation, id game.ForceID, at NavyPlace, act NavyAction) (NavyPlace, *engine.Refusal) {
	if _, ok := s.Map.Lane(act.Lane); !ok {
		return at, refusal("no-lane", act.Lane, "Name a sea lane of the map.", "no sea lane %s", act.Lane)
	}
	if !at.AtSea() {
		return at, refusal("in-port", act.Lane, "Write OUT first: \"consider the ports and coastlines as a separate sea-lane that can only be entered via the adjacent ocean space\".",
			"%s is %s, not at sea", id, at)
	}
	if !s.Map.Linked(at.Lane, act.Lane) {
		return at, refusal("not-linked", act.Lane, "Sail into "+orList(s.Map.LaneNeighbors(at.Lane))+".", "%s is not linked to %s", act.Lane, at.Lane)
	}
	if r := frozenRefusal(s, act.Lane); r != nil {
		return at, r
	}
	return NavyPlace{Lane: act.Lane}, nil
}

// navyIn: from a lane into a port (own, allied or unclaimed) or off a
// coast; a hostile port is approached off its coast ("landing at besieged
// port provinces").
func navyIn(s *Situation, id game.ForceID, at NavyPlace, act NavyAction) (NavyPlace, *engine.Refusal) {
	p, ok := s.Map.Province(act.Province)
	if !ok {
		return at, refusal("no-province", act.Province, "Name a coastal province.", "no province %s", act.Province)
	}
	if !at.AtSea() {
		return at, refusal("not-at-sea", act.Province, "Write OUT first.", "%s is %s, not at sea", id, at)
	}
	if !s.Map.Touches(p.ID, at.Lane) {
		return at, refusal("not-coast", p.ID, "Go in to a province on "+at.Lane+": "+orList(s.Map.CoastsOn(at.Lane))+".", "%s's coast does not touch %s", p.ID, at.Lane)
	}
	c := s.Province(p.ID).Controller
	if p.Kind == Port && (c == game.Neutral || !s.Hostile(c)) {
		return NavyPlace{Province: p.ID}, nil
	}
	return NavyPlace{Province: p.ID, Lane: at.Lane}, nil
}

// frozenRefusal: "Navies cannot enter these sea lanes in Early Spring or
// Late Autumn."
func frozenRefusal(s *Situation, lane string) *engine.Refusal {
	l, ok := s.Map.Lane(lane)
	if ok && l.Frozen && s.Rules.Frozen.IsClosed(s.Phase) {
		return refusal("frozen", lane, "Wait for the thaw, or go round by open water.",
			"%s is frozen in %s: \"Navies cannot enter these sea lanes in Early Spring or Late Autumn\" (%s)", lane, s.Phase, s.Rules.Frozen.Rule)
	}
	return nil
}

func applyNavy(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(NavyOrders)
	t.planNavy(x, tick)
}

// String shows a navy's orders as a sheet writes them.
func (x NavyOrders) String() string {
	s := "NAVY " + string(x.Navy)
	for i, a := range x.Actions {
		if i > 0 {
			s += ","
		}
		s += " " + a.String()
	}
	return s
}

var _ fmt.Stringer = NavyOrders{}
