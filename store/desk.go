package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// DeskAct is one act done at the referee's console: the referee commands
// it ran, as written, and their answer.
type DeskAct struct {
	At     time.Time
	Who    string   // who was signed in (the console's name for them)
	From   string   // the address it came from (the client's)
	Text   string   // the referee commands as written
	Answer []string // the answer, line by line
	OK     bool
}

// AddDeskAct records an act at the console of game gameID, and forgets
// all but the keep latest of the game's acts.
func (db *DB) AddDeskAct(ctx context.Context, gameID string, a DeskAct, keep int) error {
	if err := nonEmpty("AddDeskAct", "GameID", gameID); err != nil {
		return err
	}
	answer, err := json.Marshal(a.Answer)
	if err != nil {
		return err
	}
	return db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `INSERT INTO desk_acts (game_id, at, who, from_addr, text, answer, ok) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			gameID, encTime(a.At), a.Who, a.From, a.Text, string(answer), bit(a.OK)); err != nil {
			return fmt.Errorf("store: AddDeskAct %s: %w", gameID, err)
		}
		if _, err := tx.exec(ctx, `DELETE FROM desk_acts WHERE game_id = ? AND id NOT IN
			(SELECT id FROM desk_acts WHERE game_id = ? ORDER BY id DESC LIMIT ?)`, gameID, gameID, keep); err != nil {
			return fmt.Errorf("store: AddDeskAct %s: %w", gameID, err)
		}
		return nil
	})
}

// DeskActs returns the acts kept for game gameID, the latest first.
func (db *DB) DeskActs(ctx context.Context, gameID string) ([]DeskAct, error) {
	var out []DeskAct
	err := db.view(ctx, func(tx *Tx) error {
		rows, err := tx.query(ctx, `SELECT at, who, from_addr, text, answer, ok FROM desk_acts WHERE game_id = ? ORDER BY id DESC`, gameID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a DeskAct
			var at, answer string
			var ok int
			if err := rows.Scan(&at, &a.Who, &a.From, &a.Text, &answer, &ok); err != nil {
				return err
			}
			if a.At, err = decTime(at); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(answer), &a.Answer); err != nil {
				return fmt.Errorf("an act's answer: %w", err)
			}
			a.OK = ok == 1
			out = append(out, a)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: DeskActs %s: %w", gameID, err)
	}
	return out, nil
}

// moveDeskActs carries the console's log, which the first console kept as
// JSON under the meta key "desk.log.GAME" (oldest first), into desk_acts
// (migration 11), and deletes the key.
func moveDeskActs(ctx context.Context, tx *sql.Tx, _ time.Time) error {
	logs, err := metaWithPrefix(ctx, tx, "desk.log.")
	if err != nil {
		return err
	}
	for _, r := range logs {
		gameID := r.key[len("desk.log."):]
		var known int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE id = ?`, gameID).Scan(&known); err != nil {
			return err
		}
		if known == 0 {
			continue // no game to hang it on: left in meta, as migration 9 leaves such keys
		}
		// The shape the first console wrote (daemon.DeskEntry), frozen.
		var es []struct {
			At     time.Time
			Who    string
			From   string
			Text   string
			Answer []string
			OK     bool
		}
		if err := json.Unmarshal([]byte(r.value), &es); err != nil {
			return fmt.Errorf("meta %s is not the console's log: %w", r.key, err)
		}
		for _, e := range es {
			answer, err := json.Marshal(e.Answer)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO desk_acts (game_id, at, who, from_addr, text, answer, ok) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				gameID, encTime(e.At), e.Who, e.From, e.Text, string(answer), bit(e.OK)); err != nil {
				return err
			}
		}
		if err := deleteMeta(ctx, tx, r.key); err != nil {
			return err
		}
	}
	return nil
}
