package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Deadline sources.
const (
	// DeadlineSchedule: set from the config's schedule when the turn opened.
	DeadlineSchedule = "schedule"
	// DeadlineReferee: set or moved by the referee's DEADLINE command.
	DeadlineReferee = "referee"
)

// Deadline is the deadline of one turn of a game: set from the schedule
// when the turn opens, changed afterwards only by the referee. A turn with
// no row has no deadline (the referee runs it by hand).
type Deadline struct {
	GameID    string    // the game
	Turn      int       // the turn orders are taken for
	At        time.Time // the deadline in force
	Scheduled time.Time // what the schedule gave when the turn opened; zero if it gave none
	Source    string    // DeadlineSchedule or DeadlineReferee: who set At
	MailID    int64     // the referee's mail that last changed it; 0 if none
}

// OpenDeadline records the schedule's deadline for a turn that opens. A
// turn that has a deadline already keeps it, so opening again after a
// crash, or at every start, changes nothing; it reports whether it stored
// one.
func (db *DB) OpenDeadline(ctx context.Context, gameID string, turn int, at time.Time) (stored bool, err error) {
	err = db.Update(ctx, func(tx *Tx) error { stored, err = tx.OpenDeadline(ctx, gameID, turn, at); return err })
	return stored, err
}

// OpenDeadline is DB.OpenDeadline inside a transaction.
func (tx *Tx) OpenDeadline(ctx context.Context, gameID string, turn int, at time.Time) (bool, error) {
	if err := nonEmpty("OpenDeadline", "GameID", gameID); err != nil {
		return false, err
	}
	if at.IsZero() {
		return false, fmt.Errorf("store: OpenDeadline %s turn %d: the time is zero: %w", gameID, turn, ErrInvalid)
	}
	res, err := tx.exec(ctx, `INSERT INTO deadlines (game_id, turn, at, scheduled, source, updated_at)
		VALUES (?, ?, ?, ?, 'schedule', ?) ON CONFLICT (game_id, turn) DO NOTHING`,
		gameID, turn, encTime(at), encTime(at), encTime(tx.now()))
	if err != nil {
		return false, fmt.Errorf("store: OpenDeadline %s turn %d: %w", gameID, turn, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SetDeadline sets a turn's deadline on the referee's command (mailID is
// the command's mail, 0 for one typed at the console), whether or not the
// turn had one.
func (db *DB) SetDeadline(ctx context.Context, gameID string, turn int, at time.Time, mailID int64) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetDeadline(ctx, gameID, turn, at, mailID) })
}

// SetDeadline is DB.SetDeadline inside a transaction.
func (tx *Tx) SetDeadline(ctx context.Context, gameID string, turn int, at time.Time, mailID int64) error {
	if err := nonEmpty("SetDeadline", "GameID", gameID); err != nil {
		return err
	}
	if at.IsZero() {
		return fmt.Errorf("store: SetDeadline %s turn %d: the time is zero: %w", gameID, turn, ErrInvalid)
	}
	var mail any
	if mailID != 0 {
		mail = mailID
	}
	_, err := tx.exec(ctx, `INSERT INTO deadlines (game_id, turn, at, scheduled, source, mail_id, updated_at)
		VALUES (?, ?, ?, NULL, 'referee', ?, ?)
		ON CONFLICT (game_id, turn) DO UPDATE SET at = excluded.at, source = 'referee', mail_id = excluded.mail_id,
		updated_at = excluded.updated_at`, gameID, turn, encTime(at), mail, encTime(tx.now()))
	if err != nil {
		return fmt.Errorf("store: SetDeadline %s turn %d: %w", gameID, turn, err)
	}
	return nil
}

// TurnDeadline returns a turn's deadline; a turn without one is an error
// wrapping ErrNotFound.
func (db *DB) TurnDeadline(ctx context.Context, gameID string, turn int) (d Deadline, err error) {
	err = db.view(ctx, func(tx *Tx) error { d, err = tx.TurnDeadline(ctx, gameID, turn); return err })
	return d, err
}

// TurnDeadline is DB.TurnDeadline inside a transaction.
func (tx *Tx) TurnDeadline(ctx context.Context, gameID string, turn int) (Deadline, error) {
	d := Deadline{GameID: gameID, Turn: turn}
	var at string
	var sched sql.NullString
	var mail sql.NullInt64
	err := tx.queryRow(ctx, `SELECT at, scheduled, source, mail_id FROM deadlines WHERE game_id = ? AND turn = ?`,
		gameID, turn).Scan(&at, &sched, &d.Source, &mail)
	if errors.Is(err, sql.ErrNoRows) {
		return Deadline{}, fmt.Errorf("store: game %q turn %d has no deadline: %w", gameID, turn, ErrNotFound)
	}
	if err != nil {
		return Deadline{}, fmt.Errorf("store: reading the deadline of %s turn %d: %w", gameID, turn, err)
	}
	if d.At, err = decTime(at); err != nil {
		return Deadline{}, err
	}
	if d.Scheduled, err = decOptTime(sched); err != nil {
		return Deadline{}, err
	}
	d.MailID = mail.Int64
	return d, nil
}
