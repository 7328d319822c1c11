package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/syw-pbem/pbem/store"
)

// TestResendRequeuePassword: RESEND sends Eisenmark's report again under
// its original Message-ID — the embedded server keeps one copy of a mail
// per mailbox, so Eisenmark, who still has it, holds it once, and gets it
// again once it is deleted; REQUEUE sends a mail the outbox had given up
// on, unchanged; PASSWORD
// resets a nation's password, the nation is mailed the new one, the
// referee's answer does not repeat it, and the old one no longer works.
func TestResendRequeuePassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	st, _ := g.State(ctx)
	label := st.Calendar.Label(1)
	h.resolveByMail(label)
	reportID := func() (ids []string) {
		for _, m := range h.inbox("eisenmark@pbem.localhost", "pw-eisenmark") {
			if isReport(label)(string(m)) {
				ids = append(ids, header(string(m), "Message-ID"))
			}
		}
		return ids
	}
	first := reportID()
	if len(first) != 1 {
		t.Fatalf("%d reports before RESEND, want 1", len(first))
	}
	cmd := h.send("referee@pbem.localhost", "resend", "PASSWORD "+refereePassword+"\nRESEND eisenmark 1\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "goes again, the same mail under its Message-ID") {
		t.Fatalf("the answer to RESEND:\n%s", body(ack))
	}
	h.settle()
	if ids := reportID(); len(ids) != 1 || ids[0] != first[0] {
		t.Errorf("after RESEND Eisenmark holds reports %v, want the one he had", ids)
	}
	deleteMail(t, h.d.Mail.IMAPAddr(), "eisenmark@pbem.localhost", "pw-eisenmark", isReport(label))
	cmd = h.send("referee@pbem.localhost", "resend", "PASSWORD "+refereePassword+"\nRESEND eisenmark 1\n")
	h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	h.settle()
	if ids := reportID(); len(ids) != 1 || ids[0] != first[0] {
		t.Errorf("after a RESEND of a report deleted, Eisenmark holds reports %v, want it again", ids)
	}

	// A mail the outbox gave up on: REQUEUE sends it, unchanged.
	rows, _ := g.DB.MessagesInState(ctx, store.OutboxSent)
	var victim store.OutboxMessage
	for _, r := range rows {
		if r.Kind == MailReport && strings.Contains(strings.Join(r.Recipients, ","), "morgronskia") {
			victim = r
		}
	}
	err := g.DB.Update(ctx, func(tx *store.Tx) error {
		if err := tx.Resend(ctx, victim.ID, time.Now().Add(time.Hour)); err != nil {
			return err
		}
		if err := tx.MarkSending(ctx, victim.ID); err != nil {
			return err
		}
		return tx.MarkFailed(ctx, victim.ID, "550 no such user (test)")
	})
	if err != nil {
		t.Fatal(err)
	}
	// It never arrived.
	deleteMail(t, h.d.Mail.IMAPAddr(), "morgronskia@pbem.localhost", "pw-morgronskia", isReport(label))
	before := h.count("morgronskia@pbem.localhost", "pw-morgronskia")
	cmd = h.send("referee@pbem.localhost", "requeue", "PASSWORD "+refereePassword+"\nREQUEUE\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "1 failed mail queued again") {
		t.Fatalf("the answer to REQUEUE:\n%s", body(ack))
	}
	h.settle()
	if n := h.count("morgronskia@pbem.localhost", "pw-morgronskia"); n != before+1 {
		t.Errorf("after REQUEUE Morgronskia holds %d mails, want %d", n, before+1)
	}
	if r, _ := g.DB.OutboxByMessageID(ctx, victim.MessageID); r.State != store.OutboxSent || string(r.Raw) != string(victim.Raw) {
		t.Errorf("the requeued mail is %s; same bytes %v", r.State, string(r.Raw) == string(victim.Raw))
	}

	// PASSWORD: Eisenmark's is reset.
	cmd = h.send("referee@pbem.localhost", "password", "PASSWORD "+refereePassword+"\nRESET PASSWORD eisenmark musket-balls\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "Eisenmark's password is reset") || strings.Contains(body(ack), "musket-balls") {
		t.Fatalf("the answer to PASSWORD (must not repeat it):\n%s", body(ack))
	}
	told, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "password was reset")
	})
	if !strings.Contains(body(told), "PASSWORD musket-balls") {
		t.Fatalf("Eisenmark is not told the new password:\n%s", body(told))
	}
	sheet2 := strings.Replace(goodSheet, "TURN 1", "TURN 2", 1)
	id := h.send("eisenmark@pbem.localhost", "orders", sheet2)
	old, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if strings.Contains(header(old, "Subject"), "orders received") {
		t.Errorf("a sheet with the old password was accepted: %s", header(old, "Subject"))
	}
	id = h.send("eisenmark@pbem.localhost", "orders", strings.Replace(sheet2, "PASSWORD demo-eisenmark", "PASSWORD musket-balls", 1))
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); !strings.Contains(header(ack, "Subject"), "orders received") {
		t.Errorf("a sheet with the new password: %s\n%s", header(ack, "Subject"), body(ack))
	}
}

// deleteMail deletes from an account's INBOX the messages match picks, as
// a mail program does (STORE \Deleted, EXPUNGE).
func deleteMail(t *testing.T, addr, user, pass string, match func(string) bool) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.SeqSet
	all.AddRange(1, 0) // 1:*
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var uids []imap.UID
	for _, m := range msgs {
		for _, b := range m.BodySection {
			if match(string(b.Bytes)) {
				uids = append(uids, m.UID)
			}
		}
	}
	if len(uids) == 0 {
		t.Fatalf("nothing to delete in %s's INBOX", user)
	}
	set := imap.UIDSetNum(uids...)
	if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.UIDExpunge(set).Close(); err != nil {
		t.Fatal(err)
	}
}
