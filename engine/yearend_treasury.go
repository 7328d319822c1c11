package engine

import (
	"fmt"
	"slices"

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

// TreasuryHolder returns the nation whose treasury the crowns lying in a
// city belong to: the city's controller (Neutral for a city no nation
// holds). A treasury is "immobile during the game-year", so a captured
// capitol's crowns stay where they lie; they are its captor's, who "at the
// end of the year … may transfer unspent crowns from a captured capitol to
// yourself or to another player" (docs/rules-notes.md §Treasuries).
func TreasuryHolder(s *State, city string) game.NationID {
	if cs, ok := s.City(city); ok {
		return cs.Controller
	}
	return game.Neutral
}

// HeldTreasury is the crowns a nation holds in one city.
type HeldTreasury struct {
	City   string
	Crowns int
	// Spendable: the nation's own treasury (capitol or temporary
	// capitol), which pays its orders; a captured one is not, until TREASURY
	// FROM moves its crowns at the year-end.
	Spendable bool `json:",omitempty"`
}

// HeldTreasuries returns the treasuries nation n holds, in the state's
// city order: every city it controls with crowns in it, and its own
// treasury city even when empty. Each crown of the game is in at most one
// nation's list (TreasuryHolder).
func HeldTreasuries(m *hexmap.Map, s *State, n game.NationID) []HeldTreasury {
	if n == game.Neutral {
		return nil
	}
	own := TreasuryCity(m, s, n)
	var out []HeldTreasury
	for _, cs := range s.Cities {
		if cs.Controller != n || cs.Treasury == 0 && cs.Name != own {
			continue
		}
		out = append(out, HeldTreasury{City: cs.Name, Crowns: cs.Treasury, Spendable: cs.Name == own})
	}
	return out
}

// handOver gives a city to nation by (Neutral: to nobody), and with it the
// crowns lying there: the loser's ledger and the captor's each get the
// line (TreasuryChanged, why "treasury captured"), so that every crown
// that changes treasury is counted once on each side. A siege or mask the
// new holder laid is over: the city is its own.
func (t *turn) handOver(cs *game.CityState, by game.NationID, rule string) {
	from := cs.Controller
	cs.Controller = by
	if from != by {
		t.liftOwnSiege(cs)
	}
	if from == by || cs.Treasury == 0 {
		return
	}
	mc, _ := t.m.City(cs.Name)
	place := game.AtHex(mc.Hex)
	crowns := cs.Treasury
	name := func(n game.NationID) string {
		if nat, ok := t.m.Nation(n); ok && nat.Name != "" {
			return nat.Name
		}
		return nationOrNobody(n)
	}
	if from != game.Neutral {
		what := fmt.Sprintf("the %d crowns in %s lost with the city to %s", crowns, cs.Name, name(by))
		t.emit(&TreasuryChanged{Nation: from, City: cs.Name, Before: crowns, Change: -crowns, After: 0, Why: "treasury captured", What: what},
			rule, place, to(from), from)
	}
	if by != game.Neutral {
		what := fmt.Sprintf("the %d crowns in %s taken with the city from %s: immobile until the year-end, when TREASURY FROM %s moves them", crowns, cs.Name, name(from), cs.Name)
		t.emit(&TreasuryChanged{Nation: by, City: cs.Name, Before: 0, Change: crowns, After: crowns, Why: "treasury captured", What: what},
			rule, place, to(by), by)
	}
}

// liftOwnSiege ends the siege of a city that changed hands when its new
// holder was among the besiegers: the others stay before it (the sieges
// step judges them next turn).
func (t *turn) liftOwnSiege(cs *game.CityState) {
	for i := range t.s.Sieges {
		sg := &t.s.Sieges[i]
		if sg.City != cs.Name {
			continue
		}
		sg.Besiegers = slices.DeleteFunc(sg.Besiegers, func(n game.NationID) bool { return n == cs.Controller })
		if len(sg.Besiegers) == 0 {
			t.s.Sieges = slices.Delete(t.s.Sieges, i, i+1)
			cs.Siege = game.NotBesieged
		}
		return
	}
	if cs.Siege != game.NotBesieged && cs.Controller != game.Neutral {
		// No siege is recorded: nobody sits before the city.
		cs.Siege = game.NotBesieged
	}
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

// taxBases returns every nation's TaxBase in one pass over the cities.
func taxBases(m *hexmap.Map, r *ruleset.Ruleset, s *State) map[game.NationID]int {
	out := map[game.NationID]int{}
	for _, cs := range s.Cities {
		if cs.Controller == game.Neutral {
			continue
		}
		if mc, ok := m.City(cs.Name); ok {
			out[cs.Controller] += r.Taxes.Of(mc.Port, mc.River)
		}
	}
	return out
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
