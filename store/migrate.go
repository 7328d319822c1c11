package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// A migration is one numbered step of the schema. Steps are never edited once
// released: a change to the schema is a new step at the end of the list.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations is the schema, oldest first; versions are 1, 2, 3, … in order
// (TestMigrationList checks it). Every table is STRICT, so a wrong Go type
// fails loudly instead of being stored as text.
var migrations = []migration{
	{1, "games, nations, turns and events", `
CREATE TABLE games (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	ruleset    TEXT NOT NULL,
	scenario   TEXT NOT NULL,
	created_at TEXT NOT NULL,
	metadata   BLOB            -- JSON, opaque to the store
) STRICT;

CREATE TABLE nations (
	game_id               TEXT NOT NULL REFERENCES games(id),
	nation                TEXT NOT NULL,
	password_hash         TEXT NOT NULL DEFAULT '',
	pending_password_hash TEXT NOT NULL DEFAULT '',   -- '' when no change is pending
	pending_from_turn     INTEGER NOT NULL DEFAULT 0, -- first turn the pending hash applies to
	PRIMARY KEY (game_id, nation)
) STRICT;

CREATE TABLE nation_addresses (
	game_id TEXT NOT NULL,
	nation  TEXT NOT NULL,
	address TEXT NOT NULL COLLATE NOCASE,
	PRIMARY KEY (game_id, nation, address),
	FOREIGN KEY (game_id, nation) REFERENCES nations(game_id, nation) ON DELETE CASCADE
) STRICT;
CREATE INDEX nation_addresses_by_address ON nation_addresses(game_id, address);

CREATE TABLE turns (
	game_id     TEXT NOT NULL REFERENCES games(id),
	turn        INTEGER NOT NULL CHECK (turn >= 0),
	version     INTEGER NOT NULL CHECK (version >= 1),
	status      TEXT NOT NULL,
	state       BLOB NOT NULL,  -- JSON, opaque to the store
	seed        TEXT NOT NULL,  -- uint64 in decimal
	events      BLOB,           -- the turn's events as one document
	dice        BLOB,           -- every die rolled, in order
	resolved_at TEXT NOT NULL,
	PRIMARY KEY (game_id, turn, version)
) STRICT;

CREATE TABLE events (
	game_id TEXT NOT NULL,
	turn    INTEGER NOT NULL,
	version INTEGER NOT NULL,
	seq     INTEGER NOT NULL,
	kind    TEXT NOT NULL,
	data    BLOB,
	PRIMARY KEY (game_id, turn, version, seq),
	FOREIGN KEY (game_id, turn, version) REFERENCES turns(game_id, turn, version)
) STRICT;
`},
	{2, "received mail and submissions", `
CREATE TABLE mail (
	id             INTEGER PRIMARY KEY,
	mailbox        TEXT NOT NULL,
	uidvalidity    INTEGER NOT NULL,
	uid            INTEGER NOT NULL,
	raw            BLOB NOT NULL,
	sha256         TEXT NOT NULL,
	message_id     TEXT NOT NULL DEFAULT '',
	from_addr      TEXT NOT NULL DEFAULT '',
	received_at    TEXT NOT NULL,
	status         TEXT NOT NULL DEFAULT 'stored'
		CHECK (status IN ('stored','handled','acknowledged','moved','ignored','quarantined')),
	classification TEXT NOT NULL DEFAULT '',
	error          TEXT NOT NULL DEFAULT '',
	updated_at     TEXT NOT NULL,
	UNIQUE (mailbox, uidvalidity, uid)
) STRICT;
CREATE INDEX mail_by_sha256 ON mail(sha256);
CREATE INDEX mail_by_status ON mail(status, id);

CREATE TABLE submissions (
	id             INTEGER PRIMARY KEY,
	game_id        TEXT NOT NULL REFERENCES games(id),
	turn           INTEGER NOT NULL,
	nation         TEXT NOT NULL,
	kind           TEXT NOT NULL,
	mail_id        INTEGER REFERENCES mail(id),
	raw_text       TEXT NOT NULL,
	canonical_text TEXT NOT NULL,
	receipt_hash   TEXT NOT NULL,
	valid          INTEGER NOT NULL CHECK (valid IN (0, 1)),
	superseded     INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),
	submitted_at   TEXT NOT NULL
) STRICT;
CREATE INDEX submissions_by_key ON submissions(game_id, turn, nation, kind, superseded);
`},
	{3, "outbox", `
CREATE TABLE outbox (
	id              INTEGER PRIMARY KEY,
	message_id      TEXT NOT NULL UNIQUE,
	game_id         TEXT NOT NULL DEFAULT '',
	kind            TEXT NOT NULL DEFAULT '',
	recipients      TEXT NOT NULL,  -- JSON array of addresses
	raw             BLOB NOT NULL,
	raw_sha256      TEXT NOT NULL,
	state           TEXT NOT NULL DEFAULT 'pending'
		CHECK (state IN ('pending','sending','sent','failed')),
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_attempt_at TEXT NOT NULL,
	last_error      TEXT NOT NULL DEFAULT '',
	created_at      TEXT NOT NULL,
	updated_at      TEXT NOT NULL,
	sent_at         TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox(state, next_attempt_at);
`},
	{4, "meta", `
CREATE TABLE meta (
	key        TEXT PRIMARY KEY,
	value      TEXT NOT NULL,
	updated_at TEXT NOT NULL
) STRICT;
`},
	{5, "orders as engine data, deadlines per turn, raw mail purge", `
ALTER TABLE submissions ADD COLUMN orders BLOB;                          -- JSON array of engine order envelopes
ALTER TABLE submissions ADD COLUMN ruleset TEXT NOT NULL DEFAULT '';      -- the edition the sheet was checked under
ALTER TABLE submissions ADD COLUMN rules_version TEXT NOT NULL DEFAULT ''; -- a hash of that edition's tables

CREATE TABLE deadlines (
	game_id    TEXT NOT NULL REFERENCES games(id),
	turn       INTEGER NOT NULL,
	at         TEXT NOT NULL,   -- the deadline in force
	scheduled  TEXT,            -- what the schedule gave when the turn opened; NULL if it gave none
	source     TEXT NOT NULL CHECK (source IN ('schedule','referee')),
	mail_id    INTEGER,         -- the referee's mail that last changed it
	updated_at TEXT NOT NULL,
	PRIMARY KEY (game_id, turn)
) STRICT;

ALTER TABLE mail ADD COLUMN raw_purged_at TEXT;  -- when the raw bytes were cleared; NULL while kept
`},
	mailArrivalMigration(6),
	{7, "mail arrival: the server's receipt time", `
-- received_at is from now on when the mail reached the server (IMAP INTERNALDATE, cross-checked with the
-- server's topmost Received stamp), not when pbem fetched it; older rows keep their fetch time there.
ALTER TABLE mail ADD COLUMN fetched_at TEXT;                                -- when pbem fetched it; NULL in rows older than this step
ALTER TABLE mail ADD COLUMN arrival_source TEXT NOT NULL DEFAULT 'fetch';   -- what received_at was read from: internaldate, received, fetch
ALTER TABLE mail ADD COLUMN arrival_note TEXT NOT NULL DEFAULT '';          -- why another source was taken, or the stamps disagreed
`},
	{8, "outbox: priority", `
-- Under a provider's send pace answers go before reports, reports before reminders and notices
-- (outbox/doc.go). Rows older than this step are reports' rank.
ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
CREATE INDEX outbox_pending_priority ON outbox(state, priority, created_at, id, next_attempt_at);
`},
}

// mailArrivalMigration records with each mail how the mail server says it
// arrived (Mail.Arrival): in the embedded mode, the server's own record of
// the message (SMTP logged in as whom, or put there by IMAP), which sender
// authentication believes instead of any header. Mail stored before it has
// an empty record, as has all mail from an external provider. It also
// keeps large mail in pieces (mailchunks.go): mail.raw holds the first
// piece, mail_chunks the rest, mail.raw_size the whole size (NULL for a
// mail stored whole before).
func mailArrivalMigration(version int) migration {
	return migration{version, "mail arrival as the mail server recorded it; large mail in pieces", `
ALTER TABLE mail ADD COLUMN arrival TEXT NOT NULL DEFAULT '';
ALTER TABLE mail ADD COLUMN raw_size INTEGER;
CREATE TABLE mail_chunks (
	mail_id INTEGER NOT NULL REFERENCES mail(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	data    BLOB NOT NULL,
	PRIMARY KEY (mail_id, seq)
) STRICT;
`}
}

// SchemaVersion is the schema version this code writes: the number of the
// last migration.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// Version returns the schema version recorded in the file.
func (db *DB) Version(ctx context.Context) (int, error) {
	var v int
	err := db.reader.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: reading schema version: %w", err)
	}
	return v, nil
}

// migrate applies, in order, every migration in list newer than the file's
// version, each in its own transaction. The version is re-read inside each
// transaction (which holds the write lock from BEGIN IMMEDIATE), so two
// processes opening the same new file cannot both apply a step.
func migrate(ctx context.Context, w *sql.DB, path string, list []migration, now func() time.Time) error {
	_, err := w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at TEXT NOT NULL
) STRICT`)
	if err != nil {
		return openError(path, err)
	}
	known := 0
	if len(list) > 0 {
		known = list[len(list)-1].version
	}
	for _, m := range list {
		if err := applyMigration(ctx, w, path, m, known, now); err != nil {
			return err
		}
	}
	// A file with no pending step may still be too new.
	var cur int
	if err := w.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&cur); err != nil {
		return openError(path, err)
	}
	if cur > known {
		return tooNew(path, cur, known)
	}
	return nil
}

func tooNew(path string, cur, known int) error {
	return fmt.Errorf("store: %s has schema version %d, but this pbem knows versions up to %d: "+
		"it was written by a newer pbem. Run that newer pbem (do not downgrade): %w", path, cur, known, ErrSchemaTooNew)
}

func applyMigration(ctx context.Context, w *sql.DB, path string, m migration, known int, now func() time.Time) error {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return openError(path, err)
	}
	defer tx.Rollback()
	var cur int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&cur); err != nil {
		return openError(path, err)
	}
	if cur > known {
		return tooNew(path, cur, known)
	}
	if cur >= m.version {
		return nil
	}
	if cur != m.version-1 {
		return fmt.Errorf("store: %s is at schema version %d, and migration %d cannot follow it", path, cur, m.version)
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("store: %s: migration %d (%s): %w", path, m.version, m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, encTime(now())); err != nil {
		return fmt.Errorf("store: %s: recording migration %d: %w", path, m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: committing migration %d: %w", path, m.version, err)
	}
	return nil
}
