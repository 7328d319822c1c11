package outbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"strings"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/internal/mailconn"
)

var (
	errNoSTARTTLS = errors.New("the server does not offer STARTTLS, which is required")
	errNoAuthMech = errors.New("the server offers neither AUTH PLAIN nor AUTH LOGIN")
)

// target is the SMTP server with everything needed to reach it, resolved
// once per pass (so a password file changed on disk is read again).
type target struct {
	addr     string // host:port
	host     string
	security mailconn.Security
	username string
	password mailconn.Password
	tls      *tls.Config
}

// target checks the settings and reads the password. Its errors are about
// configuration: nothing has been tried.
func (o *Outbox) target() (*target, error) {
	s := o.opts.Server
	t := &target{host: s.Host, security: s.Security, username: s.Username}
	if t.host == "" {
		return nil, errors.New("outbox: no SMTP server host is set (mail.smtp.host)")
	}
	port := s.Port
	switch s.Security {
	case mailconn.SecurityTLS:
		if port == 0 {
			port = 465
		}
	case mailconn.SecuritySTARTTLS:
		if port == 0 {
			port = 587
		}
	case mailconn.SecurityNone:
		if port == 0 {
			port = 25
		}
		if !isLoopbackHost(t.host) {
			return nil, fmt.Errorf("outbox: will not send mail to %s without TLS: %w; set mail.smtp.security to tls "+
				"or starttls", t.host, ErrInsecure)
		}
	default:
		return nil, fmt.Errorf("outbox: unknown SMTP security %q; use tls, starttls or none", s.Security)
	}
	t.addr = net.JoinHostPort(t.host, strconv.Itoa(port))
	if t.username != "" {
		if s.Password == nil {
			return nil, fmt.Errorf("outbox: no SMTP password is set for %s", t.username)
		}
		pw, err := s.Password.Value()
		if err != nil {
			return nil, fmt.Errorf("outbox: cannot read the SMTP password for %s: %w", t.username, err)
		}
		t.password = pw
	}
	if s.Security != mailconn.SecurityNone {
		if o.opts.TLSConfig != nil {
			t.tls = o.opts.TLSConfig.Clone()
		} else {
			t.tls = &tls.Config{}
		}
		if t.tls.ServerName == "" {
			t.tls.ServerName = t.host
		}
		if t.tls.MinVersion == 0 {
			t.tls.MinVersion = tls.VersionTLS12
		}
	}
	return t, nil
}

// isLoopbackHost reports whether host names this machine: localhost, a
// name under .localhost (RFC 6761), or a loopback IP address.
func isLoopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// session is an open SMTP connection, kept between the messages of a pass.
type session struct {
	c  *smtp.Client
	nc net.Conn // the connection under c, closed to interrupt it
}

// connect opens a connection, sets up TLS, greets and logs in.
func (o *Outbox) connect(ctx context.Context, t *target) (*session, *Error) {
	dctx, cancel := context.WithTimeout(ctx, o.opts.Timeout)
	defer cancel()
	nc, err := o.opts.Dial(dctx, "tcp", t.addr)
	if err != nil {
		return nil, classify(StageConnect, t.addr, err)
	}
	if t.security == mailconn.SecurityNone {
		// The name was checked; check where it really led, too.
		if ta, ok := nc.RemoteAddr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
			nc.Close()
			return nil, classify(StageConnect, t.addr, fmt.Errorf("%s resolved to %v: %w", t.host, nc.RemoteAddr(), ErrInsecure))
		}
	}
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()

	var c *smtp.Client
	switch t.security {
	case mailconn.SecurityTLS:
		tc := tls.Client(nc, t.tls)
		if err := tc.HandshakeContext(dctx); err != nil {
			nc.Close()
			return nil, classify(StageTLS, t.addr, err)
		}
		nc = tc
		c = smtp.NewClient(tc)
	case mailconn.SecuritySTARTTLS:
		c, err = smtp.NewClientStartTLS(nc, t.tls)
		if err != nil {
			nc.Close()
			if strings.Contains(err.Error(), "doesn't support STARTTLS") {
				err = fmt.Errorf("%w: %v", errNoSTARTTLS, err)
			}
			return nil, classify(StageTLS, t.addr, err)
		}
	default:
		c = smtp.NewClient(nc)
	}
	c.CommandTimeout = o.opts.Timeout
	c.SubmissionTimeout = 2 * o.opts.Timeout
	s := &session{c: c, nc: nc}

	if err := c.Hello(o.opts.HelloName); err != nil {
		s.close()
		stage := StageGreeting
		if t.security == mailconn.SecuritySTARTTLS && isTLSError(err) {
			stage = StageTLS // the handshake after STARTTLS runs with the first EHLO
		}
		return nil, classify(stage, t.addr, err)
	}
	if t.security == mailconn.SecuritySTARTTLS {
		if _, ok := c.TLSConnectionState(); !ok {
			s.close()
			return nil, classify(StageTLS, t.addr, errNoSTARTTLS)
		}
	}
	if t.username != "" {
		var a sasl.Client
		switch {
		case c.SupportsAuth(sasl.Plain):
			a = sasl.NewPlainClient("", t.username, t.password.Reveal())
		case c.SupportsAuth(sasl.Login):
			a = &loginClient{user: t.username, pass: t.password.Reveal()}
		default:
			s.close()
			return nil, classify(StageAuth, t.addr, errNoAuthMech)
		}
		if err := c.Auth(a); err != nil {
			s.close()
			return nil, classify(StageAuth, t.addr, err)
		}
	}
	return s, nil
}

func isTLSError(err error) bool {
	var (
		rhe  tls.RecordHeaderError
		alrt tls.AlertError
		cve  *tls.CertificateVerificationError
	)
	return errors.As(err, &rhe) || errors.As(err, &alrt) || errors.As(err, &cve)
}

// transact runs one mail transaction: MAIL, RCPT for each recipient, DATA
// with raw unchanged. The caller has marked the row sending.
func (s *session) transact(ctx context.Context, server, from string, rcpts []string, raw []byte) *Error {
	stop := context.AfterFunc(ctx, func() { s.nc.Close() })
	defer stop()
	if err := s.c.Mail(from, &smtp.MailOptions{Size: int64(len(raw))}); err != nil {
		return classify(StageMail, server, err)
	}
	for _, r := range rcpts {
		if err := s.c.Rcpt(r, nil); err != nil {
			e := classify(StageRcpt, server, err)
			e.Recipient = r
			return e
		}
	}
	w, err := s.c.Data()
	if err != nil {
		return classify(StageData, server, err)
	}
	if _, err := w.Write(raw); err != nil {
		return classify(StageData, server, err)
	}
	// Closing writes the final dot and reads the reply. A failure here
	// without a reply is ambiguous: the server may have taken the message.
	if _, err := w.CloseWithResponse(); err != nil {
		return classify(StageResult, server, err)
	}
	return nil
}

// recover readies the session for the next transaction after e, and
// reports whether it can be used.
func (s *session) recover(e *Error) bool {
	var se *smtp.SMTPError
	if !errors.As(e.Err, &se) || se.Code == 421 {
		return false
	}
	return s.c.Reset() == nil
}

// quit ends the session politely.
func (s *session) quit() {
	if err := s.c.Quit(); err != nil {
		s.close()
	}
}

func (s *session) close() { s.c.Close() }

// loginClient is SASL LOGIN without an initial response: it answers the
// first challenge ("Username:") with the user name and the second
// ("Password:") with the password, whatever words the server uses.
type loginClient struct {
	user, pass string
	step       int
}

func (a *loginClient) Start() (string, []byte, error) { return sasl.Login, nil, nil }

func (a *loginClient) Next(challenge []byte) ([]byte, error) {
	a.step++
	switch {
	case a.step == 1 && !bytes.Contains(bytes.ToLower(challenge), []byte("pass")):
		return []byte(a.user), nil
	case a.step <= 2:
		a.step = 2
		return []byte(a.pass), nil
	}
	return nil, errors.New("unexpected AUTH LOGIN challenge")
}

// envelopeFrom reads the stored message's From header: the MAIL FROM
// address (and the name, for a report about it).
func envelopeFrom(raw []byte) (*mail.Address, mail.Header, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("reading the stored header: %w", err)
	}
	from, err := msg.Header.AddressList("From")
	if err != nil || len(from) != 1 {
		return nil, msg.Header, fmt.Errorf("the stored From header %q is not one address", msg.Header.Get("From"))
	}
	return from[0], msg.Header, nil
}
