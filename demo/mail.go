package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// account is one mailbox on the embedded server, used as a mail client
// would: it posts by SMTP (logging in when the server offers AUTH) and reads
// its INBOX by IMAP.
type account struct {
	addr     string // the mail address, also the login
	password string
	smtpAddr string
	imapAddr string

	c    *imapclient.Client
	seen uint32 // messages of INBOX already read (sequence numbers 1..seen)
	msgs []*received
	// archived is how many of msgs have been written out.
	archived int
}

// received is a mail read from a mailbox, parsed.
type received struct {
	Raw       []byte
	MessageID string
	InReplyTo string
	Subject   string
	Text      string // the first text/plain part, decoded
	PDF       []byte // the first application/pdf part, if any
	PDFName   string
}

// send posts a plain-text mail from the account to the game's address and
// returns its Message-ID. The server is logged in to with the account's
// password when it offers AUTH, as a mail client set up for "normal
// password" does.
func (a *account) send(ctx context.Context, to, subject, body string, n int) (string, error) {
	id := fmt.Sprintf("<demo.%d.%s>", n, a.addr)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\nDate: %s\r\n",
		a.addr, to, mime.QEncoding.Encode("utf-8", subject), id, time.Now().UTC().Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.TrimRight(body, "\n")+"\n", "\n", "\r\n"))

	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", a.smtpAddr)
	if err != nil {
		return "", fmt.Errorf("SMTP %s: %w", a.smtpAddr, err)
	}
	dl, _ := ctx.Deadline()
	conn.SetDeadline(dl)
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.Hello("demo.localhost"); err != nil {
		return "", fmt.Errorf("SMTP %s: %w", a.smtpAddr, err)
	}
	if ok, _ := c.Extension("AUTH"); ok {
		if err := c.Auth(sasl.NewPlainClient("", a.addr, a.password)); err != nil {
			return "", fmt.Errorf("SMTP %s: logging in as %s: %w", a.smtpAddr, a.addr, err)
		}
	}
	if err := c.SendMail(a.addr, []string{to}, strings.NewReader(b.String())); err != nil {
		return "", fmt.Errorf("SMTP %s: sending as %s: %w", a.smtpAddr, a.addr, err)
	}
	c.Quit()
	return strings.Trim(id, "<>"), nil
}

// login opens the account's IMAP connection.
func (a *account) login() error {
	c, err := imapclient.DialInsecure(a.imapAddr, nil)
	if err != nil {
		return fmt.Errorf("IMAP %s: %w", a.imapAddr, err)
	}
	if err := c.Login(a.addr, a.password).Wait(); err != nil {
		c.Close()
		return fmt.Errorf("IMAP %s: logging in as %s: %w", a.imapAddr, a.addr, err)
	}
	a.c = c
	return nil
}

func (a *account) close() {
	if a.c != nil {
		a.c.Logout().Wait()
		a.c.Close()
		a.c = nil
	}
}

// fetchNew reads the messages that came since the last call and returns
// them, oldest first (they are kept in a.msgs too).
func (a *account) fetchNew() ([]*received, error) {
	if a.c == nil {
		if err := a.login(); err != nil {
			return nil, err
		}
	}
	sel, err := a.c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		a.close()
		return nil, fmt.Errorf("IMAP %s: %s: %w", a.imapAddr, a.addr, err)
	}
	if sel.NumMessages <= a.seen {
		return nil, nil
	}
	var set imap.SeqSet
	set.AddRange(a.seen+1, sel.NumMessages)
	msgs, err := a.c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		a.close()
		return nil, fmt.Errorf("IMAP %s: %s: %w", a.imapAddr, a.addr, err)
	}
	var out []*received
	for _, m := range msgs {
		for _, b := range m.BodySection {
			r, err := parseMail(b.Bytes)
			if err != nil {
				return nil, fmt.Errorf("%s: a mail that cannot be read: %w", a.addr, err)
			}
			out = append(out, r)
		}
	}
	a.seen = sel.NumMessages
	a.msgs = append(a.msgs, out...)
	return out, nil
}

// waitFor polls the mailbox until a message (new or already read) satisfies
// ok, and returns it.
func (a *account) waitFor(ctx context.Context, what string, ok func(*received) bool) (*received, error) {
	deadline := time.Now().Add(waitLimit)
	for {
		if _, err := a.fetchNew(); err != nil {
			return nil, err
		}
		for _, m := range a.msgs {
			if ok(m) {
				return m, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: no %s came within %v", a.addr, what, waitLimit)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(30 * time.Millisecond):
		}
	}
}

// replyTo waits for the answer to the mail with Message-ID id.
func (a *account) replyTo(ctx context.Context, id string) (*received, error) {
	return a.waitFor(ctx, "answer to "+id, func(m *received) bool { return strings.Contains(m.InReplyTo, id) })
}

// waitLimit bounds each wait for the daemon.
const waitLimit = 30 * time.Second

// parseMail reads a mail's headers, its first text part and its first PDF
// attachment.
func parseMail(raw []byte) (*received, error) {
	r := &received{Raw: raw}
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && mr == nil {
		return nil, err
	}
	r.MessageID = mr.Header.Get("Message-ID")
	r.InReplyTo = mr.Header.Get("In-Reply-To")
	r.Subject, _ = mr.Header.Subject()
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return r, nil // keep what was read; a broken part is skipped
		}
		var ct string
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			ct, _, _ = h.ContentType()
			r.PDFName, _ = h.Filename()
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			continue
		}
		switch {
		case ct == "application/pdf" && r.PDF == nil:
			r.PDF = body
		case (ct == "text/plain" || ct == "") && r.Text == "":
			r.Text = strings.ReplaceAll(string(body), "\r\n", "\n")
		}
	}
	return r, nil
}
