package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Moving the meta table's rows into the typed tables (migrations 9 and 10).
//
// Up to schema 8 the daemon kept a game's state as JSON under meta keys
// named after the game ("treaties:syw", "turn-closed:syw:4", …). The moves
// below read each key in the shape the code of that schema wrote it (the
// structs here are those shapes, frozen: they are history), write the rows
// of the new tables, and delete the key, all in the migration's
// transaction. A key for a game the file does not hold (a game id with no
// row in games, which no pbem writes) cannot satisfy the new tables'
// foreign keys and stays in meta as it was. A value that cannot be read
// fails the migration with the key named, and the file stays as it was:
// nothing is dropped unseen.

// metaRow is one row of the meta table.
type metaRow struct{ key, value, updated string }

// metaWithPrefix returns the meta rows whose key begins with prefix, by key.
func metaWithPrefix(ctx context.Context, tx *sql.Tx, prefix string) ([]metaRow, error) {
	rows, err := tx.QueryContext(ctx, `SELECT key, value, updated_at FROM meta WHERE substr(key, 1, ?) = ? ORDER BY key`,
		len(prefix), prefix)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []metaRow
	for rows.Next() {
		var r metaRow
		if err := rows.Scan(&r.key, &r.value, &r.updated); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func deleteMeta(ctx context.Context, tx *sql.Tx, key string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, key)
	return err
}

// optTime is a time column that may be NULL: the zero time is NULL.
func optTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return encTime(t)
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The JSON shapes of schema 8's meta values.
type (
	metaTreaty struct {
		ID, Title, Text, Proposer      string
		Parties, Attested              []string
		Submitted, Ratified, Published int
		Penalties                      []metaPenalty
	}
	metaPenalty struct {
		Offender, Aggrieved string
		Since, Ended        int
	}
	metaClose struct {
		At      time.Time
		By      string
		Mail    int64
		Referee bool
	}
	metaReopened struct {
		LastSub int64
		At      time.Time
	}
	metaHeld struct {
		Deadline, At time.Time
		Why          string
		Released     bool
	}
	metaRun struct {
		PID              int
		Host             string
		Started, Stopped time.Time
	}
	metaRunner struct {
		Run, State, Why string
		Turn            int
		Since           time.Time
	}
	metaIntake struct {
		Run                  string
		Known, Up            bool
		Since                time.Time
		LastError            string
		OutageFrom, OutageTo time.Time
	}
	metaOutboxHealth struct {
		Run         string
		OK          bool
		Since       time.Time
		Failures    int
		LastError   string
		LastErrorAt time.Time
	}
)

// moveGameState is migration 9's move: every game's state out of meta.
func moveGameState(ctx context.Context, tx *sql.Tx, now time.Time) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM games ORDER BY id`)
	if err != nil {
		return err
	}
	var games []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		games = append(games, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range games {
		if err := moveGame(ctx, tx, g); err != nil {
			return fmt.Errorf("moving game %s's state out of meta: %w", g, err)
		}
	}
	return nil
}

// metaMove moves the meta rows of one kind of one game: each row's rest is
// its key after the prefix.
type metaMove struct {
	prefix string
	move   func(r metaRow, rest string) error
}

func moveGame(ctx context.Context, tx *sql.Tx, g string) error {
	exec := func(q string, args ...any) error { _, err := tx.ExecContext(ctx, q, args...); return err }
	decode := func(r metaRow, v any) error {
		if err := json.Unmarshal([]byte(r.value), v); err != nil {
			return fmt.Errorf("meta %s holds %q, which cannot be read: %w", r.key, r.value, err)
		}
		return nil
	}
	turnOf := func(r metaRow, s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("meta %s: %q is not a turn", r.key, s)
		}
		return n, nil
	}
	ledger := func(r metaRow, turn any) error {
		if r.value == "" {
			return nil // no ledger was kept
		}
		var ts []metaTreaty
		if err := decode(r, &ts); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO treaty_ledgers (game_id, turn) VALUES (?, ?)`, g, turn)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		return insertTreaties(ctx, tx, id, metaTreaties(ts))
	}
	moves := []metaMove{
		{"treaties:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			return ledger(r, nil)
		}},
		{"treaties-in:" + g + ":", func(r metaRow, rest string) error {
			n, err := turnOf(r, rest)
			if err != nil {
				return err
			}
			return ledger(r, n)
		}},
		{"treaty-mailed:" + g + ":", func(r metaRow, rest string) error {
			return exec(`INSERT INTO treaty_publications (game_id, treaty, mailed_at) VALUES (?, ?, ?)`, g, rest, r.updated)
		}},
		{"turn-closed:" + g + ":", func(r metaRow, rest string) error {
			n, err := turnOf(r, rest)
			if err != nil || r.value == "" {
				return err
			}
			var c metaClose
			if err := decode(r, &c); err != nil {
				return err
			}
			var mail any
			if c.Mail != 0 {
				mail = c.Mail
			}
			return exec(`INSERT INTO turn_closings (game_id, turn, at, closed_by, mail_id, referee) VALUES (?, ?, ?, ?, ?, ?)`,
				g, n, encTime(c.At), c.By, mail, bit(c.Referee))
		}},
		{"turn-reopened:" + g + ":", func(r metaRow, rest string) error {
			n, err := turnOf(r, rest)
			if err != nil || r.value == "" {
				return err
			}
			var o metaReopened
			if err := decode(r, &o); err != nil {
				return err
			}
			return exec(`INSERT INTO turn_reopenings (game_id, turn, last_submission, at) VALUES (?, ?, ?, ?)`,
				g, n, o.LastSub, encTime(o.At))
		}},
		{"turn-held:" + g + ":", func(r metaRow, rest string) error {
			n, err := turnOf(r, rest)
			if err != nil || r.value == "" {
				return err
			}
			var h metaHeld
			if err := decode(r, &h); err != nil {
				return err
			}
			return exec(`INSERT INTO turn_holds (game_id, turn, deadline, why, held_at, released) VALUES (?, ?, ?, ?, ?, ?)`,
				g, n, encTime(h.Deadline), h.Why, encTime(h.At), bit(h.Released))
		}},
		{"tabletop-sent:" + g + ":", func(r metaRow, rest string) error { return tabletopMove(ctx, tx, g, r, rest, "sheet_sent_at") }},
		{"tabletop-auto:" + g + ":", func(r metaRow, rest string) error { return tabletopMove(ctx, tx, g, r, rest, "model_at") }},
		{"reminded:" + g + ":", func(r metaRow, rest string) error {
			t, unix, ok := strings.Cut(rest, ":deadline-")
			n, err := turnOf(r, t)
			if err != nil {
				return err
			}
			secs, err := strconv.ParseInt(unix, 10, 64)
			if !ok || err != nil {
				return fmt.Errorf("meta %s: no deadline in the key", r.key)
			}
			return exec(`INSERT INTO reminders (game_id, turn, deadline, queued_at) VALUES (?, ?, ?, ?)`,
				g, n, encTime(time.Unix(secs, 0)), r.updated)
		}},
		{"clock-told:" + g + ":", func(r metaRow, rest string) error { return noticeMove(ctx, tx, g, r, NoticeClock, rest) }},
		{"imap-login-told:" + g + ":", func(r metaRow, rest string) error { return noticeMove(ctx, tx, g, r, NoticeLogin, rest) }},
		{"outage-told:" + g + ":", func(r metaRow, rest string) error { return noticeMove(ctx, tx, g, r, NoticeOutage, rest) }},
		{"run:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			var x metaRun
			if err := decode(r, &x); err != nil {
				return err
			}
			return exec(`INSERT INTO runs (game_id, pid, host, started_at, stopped_at) VALUES (?, ?, ?, ?, ?)`,
				g, x.PID, x.Host, encTime(x.Started), optTime(x.Stopped))
		}},
		{"turn-runner:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			var x metaRunner
			if err := decode(r, &x); err != nil {
				return err
			}
			return exec(`INSERT INTO turn_runners (game_id, run, turn, state, why, since) VALUES (?, ?, ?, ?, ?, ?)`,
				g, x.Run, x.Turn, x.State, x.Why, encTime(x.Since))
		}},
		{"intake-health:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			var x metaIntake
			if err := decode(r, &x); err != nil || !x.Known {
				return err
			}
			return exec(`INSERT INTO intake_health (game_id, run, up, since, last_error, outage_from, outage_to) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				g, x.Run, bit(x.Up), encTime(x.Since), x.LastError, optTime(x.OutageFrom), optTime(x.OutageTo))
		}},
		{"start-reports:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			return exec(`UPDATE games SET start_reports_at = ? WHERE id = ?`, r.updated, g)
		}},
		{"turn-seed-key:" + g, func(r metaRow, rest string) error {
			if rest != "" {
				return errSkip
			}
			return exec(`UPDATE games SET dice_key = ? WHERE id = ?`, r.value, g)
		}},
		// The report models are not moved: a report is rebuilt from the
		// turns' states and events (daemon/reportmodel.go).
		{"report-model:" + g + ":", func(metaRow, string) error { return nil }},
	}
	for _, mv := range moves {
		rs, err := metaWithPrefix(ctx, tx, mv.prefix)
		if err != nil {
			return err
		}
		for _, r := range rs {
			err := mv.move(r, strings.TrimPrefix(r.key, mv.prefix))
			if err == errSkip {
				continue // another key that merely begins the same ("run:" + "syw2" for game "syw")
			}
			if err != nil {
				return err
			}
			if err := deleteMeta(ctx, tx, r.key); err != nil {
				return err
			}
		}
	}
	return nil
}

// errSkip leaves a meta row that a prefix matched but is not the key.
var errSkip = fmt.Errorf("not this key")

func tabletopMove(ctx context.Context, tx *sql.Tx, g string, r metaRow, rest, column string) error {
	t, hex, ok := strings.Cut(rest, ":")
	n, err := strconv.Atoi(t)
	if !ok || err != nil || hex == "" {
		return fmt.Errorf("meta %s: no turn and hex in the key", r.key)
	}
	at, err := time.Parse(time.RFC3339Nano, r.value)
	if err != nil {
		return fmt.Errorf("meta %s holds %q, not a time: %w", r.key, r.value, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO tabletop_battles (game_id, turn, hex, `+column+`) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, turn, hex) DO UPDATE SET `+column+` = excluded.`+column, g, n, hex, encTime(at))
	return err
}

func noticeMove(ctx context.Context, tx *sql.Tx, g string, r metaRow, kind NoticeKind, subject string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO notices (game_id, kind, subject, queued_at) VALUES (?, ?, ?, ?)`,
		g, string(kind), subject, r.updated)
	return err
}

func metaTreaties(ts []metaTreaty) []Treaty {
	out := make([]Treaty, 0, len(ts))
	for _, t := range ts {
		st := Treaty{ID: t.ID, Title: t.Title, Text: t.Text, Proposer: t.Proposer, Parties: t.Parties, Attested: t.Attested,
			Submitted: t.Submitted, Ratified: t.Ratified, Published: t.Published}
		for _, p := range t.Penalties {
			st.Penalties = append(st.Penalties, TreatyPenalty(p))
		}
		out = append(out, st)
	}
	return out
}

// moveMailBookkeeping is migration 10's move: the Message-ID claims, the
// mailbox marks and the outbox's health out of meta.
func moveMailBookkeeping(ctx context.Context, tx *sql.Tx, now time.Time) error {
	claims, err := metaWithPrefix(ctx, tx, "mail-id:")
	if err != nil {
		return err
	}
	for _, r := range claims {
		// mail-id:SENDER:MESSAGE-ID:TEXTSHA; the sender is an address
		// (no colon), the text's digest 24 hex digits.
		rest := strings.TrimPrefix(r.key, "mail-id:")
		i, j := strings.IndexByte(rest, ':'), strings.LastIndexByte(rest, ':')
		id, err := strconv.ParseInt(r.value, 10, 64)
		if i < 0 || j <= i || err != nil {
			return fmt.Errorf("meta %s = %q is not a Message-ID claim", r.key, r.value)
		}
		// A claim whose mail is gone (no pbem deletes mail) is dropped.
		if _, err := tx.ExecContext(ctx, `INSERT INTO mail_claims (sender, message_id, text_sha, mail_id)
			SELECT ?, ?, ?, id FROM mail WHERE id = ?`, rest[:i], rest[i+1:j], rest[j+1:], id); err != nil {
			return err
		}
		if err := deleteMeta(ctx, tx, r.key); err != nil {
			return err
		}
	}
	boxes, err := metaWithPrefix(ctx, tx, "inbox:")
	if err != nil {
		return err
	}
	for _, r := range boxes {
		rest := strings.TrimPrefix(r.key, "inbox:")
		n, err := strconv.ParseUint(r.value, 10, 32)
		if err != nil {
			return fmt.Errorf("meta %s = %q is not a UID", r.key, r.value)
		}
		if mb, ok := strings.CutSuffix(rest, ":uidvalidity"); ok {
			_, err = tx.ExecContext(ctx, `INSERT INTO mailboxes (mailbox, uidvalidity, updated_at) VALUES (?, ?, ?)`, mb, n, r.updated)
		} else if mbuv, ok := strings.CutSuffix(rest, ":last_uid"); ok {
			k := strings.LastIndexByte(mbuv, ':')
			uv, perr := strconv.ParseUint(mbuv[k+1:], 10, 32)
			if k < 0 || perr != nil {
				return fmt.Errorf("meta %s has no UIDVALIDITY", r.key)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO mailbox_marks (mailbox, uidvalidity, last_uid, updated_at) VALUES (?, ?, ?, ?)`,
				mbuv[:k], uv, n, r.updated)
		} else {
			continue
		}
		if err != nil {
			return err
		}
		if err := deleteMeta(ctx, tx, r.key); err != nil {
			return err
		}
	}
	hs, err := metaWithPrefix(ctx, tx, "outbox-health")
	if err != nil {
		return err
	}
	for _, r := range hs {
		if r.key != "outbox-health" {
			continue
		}
		var h metaOutboxHealth
		if err := json.Unmarshal([]byte(r.value), &h); err != nil {
			return fmt.Errorf("meta %s holds %q, which cannot be read: %w", r.key, r.value, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_health (id, run, ok, since, failures, last_error, last_error_at)
			VALUES (1, ?, ?, ?, ?, ?, ?)`, h.Run, bit(h.OK), encTime(h.Since), h.Failures, h.LastError, optTime(h.LastErrorAt)); err != nil {
			return err
		}
		if err := deleteMeta(ctx, tx, r.key); err != nil {
			return err
		}
	}
	return nil
}
