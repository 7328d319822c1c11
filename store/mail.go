package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// MailStatus is how far the daemon has got with a received message.
//
// The main line is stored → handled → acknowledged → moved. A message that
// needs no answer (an auto-reply, a bounce) is ignored instead of handled,
// and one that could not be read safely is quarantined. Statuses only move
// forward along that line (see SetMailStatus), so replaying a step after a
// crash cannot undo a later one.
type MailStatus string

// Mail statuses.
const (
	// MailStored: the raw bytes are in the store; nothing else is done.
	MailStored MailStatus = "stored"
	// MailHandled: its effect (a submission, a referee ruling) is saved.
	MailHandled MailStatus = "handled"
	// MailIgnored: deliberately not acted on (auto-reply, bounce, loop).
	MailIgnored MailStatus = "ignored"
	// MailQuarantined: unreadable or dangerous; kept for the referee.
	MailQuarantined MailStatus = "quarantined"
	// MailAcknowledged: the answer to the sender is in the outbox.
	MailAcknowledged MailStatus = "acknowledged"
	// MailMoved: the message left the IMAP inbox (moved or flagged).
	MailMoved MailStatus = "moved"
)

// mailRank orders statuses; a change may not lower the rank.
var mailRank = map[MailStatus]int{
	MailStored:       0,
	MailHandled:      1,
	MailIgnored:      1,
	MailQuarantined:  1,
	MailAcknowledged: 2,
	MailMoved:        3,
}

// Mail is one received message. Its identity is (Mailbox, UIDValidity, UID),
// the key IMAP gives it; the SHA-256 of the raw bytes finds the same message
// again after the server changed UIDVALIDITY.
type Mail struct {
	ID          int64  // row id, assigned by StoreMail
	Mailbox     string // the IMAP mailbox it was fetched from
	UIDValidity uint32 // the mailbox's UIDVALIDITY when fetched
	UID         uint32 // its UID in that mailbox
	Raw         []byte // the message exactly as fetched
	SHA256      string // lower-case hex of SHA-256(Raw); computed by StoreMail
	MessageID   string // the Message-ID header, "" if none (not a key: it can be missing or forged)
	From        string // the From address as read
	// Arrival is how the mail server recorded the message's arrival, read
	// from the server itself when the intake stored it (see
	// inbox.Options.Arrival): "" when the server keeps no such record (an
	// external provider).
	Arrival string
	// ReceivedAt is when the mail reached the server, as the server
	// stamped it (IMAP INTERNALDATE, cross-checked with the topmost
	// Received header; see inbox.ServerReceipt), or when pbem fetched it when
	// the server gave no usable stamp (ArrivalSource says which). Set by
	// the caller.
	ReceivedAt time.Time
	// FetchedAt is when pbem fetched it; zero in rows stored before it was
	// kept (ReceivedAt was the fetch time then).
	FetchedAt time.Time
	// ArrivalSource is what ReceivedAt was read from: ArrivalInternalDate,
	// ArrivalReceived or ArrivalFetch.
	ArrivalSource string
	// ArrivalNote says why the server's INTERNALDATE was not taken as it
	// stands, or how the server's stamps disagreed ("" when they agreed).
	ArrivalNote    string
	Status         MailStatus // how far the daemon has got with it
	Classification string     // the intake's verdict, such as "orders", "auto-reply"
	Error          string     // why it was quarantined or could not be handled
}

// What Mail.ReceivedAt was read from.
const (
	ArrivalInternalDate = "internaldate" // the IMAP server's INTERNALDATE: its own delivery time
	ArrivalReceived     = "received"     // the server's topmost Received stamp (INTERNALDATE missing or later contradicted)
	ArrivalFetch        = "fetch"        // when pbem fetched it: the server gave no usable stamp (a flagged last resort)
)

// SHA256Hex returns the lower-case hex SHA-256 of raw, as stored in
// Mail.SHA256.
func SHA256Hex(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// StoreMail stores a received message with status MailStored, unless a row
// with the same (Mailbox, UIDValidity, UID) exists: then it returns that row
// and inserted is false. StoreMail is therefore safe to repeat after a
// crash. The row returned carries the assigned ID and SHA256. If the
// existing row holds different bytes the server reused a UID; that is an
// error wrapping ErrConflict and nothing is stored.
//
// m.Status, Classification and Error are ignored.
func (db *DB) StoreMail(ctx context.Context, m Mail) (stored Mail, inserted bool, err error) {
	err = db.Update(ctx, func(tx *Tx) error { stored, inserted, err = tx.StoreMail(ctx, m); return err })
	return stored, inserted, err
}

// StoreMail is DB.StoreMail inside a transaction.
func (tx *Tx) StoreMail(ctx context.Context, m Mail) (Mail, bool, error) {
	if err := nonEmpty("StoreMail", "Mailbox", m.Mailbox); err != nil {
		return Mail{}, false, err
	}
	if m.ReceivedAt.IsZero() {
		return Mail{}, false, fmt.Errorf("store: StoreMail: ReceivedAt is zero: %w", ErrInvalid)
	}
	if m.Raw == nil {
		m.Raw = []byte{}
	}
	m.SHA256 = SHA256Hex(m.Raw)
	if m.ArrivalSource == "" {
		m.ArrivalSource = ArrivalFetch
	}
	var fetched any
	if !m.FetchedAt.IsZero() {
		fetched = encTime(m.FetchedAt)
	}
	res, err := tx.exec(ctx, `INSERT INTO mail (mailbox, uidvalidity, uid, raw, sha256, message_id, from_addr,
		received_at, status, updated_at, arrival, raw_size, fetched_at, arrival_source, arrival_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'stored', ?, ?, ?, ?, ?, ?)
		ON CONFLICT (mailbox, uidvalidity, uid) DO NOTHING`,
		m.Mailbox, int64(m.UIDValidity), int64(m.UID), firstPiece(m.Raw), m.SHA256, m.MessageID, m.From,
		encTime(m.ReceivedAt), encTime(tx.now()), m.Arrival, len(m.Raw), fetched, m.ArrivalSource, m.ArrivalNote)
	if err != nil {
		return Mail{}, false, fmt.Errorf("store: StoreMail %s/%d/%d: %w", m.Mailbox, m.UIDValidity, m.UID, err)
	}
	n, _ := res.RowsAffected()
	if n == 1 {
		id, err := res.LastInsertId()
		if err != nil {
			return Mail{}, false, err
		}
		if err := tx.storePieces(ctx, id, m.Raw); err != nil {
			return Mail{}, false, fmt.Errorf("store: StoreMail %s/%d/%d: %w", m.Mailbox, m.UIDValidity, m.UID, err)
		}
	}
	got, err := tx.queryMail(ctx, false, `WHERE mailbox = ? AND uidvalidity = ? AND uid = ?`,
		m.Mailbox, int64(m.UIDValidity), int64(m.UID))
	if err != nil {
		return Mail{}, false, err
	}
	if len(got) != 1 {
		return Mail{}, false, fmt.Errorf("store: StoreMail %s/%d/%d: row vanished", m.Mailbox, m.UIDValidity, m.UID)
	}
	row := got[0]
	if row.SHA256 != m.SHA256 {
		return Mail{}, false, fmt.Errorf("store: mailbox %s UIDVALIDITY %d UID %d is already stored as mail %d with "+
			"different content (sha256 %s, now %s): %w", m.Mailbox, m.UIDValidity, m.UID, row.ID, row.SHA256, m.SHA256, ErrConflict)
	}
	row.Raw = m.Raw
	return row, n == 1, nil
}

// Mail returns one received message, with its raw bytes.
func (db *DB) Mail(ctx context.Context, id int64) (m Mail, err error) {
	err = db.view(ctx, func(tx *Tx) error { m, err = tx.Mail(ctx, id); return err })
	return m, err
}

// Mail is DB.Mail inside a transaction.
func (tx *Tx) Mail(ctx context.Context, id int64) (Mail, error) {
	got, err := tx.queryMail(ctx, true, `WHERE id = ?`, id)
	if err != nil {
		return Mail{}, err
	}
	if len(got) == 0 {
		return Mail{}, fmt.Errorf("store: mail %d: %w", id, ErrNotFound)
	}
	return got[0], nil
}

// MailBySHA256 returns every stored message whose raw bytes hash to sum
// (lower-case hex), oldest first, with raw bytes. It finds a message again
// after a UIDVALIDITY change, and the same mail delivered twice.
func (db *DB) MailBySHA256(ctx context.Context, sum string) (ms []Mail, err error) {
	err = db.view(ctx, func(tx *Tx) error { ms, err = tx.MailBySHA256(ctx, sum); return err })
	return ms, err
}

// MailBySHA256 is DB.MailBySHA256 inside a transaction.
func (tx *Tx) MailBySHA256(ctx context.Context, sum string) ([]Mail, error) {
	return tx.queryMail(ctx, true, `WHERE sha256 = ? ORDER BY id`, sum)
}

// MailByStatus returns every message with the given status, oldest first,
// with raw bytes: after a restart, the work still to do.
func (db *DB) MailByStatus(ctx context.Context, status MailStatus) (ms []Mail, err error) {
	err = db.view(ctx, func(tx *Tx) error { ms, err = tx.MailByStatus(ctx, status); return err })
	return ms, err
}

// MailByStatus is DB.MailByStatus inside a transaction.
func (tx *Tx) MailByStatus(ctx context.Context, status MailStatus) ([]Mail, error) {
	return tx.queryMail(ctx, true, `WHERE status = ? ORDER BY id`, string(status))
}

// SetMailStatus records how far a message has got, with the intake's
// classification and an error text ("" for none); both replace the stored
// ones. A status may move forward or stay (stored → handled, ignored or
// quarantined → acknowledged → moved) but never back: that is an error
// wrapping ErrWrongState, and nothing changes.
func (db *DB) SetMailStatus(ctx context.Context, id int64, status MailStatus, classification, errText string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.SetMailStatus(ctx, id, status, classification, errText) })
}

// SetMailStatus is DB.SetMailStatus inside a transaction.
func (tx *Tx) SetMailStatus(ctx context.Context, id int64, status MailStatus, classification, errText string) error {
	newRank, ok := mailRank[status]
	if !ok {
		return fmt.Errorf("store: SetMailStatus %d: unknown status %q: %w", id, status, ErrInvalid)
	}
	var cur string
	err := tx.queryRow(ctx, `SELECT status FROM mail WHERE id = ?`, id).Scan(&cur)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: mail %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: SetMailStatus %d: %w", id, err)
	}
	if newRank < mailRank[MailStatus(cur)] {
		return fmt.Errorf("store: mail %d is %s and cannot go back to %s: %w", id, cur, status, ErrWrongState)
	}
	_, err = tx.exec(ctx, `UPDATE mail SET status = ?, classification = ?, error = ?, updated_at = ? WHERE id = ?`,
		string(status), classification, errText, encTime(tx.now()), id)
	if err != nil {
		return fmt.Errorf("store: SetMailStatus %d: %w", id, err)
	}
	return nil
}

func (tx *Tx) queryMail(ctx context.Context, withRaw bool, where string, args ...any) ([]Mail, error) {
	raw := "NULL"
	if withRaw {
		raw = "raw"
	}
	rows, err := tx.query(ctx, `SELECT id, mailbox, uidvalidity, uid, `+raw+`, sha256, message_id, from_addr,
		received_at, status, classification, error, arrival, coalesce(raw_size, length(raw)), fetched_at, arrival_source, arrival_note FROM mail `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading mail: %w", err)
	}
	var out []Mail
	var sizes []int64
	for rows.Next() {
		var m Mail
		var uidv, uid, size int64
		var received, status string
		var fetched sql.NullString
		if err := rows.Scan(&m.ID, &m.Mailbox, &uidv, &uid, &m.Raw, &m.SHA256, &m.MessageID, &m.From,
			&received, &status, &m.Classification, &m.Error, &m.Arrival, &size, &fetched, &m.ArrivalSource, &m.ArrivalNote); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: reading mail: %w", err)
		}
		m.UIDValidity, m.UID, m.Status = uint32(uidv), uint32(uid), MailStatus(status)
		if m.ReceivedAt, err = decTime(received); err != nil {
			rows.Close()
			return nil, err
		}
		if m.FetchedAt, err = decOptTime(fetched); err != nil {
			return nil, err
		}
		out = append(out, m)
		sizes = append(sizes, size)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("store: reading mail: %w", err)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reading mail: %w", err)
	}
	if withRaw {
		for i := range out {
			if out[i].Raw, err = tx.loadPieces(ctx, out[i].ID, out[i].Raw, sizes[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
