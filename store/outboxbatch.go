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

// dueIDs lists up to limit due pending messages (limit < 0: all), by id
// only, in the order they are sent: first the rows that have waited
// OutboxPromoteAfter or more, oldest first; then the rest by priority
// (answers, reports, notices), oldest first within a priority. Both walks
// follow an index, so neither sorts the queue or reads a body.
func (tx *Tx) dueIDs(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	walk := func(q string, args ...any) error {
		rows, err := tx.query(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("store: reading due outbox rows: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("store: reading due outbox rows: %w", err)
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return rows.Err()
	}
	if err := walk(`SELECT id FROM outbox INDEXED BY outbox_pending_order
		WHERE state = 'pending' AND created_at <= ? AND next_attempt_at <= ? ORDER BY created_at, id LIMIT ?`,
		encTime(now.Add(-OutboxPromoteAfter)), encTime(now), limit); err != nil {
		return nil, err
	}
	if limit >= 0 && len(ids) >= limit {
		return ids, nil
	}
	rest := -1
	if limit >= 0 {
		rest = limit - len(ids) + len(seen) // rows seen above may come again; skipped
	}
	if err := walk(`SELECT id FROM outbox INDEXED BY outbox_pending_priority
		WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY priority, created_at, id LIMIT ?`,
		encTime(now), rest); err != nil {
		return nil, err
	}
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	return ids, nil
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
