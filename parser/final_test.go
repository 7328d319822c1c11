package parser

import (
	"strings"
	"testing"
)

// TestFinalLine: a FINAL line marks the sheet final, prints in its
// canonical form (so it reads back), and is not an order; written twice it
// counts once with a warning; a refused sheet is never final.
func TestFinalLine(t *testing.T) {
	ctx := defaultGame(t, 3)
	r := Check(wrapSheet("STANCE E1 DEFEND\nFINAL\n"), ctx)
	if !r.Final || r.HasErrors() || len(r.Orders.List) != 1 {
		t.Fatalf("Final %v, errors %v, %d orders:\n%s", r.Final, r.HasErrors(), len(r.Orders.List), r.Text())
	}
	if !strings.Contains(r.Canonical(), "\nFINAL\n") {
		t.Errorf("the canonical sheet has no FINAL line:\n%s", r.Canonical())
	}
	again := Parse(r.Canonical(), nil)
	if n := len(again.Statements); n != 2 || again.Statements[1].Final == nil {
		t.Errorf("the canonical sheet reads back as %+v", again.Statements)
	}
	plain := Check(wrapSheet("STANCE E1 DEFEND\n"), ctx)
	if plain.Final || plain.Receipt == r.Receipt {
		t.Errorf("a sheet without FINAL: Final %v, receipt %s", plain.Final, plain.Receipt)
	}
	twice := Check(wrapSheet("FINAL\nSTANCE E1 DEFEND\nfinal\n"), ctx)
	if !twice.Final || twice.HasErrors() || twice.Count(Warning) != 1 || strings.Count(twice.Canonical(), "FINAL") != 1 {
		t.Errorf("FINAL twice: Final %v, %d warnings:\n%s", twice.Final, twice.Count(Warning), twice.Text())
	}
	wrong := ctx
	wrong.Game = "other"
	if r := Check(wrapSheet("FINAL\n"), wrong); r.Final || !r.Refused {
		t.Errorf("a refused sheet is final: %v", r.Final)
	}
}
