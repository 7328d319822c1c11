package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The state of a turn between its opening and its resolution, besides its
// deadline (deadlines.go) and its submissions: an early close of its orders,
// a reopening after a rollback, a hold by the mail-outage guard, the
// battles fought on the referee's table, the reminders sent.

// How a turn's orders closed early (TurnClose.By).
const (
	ClosedByReferee = "resolve-now" // the referee's RESOLVE NOW
	ClosedByFinal   = "final"       // the sheet that made every nation's FINAL
)

// TurnClose is an early close of a turn's orders.
type TurnClose struct {
	At      time.Time // sheets that reached the server after it are late
	By      string    // ClosedByReferee or ClosedByFinal
	MailID  int64     // the mail that closed it; 0 for none
	Referee bool      // the referee's RESOLVE NOW for the turn is in, whatever closed it first
}

// TurnClose returns a turn's early close; ok is false when none is
// recorded.
func (db *DB) TurnClose(ctx context.Context, gameID string, turn int) (c TurnClose, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { c, ok, err = tx.TurnClose(ctx, gameID, turn); return err })
	return c, ok, err
}

// TurnClose is DB.TurnClose inside a transaction.
func (tx *Tx) TurnClose(ctx context.Context, gameID string, turn int) (TurnClose, bool, error) {
	var c TurnClose
	var at string
	var mail sql.NullInt64
	var ref int
	err := tx.queryRow(ctx, `SELECT at, closed_by, mail_id, referee FROM turn_closings WHERE game_id = ? AND turn = ?`,
		gameID, turn).Scan(&at, &c.By, &mail, &ref)
	if errors.Is(err, sql.ErrNoRows) {
		return TurnClose{}, false, nil
	}
	if err == nil {
		c.At, err = decTime(at)
	}
	if err != nil {
		return TurnClose{}, false, fmt.Errorf("store: reading the close of %s turn %d: %w", gameID, turn, err)
	}
	c.MailID, c.Referee = mail.Int64, ref == 1
	return c, true, nil
}

// SetTurnClose records a turn's early close, replacing any.
func (tx *Tx) SetTurnClose(ctx context.Context, gameID string, turn int, c TurnClose) error {
	if err := nonEmpty("SetTurnClose", "GameID", gameID, "By", c.By); err != nil {
		return err
	}
	var mail any
	if c.MailID != 0 {
		mail = c.MailID
	}
	_, err := tx.exec(ctx, `INSERT INTO turn_closings (game_id, turn, at, closed_by, mail_id, referee) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id, turn) DO UPDATE SET at = excluded.at, closed_by = excluded.closed_by, mail_id = excluded.mail_id,
		referee = excluded.referee`, gameID, turn, encTime(c.At), c.By, mail, bit(c.Referee))
	if err != nil {
		return fmt.Errorf("store: SetTurnClose %s turn %d: %w", gameID, turn, err)
	}
	return nil
}

// ClearTurnClose forgets a turn's early close (the turn is open again).
func (tx *Tx) ClearTurnClose(ctx context.Context, gameID string, turn int) error {
	if _, err := tx.exec(ctx, `DELETE FROM turn_closings WHERE game_id = ? AND turn = ?`, gameID, turn); err != nil {
		return fmt.Errorf("store: ClearTurnClose %s turn %d: %w", gameID, turn, err)
	}
	return nil
}

// TurnReopen is a turn open again after a rollback or a rerun.
type TurnReopen struct {
	LastSubmission int64     // the turn's last submission before it; 0 for none
	At             time.Time // when
}

// TurnReopen returns a turn's last reopening; ok is false if it was never
// reopened.
func (db *DB) TurnReopen(ctx context.Context, gameID string, turn int) (r TurnReopen, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { r, ok, err = tx.TurnReopen(ctx, gameID, turn); return err })
	return r, ok, err
}

// TurnReopen is DB.TurnReopen inside a transaction.
func (tx *Tx) TurnReopen(ctx context.Context, gameID string, turn int) (TurnReopen, bool, error) {
	var r TurnReopen
	var at string
	err := tx.queryRow(ctx, `SELECT last_submission, at FROM turn_reopenings WHERE game_id = ? AND turn = ?`,
		gameID, turn).Scan(&r.LastSubmission, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return TurnReopen{}, false, nil
	}
	if err == nil {
		r.At, err = decTime(at)
	}
	if err != nil {
		return TurnReopen{}, false, fmt.Errorf("store: reading the reopening of %s turn %d: %w", gameID, turn, err)
	}
	return r, true, nil
}

// SetTurnReopen records a turn's reopening, replacing an earlier one.
func (tx *Tx) SetTurnReopen(ctx context.Context, gameID string, turn int, r TurnReopen) error {
	if err := nonEmpty("SetTurnReopen", "GameID", gameID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO turn_reopenings (game_id, turn, last_submission, at) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, turn) DO UPDATE SET last_submission = excluded.last_submission, at = excluded.at`,
		gameID, turn, r.LastSubmission, encTime(r.At))
	if err != nil {
		return fmt.Errorf("store: SetTurnReopen %s turn %d: %w", gameID, turn, err)
	}
	return nil
}

// TurnHold is a turn held by the mail-outage guard at its deadline.
type TurnHold struct {
	Deadline time.Time // the deadline it was held at
	Why      string    // the cause, for the referee
	At       time.Time // since when
	Released bool      // let go once the mail worked again (game.after_outage: resolve)
}

// TurnHold returns a turn's last hold; ok is false if it was never held.
func (db *DB) TurnHold(ctx context.Context, gameID string, turn int) (h TurnHold, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { h, ok, err = tx.TurnHold(ctx, gameID, turn); return err })
	return h, ok, err
}

// TurnHold is DB.TurnHold inside a transaction.
func (tx *Tx) TurnHold(ctx context.Context, gameID string, turn int) (TurnHold, bool, error) {
	var h TurnHold
	var deadline, at string
	var rel int
	err := tx.queryRow(ctx, `SELECT deadline, why, held_at, released FROM turn_holds WHERE game_id = ? AND turn = ?`,
		gameID, turn).Scan(&deadline, &h.Why, &at, &rel)
	if errors.Is(err, sql.ErrNoRows) {
		return TurnHold{}, false, nil
	}
	if err == nil {
		h.Deadline, err = decTime(deadline)
	}
	if err == nil {
		h.At, err = decTime(at)
	}
	if err != nil {
		return TurnHold{}, false, fmt.Errorf("store: reading the hold of %s turn %d: %w", gameID, turn, err)
	}
	h.Released = rel == 1
	return h, true, nil
}

// SetTurnHold records a turn's hold, replacing an earlier one.
func (db *DB) SetTurnHold(ctx context.Context, gameID string, turn int, h TurnHold) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetTurnHold(ctx, gameID, turn, h) })
}

// SetTurnHold is DB.SetTurnHold inside a transaction.
func (tx *Tx) SetTurnHold(ctx context.Context, gameID string, turn int, h TurnHold) error {
	if err := nonEmpty("SetTurnHold", "GameID", gameID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO turn_holds (game_id, turn, deadline, why, held_at, released) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id, turn) DO UPDATE SET deadline = excluded.deadline, why = excluded.why, held_at = excluded.held_at,
		released = excluded.released`, gameID, turn, encTime(h.Deadline), h.Why, encTime(h.At), bit(h.Released))
	if err != nil {
		return fmt.Errorf("store: SetTurnHold %s turn %d: %w", gameID, turn, err)
	}
	return nil
}

// TabletopBattle is a land battle of a turn fought on the referee's table:
// when its sheet was mailed, and when it was left to the model unanswered
// (zero: not yet).
type TabletopBattle struct {
	SheetSent, ToModel time.Time
}

// TabletopBattle returns what was done about the battle at hex in turn
// (the zero value for nothing yet).
func (db *DB) TabletopBattle(ctx context.Context, gameID string, turn int, hex string) (b TabletopBattle, err error) {
	err = db.view(ctx, func(tx *Tx) error { b, err = tx.TabletopBattle(ctx, gameID, turn, hex); return err })
	return b, err
}

// TabletopBattle is DB.TabletopBattle inside a transaction.
func (tx *Tx) TabletopBattle(ctx context.Context, gameID string, turn int, hex string) (TabletopBattle, error) {
	var b TabletopBattle
	var sent, model sql.NullString
	err := tx.queryRow(ctx, `SELECT sheet_sent_at, model_at FROM tabletop_battles WHERE game_id = ? AND turn = ? AND hex = ?`,
		gameID, turn, hex).Scan(&sent, &model)
	if errors.Is(err, sql.ErrNoRows) {
		return TabletopBattle{}, nil
	}
	if err == nil {
		b.SheetSent, err = decOptTime(sent)
	}
	if err == nil {
		b.ToModel, err = decOptTime(model)
	}
	if err != nil {
		return TabletopBattle{}, fmt.Errorf("store: reading the battle at %s of %s turn %d: %w", hex, gameID, turn, err)
	}
	return b, nil
}

// MarkBattleSheetSent records that the sheet of the battle at hex was
// mailed to the referee at at.
func (tx *Tx) MarkBattleSheetSent(ctx context.Context, gameID string, turn int, hex string, at time.Time) error {
	return tx.markBattle(ctx, "MarkBattleSheetSent", `sheet_sent_at`, gameID, turn, hex, at)
}

// MarkBattleToModel records that the battle at hex was left to the model
// at at, no result having come in time.
func (tx *Tx) MarkBattleToModel(ctx context.Context, gameID string, turn int, hex string, at time.Time) error {
	return tx.markBattle(ctx, "MarkBattleToModel", `model_at`, gameID, turn, hex, at)
}

func (tx *Tx) markBattle(ctx context.Context, op, column, gameID string, turn int, hex string, at time.Time) error {
	if err := nonEmpty(op, "GameID", gameID, "hex", hex); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO tabletop_battles (game_id, turn, hex, `+column+`) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, turn, hex) DO UPDATE SET `+column+` = excluded.`+column, gameID, turn, hex, encTime(at))
	if err != nil {
		return fmt.Errorf("store: %s %s turn %d %s: %w", op, gameID, turn, hex, err)
	}
	return nil
}

// Reminded reports whether the reminders of a turn's deadline were queued.
// The deadline counts to the second.
func (db *DB) Reminded(ctx context.Context, gameID string, turn int, deadline time.Time) (ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		var n int
		err := tx.queryRow(ctx, `SELECT COUNT(*) FROM reminders WHERE game_id = ? AND turn = ? AND deadline = ?`,
			gameID, turn, encTime(deadline.Truncate(time.Second))).Scan(&n)
		ok = n > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: Reminded %s turn %d: %w", gameID, turn, err)
	}
	return ok, nil
}

// MarkReminded records that the reminders of a turn's deadline were queued
// at at.
func (tx *Tx) MarkReminded(ctx context.Context, gameID string, turn int, deadline, at time.Time) error {
	if err := nonEmpty("MarkReminded", "GameID", gameID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO reminders (game_id, turn, deadline, queued_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, turn, deadline) DO NOTHING`, gameID, turn, encTime(deadline.Truncate(time.Second)), encTime(at))
	if err != nil {
		return fmt.Errorf("store: MarkReminded %s turn %d: %w", gameID, turn, err)
	}
	return nil
}
