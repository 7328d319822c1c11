package gamecheck

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/demo"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/scenarios"
)

// The games Play knows.
const (
	// Demo is the default scenario played by the demo's scripted players
	// for a game-year, the year-end included.
	Demo = "demo"
	// Generated is enginegen's game of 40 nations: the first turn's orders
	// are the generator's, written out as sheets; the general rule of the
	// demo's players plays the turns after.
	Generated = "generated"
)

// Setup names one game to play.
type Setup struct {
	Game    string // Demo or Generated
	Edition string // the ruleset's ID (ruleset.IDs)
	Model   string // the land-battle model (ruleset.BattleModels)
	Seed    uint64
	// Turns is how many turns to play; 0 plays the game-year through its
	// year-end.
	Turns int
}

func (s Setup) String() string {
	return fmt.Sprintf("%s game, seed %d, %s, %s battles", s.Game, s.Seed, s.Edition, s.Model)
}

// Sheet is a nation's order sheet in force for a turn and the checker's
// answer to it.
type Sheet struct {
	Text   string
	Report *parser.Report
}

// Turn is one resolved turn and everything made of it: the inputs the
// engine resolved, its events, and the report models every nation and the
// referee were sent.
type Turn struct {
	Setup
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// Before is the state the turn was resolved from (the treaty ledger in
	// it), After the state it left.
	Before, After *engine.State
	// Sheets are the sheets in force by nation; Orders what the engine was
	// given (the sheets' accepted orders, in nation order).
	Sheets  map[game.NationID]*Sheet
	Orders  []engine.Orders
	Rulings []engine.Ruling
	Events  []engine.Event
	// Nations are the nations' report models, Previous their models of the
	// turn before (nil on the first turn), JSON the attachments (all of
	// them in the demo, a sample in the 40-nation game).
	Nations  map[game.NationID]*reports.Model
	Previous map[game.NationID]*reports.Model
	JSON     map[game.NationID][]byte
	Referee  *reports.RefereeModel
}

// Hooks let a test tamper with a game (the mutation tests): BeforeResolve
// sees the turn with its sheets and orders, before the engine; Each sees
// every resolved turn, and an error from it stops the game.
type Hooks struct {
	BeforeResolve func(*Turn)
	Each          func(*Turn) error
}

// the generated game's size: 40 nations, as the issue asks, on a map and
// with forces small enough that a turn with every report model takes a
// few tens of milliseconds.
const genCols, genRows, genNations, genForces = 48, 44, 40, 3

// newGame builds the game's map, first state and players.
func newGame(s Setup) (*hexmap.Map, *ruleset.Ruleset, *engine.State, []engine.Orders, error) {
	rules, err := ruleset.ByID(s.Edition)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rules = rules.WithBattle(s.Model)
	switch s.Game {
	case Demo:
		sc, err := scenario.LoadFS(scenarios.Default(), ".")
		if err != nil {
			return nil, nil, nil, nil, err
		}
		st, err := sc.InitialState("syw", rules.ID)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		return sc.Map, rules, st, nil, nil
	case Generated:
		g := enginegen.New(s.Seed, genCols, genRows, genNations, genForces)
		g.State.Ruleset = rules.ID
		return g.Map, rules, g.State, g.Orders, nil
	}
	return nil, nil, nil, nil, fmt.Errorf("no game %q", s.Game)
}

// Play plays the game in memory, turn by turn, as the daemon does by mail
// but without it: each nation's sheet is written by the demo's scripted
// player (demo.Script) and answered by the checker (parser.Check), a
// treaty proposed or attested goes into the treaty ledger at once
// (engine.ProposeTreaty, AttestTreaty), the referee approves every request
// with 150 crowns (as the demo's referee does), the engine resolves the
// accepted orders, and every nation's report model, its JSON and the
// referee's model are built (no PDF). Each resolved turn goes to h.Each.
func Play(s Setup, h Hooks) error {
	m, rules, st, genOrders, err := newGame(s)
	if err != nil {
		return err
	}
	script := demo.NewScript(m, rules, s.Seed)
	year := st.Calendar.Date(st.Turn).Year
	var prev map[game.NationID]*reports.Model
	for played := 0; ; played++ {
		if s.Turns > 0 && played >= s.Turns || s.Turns == 0 && st.Calendar.Date(st.Turn).Year != year {
			return nil
		}
		if st.Victory != nil {
			return nil
		}
		t := &Turn{Setup: s, Map: m, Rules: rules, Sheets: map[game.NationID]*Sheet{}, Previous: prev}
		work := st.Clone()
		var vocab *parser.Vocabulary // the generator's sheets' city names
		if s.Game == Generated && work.Turn == 1 {
			vocab = parser.NewVocabulary(m, work)
		}
		for _, ns := range work.Nations {
			if ns.Eliminated {
				continue
			}
			check := func(text string) *parser.Report {
				return parser.Check(text, parser.CheckContext{Map: m, Rules: rules, State: work, Game: work.Game, Nation: ns.ID})
			}
			var text string
			var rep *parser.Report
			if s.Game == Generated && work.Turn == 1 {
				text, rep = generatedSheet(vocab, work, genOrders, ns.ID, check)
			} else {
				text, rep = script.Play(work, ns.ID, check)
			}
			if rep == nil || rep.Refused {
				continue
			}
			t.Sheets[ns.ID] = &Sheet{Text: text, Report: rep}
			if err := ledger(work, ns.ID, rep); err != nil {
				return fmt.Errorf("%s, %s: %w", s, work.Calendar.Label(work.Turn), err)
			}
			for _, rq := range rep.Requests {
				t.Rulings = append(t.Rulings, engine.Ruling{Token: rq.Token, Nation: ns.ID,
					Effects: []engine.Effect{engine.TreasuryChange{Nation: ns.ID, Delta: 150}}})
			}
		}
		for _, ns := range work.Nations {
			if sh := t.Sheets[ns.ID]; sh != nil {
				o := sh.Report.Orders
				o.Nation, o.Turn = ns.ID, work.Turn
				t.Orders = append(t.Orders, o)
			} else if !ns.Eliminated {
				t.Orders = append(t.Orders, holdOrders(work, ns.ID))
			}
		}
		t.Before = work
		if h.BeforeResolve != nil {
			h.BeforeResolve(t)
		}
		res, err := engine.Resolve(engine.Input{Map: m, Rules: rules, State: t.Before, Orders: t.Orders, Seed: s.Seed*1000 + uint64(work.Turn), Rulings: t.Rulings})
		if err != nil {
			return fmt.Errorf("%s, %s: %w", s, work.Calendar.Label(work.Turn), err)
		}
		t.After, t.Events = res.State, res.Events
		if err := buildReports(t, res.Rolls); err != nil {
			return fmt.Errorf("%s, %s: %w", s, work.Calendar.Label(work.Turn), err)
		}
		if h.Each != nil {
			if err := h.Each(t); err != nil {
				return err
			}
		}
		prev = t.Nations
		st = res.State
	}
}

// ledger applies a sheet's treaties and attestations to the state's
// treaty ledger, as the daemon does when the sheet arrives.
func ledger(st *engine.State, n game.NationID, r *parser.Report) error {
	for _, tr := range r.Treaties {
		if _, err := engine.ProposeTreaty(st, n, tr.Title, tr.Text, tr.Parties); err != nil {
			return err
		}
	}
	for _, a := range r.Attestations {
		if _, err := engine.AttestTreaty(st, a.Treaty, n); err != nil {
			return err
		}
	}
	return nil
}

// holdOrders are an NMR nation's orders, as the daemon gives them: every
// land force on DEFEND.
func holdOrders(st *engine.State, n game.NationID) engine.Orders {
	o := engine.Orders{Nation: n, Turn: st.Turn}
	for i := range st.Forces {
		if f := &st.Forces[i]; f.Nation == n && !f.IsFleet() {
			o.List = append(o.List, engine.SetStance{Force: f.ID, Stance: game.Defend})
		}
	}
	return o
}

// generatedSheet writes the generator's orders of a nation as an order
// sheet in canonical form and has it checked.
func generatedSheet(v *parser.Vocabulary, st *engine.State, orders []engine.Orders, n game.NationID, check func(string) *parser.Report) (string, *parser.Report) {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME %s\nNATION %s\nPASSWORD x\nTURN %d\n", st.Game, n, st.Turn)
	for _, o := range orders {
		if o.Nation != n {
			continue
		}
		for _, x := range o.List {
			b.WriteString(parser.FormatOrder(x, v) + "\n")
		}
	}
	b.WriteString("END\n")
	return b.String(), check(b.String())
}

// buildReports builds every nation's report model (with its JSON) and the
// referee's, as the daemon's mailer does.
func buildReports(t *Turn, rolls []engine.Roll) error {
	var rulings []reports.Ruling
	for _, r := range t.Rulings {
		rulings = append(rulings, reports.Ruling{Text: fmt.Sprintf("APPROVE %s\n  TREASURY %s +150", r.Token, r.Nation), Nations: []game.NationID{r.Nation}})
	}
	t.Nations = map[game.NationID]*reports.Model{}
	t.JSON = map[game.NationID][]byte{}
	for i, ns := range t.After.Nations {
		md, err := reports.Build(reports.Input{Map: t.Map, Rules: t.Rules, State: t.After, Events: t.Events, Nation: ns.ID,
			Rulings: rulings, Previous: t.Previous[ns.ID]})
		if err != nil {
			return err
		}
		t.Nations[ns.ID] = md
		// Every nation's JSON in a small game; in the 40-nation game a
		// tenth of them, a different tenth for each seed and turn (the
		// encoding is the same code for all, and the time is the test's).
		if len(t.After.Nations) <= 10 || (i+int(t.Seed)+t.Before.Turn)%10 == 0 {
			if t.JSON[ns.ID], err = reports.JSON(md); err != nil {
				return err
			}
		}
	}
	var sheets []reports.SheetReceipt
	for _, ns := range t.Before.Nations {
		if sh := t.Sheets[ns.ID]; sh != nil {
			sheets = append(sheets, reports.SheetReceipt{Nation: ns.ID, Receipt: sh.Report.Receipt})
		}
	}
	ref, err := reports.BuildReferee(reports.RefereeInput{Map: t.Map, Rules: t.Rules, State: t.After, Events: t.Events, Rolls: rolls,
		Rulings: rulings, Sheets: sheets})
	if err != nil {
		return err
	}
	t.Referee = ref
	return nil
}
