// Package store is pbem's durable state: one SQLite file (pbem.db in the data
// directory) holding games, nations, turn snapshots, their events, received
// mail, submissions (order sheets, treaties, requests), the outbound mail queue,
// and the game's state between turns in typed tables — the treaty ledger and
// the ledger each turn was resolved from, early closes, reopenings, holds,
// battles on the referee's table, reminders and notices sent, the last run,
// the turn runner's and the intake's and outbox's health (turnstate.go,
// treaties.go, runs.go) — and the mail's bookkeeping (mailmarks.go: which
// mail first came with a Message-ID, how far each mailbox was read). Nothing
// else in pbem keeps state on disk, and every value has a column: the meta
// table (meta.go) holds no state of pbem's.
//
// # Durability
//
// The file is opened in WAL mode with synchronous=FULL, so a transaction that
// has returned from Commit survives a crash of the process and of the machine.
// foreign_keys is on. Every connection waits up to Options.BusyTimeout for a
// lock held by another process (for example a pbem command run by the referee
// while the daemon is up) instead of failing at once.
//
// Open runs PRAGMA integrity_check before anything else. A damaged file is
// refused with a *CorruptError that names the file and says what to do; pbem
// never writes into a file it has not checked.
//
// # One writer
//
// SQLite allows one writer at a time. The store makes that explicit rather than
// leaving it to lock retries: DB holds two connection pools on the same file.
//
//   - the writer pool has exactly one connection (SetMaxOpenConns(1)) and starts
//     every transaction with BEGIN IMMEDIATE. Writers queue in Go for that one
//     connection, in order, honouring their contexts; a transaction takes the
//     file's write lock at BEGIN, so it can never fail half-way with SQLITE_BUSY
//     when it first writes.
//   - the reader pool (Options.MaxReaders connections, query_only) serves every
//     read. In WAL mode readers do not block the writer nor each other, and each
//     read runs in its own read transaction, so it sees one committed snapshot.
//
// Update runs a function in one write transaction with a *Tx that has the same
// methods as DB; that is how callers make several steps atomic (store a
// submission and mark its mail handled). Inside the function use only the Tx:
// calling a DB write method there waits for the writer connection the
// transaction itself holds, and never returns.
//
// # Schema
//
// The schema is an ordered list of numbered migrations (migrate.go). Open
// applies the ones a file has not seen, each in its own transaction, recording
// each in the schema_migrations table. A file written by a newer pbem (a
// version this code does not know) is refused, never downgraded.
//
// # Data conventions
//
//   - Times are passed in by the caller; the store never asks the clock for
//     anything that matters (Options.Now only stamps updated_at and
//     applied_at columns for people reading the file). Times are stored as
//     fixed-width UTC text (2006-01-02T15:04:05.000000000Z), so they sort
//     correctly and read well in the sqlite3 shell; they come back in UTC.
//     A zero time.Time is stored as NULL where a column is optional.
//   - Blobs (turn state, events, dice, metadata) are opaque bytes, normally
//     JSON chosen by the caller; the store does not look inside them.
//   - A turn seed is a uint64 and is stored as decimal text, losslessly.
//   - Lookups that find nothing return an error wrapping ErrNotFound.
package store
