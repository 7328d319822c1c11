package store

import "context"

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
