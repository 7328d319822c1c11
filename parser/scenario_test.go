package parser

import (
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// The default scenario (scenarios/default) as the docs' example sheets are
// checked against: its starting state at turn 1, or, for the year-end, the
// same position at turn 7 with a year's taxes on the home tax base (1600)
// added to each capitol's treasury, as the engine's tax step would.

var (
	defaultOnce sync.Once
	defaultScen *scenario.Scenario
	defaultErr  error
)

func defaultGame(t testing.TB, turn int) CheckContext {
	t.Helper()
	defaultOnce.Do(func() { defaultScen, defaultErr = scenario.Load("../scenarios/default") })
	if defaultErr != nil {
		t.Fatalf("the default scenario does not load: %v", defaultErr)
	}
	s, err := defaultScen.InitialState("syw", ruleset.SYW1752().ID)
	if err != nil {
		t.Fatalf("the default scenario's state: %v", err)
	}
	s.Turn = turn
	if s.Calendar.Date(turn).IsYearEnd() {
		for _, n := range defaultScen.Map.Nations {
			if c, ok := s.City(n.Capitol); ok {
				c.Treasury += ruleset.SYW1752().Taxes.StartingTaxBase
			}
		}
	}
	return CheckContext{Map: defaultScen.Map, Rules: ruleset.SYW1752(), State: s, Game: "syw",
		VerifyPassword: func(n game.NationID, pw string) bool { return pw == "tobacco" }}
}
