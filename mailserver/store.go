package mailserver

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// schemaVersion is the version of the tables created by schema and brought
// up to date by upgrades; a store with a newer version is refused rather
// than misread.
const schemaVersion = 2

// upgrades[v] takes a store from schema version v+1 to v+2. Steps are never
// edited once released: a change is a new step at the end.
var upgrades = []string{
	// 2: how each message arrived (Arrival), the key that makes a
	// delivery by SMTP idempotent (dedupe.go), and large messages in
	// pieces (chunks.go).
	`ALTER TABLE messages ADD COLUMN arrival TEXT NOT NULL DEFAULT '';
	 ALTER TABLE messages ADD COLUMN dedupe TEXT NOT NULL DEFAULT '';
	 CREATE INDEX messages_by_dedupe ON messages(mailbox_id, dedupe) WHERE dedupe != '';
	 CREATE TABLE message_chunks (
		mailbox_id INTEGER NOT NULL,
		uid        INTEGER NOT NULL,
		seq        INTEGER NOT NULL,
		data       BLOB NOT NULL,
		PRIMARY KEY (mailbox_id, uid, seq),
		FOREIGN KEY (mailbox_id, uid) REFERENCES messages(mailbox_id, uid) ON DELETE CASCADE
	 );`,
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
	id        INTEGER PRIMARY KEY,
	user      TEXT NOT NULL UNIQUE,
	pass_salt BLOB,
	pass_hash BLOB
);
CREATE TABLE IF NOT EXISTS mailboxes (
	id          INTEGER PRIMARY KEY,
	account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name        TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	uidnext     INTEGER NOT NULL,
	subscribed  INTEGER NOT NULL DEFAULT 0,
	UNIQUE (account_id, name)
);
CREATE TABLE IF NOT EXISTS messages (
	mailbox_id    INTEGER NOT NULL REFERENCES mailboxes(id) ON DELETE CASCADE,
	uid           INTEGER NOT NULL,
	internal_date TEXT NOT NULL,
	size          INTEGER NOT NULL,
	flags         TEXT NOT NULL DEFAULT '',
	raw           BLOB NOT NULL,
	PRIMARY KEY (mailbox_id, uid)
);
`

// passwordIterations is the PBKDF2 work factor. The store is local and the
// server loopback-only, so this only has to make a copied mail.db useless for
// recovering passwords cheaply, not to resist a determined offline attack.
const passwordIterations = 20000

// iterations is the work factor hashPassword and checkPassword use:
// passwordIterations, or 1 in a test binary that called
// LowerPasswordCostForTests.
var iterations atomic.Int64

func init() { iterations.Store(passwordIterations) }

// LowerPasswordCostForTests makes account passwords hash with one PBKDF2
// iteration for the rest of the process. Only tests call it, from TestMain,
// before any server starts: every login of a test's mail client checks a
// password. The work factor is not stored beside the hash, so a mail.db
// written under it is read back only by the same test binary (a crash test's
// child process is one).
func LowerPasswordCostForTests() { iterations.Store(1) }

// dbFileName is the SQLite file inside Options.Dir.
const dbFileName = "mail.db"

// cacheKiB is the page cache of each connection to the store, in KiB
// (SQLite's default is 2,000), as pbem.db's (store.CacheKiB): messages pass
// through a connection's cache in 1 MiB pieces, and at the default the
// store's connections kept some 10 MB outside the Go heap once large mail
// had gone through (docs/intake.md, "Memory").
const cacheKiB = 512

// openDB opens (creating if needed) the store in dir, checks its integrity
// and brings the schema up to date.
func openDB(ctx context.Context, dir string) (*sql.DB, error) {
	path, err := filepath.Abs(filepath.Join(dir, dbFileName))
	if err != nil {
		return nil, err
	}
	// Characters that would end the file name inside a URI are escaped.
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	dsn := "file:" + escaped +
		"?_pragma=busy_timeout(10000)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(FULL)" +
		"&_pragma=foreign_keys(1)" +
		"&_txlock=immediate" +
		fmt.Sprintf("&_pragma=cache_size(%d)", -cacheKiB)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if err := checkIntegrity(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	if err := initDB(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("mail store %s: %w", path, err)
	}
	return db, nil
}

// checkIntegrity runs PRAGMA integrity_check. A damaged file, or one that is
// not a database, is refused with an error that says what to do.
func checkIntegrity(ctx context.Context, db *sql.DB, path string) error {
	damaged := func(problems string) error {
		return fmt.Errorf("mail store %s is damaged (%s). The mail server will not use it: stop pbem, keep a copy "+
			"of the file (with any -wal and -shm files beside it), then restore the latest backup, or try to "+
			"salvage it with `sqlite3 %s .recover | sqlite3 repaired.db`", path, problems, filepath.Base(path))
	}
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check(20)")
	if err != nil {
		var se *sqlite.Error
		if errors.As(err, &se) {
			switch se.Code() & 0xff {
			case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
				return damaged(se.Error())
			}
		}
		return fmt.Errorf("mail store %s: integrity check: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("mail store %s: integrity check: %w", path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return damaged(err.Error())
	}
	if len(problems) > 0 {
		return damaged(strings.Join(problems, "; "))
	}
	return nil
}

func initDB(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	var version int64
	err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'schema_version'").Scan(&version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// A new store: the tables of version 1, brought up to date below.
		if _, err = db.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES ('schema_version', 1)"); err != nil {
			return err
		}
		version = 1
	case err != nil:
		return err
	case version > schemaVersion:
		return fmt.Errorf("written by a newer pbem (schema version %d, this one knows %d)", version, schemaVersion)
	}
	for ; version < schemaVersion; version++ {
		if err := upgrade(ctx, db, version+1, upgrades[version-1]); err != nil {
			return err
		}
	}
	return nil
}

// upgrade applies one step and records the new version, in one transaction.
func upgrade(ctx context.Context, db *sql.DB, to int64, step string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, step); err != nil {
		return fmt.Errorf("upgrading to schema version %d: %w", to, err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = ? WHERE key = 'schema_version'", to); err != nil {
		return err
	}
	return tx.Commit()
}

// nextUIDValidity allocates a UIDVALIDITY that no mailbox of this store has
// had before: the larger of the last one plus one and the current Unix time.
func nextUIDValidity(ctx context.Context, tx *sql.Tx, now time.Time) (uint32, error) {
	var last int64
	err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'last_uidvalidity'").Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	v := max(last+1, now.Unix())
	if v > math.MaxUint32 || v <= 0 {
		// After 2106 (or a clock gone mad) start again low; a clash would need
		// the same name to have been given the same value a century ago.
		v = last%math.MaxUint32 + 1
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('last_uidvalidity', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, v)
	return uint32(v), err
}

// hashPassword returns a fresh salt and the PBKDF2 hash of password.
func hashPassword(password string) (salt, hash []byte, err error) {
	salt = make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, nil, err
	}
	hash, err = pbkdf2.Key(sha256.New, password, salt, int(iterations.Load()), 32)
	return salt, hash, err
}

// checkPassword reports whether password matches salt and hash. An account
// without a hash (created with an empty password) never matches.
func checkPassword(password string, salt, hash []byte) bool {
	if len(hash) == 0 || password == "" {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, int(iterations.Load()), len(hash))
	return err == nil && subtle.ConstantTimeCompare(got, hash) == 1
}

// formatFlags and parseFlags convert a flag list to and from its column.
// Flags are atoms, so they never contain a space.
func formatFlags(flags []imap.Flag) string {
	s := make([]string, len(flags))
	for i, f := range flags {
		s[i] = string(f)
	}
	return strings.Join(s, " ")
}

func parseFlags(s string) []imap.Flag {
	var flags []imap.Flag
	for _, f := range strings.Fields(s) {
		flags = append(flags, imap.Flag(f))
	}
	return flags
}

// dateLayout is how internal dates are stored: second precision, like IMAP,
// keeping the zone the date was given in.
const dateLayout = time.RFC3339

// loadIndex reads every account, mailbox and message header row (not the
// bodies) into a fresh index.
func loadIndex(ctx context.Context, db *sql.DB) (map[string]*account, error) {
	accounts := make(map[string]*account)
	byID := make(map[int64]*account)
	rows, err := db.QueryContext(ctx, "SELECT id, user, pass_salt, pass_hash FROM accounts")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		a := &account{mailboxes: make(map[string]*mailbox)}
		if err := rows.Scan(&a.id, &a.user, &a.passSalt, &a.passHash); err != nil {
			rows.Close()
			return nil, err
		}
		accounts[a.user] = a
		byID[a.id] = a
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}

	mailboxes := make(map[int64]*mailbox)
	rows, err = db.QueryContext(ctx, "SELECT id, account_id, name, uidvalidity, uidnext, subscribed FROM mailboxes")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var (
			m         mailbox
			accountID int64
			uidNext   int64
		)
		if err := rows.Scan(&m.id, &accountID, &m.name, &m.uidValidity, &uidNext, &m.subscribed); err != nil {
			rows.Close()
			return nil, err
		}
		a := byID[accountID]
		if a == nil {
			continue // the foreign key makes this impossible; skip rather than crash
		}
		m.account = a
		m.uidNext = imap.UID(uidNext)
		a.mailboxes[m.name] = &m
		mailboxes[m.id] = &m
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}

	rows, err = db.QueryContext(ctx,
		"SELECT mailbox_id, uid, internal_date, size, flags, arrival FROM messages ORDER BY mailbox_id, uid")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			mailboxID int64
			uid       int64
			date      string
			msg       message
			flags     string
		)
		if err := rows.Scan(&mailboxID, &uid, &date, &msg.size, &flags, &msg.arrival); err != nil {
			return nil, err
		}
		m := mailboxes[mailboxID]
		if m == nil {
			continue
		}
		msg.uid = imap.UID(uid)
		msg.flags = parseFlags(flags)
		msg.date, err = time.Parse(dateLayout, date)
		if err != nil {
			// A damaged date must not hide the message.
			msg.date = time.Unix(0, 0).UTC()
		}
		m.msgs = append(m.msgs, &msg)
		if msg.uid >= m.uidNext {
			// Cannot happen with this code; repair rather than reuse a UID.
			m.uidNext = msg.uid + 1
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, m := range mailboxes {
		m.newTracker()
	}
	return accounts, nil
}

// insertMessage stores one message under uid and moves the mailbox's
// uidnext past it.
func insertMessage(ctx context.Context, tx *sql.Tx, mailboxID int64, uid imap.UID, nm *newMessage) error {
	if err := insertContent(ctx, tx, mailboxID, uid, nm); err != nil {
		return err
	}
	return setUIDNext(ctx, tx, mailboxID, uid+1)
}

// copyMessage copies a message row, and its chunks, inside SQLite, without
// reading its body into memory. The copy's arrival is how it was copied (a
// copy is never what the original was: see Arrival); the delivery key goes
// with it.
func copyMessage(ctx context.Context, tx *sql.Tx, fromMailbox int64, fromUID imap.UID, toMailbox int64, toUID imap.UID, arrival Arrival) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO messages (mailbox_id, uid, internal_date, size, flags, raw, arrival, dedupe)
		SELECT ?, ?, internal_date, size, flags, raw, ?, dedupe FROM messages WHERE mailbox_id = ? AND uid = ?`,
		toMailbox, int64(toUID), arrival.String(), fromMailbox, int64(fromUID))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return fmt.Errorf("message %d of mailbox %d vanished from the store", fromUID, fromMailbox)
	}
	if err := copyChunks(ctx, tx, fromMailbox, fromUID, toMailbox, toUID); err != nil {
		return err
	}
	return setUIDNext(ctx, tx, toMailbox, toUID+1)
}

func setUIDNext(ctx context.Context, tx *sql.Tx, mailboxID int64, uidNext imap.UID) error {
	_, err := tx.ExecContext(ctx, "UPDATE mailboxes SET uidnext = max(uidnext, ?) WHERE id = ?", int64(uidNext), mailboxID)
	return err
}

func deleteMessage(ctx context.Context, tx *sql.Tx, mailboxID int64, uid imap.UID) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE mailbox_id = ? AND uid = ?", mailboxID, int64(uid))
	return err
}

func updateFlags(ctx context.Context, tx *sql.Tx, mailboxID int64, uid imap.UID, flags []imap.Flag) error {
	_, err := tx.ExecContext(ctx, "UPDATE messages SET flags = ? WHERE mailbox_id = ? AND uid = ?",
		formatFlags(flags), mailboxID, int64(uid))
	return err
}
