package gamecheck

import (
	"maps"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// held is the crowns a nation holds in a state: those lying in the cities
// it controls (docs/rules-notes.md §Treasuries: a captured treasury is its
// captor's), by city.
func held(st *engine.State, n game.NationID) (map[string]int, int) {
	out, total := map[string]int{}, 0
	for _, cs := range st.Cities {
		if cs.Treasury != 0 && cs.Controller == n && n != game.Neutral {
			out[cs.Name] = cs.Treasury
			total += cs.Treasury
		}
	}
	return out, total
}

// ledgerSummary are the ledger's lines that restate the balance rather
// than move crowns.
func ledgerSummary(l reports.LedgerLine) bool {
	return l.What == "brought forward" || l.What == "change this turn"
}

// money checks that every crown is in exactly one treasury, that the
// totals add up, and that every change is in the ledger and the events.
func (c *checker) money() {
	t := c.t
	// Each city's crowns in the reports: the nations listing them.
	listed := map[string][]game.NationID{}
	for _, n := range sortedKeys(t.Nations) {
		md := t.Nations[n]
		sum := 0
		seen := map[string]bool{}
		for _, cm := range md.Treasury.Cities {
			sum += cm.Crowns
			if seen[cm.City] {
				c.fault("money", n, "the treasury lists %s twice", cm.City)
			}
			seen[cm.City] = true
			if cm.Crowns != 0 {
				listed[cm.City] = append(listed[cm.City], n)
			}
		}
		if sum != md.Treasury.Total {
			c.fault("money", n, "Treasury.Total is %d; its cities add up to %d", md.Treasury.Total, sum)
		}
		want, total := held(t.After, n)
		for _, cm := range md.Treasury.Cities {
			if cm.Crowns != want[cm.City] {
				c.fault("money", n, "the report puts %d crowns in %s's treasury; the state has %d there held by %s", cm.Crowns, cm.City, stateTreasury(t.After, cm.City), holderName(t.After, cm.City))
			}
		}
		for _, city := range slices.Sorted(maps.Keys(want)) {
			if !seen[city] {
				c.fault("money", n, "the nation holds %d crowns in %s and its report does not list them", want[city], city)
			}
		}
		if total != md.Treasury.Total {
			c.fault("money", n, "the report's treasury is %d crowns; the nation holds %d", md.Treasury.Total, total)
		}
		c.ledger(n, md)
	}
	for _, cs := range t.After.Cities {
		if ns := listed[cs.Name]; len(ns) > 1 {
			c.fault("money", "", "the %d crowns in %s are in the treasuries of %v", cs.Treasury, cs.Name, ns)
		}
	}
	// The referee's treasuries are the nations'.
	for _, nt := range t.Referee.Treasuries {
		md := t.Nations[nt.Nation]
		if md == nil {
			continue
		}
		if nt.Total != md.Treasury.Total || !slices.Equal(nt.Cities, md.Treasury.Cities) {
			c.fault("money", nt.Nation, "the referee's report has the treasury %d %v; the nation's %d %v", nt.Total, nt.Cities, md.Treasury.Total, md.Treasury.Cities)
		}
	}
	// Crowns are moved only by events: each city's change is the sum of
	// the TreasuryChanged events there.
	byCity := map[string]int{}
	for _, e := range t.Events {
		if x, ok := e.(*engine.TreasuryChanged); ok {
			byCity[x.City] += x.Change
		}
	}
	for _, cs := range t.After.Cities {
		was := stateTreasury(t.Before, cs.Name)
		if cs.Treasury-was != byCity[cs.Name] {
			c.fault("money", "", "the treasury in %s went from %d to %d crowns; the events moved %+d", cs.Name, was, cs.Treasury, byCity[cs.Name])
		}
	}
}

// ledger checks one nation's ledger: it brings the last report's balance
// forward, each line moves crowns, and the lines add up to the change of
// the nation's holding, as the money events do.
func (c *checker) ledger(n game.NationID, md *reports.Model) {
	t := c.t
	_, before := held(t.Before, n)
	_, after := held(t.After, n)
	if p := t.Previous[n]; p != nil && p.Treasury.Total != before {
		c.fault("money", n, "the last report's treasury was %d; the nation held %d", p.Treasury.Total, before)
	}
	lines := 0
	for _, l := range md.Treasury.Ledger {
		if !ledgerSummary(l) {
			lines += l.Crowns
		}
	}
	if lines != after-before {
		c.fault("money", n, "the treasury went from %d to %d crowns (%+d); the ledger's lines add up to %+d: %v", before, after, after-before, lines, md.Treasury.Ledger)
	}
	events := 0
	for _, e := range t.Events {
		if x, ok := e.(*engine.TreasuryChanged); ok && x.Nation == n {
			events += x.Change
		}
	}
	if events != after-before {
		c.fault("money", n, "the treasury went from %d to %d crowns (%+d); the nation's money events moved %+d", before, after, after-before, events)
	}
}

func stateTreasury(st *engine.State, city string) int {
	if cs, ok := st.City(city); ok {
		return cs.Treasury
	}
	return 0
}

func holderName(st *engine.State, city string) string {
	if cs, ok := st.City(city); ok && cs.Controller != game.Neutral {
		return string(cs.Controller)
	}
	return "nobody"
}
