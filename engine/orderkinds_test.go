package engine

import (
	"reflect"
	"slices"
	"testing"
)

// TestOrderKindRegistry: every order kind is in the registry once, sorted,
// with its zero value, its legality check, what it is for, and a step of the
// pipeline of each kind of turn it is given on; its JSON envelope decodes
// back to its own type.
func TestOrderKindRegistry(t *testing.T) {
	kinds := Kinds()
	if len(kinds) < 28 {
		t.Fatalf("only %d kinds in the registry", len(kinds))
	}
	if !slices.IsSortedFunc(kinds, func(a, b OrderKind) int { return cmpStr(a.Keyword, b.Keyword) }) {
		t.Error("the registry is not sorted by keyword")
	}
	for i, k := range kinds {
		if i > 0 && kinds[i-1].Keyword == k.Keyword {
			t.Errorf("%s is in the registry twice", k.Keyword)
		}
		switch {
		case k.Zero == nil || k.Zero.Kind() != k.Keyword:
			t.Errorf("%s: its zero value is not of its kind", k.Keyword)
			continue
		case k.Legal == nil:
			t.Errorf("%s has no legality check", k.Keyword)
		case k.Subject == nil:
			t.Errorf("%s has no Subject", k.Keyword)
		case k.Turn == 0:
			t.Errorf("%s is given on no turn", k.Keyword)
		case k.Section == "":
			t.Errorf("%s cites no section of the rules", k.Keyword)
		}
		for _, yearEnd := range []bool{false, true} {
			step := k.StepFor(yearEnd)
			given := k.Turn&MonthlyTurn != 0
			if yearEnd {
				given = k.Turn&YearEndTurn != 0
			}
			if given && !slices.Contains(Steps(yearEnd), step) {
				t.Errorf("%s: step %q is not a step of the pipeline (year-end %v)", k.Keyword, step, yearEnd)
			}
			if step == "organisation" && k.apply == nil {
				t.Errorf("%s is filed for the organisation step but has no apply", k.Keyword)
			}
			if !yearEnd && step != "organisation" && step != "" && k.apply != nil {
				t.Errorf("%s has an apply, which only the organisation step calls, but is filed for %s", k.Keyword, step)
			}
			if step == "orders" || step == "rulings" || step == "end-of-turn" {
				t.Errorf("%s is filed for the %s step, which carries out no order", k.Keyword, step)
			}
		}
		b, err := MarshalOrder(k.Zero)
		if err != nil {
			t.Errorf("%s: %v", k.Keyword, err)
			continue
		}
		back, err := UnmarshalOrder(b)
		if err != nil || reflect.TypeOf(back) != reflect.TypeOf(k.Zero) {
			t.Errorf("%s: the envelope %s decodes to %T, %v", k.Keyword, b, back, err)
		}
	}
}
