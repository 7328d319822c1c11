package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The mail's own bookkeeping: which mail first came with a sender,
// Message-ID and text (the daemon drops a resend), and how far the intake
// has read each mailbox.

// MailClaim names a mail by what makes a resend the same mail: its
// sender, its Message-ID and a digest of its text.
type MailClaim struct {
	Sender, MessageID, TextSHA string
}

// ClaimedBy returns the mail that claimed c first; ok is false if none did.
func (db *DB) ClaimedBy(ctx context.Context, c MailClaim) (mailID int64, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT mail_id FROM mail_claims WHERE sender = ? AND message_id = ? AND text_sha = ?`,
			c.Sender, c.MessageID, c.TextSHA).Scan(&mailID)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: reading the claim of %s: %w", c.MessageID, err)
	}
	return mailID, true, nil
}

// Claim records that mail mailID is the one with c's sender, Message-ID
// and text, replacing an earlier claim.
func (tx *Tx) Claim(ctx context.Context, c MailClaim, mailID int64) error {
	if err := nonEmpty("Claim", "Sender", c.Sender, "MessageID", c.MessageID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO mail_claims (sender, message_id, text_sha, mail_id) VALUES (?, ?, ?, ?)
		ON CONFLICT (sender, message_id, text_sha) DO UPDATE SET mail_id = excluded.mail_id`,
		c.Sender, c.MessageID, c.TextSHA, mailID)
	if err != nil {
		return fmt.Errorf("store: Claim %s for mail %d: %w", c.MessageID, mailID, err)
	}
	return nil
}

// UIDValidity returns the UIDVALIDITY last seen of a mailbox; ok is false
// if none was recorded.
func (db *DB) UIDValidity(ctx context.Context, mailbox string) (uv uint32, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT uidvalidity FROM mailboxes WHERE mailbox = ?`, mailbox).Scan(&uv)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: reading the UIDVALIDITY of %s: %w", mailbox, err)
	}
	return uv, true, nil
}

// SetUIDValidity records the UIDVALIDITY seen of a mailbox.
func (db *DB) SetUIDValidity(ctx context.Context, mailbox string, uv uint32) error {
	return db.Update(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO mailboxes (mailbox, uidvalidity, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (mailbox) DO UPDATE SET uidvalidity = excluded.uidvalidity, updated_at = excluded.updated_at`,
			mailbox, uv, encTime(tx.now()))
		if err != nil {
			return fmt.Errorf("store: SetUIDValidity %s: %w", mailbox, err)
		}
		return nil
	})
}

// LastUID returns the highest UID stored of a mailbox under a UIDVALIDITY;
// ok is false if none was recorded.
func (db *DB) LastUID(ctx context.Context, mailbox string, uidValidity uint32) (uid uint32, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `SELECT last_uid FROM mailbox_marks WHERE mailbox = ? AND uidvalidity = ?`,
			mailbox, uidValidity).Scan(&uid)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: reading the last UID of %s: %w", mailbox, err)
	}
	return uid, true, nil
}

// SetLastUID records the highest UID stored of a mailbox under a
// UIDVALIDITY.
func (db *DB) SetLastUID(ctx context.Context, mailbox string, uidValidity, uid uint32) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetLastUID(ctx, mailbox, uidValidity, uid) })
}

// SetLastUID is DB.SetLastUID inside a transaction.
func (tx *Tx) SetLastUID(ctx context.Context, mailbox string, uidValidity, uid uint32) error {
	_, err := tx.exec(ctx, `INSERT INTO mailbox_marks (mailbox, uidvalidity, last_uid, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (mailbox, uidvalidity) DO UPDATE SET last_uid = excluded.last_uid, updated_at = excluded.updated_at`,
		mailbox, uidValidity, uid, encTime(tx.now()))
	if err != nil {
		return fmt.Errorf("store: SetLastUID %s: %w", mailbox, err)
	}
	return nil
}
