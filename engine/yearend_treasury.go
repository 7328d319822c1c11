package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// Treasuries ("Your Capitol City"): "Unspent tax points are stored in your
// capitol … If you lose your capitol you may designate another city that you
// control as a temporary capitol to act as the treasury for new taxes you
// collect until you regain your real capitol. A capitol city's treasury is
// immobile during the game-year." The crowns lie in game.CityState.Treasury
// of the city that holds them.

// yearEndOrder is a year-end order with its nation, as the orders step
// sorted it.
type yearEndOrder = nationOrder

// ordersOfKind returns the sanitised orders of type T, in nation order then
// sheet order: those filed for the step its kind names in the registry
// (OrderKind.Step, orders_yearend.go). The year-end steps (and the repairs
// step) read their orders through it, and so take charge of them.
func ordersOfKind[T Order](t *turn) []yearEndOrder {
	var zero T
	k, ok := KindOf(zero.Kind())
	if !ok {
		return nil
	}
	step := k.Step
	if t.yearEnd && k.YearEndStep != "" {
		step = k.YearEndStep
	}
	return t.legalOrdersFor(step, k.Keyword)
}

// TreasuryCity returns the city whose treasury a nation spends from and
// collects into: its capitol while it controls it, else its temporary
// capitol while it controls that; "" when it has neither.
func TreasuryCity(m *hexmap.Map, s *State, n game.NationID) string {
	nat, ok := m.Nation(n)
	if !ok {
		return ""
	}
	if cs, ok := s.City(nat.Capitol); ok && cs.Controller == n {
		return nat.Capitol
	}
	if ns, ok := s.Nation(n); ok && ns.TemporaryCapitol != "" {
		if cs, ok := s.City(ns.TemporaryCapitol); ok && cs.Controller == n {
			return ns.TemporaryCapitol
		}
	}
	return ""
}

// Treasury returns the crowns a nation may spend and the city they lie in.
func Treasury(m *hexmap.Map, s *State, n game.NationID) (string, int) {
	c := TreasuryCity(m, s, n)
	if cs, ok := s.City(c); ok {
		return c, cs.Treasury
	}
	return "", 0
}

// TaxBase is a nation's tax base: the sum of the tax values of the cities
// it controls, at full value (docs/rules-notes.md §Tax base). Each nation
// starts with its home cities' 1600.
func TaxBase(m *hexmap.Map, r *ruleset.Ruleset, s *State, n game.NationID) int {
	sum := 0
	for _, cs := range s.Cities {
		if cs.Controller != n || n == game.Neutral {
			continue
		}
		if mc, ok := m.City(cs.Name); ok {
			sum += r.Taxes.Of(mc.Port, mc.River)
		}
	}
	return sum
}

// funds returns the crowns a nation may spend now.
func (t *turn) funds(n game.NationID) int {
	_, c := Treasury(t.m, t.s, n)
	return c
}

// moveCrowns adds change crowns (negative: takes them) to the treasury in
// city, for nation n, and records why.
func (t *turn) moveCrowns(n game.NationID, city string, change int, why, what string, line int, rule string, also ...game.NationID) {
	if _, ok := t.m.City(city); !ok || change == 0 {
		return
	}
	cs := t.cityState(city)
	if cs == nil {
		return
	}
	before := cs.Treasury
	cs.Treasury += change
	var place game.Place
	if mc, ok := t.m.City(city); ok {
		place = game.AtHex(mc.Hex)
	}
	viewers := append([]game.NationID{n}, also...)
	t.emit(&TreasuryChanged{Nation: n, City: city, Before: before, Change: change, After: cs.Treasury, Why: why, What: what, Line: line},
		rule, place, to(viewers...), viewers...)
}

// pay takes cost crowns from the nation's treasury if it holds them, and
// reports whether it did.
func (t *turn) pay(n game.NationID, cost int, why, what string, line int, rule string) bool {
	city, have := Treasury(t.m, t.s, n)
	if cost > have || (cost > 0 && city == "") {
		return false
	}
	t.moveCrowns(n, city, -cost, why, what, line, rule)
	return true
}

// cannotPay is the reason given for a year-end order the treasury cannot
// pay.
func (t *turn) cannotPay(n game.NationID, cost int) string {
	held := t.treasuryHeld(n)
	if city, _ := Treasury(t.m, t.s, n); city == "" {
		return fmt.Sprintf("it costs %s and %s", english.Count(cost, "crown"), held)
	}
	return fmt.Sprintf("it costs %s and %s: orders are paid in sheet order, fielding before buying, and an order the treasury cannot pay is refused whole", english.Count(cost, "crown"), held)
}

// treasuryHeld says what a nation's treasury holds, for the reason of an
// order it cannot pay: "the treasury in Altburg holds 30".
func (t *turn) treasuryHeld(n game.NationID) string {
	city, have := Treasury(t.m, t.s, n)
	if city == "" {
		return "you hold no treasury (neither your capitol nor a temporary capitol)"
	}
	return fmt.Sprintf("the treasury in %s holds %d", city, have)
}

// nations returns the nations in the game that are not eliminated, sorted.
func (t *turn) activeNations() []game.NationID {
	var out []game.NationID
	for _, ns := range t.s.Nations {
		if !ns.Eliminated {
			out = append(out, ns.ID)
		}
	}
	return out
}
