package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Submission is something a nation sent in for a turn: an order sheet, a
// treaty, a request to the referee. Every submission is kept; for each
// (game, turn, nation, kind) at most one is in force: the latest valid one.
type Submission struct {
	ID            int64     // row id, assigned by SaveSubmission
	GameID        string    // the game
	Turn          int       // the turn it is for
	Nation        string    // the nation that sent it
	Kind          string    // such as "orders", "treaty", "request"
	MailID        int64     // the mail it came in, 0 if none (typed in by the referee)
	RawText       string    // the text as received
	CanonicalText string    // the text as the checker understood it
	ReceiptHash   string    // the hash quoted in the acknowledgment
	Valid         bool      // the checker accepted it (it can still carry warnings)
	SubmittedAt   time.Time // set by the caller
	Superseded    bool      // a later valid submission of the same kind replaced it

	// Orders are the accepted orders as the engine reads them: a JSON array
	// of order envelopes (engine.MarshalOrder), nil for kinds without
	// orders. The turn runner decodes these and never parses RawText again,
	// so a sheet means at the deadline exactly what its acknowledgment said.
	Orders []byte
	// Ruleset and RulesVersion identify the edition and the exact rule
	// tables the sheet was checked under ("" when not recorded).
	Ruleset      string
	RulesVersion string
}

// SaveSubmission stores s. If s is valid, every earlier submission with the
// same game, turn, nation and kind is marked superseded in the same
// transaction, and replaced reports whether one of them was in force. An
// invalid submission is kept for the record and supersedes nothing, so a
// garbled resend never cancels good orders. s.Superseded is ignored.
func (db *DB) SaveSubmission(ctx context.Context, s Submission) (id int64, replaced bool, err error) {
	err = db.Update(ctx, func(tx *Tx) error { id, replaced, err = tx.SaveSubmission(ctx, s); return err })
	return id, replaced, err
}

// SaveSubmission is DB.SaveSubmission inside a transaction.
func (tx *Tx) SaveSubmission(ctx context.Context, s Submission) (id int64, replaced bool, err error) {
	if err := nonEmpty("SaveSubmission", "GameID", s.GameID, "Nation", s.Nation, "Kind", s.Kind); err != nil {
		return 0, false, err
	}
	if s.SubmittedAt.IsZero() {
		return 0, false, fmt.Errorf("store: SaveSubmission: SubmittedAt is zero: %w", ErrInvalid)
	}
	if s.Valid {
		res, err := tx.exec(ctx, `UPDATE submissions SET superseded = 1
			WHERE game_id = ? AND turn = ? AND nation = ? AND kind = ? AND superseded = 0 AND valid = 1`,
			s.GameID, s.Turn, s.Nation, s.Kind)
		if err != nil {
			return 0, false, fmt.Errorf("store: SaveSubmission: %w", err)
		}
		n, _ := res.RowsAffected()
		replaced = n > 0
		// Earlier invalid ones are superseded too, but never counted as replaced.
		if _, err := tx.exec(ctx, `UPDATE submissions SET superseded = 1
			WHERE game_id = ? AND turn = ? AND nation = ? AND kind = ? AND superseded = 0`,
			s.GameID, s.Turn, s.Nation, s.Kind); err != nil {
			return 0, false, fmt.Errorf("store: SaveSubmission: %w", err)
		}
	}
	var mailID any
	if s.MailID != 0 {
		mailID = s.MailID
	}
	res, err := tx.exec(ctx, `INSERT INTO submissions (game_id, turn, nation, kind, mail_id, raw_text,
		canonical_text, receipt_hash, valid, superseded, submitted_at, orders, ruleset, rules_version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
		s.GameID, s.Turn, s.Nation, s.Kind, mailID, s.RawText, s.CanonicalText, s.ReceiptHash, s.Valid,
		encTime(s.SubmittedAt), s.Orders, s.Ruleset, s.RulesVersion)
	if err != nil {
		return 0, false, fmt.Errorf("store: SaveSubmission %s turn %d %s %s: %w", s.GameID, s.Turn, s.Nation, s.Kind, err)
	}
	id, err = res.LastInsertId()
	if err != nil {
		return 0, false, fmt.Errorf("store: SaveSubmission: %w", err)
	}
	return id, replaced, nil
}

// LatestSubmission returns the submission in force for a game, turn, nation
// and kind: the latest valid one. With none it returns an error wrapping
// ErrNotFound.
func (db *DB) LatestSubmission(ctx context.Context, gameID string, turn int, nation, kind string) (s Submission, err error) {
	err = db.view(ctx, func(tx *Tx) error { s, err = tx.LatestSubmission(ctx, gameID, turn, nation, kind); return err })
	return s, err
}

// LatestSubmission is DB.LatestSubmission inside a transaction.
func (tx *Tx) LatestSubmission(ctx context.Context, gameID string, turn int, nation, kind string) (Submission, error) {
	got, err := tx.querySubmissions(ctx, `WHERE game_id = ? AND turn = ? AND nation = ? AND kind = ?
		AND valid = 1 AND superseded = 0 ORDER BY id DESC LIMIT 1`, gameID, turn, nation, kind)
	if err != nil {
		return Submission{}, err
	}
	if len(got) == 0 {
		return Submission{}, fmt.Errorf("store: no %s from %s for game %q turn %d: %w", kind, nation, gameID, turn, ErrNotFound)
	}
	return got[0], nil
}

// Submissions returns every submission for a game and turn, superseded and
// invalid ones included, in the order they were saved.
func (db *DB) Submissions(ctx context.Context, gameID string, turn int) (ss []Submission, err error) {
	err = db.view(ctx, func(tx *Tx) error { ss, err = tx.Submissions(ctx, gameID, turn); return err })
	return ss, err
}

// Submissions is DB.Submissions inside a transaction.
func (tx *Tx) Submissions(ctx context.Context, gameID string, turn int) ([]Submission, error) {
	return tx.querySubmissions(ctx, `WHERE game_id = ? AND turn = ? ORDER BY id`, gameID, turn)
}

// SubmissionsOf returns the submissions of one kind for a game and turn, in
// the order they were saved: a nation's, or with nation "" every nation's.
// It reads through the submissions_by_key index, so checking one mail costs
// what that nation (or that kind) has sent, not the whole turn.
func (db *DB) SubmissionsOf(ctx context.Context, gameID string, turn int, nation, kind string) (ss []Submission, err error) {
	err = db.view(ctx, func(tx *Tx) error { ss, err = tx.SubmissionsOf(ctx, gameID, turn, nation, kind); return err })
	return ss, err
}

// SubmissionsOf is DB.SubmissionsOf inside a transaction.
func (tx *Tx) SubmissionsOf(ctx context.Context, gameID string, turn int, nation, kind string) ([]Submission, error) {
	if nation == "" {
		return tx.querySubmissions(ctx, `WHERE game_id = ? AND turn = ? AND kind = ? ORDER BY id`, gameID, turn, kind)
	}
	return tx.querySubmissions(ctx, `WHERE game_id = ? AND turn = ? AND nation = ? AND kind = ? ORDER BY id`,
		gameID, turn, nation, kind)
}

func (tx *Tx) querySubmissions(ctx context.Context, where string, args ...any) ([]Submission, error) {
	rows, err := tx.query(ctx, `SELECT id, game_id, turn, nation, kind, mail_id, raw_text, canonical_text,
		receipt_hash, valid, superseded, submitted_at, orders, ruleset, rules_version FROM submissions `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: reading submissions: %w", err)
	}
	defer rows.Close()
	var out []Submission
	for rows.Next() {
		var s Submission
		var mailID sql.NullInt64
		var at string
		if err := rows.Scan(&s.ID, &s.GameID, &s.Turn, &s.Nation, &s.Kind, &mailID, &s.RawText, &s.CanonicalText,
			&s.ReceiptHash, &s.Valid, &s.Superseded, &at, &s.Orders, &s.Ruleset, &s.RulesVersion); err != nil {
			return nil, fmt.Errorf("store: reading submissions: %w", err)
		}
		s.MailID = mailID.Int64
		if s.SubmittedAt, err = decTime(at); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// SubmissionsInForce returns, for a game, turn and kind, the submission in
// force of every nation that has one (the latest valid one), ordered by
// nation.
func (db *DB) SubmissionsInForce(ctx context.Context, gameID string, turn int, kind string) (ss []Submission, err error) {
	err = db.view(ctx, func(tx *Tx) error { ss, err = tx.SubmissionsInForce(ctx, gameID, turn, kind); return err })
	return ss, err
}

// SubmissionsInForce is DB.SubmissionsInForce inside a transaction.
func (tx *Tx) SubmissionsInForce(ctx context.Context, gameID string, turn int, kind string) ([]Submission, error) {
	return tx.querySubmissions(ctx, `WHERE id IN (SELECT MAX(id) FROM submissions
		WHERE game_id = ? AND turn = ? AND kind = ? AND valid = 1 AND superseded = 0 GROUP BY nation)
		ORDER BY nation`, gameID, turn, kind)
}
