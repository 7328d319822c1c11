package campaign

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
)

// Campaign is one campaign pbem can referee: the SYW Big Game Campaign
// (both editions) or the Trossian campaign. It reads the campaign's
// scenarios and opens a game's rules on its scenario.
type Campaign interface {
	// ID names the campaign: "syw", "trossian".
	ID() string
	// Rulesets lists the ruleset IDs (config game.ruleset) it plays.
	Rulesets() []string
	// DefaultScenario is the scenario built into pbem (package scenarios).
	DefaultScenario() fs.FS
	// LoadScenario reads and checks a scenario at the root of fsys (map
	// and starting position); dir names it in messages. Every mistake is
	// reported with its file and line.
	LoadScenario(fsys fs.FS, dir string) (Scenario, error)
	// Open binds a ruleset of the campaign to a scenario: a Game.
	Open(ruleset string, sc Scenario) (Game, error)
}

// Scenario is a campaign's scenario as loaded: its title and nations. The
// value behind it is the campaign's own (*scenario.Scenario,
// *trossian.Scenario).
type Scenario interface {
	Name() string
	Nations() []game.Nation
}

// Game is one game's rules on its map: everything the daemon asks of a
// campaign at intake, at the deadline and when it reports. Every method is
// pure: it reads its arguments and the game's map and rules, and writes
// nothing.
type Game interface {
	// Ruleset is the ruleset's ID.
	Ruleset() string
	// NewState makes turn 1 from the scenario.
	NewState(gameID string) (State, error)
	// DecodeState reads a state as EncodeState (State.MarshalJSON) wrote
	// it: what the store keeps in a turn record.
	DecodeState(data []byte) (State, error)
	// Resolve resolves a turn: state + orders + rulings + tabletop results
	// + seed → the next state, the events and every die. A turn with a
	// battle the referee has not answered is not resolved (Awaiting).
	Resolve(in TurnInput) (*TurnOutput, error)
	// View is what a nation sees of a state (fog of war): the report's
	// input, besides the events engine.EventsFor gives the nation.
	View(st State, n game.NationID) (any, error)
	// Check reads and checks an order sheet against the game as it stands;
	// the reply is mailed back at once.
	Check(sheet string, ctx CheckContext) *Reply
	// OrderKinds is the order vocabulary.
	OrderKinds() []OrderKind
	// EncodeOrders and DecodeOrders store a nation's accepted orders (the
	// JSON envelopes of the campaign's order kinds).
	EncodeOrders(o engine.Orders) ([]byte, error)
	DecodeOrders(data []byte) (engine.Orders, error)
	// ReadResult reads the referee's tabletop result mailed back for one
	// of the battles awaiting: the battle's key (BattleSheet.Key) and the
	// result as the campaign stores it (TurnInput.Results), or the
	// problems by line.
	ReadResult(text string, awaiting []BattleSheet) (key string, result json.RawMessage, problems []parser.Diagnostic)
}

// State is a game between two turns, opaque to the daemon but for what it
// schedules and stores by.
type State interface {
	// TurnNumber is the turn to be resolved next.
	TurnNumber() int
	// TurnLabel names it for people: "Turn 2, Mid Spring 1801".
	TurnLabel() string
	// Playing lists the nations still giving orders, sorted.
	Playing() []game.NationID
	// MarshalJSON is the stored form (deterministic: the same state, the
	// same bytes).
	MarshalJSON() ([]byte, error)
}

// TurnInput is a turn to resolve.
type TurnInput struct {
	State State
	// Orders are the nations' accepted sheets (engine.Orders carries either
	// campaign's order values).
	Orders []engine.Orders
	// Rulings are the referee's approved rulings, and Results his tabletop
	// results, each as the campaign stores it (engine.Ruling and
	// engine.TabletopBattle JSON for SYW; trossian.Ruling and
	// trossian.BattleResult for Trossian).
	Rulings []json.RawMessage
	Results []json.RawMessage
	Seed    uint64
}

// TurnOutput is a resolved turn, or one waiting for the referee.
type TurnOutput struct {
	// State is the next turn; nil while Awaiting is not empty.
	State  State
	Events []engine.Event
	Rolls  []engine.Roll
	// Awaiting are the battles to be fought on the table before the turn
	// can be resolved.
	Awaiting []BattleSheet
}

// BattleSheet is a battle for the referee's table.
type BattleSheet struct {
	// Key is where it is fought — a hex ("0502") or a province
	// ("Elkmoor") — and the key of its result.
	Key string
	// Text is the sheet as mailed to the referee, with the result block to
	// fill in.
	Text string
	// Data is the sheet as the campaign's value (JSON).
	Data json.RawMessage
}

// CheckContext is what a sheet is checked in.
type CheckContext struct {
	State State
	Game  string
	// Nation is the sender's nation (from the address); empty: the sheet's.
	Nation         game.NationID
	VerifyPassword func(n game.NationID, password string) bool
	Deadline       time.Time
	Zone           *time.Location
	Replaces       bool
}

// Reply is a checked sheet.
type Reply struct {
	Nation  game.NationID
	Turn    int
	Refused bool
	// Orders are the accepted orders.
	Orders      engine.Orders
	Diagnostics []parser.Diagnostic
	// Text is the reply the player reads; Canonical the accepted orders as
	// a sheet; Receipt its hash.
	Text, Canonical, Receipt string
	// Report is the campaign's own report (*parser.Report,
	// *sheet.Report), for what only that campaign has (treaties, requests).
	Report any
}

// OrderKind is one kind of the order vocabulary.
type OrderKind struct {
	Keyword string
	// Season says when it is given: "turn" (every monthly turn or
	// campaign phase), "year-end" (SYW's year-end, Trossian winter) or
	// "any".
	Season string
	// Section is the rulebook's section.
	Section string
}

// campaigns is every campaign behind the seam; nothing appends to it at
// run time. The SYW campaign is an adapter over engine.Resolve,
// engine.View and parser.Check (syw.go, docs/engine.md "Campaigns").
var campaigns = []Campaign{SYW(), Trossian()}

// All returns the campaigns, sorted by ID.
func All() []Campaign {
	out := slices.Clone(campaigns)
	slices.SortFunc(out, func(a, b Campaign) int {
		switch {
		case a.ID() < b.ID():
			return -1
		case a.ID() > b.ID():
			return 1
		}
		return 0
	})
	return out
}

// ForRuleset returns the campaign that plays a ruleset: how a game's
// ruleset (config game.ruleset) chooses its campaign.
func ForRuleset(id string) (Campaign, error) {
	for _, c := range campaigns {
		if slices.Contains(c.Rulesets(), id) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown ruleset %q: expected one of %v", id, RulesetIDs())
}

// RulesetIDs lists every ruleset of every campaign, sorted.
func RulesetIDs() []string {
	var out []string
	for _, c := range campaigns {
		out = append(out, c.Rulesets()...)
	}
	slices.Sort(out)
	return out
}
