//go:build unix

package inbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/store"
)

// Tests against a real Dovecot 2.3, started by the test on loopback ports
// with a configuration in a temporary folder (internal/imaptest), as
// libraries.md describes.

const dovecotMailUser = "orders@pbem.example"

// dovecot is the shared Dovecot harness with the one account the intake
// reads.
type dovecot struct {
	*imaptest.Dovecot
	t testing.TB
}

// dovecotSetup varies the configuration.
type dovecotSetup struct {
	trimCaps bool // advertise neither MOVE nor UIDPLUS
	tls      bool // a self-signed certificate, implicit TLS on imaps and STARTTLS on imap
}

// startDovecot starts Dovecot, or skips the test when it is not installed.
func startDovecot(t testing.TB, setup dovecotSetup) *dovecot {
	t.Helper()
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{
		Users: map[string]string{dovecotMailUser: testPass}, TrimCaps: setup.trimCaps, TLS: setup.tls})
	return &dovecot{Dovecot: d, t: t}
}

func (d *dovecot) imapAddr() string { return d.IMAPAddr() }

// deliver hands raw to the intake's account over LMTP, as a mail server
// would.
func (d *dovecot) deliver(raw []byte) {
	d.t.Helper()
	if err := d.Deliver("player@example.org", dovecotMailUser, raw); err != nil {
		d.t.Fatalf("LMTP delivery: %v", err)
	}
}

// changeUIDValidity gives the intake's INBOX a new UIDVALIDITY.
func (d *dovecot) changeUIDValidity() { d.ChangeUIDValidity(dovecotMailUser) }

func dovecotOptions(t testing.TB, d *dovecot, h Handler) *Options {
	o := testOptions(t, d.imapAddr(), h)
	o.Username = dovecotMailUser
	// Dovecot forks a login process per connection; on a busy two-core
	// machine a TLS handshake has been seen to take seconds.
	o.DialTimeout, o.CommandTimeout = 10*time.Second, 10*time.Second
	return o
}

// TestDovecotIntake: mail delivered over LMTP is fetched, stored, handled
// once and moved to the processed mailbox (made by the intake); under Run,
// IDLE brings the next mails in at once.
func TestDovecotIntake(t *testing.T) {
	t.Parallel() // each its own Dovecot
	// Not parallel: Dovecot picks free ports, and a parallel start could take one first.
	d := startDovecot(t, dovecotSetup{})
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, dovecotOptions(t, d, c.handle))
	var sent [][]byte
	for i := range 3 {
		sent = append(sent, testMail(i))
		d.deliver(sent[i])
	}
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	if got := peek.messages("INBOX"); len(got) != 0 {
		t.Errorf("INBOX holds %d", len(got))
	}
	processed := peek.messages(DefaultProcessedMailbox)
	if len(processed) != 3 {
		t.Fatalf("processed holds %d, want 3", len(processed))
	}
	for i, raw := range sent {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects", i, n)
		}
		if hasFlag(processed[i].flags, imap.FlagSeen) {
			t.Errorf("mail %d was marked \\Seen by fetching", i)
		}
	}

	// Run with the poll a minute away: only IDLE can bring mail in quickly.
	handled := make(chan time.Time, 10)
	opts := dovecotOptions(t, d, func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- time.Now()
		return err
	})
	opts.PollInterval = time.Minute
	runIntake(t, New(db, opts))
	time.Sleep(300 * time.Millisecond)
	var lat []time.Duration
	for i := range 3 {
		start := time.Now()
		d.deliver(testMail(10 + i))
		select {
		case at := <-handled:
			lat = append(lat, at.Sub(start))
		case <-time.After(10 * time.Second):
			t.Fatalf("mail %d not handled within 10s over IDLE", i)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("Dovecot: LMTP delivery to handler over IDLE: %v", lat)
}

// effectsOf finds the stored row holding raw (Dovecot adds headers on top)
// and returns its effect count.
func effectsOf(t testing.TB, db *store.DB, raw []byte) int {
	t.Helper()
	n := 0
	counted := map[string]bool{} // a duplicate row shares its SHA-256, and so its counter
	for _, r := range mailRows(t, db) {
		if bytes.HasSuffix(r.Raw, raw) && !counted[r.SHA256] {
			counted[r.SHA256] = true
			n += metaInt(t, db, "test:effects:"+r.SHA256)
		}
	}
	return n
}

// TestDovecotWithoutMoveAndUIDValidityChange: Dovecot advertising neither
// MOVE nor UIDPLUS gets the mail flagged and never deleted; then INBOX's
// UIDVALIDITY changes under the intake (dovecot-uidlist edited, Dovecot
// restarted): the old mail is recognised by its SHA-256 and not handled
// again, and the new mail is.
func TestDovecotWithoutMoveAndUIDValidityChange(t *testing.T) {
	t.Parallel() // each its own Dovecot
	// Not parallel: Dovecot picks free ports, and a parallel start could take one first.
	d := startDovecot(t, dovecotSetup{trimCaps: true})
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, dovecotOptions(t, d, c.handle))
	a, b := testMail(1), testMail(2)
	d.deliver(a)
	d.deliver(b)
	for range 2 {
		if err := in.PollOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	msgs := peek.messages("INBOX")
	if len(msgs) != 2 {
		t.Fatalf("INBOX holds %d, want both: nothing may be deleted without MOVE or UIDPLUS", len(msgs))
	}
	for _, m := range msgs {
		if !hasFlag(m.flags, DefaultProcessedKeyword) || !hasFlag(m.flags, imap.FlagSeen) || hasFlag(m.flags, imap.FlagDeleted) {
			t.Errorf("UID %d flags %v", m.uid, m.flags)
		}
	}
	if peek.messages(DefaultProcessedMailbox) != nil {
		t.Error("processed mailbox created on a server that cannot move safely")
	}
	oldUV := peek.uidValidity("INBOX")
	peek.c.Close()

	d.changeUIDValidity()
	cc := d.imapAddr()
	peek = dialPeek(t, cc, dovecotMailUser, testPass)
	newUV := peek.uidValidity("INBOX")
	if newUV == oldUV {
		t.Fatalf("UIDVALIDITY still %d", newUV)
	}
	e := testMail(3)
	d.deliver(e)
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	for i, raw := range [][]byte{a, b, e} {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects after the UIDVALIDITY change", i, n)
		}
	}
	if len(c.seen) != 3 {
		t.Errorf("handler called %d times, want 3", len(c.seen))
	}
	dups := 0
	for _, r := range mailRows(t, db) {
		if r.Status != store.MailMoved {
			t.Errorf("mail %d is %s", r.ID, r.Status)
		}
		if r.Classification == "duplicate" {
			dups++
		}
	}
	if dups != 2 {
		t.Errorf("%d duplicates recorded, want 2", dups)
	}
	if got := len(peek.messages("INBOX")); got != 3 {
		t.Errorf("INBOX holds %d, want 3", got)
	}
	t.Logf("UIDVALIDITY %d → %d: 2 old mails recognised by hash, 1 new handled", oldUV, newUV)
}

// TestDovecotReconnect: Dovecot is killed (SIGKILL) and later stopped
// cleanly (BYE) under a running intake, and started again each time; the
// intake reconnects and mail delivered meanwhile is handled.
func TestDovecotReconnect(t *testing.T) {
	t.Parallel() // each its own Dovecot
	// Not parallel: Dovecot picks free ports, and a parallel start could take one first.
	d := startDovecot(t, dovecotSetup{})
	db := openStore(t)
	handled := make(chan struct{}, 10)
	c := &counter{db: db}
	opts := dovecotOptions(t, d, func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- struct{}{}
		return err
	})
	opts.PollInterval = time.Second
	runIntake(t, New(db, opts))
	var sent [][]byte
	deliver := func() {
		raw := testMail(len(sent))
		sent = append(sent, raw)
		d.deliver(raw)
	}
	wait := func(what string) time.Duration {
		start := time.Now()
		select {
		case <-handled:
		case <-time.After(15 * time.Second):
			t.Fatalf("%s: mail not handled", what)
		}
		return time.Since(start)
	}
	deliver()
	wait("first mail")
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		d.Stop(sig)
		time.Sleep(300 * time.Millisecond) // the intake sees the drop and backs off
		d.Start()
		deliver()
		t.Logf("after %v and restart: mail handled in %v", sig, wait(sig.String()).Round(time.Millisecond))
	}
	// A mail is moved out of INBOX after it is handled, and a move the
	// kill cut short is done again after the reconnect: wait for the
	// store to record every move before looking in the mailbox.
	for deadline := time.Now().Add(15 * time.Second); ; {
		moved := 0
		for _, r := range mailRows(t, db) {
			if r.Status == store.MailMoved {
				moved++
			}
		}
		if moved == len(sent) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d mails moved to the processed mailbox after 15 s", moved, len(sent))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A server killed in the middle of a MOVE may have copied the mail
	// without taking it out of INBOX; the intake moves it again after the
	// reconnect, so the processed mailbox may hold a second copy (the mail
	// is acted on once: its effects are counted below).
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	if got := len(peek.messages(DefaultProcessedMailbox)); got < len(sent) || got > len(sent)+2 {
		t.Errorf("processed holds %d, want %d (or one more for each stop that cut a move short)", got, len(sent))
	}
	if got := len(peek.messages("INBOX")); got != 0 {
		t.Errorf("INBOX still holds %d handled mails", got)
	}
	for i, raw := range sent {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects", i, n)
		}
	}
}

// TestDovecotTLS reads mail over implicit TLS (imaps) and over STARTTLS,
// checking the server's certificate, and refuses a certificate it does not
// trust.
func TestDovecotTLS(t *testing.T) {
	t.Parallel() // each its own Dovecot
	// Not parallel: Dovecot picks free ports, and a parallel start could take one first.
	d := startDovecot(t, dovecotSetup{tls: true})
	db := openStore(t)
	c := &counter{db: db}
	for i, sec := range []config.Security{config.SecurityTLS, config.SecuritySTARTTLS} {
		d.deliver(testMail(i))
		o := dovecotOptions(t, d, c.handle)
		o.Security = sec
		o.TLSConfig = &tls.Config{RootCAs: d.Roots()}
		if sec == config.SecurityTLS {
			o.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(d.IMAPSPort()))
		}
		if err := New(db, o).PollOnce(ctx); err != nil {
			t.Fatalf("%s: %v", sec, err)
		}
		if len(c.seen) != i+1 {
			t.Fatalf("%s: %d mails handled, want %d", sec, len(c.seen), i+1)
		}
	}
	o := dovecotOptions(t, d, c.handle)
	o.Security = config.SecurityTLS
	o.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(d.IMAPSPort()))
	err := New(db, o).PollOnce(ctx) // the system roots do not know this certificate
	var ue x509.UnknownAuthorityError
	if !errors.As(err, &ue) {
		t.Errorf("untrusted certificate: err = %v, want an unknown-authority error", err)
	}
}
