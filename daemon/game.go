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
//   - HandleMail classifies, authenticates and checks the mail, records the
//     submission and the acknowledgment's outbox row in one transaction, and
//     only then marks the mail handled — so a crash at any point either
//     leaves the mail to be handled again, with the same deterministic
//     Message-ID (the outbox ignores the repeat), or finds it done;
//   - the outbox sends what is queued (package outbox).
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
	"sync"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/password"
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
}

// Game is one configured campaign, open for business.
type Game struct {
	Config   *config.Config
	Scenario *scenario.Scenario
	Map      *hexmap.Map
	Rules    *ruleset.Ruleset
	DB       *store.DB
	Log      *slog.Logger
	Now      func() time.Time
	Zone     *time.Location

	ownDB bool

	// cache keeps the decoded state of the latest turn record, and the
	// password checks that passed, so that a burst of sheets does not decode
	// the state or run bcrypt once per mail.
	cache struct {
		sync.Mutex
		turn, version int
		state         *engine.State
		verified      map[[32]byte]bool
	}
}

// Open loads the config's scenario and ruleset and opens the store (creating
// the data folder). It does not create the game; see Ensure.
func Open(ctx context.Context, cfg *config.Config, opts *Options) (*Game, error) {
	if opts == nil {
		opts = &Options{}
	}
	g := &Game{Config: cfg, Log: opts.Logger, Now: opts.Now, DB: opts.DB}
	if g.Log == nil {
		g.Log = slog.Default()
	}
	if g.Now == nil {
		g.Now = time.Now
	}
	var err error
	if g.Zone, err = cfg.Location(); err != nil {
		return nil, fmt.Errorf("game.timezone %q: %w", cfg.Game.Timezone, err)
	}
	if g.Rules, err = ruleset.ByID(cfg.Game.Ruleset); err != nil {
		return nil, err
	}
	if g.Scenario, err = scenario.Load(cfg.ScenarioDir()); err != nil {
		return nil, fmt.Errorf("loading the scenario in %s: %w", cfg.ScenarioDir(), err)
	}
	g.Map = g.Scenario.Map
	if g.DB == nil && !opts.NoStore {
		if err := os.MkdirAll(cfg.Path(cfg.DataDir), 0o750); err != nil {
			return nil, fmt.Errorf("creating the data folder: %w", err)
		}
		if g.DB, err = store.Open(cfg.StorePath(), nil); err != nil {
			return nil, err
		}
		g.ownDB = true
	}
	return g, nil
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
// transaction. It reports whether it created the game. An existing game must
// have been made with the same ruleset.
func (g *Game) Ensure(ctx context.Context) (created bool, err error) {
	existing, err := g.DB.Game(ctx, g.ID())
	switch {
	case err == nil:
		if existing.Ruleset != g.Rules.ID {
			return false, fmt.Errorf("game %s was created with ruleset %s but the config says %s; a running game cannot change edition",
				g.ID(), existing.Ruleset, g.Rules.ID)
		}
		return false, nil
	case !errors.Is(err, store.ErrNotFound):
		return false, err
	}
	st, err := g.Scenario.InitialState(g.ID(), g.Rules.ID)
	if err != nil {
		return false, fmt.Errorf("building the starting position: %w", err)
	}
	stateJSON, err := json.Marshal(st)
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
		if _, ok := g.Map.Nation(game.NationID(id)); !ok {
			return false, fmt.Errorf("config game.nations.%s: the scenario's map has no such nation", id)
		}
		pw, err := n.Secret.Value()
		if err != nil {
			return false, fmt.Errorf("game.nations.%s password: %w", id, err)
		}
		h, err := password.Hash(pw.Reveal())
		if err != nil {
			return false, fmt.Errorf("game.nations.%s password: %w", id, err)
		}
		rows = append(rows, nationRow{id: id, hash: h, addresses: n.Addresses})
	}
	now := g.Now().UTC()
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if err := tx.CreateGame(ctx, store.Game{ID: g.ID(), Name: g.Config.Game.Name, Ruleset: g.Rules.ID,
			Scenario: g.Config.Game.Scenario, CreatedAt: now}); err != nil {
			return err
		}
		for _, r := range rows {
			if err := tx.AddNation(ctx, store.Nation{GameID: g.ID(), ID: r.id, PasswordHash: r.hash, Addresses: r.addresses}); err != nil {
				return err
			}
		}
		_, err := tx.SaveTurn(ctx, store.TurnRecord{GameID: g.ID(), Turn: 0, Status: store.TurnInitial,
			State: stateJSON, ResolvedAt: now})
		return err
	})
	if err != nil {
		return false, err
	}
	g.Log.Info("game created", "game", g.ID(), "ruleset", g.Rules.ID, "scenario", g.Config.Game.Scenario, "nations", len(rows))
	return true, nil
}

// State returns the game as it stands: the latest resolved turn's state,
// whose Turn is the turn orders are now taken for.
func (g *Game) State(ctx context.Context) (*engine.State, error) {
	if g.DB == nil {
		return g.Scenario.InitialState(g.ID(), g.Rules.ID)
	}
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("game %s has not been created yet: run \"pbem new\" (or \"pbem run\", which creates it)", g.ID())
		}
		return nil, err
	}
	g.cache.Lock()
	defer g.cache.Unlock()
	if g.cache.state == nil || g.cache.turn != rec.Turn || g.cache.version != rec.Version {
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

// VerifyPassword reports whether pw is the nation's password for turn. A
// password that passed once for a given stored hash is remembered (as a
// SHA-256 of the hash and the password, in memory only), so bcrypt runs once
// per player and password, not once per mail.
func (g *Game) VerifyPassword(ctx context.Context, nation game.NationID, turn int, pw string) bool {
	h, err := g.DB.PasswordHash(ctx, g.ID(), string(nation), turn)
	if err != nil || h == "" {
		return false
	}
	key := sha256.Sum256([]byte(h + "\x00" + password.Normalize(pw)))
	g.cache.Lock()
	ok := g.cache.verified[key]
	g.cache.Unlock()
	if ok {
		return true
	}
	if password.Verify(h, pw) != nil {
		return false
	}
	g.cache.Lock()
	if g.cache.verified == nil {
		g.cache.verified = map[[32]byte]bool{}
	}
	g.cache.verified[key] = true
	g.cache.Unlock()
	return true
}

// Deadline returns the deadline of the turn now open, and whether there is
// one (a referee who runs turns by hand has none).
func (g *Game) Deadline(ctx context.Context) (time.Time, bool) {
	if g.DB == nil {
		return time.Time{}, false
	}
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return time.Time{}, false
	}
	return g.Config.Game.Deadline.Next(rec.ResolvedAt, g.Zone)
}
