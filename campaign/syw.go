package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/scenarios"
)

// SYW returns the SYW Big Game Campaign (seeds 000 and 003) behind the
// seam: an adapter over the SYW code as it is — engine.Resolve, engine.View,
// parser.Check, the engine's order envelopes, refcmd.ParseResult — with no
// change to any of it, so a turn resolved through the seam gives the bytes
// engine.Resolve gives (TestSYWThroughTheSeam).
func SYW() Campaign { return sywCampaign{} }

type sywCampaign struct{}

func (sywCampaign) ID() string             { return "syw" }
func (sywCampaign) Rulesets() []string     { return ruleset.IDs() }
func (sywCampaign) DefaultScenario() fs.FS { return scenarios.Default() }

// sywScenario is a loaded SYW scenario.
type sywScenario struct{ sc *scenario.Scenario }

func (s sywScenario) Name() string           { return s.sc.Name }
func (s sywScenario) Nations() []game.Nation { return s.sc.Map.Nations }

func (sywCampaign) LoadScenario(fsys fs.FS, dir string) (Scenario, error) {
	sc, err := scenario.LoadFS(fsys, dir)
	if err != nil {
		return nil, err
	}
	return sywScenario{sc}, nil
}

// Open binds an SYW edition to a scenario, with the edition's own battle
// model and its battles fought by it (SYWGame sets the config's).
func (sywCampaign) Open(id string, sc Scenario) (Game, error) {
	r, err := ruleset.ByID(id)
	if err != nil {
		return nil, err
	}
	s, ok := sc.(sywScenario)
	if !ok {
		return nil, fmt.Errorf("a %T is not an SYW scenario", sc)
	}
	return &sywGame{sc: s.sc, r: r}, nil
}

// SYWGame is the SYW adapter over a scenario and an edition already loaded
// (the daemon's, with the config's battle model); table says every land
// battle is fought on the referee's table (game.battles: table): a turn
// with one and no result for it waits (TurnOutput.Awaiting).
func SYWGame(sc *scenario.Scenario, r *ruleset.Ruleset, table bool) (Game, Scenario) {
	return &sywGame{sc: sc, r: r, table: table}, sywScenario{sc}
}

// sywGame is an SYW game.
type sywGame struct {
	sc    *scenario.Scenario
	r     *ruleset.Ruleset
	table bool
}

// sywState wraps the engine's state.
type sywState struct{ s *engine.State }

func (s sywState) TurnNumber() int              { return s.s.Turn }
func (s sywState) TurnLabel() string            { return s.s.Calendar.Label(s.s.Turn) }
func (s sywState) MarshalJSON() ([]byte, error) { return json.Marshal(s.s) }
func (s sywState) Playing() []game.NationID {
	var out []game.NationID
	for _, n := range s.s.Nations {
		if !n.Eliminated {
			out = append(out, n.ID)
		}
	}
	return out
}

// SYWState returns the engine state behind an SYW State.
func SYWState(st State) (*engine.State, bool) {
	s, ok := st.(sywState)
	return s.s, ok
}

func (g *sywGame) Ruleset() string { return g.r.ID }

// HexMap, HexRules and HexScenario: the daemon serves an SYW game by its
// SYW path (campaign.HexPlayed).
func (g *sywGame) HexMap() *hexmap.Map             { return g.sc.Map }
func (g *sywGame) HexRules() *ruleset.Ruleset      { return g.r }
func (g *sywGame) HexScenario() *scenario.Scenario { return g.sc }

// TurnLabelOf labels any turn on the SYW calendar.
func (g *sywGame) TurnLabelOf(turn int) string { return g.sc.Calendar.Label(turn) }

func (g *sywGame) NewState(gameID string) (State, error) {
	st, err := g.sc.InitialState(gameID, g.r.ID)
	if err != nil {
		return nil, err
	}
	return sywState{st}, nil
}

func (g *sywGame) DecodeState(data []byte) (State, error) {
	var s engine.State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("SYW state: %w", err)
	}
	return sywState{&s}, nil
}

func (g *sywGame) state(st State) (*engine.State, error) {
	s, ok := SYWState(st)
	if !ok {
		return nil, fmt.Errorf("a %T is not an SYW state", st)
	}
	return s, nil
}

// sywBattle is the data of an SYW battle awaiting the table: the battle
// and the state it is fought from, which the result is read against.
type sywBattle struct {
	Battle engine.LandBattle
	State  *engine.State
}

func (g *sywGame) Resolve(in TurnInput) (*TurnOutput, error) {
	s, err := g.state(in.State)
	if err != nil {
		return nil, err
	}
	ei := engine.Input{Map: g.sc.Map, Rules: g.r, State: s, Orders: in.Orders, Seed: in.Seed}
	for _, raw := range in.Rulings {
		var r engine.Ruling
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("stored ruling: %w", err)
		}
		ei.Rulings = append(ei.Rulings, r)
	}
	for _, raw := range in.Results {
		var b engine.TabletopBattle
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, fmt.Errorf("stored tabletop result: %w", err)
		}
		ei.Battles = append(ei.Battles, b)
	}
	res, err := engine.Resolve(ei)
	if err != nil {
		return nil, err
	}
	out := &TurnOutput{State: sywState{res.State}, Events: res.Events, Rolls: res.Rolls}
	if !g.table {
		return out, nil
	}
	for _, e := range res.Events {
		lb, ok := e.(*engine.LandBattle)
		if !ok || lb.Model == "tabletop" {
			continue
		}
		data, err := json.Marshal(sywBattle{Battle: *lb, State: s})
		if err != nil {
			return nil, err
		}
		out.Awaiting = append(out.Awaiting, BattleSheet{Key: lb.Hex.String(), Data: data,
			Text: fmt.Sprintf("Battle at %s (%s), %s.\n\nRESULT %s\nOUTCOME decisive\nWINNER nation\nLOSSES force arm grade KILLED n ROUTED n SURROUNDED n\nEND\n",
				lb.Hex, lb.Terrain, lb.Date, lb.Hex)})
	}
	if len(out.Awaiting) > 0 {
		out.State = nil
	}
	return out, nil
}

func (g *sywGame) View(st State, n game.NationID) (any, error) {
	s, err := g.state(st)
	if err != nil {
		return nil, err
	}
	return engine.View(g.sc.Map, g.r, s, n), nil
}

func (g *sywGame) Check(text string, ctx CheckContext) *Reply {
	pc := parser.CheckContext{Map: g.sc.Map, Rules: g.r, Game: ctx.Game, Nation: ctx.Nation, VerifyPassword: ctx.VerifyPassword,
		Deadline: ctx.Deadline, Zone: ctx.Zone, Replaces: ctx.Replaces}
	if s, ok := SYWState(ctx.State); ok {
		pc.State, pc.Turn = s, s.Turn
	}
	r := parser.Check(text, pc)
	return &Reply{Nation: r.Nation, Turn: r.Turn, Refused: r.Refused, Orders: r.Orders, Diagnostics: r.Diagnostics,
		Text: r.Text(), Canonical: r.Canonical(), Receipt: r.Receipt, Report: r}
}

func (g *sywGame) OrderKinds() []OrderKind {
	var out []OrderKind
	for _, k := range engine.Kinds() {
		season := "turn"
		switch k.Turn {
		case engine.YearEndTurn:
			season = "year-end"
		case engine.AnyTurn:
			season = "any"
		}
		out = append(out, OrderKind{Keyword: k.Keyword, Season: season, Section: k.Section})
	}
	return out
}

// EncodeOrders writes the orders as the store keeps SYW orders: a JSON
// array of engine.MarshalOrder envelopes.
func (g *sywGame) EncodeOrders(o engine.Orders) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, x := range o.List {
		env, err := engine.MarshalOrder(x)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(env)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func (g *sywGame) DecodeOrders(data []byte) (engine.Orders, error) {
	var envs []json.RawMessage
	if err := json.Unmarshal(data, &envs); err != nil {
		return engine.Orders{}, err
	}
	var out engine.Orders
	for i, e := range envs {
		o, err := engine.UnmarshalOrder(e)
		if err != nil {
			return engine.Orders{}, fmt.Errorf("order %d: %w", i+1, err)
		}
		out.List = append(out.List, o)
	}
	return out, nil
}

// ReadResult reads the referee's RESULT against the battle it names among
// those awaiting (refcmd.ParseResult, as the daemon's SYW path does).
func (g *sywGame) ReadResult(text string, awaiting []BattleSheet) (string, json.RawMessage, []parser.Diagnostic) {
	if len(awaiting) == 0 {
		return "", nil, []parser.Diagnostic{{Severity: parser.Error, Message: "no battle awaits a result"}}
	}
	var st *engine.State
	var lbs []engine.LandBattle
	for _, a := range awaiting {
		var b sywBattle
		if err := json.Unmarshal(a.Data, &b); err != nil {
			return "", nil, []parser.Diagnostic{{Severity: parser.Error, Message: "the stored battle sheet: " + err.Error()}}
		}
		st = b.State
		lbs = append(lbs, b.Battle)
	}
	tb, errs := refcmd.ParseResult(text, st, lbs, g.r)
	if len(errs) > 0 {
		var diags []parser.Diagnostic
		for _, e := range errs {
			diags = append(diags, parser.Diagnostic{Severity: parser.Error, Message: strings.TrimSpace(e)})
		}
		return tb.Hex.String(), nil, diags
	}
	data, err := json.Marshal(tb)
	if err != nil {
		return tb.Hex.String(), nil, []parser.Diagnostic{{Severity: parser.Error, Message: err.Error()}}
	}
	return tb.Hex.String(), data, nil
}

var (
	_ HexPlayed    = (*sywGame)(nil)
	_ TurnLabeller = (*sywGame)(nil)
)
