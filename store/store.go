package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors a caller can test for with errors.Is.
var (
	// ErrNotFound: the row asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: a row with the same key already exists (CreateGame, AddNation).
	ErrExists = errors.New("already exists")
	// ErrConflict: a key is already taken by different content (a reused IMAP
	// UID, a Message-ID already queued with other bytes).
	ErrConflict = errors.New("conflicting content for an existing key")
	// ErrWrongState: a status change that the row's current status does not
	// allow (an outbox row marked sent that was never sending, a mail moved
	// back to stored).
	ErrWrongState = errors.New("wrong state")
	// ErrCorrupt: the file failed SQLite's integrity check or is not a
	// database. The error is a *CorruptError.
	ErrCorrupt = errors.New("database file is damaged")
	// ErrSchemaTooNew: the file was written by a newer pbem.
	ErrSchemaTooNew = errors.New("database schema is newer than this program")
	// ErrInvalid: the caller passed a value the store refuses (an empty key,
	// an unknown status).
	ErrInvalid = errors.New("invalid argument")
)

// DefaultBusyTimeout is Options.BusyTimeout when it is zero.
const DefaultBusyTimeout = 10 * time.Second

// CacheKiB is the page cache of each connection, in KiB (SQLite's default
// is 2,000). A mail is stored in 1 MiB pieces that pass through the cache
// of whichever connection writes or reads them, and the cache is memory
// outside the Go heap that a connection keeps for as long as it is open:
// at the default, the six connections of pbem.db and those of the embedded
// server's store held some 20 MB once large mail had gone through
// (docs/intake.md, "Memory"). The tables pbem reads often are far smaller
// than this, and with WAL a connection's cache is dropped anyway whenever
// another connection has written.
const CacheKiB = 512

// DefaultMaxReaders is Options.MaxReaders when it is zero.
const DefaultMaxReaders = 4

// Options tunes Open. A nil *Options, or a zero field, means the default
// documented on the field.
type Options struct {
	// BusyTimeout is how long a statement waits for a lock held by another
	// process before failing with "database is locked". Default
	// DefaultBusyTimeout (10s).
	BusyTimeout time.Duration

	// MaxReaders is the number of connections in the read pool. Default
	// DefaultMaxReaders (4). Writes always use one separate connection.
	MaxReaders int

	// QuickCheck makes Open run PRAGMA quick_check instead of the full
	// PRAGMA integrity_check. quick_check skips index-content checks and is
	// much faster on a large file. Default false: the full check.
	QuickCheck bool

	// HeaderCheck makes Open read the database header only (PRAGMA
	// schema_version), for a process that only reads: a file that is not
	// a database still fails at once, and a damaged page fails the read
	// that meets it, but the file is not read whole. The integrity checks
	// read every page, which is most of a short command's time on a year's
	// store (and grows with it). Takes precedence over QuickCheck.
	HeaderCheck bool

	// Now stamps the bookkeeping columns updated_at (mail, outbox, meta) and
	// applied_at (schema_migrations). It is never used to decide anything.
	// Default time.Now.
	Now func() time.Time

	// OnMailQueued is called after a transaction that queued outbox mail
	// (Enqueue, CommitTurn's mail, Requeue, Resend) has committed, so that
	// a sender in this process or another can be woken at once rather than
	// at its next poll. It must not block. Default nil: nobody is told.
	OnMailQueued func()
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.BusyTimeout <= 0 {
		r.BusyTimeout = DefaultBusyTimeout
	}
	if r.MaxReaders <= 0 {
		r.MaxReaders = DefaultMaxReaders
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}

// DB is an open store. It is safe for concurrent use by many goroutines.
type DB struct {
	path   string
	writer *sql.DB // exactly one connection, BEGIN IMMEDIATE
	reader *sql.DB // query_only pool
	now    func() time.Time
	queued func() // Options.OnMailQueued

	writerStmts, readerStmts *stmtCache // stmts.go
}

// CorruptError reports a file that SQLite cannot vouch for. Its message names
// the file and what to do; Problems holds the first lines SQLite reported.
type CorruptError struct {
	Path     string   // the database file
	Problems []string // what SQLite reported, at most 20 lines
}

// Error says which file is damaged and what to do about it.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("store: %s is damaged (%s). pbem will not use it: stop pbem, keep a copy of the file "+
		"(with any -wal and -shm files beside it), then restore the latest backup, or try to salvage it "+
		"with `sqlite3 %s .recover | sqlite3 repaired.db`",
		e.Path, strings.Join(e.Problems, "; "), filepath.Base(e.Path))
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Open opens the store at path, creating the file if it does not exist (its
// directory must exist), checks its integrity, and brings its schema up to
// date. A nil opts means the defaults documented on Options. The file, and
// its -wal and -shm files, are readable and writable by their owner only
// (0600): the store keeps raw mail, which holds PASSWORD lines; a store
// found with wider permissions is tightened.
func Open(path string, opts *Options) (*DB, error) {
	return open(context.Background(), path, opts, migrations)
}

func open(ctx context.Context, path string, opts *Options, list []migration) (*DB, error) {
	o := opts.withDefaults()
	if path == "" {
		return nil, fmt.Errorf("store: no file name given: %w", ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	if fi, err := os.Stat(filepath.Dir(abs)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("store: cannot open %s: directory %s does not exist; create it or set data_dir",
			abs, filepath.Dir(abs))
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("store: cannot open %s: it is a directory", abs)
	}
	if err := ownerOnly(abs); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}

	ms := strconv.FormatInt(o.BusyTimeout.Milliseconds(), 10)
	common := url.Values{}
	common.Set("_busy_timeout", ms)
	common.Set("_foreign_keys", "1")
	common.Set("_synchronous", "FULL")
	common.Add("_pragma", fmt.Sprintf("cache_size(%d)", -CacheKiB))

	wq := cloneValues(common)
	wq.Set("_journal_mode", "WAL")
	wq.Set("_txlock", "immediate")
	writer, err := sql.Open("sqlite", fileURI(abs, wq))
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", abs, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)

	db := &DB{path: abs, writer: writer, now: o.Now, queued: o.OnMailQueued, writerStmts: newStmtCache(writer)}
	if err := checkIntegrity(ctx, writer, abs, o.QuickCheck, o.HeaderCheck); err != nil {
		writer.Close()
		return nil, err
	}
	if err := migrate(ctx, writer, abs, list, o.Now); err != nil {
		writer.Close()
		return nil, err
	}
	if err := ensureIndexes(ctx, db); err != nil {
		writer.Close()
		return nil, err
	}

	rq := cloneValues(common)
	rq.Set("_query_only", "1")
	reader, err := sql.Open("sqlite", fileURI(abs, rq))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: %s: %w", abs, err)
	}
	reader.SetMaxOpenConns(o.MaxReaders)
	reader.SetMaxIdleConns(o.MaxReaders)
	if err := reader.PingContext(ctx); err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("store: %s: opening the read pool: %w", abs, err)
	}
	db.reader, db.readerStmts = reader, newStmtCache(reader)
	return db, nil
}

func cloneValues(v url.Values) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	return c
}

// fileURI makes a file: URI, escaping the path so that '?', '#' and '%' in a
// directory name cannot be mistaken for URI syntax.
func fileURI(abs string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// checkIntegrity runs integrity_check (or quick_check, or with header
// only a read of the schema version) on the writer connection. It is also
// the first statement on the connection, so a file that is not a database
// at all fails here with a CorruptError.
func checkIntegrity(ctx context.Context, w *sql.DB, path string, quick, header bool) error {
	if header {
		var v int
		if err := w.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&v); err != nil {
			return openError(path, err)
		}
		return nil
	}
	pragma := "PRAGMA integrity_check(20)"
	if quick {
		pragma = "PRAGMA quick_check(20)"
	}
	rows, err := w.QueryContext(ctx, pragma)
	if err != nil {
		return openError(path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return openError(path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return openError(path, err)
	}
	if len(problems) > 0 {
		return &CorruptError{Path: path, Problems: problems}
	}
	return nil
}

// openError turns a driver error met while opening into a clear one.
func openError(path string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT:
			return &CorruptError{Path: path, Problems: []string{se.Error()}}
		case sqlite3.SQLITE_NOTADB:
			return &CorruptError{Path: path, Problems: []string{"not an SQLite database: " + se.Error()}}
		case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY:
			return fmt.Errorf("store: cannot open %s for writing (check that the file and its directory "+
				"exist and are writable by this user): %w", path, err)
		case sqlite3.SQLITE_BUSY:
			return fmt.Errorf("store: %s is locked by another process; is another pbem running on this "+
				"data directory? %w", path, err)
		}
	}
	return fmt.Errorf("store: opening %s: %w", path, err)
}

// Path returns the absolute name of the database file.
func (db *DB) Path() string { return db.path }

// Close closes both connection pools. The last connection to close
// checkpoints the write-ahead log into the main file.
func (db *DB) Close() error {
	errs := []error{db.readerStmts.close(), db.writerStmts.close()}
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
	}
	errs = append(errs, db.writer.Close())
	return errors.Join(errs...)
}

// Update runs fn in one write transaction: everything fn does through tx
// commits together when fn returns nil, and nothing does when it returns an
// error or panics. Transactions are serialised: Update waits (honouring ctx)
// until the single writer connection is free.
//
// fn must use only tx: a DB write method called inside fn waits for the very
// connection fn holds, for ever. DB read methods inside fn do not see tx's
// uncommitted writes; use tx's.
func (db *DB) Update(ctx context.Context, fn func(tx *Tx) error) (err error) {
	sqlTx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	done := false
	defer func() {
		if !done {
			sqlTx.Rollback()
		}
	}()
	tx := &Tx{tx: sqlTx, now: db.now, stmts: db.writerStmts}
	if err := fn(tx); err != nil {
		return err
	}
	done = true
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	if tx.queuedMail && db.queued != nil {
		db.queued()
	}
	return nil
}

// view runs fn in a read-only transaction on the reader pool, so that
// several queries see the same snapshot.
func (db *DB) view(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store: begin read: %w", err)
	}
	defer sqlTx.Rollback()
	return fn(&Tx{tx: sqlTx, now: db.now, stmts: db.readerStmts})
}

// Tx is a transaction handed to the function given to DB.Update. It has the
// same methods as DB, and everything done through it commits or rolls back as
// one. A Tx must not be used after that function returns.
type Tx struct {
	tx    *sql.Tx
	now   func() time.Time
	stmts *stmtCache // the pool's prepared statements (stmts.go)
	// queuedMail is set when the transaction put outbox mail in pending:
	// Update then calls Options.OnMailQueued after the commit.
	queuedMail bool
}

// timeLayout is fixed width so that stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

func encTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func decTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad time %q in the database: %w", s, err)
	}
	return t, nil
}

func decOptTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return decTime(s.String)
}

// nonEmpty returns an ErrInvalid error naming the first empty field.
func nonEmpty(op string, fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i+1] == "" {
			return fmt.Errorf("store: %s: %s is empty: %w", op, fields[i], ErrInvalid)
		}
	}
	return nil
}

// isUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY failure.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code()
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// ownerOnly makes the store's file, and the -wal and -shm files SQLite
// keeps beside it, 0600: a new store is created empty with that mode before
// SQLite opens it (SQLite gives its -wal and -shm files the database's
// mode), and existing files are tightened.
func ownerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot make %s readable by its owner only: %w", p, err)
		}
	}
	return nil
}
