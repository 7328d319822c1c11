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
	once := map[onceSeen]int{}
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
			if key, ok := onceKey(o); ok {
				k := onceSeen{sh.Nation, key}
				if first, dup := once[k]; dup {
					t.ignore(sh.Nation, o, orderForce(o), rule, fmt.Sprintf("a second %s order for %s: the first, on line %d, counts", o.Kind(), key[len(o.Kind())+1:], first))
					continue
				}
				once[k] = o.SourceLine()
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

// onceSeen is a nation's order of a kind for one force, fleet or city.
type onceSeen struct {
	nation game.NationID
	key    string
}

// onceKey names what an order of a kind that a force may be given only once
// a turn is for ("move E1"); ok is false for kinds that may repeat (split,
// assign, special …). These are the kinds the order checker accepts once a
// force (parser: onceFor), and as there the first order counts: a second
// order of the kind for the same force is ignored with a reason.
func onceKey(o Order) (string, bool) {
	var what string
	switch x := o.(type) {
	case SetStance:
		what = string(x.Force)
	case Retreat:
		what = string(x.Force)
	case Pursue:
		what = string(x.Force)
	case OnContact:
		what = string(x.Force)
	case SlowEnemy:
		what = string(x.Force)
	case FleetStance:
		what = string(x.Fleet)
	case Move:
		what = string(x.Force)
	case Fieldworks:
		what = string(x.Force)
	case Embark:
		what = string(x.Force)
	case Sail:
		what = string(x.Fleet)
	case Debark:
		what = string(x.Force)
	case Repair:
		what = string(x.Fleet)
	case Assault:
		what = x.City
	default:
		return "", false
	}
	if what == "" {
		return "", false
	}
	return o.Kind() + " " + what, true
}

// orderForce returns the force or fleet an order is for, if it names one.
func orderForce(o Order) game.ForceID {
	switch x := o.(type) {
	case SetStance:
		return x.Force
	case Retreat:
		return x.Force
	case Pursue:
		return x.Force
	case OnContact:
		return x.Force
	case SlowEnemy:
		return x.Force
	case FleetStance:
		return x.Fleet
	case Move:
		return x.Force
	case Fieldworks:
		return x.Force
	case Embark:
		return x.Force
	case Sail:
		return x.Fleet
	case Debark:
		return x.Force
	case Repair:
		return x.Fleet
	case Assault:
		return x.Force
	}
	return ""
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
