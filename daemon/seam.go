package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// Campaigns behind the seam. A game's ruleset chooses its campaign
// (campaign.ForRuleset). The SYW campaign is played on a hex map
// (campaign.HexPlayed): the daemon serves it by the SYW path it has always
// had — Map, Rules and Scenario are set, and Campaign is the SYW adapter
// over them. Any other campaign (the Trossian one, seed 004) the daemon
// plays through the seam alone: Map, Rules and Scenario are nil, and every
// step that reads the rules asks the campaign.Game instead —
//
//   - the state is the campaign's (DecodeState); what the daemon's
//     scheduling reads of it (the turn open, the nations still playing) is
//     a stand-in engine.State with only Turn and Nations (standIn), so the
//     deadlines, reminders, early close, the mail-outage guard and the
//     referee's turn commands run unchanged; CampaignState gives the
//     campaign's own;
//   - an order sheet is checked by the campaign's checker (seam_sheet.go)
//     and its orders stored with its codec;
//   - a turn is resolved by the campaign (seam_turn.go): a turn with a
//     battle for the referee's table waits, its battle sheet mailed to the
//     referee; his RESULT is read by the campaign against the sheet and
//     stored, and the turn resolves when every battle has one;
//   - the reports are the campaign's view drawn by package reports
//     (seam_reports.go; campaign.AreaMapped: the area map with the nation's
//     fog).
//
// The features only SYW has (treaties, special-action requests and their
// rulings, the battle model, victory) are not asked of a campaign that
// does not implement them: the referee's commands that need them are
// refused for such a game with the reason (seamCommands).

// seamCampaign returns the campaign of a ruleset when the daemon plays it
// through the seam alone: a ruleset no SYW edition has.
func seamCampaign(id string) (campaign.Campaign, bool) {
	if _, err := ruleset.ByID(id); err == nil {
		return nil, false
	}
	c, err := campaign.ForRuleset(id)
	return c, err == nil
}

// openCampaign opens a game of a campaign played through the seam: its
// scenario (the config's game.scenario, or the campaign's built-in one when
// that folder is the campaign's default and does not exist) and its rules.
func (g *Game) openCampaign(cfg *config.Config, c campaign.Campaign) error {
	sc, err := loadCampaignScenario(cfg, c)
	if err != nil {
		return configErrorf("game.scenario", "cannot load the %s scenario in %s: %w; give the folder holding map.txt and scenario.yaml (such as scenarios/%s)",
			c.ID(), cfg.ScenarioDir(), err, c.ID())
	}
	cg, err := c.Open(cfg.Game.Ruleset, sc)
	if err != nil {
		return &ConfigError{Key: "game.ruleset", Err: err}
	}
	g.Campaign, g.CampaignScenario = cg, sc
	if _, hex := cg.(campaign.HexPlayed); !hex {
		g.seamOnly = cg
	}
	return nil
}

// loadCampaignScenario reads the campaign's scenario named by the config.
func loadCampaignScenario(cfg *config.Config, c campaign.Campaign) (campaign.Scenario, error) {
	dir := cfg.ScenarioDir()
	if isCampaignDefault(cfg.Game.Scenario, c) {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return c.LoadScenario(c.DefaultScenario(), path.Join("scenarios", c.ID()))
		}
	}
	return c.LoadScenario(os.DirFS(dir), dir)
}

// isCampaignDefault reports whether dir names the campaign's default
// scenario folder (scenarios/<campaign>, relative to any folder).
func isCampaignDefault(dir string, c campaign.Campaign) bool {
	dir = filepath.ToSlash(filepath.Clean(dir))
	def := "scenarios/" + c.ID()
	return dir == def || len(dir) > len(def) && dir[len(dir)-len(def)-1:] == "/"+def
}

// rulesetID is the game's ruleset as stored with the game.
func (g *Game) rulesetID() string {
	if g.Rules != nil {
		return g.Rules.ID
	}
	if g.Campaign != nil {
		return g.Campaign.Ruleset()
	}
	return g.Config.Game.Ruleset
}

// nations are the scenario's nations.
func (g *Game) nations() []game.Nation {
	if g.Map != nil {
		return g.Map.Nations
	}
	if g.CampaignScenario != nil {
		return g.CampaignScenario.Nations()
	}
	return nil
}

// hasNation reports whether the scenario has nation n.
func (g *Game) hasNation(n game.NationID) bool {
	return slices.ContainsFunc(g.nations(), func(x game.Nation) bool { return x.ID == n })
}

// campaignNationName names a nation of a game without a hex map.
func (g *Game) campaignNationName(n game.NationID) string {
	if nn, ok := g.Campaign.(campaign.NationNamer); ok {
		return nn.NationName(n)
	}
	for _, x := range g.nations() {
		if x.ID == n && x.Name != "" {
			return x.Name
		}
	}
	return string(n)
}

// initialState is the starting position as stored (turn 0's record) and
// the first turn it opens.
func (g *Game) initialState() ([]byte, int, error) {
	if g.seamOnly != nil {
		cs, err := g.seamOnly.NewState(g.ID())
		if err != nil {
			return nil, 0, fmt.Errorf("building the starting position: %w", err)
		}
		data, err := cs.MarshalJSON()
		return data, cs.TurnNumber(), err
	}
	st, err := g.Scenario.InitialState(g.ID(), g.Rules.ID)
	if err != nil {
		return nil, 0, fmt.Errorf("building the starting position: %w", err)
	}
	data, err := json.Marshal(st)
	return data, st.Turn, err
}

// startingState is the starting position as the scheduling reads it.
func (g *Game) startingState() (*engine.State, error) {
	if g.seamOnly != nil {
		cs, err := g.seamOnly.NewState(g.ID())
		if err != nil {
			return nil, err
		}
		return g.standIn(cs), nil
	}
	return g.Scenario.InitialState(g.ID(), g.Rules.ID)
}

// standIn is what the daemon's scheduling reads of a campaign's state: the
// turn open and the nations, those no longer playing marked eliminated.
func (g *Game) standIn(cs campaign.State) *engine.State {
	st := &engine.State{Game: g.ID(), Ruleset: g.rulesetID(), Turn: cs.TurnNumber()}
	playing := cs.Playing()
	for _, n := range g.nations() {
		st.Nations = append(st.Nations, engine.NationState{ID: n.ID, Eliminated: !slices.Contains(playing, n.ID)})
	}
	return st
}

// labelOf labels a turn for people: the campaign's calendar for a game
// played through the seam, the SYW calendar otherwise.
func (g *Game) labelOf(st *engine.State, turn int) string {
	if g.seamOnly != nil {
		if l, ok := g.seamOnly.(campaign.TurnLabeller); ok {
			return l.TurnLabelOf(turn)
		}
		return fmt.Sprintf("Turn %d", turn)
	}
	return st.Calendar.Label(turn)
}

// CampaignState returns the game as it stands, as its campaign keeps it:
// the latest turn record's state, whose TurnNumber is the turn orders are
// now taken for (the starting position for a game opened without its
// store). State gives the same game as the SYW engine's state — for a game
// played through the seam, its stand-in (Turn and Nations only).
func (g *Game) CampaignState(ctx context.Context) (campaign.State, error) {
	if g.Campaign == nil {
		return nil, fmt.Errorf("game %s has no campaign behind the seam", g.ID())
	}
	if g.DB == nil {
		return g.Campaign.NewState(g.ID())
	}
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("game %s has not been created yet: run \"pbem new\" (or \"pbem run\", which creates it)", g.ID())
		}
		return nil, err
	}
	return g.campaignStateOf(rec)
}

// campaignStateOf decodes a turn record's state with the campaign, afresh
// (a campaign may change the state it resolves from).
func (g *Game) campaignStateOf(rec store.TurnRecord) (campaign.State, error) {
	cs, err := g.Campaign.DecodeState(rec.State)
	if err != nil {
		return nil, fmt.Errorf("the stored state of turn %d is damaged: %w", rec.Turn, err)
	}
	return cs, nil
}

// seamCommands are the referee's commands a game played through the seam
// takes: those about the turn — RESOLVE NOW, and PREVIEW, ROLLBACK and
// RERUN, which resolve a turn by decideFrom as the turn runner does
// (decideCampaign) —, its deadline, the mail and the passwords, and RULE,
// the campaign's rulings (referee_rule.go). The others read what only SYW
// has: requests and their rulings (APPROVE, DENY), treaties (BREACH, LIFT),
// the battle model (BATTLE hex TABLE: every battle of such a campaign is
// fought on the table already).
var seamCommands = []string{"resolve", "preview", "rollback", "rerun", "deadline-extend", "deadline-set", "reset-password",
	"resend", "requeue", "status", "rule"}

// seamRefusal refuses a referee's command a game played through the seam
// does not take; nil for one it does (and for every command of an SYW
// game).
func (g *Game) seamRefusal(verb string) error {
	if g.seamOnly == nil || slices.Contains(seamCommands, verb) {
		return nil
	}
	return refusef("the %s campaign's games do not take this command (it needs what only the SYW campaign has); "+
		"docs/referee.md lists the commands each campaign takes", g.rulesetID())
}

// RulesName names the game's rules for people: the SYW edition's name
// ("SYW 1752"), or the campaign's ruleset for a game played through the
// seam ("trossian").
func (g *Game) RulesName() string {
	if g.Rules != nil {
		return g.Rules.Name
	}
	return g.rulesetID()
}

// ScenarioName names the game's map for people.
func (g *Game) ScenarioName() string {
	if g.Map != nil {
		return g.Map.Name
	}
	if g.CampaignScenario != nil {
		return g.CampaignScenario.Name()
	}
	return ""
}

// TurnLabel labels a turn for people on the game's calendar ("Turn 2, May
// 1752", "Turn 2, Mid Spring 1801").
func (g *Game) TurnLabel(st *engine.State, turn int) string { return g.labelOf(st, turn) }

// CheckSheet checks an order sheet of a game played through the seam with
// its campaign's checker, against the game as it stands, as a mail would
// be checked, saving nothing ("pbem check"). nation may be "" (the
// sheet's NATION line).
func (g *Game) CheckSheet(ctx context.Context, text string, nation game.NationID) (*campaign.Reply, error) {
	if g.Campaign == nil {
		return nil, fmt.Errorf("game %s has no campaign behind the seam", g.ID())
	}
	cs, err := g.CampaignState(ctx)
	if err != nil {
		return nil, err
	}
	deadline, _ := g.Deadline(ctx)
	return g.Campaign.Check(text, campaign.CheckContext{State: cs, Game: g.ID(), Nation: nation, Deadline: deadline, Zone: g.Zone}), nil
}
