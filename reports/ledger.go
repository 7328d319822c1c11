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

// LedgerRows are the treasury ledger as the PDF and the mail body print it,
// so that the Crowns column adds up to the balance: the crowns at the start
// of the turn (brought forward from the last report, or, where there was
// none, the balance less the turn's lines), every itemised line of the
// turn, and — only where the itemised lines do not account for the whole
// change — the rest as one line "not itemised". The model's own "change
// this turn" line (the net of the turn) is not printed beside the lines it
// sums, and where the crowns lie (Treasury.Cities) is a table of its own:
// each crown counted once.
func LedgerRows(t Treasury) []LedgerLine {
	var start, change *int
	var items []LedgerLine
	sum := 0
	for _, l := range t.Ledger {
		switch l.What {
		case "brought forward":
			start = &l.Crowns
		case "change this turn":
			change = &l.Crowns
		default:
			items = append(items, l)
			sum += l.Crowns
		}
	}
	rest := 0
	if change != nil {
		rest = *change - sum
	}
	first := LedgerLine{What: "brought forward"}
	if start != nil {
		first.Crowns = *start
		rest = t.Total - *start - sum
	} else {
		first.What = "at the start of the turn"
		first.Crowns = t.Total - sum - rest
	}
	out := append([]LedgerLine{first}, items...)
	if rest != 0 {
		out = append(out, LedgerLine{What: "not itemised", Crowns: rest,
			Why: "the turn's change that no event of your report accounts for"})
	}
	return out
}
