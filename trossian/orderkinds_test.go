package trossian

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestOrderKindRegistry: every order kind is in the registry once, sorted,
// with its zero value, legality check, subject, turn, a step of the
// pipeline of each kind of turn it is given on, a section of 004 cited, an
// apply for the kinds a courier carries; its JSON envelope decodes back to
// its own type.
func TestOrderKindRegistry(t *testing.T) {
	kinds := Kinds()
	if len(kinds) < 12 {
		t.Fatalf("only %d kinds", len(kinds))
	}
	if !slices.IsSortedFunc(kinds, func(a, b OrderKind) int { return strings.Compare(a.Keyword, b.Keyword) }) {
		t.Error("the registry is not sorted")
	}
	for i, k := range kinds {
		if i > 0 && kinds[i-1].Keyword == k.Keyword {
			t.Errorf("%s twice", k.Keyword)
		}
		switch {
		case k.Zero == nil || k.Zero.Kind() != k.Keyword:
			t.Errorf("%s: zero value of another kind", k.Keyword)
			continue
		case k.Legal == nil:
			t.Errorf("%s has no legality check", k.Keyword)
		case k.Subject == nil:
			t.Errorf("%s has no Subject", k.Keyword)
		case k.Turn == 0:
			t.Errorf("%s is given on no turn", k.Keyword)
		case !strings.HasPrefix(k.Section, "004 "):
			t.Errorf("%s cites no section of 004: %q", k.Keyword, k.Section)
		case k.ByCourier && k.apply == nil:
			t.Errorf("%s travels by courier but has no apply", k.Keyword)
		case k.Step == "organisation" && k.apply == nil:
			t.Errorf("%s is filed for the organisation step but has no apply", k.Keyword)
		}
		for _, winter := range []bool{false, true} {
			if k.Given(winter) && !slices.Contains(Steps(winter), k.Step) {
				t.Errorf("%s: step %q is not in the pipeline (winter %v)", k.Keyword, k.Step, winter)
			}
		}
		b, err := MarshalOrder(k.Zero)
		if err != nil {
			t.Errorf("%s: %v", k.Keyword, err)
			continue
		}
		back, err := UnmarshalOrder(b)
		if err != nil || reflect.TypeOf(back) != reflect.TypeOf(k.Zero) {
			t.Errorf("%s: %s decodes to %T, %v", k.Keyword, b, back, err)
		}
	}
}

// TestEventKindsRegistered: every Trossian event kind is registered with
// the engine (so the daemon's event log decodes it) and round-trips.
func TestEventKindsRegistered(t *testing.T) {
	all := engine.EventKinds()
	for _, f := range eventMakers {
		e := f()
		if !slices.Contains(all, e.Kind()) {
			t.Errorf("%s is not registered", e.Kind())
		}
		b, err := engine.MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		back, err := engine.UnmarshalEvent(b)
		if err != nil || reflect.TypeOf(back) != reflect.TypeOf(e) {
			t.Errorf("%s: %v", e.Kind(), err)
		}
	}
	if len(EventKinds()) != len(eventMakers) {
		t.Error("EventKinds lists another number of kinds")
	}
}

// TestOrderListCodec: a sheet's orders and a courier's survive the store.
func TestOrderListCodec(t *testing.T) {
	o := engine.Orders{Nation: "norvale", Turn: 3, List: []engine.Order{
		Move{At: engine.At{Line: 4}, Force: "N1", Dest: "Trossburg"},
		SendCourier{To: "N2", Carries: OrderList{SetStance{Force: "N2", Stance: 1}, Pacify{Force: "N2"}}},
		NavyOrders{Navy: "NF1", Actions: []NavyAction{{Act: ActOut}, {Act: ActSail, Lane: "W1"}}},
		Buy{City: "Norhaven", Stands: Stands{{Type: HQ, Count: 1}}, Messengers: 2},
	}}
	b, err := MarshalOrders(o)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalOrders(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, o) {
		t.Errorf("round trip:\n%+v\n%+v", back, o)
	}
}
