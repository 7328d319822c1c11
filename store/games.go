package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Game is one campaign. A daemon usually runs one, but the store keys
// everything by game so that a file can hold several.
type Game struct {
	ID        string    // short id used in subjects, Message-IDs and sheet headers
	Name      string    // shown to players
	Ruleset   string    // ruleset name, such as "syw-1752"
	Scenario  string    // the scenario folder the game was started from
	CreatedAt time.Time // set by the caller
	Metadata  []byte    // JSON chosen by the caller (for example the game's config); may be nil
}

// CreateGame adds a game. A game with the same ID is an error wrapping
// ErrExists.
func (db *DB) CreateGame(ctx context.Context, g Game) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.CreateGame(ctx, g) })
}

// CreateGame is DB.CreateGame inside a transaction.
func (tx *Tx) CreateGame(ctx context.Context, g Game) error {
	if err := nonEmpty("CreateGame", "ID", g.ID, "Name", g.Name, "Ruleset", g.Ruleset); err != nil {
		return err
	}
	if g.CreatedAt.IsZero() {
		return fmt.Errorf("store: CreateGame %s: CreatedAt is zero: %w", g.ID, ErrInvalid)
	}
	_, err := tx.exec(ctx, `INSERT INTO games (id, name, ruleset, scenario, created_at, metadata)
		VALUES (?, ?, ?, ?, ?, ?)`, g.ID, g.Name, g.Ruleset, g.Scenario, encTime(g.CreatedAt), g.Metadata)
	if isUniqueViolation(err) {
		return fmt.Errorf("store: game %q: %w", g.ID, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("store: CreateGame %s: %w", g.ID, err)
	}
	return nil
}

// Game returns the game with the given id.
func (db *DB) Game(ctx context.Context, id string) (g Game, err error) {
	err = db.view(ctx, func(tx *Tx) error { g, err = tx.Game(ctx, id); return err })
	return g, err
}

// Game is DB.Game inside a transaction.
func (tx *Tx) Game(ctx context.Context, id string) (Game, error) {
	games, err := tx.queryGames(ctx, `WHERE id = ?`, id)
	if err != nil {
		return Game{}, err
	}
	if len(games) == 0 {
		return Game{}, fmt.Errorf("store: game %q: %w", id, ErrNotFound)
	}
	return games[0], nil
}

// Games returns every game, ordered by id.
func (db *DB) Games(ctx context.Context) (gs []Game, err error) {
	err = db.view(ctx, func(tx *Tx) error { gs, err = tx.Games(ctx); return err })
	return gs, err
}

// Games is DB.Games inside a transaction.
func (tx *Tx) Games(ctx context.Context) ([]Game, error) {
	return tx.queryGames(ctx, `ORDER BY id`)
}

func (tx *Tx) queryGames(ctx context.Context, where string, args ...any) ([]Game, error) {
	rows, err := tx.query(ctx, `SELECT id, name, ruleset, scenario, created_at, metadata FROM games `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading games: %w", err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		var g Game
		var created string
		if err := rows.Scan(&g.ID, &g.Name, &g.Ruleset, &g.Scenario, &created, &g.Metadata); err != nil {
			return nil, fmt.Errorf("store: reading games: %w", err)
		}
		if g.CreatedAt, err = decTime(created); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading games: %w", err)
	}
	return out, nil
}

// Nation is one player position in a game.
//
// A password change ordered during a turn takes effect from a later turn: it
// waits in PendingPasswordHash until then, and PasswordHash(turn) picks the
// hash in force for the turn a sheet is for.
type Nation struct {
	GameID              string   // the game it belongs to
	ID                  string   // nation id, such as "eisenmark"
	PasswordHash        string   // the hash in force (the store never sees a password)
	Addresses           []string // registered sender addresses, sorted, compared case-insensitively
	PendingPasswordHash string   // "" when no change is pending
	PendingFromTurn     int      // first turn PendingPasswordHash applies to
}

// AddNation adds a nation to an existing game, with its addresses and
// password hash. The pending fields are ignored. A nation that exists
// already is an error wrapping ErrExists.
func (db *DB) AddNation(ctx context.Context, n Nation) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.AddNation(ctx, n) })
}

// AddNation is DB.AddNation inside a transaction.
func (tx *Tx) AddNation(ctx context.Context, n Nation) error {
	if err := nonEmpty("AddNation", "GameID", n.GameID, "ID", n.ID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO nations (game_id, nation, password_hash) VALUES (?, ?, ?)`,
		n.GameID, n.ID, n.PasswordHash)
	if isUniqueViolation(err) {
		return fmt.Errorf("store: nation %q in game %q: %w", n.ID, n.GameID, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("store: AddNation %s/%s: %w", n.GameID, n.ID, err)
	}
	return tx.SetAddresses(ctx, n.GameID, n.ID, n.Addresses)
}

// Nation returns one nation of a game.
func (db *DB) Nation(ctx context.Context, gameID, nation string) (n Nation, err error) {
	err = db.view(ctx, func(tx *Tx) error { n, err = tx.Nation(ctx, gameID, nation); return err })
	return n, err
}

// Nation is DB.Nation inside a transaction.
func (tx *Tx) Nation(ctx context.Context, gameID, nation string) (Nation, error) {
	ns, err := tx.queryNations(ctx, `WHERE game_id = ? AND nation = ?`, gameID, nation)
	if err != nil {
		return Nation{}, err
	}
	if len(ns) == 0 {
		return Nation{}, fmt.Errorf("store: nation %q in game %q: %w", nation, gameID, ErrNotFound)
	}
	return ns[0], nil
}

// Nations returns every nation of a game, ordered by id.
func (db *DB) Nations(ctx context.Context, gameID string) (ns []Nation, err error) {
	err = db.view(ctx, func(tx *Tx) error { ns, err = tx.Nations(ctx, gameID); return err })
	return ns, err
}

// Nations is DB.Nations inside a transaction.
func (tx *Tx) Nations(ctx context.Context, gameID string) ([]Nation, error) {
	return tx.queryNations(ctx, `WHERE game_id = ? ORDER BY nation`, gameID)
}

func (tx *Tx) queryNations(ctx context.Context, where string, args ...any) ([]Nation, error) {
	rows, err := tx.query(ctx, `SELECT game_id, nation, password_hash, pending_password_hash, pending_from_turn
		FROM nations `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading nations: %w", err)
	}
	var out []Nation
	for rows.Next() {
		var n Nation
		if err := rows.Scan(&n.GameID, &n.ID, &n.PasswordHash, &n.PendingPasswordHash, &n.PendingFromTurn); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: reading nations: %w", err)
		}
		out = append(out, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading nations: %w", err)
	}
	for i := range out {
		if out[i].Addresses, err = tx.addresses(ctx, out[i].GameID, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (tx *Tx) addresses(ctx context.Context, gameID, nation string) ([]string, error) {
	rows, err := tx.query(ctx, `SELECT address FROM nation_addresses WHERE game_id = ? AND nation = ?
		ORDER BY address`, gameID, nation)
	if err != nil {
		return nil, fmt.Errorf("store: reading addresses: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("store: reading addresses: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// SetAddresses replaces a nation's registered sender addresses. Addresses
// are compared case-insensitively; duplicates are dropped.
func (db *DB) SetAddresses(ctx context.Context, gameID, nation string, addresses []string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetAddresses(ctx, gameID, nation, addresses) })
}

// SetAddresses is DB.SetAddresses inside a transaction.
func (tx *Tx) SetAddresses(ctx context.Context, gameID, nation string, addresses []string) error {
	if err := tx.mustNation(ctx, gameID, nation); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `DELETE FROM nation_addresses WHERE game_id = ? AND nation = ?`,
		gameID, nation); err != nil {
		return fmt.Errorf("store: SetAddresses %s/%s: %w", gameID, nation, err)
	}
	for _, a := range addresses {
		a = strings.TrimSpace(a)
		if a == "" {
			return fmt.Errorf("store: SetAddresses %s/%s: empty address: %w", gameID, nation, ErrInvalid)
		}
		if _, err := tx.exec(ctx, `INSERT INTO nation_addresses (game_id, nation, address) VALUES (?, ?, ?)
			ON CONFLICT DO NOTHING`, gameID, nation, a); err != nil {
			return fmt.Errorf("store: SetAddresses %s/%s: %w", gameID, nation, err)
		}
	}
	return nil
}

// NationsByAddress returns, sorted, the nations of a game that registered
// address (compared case-insensitively). A player may hold several nations.
func (db *DB) NationsByAddress(ctx context.Context, gameID, address string) (ns []string, err error) {
	err = db.view(ctx, func(tx *Tx) error { ns, err = tx.NationsByAddress(ctx, gameID, address); return err })
	return ns, err
}

// NationsByAddress is DB.NationsByAddress inside a transaction.
func (tx *Tx) NationsByAddress(ctx context.Context, gameID, address string) ([]string, error) {
	rows, err := tx.query(ctx, `SELECT DISTINCT nation FROM nation_addresses WHERE game_id = ? AND address = ?
		ORDER BY nation`, gameID, strings.TrimSpace(address))
	if err != nil {
		return nil, fmt.Errorf("store: NationsByAddress: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("store: NationsByAddress: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// SetPasswordHash sets a nation's password hash with immediate effect and
// drops any pending change (a referee's reset).
func (db *DB) SetPasswordHash(ctx context.Context, gameID, nation, hash string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetPasswordHash(ctx, gameID, nation, hash) })
}

// SetPasswordHash is DB.SetPasswordHash inside a transaction.
func (tx *Tx) SetPasswordHash(ctx context.Context, gameID, nation, hash string) error {
	if err := nonEmpty("SetPasswordHash", "hash", hash); err != nil {
		return err
	}
	return tx.updateNation(ctx, gameID, nation, `UPDATE nations SET password_hash = ?, pending_password_hash = '',
		pending_from_turn = 0 WHERE game_id = ? AND nation = ?`, hash, gameID, nation)
}

// SchedulePasswordChange makes hash the nation's password from turn fromTurn
// on; until then PasswordHash returns the old one. If an earlier scheduled
// change is already in force by fromTurn it first becomes the current hash;
// one scheduled for the same turn or later is replaced.
func (db *DB) SchedulePasswordChange(ctx context.Context, gameID, nation, hash string, fromTurn int) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SchedulePasswordChange(ctx, gameID, nation, hash, fromTurn) })
}

// SchedulePasswordChange is DB.SchedulePasswordChange inside a transaction.
func (tx *Tx) SchedulePasswordChange(ctx context.Context, gameID, nation, hash string, fromTurn int) error {
	if err := nonEmpty("SchedulePasswordChange", "hash", hash); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `UPDATE nations SET password_hash = pending_password_hash,
		pending_password_hash = '', pending_from_turn = 0
		WHERE game_id = ? AND nation = ? AND pending_password_hash != '' AND pending_from_turn < ?`,
		gameID, nation, fromTurn); err != nil {
		return fmt.Errorf("store: SchedulePasswordChange %s/%s: %w", gameID, nation, err)
	}
	return tx.updateNation(ctx, gameID, nation, `UPDATE nations SET pending_password_hash = ?, pending_from_turn = ?
		WHERE game_id = ? AND nation = ?`, hash, fromTurn, gameID, nation)
}

// PasswordHash returns the nation's password hash in force for turn: the
// pending one if a change is scheduled from that turn or earlier, else the
// current one.
func (db *DB) PasswordHash(ctx context.Context, gameID, nation string, turn int) (h string, err error) {
	err = db.view(ctx, func(tx *Tx) error { h, err = tx.PasswordHash(ctx, gameID, nation, turn); return err })
	return h, err
}

// PasswordHash is DB.PasswordHash inside a transaction.
func (tx *Tx) PasswordHash(ctx context.Context, gameID, nation string, turn int) (string, error) {
	var cur, pending string
	var from int
	err := tx.queryRow(ctx, `SELECT password_hash, pending_password_hash, pending_from_turn FROM nations
		WHERE game_id = ? AND nation = ?`, gameID, nation).Scan(&cur, &pending, &from)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: nation %q in game %q: %w", nation, gameID, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store: PasswordHash %s/%s: %w", gameID, nation, err)
	}
	if pending != "" && turn >= from {
		return pending, nil
	}
	return cur, nil
}

func (tx *Tx) updateNation(ctx context.Context, gameID, nation, query string, args ...any) error {
	res, err := tx.exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("store: updating nation %s/%s: %w", gameID, nation, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: nation %q in game %q: %w", nation, gameID, ErrNotFound)
	}
	return nil
}

func (tx *Tx) mustNation(ctx context.Context, gameID, nation string) error {
	var one int
	err := tx.queryRow(ctx, `SELECT 1 FROM nations WHERE game_id = ? AND nation = ?`, gameID, nation).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: nation %q in game %q: %w", nation, gameID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: nation %s/%s: %w", gameID, nation, err)
	}
	return nil
}

// DiceKey returns the game's secret dice key (each turn's seed is made
// from it); ok is false while it has none.
func (db *DB) DiceKey(ctx context.Context, gameID string) (key string, ok bool, err error) {
	var k sql.NullString
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT dice_key FROM games WHERE id = ?`, gameID).Scan(&k)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, fmt.Errorf("store: game %q: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return "", false, fmt.Errorf("store: reading the dice key of %s: %w", gameID, err)
	}
	return k.String, k.Valid, nil
}

// EnsureDiceKey gives the game the key make returns if it has none yet; a
// key once set stays. make is called only when one is needed.
func (db *DB) EnsureDiceKey(ctx context.Context, gameID string, make func() (string, error)) error {
	return db.Update(ctx, func(tx *Tx) error {
		var k sql.NullString
		err := tx.queryRow(ctx, `SELECT dice_key FROM games WHERE id = ?`, gameID).Scan(&k)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: game %q: %w", gameID, ErrNotFound)
		}
		if err != nil || k.Valid {
			return err
		}
		key, err := make()
		if err != nil {
			return err
		}
		return tx.setDiceKey(ctx, gameID, key)
	})
}

// SetDiceKey sets the game's dice key, replacing any (a demo that must
// roll the same dice every time sets its own).
func (db *DB) SetDiceKey(ctx context.Context, gameID, key string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.setDiceKey(ctx, gameID, key) })
}

func (tx *Tx) setDiceKey(ctx context.Context, gameID, key string) error {
	if err := nonEmpty("SetDiceKey", "GameID", gameID, "key", key); err != nil {
		return err
	}
	res, err := tx.exec(ctx, `UPDATE games SET dice_key = ? WHERE id = ?`, key, gameID)
	if err != nil {
		return fmt.Errorf("store: SetDiceKey %s: %w", gameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: game %q: %w", gameID, ErrNotFound)
	}
	return nil
}

// StartReportsQueued reports whether the game's starting reports were
// queued (MarkStartReportsQueued).
func (db *DB) StartReportsQueued(ctx context.Context, gameID string) (ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { ok, err = tx.StartReportsQueued(ctx, gameID); return err })
	return ok, err
}

// StartReportsQueued is DB.StartReportsQueued inside a transaction.
func (tx *Tx) StartReportsQueued(ctx context.Context, gameID string) (bool, error) {
	var at sql.NullString
	err := tx.queryRow(ctx, `SELECT start_reports_at FROM games WHERE id = ?`, gameID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("store: game %q: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("store: reading whether the starting reports of %s were queued: %w", gameID, err)
	}
	return at.Valid, nil
}

// MarkStartReportsQueued records that the game's starting reports were
// queued at at.
func (tx *Tx) MarkStartReportsQueued(ctx context.Context, gameID string, at time.Time) error {
	res, err := tx.exec(ctx, `UPDATE games SET start_reports_at = ? WHERE id = ?`, encTime(at), gameID)
	if err != nil {
		return fmt.Errorf("store: MarkStartReportsQueued %s: %w", gameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: game %q: %w", gameID, ErrNotFound)
	}
	return nil
}
