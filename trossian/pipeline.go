package trossian

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The pipeline: a turn is a fixed list of named steps, each a function of
// the working turn that emits events, each carrying out one rule of 004.
//
// A campaign phase (Early Spring … Late Autumn: "each phase lasts
// approximately one month"):
//
//  1. orders        — every sheet checked for its kingdom and turn, every
//     order for its kind and turn; an order for a force at the King's seat
//     is carried out at once, one for a force away from it only if a
//     courier carries it ("shall direct their generals via messages sent by
//     couriers"); winter orders filed for their steps.
//  2. rulings       — the referee's rulings (a chance card's effect, false
//     plans, alliances).
//  3. chance-cards  — the year's chance cards rolled if not yet ("At the
//     start of every game year, the umpire will roll 1d10 for each
//     nation"), the cards falling on this turn told.
//  4. frozen-lanes  — in Late Autumn, navies in the frozen lanes are lost
//     ("Navies that are present in these lanes in Late Autumn are presumed
//     lost at sea with all hands"; the reading: as it begins).
//  5. organisation  — the orders given at the seat, at tick 0: marches,
//     stances, tasks, detachments, merges, navies' actions.
//  6. movement      — one 12-tick clock for couriers ("four provinces per
//     phase", delivering their orders on arrival), navies ("four actions per
//     phase"), and armies ("Infantry and artillery move one province per
//     phase; Mounted move two"; "An entire move along a road adds one
//     province"); hostile armies meeting; navies meeting ("When two navies
//     occupy the same sea space, a battle will ensue").
//  7. battles       — each battle's tabletop result applied by the
//     post-battle sequence; a battle without one stops the turn
//     (Result.Awaiting).
//  8. sieges        — cities besieged, their sieges counted and taken
//     ("Ports do not count as besieged unless an enemy navy occupies the
//     adjacent sea lane").
//  9. pacification  — open country pacified ("20AP worth of troops must
//     spend a full phase").
//  10. leaderless   — armies that lost their last HQ hunker down or march
//     home.
//  11. frozen-lanes-end — the same as 4 when the reading is "end".
//  12. end-of-phase — the next turn.
//
// Winter quarters ("After the Late Autumn turn ends, the armies must go
// into winter quarters"): orders, rulings, winter-quarters (navies home,
// sieges through the winter), income ("A national treasury receives AP
// after the Late Autumn"), purchases, banking, chance-cards (next year's),
// end-of-phase.
var phaseSteps = []pipelineStep{
	{"orders", (*turn).stepOrders},
	{"rulings", (*turn).stepRulings},
	{"chance-cards", (*turn).stepChanceDue},
	{"frozen-lanes", (*turn).stepFrozenStart},
	{"organisation", (*turn).stepOrganisation},
	{"movement", (*turn).stepMovement},
	{"battles", (*turn).stepBattles},
	{"sieges", (*turn).stepSieges},
	{"pacification", (*turn).stepPacification},
	{"leaderless", (*turn).stepLeaderless},
	{"frozen-lanes-end", (*turn).stepFrozenEnd},
	{"end-of-phase", (*turn).stepEndOfPhase},
}

var winterSteps = []pipelineStep{
	{"orders", (*turn).stepOrders},
	{"rulings", (*turn).stepRulings},
	{"winter-quarters", (*turn).stepWinterQuarters},
	{"income", (*turn).stepIncome},
	{"purchases", (*turn).stepPurchases},
	{"banking", (*turn).stepBanking},
	{"chance-cards", (*turn).stepChanceRoll},
	{"end-of-phase", (*turn).stepEndOfPhase},
}

const secTiming = "004 Timing and Scale"

// stepOrders sanitises the sheets: the kingdom and turn, each order's kind
// and turn, once-a-turn kinds, the force's owner, and whether a courier is
// needed; every order refused is reported.
func (t *turn) stepOrders() {
	for _, sheet := range sortedSheets(t.in.Orders) {
		n := sheet.Nation
		ns, ok := t.s.Nation(n)
		if !ok || ns.Eliminated {
			continue
		}
		seat := t.seat(n)
		for _, o := range sheet.List {
			if sheet.Turn != t.s.Turn {
				t.ignore(n, o, secTiming, "the sheet is for turn %d; this is turn %d", sheet.Turn, t.s.Turn)
				continue
			}
			k, ok := KindOf(o.Kind())
			if !ok {
				t.ignore(n, o, secTiming, "no order %q in the Trossian campaign", o.Kind())
				continue
			}
			if !k.Given(t.winter) {
				when := "in a campaign phase"
				if k.Turn == WinterTurn {
					when = "in winter quarters"
				}
				t.ignore(n, o, k.Section, "%s is given %s; this is %s", k.Keyword, when, t.s.Calendar.Name(t.s.Turn))
				continue
			}
			if !t.once(n, k, o) {
				continue
			}
			switch {
			case k.Keyword == "courier":
				t.couriers[n] = append(t.couriers[n], o.(SendCourier))
			case k.ByCourier:
				// A force made by an earlier order of the sheet (DETACH) is
				// judged when its order is carried out.
				f := SubjectOf(o)
				if t.owns(n, f) && !t.atSeat(n, f, seat, o) {
					continue
				}
				t.immediate[n] = append(t.immediate[n], o)
			default:
				t.filed[k.Step] = append(t.filed[k.Step], filedOrder{n, o})
			}
		}
	}
}

// atSeat reports a force at the King's seat; one away from it is refused:
// its orders go by courier.
func (t *turn) atSeat(n game.NationID, f game.ForceID, seat string, o engine.Order) bool {
	if at := t.forcePlace(f); at.Province != seat || seat == "" {
		t.ignore(n, o, secCouriers, "%s is at %s, away from your King's seat %s: its orders go by courier (\"shall direct their generals via messages sent by couriers\")",
			f, at, seatName(seat))
		return false
	}
	return true
}

func seatName(s string) string {
	if s == "" {
		return "(none: your King holds no city)"
	}
	return s
}

// sortedSheets returns the sheets in kingdom order (each kingdom's orders
// in sheet order).
func sortedSheets(in []engine.Orders) []engine.Orders {
	out := append([]engine.Orders(nil), in...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Nation < out[j-1].Nation; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// once keeps the first order of a once-a-turn kind for a force.
func (t *turn) once(n game.NationID, k OrderKind, o engine.Order) bool {
	if !k.Once {
		return true
	}
	_, key := k.Subject(o)
	if key == "" {
		return true
	}
	if t.seen[n] == nil {
		t.seen[n] = map[string]int{}
	}
	if line, dup := t.seen[n][key]; dup {
		t.ignore(n, o, k.Section, "a second %s order for %s: the first, on line %d, counts", k.Keyword, SubjectOf(o), line)
		return false
	}
	t.seen[n][key] = o.SourceLine()
	return true
}

// owns reports a force of the kingdom.
func (t *turn) owns(n game.NationID, f game.ForceID) bool {
	if a, ok := t.s.Army(f); ok {
		return a.Nation == n
	}
	if x, ok := t.s.Navy(f); ok {
		return x.Nation == n
	}
	return false
}

// forcePlace is where a force is for a courier.
func (t *turn) forcePlace(f game.ForceID) CourierPlace {
	if a, ok := t.s.Army(f); ok {
		if a.Aboard != "" {
			if x, ok := t.s.Navy(a.Aboard); ok {
				return navyCourierPlace(x.At)
			}
		}
		return CourierPlace{Province: a.At}
	}
	if x, ok := t.s.Navy(f); ok {
		return navyCourierPlace(x.At)
	}
	return CourierPlace{}
}

// stepOrganisation carries out the orders given at the seat, at tick 0, in
// kingdom then sheet order.
func (t *turn) stepOrganisation() {
	t.startClock()
	for _, n := range t.nationIDs() {
		seat := t.seat(n)
		for _, o := range t.immediate[n] {
			if f := SubjectOf(o); t.owns(n, f) && !t.atSeat(n, f, seat, o) {
				continue
			}
			t.carryOut(n, o, 0)
		}
	}
}

// carryOut checks a force's order now and carries it out at tick.
func (t *turn) carryOut(n game.NationID, o engine.Order, tick int) bool {
	k, _ := KindOf(o.Kind())
	if !t.owns(n, SubjectOf(o)) {
		t.ignore(n, o, k.Section, "you have no army or navy %s now", SubjectOf(o))
		return false
	}
	if !t.legal(n, o) {
		return false
	}
	k.apply(t, n, o, tick)
	return true
}

// nationIDs lists the kingdoms still in the game, sorted.
func (t *turn) nationIDs() []game.NationID {
	var out []game.NationID
	for _, ns := range t.s.Nations {
		if !ns.Eliminated {
			out = append(out, ns.ID)
		}
	}
	return out
}

// stepEndOfPhase ends the turn.
func (t *turn) stepEndOfPhase() {
	for i := range t.s.Nations {
		ns := &t.s.Nations[i]
		if ns.Eliminated {
			continue
		}
		if t.seat(ns.ID) == "" && len(ownedStands(t.s, ns.ID)) == 0 && !t.hasNavy(ns.ID) {
			ns.Eliminated = true
		}
	}
	next := t.s.Turn + 1
	t.emit(&PhaseEnded{Header: t.head(secTiming, "", public()), Turn: t.s.Turn, Next: next, Label: t.s.Calendar.Label(next)})
	t.s.Turn = next
}

func (t *turn) hasNavy(n game.NationID) bool {
	for _, x := range t.s.Navies {
		if x.Nation == n {
			return true
		}
	}
	return false
}
