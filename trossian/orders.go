package trossian

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The Trossian orders. Each kind lives in one file with its family
// (orders_army.go, orders_control.go, orders_navy.go, orders_courier.go,
// orders_winter.go): its type, Kind method, legality function and registry
// entry. The order types are engine.Order values (a kind and the sheet line
// it came from), so that engine.Orders carries a sheet of either campaign;
// their JSON envelopes are this package's (MarshalOrder). The sanitise
// step, the courier's delivery, the codec and the checker (package
// trossian/sheet) read this registry; TestOrderKindRegistry and the
// checker's TestOrderKindsComplete fail when a kind lacks a part.

// TurnKind says on which turns an order may be given.
type TurnKind uint8

// The turn kinds: the nine campaign phases, and winter quarters.
const (
	PhaseTurn TurnKind = 1 << iota
	WinterTurn
)

// OrderKind is one entry of the registry.
type OrderKind struct {
	// Keyword is the order's kind, as Kind() returns it.
	Keyword string
	// Turn says when it is given; Step is the pipeline step that carries it
	// out.
	Turn TurnKind
	Step string
	// Section is where 004 has its rule; its events cite it.
	Section string
	// Zero is the order's zero value, for the codec.
	Zero engine.Order
	// Legal is the legality check shared by the engine (at the step, or
	// when a courier delivers the order) and the checker (against the
	// nation's view and the sheet's earlier orders): nil when legal.
	Legal func(s *Situation, o engine.Order) *engine.Refusal
	// Subject returns the force the order is for and the key a
	// once-a-turn order is counted by.
	Subject func(o engine.Order) (game.ForceID, string)
	// Once: one order of the kind per force a turn; the first counts.
	Once bool
	// ByCourier: the order is for a force, and travels by courier to a
	// force away from the King's seat ("shall direct their generals via
	// messages sent by couriers").
	ByCourier bool
	// apply carries out a force's order at a tick of the movement clock
	// (0 for an order given at the seat); nil for kinds their step reads.
	apply func(t *turn, n game.NationID, o engine.Order, tick int)
}

// orderKindRegistry is every kind, sorted by keyword.
var orderKindRegistry []OrderKind

func init() {
	for _, fam := range [][]OrderKind{armyOrderKinds, controlOrderKinds, navyOrderKinds, courierOrderKinds, winterOrderKinds} {
		orderKindRegistry = append(orderKindRegistry, fam...)
	}
	slices.SortFunc(orderKindRegistry, func(a, b OrderKind) int { return strings.Compare(a.Keyword, b.Keyword) })
}

// Kinds returns the registry, sorted by keyword.
func Kinds() []OrderKind { return slices.Clone(orderKindRegistry) }

// KindOf returns a kind's registry entry.
func KindOf(keyword string) (OrderKind, bool) {
	i, ok := slices.BinarySearchFunc(orderKindRegistry, keyword, func(k OrderKind, kw string) int { return strings.Compare(k.Keyword, kw) })
	if !ok {
		return OrderKind{}, false
	}
	return orderKindRegistry[i], true
}

// OrderKinds lists the keywords, sorted.
func OrderKinds() []string {
	out := make([]string, len(orderKindRegistry))
	for i, k := range orderKindRegistry {
		out[i] = k.Keyword
	}
	return out
}

// Given reports whether the kind is given on a phase turn or in winter.
func (k OrderKind) Given(winter bool) bool {
	if winter {
		return k.Turn&WinterTurn != 0
	}
	return k.Turn&PhaseTurn != 0
}

// SubjectOf returns the force an order names, from the registry.
func SubjectOf(o engine.Order) game.ForceID {
	k, ok := KindOf(o.Kind())
	if !ok || k.Subject == nil {
		return ""
	}
	f, _ := k.Subject(o)
	return f
}

// ---- the codec ----

// MarshalOrder encodes an order as a JSON envelope {"kind":"move", …}.
func MarshalOrder(o engine.Order) ([]byte, error) {
	body, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("order %s: %w", o.Kind(), err)
	}
	k, _ := json.Marshal(o.Kind())
	var b bytes.Buffer
	b.WriteString(`{"kind":`)
	b.Write(k)
	if len(body) > 2 {
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes(), nil
}

// UnmarshalOrder decodes an envelope written by MarshalOrder; the order is
// returned as a value (Move, not *Move).
func UnmarshalOrder(data []byte) (engine.Order, error) {
	var k struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("order envelope: %w", err)
	}
	kind, ok := KindOf(k.Kind)
	if !ok {
		return nil, fmt.Errorf("order kind %q: expected one of %v", k.Kind, OrderKinds())
	}
	v := reflect.New(reflect.TypeOf(kind.Zero))
	if err := json.Unmarshal(data, v.Interface()); err != nil {
		return nil, fmt.Errorf("order %s: %w", k.Kind, err)
	}
	return v.Elem().Interface().(engine.Order), nil
}

// OrderList is a list of orders that encodes as JSON envelopes: what a
// courier carries, and a sheet's orders in the store.
type OrderList []engine.Order

// MarshalJSON writes the envelopes.
func (l OrderList) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, o := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		one, err := MarshalOrder(o)
		if err != nil {
			return nil, err
		}
		b.Write(one)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the envelopes.
func (l *OrderList) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := make(OrderList, 0, len(raw))
	for _, r := range raw {
		o, err := UnmarshalOrder(r)
		if err != nil {
			return err
		}
		out = append(out, o)
	}
	*l = out
	return nil
}

// MarshalOrders encodes a nation's orders for the store.
func MarshalOrders(o engine.Orders) ([]byte, error) {
	return json.Marshal(struct {
		Nation game.NationID
		Turn   int
		List   OrderList
	}{o.Nation, o.Turn, OrderList(o.List)})
}

// UnmarshalOrders decodes what MarshalOrders wrote.
func UnmarshalOrders(data []byte) (engine.Orders, error) {
	var x struct {
		Nation game.NationID
		Turn   int
		List   OrderList
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return engine.Orders{}, err
	}
	return engine.Orders{Nation: x.Nation, Turn: x.Turn, List: x.List}, nil
}

// ---- the situation a legality check reads ----

// Situation is what a legality check reads: the map, the rules, one
// kingdom, the phase, and its own forces and the public state as they stand
// at the check. The engine builds it from its working state; the checker
// from the kingdom's view with its shadow of the forces as the sheet's
// earlier orders leave them. Nothing in it is another kingdom's secret.
type Situation struct {
	Map    *areamap.Map
	Rules  *Rules
	Nation game.NationID
	Turn   int
	Phase  Phase
	// Seat is where the King is ("" when he holds no city).
	Seat string
	// IdleCouriers are the couriers waiting at the seat.
	IdleCouriers int
	// Army and Navy return the kingdom's own force of that ID now (nil:
	// none).
	Army func(game.ForceID) *Army
	Navy func(game.ForceID) *Navy
	// Armies returns the kingdom's armies now, in ID order.
	Armies func() []*Army
	// Province returns a province's public state (Bank only for the
	// kingdom's own cities).
	Province func(id string) ProvinceState
	// NaviesInPort counts the navies in a port, of every kingdom (ports are
	// public).
	NaviesInPort func(id string) int
	// Hostile reports whether the kingdom is at war with another.
	Hostile func(game.NationID) bool
	// Census is the kingdom's census; Owned its stands in the field now.
	Census Stands
	Owned  func() Stands
}

// forceHere returns where an army is for orders: its province, or its
// navy's province when the navy is in port or off a coast.
func (s *Situation) armyPlace(a *Army) string {
	if a.Aboard == "" {
		return a.At
	}
	if n := s.Navy(a.Aboard); n != nil {
		return n.At.Province
	}
	return a.At
}

// friendly reports a province the kingdom or an ally controls.
func (s *Situation) friendly(p string) bool {
	c := s.Province(p).Controller
	return c == s.Nation || c != game.Neutral && !s.Hostile(c)
}

// refusal builds a refusal: the engine's reason, the word at fault, a hint.
func refusal(code, read, hint, format string, args ...any) *engine.Refusal {
	return &engine.Refusal{Code: code, Read: read, Reason: fmt.Sprintf(format, args...), Hint: hint}
}

// needArmy refuses an order for an army that names a navy (nil when it is
// an army, or when neither exists: the caller's "no such force").
func needArmy(s *Situation, id game.ForceID) (*Army, *engine.Refusal) {
	if a := s.Army(id); a != nil {
		return a, nil
	}
	if s.Navy(id) != nil {
		return nil, refusal("navy-not-army", string(id), "Give navies NAVY orders.", "%s is a navy: this order is for armies", id)
	}
	return nil, nil
}

// subjectForce is the Subject of orders naming one force.
func subjectForce(id game.ForceID, kind string) (game.ForceID, string) {
	if id == "" {
		return "", ""
	}
	return id, kind + " " + string(id)
}
