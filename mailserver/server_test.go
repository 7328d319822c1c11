package mailserver

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// TestSMTPToIMAP follows one order mail the way pbem's intake handles it:
// it arrives by SMTP, is found by UID SEARCH, read with BODY.PEEK (still
// unread), flagged, moved to pbem-processed with COPYUID, and expunged.
func TestSMTPToIMAP(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	mustSend(t, s, "referee@"+testDomain, "Orders Prussia turn 3", "MOVE A1 TO 1203\n")

	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	if caps := c.Caps(); !caps.Has(imap.CapMove) || !caps.Has(imap.CapUIDPlus) || !caps.Has(imap.CapIdle) {
		t.Errorf("CAPABILITY lacks MOVE, UIDPLUS or IDLE: %v", caps)
	}
	sel := selectBox(t, c, "INBOX")
	if sel.NumMessages != 1 || sel.UIDValidity == 0 || sel.UIDNext != 2 {
		t.Fatalf("SELECT INBOX: %d messages, UIDVALIDITY %d, UIDNEXT %d; want 1, non-zero, 2",
			sel.NumMessages, sel.UIDValidity, sel.UIDNext)
	}
	uids := uidSearchAll(t, c)
	if !slices.Equal(uids, []imap.UID{1}) {
		t.Fatalf("UID SEARCH ALL = %v, want [1]", uids)
	}
	unseen, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil || !slices.Equal(unseen.AllUIDs(), []imap.UID{1}) {
		t.Fatalf("UID SEARCH UNSEEN = %v, %v; want [1]", unseen, err)
	}
	subj, err := c.UIDSearch(&imap.SearchCriteria{
		Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "prussia"}},
		Body:   []string{"a1 to 1203"},
	}, nil).Wait()
	if err != nil || !slices.Equal(subj.AllUIDs(), []imap.UID{1}) {
		t.Fatalf("UID SEARCH SUBJECT prussia BODY ... = %v, %v; want [1]", subj, err)
	}

	peek := &imap.FetchItemBodySection{Peek: true}
	msg := fetchOne(t, c, 1, &imap.FetchOptions{
		Flags: true, Envelope: true, RFC822Size: true, InternalDate: true,
		BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
		BodySection:   []*imap.FetchItemBodySection{peek},
	})
	body := msg.FindBodySection(peek)
	for _, want := range []string{"Return-Path: <player@example.org>", "Received: from ", "for <referee@pbem.test>",
		"Subject: Orders Prussia turn 3", "MOVE A1 TO 1203\r\n"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("BODY.PEEK[] lacks %q:\n%s", want, body)
		}
	}
	if msg.RFC822Size != int64(len(body)) {
		t.Errorf("RFC822.SIZE %d, body %d bytes", msg.RFC822Size, len(body))
	}
	if msg.Envelope == nil || msg.Envelope.Subject != "Orders Prussia turn 3" ||
		len(msg.Envelope.From) != 1 || msg.Envelope.From[0].Addr() != "player@example.org" {
		t.Errorf("ENVELOPE = %+v", msg.Envelope)
	}
	if bs, ok := msg.BodyStructure.(*imap.BodyStructureSinglePart); !ok || bs.MediaType() != "text/plain" {
		t.Errorf("BODYSTRUCTURE = %#v, want text/plain", msg.BodyStructure)
	}
	if time.Since(msg.InternalDate) > time.Minute {
		t.Errorf("INTERNALDATE %v is not about now", msg.InternalDate)
	}
	if slices.Contains(msg.Flags, imap.FlagSeen) {
		t.Errorf("BODY.PEEK[] set \\Seen: flags %v", msg.Flags)
	}
	if again := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true}); slices.Contains(again.Flags, imap.FlagSeen) {
		t.Errorf("after BODY.PEEK[], flags are %v; want no \\Seen", again.Flags)
	}

	// UID STORE with a custom keyword keeps its spelling.
	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{
		Op: imap.StoreFlagsAdd, Flags: []imap.Flag{"$Pbem-Acknowledged", imap.FlagFlagged},
	}, nil).Close(); err != nil {
		t.Fatalf("UID STORE +FLAGS: %v", err)
	}

	if err := c.Create("pbem-processed", nil).Wait(); err != nil {
		t.Fatalf("CREATE pbem-processed: %v", err)
	}
	st, err := c.Status("pbem-processed", &imap.StatusOptions{UIDValidity: true, NumMessages: true}).Wait()
	if err != nil {
		t.Fatalf("STATUS: %v", err)
	}
	move, err := c.Move(imap.UIDSetNum(1), "pbem-processed").Wait()
	if err != nil {
		t.Fatalf("UID MOVE: %v", err)
	}
	if move.UIDValidity != st.UIDValidity || move.SourceUIDs.String() != "1" || move.DestUIDs.String() != "1" {
		t.Errorf("COPYUID = %d %v %v; want %d 1 1", move.UIDValidity, move.SourceUIDs, move.DestUIDs, st.UIDValidity)
	}
	if left := uidSearchAll(t, c); len(left) != 0 {
		t.Errorf("INBOX after MOVE still has %v", left)
	}

	selectBox(t, c, "pbem-processed")
	moved := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{peek}})
	if got := flagSet(moved.Flags); got != `\Flagged $Pbem-Acknowledged` {
		t.Errorf("flags after MOVE = %q, want %q", got, `\Flagged $Pbem-Acknowledged`)
	}
	if !bytes.Equal(moved.FindBodySection(peek), body) {
		t.Errorf("the moved message's bytes changed")
	}

	// A plain BODY[] fetch does set \Seen.
	read := fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}})
	if !slices.Contains(read.Flags, imap.FlagSeen) {
		t.Errorf("BODY[] fetch returned flags %v; want \\Seen", read.Flags)
	}

	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true,
		Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatalf("STORE \\Deleted: %v", err)
	}
	expunged, err := c.Expunge().Collect()
	if err != nil || !slices.Equal(expunged, []uint32{1}) {
		t.Fatalf("EXPUNGE = %v, %v; want [1]", expunged, err)
	}
	if left := uidSearchAll(t, c); len(left) != 0 {
		t.Errorf("after EXPUNGE the mailbox still has %v", left)
	}
}

// TestIdleWokenBySMTP: a client idling on INBOX hears of an SMTP delivery
// at once.
func TestIdleWokenBySMTP(t *testing.T) {
	s := startServer(t, t.TempDir())
	exists, h := existsWatcher()
	c := dialIMAP(t, s, "referee", "ref-secret", h)
	selectBox(t, c, "INBOX")
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	// No pause here: a delivery that lands before the server has started
	// waiting (TestIdleReportsMailDeliveredBeforeIt) is announced as well.
	start := time.Now()
	mustSend(t, s, "referee@"+testDomain, "wake up", "hello")
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("IDLE woken after %v, want under 1s", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EXISTS during IDLE within 5s of the delivery")
	}
	if err := idle.Close(); err != nil {
		t.Fatalf("DONE: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE ended with %v", err)
	}
}

// TestIdleReportsMailDeliveredBeforeIt: mail delivered after the client's
// last command and before its IDLE is announced as soon as IDLE starts, as
// Dovecot does; otherwise a client that polls and then idles would not hear
// of it until its next poll.
func TestIdleReportsMailDeliveredBeforeIt(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	exists, h := existsWatcher()
	c := dialIMAP(t, s, "referee", "ref-secret", h)
	selectBox(t, c, "INBOX")
	mustSend(t, s, "referee@"+testDomain, "between commands", "hello") // committed before IDLE
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("IDLE did not announce mail delivered just before it")
	}
	if err := idle.Close(); err != nil {
		t.Fatalf("DONE: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE ended with %v", err)
	}
}

// TestRestartKeepsMailAndUIDs: a new server on the same directory serves
// the same mailboxes with the same UIDVALIDITY and UIDs, flags and keywords
// intact, and never reuses an expunged UID.
func TestRestartKeepsMailAndUIDs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()

	s1 := startServer(t, dir)
	for i := range 3 {
		if err := s1.Deliver(ctx, "referee", []byte("Subject: m"+string(rune('1'+i))+"\n\nbody\n")); err != nil {
			t.Fatal(err)
		}
	}
	c := dialIMAP(t, s1, "referee", "ref-secret", nil)
	before := selectBox(t, c, "INBOX")
	if err := c.Create("pbem-processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	procBefore, err := c.Status("pbem-processed", &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd,
		Flags: []imap.Flag{imap.FlagSeen, "Turn3"}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(3), &imap.StoreFlags{Op: imap.StoreFlagsAdd,
		Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.UIDExpunge(imap.UIDSetNum(3)).Close(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := s1.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s2 := startServer(t, dir)
	c2 := dialIMAP(t, s2, "referee", "ref-secret", nil)
	after := selectBox(t, c2, "INBOX")
	if after.UIDValidity != before.UIDValidity {
		t.Errorf("UIDVALIDITY changed across restart: %d → %d", before.UIDValidity, after.UIDValidity)
	}
	if after.UIDNext != 4 {
		t.Errorf("UIDNEXT after restart = %d, want 4 (UID 3 was used)", after.UIDNext)
	}
	if uids := uidSearchAll(t, c2); !slices.Equal(uids, []imap.UID{1, 2}) {
		t.Errorf("UIDs after restart = %v, want [1 2]", uids)
	}
	if got := flagSet(fetchOne(t, c2, 1, &imap.FetchOptions{Flags: true}).Flags); got != `\Seen Turn3` {
		t.Errorf("flags after restart = %q, want %q", got, `\Seen Turn3`)
	}
	procAfter, err := c2.Status("pbem-processed", &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil || procAfter.UIDValidity != procBefore.UIDValidity {
		t.Errorf("pbem-processed after restart: %+v, %v; want UIDVALIDITY %d", procAfter, err, procBefore.UIDValidity)
	}

	mustSend(t, s2, "referee@"+testDomain, "after restart", "new")
	if uids := uidSearchAll(t, c2); !slices.Equal(uids, []imap.UID{1, 2, 4}) {
		t.Errorf("UIDs after a new delivery = %v, want [1 2 4]", uids)
	}
}

// TestUIDValidityOfRecreatedMailbox: deleting a mailbox and creating it
// again must give clients a new UIDVALIDITY, so they drop cached UIDs.
func TestUIDValidityOfRecreatedMailbox(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	seen := map[uint32]bool{}
	for range 3 {
		if err := c.Create("archive/turn1", nil).Wait(); err != nil {
			t.Fatalf("CREATE: %v", err)
		}
		st, err := c.Status("archive/turn1", &imap.StatusOptions{UIDValidity: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if seen[st.UIDValidity] {
			t.Fatalf("UIDVALIDITY %d given twice to archive/turn1", st.UIDValidity)
		}
		seen[st.UIDValidity] = true
		if err := c.Delete("archive/turn1").Wait(); err != nil {
			t.Fatalf("DELETE: %v", err)
		}
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if !slices.Equal(names, []string{"INBOX", "archive"}) {
		t.Errorf("LIST = %v, want [INBOX archive] (the parent made by CREATE stays)", names)
	}
	if err := c.Rename("archive", "old/archive", nil).Wait(); err != nil {
		t.Fatalf("RENAME: %v", err)
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Error("DELETE INBOX succeeded")
	}
	if err := c.Subscribe("old/archive").Wait(); err != nil {
		t.Errorf("SUBSCRIBE: %v", err)
	}
	if _, err := c.Move(imap.UIDSetNum(1), "nowhere").Wait(); err == nil {
		t.Error("MOVE without a selected mailbox succeeded")
	}
	selectBox(t, c, "INBOX")
	if err := s.Deliver(context.Background(), "referee", []byte("Subject: x\n\ny\n")); err != nil {
		t.Fatal(err)
	}
	c.Noop().Wait()
	if _, err := c.Move(imap.UIDSetNum(1), "nowhere").Wait(); imapCode(err) != imap.ResponseCodeTryCreate {
		t.Errorf("MOVE to a missing mailbox: %v, want NO [TRYCREATE]", err)
	}
}

// TestSMTPRefusals: unknown recipients, foreign domains and oversized
// messages are refused with permanent errors; nothing is stored.
func TestSMTPRefusals(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), func(o *Options) { o.MaxMessageBytes = 4096 })
	c, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("player@example.org", nil); err != nil {
		t.Fatal(err)
	}
	for rcpt, code := range map[string]int{
		"nobody@" + testDomain: 550,
		"referee@example.org":  550,
	} {
		err := c.Rcpt(rcpt, nil)
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != code {
			t.Errorf("RCPT TO:<%s> = %v, want %d", rcpt, err, code)
		}
	}
	if err := c.Rcpt("Referee@PBEM.test", nil); err != nil {
		t.Errorf("RCPT TO a known user, other case: %v", err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("Subject: big\r\n\r\n" + strings.Repeat(strings.Repeat("x", 70)+"\r\n", 70)))
	err = w.Close()
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 552 {
		t.Errorf("oversized DATA: %v, want 552", err)
	}

	if err := sendWithGoMail(t, s, "a@example.org", "ghost@"+testDomain, "x", "y"); err == nil {
		t.Error("go-mail to an unknown user succeeded")
	}

	imapC := dialIMAP(t, s, "referee", "ref-secret", nil)
	if n := selectBox(t, imapC, "INBOX").NumMessages; n != 0 {
		t.Errorf("INBOX has %d messages after refused mail", n)
	}
	if err := s.Deliver(context.Background(), "referee", bytes.Repeat([]byte("x"), 5000)); err == nil {
		t.Error("Deliver of an oversized message succeeded")
	}
	if err := s.Deliver(context.Background(), "nobody", []byte("Subject: x\n\ny")); err == nil {
		t.Error("Deliver to an unknown account succeeded")
	}
}

// TestSMTPAuth: AUTH PLAIN with an account's password is accepted on
// loopback, a wrong one refused.
func TestSMTPAuth(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	if err := sendWithGoMail(t, s, "referee@"+testDomain, "prussia@"+testDomain, "ruling", "ok",
		"referee", "ref-secret"); err != nil {
		t.Errorf("send with AUTH PLAIN: %v", err)
	}
	if err := sendWithGoMail(t, s, "referee@"+testDomain, "prussia@"+testDomain, "ruling", "ok",
		"referee", "wrong"); err == nil {
		t.Error("AUTH PLAIN with a wrong password succeeded")
	}
	c := dialIMAP(t, s, "prussia@"+testDomain, "fritz", nil)
	selectBox(t, c, "INBOX")
	msg := fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true, Specifier: imap.PartSpecifierHeader}}})
	if h := msg.BodySection[0].Bytes; !bytes.Contains(h, []byte("with ESMTPA")) {
		t.Errorf("Received header does not record authentication:\n%s", h)
	}
}

// TestIMAPLoginRefused: wrong passwords and unknown users get
// AUTHENTICATIONFAILED.
func TestIMAPLoginRefused(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	for _, up := range [][2]string{{"referee", "nope"}, {"ghost", "x"}, {"prussia", ""}} {
		c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Login(up[0], up[1]).Wait()
		if imapCode(err) != imap.ResponseCodeAuthenticationFailed {
			t.Errorf("LOGIN %s %q: %v, want NO [AUTHENTICATIONFAILED]", up[0], up[1], err)
		}
		c.Close()
	}
}

// TestNonLoopbackRefused: without AllowNonLoopback the server will not
// listen beyond this machine.
func TestNonLoopbackRefused(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:0"} {
		s, err := New(&Options{Dir: t.TempDir(), IMAPAddr: addr, SMTPAddr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Start(context.Background())
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Start with IMAPAddr %s: %v, want a refusal naming loopback", addr, err)
		}
		s.Close()
	}
	if _, err := New(&Options{SMTPAddr: "no-port"}); err == nil {
		t.Error("New accepted a listen address without a port")
	}
}

// TestDirLocked: a second server cannot open a directory in use.
func TestDirLocked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	startServer(t, dir)
	s2, err := New(&Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Open(context.Background()); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second Open: %v, want an in-use error", err)
	}
}

// TestOpenWithoutListening: Open alone serves Deliver and EnsureAccount,
// and what it stored is there for the next Start.
func TestOpenWithoutListening(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	s, err := New(&Options{Dir: dir, Domain: testDomain})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Deliver(ctx, "referee", []byte("x")); err == nil {
		t.Error("Deliver before Open succeeded")
	}
	if err := s.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureAccount(ctx, "austria@"+testDomain, "maria"); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureAccount(ctx, "austria@elsewhere.test", "maria"); err == nil {
		t.Error("EnsureAccount accepted another domain")
	}
	if err := s.Deliver(ctx, "Austria", []byte("Subject: hi\n\nbare LF\n")); err != nil {
		t.Fatal(err)
	}
	if s.IMAPAddr() != "" {
		t.Errorf("IMAPAddr before Start = %q", s.IMAPAddr())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := startServer(t, dir, func(o *Options) { o.Accounts = nil })
	c := dialIMAP(t, s2, "austria", "maria", nil)
	selectBox(t, c, "INBOX")
	peek := &imap.FetchItemBodySection{Peek: true}
	body := fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{peek}}).FindBodySection(peek)
	if !bytes.HasSuffix(body, []byte("Subject: hi\r\n\r\nbare LF\r\n")) || !bytes.HasPrefix(body, []byte("Received: by pbem.test")) {
		t.Errorf("delivered bytes:\n%q", body)
	}
}

// TestSend: the Send helper composes plain text into a proper MIME message
// and passes a ready message through unchanged.
func TestSend(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	login := &Login{User: "prussia", Password: "fritz"}
	if err := SendAs(ctx, s.SMTPAddr(), login, "prussia@"+testDomain, []string{"referee@" + testDomain},
		[]byte("Befehle für Zug 3:\nA1 nach 1203\n")); err != nil {
		t.Fatalf("Send text: %v", err)
	}
	ready := "From: Prussia <prussia@pbem.test>\r\nTo: referee@pbem.test\r\nSubject: as is\r\n\r\nunchanged body\r\n"
	if err := SendAs(ctx, s.SMTPAddr(), login, "prussia@"+testDomain, nil, []byte(ready)); err != nil {
		t.Fatalf("Send message: %v", err)
	}
	if err := SendAs(ctx, s.SMTPAddr(), login, "prussia@"+testDomain, nil, []byte("just text")); err == nil {
		t.Error("Send of text without recipients succeeded")
	}

	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	selectBox(t, c, "INBOX")
	peek := &imap.FetchItemBodySection{Peek: true}
	text := string(fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{peek}}).FindBodySection(peek))
	for _, want := range []string{"Date: ", "Message-ID: <", "From: <prussia@pbem.test>", "To: <referee@pbem.test>",
		"Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: quoted-printable", "Befehle f=C3=BCr Zug 3:"} {
		if !strings.Contains(text, want) {
			t.Errorf("composed message lacks %q:\n%s", want, text)
		}
	}
	passed := fetchOne(t, c, 2, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{peek}}).FindBodySection(peek)
	if !bytes.HasSuffix(passed, []byte("\r\n"+ready)) {
		t.Errorf("ready message was changed:\n%s", passed)
	}
}

// TestDamagedStoreIsRefusedWithAdvice: a mail.db that is not a database, or
// fails integrity_check, is refused with an error that names the file and
// says what to do, and the lock is released so the referee can retry.
func TestDamagedStoreIsRefusedWithAdvice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, damage := range map[string]func(t *testing.T, dir string){
		"not a database": func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, dbFileName), bytes.Repeat([]byte("not sqlite "), 1000), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"index out of step": func(t *testing.T, dir string) {
			s := startServer(t, dir)
			s.Close()
			db, err := sql.Open("sqlite", filepath.Join(dir, dbFileName))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, q := range []string{
				`CREATE TABLE junk (a INTEGER, b INTEGER)`,
				`CREATE INDEX junk_a ON junk(a)`,
				`INSERT INTO junk VALUES (1, 10), (2, 20), (3, 30)`,
				`PRAGMA writable_schema = ON`,
				`UPDATE sqlite_schema SET sql = 'CREATE INDEX junk_a ON junk(b)' WHERE name = 'junk_a'`,
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			damage(t, dir)
			s, err := New(&Options{Dir: dir, Domain: testDomain, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			err = s.Open(ctx)
			if err == nil {
				s.Close()
				t.Fatal("a damaged mail.db was opened")
			}
			for _, want := range []string{filepath.Join(dir, dbFileName), "damaged", "backup", ".recover"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not mention %q:\n%v", want, err)
				}
			}
			t.Logf("the referee reads: %v", err)
			l, err := lockDir(dir)
			if err != nil {
				t.Fatalf("the directory is still locked after the refusal: %v", err)
			}
			l.unlock()
		})
	}
}
