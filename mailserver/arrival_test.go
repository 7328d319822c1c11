package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// TestArrivalRecorded: the server records how each message came into its
// mailbox — SMTP logged in as whom, SMTP without a login, IMAP APPEND,
// COPY or MOVE by whom, a local delivery — whatever the message says of
// itself, and keeps the record across a restart.
func TestArrivalRecorded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir)
	ctx := context.Background()
	stampFor := "Authentication-Results: pbem.test; auth=pass smtp.auth=referee@pbem.test\r\n"
	msg := func(from, id string) []byte {
		return []byte(stampFor + "From: " + from + "\r\nTo: prussia@pbem.test\r\nMessage-ID: <" + id + ">\r\nSubject: x\r\n\r\nRESOLVE NOW\r\n")
	}
	referee := &Login{User: "referee@pbem.test", Password: "ref-secret"}
	if err := SendAs(ctx, s.SMTPAddr(), referee, "referee@pbem.test", []string{"prussia@pbem.test"}, msg("referee@pbem.test", "1@x")); err != nil {
		t.Fatal(err)
	}
	if err := Send(ctx, s.SMTPAddr(), "x@example.org", []string{"prussia@pbem.test"}, msg("x@example.org", "2@x")); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	for _, raw := range [][]byte{msg("referee@pbem.test", "3@x"), msg("referee@pbem.test", "4@x")} {
		cmd := c.Append("INBOX", int64(len(raw)), nil)
		cmd.Write(raw)
		cmd.Close()
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Create("Drafts", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	selectBox(t, c, "INBOX")
	if _, err := c.Copy(imap.UIDSetNum(1), "Drafts").Wait(); err != nil { // the referee's, by SMTP
		t.Fatal(err)
	}
	selectBox(t, c, "Drafts")
	if _, err := c.Move(imap.UIDSetNum(1), "INBOX").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := s.Deliver(ctx, "prussia", msg("referee@pbem.test", "6@x")); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"smtp auth=referee@pbem.test remote=127.0.0.1",
		"smtp auth=none remote=127.0.0.1",
		"imap-append user=prussia@pbem.test remote=127.0.0.1",
		"imap-append user=prussia@pbem.test remote=127.0.0.1",
		"imap-move user=prussia@pbem.test remote=127.0.0.1",
		"local",
	}
	check := func(s *Server) {
		t.Helper()
		uv := selectBox(t, dialIMAP(t, s, "prussia", "fritz", nil), "INBOX").UIDValidity
		for i, w := range want {
			a, ok, err := s.ArrivalOf(ctx, "prussia@pbem.test", "inbox", uv, uint32(i+1))
			if err != nil || !ok || a.String() != w {
				t.Errorf("message %d: arrival %q (%v, %v), want %q", i+1, a, ok, err, w)
			}
			if ParseArrival(w) != a {
				t.Errorf("ParseArrival(%q) = %+v, want %+v", w, ParseArrival(w), a)
			}
		}
		if _, ok, _ := s.ArrivalOf(ctx, "prussia", "INBOX", uv+1, 1); ok {
			t.Error("a record under another UIDVALIDITY")
		}
		if _, ok, _ := s.ArrivalOf(ctx, "prussia", "INBOX", uv, 99); ok {
			t.Error("a record for a UID never used")
		}
	}
	check(s)
	c.Logout().Wait()
	s.Close()
	check(startServer(t, dir))
}

// TestOwnAuthResultsRemoved: an Authentication-Results field of the
// server's own id that the client wrote, anywhere in the header and folded
// or not, is removed; the server's own is the only one of its id; another
// server's stays.
func TestOwnAuthResultsRemoved(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	raw := "Authentication-Results: PBEM.test; auth=pass\r\n smtp.auth=referee@pbem.test\r\n" +
		"From: x@example.org\r\nAuthentication-Results: mx.example.org; dkim=pass header.d=example.org\r\n" +
		"Subject: x\r\nauthentication-results: pbem.test.; auth=pass smtp.auth=referee@pbem.test\r\n\r\nbody\r\n"
	if err := Send(context.Background(), s.SMTPAddr(), "x@example.org", []string{"prussia@pbem.test"}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	selectBox(t, c, "INBOX")
	got := string(fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).BodySection[0].Bytes)
	if n := strings.Count(strings.ToLower(got), "authentication-results: pbem.test"); n != 1 {
		t.Errorf("%d Authentication-Results of the server's id, want its own only:\n%s", n, got)
	}
	if !strings.Contains(got, "Authentication-Results: pbem.test; auth=none\r\n") {
		t.Errorf("the server's own is missing:\n%s", got)
	}
	if !strings.Contains(got, "mx.example.org; dkim=pass") || !strings.HasSuffix(got, "Subject: x\r\n\r\nbody\r\n") {
		t.Errorf("the rest of the message changed:\n%s", got)
	}
}

// TestDeliveryIdempotent: the same message sent again by the same login is
// stored once per mailbox; the same Message-ID with other bytes, from
// another login or without a login, is stored again.
func TestDeliveryIdempotent(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	referee := &Login{User: "referee", Password: "ref-secret"}
	prussia := &Login{User: "prussia", Password: "fritz"}
	msg := func(from, id, text string) []byte {
		return []byte("From: " + from + "\r\nTo: prussia@pbem.test, referee@pbem.test\r\nMessage-ID: <" + id + ">\r\n\r\n" + text + "\r\n")
	}
	send := func(login *Login, from string, raw []byte) {
		t.Helper()
		if err := SendAs(ctx, s.SMTPAddr(), login, from, []string{"prussia@pbem.test", "referee@pbem.test"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		send(referee, "referee@pbem.test", msg("referee@pbem.test", "report@pbem.test", "the report"))
	}
	send(referee, "referee@pbem.test", msg("referee@pbem.test", "report@pbem.test", "another text under the same id"))
	send(prussia, "prussia@pbem.test", msg("prussia@pbem.test", "report@pbem.test", "the report"))
	for range 2 {
		send(nil, "x@example.org", msg("x@example.org", "report@pbem.test", "the report"))
	}
	for _, acct := range []struct{ user, pass string }{{"prussia", "fritz"}, {"referee", "ref-secret"}} {
		if n := messageCount(t, s, acct.user, acct.pass); n != 5 {
			t.Errorf("%s holds %d messages, want 5 (one of the three sends, the other text, Prussia's, two without a login)", acct.user, n)
		}
	}
	// Moved out and sent again: stored again (once at a time).
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	selectBox(t, c, "INBOX")
	c.Create("Old", nil).Wait()
	if _, err := c.Move(imap.UIDSetNum(1), "Old").Wait(); err != nil {
		t.Fatal(err)
	}
	send(referee, "referee@pbem.test", msg("referee@pbem.test", "report@pbem.test", "the report"))
	if n := messageCount(t, s, "prussia", "fritz"); n != 5 {
		t.Errorf("after the first copy was moved out and it came again: %d messages, want 5", n)
	}
}

// TestHeaderTooLarge: a header over 256 KiB is refused with 552 whatever
// its shape — one long field, or many short ones — and so is a mail that
// is header only beyond the limit; a large body under a small header is
// not.
func TestHeaderTooLarge(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	for _, c := range []struct {
		name string
		raw  string
		code int
	}{
		{"many short lines", "From: x@example.org\r\n" + strings.Repeat("X-A: b\r\n", 40000) + "\r\nbody\r\n", 552},
		{"one long folded field", "From: x@example.org\r\nX-Long: " + strings.Repeat("word\r\n ", 60000) + "end\r\n\r\nbody\r\n", 552},
		{"no body at all", "From: x@example.org\r\n" + strings.Repeat("X-A: b\r\n", 40000), 552},
		{"a large body", "From: x@example.org\r\n\r\n" + strings.Repeat("line of text\r\n", 100000), 0},
		{"a header just under the limit", "From: x@example.org\r\n" + strings.Repeat("X-A: b\r\n", 32000) + "\r\nbody\r\n", 0},
	} {
		err := Send(ctx, s.SMTPAddr(), "x@example.org", []string{"prussia@pbem.test"}, []byte(c.raw))
		var se *smtp.SMTPError
		switch {
		case c.code == 0 && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.code != 0 && (!errors.As(err, &se) || se.Code != c.code):
			t.Errorf("%s: %v, want %d", c.name, err, c.code)
		}
	}
}

// TestUnreadableFromRefused: a From (or Sender) that cannot be read as an
// address is refused at SMTP with the reason — and as a matter of policy
// (5.7.1) when it names one of the server's accounts in a way pbem would
// not read as that account: a trailing dot, an encoded word.
func TestUnreadableFromRefused(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	referee := &Login{User: "referee", Password: "ref-secret"}
	for _, c := range []struct {
		name  string
		login *Login
		from  string
		field string
		sub   int // the enhanced code's subject: 7 policy, 1 address
		says  string
	}{
		{"trailing dot", nil, "x@example.org", "From: referee@pbem.test.", 7, "referee@pbem.test"},
		{"trailing dot in brackets", nil, "x@example.org", "From: Ref <referee@pbem.test.>", 7, "referee@pbem.test"},
		{"encoded address", nil, "x@example.org", "From: =?utf-8?q?referee=40pbem.test?=", 7, "referee@pbem.test"},
		{"encoded address in base64", nil, "x@example.org", "From: =?utf-8?b?cmVmZXJlZUBwYmVtLnRlc3Q=?=", 7, "referee@pbem.test"},
		{"encoded word as the local part", nil, "x@example.org", "From: =?utf-8?q?referee?=@pbem.test", 7, "<referee@pbem.test>"},
		{"logged in, trailing dot", referee, "referee@pbem.test", "From: referee@pbem.test.", 7, "referee@pbem.test"},
		{"outside, unreadable", nil, "x@example.org", "From: nobody at all", 1, "cannot be read"},
		{"outside, unreadable Sender", nil, "x@example.org", "From: x@example.org\r\nSender: <<>>", 1, "cannot be read"},
	} {
		raw := c.field + "\r\nTo: prussia@pbem.test\r\nSubject: x\r\n\r\nbody\r\n"
		err := SendAs(ctx, s.SMTPAddr(), c.login, c.from, []string{"prussia@pbem.test"}, []byte(raw))
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != 550 || se.EnhancedCode[1] != c.sub || !strings.Contains(se.Message, c.says) {
			t.Errorf("%s: %v, want 550 5.%d.x naming %q", c.name, err, c.sub, c.says)
		}
	}
	if n := messageCount(t, s, "prussia", "fritz"); n != 0 {
		t.Errorf("%d refused messages stored", n)
	}
}

// TestUpgradeSchema1: a store written before the arrival record opens; its
// messages keep everything and have no record (not sent by anyone, as far
// as pbem is concerned).
func TestUpgradeSchema1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbFileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{schema,
		"INSERT INTO meta (key, value) VALUES ('schema_version', 1)",
		"INSERT INTO accounts (id, user) VALUES (1, 'prussia')",
		"INSERT INTO mailboxes (id, account_id, name, uidvalidity, uidnext) VALUES (1, 1, 'INBOX', 7, 2)",
		"INSERT INTO messages (mailbox_id, uid, internal_date, size, raw) VALUES (1, 1, '2026-01-01T00:00:00Z', 9, 'Subject: x')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := startServer(t, dir)
	a, ok, err := s.ArrivalOf(context.Background(), "prussia", "INBOX", 7, 1)
	if err != nil || !ok || a != (Arrival{}) {
		t.Errorf("old message: %+v %v %v", a, ok, err)
	}
	var v int
	s.mu.RLock()
	s.db.QueryRow("SELECT value FROM meta WHERE key = 'schema_version'").Scan(&v)
	s.mu.RUnlock()
	if v != schemaVersion {
		t.Errorf("schema version %d, want %d", v, schemaVersion)
	}
	if n := messageCount(t, s, "prussia", "fritz"); n != 1 {
		t.Errorf("%d messages after the upgrade", n)
	}
}
