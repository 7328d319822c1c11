// Package inbox brings order mail in: it reads an IMAP mailbox into the
// store (Intake), reads a mail's text and headers safely (Extract), tells
// automatic mail from a person's (Extracted.IsAutomatic), and decides whether
// the sender is who the From header says (Authenticate); a Filer files one
// shared mailbox into folders (filer.go), for a host whose games share one
// provider account. It never imports the
// engine or the order parser: the daemon gives the Intake a Handler that runs
// the order checker on each stored mail.
//
// # The intake, one poll
//
// A message's identity on IMAP is (mailbox, UIDVALIDITY, UID). The store
// keeps, per mailbox and UIDVALIDITY, a watermark: the highest UID whose
// message is stored (store.DB.LastUID).
//
//  1. SELECT the mailbox and read its UIDVALIDITY. A value other than the
//     one recorded (store.DB.UIDValidity) is logged: the watermark
//     of a new UIDVALIDITY starts at 0, so every message is read again.
//  2. UID FETCH W+1:* (UID RFC822.SIZE INTERNALDATE), W the watermark.
//     "n:*" always returns the highest message, even below n: UIDs up to W
//     are dropped. The time just before the SELECT is the listing's: every
//     mail that reached the server before it is in this listing.
//  3. For each new UID, oldest first: a message over Limits.MaxRawBytes is
//     never fetched whole — only BODY.PEEK[HEADER]<0.MaxHeaderBytes>, stored
//     with a marker (NotFetched reads it) for the handler to answer and
//     quarantine. Any other is fetched with
//     BODY.PEEK[] (so \Seen is not set; at most MaxRawBytes are read whatever
//     the server claimed, into one buffer of the size the server announced).
//     With Options.Arrival (pbem's embedded server, in process) the server's
//     record of how the message arrived is read by the same key. In one
//     store transaction: the raw bytes (in pieces of 1 MiB, see the store),
//     their SHA-256, Message-ID, From and the arrival record are stored under
//     (mailbox, UIDVALIDITY, UID); if another row already holds the same
//     SHA-256 the new row is marked ignored ("duplicate": the same mail
//     delivered twice, or found again after a UIDVALIDITY change); and the
//     watermark moves to this UID, with the time the mail reached the server
//     (ServerReceipt: the INTERNALDATE cross-checked with the topmost Received
//     stamp) and the time it was fetched. No flag has been touched yet.
//  4. The Handler runs for every stored mail, oldest first, one at a time
//     (or the BatchHandler for several, which records them in order). It
//     saves its effect and moves the status forward in one transaction (see
//     Handler). An error stops this step until the next poll, so mail is
//     handled in the order it arrived; a panic quarantines the mail. Stored
//     mail is listed without its bytes: the handler gets those the poll
//     just fetched, or reads them from the store when its turn comes, so a
//     backlog of large mail is never in memory at once; right after, while
//     they are at hand, Options.Mask makes the copy to keep in the processed
//     mailbox. New
//     mail is taken in batches of at most 16 mails and 1 MiB (a larger mail
//     alone): steps 3 and 4 run for one batch, stored in one transaction,
//     before the next is fetched, so a burst is answered while it is still
//     arriving, and at most one large mail is in memory.
//     Once every batch is stored and handled, Options.OnPolled is told the
//     listing's time (the daemon's turn runner waits for one after a
//     deadline).
//  5. Every mail of the mailbox whose status is past stored but not moved is
//     taken out of the mailbox. Where Options.Mask gave a copy (pbem's, with
//     the passwords masked), the copy takes the mail's place: with
//     Options.MoveOut (the embedded server) in one transaction of the
//     server's; elsewhere, with UIDPLUS, APPEND the copy, then UID STORE
//     \Deleted and UID EXPUNGE exactly the original (see moveout.go; a crash
//     between the two may leave the copy twice in the processed mailbox).
//     Otherwise: with MOVE, UID MOVE to the processed mailbox
//     (created at connection time if missing, and again on TRYCREATE); with
//     UIDPLUS only, UID COPY, and only if the copy succeeded, UID STORE
//     \Deleted and UID EXPUNGE of exactly those UIDs; with neither (or when
//     the processed mailbox cannot be made), UID STORE +FLAGS
//     ($PbemProcessed \Seen) and nothing is ever deleted — go-imap's own
//     Move fallback expunges even after a failed COPY, and a plain EXPUNGE
//     would remove whatever anyone else marked \Deleted. Then the status
//     becomes moved. A mail stored under an earlier UIDVALIDITY cannot be
//     named any more; step 3 found its copy, so it is marked moved with a
//     note.
//
// Run connects, polls, then waits for news with IDLE — only a wake-up: a
// connection that died silently announces nothing — or sleeps, for at most
// PollInterval (≤ 5 minutes), and polls again. When the connection fails it
// reconnects after a back-off (BackoffInitial doubling to BackoffMax, ±20%).
// go-imap waits for ever for a reply on a half-open connection, so every
// command runs under a watchdog that closes a connection on which a command,
// or the end of an IDLE, has received nothing for CommandTimeout; TCP
// keep-alive is on as well. New mail is therefore found at most PollInterval
// + CommandTimeout + back-off after a link goes silent. PollOnce is one poll
// on a fresh connection, for tests and the command line.
//
// # Why a crash at any instant loses nothing and doubles nothing
//
// The store, not \Seen and not the mailbox, is the work queue; each step
// commits before the next begins, and each can be repeated.
//
//	killed after…           on disk                          the restart…
//	fetching (in memory)     no row; watermark below the UID  fetches it again: nothing was done
//	storing                  row stored + watermark (one tx)  does not fetch it again; runs the Handler
//	the Handler's effect     effect + status (one tx), or     finds it handled (moves it), or
//	                         neither                          stored (runs the Handler again)
//	handling, before moving  status handled                   moves it
//	MOVE, before "moved"     status handled; message moved    MOVEs the UID again: a UID that left the
//	                                                          mailbox is not reused, the command does
//	                                                          nothing; then marks it moved
//	flagging, before "moved" status handled; flags set        sets the flags again (idempotent)
//	MoveOut, before "moved"  status handled; the copy in the  skips the UID (gone from the INBOX): no
//	                         processed mailbox, the original  second copy; then marks it moved
//	                         gone (one server transaction)
//	APPEND of the copy,      status handled; the copy in the  APPENDs the copy again and expunges the
//	before the EXPUNGE       processed mailbox, the original  original: the processed mailbox holds the
//	                         still in the INBOX               copy twice (the one double left, outside
//	                                                          the embedded server)
//
// The same bytes under a new UID — delivered twice, or every message after a
// UIDVALIDITY change — are recognised by their SHA-256 in the same
// transaction that stores them, and never reach the Handler. The same
// Message-ID with different bytes is a different mail to the intake: it is
// stored and handed to the Handler, which decides (Message-ID is not a key:
// it can be missing or rewritten). Run one Intake per store: two processes
// polling the same store could run the Handler for the same stored mail at
// once.
//
// # Reading a mail
//
// Extract slices the MIME structure in one pass over the bytes, checking
// size, header size, part count and nesting depth before go-message ever
// sees a value (go-message's multipart reader costs time quadratic in the
// nesting depth), and decodes only the parts that can hold text: the
// text/plain body, .txt attachments, and HTML when there is no plain text.
// It undoes format=flowed (with DelSp), decodes transfer encodings leniently
// and charsets through go-message/charset (an unknown one is read as UTF-8 or
// windows-1252 with a warning), and normalises line ends and a BOM. All of it
// runs in a goroutine under a deadline, with panics recovered.
//
// # Who sent it
//
// Authenticate requires exactly one From header holding one address,
// registered for a nation or the referee; in the embedded mode
// (AuthPolicy.RequireSubmission), the server's own record of the mail's
// arrival saying it came by SMTP from a client logged in as that address —
// never a header, which a client can write into a message it puts into the
// mailbox by IMAP; optionally a DKIM signature aligned with the From domain
// (verified here with go-msgauth, or reported as dkim=pass by the one
// trusted server in the topmost Authentication-Results header). The
// order-sheet password is the daemon's to check; Authenticate reports
// everything else it needs.
package inbox
