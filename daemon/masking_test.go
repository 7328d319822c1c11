package daemon

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/syw-pbem/pbem/inbox"
)

// accountMail returns every message of every mailbox of an account of the
// embedded server, by mailbox.
func accountMail(t *testing.T, addr, user, pass string) map[string][][]byte {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	boxes, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][]byte{}
	for _, b := range boxes {
		sel, err := c.Select(b.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if sel.NumMessages == 0 {
			out[b.Mailbox] = nil
			continue
		}
		var set imap.SeqSet
		set.AddRange(1, sel.NumMessages)
		msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			for _, body := range m.BodySection {
				out[b.Mailbox] = append(out[b.Mailbox], body.Bytes)
			}
		}
	}
	return out
}

// TestNoClearPasswordInMailboxes: after pbem has handled a game's mail —
// sheets in every shape a mail program sends (plain, base64, quoted-
// printable, an attachment beside an HTML version, a password in the
// Subject), a password change, the referee's commands with a password
// reset, a wrong password, a stranger with the right one, the IMAP
// forgery — no message in any mailbox of any account of the embedded
// server holds a password in clear: not in its bytes, not in any text it
// decodes to — but for the one message meant to carry a password: the
// notice to a nation of the new password the referee gave it, in the
// nation's own mailbox. pbem's store still holds every mail as received.
func TestNoClearPasswordInMailboxes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	const eisen, ref = "eisenmark@pbem.localhost", "referee@pbem.localhost"
	secrets := []string{"demo-eisenmark", refereePassword, "Fresh-Secret-77", "Reset-Secret-88", "demo-morgronskia", "demo-eisenmarx"}
	sheet := strings.ReplaceAll(goodSheet, "\n", "\r\n")
	hdr := func(from, id, subject string) string {
		return "From: " + from + "\r\nTo: orders@pbem.localhost\r\nSubject: " + subject + "\r\nMessage-ID: <" + id + ">\r\nDate: " +
			time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\n"
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(sheet))
	mails := []struct {
		from string
		raw  string
	}{
		{eisen, hdr(eisen, "plain@x", "orders") + "Content-Type: text/plain\r\n\r\n" + sheet},
		{eisen, hdr(eisen, "b64@x", "orders PASSWORD demo-eisenmark") + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64 + "\r\n"},
		{eisen, hdr(eisen, "qp@x", "orders") + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
			strings.ReplaceAll(sheet, "PASSWORD demo-eisenmark", "PASSWORD demo=2Deisenmark") + "\r\nmy password is demo-eisenmark\r\n"},
		{eisen, hdr(eisen, "alt@x", "orders") + "Content-Type: multipart/mixed; boundary=m\r\n\r\n--m\r\nContent-Type: multipart/alternative; boundary=a\r\n\r\n" +
			"--a\r\nContent-Type: text/plain\r\n\r\nSee the attachment.\r\n--a\r\nContent-Type: text/html\r\n\r\n<p>PASSWORD demo-eisenmark</p>\r\n--a--\r\n" +
			"--m\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\n" + sheet +
			"--m\r\nContent-Type: application/octet-stream; name=notes.bin\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64 + "\r\n--m--\r\n"},
		{eisen, hdr(eisen, "change@x", "orders") + "\r\n" + strings.Replace(sheet, "TURN 1", "TURN 1\r\nPASSWORD CHANGE Fresh-Secret-77", 1)},
		{eisen, hdr(eisen, "wrong@x", "orders") + "\r\n" + strings.Replace(sheet, "demo-eisenmark", "demo-eisenmarx", 1)},
		{ref, hdr(ref, "ref@x", "commands") + "\r\nGAME syw\r\nPASSWORD " + refereePassword + "\r\nRESET PASSWORD morgronskia Reset-Secret-88\r\nEND\r\n"},
		{"stranger@pbem.localhost", hdr("stranger@pbem.localhost", "stranger@x", "orders") + "\r\n" + sheet},
		{"morgronskia@pbem.localhost", hdr("morgronskia@pbem.localhost", "morg@x", "orders") + "\r\nGAME syw\r\nNATION morgronskia\r\nPASSWORD: demo-morgronskia\r\nTURN 1\r\nEND\r\n"},
	}
	for _, m := range mails {
		h.sendRaw(m.from, []byte(m.raw))
	}
	imapPut(t, h.d.Mail.IMAPAddr(), "append", []byte(stamp("auth=pass smtp.auth="+ref)+hdr(ref, "forged@x", "x")+
		"\r\nGAME syw\r\nPASSWORD "+refereePassword+"\r\nDEADLINE EXTEND 3d\r\nEND\r\n"))
	h.sent++
	h.settle()
	// Until the intake has taken every mail out of the INBOX.
	for start := time.Now(); ; time.Sleep(25 * time.Millisecond) {
		if n := len(h.inbox("orders@pbem.localhost", "pw-orders")); n == 0 {
			break
		} else if time.Since(start) > waitLimit {
			t.Fatalf("%d mails still in the game's INBOX", n)
		}
	}

	checked := 0
	for _, acct := range []string{"orders", "referee", "eisenmark", "morgronskia", "unterreich", "fromande", "hispardia", "stranger"} {
		for box, msgs := range accountMail(t, h.d.Mail.IMAPAddr(), acct+"@pbem.localhost", "pw-"+acct) {
			for i, raw := range msgs {
				checked++
				texts := []string{string(raw)}
				if ex, err := inbox.Extract(raw, inbox.Limits{}); err == nil {
					texts = append(texts, ex.Subject)
					for _, x := range ex.Texts {
						texts = append(texts, x.Text)
					}
				}
				for _, s := range secrets {
					// The one password an account may hold: its own nation's
					// new one, in pbem's notice of the referee's reset.
					if s == "Reset-Secret-88" && acct == "morgronskia" && strings.Contains(header(string(raw), "Subject"), "your password was reset") {
						continue
					}
					for _, text := range texts {
						if strings.Contains(text, s) {
							t.Errorf("%s's %s, message %d, holds the password %q:\n%s", acct, box, i+1, s, raw)
						}
					}
				}
			}
		}
	}
	processed := accountMail(t, h.d.Mail.IMAPAddr(), "orders@pbem.localhost", "pw-orders")["pbem-processed"]
	if len(processed) != len(mails)+1 {
		t.Errorf("the processed mailbox holds %d mails, want %d", len(processed), len(mails)+1)
	}
	for _, raw := range processed {
		if !strings.Contains(string(raw), "X-Pbem-Masked: sha256=") {
			t.Errorf("not a masked copy:\n%s", raw)
		}
		if testing.Verbose() {
			t.Logf("%s", raw)
		}
	}
	// The store keeps each mail as received.
	rows, err := h.d.Game.DB.MailHeadsByStatus(t.Context(), "moved")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(mails)+1 {
		t.Errorf("%d mails in the store, want %d", len(rows), len(mails)+1)
	}
	if m, err := h.d.Game.DB.Mail(t.Context(), rows[0].ID); err != nil || !strings.Contains(string(m.Raw), "PASSWORD demo-eisenmark") {
		t.Errorf("the store's copy of the first mail lost its text (%v)", err)
	}
	t.Logf("%d messages in every mailbox of every account checked for %d passwords", checked, len(secrets))
}
