package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// OutboxState is where an outbound message is in its life.
//
//	pending ──MarkSending──▶ sending ──MarkSent──▶ sent
//	   ▲                        │
//	   └────────MarkRetry───────┤
//	                            └──MarkFailed──▶ failed ──Requeue──▶ pending
//
// A message is marked sending durably before the SMTP DATA command, so a
// crash during the exchange leaves it in sending, and RecoverSending hands it
// back to be sent again, byte for byte, with the same Message-ID.
type OutboxState string

// Outbox states.
const (
	OutboxPending OutboxState = "pending" // waiting for NextAttemptAt
	OutboxSending OutboxState = "sending" // handed to the SMTP server; outcome unknown until marked
	OutboxSent    OutboxState = "sent"    // the server answered 250 after DATA
	OutboxFailed  OutboxState = "failed"  // given up: a permanent error or too many attempts
)

// Outbox priorities: under a provider's send pace the due rows go out in
// this order (lower first), then oldest first; a row that has waited
// OutboxPromoteAfter goes before any younger one, so that a stream of
// answers cannot hold a report back for ever (outbox/doc.go).
const (
	OutboxAnswer = 0 // the answer to a player's sheet or a referee's command
	OutboxReport = 1 // a turn report (and rows stored before priorities existed)
	OutboxNotice = 2 // reminders, notices and other mail nobody is waiting for
)

// OutboxPromoteAfter is how long a due row waits before it goes ahead of
// every younger row, whatever their priorities.
const OutboxPromoteAfter = 10 * time.Minute

// OutboxMessage is one outbound message, already rendered to the exact bytes
// that go on the wire.
type OutboxMessage struct {
	ID            int64       // row id, assigned by Enqueue
	MessageID     string      // the Message-ID header value; unique and chosen by the caller, deterministically
	GameID        string      // "" for mail that belongs to no game
	Kind          string      // such as "ack", "report", "referee"
	Priority      int         // the send order's rank: OutboxAnswer, OutboxReport or OutboxNotice (lower goes first)
	Recipients    []string    // envelope recipients (RCPT TO)
	Raw           []byte      // the complete RFC 5322 message; several megabytes are fine
	State         OutboxState // where it is in its life
	Attempts      int         // delivery attempts finished (sent, retried or failed)
	NextAttemptAt time.Time   // not before this time; Enqueue uses CreatedAt when zero
	LastError     string      // the last failure, for the referee
	CreatedAt     time.Time   // set by the caller
	UpdatedAt     time.Time   // last change, from Options.Now (bookkeeping only)
	SentAt        time.Time   // zero until sent
}

// Enqueue adds m to the outbox as pending. It is idempotent on MessageID:
// if that Message-ID is already queued with the same bytes, Enqueue does
// nothing and inserted is false; with different bytes it is an error
// wrapping ErrConflict, since a resend must be byte-identical. m's ID,
// State, Attempts, LastError, UpdatedAt and SentAt are ignored.
func (db *DB) Enqueue(ctx context.Context, m OutboxMessage) (inserted bool, err error) {
	err = db.Update(ctx, func(tx *Tx) error { inserted, err = tx.Enqueue(ctx, m); return err })
	return inserted, err
}

// Enqueue is DB.Enqueue inside a transaction.
func (tx *Tx) Enqueue(ctx context.Context, m OutboxMessage) (bool, error) {
	if err := nonEmpty("Enqueue", "MessageID", m.MessageID); err != nil {
		return false, err
	}
	if len(m.Recipients) == 0 || len(m.Raw) == 0 || m.CreatedAt.IsZero() {
		return false, fmt.Errorf("store: Enqueue %s: Recipients, Raw and CreatedAt must all be set: %w", m.MessageID, ErrInvalid)
	}
	for _, r := range m.Recipients {
		if r == "" {
			return false, fmt.Errorf("store: Enqueue %s: empty recipient: %w", m.MessageID, ErrInvalid)
		}
	}
	if m.NextAttemptAt.IsZero() {
		m.NextAttemptAt = m.CreatedAt
	}
	rcpt, err := json.Marshal(m.Recipients)
	if err != nil {
		return false, fmt.Errorf("store: Enqueue %s: %w", m.MessageID, err)
	}
	sum := SHA256Hex(m.Raw)
	res, err := tx.exec(ctx, `INSERT INTO outbox (message_id, game_id, kind, recipients, raw, raw_sha256,
		state, attempts, next_attempt_at, created_at, updated_at, priority) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)
		ON CONFLICT (message_id) DO NOTHING`,
		m.MessageID, m.GameID, m.Kind, string(rcpt), m.Raw, sum,
		encTime(m.NextAttemptAt), encTime(m.CreatedAt), encTime(m.CreatedAt), m.Priority)
	if err != nil {
		return false, fmt.Errorf("store: Enqueue %s: %w", m.MessageID, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		tx.queuedMail = true
		return true, nil
	}
	var existing string
	var id int64
	if err := tx.queryRow(ctx, `SELECT id, raw_sha256 FROM outbox WHERE message_id = ?`, m.MessageID).
		Scan(&id, &existing); err != nil {
		return false, fmt.Errorf("store: Enqueue %s: %w", m.MessageID, err)
	}
	if existing != sum {
		return false, fmt.Errorf("store: Message-ID %s is already queued (outbox %d) with different content: %w",
			m.MessageID, id, ErrConflict)
	}
	return false, nil
}

// DueMessages returns up to limit pending messages whose NextAttemptAt is
// not after now, in the order they are sent (see dueIDs). limit <= 0 means
// no limit.
func (db *DB) DueMessages(ctx context.Context, now time.Time, limit int) (ms []OutboxMessage, err error) {
	err = db.view(ctx, func(tx *Tx) error { ms, err = tx.DueMessages(ctx, now, limit); return err })
	return ms, err
}

// DueMessages is DB.DueMessages inside a transaction.
func (tx *Tx) DueMessages(ctx context.Context, now time.Time, limit int) ([]OutboxMessage, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	ids, err := tx.dueIDs(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]OutboxMessage, 0, len(ids))
	for _, id := range ids {
		m, err := tx.OutboxMessage(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// MessagesInState returns every message in a state, oldest first, raw
// bytes included.
func (db *DB) MessagesInState(ctx context.Context, state OutboxState) (ms []OutboxMessage, err error) {
	err = db.view(ctx, func(tx *Tx) error { ms, err = tx.MessagesInState(ctx, state); return err })
	return ms, err
}

// MessagesInState is DB.MessagesInState inside a transaction.
func (tx *Tx) MessagesInState(ctx context.Context, state OutboxState) ([]OutboxMessage, error) {
	return tx.queryOutbox(ctx, `WHERE state = ? ORDER BY created_at, id`, string(state))
}

// RecoverSending returns the messages left in sending by a process that
// stopped mid-send. The server may or may not have taken them; send each
// again unchanged (same bytes, same Message-ID, so a recipient sees one
// message) and mark it as usual. They stay in sending until marked.
func (db *DB) RecoverSending(ctx context.Context) ([]OutboxMessage, error) {
	return db.MessagesInState(ctx, OutboxSending)
}

// OutboxMessage returns one outbox row by its ID.
func (db *DB) OutboxMessage(ctx context.Context, id int64) (m OutboxMessage, err error) {
	err = db.view(ctx, func(tx *Tx) error { m, err = tx.OutboxMessage(ctx, id); return err })
	return m, err
}

// OutboxMessage is DB.OutboxMessage inside a transaction.
func (tx *Tx) OutboxMessage(ctx context.Context, id int64) (OutboxMessage, error) {
	got, err := tx.queryOutbox(ctx, `WHERE id = ?`, id)
	if err != nil {
		return OutboxMessage{}, err
	}
	if len(got) == 0 {
		return OutboxMessage{}, fmt.Errorf("store: outbox message %d: %w", id, ErrNotFound)
	}
	return got[0], nil
}

// MarkSending claims a pending message for sending. Call it, and let it
// return, before the SMTP DATA command. A message not pending (another
// worker claimed it) is an error wrapping ErrWrongState.
func (db *DB) MarkSending(ctx context.Context, id int64) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.MarkSending(ctx, id) })
}

// MarkSending is DB.MarkSending inside a transaction.
func (tx *Tx) MarkSending(ctx context.Context, id int64) error {
	return tx.moveOutbox(ctx, id, []OutboxState{OutboxPending}, OutboxSending,
		`state = 'sending'`)
}

// MarkSent records that the server accepted a sending message at the given
// time. Marking a message that is already sent again does nothing.
func (db *DB) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.MarkSent(ctx, id, at) })
}

// MarkSent is DB.MarkSent inside a transaction.
func (tx *Tx) MarkSent(ctx context.Context, id int64, at time.Time) error {
	if at.IsZero() {
		return fmt.Errorf("store: MarkSent %d: time is zero: %w", id, ErrInvalid)
	}
	cur, err := tx.outboxState(ctx, id)
	if err != nil {
		return err
	}
	if cur == OutboxSent {
		return nil
	}
	return tx.moveOutbox(ctx, id, []OutboxState{OutboxSending}, OutboxSent,
		`state = 'sent', sent_at = ?, last_error = '', attempts = attempts + 1`, encTime(at))
}

// MarkRetry puts a sending message back to pending after a temporary
// failure: one more attempt counted, errText kept, next try not before next.
func (db *DB) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.MarkRetry(ctx, id, next, errText) })
}

// MarkRetry is DB.MarkRetry inside a transaction.
func (tx *Tx) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	if next.IsZero() {
		return fmt.Errorf("store: MarkRetry %d: next attempt time is zero: %w", id, ErrInvalid)
	}
	return tx.moveOutbox(ctx, id, []OutboxState{OutboxSending}, OutboxPending,
		`state = 'pending', attempts = attempts + 1, next_attempt_at = ?, last_error = ?`, encTime(next), errText)
}

// MarkFailed gives up on a pending or sending message after a permanent
// failure or too many attempts; errText says why, for the referee.
func (db *DB) MarkFailed(ctx context.Context, id int64, errText string) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.MarkFailed(ctx, id, errText) })
}

// MarkFailed is DB.MarkFailed inside a transaction.
func (tx *Tx) MarkFailed(ctx context.Context, id int64, errText string) error {
	cur, err := tx.outboxState(ctx, id)
	if err != nil {
		return err
	}
	set := `state = 'failed', last_error = ?`
	if cur == OutboxSending {
		set += `, attempts = attempts + 1`
	}
	return tx.moveOutbox(ctx, id, []OutboxState{OutboxPending, OutboxSending}, OutboxFailed, set, errText)
}

// Requeue puts a failed message back to pending with its attempts reset,
// to be tried from next on: the referee's "send it again" after fixing the
// cause. The message is sent with the same bytes and Message-ID.
func (db *DB) Requeue(ctx context.Context, id int64, next time.Time) error {
	return db.Update(ctx, func(tx *Tx) error { return tx.Requeue(ctx, id, next) })
}

// Requeue is DB.Requeue inside a transaction.
func (tx *Tx) Requeue(ctx context.Context, id int64, next time.Time) error {
	if next.IsZero() {
		return fmt.Errorf("store: Requeue %d: next attempt time is zero: %w", id, ErrInvalid)
	}
	if err := tx.moveOutbox(ctx, id, []OutboxState{OutboxFailed}, OutboxPending,
		`state = 'pending', attempts = 0, next_attempt_at = ?`, encTime(next)); err != nil {
		return err
	}
	tx.queuedMail = true
	return nil
}

func (tx *Tx) outboxState(ctx context.Context, id int64) (OutboxState, error) {
	var s string
	err := tx.queryRow(ctx, `SELECT state FROM outbox WHERE id = ?`, id).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: outbox message %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store: outbox message %d: %w", id, err)
	}
	return OutboxState(s), nil
}

// moveOutbox applies set to row id if its state is one of from. The state
// test is in the UPDATE itself, so two workers cannot both claim a row.
func (tx *Tx) moveOutbox(ctx context.Context, id int64, from []OutboxState, to OutboxState, set string, args ...any) error {
	q := `UPDATE outbox SET ` + set + `, updated_at = ? WHERE id = ? AND state IN (`
	args = append(args, encTime(tx.now()), id)
	for i, s := range from {
		if i > 0 {
			q += ", "
		}
		q += "?"
		args = append(args, string(s))
	}
	res, err := tx.exec(ctx, q+")", args...)
	if err != nil {
		return fmt.Errorf("store: outbox message %d → %s: %w", id, to, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	cur, err := tx.outboxState(ctx, id)
	if err != nil {
		return err
	}
	return fmt.Errorf("store: outbox message %d is %s, not %v, so it cannot become %s: %w", id, cur, from, to, ErrWrongState)
}

func (tx *Tx) queryOutbox(ctx context.Context, where string, args ...any) ([]OutboxMessage, error) {
	rows, err := tx.query(ctx, `SELECT id, message_id, game_id, kind, recipients, raw, state, attempts,
		next_attempt_at, last_error, created_at, updated_at, sent_at, priority FROM outbox `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading outbox: %w", err)
	}
	defer rows.Close()
	var out []OutboxMessage
	for rows.Next() {
		var m OutboxMessage
		var rcpt, state, next, created, updated string
		var sent sql.NullString
		if err := rows.Scan(&m.ID, &m.MessageID, &m.GameID, &m.Kind, &rcpt, &m.Raw, &state, &m.Attempts,
			&next, &m.LastError, &created, &updated, &sent, &m.Priority); err != nil {
			return nil, fmt.Errorf("store: reading outbox: %w", err)
		}
		m.State = OutboxState(state)
		if err := json.Unmarshal([]byte(rcpt), &m.Recipients); err != nil {
			return nil, fmt.Errorf("store: outbox message %d: bad recipients %q in the database: %w", m.ID, rcpt, err)
		}
		for _, p := range []struct {
			dst *time.Time
			src string
		}{{&m.NextAttemptAt, next}, {&m.CreatedAt, created}, {&m.UpdatedAt, updated}} {
			if *p.dst, err = decTime(p.src); err != nil {
				return nil, err
			}
		}
		if m.SentAt, err = decOptTime(sent); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
