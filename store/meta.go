package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The meta table is free text under free keys, and pbem keeps nothing there:
// every kind of the game's state, and of the mail's bookkeeping, has a
// typed table of its own (migrations 9 and 10 moved what older pbems kept
// here; daemon/gamestate.go lists them). A key of a game the file does not
// hold, which those moves cannot give a home, is left as it was. The table
// and GetMeta and SetMeta stay for tests and for tools that want a scratch
// note in the file; a new kind of state gets a table, not a key.

// GetMeta returns the value stored under key, and whether there is one.
func (db *DB) GetMeta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { value, ok, err = tx.GetMeta(ctx, key); return err })
	return value, ok, err
}

// GetMeta is DB.GetMeta inside a transaction.
func (tx *Tx) GetMeta(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := tx.queryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: GetMeta %q: %w", key, err)
	}
	return v, true, nil
}

// SetMeta stores value under key, replacing any earlier value.
func (db *DB) SetMeta(ctx context.Context, key, value string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetMeta(ctx, key, value) })
}

// SetMeta is DB.SetMeta inside a transaction.
func (tx *Tx) SetMeta(ctx context.Context, key, value string) error {
	if err := nonEmpty("SetMeta", "key", key); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO meta (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, value, encTime(tx.now()))
	if err != nil {
		return fmt.Errorf("store: SetMeta %q: %w", key, err)
	}
	return nil
}
