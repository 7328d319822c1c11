package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// The registry of order kinds. Each kind lives in one file with its family
// (orders_land.go, orders_organisation.go, orders_siege.go, orders_sea.go,
// orders_yearend.go): its type, its Kind method, its legality function and
// its OrderKind entry. The codec (ordercodec.go), the sanitise step
// (sanitise.go) and the parser's checker read this registry; nothing else
// lists the kinds. TestOrderKindRegistry (engine) and TestOrderKindsComplete
// (parser) fail if a kind lacks a step, a legality check, a grammar entry, a
// formatter or an example in docs/orders.md.

// TurnKind says on which turns an order may be given.
type TurnKind uint8

// The turn kinds.
const (
	MonthlyTurn TurnKind = 1 << iota
	YearEndTurn
	AnyTurn = MonthlyTurn | YearEndTurn
)

// OrderKind is one entry of the registry.
type OrderKind struct {
	// Keyword is the order's kind: Order.Kind() and the "kind" of its JSON
	// envelope.
	Keyword string
	// Turn says whether it is given on monthly turns, at the year-end, or
	// both.
	Turn TurnKind
	// Step is the pipeline step that carries it out on a monthly turn (for
	// a year-end-only kind: at the year-end); YearEndStep, for kinds given
	// on both kinds of turn, the year-end step.
	Step, YearEndStep string
	// Section and Para are where the rulebook has the kind's rules: its
	// events cite them ("1752 Sieges ¶Assaults").
	Section, Para string
	// Zero is the order's zero value, for the codec.
	Zero Order
	// Legal is the order's legality check, shared by the engine (at the
	// step, against the state as it then stands) and the order checker
	// (against the nation's View and the sheet's earlier orders): nil when
	// legal, else why not. It judges an order whose forces the caller has
	// found (a missing force is each caller's own message).
	Legal func(s *Situation, o Order) *Refusal
	// apply carries out an order filed for the organisation step (the
	// other steps read their orders with ordersFor); it returns the force
	// whose standing orders changed, if any. nil for kinds of other steps.
	apply func(t *turn, n game.NationID, o Order) game.ForceID
	// Once: a force (fleet, city) may be given one order of the kind a turn;
	// Subject names it.
	Once bool
	// Subject returns what the order is for: the force or fleet it names
	// (if any) and the key a once-a-turn order is counted by.
	Subject func(o Order) (force game.ForceID, key string)
}

// StepFor returns the step that carries the kind out on a monthly or a
// year-end turn ("" if it is not given on that kind of turn).
func (k OrderKind) StepFor(yearEnd bool) string {
	switch {
	case yearEnd && k.Turn&YearEndTurn == 0, !yearEnd && k.Turn&MonthlyTurn == 0:
		return ""
	case yearEnd && k.YearEndStep != "":
		return k.YearEndStep
	}
	return k.Step
}

// orderKindRegistry is every kind, sorted by keyword: the families' lists.
var orderKindRegistry = func() []OrderKind {
	var all []OrderKind
	for _, fam := range [][]OrderKind{landOrderKinds, organisationOrderKinds, siegeOrderKinds, seaOrderKinds, yearEndOrderKinds} {
		all = append(all, fam...)
	}
	slices.SortFunc(all, func(a, b OrderKind) int { return cmpStr(a.Keyword, b.Keyword) })
	return all
}()

// Kinds returns the registry, sorted by keyword.
func Kinds() []OrderKind { return slices.Clone(orderKindRegistry) }

// KindOf returns the registry entry of an order kind.
func KindOf(keyword string) (OrderKind, bool) {
	i, ok := slices.BinarySearchFunc(orderKindRegistry, keyword, func(k OrderKind, kw string) int { return cmpStr(k.Keyword, kw) })
	if !ok {
		return OrderKind{}, false
	}
	return orderKindRegistry[i], true
}

// OrderKinds lists the order keywords, sorted.
func OrderKinds() []string {
	out := make([]string, len(orderKindRegistry))
	for i, k := range orderKindRegistry {
		out[i] = k.Keyword
	}
	return out
}

// Situation is what a legality check reads: the map, the rules, one nation
// and its own forces as they stand at the moment of the check. The engine
// builds it from its working state (turn.situation); the order checker from
// the nation's View (SituationFromView) with its shadow of the forces as the
// sheet's earlier orders leave them. Nothing in it is another nation's
// secret, so a legality check cannot leak one.
type Situation struct {
	Map    *hexmap.Map
	Rules  *ruleset.Ruleset
	Nation game.NationID
	// Own returns the nation's force or fleet of that ID as it stands now,
	// nil if the nation has none.
	Own func(game.ForceID) *game.Force
	// All returns the nation's forces as they stand now, in canonical order.
	All func() []*game.Force
	// City returns a city's public state (a city the state does not list is
	// free; its treasury is known only for the cities the nation holds).
	City func(name string) game.CityState
	// Treasury is the city whose treasury the nation spends from and
	// collects into (TreasuryCity): "" when it has none.
	Treasury string
}

// leaderForce returns the nation's force that holds a leader, and the
// leader; nil if none.
func (s *Situation) leaderForce(id string) (*game.Force, *game.Leader) {
	for _, f := range s.All() {
		for i := range f.Leaders {
			if f.Leaders[i].ID == id {
				return f, &f.Leaders[i]
			}
		}
	}
	return nil, nil
}

// placeLabel names a place for people: "sea area N3", or the hex with its
// city.
func placeLabel(m *hexmap.Map, p game.Place) string {
	if p.IsSea() {
		return "sea area " + string(p.Sea)
	}
	return m.HexLabel(p.Hex)
}

// SituationFromView builds a Situation from a nation's View; own, when not
// nil, overrides the View's forces (the checker's shadow).
func SituationFromView(m *hexmap.Map, rules *ruleset.Ruleset, v *NationView, own func() []*game.Force) *Situation {
	if own == nil {
		own = func() []*game.Force {
			out := make([]*game.Force, len(v.Own))
			for i := range v.Own {
				out[i] = &v.Own[i]
			}
			return out
		}
	}
	s := &Situation{Map: m, Rules: rules, Nation: v.Nation, All: own}
	// TreasuryCity as the View shows it: the capitol while held, else the
	// temporary capitol while held.
	held := func(name string) bool {
		return name != "" && slices.ContainsFunc(v.Cities, func(c CityView) bool { return c.Name == name && c.Controller == v.Nation })
	}
	if nat, ok := m.Nation(v.Nation); ok && held(nat.Capitol) {
		s.Treasury = nat.Capitol
	} else if held(v.TemporaryCapitol) {
		s.Treasury = v.TemporaryCapitol
	}
	s.Own = func(id game.ForceID) *game.Force {
		for _, f := range s.All() {
			if f.ID == id {
				return f
			}
		}
		return nil
	}
	s.City = func(name string) game.CityState {
		for _, c := range v.Cities {
			if c.Name == name {
				return game.CityState{Name: c.Name, Controller: c.Controller, Loyalty: c.Loyalty, Siege: c.Siege, Breaches: c.Breaches, Treasury: c.Treasury}
			}
		}
		return game.CityState{Name: name}
	}
	return s
}

// situation is the engine's Situation of nation n now.
func (t *turn) situation(n game.NationID) *Situation {
	return &Situation{Map: t.m, Rules: t.r, Nation: n, Treasury: TreasuryCity(t.m, t.s, n),
		Own: func(id game.ForceID) *game.Force {
			if f := t.force(id); f != nil && f.Nation == n {
				return f
			}
			return nil
		},
		All: func() []*game.Force {
			var out []*game.Force
			for _, f := range t.live() {
				if f.Nation == n {
					out = append(out, f)
				}
			}
			return out
		},
		City: func(name string) game.CityState {
			if c, ok := t.s.City(name); ok {
				cs := *c
				if c.Controller != n {
					cs.Treasury = 0 // as the nation's View shows it: a treasury is its holder's
				}
				return cs
			}
			return game.CityState{Name: name}
		}}
}

// Refusal is why an order is not legal. Reason is the engine's wording (an
// OrderIgnored event's Reason); Message and Hint the order checker's, for
// the player's reply (Message "" means Reason); Read is the word of the order
// at fault. Code names the rule broken, for callers that add detail.
type Refusal struct {
	Code    string
	Reason  string
	Read    string
	Message string
	Hint    string
}

// Text returns the message for the player.
func (r *Refusal) Text() string {
	if r.Message != "" {
		return r.Message
	}
	return r.Reason
}

// legal runs an order's legality check for its nation against the state as
// it stands; a refusal is reported as OrderIgnored and false returned.
func (t *turn) legal(n game.NationID, o Order, rule string) bool {
	k, ok := KindOf(o.Kind())
	if !ok || k.Legal == nil {
		return true
	}
	r := k.Legal(t.situation(n), o)
	if r == nil {
		return true
	}
	if k.Section != "" {
		rule = t.cite(k.Section, k.Para)
	}
	f, _ := k.Subject(o)
	t.ignore(n, o, f, rule, r.Reason)
	return false
}

// ---- shared checks used by several kinds ----

// NeedLand refuses a fleet where a land force is needed (nil: it is not a
// fleet, or f is nil). The order checker and the legality checks share it.
func NeedLand(f *game.Force) *Refusal {
	if f != nil && f.IsFleet() {
		return &Refusal{Code: "fleet-not-land", Read: string(f.ID),
			Reason:  fmt.Sprintf("%s is a fleet: this order is for land forces", f.ID),
			Message: fmt.Sprintf("%s is a fleet, and this is an order for land forces", f.ID),
			Hint:    "Give fleets FLEET, SAIL and REPAIR orders."}
	}
	return nil
}

// NeedFleet refuses a land force where a fleet is needed (nil: it is a
// fleet, or f is nil).
func NeedFleet(f *game.Force) *Refusal {
	if f != nil && !f.IsFleet() {
		return &Refusal{Code: "not-fleet", Read: string(f.ID),
			Reason:  fmt.Sprintf("%s is not a fleet", f.ID),
			Message: fmt.Sprintf("%s is not a fleet: it has no ships", f.ID),
			Hint:    "Give land forces MOVE, STANCE and EMBARK orders."}
	}
	return nil
}

// forceOf is a Subject for orders naming one force in field Force.
func subjectForce(id game.ForceID, kind string) (game.ForceID, string) {
	if id == "" {
		return "", ""
	}
	return id, kind + " " + string(id)
}

// noSubject is the Subject of kinds that name no force.
func noSubject(Order) (game.ForceID, string) { return "", "" }

// KindSubject returns the force or fleet an order names, and the key a
// once-a-turn order is counted by ("move E1"), from the registry.
func KindSubject(o Order) (game.ForceID, string) {
	k, ok := KindOf(o.Kind())
	if !ok || k.Subject == nil {
		return "", ""
	}
	return k.Subject(o)
}
