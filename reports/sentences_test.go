package reports

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// TestSentencesCarryTheirAmounts: the money and year-end events, which the
// year-end lists by the hundred, say how much, from where and for what.
func TestSentencesCarryTheirAmounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e    engine.Event
		want []string
	}{
		{&engine.TreasuryChanged{Nation: "morgronskia", City: "Morgrad", Before: 616, Change: -597, After: 19, Why: "field", What: "M1"},
			[]string{"Morgronskia paid 597 crowns", "Morgrad", "field M1", "616 → 19"}},
		{&engine.TreasuryChanged{Nation: "morgronskia", City: "Morgrad", Before: 0, Change: 1, After: 1, Why: "taxes"},
			[]string{"received 1 crown of taxes"}},
		{&engine.TreasuryChanged{Nation: "hispardia", City: "Madrigal", Before: 300, Change: 150, After: 450, Why: "ruling", What: "R12c131"},
			[]string{"received 150 crowns", "ruling: R12c131", "300 → 450"}},
		{&engine.UnitsBought{Nation: "morgronskia", City: "Morgrad", What: "48 C infantry", Cost: 192, Force: "M7"},
			[]string{"Morgronskia bought 48 C infantry in Morgrad for 192 crowns (M7)"}},
		{&engine.UnitsFielded{Nation: "fromande", Force: "F1", Cost: 1, By: "all"}, []string{"fielded F1", "for 1 crown", "FIELD ALL"}},
		{&engine.TaxesCollected{Nation: "unterreich", Treasury: "Kaiserau", Cities: make([]engine.CityTax, 1), Gross: 400, Collected: 300, CapitolLost: true},
			[]string{"300 crowns of taxes from 1 city", "three quarters of 400"}},
		{&engine.ForceDisbanded{Force: "H4", Reason: "fleet lost", Leaders: 1, LeaderNames: []string{"Admiral Blas de Lezo"}},
			[]string{"H4 was lost (fleet lost) with Admiral Blas de Lezo."}},
		{&engine.CounterBattery{City: "Kaiserau", Hits: 1}, []string{"1 gun destroyed"}},
	} {
		got := Sentence(nil, engine.Referee, c.e)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.e.Kind(), got, w)
			}
		}
	}
}

// TestSeaBattleStoryFollowsTheResult: a beaten fleet wholly sunk or taken
// does not "escape"; one with ships left escapes to the place recorded.
func TestSeaBattleStoryFollowsTheResult(t *testing.T) {
	t.Parallel()
	gone := &engine.SeaBattle{Column: "2:1", Die: 6, Winner: "fromande", Sides: []engine.SeaBattleSide{
		{Nation: "fromande", Fleets: []game.ForceID{"F3"}, Warships: 6, WarshipsAfter: 6},
		{Nation: "hispardia", Fleets: []game.ForceID{"H4"}, Warships: 2, Sunk: 1, Captured: 1, Admiral: "Admiral Blas de Lezo"},
	}}
	s := Sentence(nil, engine.Referee, gone)
	if strings.Contains(s, "escaped to") || !strings.Contains(s, "Not one of Hispardia's warships escaped") {
		t.Errorf("a fleet wholly sunk or taken: %q", s)
	}
	if !strings.Contains(s, "under Admiral Blas de Lezo") {
		t.Errorf("the admiral is not named: %q", s)
	}
	left := *gone
	left.Sides = []engine.SeaBattleSide{gone.Sides[0], gone.Sides[1]}
	left.Sides[1].Warships, left.Sides[1].WarshipsAfter = 5, 3
	left.EscapedTo = game.AtSea("S4")
	if s := Sentence(nil, engine.Referee, &left); !strings.Contains(s, "Hispardia's beaten fleet (3 warships left) escaped to S4") {
		t.Errorf("a fleet with ships left: %q", s)
	}
}

// TestPaymentsToldOnce: the referee's list tells a fielding and the
// treasury change that paid for it in one line, with the balance.
func TestPaymentsToldOnce(t *testing.T) {
	t.Parallel()
	pay := &engine.TreasuryChanged{Nation: "morgronskia", City: "Morgrad", Before: 2050, Change: -597, After: 1453, Why: "field", What: "M1"}
	field := &engine.UnitsFielded{Nation: "morgronskia", Force: "M1", Cost: 597, By: "all"}
	lines := EventLines(nil, engine.Referee, []engine.Event{pay, field})
	if len(lines) != 1 || lines[0] != "Morgronskia fielded M1 for another year for 597 crowns (FIELD ALL); the treasury in Morgrad went from 2050 to 1453." {
		t.Errorf("fielding: %q", lines)
	}
	if lines := EventLines(nil, engine.Referee, []engine.Event{pay, &engine.UnitsFielded{Nation: "morgronskia", Force: "M2", Cost: 117}}); len(lines) != 2 {
		t.Errorf("a payment merged with another order's fielding: %q", lines)
	}
}

// TestLedgerAddsUpToTheBalance: the printed ledger's column — the start,
// the itemised lines, and the rest not itemised — sums to the balance, and
// never prints the turn's net change beside the lines it sums.
func TestLedgerAddsUpToTheBalance(t *testing.T) {
	t.Parallel()
	for _, tr := range []Treasury{
		{Total: 1013, Cities: []CityMoney{{"Kaiserau", 397}, {"Morgrad", 616}}, Ledger: []LedgerLine{
			{What: "brought forward", Crowns: 697}, {What: "change this turn", Crowns: 316},
			{What: "taxes", City: "Morgrad", Crowns: 1750}, {What: "field", City: "Morgrad", Crowns: -1434}}},
		{Total: 450, Ledger: []LedgerLine{{What: "ruling", Crowns: 150}}},
		{Total: 300, Ledger: []LedgerLine{{What: "brought forward", Crowns: 250}, {What: "change this turn", Crowns: 50}}},
		{Total: 300},
	} {
		rows := LedgerRows(tr)
		sum := 0
		for _, l := range rows {
			sum += l.Crowns
			if l.What == "change this turn" {
				t.Errorf("%+v: the net change is printed beside the lines it sums", tr)
			}
		}
		if sum != tr.Total {
			t.Errorf("%+v: the rows %+v add up to %d, the balance is %d", tr, rows, sum, tr.Total)
		}
	}
}

// TestFleetStandingOrderToldAsAFleets: FLEET E3 AVOID and FLEET F3 SEEK are
// told as a fleet's order to avoid or seek battle, not as an army's stance
// ("E3 now stands on defend"); an army's stance reads as before.
func TestFleetStandingOrderToldAsAFleets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e          engine.Event
		want, lack string
	}{
		{&engine.StandingOrdersSet{Force: "E3", Fleet: true, Stance: game.Defend, Standing: game.StandingOrders{AvoidBattle: true}},
			"E3 now avoids battle at sea where it can.", "stands on"},
		{&engine.StandingOrdersSet{Force: "F3", Fleet: true, Stance: game.Defend},
			"F3 now seeks battle at sea.", "stands on"},
		{&engine.StandingOrdersSet{Force: "E1", Stance: game.Attack, Standing: game.StandingOrders{RetreatBelow: 2}},
			"E1 now stands on attack (retreat at 2:1).", "battle at sea"},
	} {
		got := Sentence(nil, engine.Referee, c.e)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.lack) {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
