package store

import (
	"context"
	"fmt"
)

// MailHeadsByStatus is MailByStatus without the raw bytes (Raw is nil): for
// listing mail to move or count, where reading every body would cost memory
// for nothing.
func (db *DB) MailHeadsByStatus(ctx context.Context, status MailStatus) (ms []Mail, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		ms, err = tx.queryMail(ctx, false, `WHERE status = ? ORDER BY id`, string(status))
		return err
	})
	return ms, err
}

// MailHead is Mail without the raw bytes (Raw is nil).
func (db *DB) MailHead(ctx context.Context, id int64) (m Mail, err error) {
	err = db.view(ctx, func(tx *Tx) error { m, err = tx.MailHead(ctx, id); return err })
	return m, err
}

// MailHead is DB.MailHead inside a transaction.
func (tx *Tx) MailHead(ctx context.Context, id int64) (Mail, error) {
	ms, err := tx.queryMail(ctx, false, `WHERE id = ?`, id)
	if err != nil {
		return Mail{}, err
	}
	if len(ms) == 0 {
		return Mail{}, fmt.Errorf("store: mail %d: %w", id, ErrNotFound)
	}
	return ms[0], nil
}
