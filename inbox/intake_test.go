package inbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

var ctx = context.Background()

// send posts raw by SMTP to the game's address.
func send(t testing.TB, srv *mailserver.Server, raw []byte) {
	t.Helper()
	if err := mailserver.Send(ctx, srv.SMTPAddr(), "player@example.org", []string{testUser + "@" + testDomain}, raw); err != nil {
		t.Fatal(err)
	}
}

// TestIntakeEmbeddedServer: mail sent by SMTP is fetched, stored, handed to
// the handler once, and moved to the processed mailbox; a second poll finds
// nothing to do.
func TestIntakeEmbeddedServer(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	var sent [][]byte
	for i := range 3 {
		sent = append(sent, testMail(i))
		send(t, srv, sent[i])
	}
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	if got := peek.messages("INBOX"); len(got) != 0 {
		t.Errorf("INBOX still holds %d messages", len(got))
	}
	processed := peek.messages(DefaultProcessedMailbox)
	if len(processed) != 3 {
		t.Fatalf("processed mailbox holds %d messages, want 3", len(processed))
	}
	rows := mailRows(t, db)
	if len(rows) != 3 {
		t.Fatalf("%d mails stored, want 3", len(rows))
	}
	for i, r := range rows {
		if r.Status != store.MailMoved || r.Classification != "orders" {
			t.Errorf("mail %d: status %s, classification %q", r.ID, r.Status, r.Classification)
		}
		if r.From != "player"+fmt.Sprint(i)+"@example.org" || r.MessageID == "" {
			t.Errorf("mail %d: From %q Message-ID %q", r.ID, r.From, r.MessageID)
		}
		// The stored bytes are what the server holds (its Received header
		// on top of what was sent), and what was moved.
		if !bytes.HasSuffix(r.Raw, sent[i]) || !bytes.Equal(r.Raw, processed[i].raw) {
			t.Errorf("mail %d: stored bytes differ from the message", r.ID)
		}
		if hasFlag(processed[i].flags, imap.FlagSeen) {
			t.Errorf("mail %d: fetching set \\Seen (BODY.PEEK expected)", r.ID)
		}
		if n := metaInt(t, db, "test:effects:"+r.SHA256); n != 1 {
			t.Errorf("mail %d: %d effects", r.ID, n)
		}
	}
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if len(c.seen) != 3 {
		t.Errorf("handler called %d times, want 3", len(c.seen))
	}
	// New mail after that is read too.
	send(t, srv, testMail(9))
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if len(c.seen) != 4 || len(peek.messages(DefaultProcessedMailbox)) != 4 {
		t.Errorf("after a fourth mail: %d calls, %d processed", len(c.seen), len(peek.messages(DefaultProcessedMailbox)))
	}
}

// TestIntakeSameMailTwice: the same bytes under a new UID have one effect;
// the same Message-ID with other bytes is a new mail for the handler.
func TestIntakeSameMailTwice(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)

	a := testMail(1)
	peek.append("INBOX", a)
	peek.append("INBOX", a) // same bytes, next UID, same poll
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	peek.append("INBOX", a) // same bytes again, a later poll
	edited := bytes.Replace(a, []byte("A1 MOVE TO 0412"), []byte("A1 MOVE TO 0413"), 1)
	peek.append("INBOX", edited) // same Message-ID, other bytes
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n := effects(t, db, a); n != 1 {
		t.Errorf("same bytes three times: %d effects, want 1", n)
	}
	if n := effects(t, db, edited); n != 1 {
		t.Errorf("same Message-ID, new bytes: %d effects, want 1 (the handler decides)", n)
	}
	rows := mailRows(t, db)
	dups := 0
	for _, r := range rows {
		if r.Classification == "duplicate" {
			dups++
			if r.Status != store.MailMoved || !strings.Contains(r.Error, "same bytes as mail") {
				t.Errorf("duplicate row %+v", r)
			}
		}
	}
	if len(rows) != 4 || dups != 2 {
		t.Errorf("%d rows, %d duplicates; want 4 and 2", len(rows), dups)
	}
	if got := len(peek.messages(DefaultProcessedMailbox)); got != 4 {
		t.Errorf("%d messages moved, want all 4", got)
	}
}

// TestIntakeUIDValidityChange: the mailbox is deleted and made again with
// the same messages (a new UIDVALIDITY): none is handled twice, the new one
// is handled, and a mail handled but not yet moved under the old
// UIDVALIDITY is closed.
func TestIntakeUIDValidityChange(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	opts := testOptions(t, srv.IMAPAddr(), c.handle)
	opts.Mailbox = "orders"
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	peek.create("orders")
	a, b, d := testMail(1), testMail(2), testMail(4)
	peek.append("orders", a)
	peek.append("orders", b)
	in := New(db, opts)
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	oldUV := peek.uidValidity("orders")
	// d is handled, and the intake dies before moving it.
	peek.append("orders", d)
	in.hook = func(step string, m store.Mail) error {
		if step == stepMoved {
			return errCrash
		}
		return nil
	}
	if err := in.PollOnce(ctx); !errors.Is(err, errCrash) {
		t.Fatalf("PollOnce = %v, want the simulated crash", err)
	}
	// Rebuild the mailbox: everything comes back under new UIDs.
	peek.delete("orders")
	peek.create("orders")
	newUV := peek.uidValidity("orders")
	if newUV == oldUV {
		t.Fatalf("UIDVALIDITY did not change (%d)", newUV)
	}
	e := testMail(5)
	for _, raw := range [][]byte{a, b, d, e} {
		peek.append("orders", raw)
	}
	in = New(db, opts)
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	for i, raw := range [][]byte{a, b, d, e} {
		if n := effects(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects, want 1", i, n)
		}
	}
	if len(c.seen) != 4 {
		t.Errorf("handler called %d times, want 4 (a, b, d once each, then e)", len(c.seen))
	}
	if got := peek.messages("orders"); len(got) != 0 {
		t.Errorf("%d messages left in the mailbox", len(got))
	}
	for _, r := range mailRows(t, db) {
		if r.Status != store.MailMoved {
			t.Errorf("mail %d left %s", r.ID, r.Status)
		}
		if r.UIDValidity == oldUV && bytes.Equal(r.Raw, d) && !strings.Contains(r.Error, "UIDVALIDITY changed") {
			t.Errorf("stale row for d not annotated: %q", r.Error)
		}
	}
}

var errCrash = errors.New("simulated crash")

// TestIntakeWithoutMove: a server without MOVE and UIDPLUS (stripped by a
// proxy) gets the mail flagged, never deleted, and the next poll does not
// read it again (the UID n:* quirk filtered).
func TestIntakeWithoutMove(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	px := startProxy(t, srv.IMAPAddr(), "MOVE", "UIDPLUS", "IMAP4rev2")
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, testOptions(t, px.addr(), c.handle))
	for i := range 3 {
		send(t, srv, testMail(i))
	}
	for range 3 {
		if err := in.PollOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	msgs := peek.messages("INBOX")
	if len(msgs) != 3 {
		t.Fatalf("INBOX holds %d messages, want all 3: nothing may be deleted", len(msgs))
	}
	for _, m := range msgs {
		if !hasFlag(m.flags, DefaultProcessedKeyword) || !hasFlag(m.flags, imap.FlagSeen) || hasFlag(m.flags, imap.FlagDeleted) {
			t.Errorf("UID %d flags %v, want %s and \\Seen, not \\Deleted", m.uid, m.flags, DefaultProcessedKeyword)
		}
	}
	if peek.messages(DefaultProcessedMailbox) != nil {
		t.Error("the processed mailbox was created, though nothing can be moved there safely")
	}
	if len(c.seen) != 3 {
		t.Errorf("handler called %d times over 3 polls, want 3", len(c.seen))
	}
	for _, r := range mailRows(t, db) {
		if r.Status != store.MailMoved {
			t.Errorf("mail %d is %s", r.ID, r.Status)
		}
	}
}

// TestIntakeProcessedMailboxCannotBeMade: a processed mailbox the server
// refuses to create: mail is flagged instead and never deleted.
func TestIntakeProcessedMailboxCannotBeMade(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	opts := testOptions(t, srv.IMAPAddr(), c.handle)
	opts.ProcessedMailbox = "bad*name"
	in := New(db, opts)
	send(t, srv, testMail(1))
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	msgs := peek.messages("INBOX")
	if len(msgs) != 1 || !hasFlag(msgs[0].flags, DefaultProcessedKeyword) {
		t.Fatalf("INBOX %+v, want the mail flagged and kept", msgs)
	}
}

// TestIntakeProcessedMailboxDeletedMeanwhile: the processed mailbox vanishes
// between connecting and moving; MOVE answers TRYCREATE and the intake makes
// it again.
func TestIntakeProcessedMailboxDeletedMeanwhile(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	send(t, srv, testMail(1))
	in.hook = func(step string, m store.Mail) error {
		if step == stepHandled {
			peek.delete(DefaultProcessedMailbox)
		}
		return nil
	}
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if got := len(peek.messages(DefaultProcessedMailbox)); got != 1 {
		t.Errorf("processed mailbox holds %d, want 1", got)
	}
}

// TestIntakeMoveOfGoneUIDRefused: after a crash between MOVE and the status
// change, the server answers the repeated MOVE of a UID no longer there with
// NO (as some do); the intake sees the message is gone and marks it moved.
func TestIntakeMoveOfGoneUIDRefused(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	px := startProxy(t, srv.IMAPAddr())
	px.noEmptyMove = true
	db := openStore(t)
	c := &counter{db: db}
	opts := testOptions(t, px.addr(), c.handle)
	sent := [][]byte{testMail(1), testMail(2)}
	for _, raw := range sent {
		send(t, srv, raw)
	}
	in := New(db, opts)
	in.hook = func(step string, m store.Mail) error {
		if step == stepMoved {
			return errCrash
		}
		return nil
	}
	if err := in.PollOnce(ctx); !errors.Is(err, errCrash) {
		t.Fatalf("PollOnce = %v", err)
	}
	if err := New(db, opts).PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if px.refused.Load() == 0 {
		t.Fatal("the repeated MOVE was not refused: the test proved nothing")
	}
	sent = append(sent, testMail(3))
	send(t, srv, sent[2])
	if err := New(db, opts).PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	checkAllOnce(t, db, srv, sent)
}

// TestIntakeStepFailures interrupts the intake after each step of a mail —
// fetched, stored, handled, moved — at the first, second and third mail of a
// poll, and starts a new intake on the same store: every mail has exactly one
// effect and ends moved, and nothing is left behind.
func TestIntakeStepFailures(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	opts := testOptions(t, srv.IMAPAddr(), c.handle)
	var sent [][]byte
	n := 0
	for _, step := range []string{stepFetched, stepStored, stepHandled, stepMoved} {
		for _, at := range []int{1, 2, 3} {
			for range 3 {
				raw := testMail(n)
				n++
				sent = append(sent, raw)
				send(t, srv, raw)
			}
			in := New(db, opts)
			seen := 0
			in.hook = func(s string, m store.Mail) error {
				if s == step {
					if seen++; seen == at {
						return errCrash
					}
				}
				return nil
			}
			if err := in.PollOnce(ctx); !errors.Is(err, errCrash) {
				t.Fatalf("%s at %d: PollOnce = %v, want the crash", step, at, err)
			}
			if err := New(db, opts).PollOnce(ctx); err != nil {
				t.Fatalf("%s at %d: after restart: %v", step, at, err)
			}
		}
	}
	checkAllOnce(t, db, srv, sent)
	t.Logf("%d interruptions, %d mails, %d handler calls: 0 lost, 0 doubled", 12, len(sent), len(c.seen))
}

// checkAllOnce asserts promise 1 for the mail sent: each has one effect,
// each row is moved, INBOX is empty and the processed mailbox holds each
// message once.
func checkAllOnce(t *testing.T, db *store.DB, srv *mailserver.Server, sent [][]byte) {
	t.Helper()
	rows := mailRows(t, db)
	for i, raw := range sent {
		var row *store.Mail
		for j := range rows {
			if bytes.HasSuffix(rows[j].Raw, raw) {
				row = &rows[j]
			}
		}
		if row == nil {
			t.Errorf("mail %d lost: not in the store", i)
			continue
		}
		if n := metaInt(t, db, "test:effects:"+row.SHA256); n != 1 {
			t.Errorf("mail %d: %d effects", i, n)
		}
	}
	for _, r := range rows {
		if r.Status != store.MailMoved {
			t.Errorf("mail %d left %s", r.ID, r.Status)
		}
	}
	peek := dialPeek(t, srv.IMAPAddr(), testUser, testPass)
	if got := peek.messages("INBOX"); len(got) != 0 {
		t.Errorf("%d messages left in INBOX", len(got))
	}
	if got := peek.messages(DefaultProcessedMailbox); len(got) != len(sent) {
		t.Errorf("processed mailbox holds %d messages, want %d", len(got), len(sent))
	}
}

// TestIntakeHandlerFailureKeepsOrder: a handler failing on a mail stops the
// mail after it until the next poll, so mail is handled in arrival order.
func TestIntakeHandlerFailureKeepsOrder(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	failures := 2
	c := &counter{db: db}
	first := ""
	c.fail = func(m store.Mail) error {
		if first == "" {
			first = m.SHA256
		}
		if m.SHA256 == first && failures > 0 {
			failures--
			return errors.New("store busy")
		}
		return nil
	}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	var sent [][]byte
	for i := range 3 {
		sent = append(sent, testMail(i))
		send(t, srv, sent[i])
	}
	for range 3 {
		if err := in.PollOnce(ctx); err != nil {
			t.Logf("poll: %v", err)
		}
	}
	// Calls: 1 (fail), 1 (fail), 1, 2, 3: the later mail never jumps ahead.
	var ids []int64
	for _, id := range c.seen {
		if len(ids) == 0 || ids[len(ids)-1] != id {
			ids = append(ids, id)
		}
	}
	if !slices.IsSorted(ids) || len(ids) != 3 {
		t.Errorf("handled in order %v", c.seen)
	}
	checkAllOnce(t, db, srv, sent)
}

// TestIntakeHandlerPanic: a panicking handler quarantines that mail, and
// the others go on.
func TestIntakeHandlerPanic(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	bad := testMail(1)
	c.fail = func(m store.Mail) error {
		if bytes.HasSuffix(m.Raw, bad) {
			panic("checker bug")
		}
		return nil
	}
	in := New(db, testOptions(t, srv.IMAPAddr(), c.handle))
	send(t, srv, bad)
	send(t, srv, testMail(2))
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	rows := mailRows(t, db)
	sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })
	if len(rows) != 2 || rows[0].Classification != "handler-panic" || !strings.Contains(rows[0].Error, "checker bug") ||
		rows[1].Classification != "orders" || rows[0].Status != store.MailMoved || rows[1].Status != store.MailMoved {
		t.Errorf("rows %+v", rows)
	}
}

// TestIntakeTooLarge: a message over the size limit is never fetched whole;
// its header is stored with a marker, quarantined and moved, and the handler
// is not called.
func TestIntakeTooLarge(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	opts := testOptions(t, srv.IMAPAddr(), c.handle)
	opts.Limits.MaxRawBytes = 4096
	in := New(db, opts)
	big := crlf("From: big@example.org\nSubject: map scan\nMessage-ID: <big@example.org>\n\n" + strings.Repeat("0123456789abcdef\n", 2000))
	send(t, srv, big)
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	rows := mailRows(t, db)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Status != store.MailMoved || len(r.Raw) > 4096 ||
		!bytes.Contains(r.Raw, []byte("X-Pbem-Not-Fetched:")) || r.From != "big@example.org" || r.MessageID != "big@example.org" {
		t.Errorf("row %+v (%d raw bytes)", r, len(r.Raw))
	}
	// The handler sees the marker, so that it can tell the sender.
	if len(c.seen) != 1 {
		t.Errorf("handler called %d times for the too-large mail, want once", len(c.seen))
	}
	if size, limit, ok := NotFetched(r.Raw); !ok || limit != 4096 || size <= 4096 {
		t.Errorf("NotFetched = %d, %d, %v", size, limit, ok)
	}
	if _, _, ok := NotFetched([]byte("From: a@b\r\n\r\nX-Pbem-Not-Fetched: 1 bytes, over the limit of 2\r\n")); ok {
		t.Error("NotFetched believed a marker in the body")
	}
	ex, err := Extract(r.Raw, Limits{})
	if err != nil || ex.From != "big@example.org" || ex.Subject != "map scan" {
		t.Errorf("the stored marker does not read: %v %+v", err, ex)
	}
}

// TestIntakeRunIdle: with a poll interval far away, IDLE alone brings new
// mail in. The time from delivery to the handler is measured.
func TestIntakeRunIdle(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	handled := make(chan time.Time, 100)
	c := &counter{db: db}
	opts := testOptions(t, srv.IMAPAddr(), func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- time.Now()
		return err
	})
	opts.PollInterval = time.Minute
	opts.CommandTimeout = 10 * time.Second
	in := New(db, opts)
	runIntake(t, in)
	send(t, srv, testMail(0)) // the first poll at start-up takes it
	<-handled
	var lat []time.Duration
	for i := 1; i <= 20; i++ {
		// No pause: a mail delivered while the intake is still finishing
		// its poll, or between the poll and its IDLE, must be found at once
		// too (the poll interval is a minute away).
		start := time.Now()
		send(t, srv, testMail(i))
		select {
		case at := <-handled:
			lat = append(lat, at.Sub(start))
		case <-time.After(5 * time.Second):
			t.Fatalf("mail %d not handled within 5s: IDLE did not wake the intake", i)
		}
	}
	slices.Sort(lat)
	t.Logf("delivery to handler over IDLE: median %v, max %v (%d mails)", lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), len(lat))
}

// TestIntakeWatchdogSilentConnection: the connection goes silent during
// IDLE (a proxy stops forwarding without closing anything). The watchdog
// closes it when the IDLE ends and the server does not answer DONE, the
// intake reconnects, and new mail is handled within poll interval +
// command timeout + backoff.
func TestIntakeWatchdogSilentConnection(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	px := startProxy(t, srv.IMAPAddr())
	db := openStore(t)
	handled := make(chan struct{}, 10)
	c := &counter{db: db}
	opts := testOptions(t, px.addr(), func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- struct{}{}
		return err
	})
	opts.PollInterval = 500 * time.Millisecond
	opts.CommandTimeout = 500 * time.Millisecond
	runIntake(t, New(db, opts))
	send(t, srv, testMail(0))
	<-handled
	time.Sleep(100 * time.Millisecond) // in IDLE now
	px.stall()
	start := time.Now()
	send(t, srv, testMail(1))
	select {
	case <-handled:
	case <-time.After(5 * time.Second):
		t.Fatal("mail not handled after the connection went silent")
	}
	d := time.Since(start)
	t.Logf("new mail handled %v after the link went silent (poll 500ms + watchdog 500ms + reconnect); %d connections made", d.Round(time.Millisecond), px.accept.Load())
	if px.accept.Load() < 2 {
		t.Error("the intake never reconnected")
	}
}

// TestIntakeConnectionDropped: the server side drops every connection (as a
// BYE at shutdown does); the intake reconnects and goes on.
func TestIntakeConnectionDropped(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	px := startProxy(t, srv.IMAPAddr())
	db := openStore(t)
	handled := make(chan struct{}, 10)
	c := &counter{db: db}
	opts := testOptions(t, px.addr(), func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- struct{}{}
		return err
	})
	opts.PollInterval = time.Minute // only IDLE, or a reconnect's first poll, can find the mail
	runIntake(t, New(db, opts))
	send(t, srv, testMail(0))
	<-handled
	for i := 1; i <= 3; i++ {
		px.drop()
		send(t, srv, testMail(i))
		select {
		case <-handled:
		case <-time.After(5 * time.Second):
			t.Fatalf("drop %d: mail not handled", i)
		}
	}
	if px.accept.Load() < 4 {
		t.Errorf("%d connections for 3 drops", px.accept.Load())
	}
}

func TestOptionsChecked(t *testing.T) {
	t.Parallel()
	db := openStore(t)
	for name, o := range map[string]*Options{
		"no handler":         {Addr: "127.0.0.1:1"},
		"plain over the net": {Addr: "imap.example.org:143", Security: "none", Handler: func(context.Context, store.Mail) error { return nil }},
		"bad address":        {Addr: "nowhere", Handler: func(context.Context, store.Mail) error { return nil }},
		"same mailboxes":     {Addr: "127.0.0.1:1", Mailbox: "X", ProcessedMailbox: "X", Handler: func(context.Context, store.Mail) error { return nil }},
	} {
		if err := New(db, o).PollOnce(ctx); err == nil || !strings.Contains(err.Error(), "bad options") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := New(db, nil).Run(ctx); err == nil {
		t.Error("Run with nil options started")
	}
}
