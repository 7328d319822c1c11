// Package outbox is pbem's one way out: every mail pbem sends to a player or
// the referee is composed here, stored durably in the store's outbox table,
// and handed to one SMTP server by one sender, at a limited rate, until the
// server takes it or pbem gives up and tells the referee. Toward pbem's own
// embedded server (Options.Unlimited) there is no rate: up to BatchSize rows
// are claimed in one transaction, delivered over four connections at once,
// and marked sent in one transaction.
//
// # Composing
//
// Compose turns a Message into the exact bytes that go on the wire, using
// go-message (never string concatenation): From (the game's address and
// name), To, an RFC 2047 encoded Subject, Date (given by the caller: the
// package never reads the clock to build a message), a deterministic
// Message-ID (see MessageID), In-Reply-To and References when the message
// answers a mail, the loop-protection headers (Auto-Submitted, X-Loop,
// X-Auto-Response-Suppress, and Precedence on automatic answers), a
// quoted-printable UTF-8 text part and base64 attachments in a
// multipart/mixed body. The multipart boundary is derived from the
// Message-ID, so the same Message always gives the same bytes: a resend is
// byte-identical, and golden tests are possible. Compose checks its own
// output is safe to send unchanged over SMTP (CRLF line ends only, no line
// over 998 octets), so what the server receives is exactly what was
// stored.
//
// # The queue
//
// A composed message is stored as a store.OutboxMessage row in state
// pending, either by Outbox.Enqueue or, for a turn's reports, by the
// daemon passing Row's result to store.CommitTurn, so the turn and its
// reports commit together. Enqueue is idempotent on the Message-ID: queueing
// the same message twice stores it once.
//
// # Sending
//
// One Outbox talks to one SMTP server, one message at a time (Run and Flush
// take turns on a mutex; rows are claimed with an atomic state change, so
// two processes never send the same row at once). A pass goes:
//
//  1. Ask the store whether a pending row is due (NextAttemptAt not after
//     Options.Now).
//  2. Wait until the rate allows another transaction: starts are spaced
//     one minute / Options.RatePerMinute apart.
//  3. Only then choose the row, in the send order (below), and mark it
//     sending — durably, before the connection is used, and so before
//     DATA. A crash from here on leaves the row in sending. (Choosing after
//     the wait, not before it, is what lets an answer queued during the
//     wait go next.)
//  4. Connect if there is no open connection (implicit TLS, mandatory
//     STARTTLS, or plaintext to a loopback address only; AUTH PLAIN or
//     LOGIN when a user name is configured), then MAIL FROM (the From
//     address in the stored header), RCPT TO each recipient, DATA, and the
//     stored bytes unchanged.
//  5. On 250 after the final dot, mark the row sent. On a failure, classify
//     it (Error): a temporary failure (4xx, connection refused, a timeout,
//     a TLS handshake failure, a connection dropped at any point, even
//     after the final dot where the outcome is unknown) puts the row back
//     to pending with the next attempt Backoff later, until
//     Options.MaxAttempts attempts have failed; a permanent failure (5xx)
//     or the last attempt marks it failed at once. A failed row is reported
//     to the referee in the same transaction that marks it failed: a new
//     outbox message naming the recipients, the server's reply and the
//     subject, never the body. A failed report is not reported, so
//     failures cannot loop.
//  6. Repeat until nothing is due. The connection is kept for the next
//     message and closed with QUIT at the end of the pass; after an error
//     it is reset or dropped.
//
// # Priority
//
// Under a provider's pace (30 a minute by default) the order of the queue
// is what people notice: a player who sent a sheet waits for its answer,
// nobody waits for the twentieth report of a turn. Each row has a priority
// (Message.Priority, the store's priority column): PriorityAnswer for the
// answer to a sheet or to the referee's commands, PriorityReport for a
// turn's reports (and rows older than the column), PriorityNotice for
// reminders, notices and failure reports. Due rows go out
//
//  1. first, any row that has waited store.OutboxPromoteAfter (10 minutes)
//     or more since it was queued, oldest first — so that a stream of
//     answers can delay a report but never hold it back for ever;
//  2. then by priority, answers before reports before notices, and within a
//     priority oldest (CreatedAt, the message's Date) first.
//
// Both walks follow an index (outbox_pending_order, outbox_pending_priority),
// reading no body and sorting nothing. Toward the embedded server
// (Unlimited) the same order decides which rows a batch claims. A message's
// Date is when it was made, never earlier (the daemon dates a reminder when
// it queues it), so nothing is queued ahead of older mail by its date.
//
// # Health
//
// The outcome of delivery attempts is recorded (Health, in the store as
// store.OutboxHealth) when it changes — the first success after failures, or a
// failure — with the run that wrote it (Options.Run), since when the outbox
// works or fails, how many attempts failed in a row and the last error.
// "pbem status" and the daemon's outage guard read it: an outbox whose every
// attempt fails (a wrong password: 535) is shown FAILING and can hold a
// turn; one that merely has mail queued (a reminder for later, reports under
// the pace) is neither. CheckLogin logs in once without sending, for "pbem
// run" at start.
//
// Run starts by sending again, unchanged, every row left in sending by a
// process that stopped mid-send (store.RecoverSending): the server may or
// may not have taken it, and the Message-ID is the same, so at worst the
// recipient gets two copies of one message — except on pbem's embedded
// server, which stores a message sent again by the same login unchanged
// once per mailbox (mailserver, dedupe.go).
// Then Run repeats passes, waking when Enqueue adds mail or every
// Options.PollInterval. Flush does one pass, for tests and the command
// line.
//
// # Time
//
// Every time that decides something (due times, the rate, backoff, Date of
// failure reports, SentAt) comes from Options.Now, and every wait goes
// through Options.Sleep, so tests run on a fake clock and assert exact
// times. Only network timeouts use the real clock.
//
// # Errors
//
// Delivery failures are recorded on the row and logged with log/slog; they
// are not returned. Flush returns an error only when it could not try at
// all: a configuration it refuses (plaintext to a host that is not
// loopback, a password that cannot be read) or a store failure. An *Error's
// Error method is the sentence for people (the referee sees it as the
// row's LastError); the underlying detail is in its Err field and goes to
// the log. The SMTP password is never logged.
package outbox
