package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The outbox's fast path: a sender that needs no pause between messages
// (pbem's own embedded server) claims several due messages in one
// transaction and marks several sent in one, instead of two transactions
// (two fsyncs) a message. Due messages are found through an index in the
// order they are sent, reading neither the whole queue nor any body.

// outboxOrderIndex lets "pending, due, oldest first" walk the queue in order
// without a sort; it is created if missing whenever the store is opened
// (CREATE INDEX IF NOT EXISTS: no schema version of its own).
const outboxOrderIndex = `CREATE INDEX IF NOT EXISTS outbox_pending_order ON outbox(state, created_at, id, next_attempt_at)`

// ensureIndexes creates the indexes that are not part of a migration.
func ensureIndexes(ctx context.Context, db *DB) error {
	_, err := db.writer.ExecContext(ctx, outboxOrderIndex)
	if err != nil {
		return fmt.Errorf("store: %s: creating the outbox index: %w", db.path, err)
	}
	return nil
}

// dueIDs lists up to limit due pending messages, oldest first, by id only.
func (tx *Tx) dueIDs(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	rows, err := tx.query(ctx, `SELECT id FROM outbox INDEXED BY outbox_pending_order
		WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY created_at, id LIMIT ?`, encTime(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: reading due outbox rows: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: reading due outbox rows: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// ClaimDue marks up to limit due pending messages sending, oldest first,
// in one transaction, and returns them (bodies included: they are about to
// be sent). A crash after it leaves them in sending, to be sent again by
// RecoverSending's caller, as after MarkSending.
func (db *DB) ClaimDue(ctx context.Context, now time.Time, limit int) (ms []OutboxMessage, err error) {
	if limit <= 0 {
		limit = 1
	}
	err = db.Update(ctx, func(tx *Tx) error {
		ms = ms[:0]
		ids, err := tx.dueIDs(ctx, now, limit)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := tx.MarkSending(ctx, id); errors.Is(err, ErrWrongState) {
				continue
			} else if err != nil {
				return err
			}
			m, err := tx.OutboxMessage(ctx, id)
			if err != nil {
				return err
			}
			ms = append(ms, m)
		}
		return nil
	})
	return ms, err
}

// SentMark is one message the server took, and when.
type SentMark struct {
	ID int64
	At time.Time
}

// MarkSentBatch is MarkSent for several messages, in one transaction.
func (db *DB) MarkSentBatch(ctx context.Context, marks []SentMark) error {
	if len(marks) == 0 {
		return nil
	}
	return db.Update(ctx, func(tx *Tx) error {
		for _, m := range marks {
			if err := tx.MarkSent(ctx, m.ID, m.At); err != nil {
				return err
			}
		}
		return nil
	})
}

// CountInState counts the outbox rows in a state, reading no body.
func (db *DB) CountInState(ctx context.Context, state OutboxState) (n int, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT count(*) FROM outbox WHERE state = ?`, string(state)).Scan(&n)
	})
	return n, err
}

// HasDue reports whether a pending message is due, reading no body.
func (db *DB) HasDue(ctx context.Context, now time.Time) (due bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		ids, err := tx.dueIDs(ctx, now, 1)
		due = len(ids) > 0
		return err
	})
	return due, err
}
