package mailserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	gomail "github.com/wneessen/go-mail"
)

// sendTimeout bounds Send when ctx has no deadline.
const sendTimeout = time.Minute

// Login is an account's user name and password for SMTP AUTH PLAIN.
type Login struct {
	User     string
	Password string
}

// Send posts raw to the SMTP server at smtpAddr (host:port) as a mail client
// would, without logging in: EHLO, MAIL FROM:<from>, one RCPT TO per
// address, DATA. This package's server takes such mail only from addresses
// that are not its own accounts (SendAs logs in).
//
// If raw is already a message (its first lines parse as an RFC 5322 header
// that has a From field), it is sent unchanged. Otherwise raw is taken as
// UTF-8 text and sent as the body of a new text/plain message with Date,
// Message-ID, From and To (see ComposeText).
//
// If to is empty, the recipients are taken from the To, Cc and Bcc fields
// of raw (which must then be a message), as "sendmail -t" does.
func Send(ctx context.Context, smtpAddr, from string, to []string, raw []byte) error {
	return SendAs(ctx, smtpAddr, nil, from, to, raw)
}

// SendAs is Send after logging in with AUTH PLAIN as login (nil: no login),
// as a mail client sends through a submission server. It speaks plain SMTP
// without TLS, which suits this package's server on loopback.
func SendAs(ctx context.Context, smtpAddr string, login *Login, from string, to []string, raw []byte) error {
	if _, err := netmail.ParseAddress(from); err != nil {
		return fmt.Errorf("mailserver: sender %q is not a mail address: %w", from, err)
	}
	header, isMessage := parseMessageHeader(raw)
	msg := raw
	if !isMessage {
		if len(to) == 0 {
			return errors.New("mailserver: no recipients: give at least one address to send plain text to")
		}
		var err error
		if msg, err = ComposeText(from, to, "", raw); err != nil {
			return err
		}
	}
	if len(to) == 0 {
		for _, key := range []string{"To", "Cc", "Bcc"} {
			addrs, _ := header.AddressList(key)
			for _, a := range addrs {
				to = append(to, a.Address)
			}
		}
		if len(to) == 0 {
			return errors.New("mailserver: no recipients: the message has no To, Cc or Bcc address and none was given")
		}
	}

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendTimeout)
		defer cancel()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", smtpAddr)
	if err != nil {
		return fmt.Errorf("mailserver: cannot reach the SMTP server at %s: %w", smtpAddr, err)
	}
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	// Closing the connection is what interrupts a blocked read if ctx is
	// cancelled before its deadline.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("mailserver: SMTP server at %s: %w", smtpAddr, err)
	}
	if login != nil {
		if err := c.Auth(sasl.NewPlainClient("", login.User, login.Password)); err != nil {
			return fmt.Errorf("mailserver: SMTP server at %s refused the login as %s: %w", smtpAddr, login.User, err)
		}
	}
	if err := c.Mail(from, nil); err != nil {
		return fmt.Errorf("mailserver: SMTP server at %s refused sender <%s>: %w", smtpAddr, from, err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return fmt.Errorf("mailserver: SMTP server at %s refused recipient <%s>: %w", smtpAddr, rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mailserver: SMTP server at %s: %w", smtpAddr, err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("mailserver: sending to %s: %w", smtpAddr, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mailserver: SMTP server at %s did not accept the message: %w", smtpAddr, err)
	}
	// The message is accepted; a failing QUIT changes nothing.
	c.Quit()
	return nil
}

// parseMessageHeader reports whether raw starts with an RFC 5322 header
// block that has a From field, and returns that header.
func parseMessageHeader(raw []byte) (mail.Header, bool) {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil || !h.Has("From") {
		return mail.Header{}, false
	}
	var mh mail.Header
	mh.Header.Header = h
	return mh, true
}

// ComposeText builds a MIME message (text/plain; charset=utf-8,
// quoted-printable) with Date, Message-ID, From, To and, if subject is not
// empty, Subject, whose body is text.
func ComposeText(from string, to []string, subject string, text []byte) ([]byte, error) {
	m := gomail.NewMsg()
	if err := m.From(from); err != nil {
		return nil, fmt.Errorf("mailserver: sender %q: %w", from, err)
	}
	if err := m.To(to...); err != nil {
		return nil, fmt.Errorf("mailserver: recipients %q: %w", to, err)
	}
	if subject != "" {
		m.Subject(subject)
	}
	m.SetDate()
	domain := "localhost"
	if _, d, ok := cutLast(from, "@"); ok && d != "" {
		domain = strings.Trim(d, "<> ")
	}
	m.SetMessageIDWithValue(strings.ToLower(newID()) + "@" + domain)
	m.SetBodyString(gomail.TypeTextPlain, string(text))
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("mailserver: composing message: %w", err)
	}
	return buf.Bytes(), nil
}
