package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/scenarios"
	"github.com/syw-pbem/pbem/trossian"
	"github.com/syw-pbem/pbem/trossian/sheet"
)

// Trossian returns the Trossian campaign (seed 004): package trossian's
// engine on package areamap's map, with package trossian/sheet's sheets.
func Trossian() Campaign { return trossianCampaign{} }

type trossianCampaign struct{}

func (trossianCampaign) ID() string             { return "trossian" }
func (trossianCampaign) Rulesets() []string     { return trossian.IDs() }
func (trossianCampaign) DefaultScenario() fs.FS { return scenarios.Trossian() }

// trossianScenario is a loaded Trossian scenario.
type trossianScenario struct{ sc *trossian.Scenario }

func (s trossianScenario) Name() string           { return s.sc.Name }
func (s trossianScenario) Nations() []game.Nation { return s.sc.Map.Nations() }

// LoadScenario reads map.txt and scenario.yaml; the map must validate with
// the rules' four frozen lanes.
func (trossianCampaign) LoadScenario(fsys fs.FS, dir string) (Scenario, error) {
	f, err := fsys.Open("map.txt")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(dir, "map.txt"), err)
	}
	defer f.Close()
	m, err := readTrossianMap(f, path.Join(dir, "map.txt"))
	if err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(fsys, "scenario.yaml")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(dir, "scenario.yaml"), err)
	}
	sc, err := trossian.ParseScenario(data, m, path.Join(dir, "scenario.yaml"))
	if err != nil {
		return nil, err
	}
	return trossianScenario{sc}, nil
}

// readTrossianMap reads an area map and validates it with the rules' four
// frozen lanes; name names it in messages.
func readTrossianMap(r io.Reader, name string) (*areamap.Map, error) {
	m, err := areamap.Parse(r, name)
	if err != nil {
		return nil, err
	}
	if probs := m.Validate(areamap.ValidateOptions{FrozenLanes: 4}); len(probs) > 0 {
		msg := ""
		for i, p := range probs {
			if i > 0 {
				msg += "\n"
			}
			msg += p.In(name)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	return m, nil
}

func (trossianCampaign) Open(ruleset string, sc Scenario) (Game, error) {
	r, err := trossian.ByID(ruleset)
	if err != nil {
		return nil, err
	}
	ts, ok := sc.(trossianScenario)
	if !ok {
		return nil, fmt.Errorf("a %T is not a Trossian scenario", sc)
	}
	return &trossianGame{sc: ts.sc, r: r}, nil
}

// trossianGame is a Trossian game.
type trossianGame struct {
	sc *trossian.Scenario
	r  *trossian.Rules
	// archived: opened from an archive's header (OpenArchived), with the
	// map but no starting position.
	archived bool
}

// OpenArchived opens a Trossian game from an archive's header: its ruleset
// and map (campaign.ArchiveOpener). It resolves, decodes and views turns;
// its starting position is the archive's first record.
func (trossianCampaign) OpenArchived(ruleset, mapText string) (Game, error) {
	r, err := trossian.ByID(ruleset)
	if err != nil {
		return nil, err
	}
	m, err := readTrossianMap(strings.NewReader(mapText), "the archive's map")
	if err != nil {
		return nil, err
	}
	return &trossianGame{sc: &trossian.Scenario{Name: m.Name, Map: m}, r: r, archived: true}, nil
}

// ArchiveRules returns the version of the Trossian rule tables — the first
// 16 hex digits of the SHA-256 of the rules value as JSON — and the map in
// the area map's text format (campaign.Archived).
func (g *trossianGame) ArchiveRules() (version, mapText string, err error) {
	b, err := json.Marshal(g.r)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256(b)
	var text strings.Builder
	if err := areamap.Format(&text, g.sc.Map); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(sum[:8]), text.String(), nil
}

// trossianState wraps the engine's state.
type trossianState struct{ s *trossian.State }

func (s trossianState) TurnNumber() int              { return s.s.Turn }
func (s trossianState) TurnLabel() string            { return s.s.Label() }
func (s trossianState) MarshalJSON() ([]byte, error) { return json.Marshal(s.s) }
func (s trossianState) Playing() []game.NationID {
	var out []game.NationID
	for _, n := range s.s.Nations {
		if !n.Eliminated {
			out = append(out, n.ID)
		}
	}
	return out
}

// TrossianState returns the engine state behind a Trossian State (for the
// reports, which draw from it).
func TrossianState(st State) (*trossian.State, bool) {
	s, ok := st.(trossianState)
	return s.s, ok
}

func (g *trossianGame) Ruleset() string { return g.r.ID }

func (g *trossianGame) NewState(gameID string) (State, error) {
	if g.archived {
		return nil, errors.New("a Trossian game opened from its archive has no starting position of its own: the archive's first record holds it")
	}
	return trossianState{g.sc.InitialState(gameID, g.r)}, nil
}

func (g *trossianGame) DecodeState(data []byte) (State, error) {
	var s trossian.State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("trossian state: %w", err)
	}
	return trossianState{&s}, nil
}

func (g *trossianGame) state(st State) (*trossian.State, error) {
	s, ok := TrossianState(st)
	if !ok {
		return nil, fmt.Errorf("a %T is not a Trossian state", st)
	}
	return s, nil
}

func (g *trossianGame) Resolve(in TurnInput) (*TurnOutput, error) {
	s, err := g.state(in.State)
	if err != nil {
		return nil, err
	}
	ti := trossian.Input{Map: g.sc.Map, Rules: g.r, State: s, Orders: in.Orders, Seed: in.Seed}
	for _, raw := range in.Rulings {
		var r trossian.Ruling
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("stored ruling: %w", err)
		}
		ti.Rulings = append(ti.Rulings, r)
	}
	for _, raw := range in.Results {
		var r trossian.BattleResult
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("stored tabletop result: %w", err)
		}
		ti.Battles = append(ti.Battles, r)
	}
	res, err := trossian.Resolve(ti)
	if err != nil {
		return nil, err
	}
	out := &TurnOutput{Events: res.Events, Rolls: res.Rolls}
	if res.State != nil {
		out.State = trossianState{res.State}
	}
	for _, sh := range res.Awaiting {
		data, err := json.Marshal(sh)
		if err != nil {
			return nil, err
		}
		out.Awaiting = append(out.Awaiting, BattleSheet{Key: sh.Province, Text: sheet.FormatSheet(sh), Data: data})
	}
	return out, nil
}

func (g *trossianGame) View(st State, n game.NationID) (any, error) {
	s, err := g.state(st)
	if err != nil {
		return nil, err
	}
	return trossian.View(g.sc.Map, g.r, s, n), nil
}

func (g *trossianGame) Check(text string, ctx CheckContext) *Reply {
	sctx := sheet.Context{Map: g.sc.Map, Rules: g.r, Game: ctx.Game, Nation: ctx.Nation, VerifyPassword: ctx.VerifyPassword,
		Deadline: ctx.Deadline, Zone: ctx.Zone, Replaces: ctx.Replaces}
	if s, ok := TrossianState(ctx.State); ok {
		sctx.State = s
	}
	r := sheet.Check(text, sctx)
	return &Reply{Nation: r.Nation, Turn: r.Turn, Refused: r.Refused, Orders: r.Orders, Diagnostics: r.Diagnostics,
		Text: r.Text(), Canonical: r.Canonical(), Receipt: r.Receipt, Report: r}
}

func (g *trossianGame) OrderKinds() []OrderKind {
	var out []OrderKind
	for _, k := range trossian.Kinds() {
		season := "turn"
		switch {
		case k.Turn == trossian.WinterTurn:
			season = "year-end"
		case k.Turn == trossian.PhaseTurn|trossian.WinterTurn:
			season = "any"
		}
		out = append(out, OrderKind{Keyword: k.Keyword, Season: season, Section: k.Section})
	}
	return out
}

func (g *trossianGame) EncodeOrders(o engine.Orders) ([]byte, error) {
	return trossian.MarshalOrders(o)
}

func (g *trossianGame) DecodeOrders(data []byte) (engine.Orders, error) {
	return trossian.UnmarshalOrders(data)
}

func (g *trossianGame) ReadResult(text string, awaiting []BattleSheet) (string, json.RawMessage, []parser.Diagnostic) {
	r, diags := sheet.ParseResult(text)
	if len(diags) > 0 {
		return r.Province, nil, diags
	}
	var keys []string
	for _, a := range awaiting {
		keys = append(keys, a.Key)
		if a.Key != r.Province {
			continue
		}
		var sh trossian.BattleSheet
		if err := json.Unmarshal(a.Data, &sh); err != nil {
			return r.Province, nil, []parser.Diagnostic{{Severity: parser.Error, Message: "the stored battle sheet: " + err.Error()}}
		}
		if err := r.Check(sh); err != nil {
			return r.Province, nil, []parser.Diagnostic{{Severity: parser.Error, Read: r.Province, Message: err.Error(),
				Hint: "Check the result against the battle sheet and send it again."}}
		}
	}
	if len(awaiting) > 0 && !slices.Contains(keys, r.Province) {
		return r.Province, nil, []parser.Diagnostic{{Severity: parser.Error, Read: r.Province,
			Message: fmt.Sprintf("no battle in %s awaits a result: expected one of %v", r.Province, keys), Hint: "Copy the RESULT line from the battle sheet."}}
	}
	data, err := json.Marshal(r)
	if err != nil {
		return r.Province, nil, []parser.Diagnostic{{Severity: parser.Error, Message: err.Error()}}
	}
	return r.Province, data, nil
}

// TurnLabelOf labels any turn on the Trossian calendar (campaign.TurnLabeller).
func (g *trossianGame) TurnLabelOf(turn int) string {
	return trossian.Calendar{StartYear: g.sc.StartYear}.Label(turn)
}

// AreaMap is the game's area map (campaign.AreaMapped).
func (g *trossianGame) AreaMap() *areamap.Map { return g.sc.Map }

// AreaView is a kingdom's View, or the whole state for the referee
// (campaign.AreaMapped).
func (g *trossianGame) AreaView(st State, n game.NationID) (any, error) {
	s, err := g.state(st)
	if err != nil {
		return nil, err
	}
	if n == engine.Referee {
		return s, nil
	}
	return trossian.View(g.sc.Map, g.r, s, n), nil
}

// NationName is a kingdom's name (campaign.NationNamer).
func (g *trossianGame) NationName(n game.NationID) string {
	for _, k := range g.sc.Map.Kingdoms {
		if k.ID == n {
			return k.Name
		}
	}
	return string(n)
}

var (
	_ Archived      = (*trossianGame)(nil)
	_ ArchiveOpener = trossianCampaign{}
	_ TurnLabeller  = (*trossianGame)(nil)
	_ AreaMapped    = (*trossianGame)(nil)
	_ NationNamer   = (*trossianGame)(nil)
)
