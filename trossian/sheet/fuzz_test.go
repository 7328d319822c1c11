package sheet

import (
	"strings"
	"testing"
)

// FuzzCheck: no mail makes the checker panic; whatever it accepts prints
// in a canonical form that checks again to the same receipt.
func FuzzCheck(f *testing.F) {
	orders, sheets := docBlocks(f)
	for _, o := range orders {
		f.Add(sheetOf("norvale", 2, o))
	}
	for _, s := range sheets {
		f.Add(s)
	}
	for _, s := range []string{
		"MOVE N1 TO Trossburg\nCOURIER TO N2\nMOVE N2 Wendmoor\nPACIFY N2",
		"DETACH N1 1 hq AS N9\nMOVE N9 Elkmoor\\\n Greyfell",
		"NAVY NF1 EMBARK N1, OUT, IN Fjordby, LAND N1",
		"BUY 1 hq, 2 guard line-infantry, 1 navy AT Norhaven",
		"> MOVE N1 TO Elkmoor\nMOV N1 \"Elk moor\"",
		"SEND A COURIER TO N2 VIA W1 N1\nRETREAT N2 TO Elkmoor",
	} {
		f.Add(sheetOf("norvale", 2, s))
	}
	f.Add("\uFEFFGAME tr\r\nNATION Norvale\r\nTURN Mid Spring 1801\r\nPASSWORD secret\r\nHOLD N1\r\n-- \r\n")
	ctx := ctxFor(f, 2)
	f.Fuzz(func(t *testing.T, mail string) {
		r := Check(mail, ctx)
		_ = r.Text()
		if r.Refused {
			return
		}
		again := Check(strings.Replace(r.Canonical(), "NATION norvale\n", "NATION norvale\nPASSWORD secret\n", 1), ctx)
		if again.Refused || again.HasErrors() || again.Receipt != r.Receipt {
			t.Fatalf("the canonical form does not check again to the same orders:\n%s\n%s", r.Canonical(), again.Text())
		}
	})
}
