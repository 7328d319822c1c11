package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// stepYearEndTaxes is "Collecting Taxes" and "Your Capitol City", for each
// nation in ID order:
//
//  1. TEMPORARY CAPITOL orders: a nation that does not hold its capitol names
//     a city it holds as the treasury for new taxes (the first valid order
//     counts; crowns in a former temporary capitol it still holds move with
//     it). A nation that holds its capitol again gets the crowns of its
//     temporary capitol back into the capitol, and the temporary one lapses.
//  2. TREASURY orders: crowns in a captured capitol move to the captor or to
//     another nation ("At the end of the year, however, you may transfer
//     unspent crowns from a captured capitol to yourself or to another
//     player"), before fielding and buying, so the captor may spend them.
//  3. Taxes: each city the nation controls pays its value (100 inland, 200
//     inland on a river, 300 port, 400 port on a river), nothing while
//     besieged, half while masked, half while foreign (not loyal to the
//     nation); both halvings apply together (a quarter). The sum is taken at
//     3/4, rounded down, while the nation does not control its capitol. The
//     crowns go to the capitol, or the temporary capitol; a nation that has
//     lost its capitol and named none gets one named for it (the city it holds
//     with the largest tax value, then the first by name).
//  4. Treaty penalties: 200 crowns for each penalty running against the
//     nation, taken from its treasury (never below 0).
func (t *turn) stepYearEndTaxes() {
	t.temporaryCapitols()
	t.moveTreasuries()
	for _, n := range t.activeNations() {
		t.collectTaxes(n)
	}
	t.payTreatyPenalties()
}

func (t *turn) temporaryCapitols() {
	rule := t.cite("Your Capitol City", "")
	done := map[game.NationID]bool{}
	for _, no := range ordersOfKind[TemporaryCapitol](t) {
		n, o := no.nation, no.o.(TemporaryCapitol)
		nat, _ := t.m.Nation(n)
		mc, ok := t.m.City(o.City)
		switch {
		case done[n]:
			t.ignore(n, o, "", rule, "a temporary capitol is named once a year: the first order counts")
			continue
		case nat == nil:
			t.ignore(n, o, "", rule, "the nation is not on the map")
			continue
		case !ok:
			t.ignore(n, o, "", rule, fmt.Sprintf("there is no city %q", o.City))
			continue
		}
		if cs, ok := t.s.City(nat.Capitol); ok && cs.Controller == n {
			t.ignore(n, o, "", rule, fmt.Sprintf("you hold your capitol %s: a temporary capitol is named only while it is lost", nat.Capitol))
			continue
		}
		if cs, ok := t.s.City(mc.Name); !ok || cs.Controller != n {
			t.ignore(n, o, "", rule, fmt.Sprintf("you do not control %s: \"you may designate another city that you control as a temporary capitol\"", mc.Name))
			continue
		}
		done[n] = true
		ns, _ := t.s.Nation(n)
		old, crowns := Treasury(t.m, t.s, n)
		ns.TemporaryCapitol = mc.Name
		t.emit(&CapitolDesignated{Nation: n, City: mc.Name, By: "order"}, rule, game.AtHex(mc.Hex), to(n), n)
		if old != "" && old != mc.Name && crowns > 0 {
			t.moveCrowns(n, old, -crowns, "treasury moved", "to the temporary capitol "+mc.Name, o.Line, rule)
			t.moveCrowns(n, mc.Name, crowns, "treasury moved", "from the former temporary capitol "+old, o.Line, rule)
		}
	}
	// Regained capitols take back the temporary capitol's crowns.
	for _, n := range t.activeNations() {
		ns, _ := t.s.Nation(n)
		nat, ok := t.m.Nation(n)
		if !ok || ns.TemporaryCapitol == "" {
			continue
		}
		if cs, ok := t.s.City(nat.Capitol); !ok || cs.Controller != n {
			continue
		}
		tmp := ns.TemporaryCapitol
		ns.TemporaryCapitol = ""
		mc, _ := t.m.City(nat.Capitol)
		t.emit(&CapitolDesignated{Nation: n, City: nat.Capitol, By: "regained"}, rule, game.AtHex(mc.Hex), to(n), n)
		if tc, ok := t.s.City(tmp); ok && tc.Controller == n && tc.Treasury > 0 {
			c := tc.Treasury
			t.moveCrowns(n, tmp, -c, "capitol regained", "to "+nat.Capitol, 0, rule)
			t.moveCrowns(n, nat.Capitol, c, "capitol regained", "from the temporary capitol "+tmp, 0, rule)
		}
	}
}

func (t *turn) moveTreasuries() {
	rule := t.cite("Your Capitol City", "")
	for _, no := range ordersOfKind[MoveTreasury](t) {
		n, o := no.nation, no.o.(MoveTreasury)
		if r := legalMoveTreasury(t.situation(n), o); r != nil {
			t.ignore(n, o, "", rule, r.Reason)
			continue
		}
		if _, ok := t.s.Nation(o.To); !ok {
			t.ignore(n, o, "", rule, fmt.Sprintf("nation %q is not in this game", o.To))
			continue
		}
		dest := TreasuryCity(t.m, t.s, o.To)
		if dest == "" {
			t.ignore(n, o, "", rule, fmt.Sprintf("%s holds no treasury city to receive the crowns", o.To))
			continue
		}
		mc, _ := t.m.City(o.From)
		// The crowns are the captor's (TreasuryHolder): they leave its
		// ledger, and enter the receiver's.
		t.moveCrowns(n, mc.Name, -o.Amount, "treasury moved", fmt.Sprintf("to %s's treasury in %s", o.To, dest), o.Line, rule, o.To)
		t.moveCrowns(o.To, dest, o.Amount, "treasury moved", fmt.Sprintf("from the captured treasury in %s, sent by %s", mc.Name, n), o.Line, rule, n)
	}
}

// cityTax is what one city pays its controller n this year, and why it
// pays less than its value.
func cityTax(m *hexmap.Map, r *ruleset.Ruleset, cs *game.CityState, n game.NationID) CityTax {
	mc, _ := m.City(cs.Name)
	tx := r.Taxes
	ct := CityTax{City: cs.Name, Value: tx.Of(mc.Port, mc.River)}
	ct.Paid = ct.Value
	var why []string
	switch cs.Siege {
	case game.Besieged:
		ct.Paid = 0
		why = append(why, "besieged")
	case game.Masked:
		ct.Paid = ct.Paid * tx.MaskedNum / tx.MaskedDen
		why = append(why, "masked")
	}
	if cs.Loyalty != n && cs.Siege != game.Besieged {
		ct.Paid = ct.Paid * tx.ForeignNum / tx.ForeignDen
		why = append(why, "foreign")
	}
	ct.Why = strings.Join(why, ", ")
	return ct
}

// TaxesDue returns the taxes nation n collects at the year-end from the
// cities as they stand in s: each city's part, the sum, and what reaches the
// treasury (3/4 of it, rounded down, while n does not hold its capitol).
// The order checker uses it to show a year-end sheet what it may spend.
func TaxesDue(m *hexmap.Map, r *ruleset.Ruleset, s *State, n game.NationID) TaxesCollected {
	ev := TaxesCollected{Nation: n}
	for i := range s.Cities {
		cs := &s.Cities[i]
		if cs.Controller != n || n == game.Neutral {
			continue
		}
		if _, ok := m.City(cs.Name); !ok {
			continue
		}
		ct := cityTax(m, r, cs, n)
		ev.Cities = append(ev.Cities, ct)
		ev.Gross += ct.Paid
	}
	ev.Collected = ev.Gross
	nat, ok := m.Nation(n)
	if !ok {
		return ev
	}
	if cs, ok := s.City(nat.Capitol); !ok || cs.Controller != n {
		ev.CapitolLost = true
		ev.Collected = ev.Gross * r.Taxes.CapitolLostNum / r.Taxes.CapitolLostDen
	}
	return ev
}

// FundsAtFielding returns the crowns nation n will hold when the year-end's
// fielding begins if no TEMPORARY CAPITOL or TREASURY order changes them:
// the treasury it may spend now (with a temporary capitol's crowns, when
// the real capitol is held again), the taxes due, less the treaty penalties
// (never below 0). The order checker counts year-end spending against it.
func FundsAtFielding(m *hexmap.Map, r *ruleset.Ruleset, s *State, n game.NationID) int {
	_, have := Treasury(m, s, n)
	if nat, ok := m.Nation(n); ok {
		ns, _ := s.Nation(n)
		if cs, ok := s.City(nat.Capitol); ok && cs.Controller == n && ns != nil && ns.TemporaryCapitol != "" && ns.TemporaryCapitol != nat.Capitol {
			if tc, ok := s.City(ns.TemporaryCapitol); ok && tc.Controller == n {
				have += tc.Treasury
			}
		}
	}
	have += TaxesDue(m, r, s, n).Collected
	return max(have-PenaltiesDue(r, s, n), 0)
}

// PenaltiesDue returns the treaty penalties nation n pays at the year-end.
func PenaltiesDue(r *ruleset.Ruleset, s *State, n game.NationID) int {
	k := 0
	for _, tr := range s.Treaties {
		for _, p := range tr.Penalties {
			if p.Offender == n && p.Ended == 0 {
				k++
			}
		}
	}
	return k * r.Taxes.TreatyPenalty
}

func (t *turn) collectTaxes(n game.NationID) {
	rule := t.cite("Collecting Taxes, Buying and Fielding Troops", "")
	if _, ok := t.m.Nation(n); !ok {
		return
	}
	due := TaxesDue(t.m, t.r, t.s, n)
	ev := &due
	if ev.CapitolLost {
		rule = t.cite("Your Capitol City", "")
	}
	city := TreasuryCity(t.m, t.s, n)
	if city == "" && len(ev.Cities) > 0 {
		// No capitol and no temporary capitol: name the best city held.
		best := ev.Cities[0]
		for _, c := range ev.Cities[1:] {
			if c.Value > best.Value {
				best = c
			}
		}
		ns, _ := t.s.Nation(n)
		ns.TemporaryCapitol = best.City
		city = best.City
		mc, _ := t.m.City(city)
		t.emit(&CapitolDesignated{Nation: n, City: city, By: "default"}, t.cite("Your Capitol City", ""), game.AtHex(mc.Hex), to(n), n)
	}
	ev.Treasury = city
	var place game.Place
	if mc, ok := t.m.City(city); ok {
		place = game.AtHex(mc.Hex)
	}
	t.emit(ev, rule, place, to(n), n)
	if city != "" {
		t.moveCrowns(n, city, ev.Collected, "taxes", "taxes of "+english.Count(len(ev.Cities), "city"), 0, rule)
	}
}

// payTreatyPenalties takes the yearly penalty for each breach still running
// ("he will suffer a penalty of 200 tax points per year until the aggrieved
// party agrees to end the penalty").
func (t *turn) payTreatyPenalties() {
	rule := t.cite("Public Treaties", "")
	type due struct {
		n         game.NationID
		treaty    string
		aggrieved game.NationID
	}
	var all []due
	for _, tr := range t.s.Treaties {
		for _, p := range tr.Penalties {
			if p.Ended == 0 {
				all = append(all, due{p.Offender, tr.ID, p.Aggrieved})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b due) int { return cmpStr(string(a.n), string(b.n)) })
	for _, d := range all {
		if ns, ok := t.s.Nation(d.n); !ok || ns.Eliminated {
			continue
		}
		city, have := Treasury(t.m, t.s, d.n)
		amount := min(have, t.r.Taxes.TreatyPenalty)
		what := fmt.Sprintf("%s breached against %s", d.treaty, d.aggrieved)
		if amount < t.r.Taxes.TreatyPenalty {
			what += fmt.Sprintf(" (%d due, the treasury held %d)", t.r.Taxes.TreatyPenalty, have)
		}
		if city == "" || amount == 0 {
			continue
		}
		t.moveCrowns(d.n, city, -amount, "treaty penalty", what, 0, rule)
	}
}
