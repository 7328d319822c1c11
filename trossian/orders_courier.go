package trossian

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// SendCourier sends a courier from the King's seat to one of his forces
// away from it, carrying orders: "[Kings] are assumed to remain inside
// their capital city, and shall direct their generals via messages sent by
// couriers." The orders are carried out when the courier arrives, by the
// force it rides to and any of the kingdom's forces with it then. Via are
// places (provinces or lanes) to ride through first; ID is the courier's,
// set by the engine (the checker foretells it).
type SendCourier struct {
	engine.At
	To      game.ForceID
	Via     []string     `json:",omitempty"`
	Carries OrderList    `json:",omitempty"`
	ID      game.ForceID `json:",omitempty"`
}

// Kind returns "courier".
func (SendCourier) Kind() string { return "courier" }

const secCouriers = "004 Messengers"

var courierOrderKinds = []OrderKind{
	{Keyword: "courier", Turn: PhaseTurn, Step: "movement", Section: secCouriers, Zero: SendCourier{}, Legal: legalCourier,
		Subject: func(o engine.Order) (game.ForceID, string) { return o.(SendCourier).To, "" }},
}

// TargetPlace is where a force is for a courier: an army's province (or
// its navy's place), a navy's province or lane.
func (s *Situation) TargetPlace(id game.ForceID) (CourierPlace, bool) {
	if a := s.Army(id); a != nil {
		if a.Aboard != "" {
			if n := s.Navy(a.Aboard); n != nil {
				return navyCourierPlace(n.At), true
			}
		}
		return CourierPlace{Province: a.At}, true
	}
	if n := s.Navy(id); n != nil {
		return navyCourierPlace(n.At), true
	}
	return CourierPlace{}, false
}

func navyCourierPlace(p NavyPlace) CourierPlace {
	if p.AtSea() {
		return CourierPlace{Lane: p.Lane}
	}
	return CourierPlace{Province: p.Province}
}

// legalCourier: a courier waits at the seat, the force is the kingdom's and
// away from the seat, and every order it carries is for that force or one
// with it, and of a kind a courier carries.
func legalCourier(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(SendCourier)
	if s.Seat == "" {
		return refusal("no-seat", string(x.To), "", "your King holds no city to send couriers from")
	}
	if s.IdleCouriers < 1 {
		return refusal("no-courier", string(x.To), "Recruit messengers in winter (BUY 1 messenger), or wait for a courier to ride home.",
			"no courier waits at %s: every one is on the road", s.Seat)
	}
	at, ok := s.TargetPlace(x.To)
	if !ok {
		return refusal("no-force", string(x.To), "Send couriers to your own armies and navies.", "you have no army or navy %s", x.To)
	}
	if at.Province == s.Seat {
		return refusal("at-seat", string(x.To), "Give its orders directly: the King commands the forces at his seat himself.",
			"%s is at %s, your King's seat: it needs no courier", x.To, s.Seat)
	}
	for _, v := range x.Via {
		if _, _, ok := s.Map.Lookup(v); !ok {
			return refusal("no-place", v, "Name provinces or sea lanes of the map.", "no province or lane %s", v)
		}
	}
	if len(x.Carries) == 0 {
		return refusal("no-orders", string(x.To), "Give the orders for "+string(x.To)+" on the sheet: they ride with the courier.",
			"the courier to %s carries no orders", x.To)
	}
	for _, c := range x.Carries {
		k, ok := KindOf(c.Kind())
		if !ok || !k.ByCourier {
			return refusal("not-carried", c.Kind(), "Give it directly on the sheet.", "a courier does not carry %s orders", c.Kind())
		}
		f := SubjectOf(c)
		if f == x.To {
			continue
		}
		if fat, ok := s.TargetPlace(f); !ok || fat != at {
			return refusal("not-with-target", string(f), "Send it its own courier: COURIER TO "+string(f)+".",
				"%s is not with %s, where the courier rides", f, x.To)
		}
	}
	return nil
}
