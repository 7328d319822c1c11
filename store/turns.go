package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// TurnStatus says what a turn snapshot is.
type TurnStatus string

// Turn statuses.
const (
	// TurnInitial is turn 0: the starting position loaded from the scenario.
	TurnInitial TurnStatus = "initial"
	// TurnResolved is a turn the engine resolved; its reports are queued in
	// the same transaction (CommitTurn).
	TurnResolved TurnStatus = "resolved"
	// TurnVoided is a snapshot the referee set aside. It is kept for audit;
	// a rerun writes a new version.
	TurnVoided TurnStatus = "voided"
)

func (s TurnStatus) valid() bool {
	return s == TurnInitial || s == TurnResolved || s == TurnVoided
}

// TurnRecord is one version of one turn of a game: the state after the turn
// and everything needed to show how it came about. Snapshots are never
// overwritten: rerunning a turn saves a new version, and the old one stays
// for audit.
type TurnRecord struct {
	GameID  string // the game
	Turn    int    // 0 is the starting position
	Version int    // 1, 2, …; assigned by SaveTurn and CommitTurn

	Status     TurnStatus // what the snapshot is
	State      []byte     // the game state after the turn (JSON, opaque to the store)
	Seed       uint64     // the dice seed the turn was resolved with
	EventLog   []byte     // the turn's events as one document (CommitTurn also stores them one row each)
	Dice       []byte     // every die rolled, in order
	ResolvedAt time.Time  // set by the caller
}

// Event is one thing that happened in a turn, in resolution order. Reports
// and narratives are built from events.
type Event struct {
	GameID  string // set by CommitTurn
	Turn    int    // set by CommitTurn
	Version int    // set by CommitTurn
	Seq     int    // position in the turn, from 1; set by CommitTurn
	Kind    string // such as "battle" or "siege"
	Data    []byte // JSON, opaque to the store
}

// SaveTurn stores rec as the next version of its turn and returns that
// version (1 for the first).
func (db *DB) SaveTurn(ctx context.Context, rec TurnRecord) (version int, err error) {
	err = db.Update(ctx, func(tx *Tx) error { version, err = tx.SaveTurn(ctx, rec); return err })
	return version, err
}

// SaveTurn is DB.SaveTurn inside a transaction.
func (tx *Tx) SaveTurn(ctx context.Context, rec TurnRecord) (int, error) {
	if err := nonEmpty("SaveTurn", "GameID", rec.GameID); err != nil {
		return 0, err
	}
	if !rec.Status.valid() {
		return 0, fmt.Errorf("store: SaveTurn %s turn %d: unknown status %q: %w", rec.GameID, rec.Turn, rec.Status, ErrInvalid)
	}
	if rec.ResolvedAt.IsZero() {
		return 0, fmt.Errorf("store: SaveTurn %s turn %d: ResolvedAt is zero: %w", rec.GameID, rec.Turn, ErrInvalid)
	}
	if rec.State == nil {
		rec.State = []byte{}
	}
	var v int
	err := tx.queryRow(ctx, `SELECT COALESCE(MAX(version), 0) + 1 FROM turns WHERE game_id = ? AND turn = ?`,
		rec.GameID, rec.Turn).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: SaveTurn %s turn %d: %w", rec.GameID, rec.Turn, err)
	}
	_, err = tx.exec(ctx, `INSERT INTO turns (game_id, turn, version, status, state, seed, events, dice, resolved_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, rec.GameID, rec.Turn, v, string(rec.Status), rec.State,
		strconv.FormatUint(rec.Seed, 10), rec.EventLog, rec.Dice, encTime(rec.ResolvedAt))
	if err != nil {
		return 0, fmt.Errorf("store: SaveTurn %s turn %d: %w", rec.GameID, rec.Turn, err)
	}
	return v, nil
}

// CommitTurn stores a resolved turn in one transaction: the snapshot (as
// SaveTurn), its events, and the outbox rows carrying its reports. Either
// all of it is in the file afterwards or none of it, so a crash can neither
// lose a resolved turn's reports nor send reports for a turn that was not
// saved. Each event's GameID, Turn, Version and Seq are set from rec and
// its position. Outbox rows are enqueued as by Enqueue; a Message-ID that is
// already queued with the same bytes is skipped.
func (db *DB) CommitTurn(ctx context.Context, rec TurnRecord, events []Event, out []OutboxMessage) (version int, err error) {
	err = db.Update(ctx, func(tx *Tx) error { version, err = tx.CommitTurn(ctx, rec, events, out); return err })
	return version, err
}

// CommitTurn is DB.CommitTurn inside a transaction.
func (tx *Tx) CommitTurn(ctx context.Context, rec TurnRecord, events []Event, out []OutboxMessage) (int, error) {
	v, err := tx.SaveTurn(ctx, rec)
	if err != nil {
		return 0, err
	}
	stmt, err := tx.tx.PrepareContext(ctx, `INSERT INTO events (game_id, turn, version, seq, kind, data) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, fmt.Errorf("store: CommitTurn: %w", err)
	}
	defer stmt.Close()
	for i, e := range events {
		if e.Kind == "" {
			return 0, fmt.Errorf("store: CommitTurn %s turn %d: event %d has no kind: %w", rec.GameID, rec.Turn, i+1, ErrInvalid)
		}
		if _, err := stmt.ExecContext(ctx, rec.GameID, rec.Turn, v, i+1, e.Kind, e.Data); err != nil {
			return 0, fmt.Errorf("store: CommitTurn %s turn %d: event %d: %w", rec.GameID, rec.Turn, i+1, err)
		}
	}
	for _, m := range out {
		if _, err := tx.Enqueue(ctx, m); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// SetTurnStatus changes the status of one turn version (for example to
// TurnVoided).
func (db *DB) SetTurnStatus(ctx context.Context, gameID string, turn, version int, status TurnStatus) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetTurnStatus(ctx, gameID, turn, version, status) })
}

// SetTurnStatus is DB.SetTurnStatus inside a transaction.
func (tx *Tx) SetTurnStatus(ctx context.Context, gameID string, turn, version int, status TurnStatus) error {
	if !status.valid() {
		return fmt.Errorf("store: SetTurnStatus: unknown status %q: %w", status, ErrInvalid)
	}
	res, err := tx.exec(ctx, `UPDATE turns SET status = ? WHERE game_id = ? AND turn = ? AND version = ?`,
		string(status), gameID, turn, version)
	if err != nil {
		return fmt.Errorf("store: SetTurnStatus: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: game %q turn %d version %d: %w", gameID, turn, version, ErrNotFound)
	}
	return nil
}

const turnColumns = `game_id, turn, version, status, state, seed, events, dice, resolved_at`

// LatestTurn returns the latest version of the highest-numbered turn of a
// game that is not voided (a voided record is kept for the record only: a
// rollback or a rerun set it aside).
func (db *DB) LatestTurn(ctx context.Context, gameID string) (rec TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error { rec, err = tx.LatestTurn(ctx, gameID); return err })
	return rec, err
}

// LatestTurn is DB.LatestTurn inside a transaction.
func (tx *Tx) LatestTurn(ctx context.Context, gameID string) (TurnRecord, error) {
	return tx.queryTurn(ctx, fmt.Sprintf("game %q has no turns", gameID),
		`SELECT `+turnColumns+` FROM turns WHERE game_id = ? AND status != 'voided' ORDER BY turn DESC, version DESC LIMIT 1`, gameID)
}

// LatestTurnHead is LatestTurn without the blobs (State, EventLog and Dice
// are nil): what a caller that keeps the decoded state needs to see whether
// it is still the latest, without reading it for every mail.
func (db *DB) LatestTurnHead(ctx context.Context, gameID string) (rec TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		rec, err = tx.queryTurn(ctx, fmt.Sprintf("game %q has no turns", gameID),
			`SELECT game_id, turn, version, status, NULL, seed, NULL, NULL, resolved_at FROM turns
			WHERE game_id = ? AND status != 'voided' ORDER BY turn DESC, version DESC LIMIT 1`, gameID)
		return err
	})
	return rec, err
}

// TurnsInForce returns, by turn, the record in force of every turn of a
// game (the latest version not voided), without the blobs (State, EventLog
// and Dice are nil): what a caller that keeps something built from the
// records needs to see whether they are still the ones in force.
func (db *DB) TurnsInForce(ctx context.Context, gameID string) (recs []TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT turn, MAX(version) FROM turns WHERE game_id = ? AND status != 'voided'
			GROUP BY turn ORDER BY turn`, gameID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			rec := TurnRecord{GameID: gameID}
			if err := rows.Scan(&rec.Turn, &rec.Version); err != nil {
				return err
			}
			recs = append(recs, rec)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: listing the turns in force of %q: %w", gameID, err)
	}
	return recs, nil
}

// Turn returns the latest version of one turn that is not voided.
func (db *DB) Turn(ctx context.Context, gameID string, turn int) (rec TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error { rec, err = tx.Turn(ctx, gameID, turn); return err })
	return rec, err
}

// Turn is DB.Turn inside a transaction.
func (tx *Tx) Turn(ctx context.Context, gameID string, turn int) (TurnRecord, error) {
	return tx.queryTurn(ctx, fmt.Sprintf("game %q turn %d", gameID, turn),
		`SELECT `+turnColumns+` FROM turns WHERE game_id = ? AND turn = ? AND status != 'voided' ORDER BY version DESC LIMIT 1`, gameID, turn)
}

// TurnVersion returns one version of one turn.
func (db *DB) TurnVersion(ctx context.Context, gameID string, turn, version int) (rec TurnRecord, err error) {
	err = db.view(ctx, func(tx *Tx) error { rec, err = tx.TurnVersion(ctx, gameID, turn, version); return err })
	return rec, err
}

// TurnVersion is DB.TurnVersion inside a transaction.
func (tx *Tx) TurnVersion(ctx context.Context, gameID string, turn, version int) (TurnRecord, error) {
	return tx.queryTurn(ctx, fmt.Sprintf("game %q turn %d version %d", gameID, turn, version),
		`SELECT `+turnColumns+` FROM turns WHERE game_id = ? AND turn = ? AND version = ?`, gameID, turn, version)
}

func (tx *Tx) queryTurn(ctx context.Context, what, query string, args ...any) (TurnRecord, error) {
	var rec TurnRecord
	var status, seed, resolved string
	err := tx.queryRow(ctx, query, args...).Scan(&rec.GameID, &rec.Turn, &rec.Version, &status,
		&rec.State, &seed, &rec.EventLog, &rec.Dice, &resolved)
	if errors.Is(err, sql.ErrNoRows) {
		return TurnRecord{}, fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	if err != nil {
		return TurnRecord{}, fmt.Errorf("store: reading %s: %w", what, err)
	}
	rec.Status = TurnStatus(status)
	if rec.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return TurnRecord{}, fmt.Errorf("store: %s: bad seed %q in the database: %w", what, seed, err)
	}
	if rec.ResolvedAt, err = decTime(resolved); err != nil {
		return TurnRecord{}, err
	}
	return rec, nil
}

// Events returns the events of one turn version, in order.
func (db *DB) Events(ctx context.Context, gameID string, turn, version int) (es []Event, err error) {
	err = db.view(ctx, func(tx *Tx) error { es, err = tx.Events(ctx, gameID, turn, version); return err })
	return es, err
}

// Events is DB.Events inside a transaction.
func (tx *Tx) Events(ctx context.Context, gameID string, turn, version int) ([]Event, error) {
	rows, err := tx.query(ctx, `SELECT game_id, turn, version, seq, kind, data FROM events
		WHERE game_id = ? AND turn = ? AND version = ? ORDER BY seq`, gameID, turn, version)
	if err != nil {
		return nil, fmt.Errorf("store: reading events: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.GameID, &e.Turn, &e.Version, &e.Seq, &e.Kind, &e.Data); err != nil {
			return nil, fmt.Errorf("store: reading events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
