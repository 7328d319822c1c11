package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// What "pbem status" reads of a running daemon: its last run, what its turn
// runner is doing, and how its intake and outbox fare; and the notices the
// daemon queues once for what they tell.

// Run is one run of "pbem run" on a game.
type Run struct {
	PID     int
	Host    string
	Started time.Time
	Stopped time.Time // zero while it runs (or if it was killed)
}

// LastRun returns the game's last recorded run; ok is false if none.
func (db *DB) LastRun(ctx context.Context, gameID string) (r Run, ok bool, err error) {
	var started string
	var stopped sql.NullString
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT pid, host, started_at, stopped_at FROM runs WHERE game_id = ?`, gameID).
			Scan(&r.PID, &r.Host, &started, &stopped)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, false, nil
	}
	if err == nil {
		r.Started, err = decTime(started)
	}
	if err == nil {
		r.Stopped, err = decOptTime(stopped)
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("store: reading the last run of %s: %w", gameID, err)
	}
	return r, true, nil
}

// SaveRun records r as the game's last run.
func (db *DB) SaveRun(ctx context.Context, gameID string, r Run) error {
	if err := nonEmpty("SaveRun", "GameID", gameID); err != nil {
		return err
	}
	return db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO runs (game_id, pid, host, started_at, stopped_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at,
			stopped_at = excluded.stopped_at`, gameID, r.PID, r.Host, encTime(r.Started), optTime(r.Stopped))
		if err != nil {
			return fmt.Errorf("store: SaveRun %s: %w", gameID, err)
		}
		return nil
	})
}

// TurnRunner is what a game's turn runner is doing, as it last recorded.
type TurnRunner struct {
	Run   string // the run that wrote it
	Turn  int
	State string // one of the daemon's runner states (the table's CHECK lists them)
	Why   string
	Since time.Time
}

// TurnRunner returns the turn runner's recorded state; ok is false if none.
func (db *DB) TurnRunner(ctx context.Context, gameID string) (s TurnRunner, ok bool, err error) {
	var since string
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT run, turn, state, why, since FROM turn_runners WHERE game_id = ?`, gameID).
			Scan(&s.Run, &s.Turn, &s.State, &s.Why, &since)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return TurnRunner{}, false, nil
	}
	if err == nil {
		s.Since, err = decTime(since)
	}
	if err != nil {
		return TurnRunner{}, false, fmt.Errorf("store: reading the turn runner of %s: %w", gameID, err)
	}
	return s, true, nil
}

// SaveTurnRunner records the turn runner's state.
func (db *DB) SaveTurnRunner(ctx context.Context, gameID string, s TurnRunner) error {
	if err := nonEmpty("SaveTurnRunner", "GameID", gameID, "State", s.State); err != nil {
		return err
	}
	return db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO turn_runners (game_id, run, turn, state, why, since) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET run = excluded.run, turn = excluded.turn, state = excluded.state,
			why = excluded.why, since = excluded.since`, gameID, s.Run, s.Turn, s.State, s.Why, encTime(s.Since))
		if err != nil {
			return fmt.Errorf("store: SaveTurnRunner %s: %w", gameID, err)
		}
		return nil
	})
}

// IntakeHealth is the intake's health as last recorded.
type IntakeHealth struct {
	Run        string    // the run that wrote it
	Up         bool      // connected to the mailbox
	Since      time.Time // when it went up or down (in that run)
	LastError  string    // the last connection failure
	OutageFrom time.Time // the last outage: when it began (zero: none yet)
	OutageTo   time.Time // and when it ended (zero: still going on)
}

// IntakeHealth returns the intake's recorded health; ok is false before
// the intake first connected or failed.
func (db *DB) IntakeHealth(ctx context.Context, gameID string) (h IntakeHealth, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { h, ok, err = tx.IntakeHealth(ctx, gameID); return err })
	return h, ok, err
}

// IntakeHealth is DB.IntakeHealth inside a transaction.
func (tx *Tx) IntakeHealth(ctx context.Context, gameID string) (IntakeHealth, bool, error) {
	var h IntakeHealth
	var since string
	var from, to sql.NullString
	var up int
	err := tx.queryRow(ctx, `SELECT run, up, since, last_error, outage_from, outage_to FROM intake_health WHERE game_id = ?`,
		gameID).Scan(&h.Run, &up, &since, &h.LastError, &from, &to)
	if errors.Is(err, sql.ErrNoRows) {
		return IntakeHealth{}, false, nil
	}
	if err == nil {
		h.Since, err = decTime(since)
	}
	if err == nil {
		h.OutageFrom, err = decOptTime(from)
	}
	if err == nil {
		h.OutageTo, err = decOptTime(to)
	}
	if err != nil {
		return IntakeHealth{}, false, fmt.Errorf("store: reading the intake's health of %s: %w", gameID, err)
	}
	h.Up = up == 1
	return h, true, nil
}

// SaveIntakeHealth records the intake's health.
func (tx *Tx) SaveIntakeHealth(ctx context.Context, gameID string, h IntakeHealth) error {
	if err := nonEmpty("SaveIntakeHealth", "GameID", gameID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO intake_health (game_id, run, up, since, last_error, outage_from, outage_to)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET run = excluded.run, up = excluded.up,
		since = excluded.since, last_error = excluded.last_error, outage_from = excluded.outage_from, outage_to = excluded.outage_to`,
		gameID, h.Run, bit(h.Up), encTime(h.Since), h.LastError, optTime(h.OutageFrom), optTime(h.OutageTo))
	if err != nil {
		return fmt.Errorf("store: SaveIntakeHealth %s: %w", gameID, err)
	}
	return nil
}

// OutboxHealth is the outbox's record of its delivery attempts (see
// outbox.Health, whose fields these are).
type OutboxHealth struct {
	Run         string
	OK          bool
	Since       time.Time
	Failures    int
	LastError   string
	LastErrorAt time.Time // zero before the first failure
}

// OutboxHealth returns the outbox's recorded health; ok is false before
// its first attempt.
func (db *DB) OutboxHealth(ctx context.Context) (h OutboxHealth, ok bool, err error) {
	var since string
	var lastAt sql.NullString
	var okBit int
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT run, ok, since, failures, last_error, last_error_at FROM outbox_health WHERE id = 1`).
			Scan(&h.Run, &okBit, &since, &h.Failures, &h.LastError, &lastAt)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return OutboxHealth{}, false, nil
	}
	if err == nil {
		h.Since, err = decTime(since)
	}
	if err == nil {
		h.LastErrorAt, err = decOptTime(lastAt)
	}
	if err != nil {
		return OutboxHealth{}, false, fmt.Errorf("store: reading the outbox's health: %w", err)
	}
	h.OK = okBit == 1
	return h, true, nil
}

// SaveOutboxHealth records the outbox's health.
func (db *DB) SaveOutboxHealth(ctx context.Context, h OutboxHealth) error {
	return db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO outbox_health (id, run, ok, since, failures, last_error, last_error_at)
			VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET run = excluded.run, ok = excluded.ok,
			since = excluded.since, failures = excluded.failures, last_error = excluded.last_error,
			last_error_at = excluded.last_error_at`, h.Run, bit(h.OK), encTime(h.Since), h.Failures, h.LastError, optTime(h.LastErrorAt))
		if err != nil {
			return fmt.Errorf("store: SaveOutboxHealth: %w", err)
		}
		return nil
	})
}

// NoticeKind is what a notice queued once tells the referee.
type NoticeKind string

// Notice kinds, and what makes each once (its subject).
const (
	// NoticeClock: the mail server's clock is off; subject
	// "ahead|behind:BUCKET:DATE" (once a day per size of the difference).
	NoticeClock NoticeKind = "clock"
	// NoticeLogin: pbem cannot log in to the mailbox; subject a digest of
	// the error (once per distinct error).
	NoticeLogin NoticeKind = "imap-login"
	// NoticeOutage: a turn waits for the mail; subject a digest of the
	// deadline and the cause (once per turn, deadline and text).
	NoticeOutage NoticeKind = "outage"
)

// NoticeQueued reports whether the notice of kind about subject was queued.
func (db *DB) NoticeQueued(ctx context.Context, gameID string, kind NoticeKind, subject string) (ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		var n int
		err := tx.queryRow(ctx, `SELECT COUNT(*) FROM notices WHERE game_id = ? AND kind = ? AND subject = ?`,
			gameID, string(kind), subject).Scan(&n)
		ok = n > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: NoticeQueued %s %s: %w", gameID, kind, err)
	}
	return ok, nil
}

// MarkNoticeQueued records that the notice of kind about subject was
// queued at at.
func (tx *Tx) MarkNoticeQueued(ctx context.Context, gameID string, kind NoticeKind, subject string, at time.Time) error {
	if err := nonEmpty("MarkNoticeQueued", "GameID", gameID, "subject", subject); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO notices (game_id, kind, subject, queued_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, kind, subject) DO NOTHING`, gameID, string(kind), subject, encTime(at))
	if err != nil {
		return fmt.Errorf("store: MarkNoticeQueued %s %s: %w", gameID, kind, err)
	}
	return nil
}
