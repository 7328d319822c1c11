package store

import (
	"context"
	"fmt"
	"time"
)

// PurgeRawMail clears the raw bytes of every mail received before before
// whose handling is over (any status but stored), and returns how many it
// cleared. The row stays, with its SHA-256, Message-ID, sender, arrival
// time and classification, so a copy of the same mail is still recognised
// as a duplicate; what goes is the text, which holds the order sheet's
// PASSWORD line. The daemon calls it for mail of turns already resolved,
// after the retention the config sets.
func (db *DB) PurgeRawMail(ctx context.Context, before time.Time) (n int64, err error) {
	err = db.Update(ctx, func(tx *Tx) error { n, err = tx.PurgeRawMail(ctx, before); return err })
	return n, err
}

// PurgeRawMail is DB.PurgeRawMail inside a transaction.
func (tx *Tx) PurgeRawMail(ctx context.Context, before time.Time) (int64, error) {
	if _, err := tx.exec(ctx, `DELETE FROM mail_chunks WHERE mail_id IN (SELECT id FROM mail
		WHERE received_at < ? AND status != 'stored' AND raw_purged_at IS NULL)`, encTime(before)); err != nil {
		return 0, fmt.Errorf("store: PurgeRawMail: %w", err)
	}
	res, err := tx.exec(ctx, `UPDATE mail SET raw = X'', raw_size = 0, raw_purged_at = ?
		WHERE received_at < ? AND status != 'stored' AND raw_purged_at IS NULL`, encTime(tx.now()), encTime(before))
	if err != nil {
		return 0, fmt.Errorf("store: PurgeRawMail: %w", err)
	}
	return res.RowsAffected()
}
