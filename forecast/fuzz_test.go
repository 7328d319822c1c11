package forecast_test

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/parser"
)

// FuzzForecast: whatever a player's sheet says, the orders the checker
// accepts are forecast without a panic or an error, every force the
// nation has is in the forecast, and the text says nothing of forces it
// does not know.
func FuzzForecast(f *testing.F) {
	f.Add("MOVE E1 TO Dresna\nSTANCE E1 ATTACK\nBESIEGE E1 Dresna")
	f.Add("SPLIT E1 AS E4 24 C infantry\nMOVE E4 TO Stettau\nEMBARK E4 ON E3\nSAIL E3 S2 Danzburg")
	f.Add("SAIL E3 S2 S3 Morgrad\nDEBARK E2 AT 2905\nASSAULT E1 Konigsfeld")
	f.Add("MOVE E1 1810 1811 1812\nFIELDWORKS E1 24\nGARRISON E1 Kottwitz\nFORECAST OFF")
	r0, ctx := exampleCheck(f)
	head := "GAME syw\nNATION eisenmark\nPASSWORD x\nTURN 1\n"
	f.Fuzz(func(t *testing.T, orders string) {
		r := parser.Check(head+orders+"\nEND\n", ctx)
		if r.Refused {
			return
		}
		v := engine.View(ctx.Map, ctx.Rules, ctx.State, r0.Nation)
		fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
		if err != nil {
			t.Fatal(err)
		}
		text := fc.Text(ctx.Map)
		if !strings.Contains(text, "== Forecast ==") {
			t.Fatalf("no forecast heading:\n%s", text)
		}
		for _, own := range v.Own {
			if own.Aboard != "" || own.IsFleet() {
				continue
			}
			if !strings.Contains(text, string(own.ID)+":") && !strings.Contains(text, string(own.ID)+" ") {
				t.Fatalf("the forecast does not mention %s:\n%s", own.ID, text)
			}
		}
	})
}
