// Package mailserver is pbem's own small mail server: IMAP and SMTP on
// loopback, backed by one SQLite file, so that a referee can try pbem, run
// the demo and run the tests without any mail account. It behaves like a
// real server (Dovecot is the model), so pbem's intake path is the same in
// local mode as against a provider.
//
// # Storage
//
// Everything lives in Options.Dir:
//
//	mail.db    SQLite (WAL journal, synchronous=FULL, foreign keys on)
//	lock       held with flock(2) while a Server has the store open, so two
//	           processes never serve the same mail
//
// The database has four tables:
//
//	meta       key/value integers: schema_version, last_uidvalidity
//	accounts   id, user (the local part, lower case), pass_salt, pass_hash
//	           (PBKDF2-SHA256; passwords are never stored in clear)
//	mailboxes  id, account_id, name, uidvalidity, uidnext, subscribed
//	messages   (mailbox_id, uid) primary key, internal_date (RFC 3339 with
//	           the zone it was given), size, flags (space separated, case
//	           preserved), raw (the bytes as delivered)
//
// Open runs PRAGMA integrity_check and loads every mailbox's message index
// (uid, date, size, flags — not the bodies) into memory; bodies are read
// from SQLite when a command needs them.
//
// # UIDs and UIDVALIDITY
//
// A mailbox's UIDVALIDITY is fixed when the mailbox is created and never
// changes while it exists, across any number of restarts. It is taken from
// a counter in the meta table: max(last_uidvalidity+1, current Unix time),
// so a mailbox deleted and created again under the same name gets a
// different value, and so does a mailbox in a store created afresh later.
// UIDNEXT is stored with the mailbox and only ever grows: appending,
// copying or moving a message into a mailbox takes uidnext and increments
// it in the same transaction, and expunging deletes the row without giving
// the UID back. A UID is therefore never reused within one UIDVALIDITY.
//
// # Durability
//
// Every change (a delivery, an APPEND, COPY, MOVE, STORE, EXPUNGE, a mailbox
// created, renamed or deleted) is one SQLite transaction, committed before
// the client gets its answer: an SMTP 250 after DATA means the message is on
// disk for every recipient (all recipients of one message commit together).
// Deliveries that arrive while one is being committed wait and are then
// committed together, in one transaction (group commit, groupcommit.go):
// each client still gets its 250 only after its message is on disk.
//
// # Memory
//
// A message up to 1 MiB is read into memory; a larger one is spooled to a
// file in Dir as it arrives, one large message at a time across all SMTP
// sessions, and stored with one copy in memory (spool.go). A FETCH of only
// a message's header reads only the start of it from the store.
//
// # Concurrency
//
// One sync.RWMutex guards the in-memory index. A change takes it for
// writing, runs its SQLite transaction, commits, and only then updates the
// index and queues the news (EXISTS, EXPUNGE, FETCH FLAGS) on the mailbox's
// imapserver.MailboxTracker; so SQLite has one writer at a time and the
// index never shows an uncommitted state. Readers (FETCH, SEARCH, STATUS,
// LIST) take it for reading; FETCH copies what it needs and releases the
// lock before it writes to the network, so a slow client never holds up a
// delivery. A session in IDLE first sends the news queued since its last
// command (a delivery that landed just before the IDLE), then is woken by
// every change as soon as its transaction commits.
//
// # Protocols
//
// IMAP (github.com/emersion/go-imap/v2/imapserver) advertises IMAP4rev1
// with NAMESPACE, UIDPLUS, MOVE, IDLE, UNSELECT, ESEARCH, SEARCHRES,
// LIST-EXTENDED, LIST-STATUS, STATUS=SIZE, CHILDREN, LITERAL+ and
// APPENDLIMIT. The hierarchy delimiter is "/"; INBOX is case-insensitive;
// CREATE makes missing parents. \Recent is not tracked (always 0). A
// message delivered since the client's last command is reported by UID
// SEARCH at once (its EXISTS follows before the tagged OK); sequence-number
// commands see it after the EXISTS.
//
// SMTP (github.com/emersion/go-smtp) accepts mail for Options.Domain only,
// refuses unknown local users with 550 5.1.1 and other domains with 550
// 5.7.1, enforces MaxMessageBytes (552 5.3.4, naming the limit) and offers
// AUTH PLAIN with the accounts' passwords. It is a submission server for its
// own accounts (submission.go): mail from one of them needs AUTH (530
// 5.7.0), and a logged-in client may send only as itself (envelope sender,
// From and Sender; 553/550 5.7.1); a client that did not log in may not
// name an account in From or Sender. Each recipient's copy gets
// Return-Path, an Authentication-Results field with Options.AuthServID
// ("auth=pass smtp.auth=ADDRESS" or "auth=none") above everything the
// client wrote, and Received, as a final-delivery server writes them.
//
// # Security
//
// The server speaks no TLS. It listens on loopback addresses only, and
// refuses anything else unless Options.AllowNonLoopback is set; plaintext
// IMAP LOGIN and SMTP AUTH PLAIN are accepted from loopback peers (and from
// anywhere only under AllowNonLoopback). SMTP accepts mail for
// Options.Domain only and never relays.
package mailserver
