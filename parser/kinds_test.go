package parser

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestOrderKindsComplete: every order kind of the engine's registry has, in
// this package, an entry in checkedKinds (its checker pass and check, which
// calls the kind's legality function), a grammar (the sheet keywords that
// read it), a formatter whose canonical form reads back as the same kind,
// and an example in docs/orders.md; and the engine has a step for it
// (engine's TestOrderKindRegistry).
func TestOrderKindsComplete(t *testing.T) {
	ctx := defaultGame(t, 1)
	v := NewVocabulary(ctx.Map, ctx.State)
	examples := map[string]Statement{}
	for _, blk := range docBlocks(t) {
		if blk.info != "orders" {
			continue
		}
		for _, st := range Parse(wrapSheet(blk.text), v).Statements {
			if st.Order != nil {
				if _, seen := examples[st.Order.Kind()]; !seen {
					examples[st.Order.Kind()] = st
				}
			}
		}
	}
	var ours []string
	for _, k := range checkedKinds {
		ours = append(ours, k.kind)
	}
	if !slices.IsSorted(ours) {
		t.Error("checkedKinds is not sorted by kind")
	}
	if !slices.Equal(ours, engine.OrderKinds()) {
		t.Errorf("the parser checks %v, the engine's registry has %v", ours, engine.OrderKinds())
	}
	for _, kind := range engine.OrderKinds() {
		k, ok := checkedKind(kind)
		if !ok {
			t.Errorf("%s: no checker entry", kind)
			continue
		}
		if ek, _ := engine.KindOf(kind); ek.Legal == nil || k.check == nil {
			t.Errorf("%s: no legality check or checker", kind)
		}
		if len(k.keywords) == 0 {
			t.Errorf("%s: no sheet keyword", kind)
		}
		for _, kw := range k.keywords {
			if statementParsers[kw] == nil || !slices.Contains(orderKeywords, kw) {
				t.Errorf("%s: the keyword %s has no grammar", kind, kw)
			}
		}
		st, ok := examples[kind]
		if !ok {
			t.Errorf("%s: docs/orders.md has no example", kind)
			continue
		}
		text := FormatOrder(st.Order, v)
		if text == "" {
			t.Errorf("%s: no formatter", kind)
			continue
		}
		back := Parse(wrapSheet(text), v)
		if len(back.Statements) != 1 || back.Statements[0].Order == nil || back.Statements[0].Order.Kind() != kind {
			t.Errorf("%s: the canonical form %q does not read back as a %s order", kind, text, kind)
			continue
		}
		if first := firstWord(text); !slices.ContainsFunc(k.keywords, func(kw string) bool { return fold(kw) == fold(first) }) {
			t.Errorf("%s: the canonical form %q begins with a keyword not listed for the kind (%v)", kind, text, k.keywords)
		}
	}
}
