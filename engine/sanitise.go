package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// filedOrders are the sanitised orders, filed by the pipeline step that
// carries them out (OrderKind.Step), each step's in nation order then sheet
// order. Every accepted order is filed for a named step: none is dropped in
// silence.
type filedOrders map[string][]nationOrder

type nationOrder struct {
	nation game.NationID
	o      Order
}

// ordersFor returns the orders filed for a step, only those of the given
// kinds when any are named ("movement", "move"), in nation then sheet order.
// A step reads its orders with it — t.ordersFor("sieges") — and so takes
// charge of them: the orders of a step that it did not read are reported
// when the step ends (unread).
func (t *turn) ordersFor(step string, kinds ...string) []nationOrder {
	if t.read == nil {
		t.read = map[string][]string{}
	}
	if len(kinds) == 0 {
		t.read[step] = append(t.read[step], "")
		return t.filed[step]
	}
	t.read[step] = append(t.read[step], kinds...)
	var out []nationOrder
	for _, no := range t.filed[step] {
		if slices.Contains(kinds, no.o.Kind()) {
			out = append(out, no)
		}
	}
	return out
}

// legalOrdersFor is ordersFor with each order first passed through its
// kind's legality check, the same one the order checker runs (OrderKind.
// Legal): an order that fails it is reported to its nation (OrderIgnored)
// and left out. Steps that carry orders out read them this way.
func (t *turn) legalOrdersFor(step string, kinds ...string) []nationOrder {
	var out []nationOrder
	for _, no := range t.ordersFor(step, kinds...) {
		k, _ := KindOf(no.o.Kind())
		if t.legal(no.nation, no.o, t.cite(k.Section, k.Para)) {
			out = append(out, no)
		}
	}
	return out
}

// unread reports, when a step ends, each order filed for it that the step
// did not read (a step pbem does not resolve yet, such as sieges or the
// game-year's): the order is checked (its kind's Legal), and reported with
// an OrderIgnored event the player reads — "BESIEGE is not carried out yet"
// — never dropped in silence.
func (t *turn) unread(step string) {
	read := t.read[step]
	if slices.Contains(read, "") {
		return
	}
	for _, no := range t.filed[step] {
		k, _ := KindOf(no.o.Kind())
		rule := t.cite(k.Section, k.Para)
		if slices.Contains(read, no.o.Kind()) || !t.legal(no.nation, no.o, rule) {
			continue
		}
		f, _ := KindSubject(no.o)
		t.ignore(no.nation, no.o, f, rule, fmt.Sprintf("%s is not carried out yet: pbem does not resolve the %s step yet; the referee rules on it",
			strings.ToUpper(strings.ReplaceAll(no.o.Kind(), "-", " ")), step))
	}
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
			kind, known := KindOf(o.Kind())
			step := kind.StepFor(t.yearEnd)
			switch {
			case !known:
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("%q is not an order pbem knows", o.Kind()))
				continue
			case step == "" && t.yearEnd:
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("%s orders are for monthly turns; this is the year-end", o.Kind()))
				continue
			case step == "":
				t.ignore(sh.Nation, o, "", rule, fmt.Sprintf("%s orders are for the year-end; this is a monthly turn", o.Kind()))
				continue
			}
			if key, ok := onceKey(kind, o); ok {
				k := onceSeen{sh.Nation, key}
				if first, dup := once[k]; dup {
					f, _ := kind.Subject(o)
					t.ignore(sh.Nation, o, f, rule, fmt.Sprintf("a second %s order for %s: the first, on line %d, counts", o.Kind(), key[len(o.Kind())+1:], first))
					continue
				}
				once[k] = o.SourceLine()
			}
			if t.filed == nil {
				t.filed = filedOrders{}
			}
			t.filed[step] = append(t.filed[step], nationOrder{nation: sh.Nation, o: o})
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
func onceKey(k OrderKind, o Order) (string, bool) {
	if !k.Once || k.Subject == nil {
		return "", false
	}
	_, key := k.Subject(o)
	return key, key != ""
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
