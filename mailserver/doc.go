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
// The database has five tables:
//
//	meta            key/value integers: schema_version, last_uidvalidity
//	accounts        id, user (the local part, lower case), pass_salt, pass_hash
//	                (PBKDF2-SHA256; passwords are never stored in clear)
//	mailboxes       id, account_id, name, uidvalidity, uidnext, subscribed
//	messages        (mailbox_id, uid) primary key, internal_date (RFC 3339
//	                with the zone it was given), size, flags (space
//	                separated, case preserved), raw (the bytes as delivered,
//	                or their first MiB), arrival (how the message came in:
//	                see below), dedupe (the delivery key: see below)
//	message_chunks  (mailbox_id, uid, seq): the rest of a message over
//	                1 MiB, a MiB a row, deleted with the message
//
// Open runs PRAGMA integrity_check, brings an older store up to date (schema
// version 1 had no arrival, dedupe or chunks: its messages are whole in raw
// and have no arrival record) and loads every mailbox's message index (uid,
// date, size, flags, arrival — not the bodies) into memory; bodies are read
// from SQLite when a command needs them.
//
// # How a message arrived (arrival.go)
//
// Every message stored gets a record of how it came into its mailbox, kept
// with it and never taken from its bytes: "smtp auth=ADDRESS" (delivered by
// SMTP from a client logged in as ADDRESS), "smtp auth=none", "imap-append
// user=ADDRESS", "imap-copy user=…", "imap-move user=…" (the account's owner
// put it there by IMAP), "local" (Server.Deliver) or "masked" (MoveOut), with
// the client's IP. A COPY or MOVE records how it was copied, not what the
// original was: a copy is what a client made of a message. pbem's daemon
// runs this server in its own process and asks it (ArrivalOf, by account,
// mailbox, UIDVALIDITY and UID) for the record of each mail its intake
// fetches; a mail counts as sent by an account only when the record says
// "smtp auth=" that account. So whoever holds the game account's IMAP
// password can APPEND any bytes to its INBOX — the server's own
// Authentication-Results stamp for the referee written on top — and the
// daemon still sees "imap-append user=orders@…": a client can write any
// header, but not the record. The record is as safe as the server's files:
// whoever can write mail.db can write anything.
//
// # Exactly one copy (dedupe.go)
//
// A mail sent again by the same logged-in account with the same Message-ID
// and the same bytes — a client that lost the connection after the final
// dot, pbem's outbox after a crash — is stored once per mailbox: the second
// delivery is answered 250 and not stored. Only mail sent after SMTP AUTH
// has a key (else a stranger could pre-empt a report's predictable
// Message-ID), and only the same bytes (a client that reuses a Message-ID
// for another text has both stored). The key stays with the message (COPY,
// MOVE, MoveOut), so it holds while the message is in the mailbox.
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
// sessions (spool.go), and stored from the file a MiB at a time: the first
// MiB in messages.raw, the rest in message_chunks (chunks.go). SQLite
// copies a blob whole on INSERT and SELECT and the driver offers no
// incremental blob I/O, so a message is never bound or read whole: a FETCH
// of the whole message (BODY[], what pbem's intake asks for) writes it to
// the client a chunk at a time, and a FETCH of only a message's header
// reads only its first MiB. Other uses (BODYSTRUCTURE, SEARCH BODY, a part
// of a message, APPEND) hold the message whole.
//
// # pbem's handled mail (moveout.go)
//
// MoveOut takes handled mail out of the game's INBOX into the processed
// mailbox in one transaction, each message replaced by the copy pbem gives
// (its passwords masked) or moved as it is: a crash leaves either the
// original in the INBOX or the copy in the processed mailbox, never both
// and never neither, and a repeat skips what is gone.
//
// # Routing at delivery (route.go)
//
// A server that serves several games from one address (pbem's host,
// package host) sets Options.Route: for each recipient of a message taken
// by SMTP, before anything is stored, it may file the message for another
// account (the game the sheet names), refuse it (a game's size or rate
// limit, as an SMTP reply the sender's program shows), or have a reply
// stored in the sender's own INBOX in the same transaction. The arrival
// record stays the SMTP session's, so a routed message is authenticated by
// its game exactly as one sent to the game's own address.
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
// 5.7.1, enforces MaxMessageBytes (552 5.3.4, naming the limit) and a
// header that ends within 256 KiB (552 5.3.4, whatever its shape), and
// offers AUTH PLAIN with the accounts' passwords. It is a submission server
// for its own accounts (submission.go): mail from one of them needs AUTH
// (530 5.7.0), and a logged-in client may send only as itself (envelope
// sender, From and Sender; 553/550 5.7.1); a client that did not log in
// may not name an account in From or Sender; a From or Sender that cannot
// be read as addresses is refused with the reason (5.7.1 when it names an
// account in an encoded word or with a trailing dot, 5.1.7 otherwise).
// Each recipient's copy gets Return-Path, an Authentication-Results field
// with Options.AuthServID ("auth=pass smtp.auth=ADDRESS" or "auth=none")
// above everything the client wrote (any field of that id the client wrote
// is removed: RFC 8601 section 5), and Received, as a final-delivery server
// writes them. The field is for people and mail programs; the arrival
// record is what pbem believes.
//
// Password guessing (authlimit.go) is slowed, never locked out: after three
// failures for an account (or from a client IP that is not loopback), its
// checks are spaced 1 s apart, doubling to 15 s, and queued; an attempt
// that would wait over 30 s is told to try again later (SMTP 454 4.7.0,
// IMAP NO [UNAVAILABLE]) without being counted; a key is forgotten 15
// minutes after its last failure. The right password always passes once
// its turn comes, so a stranger cannot lock the referee out; he can make
// the referee's login wait, or be retried, while he keeps failing.
//
// # Security
//
// The server speaks no TLS. It listens on loopback addresses only, and
// refuses anything else unless Options.AllowNonLoopback is set; plaintext
// IMAP LOGIN and SMTP AUTH PLAIN are accepted from loopback peers (and from
// anywhere only under AllowNonLoopback). SMTP accepts mail for
// Options.Domain only and never relays.
package mailserver
