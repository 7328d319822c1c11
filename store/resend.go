package store

import (
	"context"
	"fmt"
	"time"
)

// OutboxByMessageID returns the outbox row of a Message-ID.
func (tx *Tx) OutboxByMessageID(ctx context.Context, messageID string) (OutboxMessage, error) {
	ms, err := tx.queryOutbox(ctx, `WHERE message_id = ?`, messageID)
	if err != nil {
		return OutboxMessage{}, err
	}
	if len(ms) == 0 {
		return OutboxMessage{}, fmt.Errorf("store: no outbox message %s: %w", messageID, ErrNotFound)
	}
	return ms[0], nil
}

// OutboxByMessageID is Tx.OutboxByMessageID outside a transaction.
func (db *DB) OutboxByMessageID(ctx context.Context, messageID string) (m OutboxMessage, err error) {
	err = db.view(ctx, func(tx *Tx) error { m, err = tx.OutboxByMessageID(ctx, messageID); return err })
	return m, err
}

// Resend puts a message already sent (or given up on) back to pending, to be
// sent again from next with the same bytes and Message-ID: the referee's
// "send that report again". A message pending or sending is going out
// already (ErrWrongState).
func (tx *Tx) Resend(ctx context.Context, id int64, next time.Time) error {
	if next.IsZero() {
		return fmt.Errorf("store: Resend %d: next attempt time is zero: %w", id, ErrInvalid)
	}
	if err := tx.moveOutbox(ctx, id, []OutboxState{OutboxSent, OutboxFailed}, OutboxPending,
		`state = 'pending', attempts = 0, next_attempt_at = ?, sent_at = NULL`, encTime(next)); err != nil {
		return err
	}
	tx.queuedMail = true
	return nil
}
