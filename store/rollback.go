package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// TurnVersions returns every version of every turn of a game, voided ones
// included, by turn and then version: the whole record, for the archive and
// for the referee's rollback.
func (db *DB) TurnVersions(ctx context.Context, gameID string) (recs []TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error { recs, err = tx.TurnVersions(ctx, gameID); return err })
	return recs, err
}

// TurnVersions is DB.TurnVersions inside a transaction.
func (tx *Tx) TurnVersions(ctx context.Context, gameID string) ([]TurnRecord, error) {
	rows, err := tx.query(ctx, `SELECT version, turn FROM turns WHERE game_id = ? ORDER BY turn, version`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: listing the turns of %q: %w", gameID, err)
	}
	type key struct{ v, t int }
	var keys []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.v, &k.t); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: listing the turns of %q: %w", gameID, err)
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]TurnRecord, 0, len(keys))
	for _, k := range keys {
		rec, err := tx.TurnVersion(ctx, gameID, k.t, k.v)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// LastVoided returns the latest version of a turn when that version is
// voided (the turn was rolled back and not resolved since), and ok false
// otherwise.
func (tx *Tx) LastVoided(ctx context.Context, gameID string, turn int) (rec TurnRecord, ok bool, err error) {
	var v int
	var status string
	err = tx.queryRow(ctx, `SELECT version, status FROM turns WHERE game_id = ? AND turn = ? ORDER BY version DESC LIMIT 1`,
		gameID, turn).Scan(&v, &status)
	if errors.Is(err, sql.ErrNoRows) || err == nil && TurnStatus(status) != TurnVoided {
		return TurnRecord{}, false, nil
	}
	if err != nil {
		return TurnRecord{}, false, fmt.Errorf("store: reading game %q turn %d: %w", gameID, turn, err)
	}
	rec, err = tx.TurnVersion(ctx, gameID, turn, v)
	return rec, err == nil, err
}

// LastVoided is Tx.LastVoided outside a transaction.
func (db *DB) LastVoided(ctx context.Context, gameID string, turn int) (rec TurnRecord, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { rec, ok, err = tx.LastVoided(ctx, gameID, turn); return err })
	return rec, ok, err
}
