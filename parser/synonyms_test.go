package parser

import (
	"strings"
	"testing"
)

// TestKeywordSynonyms: words players write for an order (MARCH, GO, a
// stance as the first word, the force before the keyword) get the right
// keyword suggested and the corrected line shown — not the nearest
// spelling (MARCH was "MERGE or MASK").
func TestKeywordSynonyms(t *testing.T) {
	for _, tc := range []struct {
		line, msg, hint string
	}{
		{"MARCH E1 TO Leipsk", `"MARCH" is not an order keyword; did you mean MOVE?`, "Write the order with its keyword: MOVE E1 TO Leipsk"},
		{"march e1 to Leipsk", `did you mean MOVE?`, "MOVE e1 to Leipsk"},
		{"GO H1 TO Cadiz", `did you mean MOVE?`, "Write the order with its keyword: MOVE H1 TO Cadiz"},
		{"ATTACK E2", `"ATTACK" is a stance, not an order keyword; did you mean STANCE E2 ATTACK?`, "STANCE E2 ATTACK"},
		{"Defend H1", `did you mean STANCE H1 DEFEND?`, "STANCE H1 DEFEND"},
		{"E1 STANCE DEFEND", `read the force "E1" first; did you mean STANCE E1 DEFEND?`, "Write the keyword first, then the force: STANCE E1 DEFEND"},
		{"h1 move to Cadiz", `did you mean MOVE H1 to Cadiz?`, "MOVE H1 to Cadiz"},
		{"H1 MARCH TO Cadiz", `did you mean MOVE H1 TO Cadiz?`, "MOVE H1 TO Cadiz"},
		{"SIEGE H1 Cadiz", `did you mean BESIEGE?`, "BESIEGE H1 Cadiz"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			r := checkDefault(t, tc.line)
			var got *Diagnostic
			for i, d := range r.Diagnostics {
				if d.Severity == Error && d.Line == 5 {
					got = &r.Diagnostics[i]
				}
			}
			if got == nil {
				t.Fatalf("no error on the line; diagnostics %+v", r.Diagnostics)
			}
			if !strings.Contains(got.Message, tc.msg) || !strings.Contains(got.Hint, tc.hint) {
				t.Errorf("message %q\nhint    %q\nwant    %q / %q", got.Message, got.Hint, tc.msg, tc.hint)
			}
			if strings.Contains(got.Message, "MERGE") || strings.Contains(got.Message, "MASK") {
				t.Errorf("suggests the nearest spelling: %q", got.Message)
			}
		})
	}
	// Misspellings still get the nearest keyword.
	r := checkDefault(t, "MOEV H1 TO Cadiz")
	if errs := errorsOf(r); !strings.Contains(errs[5], "did you mean MOVE?") {
		t.Errorf("MOEV: %v", errs)
	}
}

// TestNationWithAccents: a nation is read in any case, with or without
// accents, as city names are.
func TestNationWithAccents(t *testing.T) {
	v := NewVocabulary(defaultGame(t, 1).Map, nil)
	for _, w := range []string{"hispardia", "Hispardia", "HISPÁRDIA", "Hispárdia", "hisp"} {
		if id, amb := v.Nation(w); id != "hispardia" {
			t.Errorf("Nation(%q) = %q %v", w, id, amb)
		}
	}
	if id, amb := v.Nation("Atlantis"); id != "" || len(amb) > 0 {
		t.Errorf("Nation(Atlantis) = %q %v", id, amb)
	}
}
