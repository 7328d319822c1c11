package inbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/syw-pbem/pbem/internal/backoff"
	"github.com/syw-pbem/pbem/store"
)

// Intake reads order mail from an IMAP mailbox into the store and hands each
// mail to the Handler. Create it with New; run it with Run (the daemon) or
// PollOnce (one pass, for tests and the command line). Its methods may be
// called from several goroutines; polls never overlap.
type Intake struct {
	db  *store.DB
	o   Options
	log *slog.Logger
	mu  sync.Mutex // one poll at a time

	// fresh holds the bytes of the mail the running poll has just stored,
	// by row id, for the handler (see handleStored); only mail up to
	// freshMax: a larger one is read back from the store when its turn
	// comes, so that a poll that took in several large mails does not
	// hold them all until the last is handled.
	fresh map[int64][]byte

	// copies holds the masked copies (Options.Mask) of handled mail not yet
	// taken out of the mailbox, made while its bytes were in memory.
	copies map[int64][]byte

	// warnedMask is set once the log has said that handled mail cannot
	// be replaced by its masked copy on this server.
	warnedMask bool

	// kick asks the serving connection to poll now (PollNow).
	kick chan struct{}

	// hook, when set (tests only), is called after each step of a mail
	// (stepFetched, stepStored, stepHandled, stepMoved); an error stops the
	// poll there, as a crash would.
	hook func(step string, m store.Mail) error
}

// Steps of one mail, named as the crash tests name them.
const (
	stepFetched = "fetched" // raw bytes read from the server, nothing saved
	stepStored  = "stored"  // row committed with the new watermark
	stepHandled = "handled" // the Handler returned and the status moved on
	stepMoved   = "moved"   // moved or flagged on the server, status not yet moved
)

// New returns an Intake that stores mail in db. It does no I/O; a nil opts
// means the defaults (but Addr and Handler are required, and Run and
// PollOnce report their absence).
func New(db *store.DB, opts *Options) *Intake {
	o := opts.withDefaults()
	return &Intake{db: db, o: o, log: o.Logger.With("component", "inbox", "mailbox", o.Mailbox), kick: make(chan struct{}, 1)}
}

// PollNow asks Run to poll the mailbox at once rather than at the next
// announcement or poll interval (the turn runner asks at a deadline, so
// that every mail that reached the server before it is taken in). It does
// not wait.
func (in *Intake) PollNow() {
	select {
	case in.kick <- struct{}{}:
	default:
	}
}

// Run serves the mailbox until ctx ends, and then returns ctx.Err(). It
// handles mail left stored by an earlier run first (that needs no server),
// then connects, polls, and waits for news with IDLE (or sleeps) for at most
// PollInterval before polling again. When the connection fails it waits and
// reconnects, backing off from BackoffInitial to BackoffMax; a bad option is
// returned at once.
func (in *Intake) Run(ctx context.Context) error {
	if err := in.o.check(); err != nil {
		return err
	}
	failures := 0
	for {
		if err := in.handlePending(ctx); err != nil && ctx.Err() == nil {
			in.log.Warn("handling stored mail failed; will try again", "err", err)
		}
		healthy, err := in.serve(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if healthy {
			failures = 0
		}
		failures++
		wait := backoff.Delay("imap "+in.o.Addr, failures, in.o.BackoffInitial, in.o.BackoffMax)
		in.log.Warn("IMAP connection ended; reconnecting", "err", err, "in", wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// serve runs one connection: poll, wait, poll… until something fails.
// healthy reports whether at least one poll completed.
func (in *Intake) serve(ctx context.Context) (healthy bool, err error) {
	s, err := dial(ctx, &in.o)
	if err != nil {
		return false, err
	}
	defer s.logout()
	in.prepare(s)
	useIdle := !in.o.DisableIDLE && s.caps.Has(imap.CapIdle)
	in.log.Info("connected", "server", in.o.Addr, "idle", useIdle, "move", s.canMove, "uidplus", s.canUIDPlus)
	for {
		if err := in.poll(ctx, s); err != nil {
			return healthy, err
		}
		healthy = true
		if useIdle {
			err = s.idle(ctx, in.o.PollInterval, in.kick)
		} else {
			t := time.NewTimer(in.o.PollInterval)
			select {
			case <-ctx.Done():
				err = ctx.Err()
			case <-s.c.Closed():
				err = errors.New("inbox: the server closed the connection")
			case <-in.kick:
			case <-t.C:
			}
			t.Stop()
		}
		if err != nil {
			return healthy, err
		}
	}
}

// PollOnce connects, reads every new mail into the store, handles what is
// stored, moves (or flags) what is handled, and logs out. It is Run's work
// done once, without waiting or retrying.
func (in *Intake) PollOnce(ctx context.Context) error {
	if err := in.o.check(); err != nil {
		return err
	}
	if err := in.handlePending(ctx); err != nil {
		var he hookError
		if errors.As(err, &he) || ctx.Err() != nil {
			return err
		}
		in.log.Warn("handling stored mail failed; will try again", "err", err)
	}
	s, err := dial(ctx, &in.o)
	if err != nil {
		return err
	}
	defer s.logout()
	in.prepare(s)
	return in.poll(ctx, s)
}

// prepare makes sure the processed mailbox exists where mail can be moved.
func (in *Intake) prepare(s *session) {
	if s.canMove || s.canUIDPlus {
		s.processed = s.ensureProcessed(in.o.ProcessedMailbox)
	}
}

// poll is one pass over the mailbox; see the package comment for the steps
// and why they are safe to interrupt anywhere.
func (in *Intake) poll(ctx context.Context, s *session) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	// Every mail that reached the server before this instant is in the
	// listing below (its FETCH comes after it).
	listedAt := in.o.Now()
	sel, err := s.selectMailbox(in.o.Mailbox)
	if err != nil {
		return err
	}
	uv := sel.UIDValidity
	if err := in.noteUIDValidity(ctx, uv); err != nil {
		return err
	}
	last, err := in.lastUID(ctx, uv)
	if err != nil {
		return err
	}
	var news []newMessage
	if sel.NumMessages > 0 {
		if news, err = s.newMessages(imap.UID(last)); err != nil {
			return err
		}
	}
	// New mail is taken in bounded batches, each stored in one transaction
	// and handled before the next is fetched: a burst is being answered
	// while the rest of it is still on the server, and at most one large
	// mail is in memory at a time.
	for first := true; first || len(news) > 0; first = false {
		n, size := 0, int64(0)
		for n < len(news) && n < intakeBatch && (n == 0 || size+news[n].size <= intakeBatchBytes) {
			size += news[n].size
			n++
		}
		if err := in.intakeBatch(ctx, s, uv, news[:n], s.listed); err != nil {
			return err
		}
		news = news[n:]
		if err := in.handleStored(ctx); err != nil {
			var he hookError
			if errors.As(err, &he) {
				return err
			}
			// Mail handled before the failure can still be moved.
			in.log.Warn("handling stored mail failed; will try again at the next poll", "err", err)
			break
		}
	}
	// Everything that reached the server before listedAt is stored now.
	s.listed = listedAt
	if in.o.OnPolled != nil {
		in.o.OnPolled(listedAt)
	}
	return in.moveHandled(ctx, s, uv, keywordAllowed(sel.PermanentFlags, in.o.ProcessedKeyword))
}

func keywordAllowed(perm []imap.Flag, kw string) bool {
	for _, f := range perm {
		if f == imap.FlagWildcard || strings.EqualFold(string(f), kw) {
			return true
		}
	}
	return false
}

// The store keeps the last UIDVALIDITY seen of the mailbox, and the
// watermark per UIDVALIDITY (the highest UID whose message is stored).

// noteUIDValidity records the mailbox's UIDVALIDITY and logs a change.
func (in *Intake) noteUIDValidity(ctx context.Context, uv uint32) error {
	old, ok, err := in.db.UIDValidity(ctx, in.o.Mailbox)
	if err != nil {
		return err
	}
	if ok && old == uv {
		return nil
	}
	if ok {
		in.log.Warn("UIDVALIDITY changed: every message in the mailbox is read again and recognised by its SHA-256; "+
			"none is handled twice", "old", old, "new", uv)
	}
	return in.db.SetUIDValidity(ctx, in.o.Mailbox, uv)
}

func (in *Intake) lastUID(ctx context.Context, uv uint32) (uint32, error) {
	n, _, err := in.db.LastUID(ctx, in.o.Mailbox, uv)
	return n, err
}

// Batches of new mail: at most intakeBatch mails, and at most
// intakeBatchBytes of them unless one mail alone is larger.
const (
	intakeBatch      = 16
	intakeBatchBytes = 1 << 20
)

// fetched is a new mail read from the server, not yet stored.
type fetched struct {
	m          store.Mail
	quarantine string
	gone       bool // expunged before it could be fetched
}

// intakeBatch fetches a batch of new messages and stores them, with the
// watermark, in one transaction. A batch the store refuses (the server
// reused a UID) is stored one mail at a time, so the others still go in.
func (in *Intake) intakeBatch(ctx context.Context, s *session, uv uint32, news []newMessage, listedBefore time.Time) error {
	var batch []fetched
	for _, nm := range news {
		f, err := in.fetchOne(s, uv, nm, listedBefore)
		if err != nil {
			return err
		}
		if !f.gone {
			if err := in.recordArrival(ctx, &f.m); err != nil {
				return err
			}
			if err := in.step(stepFetched, f.m); err != nil {
				return err
			}
		}
		batch = append(batch, f)
	}
	if len(batch) == 0 {
		return nil
	}
	rows, dups, err := in.storeAll(ctx, batch)
	if errors.Is(err, store.ErrConflict) && len(batch) > 1 {
		for _, f := range batch {
			if err := in.intakeOne(ctx, f); err != nil {
				return err
			}
		}
		return nil
	}
	if err != nil {
		return err
	}
	for i, f := range batch {
		if f.gone {
			continue
		}
		if dups[i] == 0 && len(f.m.Raw) <= freshMax {
			if in.fresh == nil {
				in.fresh = map[int64][]byte{}
			}
			in.fresh[rows[i].ID] = f.m.Raw
		}
		in.logStored(rows[i], f, dups[i])
		if err := in.step(stepStored, rows[i]); err != nil {
			return err
		}
	}
	return nil
}

// storeAll is store for a batch, in one transaction; the watermark ends at
// the batch's last UID (gone ones included).
func (in *Intake) storeAll(ctx context.Context, batch []fetched) (rows []store.Mail, dups []int64, err error) {
	err = in.db.Update(ctx, func(tx *store.Tx) error {
		rows, dups = rows[:0], dups[:0]
		for _, f := range batch {
			if f.gone {
				rows, dups = append(rows, store.Mail{}), append(dups, 0)
				continue
			}
			row, dup, err := in.storeTx(ctx, tx, f.m, f.quarantine)
			if err != nil {
				return err
			}
			rows, dups = append(rows, row), append(dups, dup)
		}
		last := batch[len(batch)-1].m
		return tx.SetLastUID(ctx, last.Mailbox, last.UIDValidity, last.UID)
	})
	return rows, dups, err
}

// logStored logs a stored mail.
func (in *Intake) logStored(row store.Mail, f fetched, dupOf int64) {
	log := in.log.With("mail", row.ID, "uid", row.UID, "uidvalidity", row.UIDValidity, "from", row.From, "message_id", row.MessageID, "bytes", len(f.m.Raw))
	switch {
	case f.quarantine != "":
		log.Warn("stored the header of a message over the size limit; the handler answers it")
	case dupOf != 0:
		log.Info("stored a copy of a mail already received; it is not handled again", "duplicate_of", dupOf)
	default:
		log.Info("stored mail")
	}
}

// fetchOne reads one new message from the server (only its header if it is
// over the size limit) and works out when it reached the server
// (arrival.go). listedBefore is the previous listing on this connection,
// which did not hold the message (zero: unknown).
func (in *Intake) fetchOne(s *session, uv uint32, nm newMessage, listedBefore time.Time) (fetched, error) {
	lim := in.o.Limits
	now := in.o.Now()
	m := store.Mail{Mailbox: in.o.Mailbox, UIDValidity: uv, UID: uint32(nm.uid), ReceivedAt: now, FetchedAt: now}
	quarantine := ""
	if nm.size > lim.MaxRawBytes {
		hdr, _, gone, err := s.fetch(nm.uid, true, int64(lim.MaxHeaderBytes))
		if err != nil {
			return fetched{}, err
		}
		if gone {
			return fetched{m: m, gone: true}, nil
		}
		m.Raw = tooLargeMarker(hdr, nm.size, lim.MaxRawBytes)
		quarantine = fmt.Sprintf("message of %d bytes is over the limit of %d bytes; only its header was fetched", nm.size, lim.MaxRawBytes)
	} else {
		raw, tooLarge, gone, err := s.fetch(nm.uid, false, lim.MaxRawBytes)
		if err != nil {
			return fetched{}, err
		}
		if gone {
			return fetched{m: m, gone: true}, nil
		}
		m.Raw = raw
		if tooLarge { // the server understated RFC822.SIZE
			hb, _, _ := splitHeader(raw, lim.MaxHeaderBytes)
			m.Raw = tooLargeMarker(hb, int64(len(raw)), lim.MaxRawBytes)
			quarantine = fmt.Sprintf("message is over the limit of %d bytes (the server said %d); only its header was kept", lim.MaxRawBytes, nm.size)
		}
	}
	m.MessageID, m.From = quickHeader(m.Raw, lim.MaxHeaderBytes)
	m.ReceivedAt, m.ArrivalSource, m.ArrivalNote = ServerReceipt(nm.internal, m.Raw, now)
	if m.ArrivalNote != "" {
		in.log.Warn("the arrival time of a mail is not the server's INTERNALDATE as it stands", "uid", nm.uid,
			"arrival", m.ReceivedAt, "source", m.ArrivalSource, "note", m.ArrivalNote)
	}
	if skew := skewOf(nm.internal, now, listedBefore); skew != 0 {
		in.log.Warn("the mail server's clock differs from this machine's (or it showed a mail late)", "uid", nm.uid,
			"skew", skew.Round(time.Second), "internaldate", nm.internal, "fetched", now, "listed_before", listedBefore)
		if in.o.OnSkew != nil {
			in.o.OnSkew(skew, nm.internal, now)
		}
	}
	return fetched{m: m, quarantine: quarantine}, nil
}

// recordArrival asks the server (Options.Arrival) how m arrived, after its
// bytes were fetched: the message's (mailbox, UIDVALIDITY, UID) is the key,
// and a UID is never reused within a UIDVALIDITY, so the record is of the
// message fetched.
func (in *Intake) recordArrival(ctx context.Context, m *store.Mail) error {
	if in.o.Arrival == nil {
		return nil
	}
	a, err := in.o.Arrival(ctx, m.Mailbox, m.UIDValidity, m.UID)
	if err != nil {
		return fmt.Errorf("inbox: reading how UID %d arrived: %w", m.UID, err)
	}
	m.Arrival = a
	return nil
}

// intakeOne stores one fetched message, with the watermark, in one
// transaction.
func (in *Intake) intakeOne(ctx context.Context, f fetched) error {
	m, quarantine, uv := f.m, f.quarantine, f.m.UIDValidity
	nm := newMessage{uid: imap.UID(m.UID), size: int64(len(m.Raw))}
	if f.gone {
		return in.skipGone(ctx, uv, nm.uid)
	}
	row, dupOf, err := in.store(ctx, m, quarantine)
	if errors.Is(err, store.ErrConflict) {
		// The server reused a UID within one UIDVALIDITY, which IMAP forbids.
		// The message stays in the mailbox untouched for the referee.
		in.log.Error("the server reused a UID for a different message; it is left in the mailbox, unread by pbem",
			"uid", nm.uid, "uidvalidity", uv, "err", err)
		return in.db.SetLastUID(ctx, in.o.Mailbox, uv, uint32(nm.uid))
	}
	if err != nil {
		return err
	}
	in.logStored(row, f, dupOf)
	return in.step(stepStored, row)
}

// skipGone moves the watermark past a message that vanished between the
// listing and the fetch (expunged by someone else).
func (in *Intake) skipGone(ctx context.Context, uv uint32, uid imap.UID) error {
	in.log.Info("message vanished before it was fetched", "uid", uid, "uidvalidity", uv)
	return in.db.SetLastUID(ctx, in.o.Mailbox, uv, uint32(uid))
}

// store saves the mail and the watermark in one transaction. Mail whose
// bytes are already stored (the same mail delivered twice, or found again
// after a UIDVALIDITY change) is stored as ignored, so its handler never
// runs; dupOf names the earlier row.
func (in *Intake) store(ctx context.Context, m store.Mail, quarantine string) (row store.Mail, dupOf int64, err error) {
	err = in.db.Update(ctx, func(tx *store.Tx) error {
		if row, dupOf, err = in.storeTx(ctx, tx, m, quarantine); err != nil {
			return err
		}
		return tx.SetLastUID(ctx, m.Mailbox, m.UIDValidity, m.UID)
	})
	return row, dupOf, err
}

// storeTx is store's work inside a transaction, without the watermark.
func (in *Intake) storeTx(ctx context.Context, tx *store.Tx, m store.Mail, quarantine string) (row store.Mail, dupOf int64, err error) {
	sum := store.SHA256Hex(m.Raw)
	err = func() error {
		prior, err := tx.MailBySHA256(ctx, sum)
		if err != nil {
			return err
		}
		var inserted bool
		row, inserted, err = tx.StoreMail(ctx, m)
		if err != nil {
			return err
		}
		if inserted {
			for _, p := range prior {
				if p.ID != row.ID {
					dupOf = p.ID
					break
				}
			}
			switch {
			case dupOf != 0:
				note := fmt.Sprintf("same bytes as mail %d (mailbox %s, UIDVALIDITY %d, UID %d)", dupOf,
					prior[0].Mailbox, prior[0].UIDValidity, prior[0].UID)
				if err := tx.SetMailStatus(ctx, row.ID, store.MailIgnored, "duplicate", note); err != nil {
					return err
				}
				row.Status, row.Classification, row.Error = store.MailIgnored, "duplicate", note
			}
		}
		return nil
	}()
	return row, dupOf, err
}

// NotFetched reports whether raw is the marker the intake stores for a
// message over the size limit (only its header fetched), with the message's
// size and the limit. The handler gets such a marker like any mail, so that
// it can tell a registered sender why nothing was read.
func NotFetched(raw []byte) (size, limit int64, ok bool) {
	hb, _, err := splitHeader(raw, len(raw))
	if err != nil {
		return 0, 0, false
	}
	const key = "\nX-Pbem-Not-Fetched: "
	i := bytes.Index(append([]byte{'\n'}, hb...), []byte(key))
	if i < 0 {
		return 0, 0, false
	}
	line := hb[i+len(key)-1:]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if _, err := fmt.Sscanf(string(bytes.TrimSpace(line)), "%d bytes, over the limit of %d", &size, &limit); err != nil {
		return 0, 0, false
	}
	return size, limit, true
}

// tooLargeMarker is what is stored for a message over the size limit: its
// header (as much as was fetched, cut at a line end), a header saying what
// happened, and a one-line body.
func tooLargeMarker(hdr []byte, size, limit int64) []byte {
	if i := bytes.Index(hdr, []byte("\n\r\n")); i >= 0 {
		hdr = hdr[:i+1]
	} else if i := bytes.Index(hdr, []byte("\n\n")); i >= 0 {
		hdr = hdr[:i+1]
	} else if i := bytes.LastIndexByte(hdr, '\n'); i >= 0 {
		hdr = hdr[:i+1]
	} else {
		hdr = nil
	}
	var b bytes.Buffer
	b.Write(hdr)
	fmt.Fprintf(&b, "X-Pbem-Not-Fetched: %d bytes, over the limit of %d\r\n\r\n", size, limit)
	fmt.Fprintf(&b, "[pbem: this message was %d bytes, over the limit of %d bytes; only its header was fetched.]\r\n", size, limit)
	return b.Bytes()
}

// quickHeader reads Message-ID and the first From address from raw's
// header, for the store's columns; the full reading is Extract's.
func quickHeader(raw []byte, max int) (messageID, from string) {
	defer func() {
		if recover() != nil {
			messageID, from = "", ""
		}
	}()
	hb, _, err := splitHeader(raw, max)
	if err != nil {
		return "", ""
	}
	h, _ := parseHeader(hb, nil)
	messageID = clip(msgID(h.get("Message-Id")), 998)
	if v := h.get("From"); v != "" {
		if addrs, err := parseAddressList(v); err == nil && len(addrs) > 0 {
			from = strings.ToLower(addrs[0])
		} else {
			from = clip(v, 320)
		}
	}
	return messageID, from
}

// handlePending is handleStored outside a poll: mail left stored by an
// earlier run is handled before the server is even reached.
func (in *Intake) handlePending(ctx context.Context) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.handleStored(ctx)
}

// freshMax is the largest mail whose bytes a poll keeps for its handler
// (Intake.fresh). Order sheets are a few kilobytes.
const freshMax = 256 << 10

// handleStored runs the Handler for every stored mail, oldest first. It
// stops at the first failure, so mail is handled in arrival order. The
// caller holds in.mu, so the Handler never runs twice at once.
//
// The mail is listed without its bytes; each mail's are those the poll just
// fetched (Intake.fresh) or, for mail stored earlier, read from the store
// when its turn comes — so that a backlog of large mail after a restart is
// never in memory at once.
func (in *Intake) handleStored(ctx context.Context) error {
	defer clear(in.fresh)
	rows, err := in.db.MailHeadsByStatus(ctx, store.MailStored)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Raw = in.fresh[rows[i].ID]
	}
	if in.o.BatchHandler != nil && len(rows) > 1 {
		err := in.handleBatch(ctx, rows)
		in.maskHandled(ctx, rows)
		return err
	}
	for _, m := range rows {
		if m.Raw == nil {
			if m, err = in.db.Mail(ctx, m.ID); err != nil {
				return err
			}
		}
		if err := in.handle(ctx, m); err != nil {
			return err
		}
		in.maskHandled(ctx, []store.Mail{m})
	}
	return nil
}

// handleBatch gives rows to the BatchHandler, then finishes each as handle
// does. On an error or a panic, the mail handled so far is finished, and the
// rest is left to handle (one at a time) at the next try.
func (in *Intake) handleBatch(ctx context.Context, rows []store.Mail) (err error) {
	herr := func() (herr error) {
		defer func() {
			if p := recover(); p != nil {
				in.log.Error("the batch handler panicked; its mail is handled one at a time", "panic", p, "stack", string(debug.Stack()))
				herr = fmt.Errorf("inbox: batch handler panicked: %v", p)
			}
		}()
		return in.o.BatchHandler(ctx, rows)
	}()
	for _, m := range rows {
		cur, err := in.db.MailHead(ctx, m.ID)
		if err != nil {
			return err
		}
		if cur.Status == store.MailStored {
			if herr != nil {
				// Handled one at a time from here (a panic quarantines
				// only its own mail).
				for _, rest := range rows {
					if r, err := in.db.MailHead(ctx, rest.ID); err != nil || r.Status != store.MailStored {
						continue
					}
					if rest.Raw == nil {
						var err error
						if rest, err = in.db.Mail(ctx, rest.ID); err != nil {
							return err
						}
					}
					if err := in.handle(ctx, rest); err != nil {
						return err
					}
				}
				return nil
			}
			// The batch handler left it stored without an error: as in
			// handle, it counts as handled.
			if err := in.db.SetMailStatus(ctx, m.ID, store.MailHandled, cur.Classification, cur.Error); err != nil {
				return err
			}
			cur.Status = store.MailHandled
		}
		if err := in.step(stepHandled, cur); err != nil {
			return err
		}
	}
	return nil
}

// handle runs the Handler for one mail, recovering a panic.
func (in *Intake) handle(ctx context.Context, m store.Mail) (err error) {
	log := in.log.With("mail", m.ID, "uid", m.UID, "from", m.From)
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		log.Error("the handler panicked; the mail is quarantined", "panic", p, "stack", string(debug.Stack()))
		text := clip(fmt.Sprintf("handler panicked: %v", p), 1000)
		if serr := in.db.SetMailStatus(ctx, m.ID, store.MailQuarantined, "handler-panic", text); serr != nil && !errors.Is(serr, store.ErrWrongState) {
			err = serr
			return
		}
		err = in.step(stepHandled, m)
	}()
	if err := in.o.Handler(ctx, m); err != nil {
		return fmt.Errorf("inbox: handler for mail %d: %w", m.ID, err)
	}
	cur, err := in.db.MailHead(ctx, m.ID)
	if err != nil {
		return err
	}
	if cur.Status == store.MailStored {
		if err := in.db.SetMailStatus(ctx, m.ID, store.MailHandled, cur.Classification, cur.Error); err != nil {
			return err
		}
		cur.Status = store.MailHandled
	}
	log.Debug("handled", "status", cur.Status, "classification", cur.Classification)
	return in.step(stepHandled, cur)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// hookError is an error from the test hook: a simulated crash, which stops
// the poll wherever it happens.
type hookError struct{ error }

// Unwrap gives the hook's own error.
func (e hookError) Unwrap() error { return e.error }

func (in *Intake) step(name string, m store.Mail) error {
	if in.hook == nil {
		return nil
	}
	if err := in.hook(name, m); err != nil {
		return hookError{err}
	}
	return nil
}
