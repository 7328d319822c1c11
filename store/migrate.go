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

// moves are the steps that also move rows: after a step's SQL, in the same
// transaction, its move carries rows an older schema kept elsewhere into
// the new tables (the meta keys of a game's state, migrate_meta.go).
var moves = map[int]func(ctx context.Context, tx *sql.Tx, now time.Time) error{
	9:  moveGameState,
	10: moveMailBookkeeping,
	11: moveDeskActs,
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
	{9, "the game's state in typed tables, out of meta", gameStateSQL},
	{10, "mail bookkeeping in typed tables, out of meta", `
-- The first mail with a sender, Message-ID and text (daemon/mail.go): a
-- resend with new bytes but the same three is the same mail.
CREATE TABLE mail_claims (
	sender     TEXT NOT NULL,
	message_id TEXT NOT NULL,
	text_sha   TEXT NOT NULL,   -- the first 12 bytes of the SHA-256 of its texts, hex
	mail_id    INTEGER NOT NULL REFERENCES mail(id),
	PRIMARY KEY (sender, message_id, text_sha)
) STRICT;

-- The intake's place in each mailbox (inbox/intake.go): the last
-- UIDVALIDITY seen, and the highest UID stored under each UIDVALIDITY.
CREATE TABLE mailboxes (
	mailbox     TEXT PRIMARY KEY,
	uidvalidity INTEGER NOT NULL,
	updated_at  TEXT NOT NULL
) STRICT;
CREATE TABLE mailbox_marks (
	mailbox     TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	last_uid    INTEGER NOT NULL,
	updated_at  TEXT NOT NULL,
	PRIMARY KEY (mailbox, uidvalidity)
) STRICT;

-- How the outbox's sending goes (outbox/health.go): one row.
CREATE TABLE outbox_health (
	id            INTEGER PRIMARY KEY CHECK (id = 1),
	run           TEXT NOT NULL,
	ok            INTEGER NOT NULL CHECK (ok IN (0, 1)),
	since         TEXT NOT NULL,
	failures      INTEGER NOT NULL,
	last_error    TEXT NOT NULL,
	last_error_at TEXT            -- NULL before the first failure
) STRICT;
`},
	{11, "the referee's console's acts in a table, out of meta", `
-- The acts done at the referee's console (daemon/desk.go), newest last:
-- who, from where, the referee commands as written and the answer. The
-- log has them all; the table keeps the last few hundred for the page.
CREATE TABLE desk_acts (
	id        INTEGER PRIMARY KEY,
	game_id   TEXT NOT NULL REFERENCES games(id),
	at        TEXT NOT NULL,
	who       TEXT NOT NULL,
	from_addr TEXT NOT NULL,
	text      TEXT NOT NULL,
	answer    TEXT NOT NULL,   -- JSON: the answer's lines
	ok        INTEGER NOT NULL CHECK (ok IN (0, 1))
) STRICT;
CREATE INDEX desk_acts_game ON desk_acts(game_id, id);
`},
}

// gameStateSQL is migration 9: every kind of a game's state that the daemon
// kept as JSON under meta keys gets a table of its own (daemon/gamestate.go
// names the code that reads and writes each).
const gameStateSQL = `
-- The treaty ledger (daemon/treaty.go): the game's treaties as they stand
-- between turns (turn NULL), and the ledger each turn was resolved from
-- (turn n), which a rerun and the archive resolve from again.
CREATE TABLE treaty_ledgers (
	id      INTEGER PRIMARY KEY,
	game_id TEXT NOT NULL REFERENCES games(id),
	turn    INTEGER CHECK (turn IS NULL OR turn >= 1)
) STRICT;
CREATE UNIQUE INDEX treaty_ledgers_now ON treaty_ledgers(game_id) WHERE turn IS NULL;
CREATE UNIQUE INDEX treaty_ledgers_of_turn ON treaty_ledgers(game_id, turn) WHERE turn IS NOT NULL;

CREATE TABLE treaties (
	ledger_id INTEGER NOT NULL REFERENCES treaty_ledgers(id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL,            -- its place in the ledger
	treaty    TEXT NOT NULL,               -- its ID, "T3"
	title     TEXT NOT NULL,
	text      TEXT NOT NULL,
	proposer  TEXT NOT NULL DEFAULT '',    -- the party that sent it
	submitted INTEGER NOT NULL DEFAULT 0,  -- the turn open when it came
	ratified  INTEGER NOT NULL DEFAULT 0,  -- the turn the last party attested in; 0 while awaited
	published INTEGER NOT NULL DEFAULT 0,  -- the turn it was published at; 0 before
	PRIMARY KEY (ledger_id, seq),
	UNIQUE (ledger_id, treaty)
) STRICT;

CREATE TABLE treaty_parties (
	ledger_id INTEGER NOT NULL,
	seq       INTEGER NOT NULL,
	pos       INTEGER NOT NULL,
	nation    TEXT NOT NULL,
	PRIMARY KEY (ledger_id, seq, pos),
	FOREIGN KEY (ledger_id, seq) REFERENCES treaties(ledger_id, seq) ON DELETE CASCADE
) STRICT;

CREATE TABLE treaty_attestations (
	ledger_id INTEGER NOT NULL,
	seq       INTEGER NOT NULL,
	pos       INTEGER NOT NULL,
	nation    TEXT NOT NULL,
	PRIMARY KEY (ledger_id, seq, pos),
	FOREIGN KEY (ledger_id, seq) REFERENCES treaties(ledger_id, seq) ON DELETE CASCADE
) STRICT;

CREATE TABLE treaty_penalties (
	ledger_id INTEGER NOT NULL,
	seq       INTEGER NOT NULL,
	pos       INTEGER NOT NULL,
	offender  TEXT NOT NULL,
	aggrieved TEXT NOT NULL,
	since     INTEGER NOT NULL,            -- the turn the referee found the breach
	ended     INTEGER NOT NULL DEFAULT 0,  -- the turn the aggrieved party ended it; 0 while it runs
	PRIMARY KEY (ledger_id, seq, pos),
	FOREIGN KEY (ledger_id, seq) REFERENCES treaties(ledger_id, seq) ON DELETE CASCADE
) STRICT;

-- Treaties mailed to every nation once public (daemon/treaty.go).
CREATE TABLE treaty_publications (
	game_id   TEXT NOT NULL REFERENCES games(id),
	treaty    TEXT NOT NULL,
	mailed_at TEXT NOT NULL,
	PRIMARY KEY (game_id, treaty)
) STRICT;

-- A turn's orders closed early (daemon/closing.go): by the referee's
-- RESOLVE NOW or the last FINAL sheet.
CREATE TABLE turn_closings (
	game_id   TEXT NOT NULL REFERENCES games(id),
	turn      INTEGER NOT NULL,
	at        TEXT NOT NULL,               -- sheets that reached the server after it are late
	closed_by TEXT NOT NULL CHECK (closed_by IN ('resolve-now', 'final')),
	mail_id   INTEGER,                     -- the mail that closed it; NULL for none
	referee   INTEGER NOT NULL DEFAULT 0 CHECK (referee IN (0, 1)),  -- the referee's RESOLVE NOW is in
	PRIMARY KEY (game_id, turn)
) STRICT;

-- A turn open again after a rollback or a rerun (daemon/rollback.go).
CREATE TABLE turn_reopenings (
	game_id         TEXT NOT NULL REFERENCES games(id),
	turn            INTEGER NOT NULL,
	last_submission INTEGER NOT NULL DEFAULT 0,  -- the turn's last submission before it; 0 for none
	at              TEXT NOT NULL,
	PRIMARY KEY (game_id, turn)
) STRICT;

-- A turn held by the mail-outage guard (daemon/outage.go).
CREATE TABLE turn_holds (
	game_id  TEXT NOT NULL REFERENCES games(id),
	turn     INTEGER NOT NULL,
	deadline TEXT NOT NULL,                -- the deadline it was held at
	why      TEXT NOT NULL,
	held_at  TEXT NOT NULL,
	released INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1)),  -- let go once the mail worked (after_outage: resolve)
	PRIMARY KEY (game_id, turn)
) STRICT;

-- A land battle fought on the referee's table (daemon/tabletop.go).
CREATE TABLE tabletop_battles (
	game_id       TEXT NOT NULL REFERENCES games(id),
	turn          INTEGER NOT NULL,
	hex           TEXT NOT NULL,
	sheet_sent_at TEXT,   -- when its sheet was mailed to the referee
	model_at      TEXT,   -- when it was left to the model, unanswered
	PRIMARY KEY (game_id, turn, hex)
) STRICT;

-- The reminders queued before a deadline (daemon/reminders.go).
CREATE TABLE reminders (
	game_id   TEXT NOT NULL REFERENCES games(id),
	turn      INTEGER NOT NULL,
	deadline  TEXT NOT NULL,   -- the deadline reminded of, to the second
	queued_at TEXT NOT NULL,
	PRIMARY KEY (game_id, turn, deadline)
) STRICT;

-- Notices to the referee queued once for what they tell (the mail
-- server's clock, a refused login, a held turn).
CREATE TABLE notices (
	game_id   TEXT NOT NULL REFERENCES games(id),
	kind      TEXT NOT NULL CHECK (kind IN ('clock', 'imap-login', 'outage')),
	subject   TEXT NOT NULL,   -- what makes it once: see store.Notice
	queued_at TEXT NOT NULL,
	PRIMARY KEY (game_id, kind, subject)
) STRICT;

-- The last run of "pbem run" (daemon/runstate.go).
CREATE TABLE runs (
	game_id    TEXT PRIMARY KEY REFERENCES games(id),
	pid        INTEGER NOT NULL,
	host       TEXT NOT NULL,
	started_at TEXT NOT NULL,
	stopped_at TEXT             -- NULL while it runs, or if it was killed
) STRICT;

-- What the turn runner is doing (daemon/runstate.go).
CREATE TABLE turn_runners (
	game_id TEXT PRIMARY KEY REFERENCES games(id),
	run     TEXT NOT NULL,
	turn    INTEGER NOT NULL,
	state   TEXT NOT NULL CHECK (state IN ('open', 'no-deadline', 'catching-up', 'held', 'table', 'resolving', 'failing', 'over')),
	why     TEXT NOT NULL DEFAULT '',
	since   TEXT NOT NULL
) STRICT;

-- The intake's health (daemon/outage.go).
CREATE TABLE intake_health (
	game_id     TEXT PRIMARY KEY REFERENCES games(id),
	run         TEXT NOT NULL,
	up          INTEGER NOT NULL CHECK (up IN (0, 1)),
	since       TEXT NOT NULL,
	last_error  TEXT NOT NULL DEFAULT '',
	outage_from TEXT,   -- the last outage; NULL for none yet
	outage_to   TEXT    -- NULL while it goes on
) STRICT;

-- The game's secret dice key (daemon/turn.go), and when its starting
-- reports were queued (daemon/startreports.go).
ALTER TABLE games ADD COLUMN dice_key TEXT;
ALTER TABLE games ADD COLUMN start_reports_at TEXT;
`

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
	if move := moves[m.version]; move != nil {
		if err := move(ctx, tx, now()); err != nil {
			return fmt.Errorf("store: %s: migration %d (%s): %w", path, m.version, m.name, err)
		}
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
