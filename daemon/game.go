// Package daemon is pbem's orchestration: it joins the store, the scenario,
// the order checker, the intake and the outbox into a running game.
//
// A Game is one campaign as the referee configured it: the config, the map
// and the ruleset, the scenario it started from, and the store that keeps
// everything that happens. The daemon's work is a set of small, idempotent
// steps, each of which saves before it has side effects (see
// ../shared/docs/reliability.md):
//
//   - intake stores each raw mail before anything else (package inbox), then
//     calls HandleMail;
//   - HandleMail reads the mail, authenticates its sender and checks it
//     without writing anything (decide), then records the outcome in one
//     transaction (commit): the submissions, every answer as an outbox row,
//     the mail's Message-ID, and the mail's new status. A crash before that
//     commit leaves the mail stored, to be handled again with the same
//     answers and the same Message-IDs; after it, the mail is done. A panic
//     is recovered, the mail quarantined, and its sender and the referee told;
//   - the outbox sends what is queued (package outbox).
//
// Every answer goes to a registered address — the nation's first, or the
// referee's — except the short note that tells an unknown sender (once per
// address) that it is not registered, which holds no game data. mail.go has
// the flow, sheet.go the order sheets and the referee's commands, answers.go
// the refusals.
//
// The rest by what it does: intake.go is what the daemon learns from its
// intake (its health, its listings, the server's clock); turn.go is the
// turn runner, with closing.go (when a turn's orders close), outage.go (the
// mail-outage guard), tabletop.go (battles on the referee's table) and
// rollback.go; reports.go, reportmodel.go, startreports.go and
// reminders.go are the outbound mail of a turn; gamestate.go names where
// each kind of the game's state between turns is kept (all of it in the
// store's typed tables) and holds the accessors they share; mailopts.go
// builds the intake's and the outbox's options from the config.
//
// Nothing here is a rule of the campaign: rules live in the engine and the
// ruleset, the order language in the parser.
package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/doorbell"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/store"
)

// Options tune a Game. The zero value (or nil) means the defaults.
type Options struct {
	// Logger receives the detail; default slog.Default().
	Logger *slog.Logger
	// Now is the clock; default time.Now. Tests set it.
	Now func() time.Time
	// DB is an already open store to use instead of opening the config's.
	DB *store.DB
	// NoStore opens the game without its store (for offline checks before
	// the game exists): State and Deadline then report the scenario's
	// starting position and no deadline.
	NoStore bool
	// ReadsOnly says the caller only reads the game ("pbem report",
	// "pbem status"): the store is opened checking its header only
	// (store.Options.HeaderCheck) rather than with SQLite's full integrity
	// check, which reads the whole file and is most of such a command's
	// time on a year's store. What writes (pbem run, resolve, the
	// referee's commands) keeps the full check.
	ReadsOnly bool
	// TurnMailer builds the mails about a resolved turn; nil means
	// Game.ReportMail (the PDF reports).
	TurnMailer TurnMailer
	// Narrate and Ledger tell the battles and the money in the reports;
	// nil means reports.Narrate and reports.Ledger.
	Narrate NarrateFunc
	Ledger  LedgerFunc
}

// NarrateFunc tells the battles, sieges and encounters among a nation's
// events (see reports.Input.Narrate).
type NarrateFunc = func(m *hexmap.Map, nation game.NationID, events []engine.Event) []reports.Narrative

// LedgerFunc turns a nation's money events into ledger lines (see
// reports.Input.Ledger).
type LedgerFunc = func(m *hexmap.Map, nation game.NationID, events []engine.Event) []reports.LedgerLine

// Game is one configured campaign, open for business.
type Game struct {
	Config   *config.Config     // the config it was opened with
	Scenario *scenario.Scenario // the scenario named by game.scenario
	Map      *hexmap.Map        // the scenario's map
	Rules    *ruleset.Ruleset   // the edition named by game.ruleset
	DB       *store.DB          // the store; nil when opened with NoStore
	Log      *slog.Logger       // where the detail goes
	Now      func() time.Time   // the clock (Options.Now)
	Zone     *time.Location     // game.timezone, in which deadlines are set and shown

	// Campaign is the game's rules behind the campaign seam (package
	// campaign), opened on the game's scenario: the Trossian campaign's,
	// or the SYW adapter's over Map, Rules and Scenario. For a campaign
	// that is not played on a hex map (campaign.HexPlayed), Scenario, Map
	// and Rules are nil and the daemon runs the game through the seam
	// alone (seam.go).
	Campaign campaign.Game
	// CampaignScenario is the scenario the campaign was opened on.
	CampaignScenario campaign.Scenario
	// seamOnly is Campaign when the daemon plays the game through the
	// seam alone (seam.go); nil for a game it serves by its SYW path.
	seamOnly campaign.Game

	ownDB bool

	// check is the order-sheet checker, parser.Check unless a test
	// changes it (to show that stored orders do not depend on it).
	check func(string, parser.CheckContext) *parser.Report

	// rulesOnce makes rulesVer, the version of the edition's rule tables.
	rulesOnce sync.Once
	rulesVer  string

	// TurnMailer builds the mails about a resolved turn; nil means
	// Game.ReportMail (the PDF reports).
	TurnMailer TurnMailer
	// Narrate and Ledger tell the battles and the money in the reports
	// (Options.Narrate, Options.Ledger); nil means the reports package's.
	Narrate NarrateFunc
	Ledger  LedgerFunc

	// turnWake wakes the turn runner (WakeTurns).
	turnWake chan struct{}
	// looksBegun and looksDone number the turn runner's looks: the number
	// of the last look begun and of the last one finished. A test that
	// proves nothing happened waits for a look begun after its change
	// (harness.runnerLooked) rather than for a while.
	looksBegun, looksDone atomic.Int64

	// watch is the turn runner's view of this process's intake
	// (closing.go); run is this process's record (runstate.go).
	watch intakeWatch
	run   runRecord
	// runner is the turn runner's state as last recorded (runstate.go).
	runner struct {
		sync.Mutex
		last runnerState
	}

	// beforeTurnCommit, when set (tests only), runs inside the transaction
	// that commits a resolved turn, last; an error aborts it as a crash
	// there would.
	beforeTurnCommit func(turn int) error

	// beforeCommit, when set (tests only), runs inside the transaction that
	// records a mail's outcome, just before the mail's status changes; an
	// error aborts the transaction as a crash there would.
	beforeCommit func(m store.Mail) error

	// lastRead is the last mail the handler read, for its masked copy
	// (masking.go).
	lastRead readCache

	// referee holds the hash of the referee's password (refereeauth.go).
	referee struct {
		once sync.Once
		hash string
		err  error
	}

	// folded keeps, per nation, the last report carriedReport folded
	// (reportmodel.go).
	folded struct {
		sync.Mutex
		last map[game.NationID]foldedReport
	}

	// cache keeps the decoded state of the latest turn record, and the
	// password checks that passed, so that a burst of sheets does not decode
	// the state or run bcrypt once per mail.
	cache struct {
		sync.Mutex
		turn, version int
		state         *engine.State
		// cstate is the campaign's state behind state, for a game played
		// through the seam (seam.go); nil otherwise.
		cstate   campaign.State
		verified map[[32]byte]bool
	}
}

// ConfigError is a problem in the configuration, or in the scenario it
// names, found when a game is opened or created: the referee fixes the
// config file (or the scenario), not the machine. pbem exits with code 3
// for it.
type ConfigError struct {
	Key string // the config key at fault, such as "game.scenario"
	Err error  // what is wrong and what to do
}

// Error reads "KEY: what is wrong".
func (e *ConfigError) Error() string { return e.Key + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

func configErrorf(key, format string, args ...any) error {
	return &ConfigError{Key: key, Err: fmt.Errorf(format, args...)}
}

// Open loads the config's scenario and ruleset and opens the store (creating
// the data folder). It does not create the game (see Ensure), but a game the
// store holds already must have been made with the config's ruleset.
// Problems in the config come back as a *ConfigError.
func Open(ctx context.Context, cfg *config.Config, opts *Options) (*Game, error) {
	if opts == nil {
		opts = &Options{}
	}
	g := &Game{Config: cfg, Log: opts.Logger, Now: opts.Now, DB: opts.DB, TurnMailer: opts.TurnMailer,
		Narrate: opts.Narrate, Ledger: opts.Ledger, turnWake: make(chan struct{}, 1)}
	if g.Log == nil {
		g.Log = slog.Default()
	}
	if g.Now == nil {
		g.Now = time.Now
	}
	var err error
	if g.Zone, err = cfg.Location(); err != nil {
		return nil, configErrorf("game.timezone", "%q is not a time zone (%v); use an IANA name such as Europe/London", cfg.Game.Timezone, err)
	}
	if c, ok := seamCampaign(cfg.Game.Ruleset); ok {
		// seam.go: a campaign the daemon plays through the seam alone.
		if err := g.openCampaign(cfg, c); err != nil {
			return nil, err
		}
	} else {
		if g.Rules, err = ruleset.ByID(cfg.Game.Ruleset); err != nil {
			return nil, &ConfigError{Key: "game.ruleset", Err: err}
		}
		g.Rules = g.Rules.WithBattle(cfg.Game.BattleModel)
		if g.Scenario, _, err = LoadScenario(cfg); err != nil {
			return nil, configErrorf("game.scenario", "cannot load the scenario in %s: %w; give the folder holding map.txt and scenario.yaml (such as scenarios/default)",
				cfg.ScenarioDir(), err)
		}
		g.Map = g.Scenario.Map
		// seam.go: the SYW adapter behind Campaign; the daemon serves the
		// game by its SYW path (campaign.HexPlayed).
		g.Campaign, g.CampaignScenario = campaign.SYWGame(g.Scenario, g.Rules, cfg.Game.Battles == "table")
	}
	if g.DB == nil && !opts.NoStore {
		// The data folder holds the store and the mailboxes, raw mail with
		// PASSWORD lines in both: its owner's alone, tightened if it was not.
		dir := cfg.Path(cfg.DataDir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("creating the data folder: %w", err)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("making the data folder %s its owner's alone: %w", dir, err)
		}
		// Mail this process queues rings the bell beside the store, so
		// that the outbox of a "pbem run" beside it (Daemon.Run listens)
		// sends it at once (internal/doorbell).
		bell := doorbell.Beside(cfg.StorePath())
		if g.DB, err = store.Open(cfg.StorePath(), &store.Options{OnMailQueued: func() { doorbell.Ring(bell) }, HeaderCheck: opts.ReadsOnly}); err != nil {
			return nil, err
		}
		g.ownDB = true
	}
	if g.DB != nil {
		if err := g.checkEdition(ctx); err != nil {
			g.Close()
			return nil, err
		}
	}
	return g, nil
}

// checkEdition refuses a config whose ruleset is not the one the stored game
// was created with: a sheet checked, or a turn resolved, under the other
// edition would be wrong without anyone noticing.
func (g *Game) checkEdition(ctx context.Context) error {
	existing, err := g.DB.Game(ctx, g.ID())
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if existing.Ruleset != g.rulesetID() {
		return configErrorf("game.ruleset", "game %s was created with ruleset %s but the config says %s, and a running game cannot change edition: "+
			"set game.ruleset back to %s, or start another game (a new game.id or data_dir)", g.ID(), existing.Ruleset, g.rulesetID(), existing.Ruleset)
	}
	return nil
}

// Close closes the store if Open opened it.
func (g *Game) Close() error {
	if g.ownDB && g.DB != nil {
		return g.DB.Close()
	}
	return nil
}

// ID is the game's ID.
func (g *Game) ID() string { return g.Config.Game.ID }

// Ensure creates the game in the store from the scenario if it is not there
// yet: the game row, every nation with its registered addresses and the hash
// of its initial password, and the starting position as turn 0 — all in one
// transaction, with the first turn's deadline from the schedule. It reports
// whether it created the game. (Open has checked
// that an existing game was made with the same ruleset.)
func (g *Game) Ensure(ctx context.Context) (created bool, err error) {
	_, err = g.DB.Game(ctx, g.ID())
	switch {
	case err == nil:
		return false, nil
	case !errors.Is(err, store.ErrNotFound):
		return false, err
	}
	stateJSON, firstTurn, err := g.initialState()
	if err != nil {
		return false, err
	}
	type nationRow struct {
		id, hash  string
		addresses []string
	}
	var rows []nationRow
	for _, id := range g.Config.NationIDs() {
		n := g.Config.Game.Nations[id]
		if !g.hasNation(game.NationID(id)) {
			return false, configErrorf("game.nations."+id, "the scenario's map has no nation %q; use the map's nation ids (%s)", id, g.mapNationIDs())
		}
		pw, err := n.Secret.Value()
		if err != nil {
			return false, &ConfigError{Key: "game.nations." + id + ".password", Err: err}
		}
		h, err := password.Hash(pw.Reveal())
		if err != nil {
			return false, &ConfigError{Key: "game.nations." + id + ".password", Err: err}
		}
		rows = append(rows, nationRow{id: id, hash: h, addresses: n.Addresses})
	}
	now := g.Now().UTC()
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if err := tx.CreateGame(ctx, store.Game{ID: g.ID(), Name: g.Config.Game.Name, Ruleset: g.rulesetID(),
			Scenario: g.Config.Game.Scenario, CreatedAt: now}); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tx.AddNation(ctx, store.Nation{GameID: g.ID(), ID: r.id, PasswordHash: r.hash, Addresses: r.addresses}); err != nil {
				return err
			}
		}
		if _, err := tx.SaveTurn(ctx, store.TurnRecord{GameID: g.ID(), Turn: 0, Status: store.TurnInitial,
			State: stateJSON, ResolvedAt: now}); err != nil {
			return err
		}
		return g.openDeadline(ctx, tx, firstTurn, now)
	})
	if err != nil {
		return false, err
	}
	g.Log.Info("game created", "game", g.ID(), "ruleset", g.rulesetID(), "scenario", g.Config.Game.Scenario, "nations", len(rows))
	// Every nation is mailed its starting report (once; a crash here is
	// made good at the daemon's next start).
	if _, err := g.SendStartReports(ctx); err != nil {
		return true, fmt.Errorf("the game is created, but its starting reports could not be queued (pbem run queues them): %w", err)
	}
	return true, nil
}

// State returns the game as it stands: the latest resolved turn's state,
// whose Turn is the turn orders are now taken for.
func (g *Game) State(ctx context.Context) (*engine.State, error) {
	st, _, err := g.current(ctx)
	return st, err
}

// Deadline returns the deadline of the turn now open, and whether there is
// one (a referee who runs turns by hand has none, and a game not created
// yet has none).
func (g *Game) Deadline(ctx context.Context) (time.Time, bool) {
	_, d, err := g.current(ctx)
	return d, err == nil && !d.IsZero()
}

// current returns the state of the latest turn record and the stored
// deadline of the turn now open (zero for none).
func (g *Game) current(ctx context.Context) (*engine.State, time.Time, error) {
	if g.DB == nil {
		st, err := g.startingState()
		return st, time.Time{}, err
	}
	// The head first: the state is read and decoded only when it is not
	// the one decoded last (every mail asks; few turns change it).
	rec, err := g.DB.LatestTurnHead(ctx, g.ID())
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, time.Time{}, fmt.Errorf("game %s has not been created yet: run \"pbem new\" (or \"pbem run\", which creates it)", g.ID())
		}
		return nil, time.Time{}, err
	}
	st, ok := g.cachedState(rec)
	if !ok {
		if rec, err = g.DB.TurnVersion(ctx, g.ID(), rec.Turn, rec.Version); err != nil {
			return nil, time.Time{}, err
		}
		if st, err = g.decoded(rec); err != nil {
			return nil, time.Time{}, err
		}
	}
	d, err := g.DB.TurnDeadline(ctx, g.ID(), st.Turn)
	switch {
	case err == nil:
		return st, d.At.In(g.Zone), nil
	case !errors.Is(err, store.ErrNotFound):
		return nil, time.Time{}, err
	}
	// No stored deadline: a game stored by an older pbem that the daemon
	// has not opened since (it stores one at start), or a turn the schedule
	// gives none. Show what the schedule would give — unless the game is
	// over (gameover.go), when no turn is open.
	deadline, ok := g.scheduled(time.Time{}, rec.ResolvedAt)
	if !ok || g.gameOver(st) != nil {
		deadline = time.Time{}
	}
	return st, deadline, nil
}

// cachedState returns a clone of the state decoded last, if it is rec's
// (same turn and version).
func (g *Game) cachedState(rec store.TurnRecord) (*engine.State, bool) {
	g.cache.Lock()
	defer g.cache.Unlock()
	if g.cache.state == nil || g.cache.turn != rec.Turn || g.cache.version != rec.Version {
		return nil, false
	}
	return g.cache.state.Clone(), true
}

// decoded returns the state of rec, decoded once per turn record.
func (g *Game) decoded(rec store.TurnRecord) (*engine.State, error) {
	g.cache.Lock()
	defer g.cache.Unlock()
	if g.cache.state == nil || g.cache.turn != rec.Turn || g.cache.version != rec.Version {
		if g.seamOnly != nil { // seam.go: the campaign's state, and its stand-in
			cs, err := g.seamOnly.DecodeState(rec.State)
			if err != nil {
				return nil, fmt.Errorf("the stored state of turn %d is damaged: %w", rec.Turn, err)
			}
			g.cache.turn, g.cache.version, g.cache.state, g.cache.cstate = rec.Turn, rec.Version, g.standIn(cs), cs
			return g.cache.state.Clone(), nil
		}
		var st engine.State
		if err := json.Unmarshal(rec.State, &st); err != nil {
			return nil, fmt.Errorf("the stored state of turn %d is damaged: %w", rec.Turn, err)
		}
		g.cache.turn, g.cache.version, g.cache.state = rec.Turn, rec.Version, &st
	}
	// Callers may not change the state; a clone keeps the cache safe from
	// a careless one.
	return g.cache.state.Clone(), nil
}

// VerifyPassword reports whether pw is the nation's password for turn; a
// store that cannot be read counts as a wrong password (see verifyPassword
// for the daemon, which tells the two apart).
func (g *Game) VerifyPassword(ctx context.Context, nation game.NationID, turn int, pw string) bool {
	ok, _ := g.verifyPassword(ctx, nation, turn, pw)
	return ok
}

// verifyPassword is VerifyPassword with the store's error, so that a
// passing fault is retried rather than answered as a wrong password. A
// password that passed once for a given stored hash is remembered (as a
// SHA-256 of the hash and the password, in memory only), so bcrypt runs
// once per player and password, not once per mail.
func (g *Game) verifyPassword(ctx context.Context, nation game.NationID, turn int, pw string) (bool, error) {
	h, err := g.DB.PasswordHash(ctx, g.ID(), string(nation), turn)
	if errors.Is(err, store.ErrNotFound) || err == nil && h == "" {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	key := sha256.Sum256([]byte(h + "\x00" + password.Normalize(pw)))
	g.cache.Lock()
	ok := g.cache.verified[key]
	g.cache.Unlock()
	if ok {
		return true, nil
	}
	if password.Verify(h, pw) != nil {
		return false, nil
	}
	g.cache.Lock()
	if g.cache.verified == nil {
		g.cache.verified = map[[32]byte]bool{}
	}
	g.cache.verified[key] = true
	g.cache.Unlock()
	return true, nil
}

// mapNationIDs lists the map's nation ids, for an error message.
func (g *Game) mapNationIDs() string {
	var ids []string
	for _, n := range g.nations() {
		ids = append(ids, string(n.ID))
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}
