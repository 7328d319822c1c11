package reports

import (
	"fmt"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// MoneyLedger turns the money events a nation saw into ledger lines, in
// event order, each crown counted once:
//
//   - the year-end taxes (TaxesCollected) city by city, with why each paid
//     in full, half or nothing ("half: besieged", "none: masked, foreign"),
//     and the quarter withheld while the capitol is lost — the treasury's
//     own "taxes" change (TreasuryChanged) is their sum and is not repeated;
//   - every other TreasuryChanged with its reason and what it paid for:
//     fielding, purchases, treaty penalties, treasuries moved, a capitol
//     regained;
//   - a referee's TREASURY ruling (a TreasuryChanged of why "ruling").
func MoneyLedger(m *hexmap.Map, nation game.NationID, events []engine.Event) []LedgerLine {
	var out []LedgerLine
	for _, e := range events {
		switch x := e.(type) {
		case *engine.TaxesCollected:
			if x.Nation != nation {
				continue
			}
			for _, c := range x.Cities {
				why := "full"
				switch {
				case c.Paid == 0:
					why = "none"
				case c.Paid < c.Value:
					why = "half"
				}
				if c.Why != "" {
					why += ": " + c.Why
				}
				out = append(out, LedgerLine{What: "taxes", City: c.City, Crowns: c.Paid, Why: fmt.Sprintf("%s (tax value %d)", why, c.Value)})
			}
			if x.CapitolLost && x.Collected != x.Gross {
				out = append(out, LedgerLine{What: "capitol lost", City: x.Treasury, Crowns: x.Collected - x.Gross,
					Why: "a quarter of the taxes withheld while the capitol is in enemy hands"})
			}
		case *engine.TreasuryChanged:
			if x.Nation != nation || x.Why == "taxes" {
				continue
			}
			out = append(out, LedgerLine{What: x.Why, City: x.City, Crowns: x.Change, Why: x.What})
		}
	}
	return out
}
