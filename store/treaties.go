package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Treaty is one treaty of a game's treaty ledger, as the daemon keeps it
// between turns (the engine's game.Treaty, in the store's own words).
type Treaty struct {
	ID        string   // "T3"
	Title     string   // its title
	Text      string   // its text
	Proposer  string   // the party that sent it; "" if unknown
	Parties   []string // the nations bound by it, in order
	Attested  []string // the parties that attested it, in order
	Submitted int      // the turn open when it came
	Ratified  int      // the turn the last party attested in; 0 while awaited
	Published int      // the turn it was published at; 0 before
	Penalties []TreatyPenalty
}

// TreatyPenalty is a breach of a treaty found by the referee: Offender pays
// a yearly penalty until Aggrieved ends it.
type TreatyPenalty struct {
	Offender, Aggrieved string
	Since               int // the turn of the breach
	Ended               int // the turn the penalty ended; 0 while it runs
}

// A game has one treaty ledger as it stands between turns, and keeps the
// ledger each turn was resolved from beside the turn. ledgerNow (turn 0
// below) names the first; a turn's is its number (turns resolved are 1 on).
const ledgerNow = 0

// ledgerID returns the id of a ledger row (ok false: none).
func (tx *Tx) ledgerID(ctx context.Context, gameID string, turn int) (id int64, ok bool, err error) {
	q, args := `SELECT id FROM treaty_ledgers WHERE game_id = ? AND turn IS NULL`, []any{gameID}
	if turn != ledgerNow {
		q, args = `SELECT id FROM treaty_ledgers WHERE game_id = ? AND turn = ?`, []any{gameID, turn}
	}
	err = tx.queryRow(ctx, q, args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// TreatyLedger returns a game's treaty ledger as it stands between turns;
// ok is false while the game has none (no treaty was ever sent: the state's
// own treaties stand).
func (db *DB) TreatyLedger(ctx context.Context, gameID string) (ts []Treaty, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { ts, ok, err = tx.TreatyLedger(ctx, gameID); return err })
	return ts, ok, err
}

// TreatyLedger is DB.TreatyLedger inside a transaction.
func (tx *Tx) TreatyLedger(ctx context.Context, gameID string) ([]Treaty, bool, error) {
	return tx.readLedger(ctx, gameID, ledgerNow)
}

// TurnTreatyLedger returns the treaty ledger a resolved turn was resolved
// from; ok is false when it was resolved with none.
func (db *DB) TurnTreatyLedger(ctx context.Context, gameID string, turn int) (ts []Treaty, ok bool, err error) {
	err = db.view(ctx, func(tx *Tx) error { ts, ok, err = tx.TurnTreatyLedger(ctx, gameID, turn); return err })
	return ts, ok, err
}

// TurnTreatyLedger is DB.TurnTreatyLedger inside a transaction.
func (tx *Tx) TurnTreatyLedger(ctx context.Context, gameID string, turn int) ([]Treaty, bool, error) {
	if turn < 1 {
		return nil, false, fmt.Errorf("store: TurnTreatyLedger %s turn %d: turns resolved are 1 on: %w", gameID, turn, ErrInvalid)
	}
	return tx.readLedger(ctx, gameID, turn)
}

// SaveTreatyLedger makes ts the game's treaty ledger between turns.
func (tx *Tx) SaveTreatyLedger(ctx context.Context, gameID string, ts []Treaty) error {
	return tx.saveLedger(ctx, gameID, ledgerNow, ts)
}

// SaveTurnTreatyLedger keeps ts as the ledger turn was resolved from, or,
// with ok false, records that it was resolved with none.
func (tx *Tx) SaveTurnTreatyLedger(ctx context.Context, gameID string, turn int, ts []Treaty, ok bool) error {
	if turn < 1 {
		return fmt.Errorf("store: SaveTurnTreatyLedger %s turn %d: turns resolved are 1 on: %w", gameID, turn, ErrInvalid)
	}
	if !ok {
		_, err := tx.exec(ctx, `DELETE FROM treaty_ledgers WHERE game_id = ? AND turn = ?`, gameID, turn)
		if err != nil {
			return fmt.Errorf("store: SaveTurnTreatyLedger %s turn %d: %w", gameID, turn, err)
		}
		return nil
	}
	return tx.saveLedger(ctx, gameID, turn, ts)
}

func (tx *Tx) saveLedger(ctx context.Context, gameID string, turn int, ts []Treaty) error {
	if err := nonEmpty("SaveTreatyLedger", "GameID", gameID); err != nil {
		return err
	}
	id, ok, err := tx.ledgerID(ctx, gameID, turn)
	if err != nil {
		return fmt.Errorf("store: saving the treaty ledger of %s: %w", gameID, err)
	}
	if ok {
		_, err = tx.exec(ctx, `DELETE FROM treaties WHERE ledger_id = ?`, id)
	} else {
		var t any
		if turn != ledgerNow {
			t = turn
		}
		var res sql.Result
		if res, err = tx.exec(ctx, `INSERT INTO treaty_ledgers (game_id, turn) VALUES (?, ?)`, gameID, t); err == nil {
			id, err = res.LastInsertId()
		}
	}
	if err == nil {
		err = insertTreaties(ctx, tx.tx, id, ts)
	}
	if err != nil {
		return fmt.Errorf("store: saving the treaty ledger of %s: %w", gameID, err)
	}
	return nil
}

// insertTreaties writes ts into an empty ledger (migrate_meta.go too).
func insertTreaties(ctx context.Context, tx *sql.Tx, ledger int64, ts []Treaty) error {
	for seq, t := range ts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO treaties (ledger_id, seq, treaty, title, text, proposer, submitted, ratified, published)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, ledger, seq, t.ID, t.Title, t.Text, t.Proposer, t.Submitted, t.Ratified, t.Published); err != nil {
			return fmt.Errorf("treaty %s: %w", t.ID, err)
		}
		for pos, n := range t.Parties {
			if _, err := tx.ExecContext(ctx, `INSERT INTO treaty_parties (ledger_id, seq, pos, nation) VALUES (?, ?, ?, ?)`,
				ledger, seq, pos, n); err != nil {
				return err
			}
		}
		for pos, n := range t.Attested {
			if _, err := tx.ExecContext(ctx, `INSERT INTO treaty_attestations (ledger_id, seq, pos, nation) VALUES (?, ?, ?, ?)`,
				ledger, seq, pos, n); err != nil {
				return err
			}
		}
		for pos, p := range t.Penalties {
			if _, err := tx.ExecContext(ctx, `INSERT INTO treaty_penalties (ledger_id, seq, pos, offender, aggrieved, since, ended)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, ledger, seq, pos, p.Offender, p.Aggrieved, p.Since, p.Ended); err != nil {
				return err
			}
		}
	}
	return nil
}

func (tx *Tx) readLedger(ctx context.Context, gameID string, turn int) ([]Treaty, bool, error) {
	id, ok, err := tx.ledgerID(ctx, gameID, turn)
	if err != nil || !ok {
		if err != nil {
			err = fmt.Errorf("store: reading the treaty ledger of %s: %w", gameID, err)
		}
		return nil, false, err
	}
	ts, err := tx.ledgerTreaties(ctx, id)
	if err != nil {
		return nil, false, fmt.Errorf("store: reading the treaty ledger of %s: %w", gameID, err)
	}
	return ts, true, nil
}

func (tx *Tx) ledgerTreaties(ctx context.Context, id int64) ([]Treaty, error) {
	rows, err := tx.query(ctx, `SELECT treaty, title, text, proposer, submitted, ratified, published FROM treaties
		WHERE ledger_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	var ts []Treaty
	for rows.Next() {
		var t Treaty
		if err := rows.Scan(&t.ID, &t.Title, &t.Text, &t.Proposer, &t.Submitted, &t.Ratified, &t.Published); err != nil {
			rows.Close()
			return nil, err
		}
		ts = append(ts, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ts) == 0 {
		return ts, err
	}
	lists := []struct {
		q   string
		add func(seq int, r *sql.Rows) error
	}{
		{`SELECT seq, nation FROM treaty_parties WHERE ledger_id = ? ORDER BY seq, pos`, func(seq int, r *sql.Rows) error {
			var n string
			if err := r.Scan(&seq, &n); err != nil || !inRange(seq, len(ts)) {
				return cmpErr(err, seq)
			}
			ts[seq].Parties = append(ts[seq].Parties, n)
			return nil
		}},
		{`SELECT seq, nation FROM treaty_attestations WHERE ledger_id = ? ORDER BY seq, pos`, func(seq int, r *sql.Rows) error {
			var n string
			if err := r.Scan(&seq, &n); err != nil || !inRange(seq, len(ts)) {
				return cmpErr(err, seq)
			}
			ts[seq].Attested = append(ts[seq].Attested, n)
			return nil
		}},
		{`SELECT seq, offender, aggrieved, since, ended FROM treaty_penalties WHERE ledger_id = ? ORDER BY seq, pos`, func(seq int, r *sql.Rows) error {
			var p TreatyPenalty
			if err := r.Scan(&seq, &p.Offender, &p.Aggrieved, &p.Since, &p.Ended); err != nil || !inRange(seq, len(ts)) {
				return cmpErr(err, seq)
			}
			ts[seq].Penalties = append(ts[seq].Penalties, p)
			return nil
		}},
	}
	for _, l := range lists {
		rows, err := tx.query(ctx, l.q, id)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			if err := l.add(0, rows); err != nil {
				rows.Close()
				return nil, err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// TreatyMailed reports whether a treaty was mailed to every nation as
// public (MarkTreatyMailed).
func (tx *Tx) TreatyMailed(ctx context.Context, gameID, treaty string) (bool, error) {
	var n int
	err := tx.queryRow(ctx, `SELECT COUNT(*) FROM treaty_publications WHERE game_id = ? AND treaty = ?`, gameID, treaty).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: reading whether treaty %s of %s was mailed: %w", treaty, gameID, err)
	}
	return n > 0, nil
}

// MarkTreatyMailed records that a treaty was mailed to every nation as
// public, at at; a second mark keeps the first.
func (tx *Tx) MarkTreatyMailed(ctx context.Context, gameID, treaty string, at time.Time) error {
	if err := nonEmpty("MarkTreatyMailed", "GameID", gameID, "treaty", treaty); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO treaty_publications (game_id, treaty, mailed_at) VALUES (?, ?, ?)
		ON CONFLICT (game_id, treaty) DO NOTHING`, gameID, treaty, encTime(at))
	if err != nil {
		return fmt.Errorf("store: MarkTreatyMailed %s %s: %w", gameID, treaty, err)
	}
	return nil
}

func inRange(i, n int) bool { return i >= 0 && i < n }

// cmpErr is a scan's error, or one for a row naming a treaty the ledger
// does not hold at that place (treaties are numbered 0, 1, … in a ledger).
func cmpErr(err error, seq int) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("a row names treaty %d, which the ledger does not hold", seq)
}
