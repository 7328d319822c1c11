package parser

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

// TestRequestsCarriedOver: a sheet replacing the one in force keeps its
// pending and approved requests and SPECIALs (in the orders as understood,
// the receipt and the report's lists), drops the denied ones, takes back
// those it withdraws by token, and refuses a WITHDRAW of a token that is
// not on the sheet in force.
func TestRequestsCarriedOver(t *testing.T) {
	open := []OpenRequest{
		{Token: "R111111", Text: "May Eisenmark hire 24 Swiss infantry?", Ruling: "approved"},
		{Token: "R222222", Text: "May Eisenmark raise a loan?"},
		{Token: "S333333", Text: "Send an envoy to Valmont", Special: true},
		{Token: "R444444", Text: "May Eisenmark cross Vogesia?", Ruling: "denied"},
		{Token: "R555555", Text: "May Eisenmark found a mint?"},
	}
	ctx := fixture(t, 3)
	ctx.Replaces, ctx.Open = true, open
	r := Check(sheetFor(3, "STANCE E1 ATTACK\nWITHDRAW REQUEST r555555\nWITHDRAW REQUEST R999999"), ctx)
	if r.Refused {
		t.Fatalf("refused: %+v", r.Diagnostics)
	}
	tokens := func(os []OpenRequest) string {
		var s []string
		for _, o := range os {
			s = append(s, o.Token)
		}
		return strings.Join(s, " ")
	}
	if got := tokens(r.Carried); got != "R111111 R222222 S333333" {
		t.Errorf("carried %q, want the approved, the pending and the SPECIAL", got)
	}
	if got := tokens(r.Withdrawn); got != "R555555" {
		t.Errorf("withdrawn %q", got)
	}
	if got := tokens(r.Lapsed); got != "R444444" {
		t.Errorf("lapsed %q", got)
	}
	var reqs []string
	for _, q := range r.Requests {
		reqs = append(reqs, q.Token)
	}
	if strings.Join(reqs, " ") != "R111111 R222222" {
		t.Errorf("requests in force %q", reqs)
	}
	specials := 0
	for _, o := range r.Orders.List {
		if sp, ok := o.(engine.Special); ok && sp.Text == "Send an envoy to Valmont" {
			specials++
		}
	}
	if specials != 1 {
		t.Errorf("the pending SPECIAL is %d times among the orders, want once", specials)
	}
	text := r.Text()
	for _, want := range []string{"Carried over from your earlier sheet", "- R111111 REQUEST", "approved by the referee",
		"Withdrawn by this sheet", "R555555", "Not carried over (denied", "SPECIAL \"Send an envoy to Valmont\"   # S333333, carried over",
		"no request R999999 is on your sheet in force"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(r.Canonical(), "REQUEST \"May Eisenmark raise a loan?\"") {
		t.Errorf("the carried request is not in the sheet as understood:\n%s", r.Canonical())
	}
	// Sent again, a request is not carried twice; a SPECIAL sent again
	// neither.
	r = Check(sheetFor(3, "REQUEST \"May Eisenmark raise a loan?\"\nSPECIAL \"Send an envoy to Valmont\""), ctx)
	if got := tokens(r.Carried); got != "R111111 R555555" {
		t.Errorf("with the request and the SPECIAL sent again, carried %q", got)
	}
	if len(r.Requests) != 3 {
		t.Errorf("requests %+v", r.Requests)
	}
	// Offline, with no sheet in force, a WITHDRAW is warned about.
	ctx.Replaces, ctx.Open = false, nil
	r = Check(sheetFor(3, "WITHDRAW REQUEST R111111"), ctx)
	if r.HasErrors() || r.Count(Warning) != 1 {
		t.Errorf("offline WITHDRAW: %+v", r.Diagnostics)
	}
}
