package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// orderBuckets are the sanitised orders, each in the step that carries it
// out, in nation order then sheet order.
type orderBuckets struct {
	org   []nationOrder // organisation and standing orders
	moves []nationOrder // Move
	sails []nationOrder // Sail
	embk  []nationOrder // Embark
	debk  []nationOrder // Debark
	// later are orders for steps other issues fill: Besiege, Assault,
	// Bombard, Fieldworks, Repair, and the year-end orders.
	later []nationOrder
}

type nationOrder struct {
	nation game.NationID
	o      Order
}

var yearEndKinds = map[string]bool{
	"buy": true, "field": true, "disband": true, "transfer": true, "treasury": true,
	"temporary-capitol": true, "supply": true, "special": true,
}

var monthlyKinds = map[string]bool{
	"move": true, "stance": true, "retreat": true, "pursue": true, "on-contact": true, "slow": true,
	"split": true, "merge": true, "assign": true, "detach": true, "garrison": true, "fieldworks": true,
	"besiege": true, "assault": true, "bombard": true, "embark": true, "sail": true, "debark": true,
	"fleet-stance": true, "repair": true, "supply": true, "special": true,
}

// stepOrders sanitises the orders: each nation's sheet must be for a nation
// in the game that is not eliminated, and for this turn; each order must be
// of a kind given on this kind of turn. Orders are then sorted into the
// steps that carry them out; what they name (forces, cities, depots) is
// checked there, against the state at that moment, so that a force split off
// in the organisation step can be moved in the same turn.
func (t *turn) stepOrders() {
	sheets := slices.Clone(t.orders)
	slices.SortStableFunc(sheets, func(a, b Orders) int { return cmpStr(string(a.Nation), string(b.Nation)) })
	rule := t.cite("Land Movement", "")
	for _, sh := range sheets {
		ns, ok := t.s.Nation(sh.Nation)
		for _, o := range sh.List {
			if o == nil {
				continue
			}
			o = orderValue(o)
			switch {
			case !ok:
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("nation %q is not in this game", sh.Nation))
				continue
			case ns.Eliminated:
				t.ignore(sh.Nation, o, "", rule, "the nation has been eliminated")
				continue
			case sh.Turn != 0 && sh.Turn != t.number:
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("the orders are for turn %d, this is turn %d", sh.Turn, t.number))
				continue
			}
			if t.yearEnd && !yearEndKinds[o.Kind()] {
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("%s orders are for monthly turns; this is the year-end", o.Kind()))
				continue
			}
			if !t.yearEnd && !monthlyKinds[o.Kind()] {
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("%s orders are for the year-end; this is a monthly turn", o.Kind()))
				continue
			}
			no := nationOrder{nation: sh.Nation, o: o}
			if t.yearEnd {
				t.buckets.later = append(t.buckets.later, no)
				continue
			}
			switch o.(type) {
			case Move:
				t.buckets.moves = append(t.buckets.moves, no)
			case Sail:
				t.buckets.sails = append(t.buckets.sails, no)
			case Embark:
				t.buckets.embk = append(t.buckets.embk, no)
			case Debark:
				t.buckets.debk = append(t.buckets.debk, no)
			case SetStance, Retreat, Pursue, OnContact, SlowEnemy, Split, Merge, AssignLeader, DetachLeader,
				Garrison, FleetStance, GrantSupply, Special:
				t.buckets.org = append(t.buckets.org, no)
			default:
				t.buckets.later = append(t.buckets.later, no)
			}
		}
	}
}

// ignore records an order that is not carried out.
func (t *turn) ignore(n game.NationID, o Order, f game.ForceID, rule, reason string) {
	t.emit(&OrderIgnored{Nation: n, Line: o.SourceLine(), Order: o.Kind(), Force: f, Reason: reason},
		rule, game.Place{}, to(n), n)
}

// ownForce returns the nation's live force id, or records the order as
// ignored and returns nil.
func (t *turn) ownForce(n game.NationID, o Order, id game.ForceID, rule string) *game.Force {
	f := t.force(id)
	switch {
	case id == "":
		t.ignore(n, o, id, rule, "no force named")
		return nil
	case f == nil:
		t.ignore(n, o, id, rule, fmt.Sprintf("there is no force %s", id))
		return nil
	case f.Nation != n:
		t.ignore(n, o, id, rule, fmt.Sprintf("force %s is not yours", id))
		return nil
	}
	return f
}
