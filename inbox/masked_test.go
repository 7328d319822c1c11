package inbox

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/store"
)

// maskSesame is a Mask for the tests' sheet, whose password is "sesame".
func maskSesame(_ context.Context, m store.Mail) ([]byte, error) {
	ex, _ := Extract(m.Raw, Limits{})
	return MaskedCopy(m.Raw, ex, func(s string) string { return strings.ReplaceAll(s, "sesame", "****") }, "masked for the test."), nil
}

// checkMasked checks that the processed mailbox holds exactly one masked
// copy of each of n mails, and the INBOX none.
func checkMasked(t *testing.T, peek *imapPeek, n int) {
	t.Helper()
	if got := peek.messages("INBOX"); len(got) != 0 {
		t.Errorf("INBOX holds %d", len(got))
	}
	processed := peek.messages(DefaultProcessedMailbox)
	if len(processed) != n {
		t.Errorf("processed holds %d, want %d", len(processed), n)
	}
	seen := map[string]bool{}
	for _, m := range processed {
		if bytes.Contains(m.raw, []byte("sesame")) || !bytes.Contains(m.raw, []byte("PASSWORD ****")) {
			t.Errorf("not masked:\n%s", m.raw)
		}
		i := bytes.Index(m.raw, []byte("X-Pbem-Masked: sha256="))
		if i < 0 {
			t.Errorf("no X-Pbem-Masked:\n%s", m.raw)
			continue
		}
		key := string(m.raw[i : i+86])
		if seen[key] {
			t.Errorf("two copies of one mail: %s", key)
		}
		seen[key] = true
	}
}

// TestMaskedCopyOverIMAP: on a server with UIDPLUS (here the embedded one,
// spoken to over IMAP only), each handled mail is replaced by its masked
// copy in the processed mailbox; a crash after the originals were expunged
// and before the store heard of it adds no second copy.
func TestMaskedCopyOverIMAP(t *testing.T) {
	t.Parallel()
	srv := startMailServer(t)
	db := openStore(t)
	c := &counter{db: db}
	for i := range 3 {
		send(t, srv, testMail(i))
	}
	o := testOptions(t, srv.IMAPAddr(), c.handle)
	o.Mask = maskSesame
	in := New(db, o)
	crash := errors.New("crash after taking out")
	in.hook = func(step string, m store.Mail) error {
		if step == stepMoved {
			return crash
		}
		return nil
	}
	if err := in.PollOnce(ctx); !errors.Is(err, crash) {
		t.Fatalf("first poll: %v", err)
	}
	in.hook = nil
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	checkMasked(t, dialPeek(t, srv.IMAPAddr(), testUser, testPass), 3)
	for _, r := range mailRows(t, db) {
		if r.Status != store.MailMoved || !bytes.Contains(r.Raw, []byte("PASSWORD sesame")) {
			t.Errorf("mail %d: %s; the store must keep it as received", r.ID, r.Status)
		}
	}
}

// TestDovecotMaskedCopy: the same on Dovecot.
func TestDovecotMaskedCopy(t *testing.T) {
	t.Parallel() // each its own Dovecot
	// Not parallel: Dovecot picks free ports, and a parallel start could take one first.
	d := startDovecot(t, dovecotSetup{})
	db := openStore(t)
	c := &counter{db: db}
	for i := range 3 {
		d.deliver(testMail(i))
	}
	o := dovecotOptions(t, d, c.handle)
	o.Mask = maskSesame
	if err := New(db, o).PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	checkMasked(t, dialPeek(t, d.imapAddr(), dovecotMailUser, testPass), 3)
}

// TestMaskedCopyWithoutUIDPlus: a server that can neither MOVE nor delete
// one message safely keeps the mail as it is (flagged), and the log says so.
func TestMaskedCopyWithoutUIDPlus(t *testing.T) {
	t.Parallel()
	d := startDovecot(t, dovecotSetup{trimCaps: true})
	db := openStore(t)
	c := &counter{db: db}
	d.deliver(testMail(1))
	o := dovecotOptions(t, d, c.handle)
	o.Mask = maskSesame
	log := &testLog{}
	o.Logger = slog.New(slog.NewTextHandler(log, nil))
	if err := New(db, o).PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if got := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass).messages("INBOX"); len(got) != 1 {
		t.Errorf("INBOX holds %d, want the mail, flagged", len(got))
	}
	if !strings.Contains(log.buf.String(), "no UIDPLUS") {
		t.Errorf("the log does not say why the mail keeps its password:\n%s", log.buf.String())
	}
}
