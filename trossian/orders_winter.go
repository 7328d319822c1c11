package trossian

import (
	"fmt"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Buy recruits stands, navies and messengers in winter, placed in a city
// the kingdom holds: "troops are replenished over the winter months and
// appear in any controlled city province at the start of the Early
// Spring". One new army per city takes the stands (its ID set by the
// engine); navies lie in the city's port; messengers join the couriers at
// the King's seat.
type Buy struct {
	engine.At
	City       string
	Stands     Stands `json:",omitempty"`
	Navies     int    `json:",omitempty"`
	Messengers int    `json:",omitempty"`
}

// Bank places unspent AP in a city: "AP not spent must be banked at a
// player's controlled cities."
type Bank struct {
	engine.At
	AP   int
	City string
}

// Kind returns "buy".
func (Buy) Kind() string { return "buy" }

// Kind returns "bank".
func (Bank) Kind() string { return "bank" }

const secRecruiting = "004 Recruiting"

var winterOrderKinds = []OrderKind{
	{Keyword: "bank", Turn: WinterTurn, Step: "banking", Section: secRecruiting, Zero: Bank{}, Legal: legalBank, Subject: noSubject},
	{Keyword: "buy", Turn: WinterTurn, Step: "purchases", Section: secRecruiting, Zero: Buy{}, Legal: legalBuy, Subject: noSubject},
}

func noSubject(engine.Order) (game.ForceID, string) { return "", "" }

// Cost returns what a purchase costs in AP, and the first thing in it that
// has no price.
func (x Buy) Cost(r *Rules) (int, string) {
	n := x.Navies*r.Costs.Navy + x.Messengers*r.Costs.Messenger
	for _, s := range x.Stands {
		c, ok := r.Costs.Unit[s.Type]
		if !ok || s.Guard {
			return 0, s.Label()
		}
		n += c * s.Count
	}
	return n, ""
}

// legalBuy: a priced purchase in a city the kingdom holds (its capital
// only, where the ruleset reads "will spawn in his capital city"), a
// navy's port with room, within the kingdom's census. Paying is the
// purchases step's (and the checker's running total).
func legalBuy(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Buy)
	p, ok := s.Map.Province(x.City)
	if !ok {
		return refusal("no-province", x.City, "Name one of your towns or ports.", "no province %s", x.City)
	}
	if x.Stands.Total() == 0 && x.Navies == 0 && x.Messengers == 0 {
		return refusal("nothing", x.City, "List what to buy, e.g. BUY 2 line-infantry, 1 hq AT "+x.City+".", "a purchase of nothing")
	}
	if _, bad := x.Cost(s.Rules); bad != "" {
		return refusal("no-price", bad, "Buy hq, light-infantry, line-infantry, heavy-infantry, light-cavalry, heavy-cavalry, foot-artillery, messengers or navies.",
			"%s cannot be bought: it is not in 004's troop costs (%s)", bad, secRecruiting)
	}
	if !p.Kind.IsCity() {
		return refusal("not-city", x.City, "Recruit in a town or port.", "%s is open country: recruits \"appear in any controlled city province\" (%s)", x.City, secRecruiting)
	}
	if s.Province(x.City).Controller != s.Nation {
		return refusal("not-yours", x.City, "Recruit in a city you hold.", "you do not hold %s", x.City)
	}
	if s.Rules.Recruits.At == RecruitCapital && x.City != s.Map.Capital(s.Nation) && x.Stands.Total() > 0 {
		return refusal("not-capital", x.City, "Recruit troops at "+s.Map.Capital(s.Nation)+".",
			"troops bought \"will spawn in his capital city\" (004 Timing and Scale): %s is not your capital", x.City)
	}
	if x.Navies > 0 {
		if p.Kind != Port {
			return refusal("not-port", x.City, "Build navies in a port you hold.", "%s is not a port", x.City)
		}
		if room := s.Rules.Navies.PortCapacity - s.NaviesInPort(x.City); x.Navies > room {
			return refusal("port-full", fmt.Sprint(x.Navies), "Build them in another port.",
				"%s has room for %d more navies: \"Each port can hold a maximum of two navies\" (%s)", x.City, max(room, 0), secNavy)
		}
	}
	if s.Rules.Recruits.Census {
		owned := s.Owned()
		for _, st := range x.Stands {
			if have, limit := owned.Count(st.Type)+st.Count, s.Census.Count(st.Type); have > limit {
				return refusal("census", st.Label(), fmt.Sprintf("Your census allows %d %s; you have %d.", limit, st.Type, owned.Count(st.Type)),
					"%d %s would exceed your census of %d: \"no force can march with more units than those detailed on the Nations Page\" (004 Timing and Scale)",
					have, st.Type, limit)
			}
		}
	}
	return nil
}

// legalBank: AP banked in a city the kingdom holds and that is not under
// siege.
func legalBank(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Bank)
	p, ok := s.Map.Province(x.City)
	switch {
	case !ok:
		return refusal("no-province", x.City, "Name one of your towns or ports.", "no province %s", x.City)
	case x.AP < 1:
		return refusal("no-ap", fmt.Sprint(x.AP), "Bank a number of AP.", "banking %d AP", x.AP)
	case !p.Kind.IsCity():
		return refusal("not-city", x.City, "Bank AP in a town or port.", "%s is open country: \"AP not spent must be banked at a player's controlled cities\" (%s)", x.City, secRecruiting)
	case s.Province(x.City).Controller != s.Nation:
		return refusal("not-yours", x.City, "Bank AP in a city you hold.", "you do not hold %s", x.City)
	case s.Province(x.City).Siege != nil:
		return refusal("besieged", x.City, "Bank in a city that is not besieged.", "%s is under siege", x.City)
	}
	return nil
}
