//go:build unix

package imaptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Provider is a mail provider as pbem meets one in external mode, running
// on loopback for a test: a real Dovecot for IMAP (StartDovecot), and in
// front of it an authenticated SMTP submission server (go-smtp, AUTH PLAIN
// over plain loopback) that takes each mail from a logged-in user, stamps
// it as a provider does (Received, Authentication-Results), queues it, and
// delivers it into the recipient's mailbox over Dovecot's LMTP — so the
// mailbox's INTERNALDATE is Dovecot's own delivery time, and Dovecot's LMTP
// adds its Received stamp on top. Mail for a mailbox that cannot take it
// (Dovecot stopped) waits in the queue and is delivered when it can, as a
// provider's queue does.
//
// It is the suite's stand-in for Gmail or Fastmail: the same path pbem
// takes in external mode, end to end, with no network. Tests skip when
// Dovecot is not installed (StartDovecot says how to install it).
type Provider struct {
	*Dovecot
	t      testing.TB
	domain string
	users  map[string]string
	srv    *smtp.Server
	ln     net.Listener

	mu     sync.Mutex
	queue  []queued
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	seq    atomic.Int64
	taken  atomic.Int64 // mails accepted at submission
	stored atomic.Int64 // mails delivered into a mailbox
}

// queued is a mail accepted at submission, not yet in the mailbox.
type queued struct {
	from string
	rcpt []string
	raw  []byte
}

// ProviderOptions set up a Provider.
type ProviderOptions struct {
	// Users maps each account (a full address) to its password: the same
	// login for IMAP and for submission.
	Users map[string]string
	// Domain is the provider's name in its stamps (Received "by", the
	// Authentication-Results authserv-id). Default "provider.test".
	Domain string
}

// StartProvider starts Dovecot and the submission server; both stop when
// the test ends.
func StartProvider(t testing.TB, o ProviderOptions) *Provider {
	t.Helper()
	d := StartDovecot(t, DovecotOptions{Users: o.Users})
	p := &Provider{Dovecot: d, t: t, domain: o.Domain, users: o.Users,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if p.domain == "" {
		p.domain = "provider.test"
	}
	p.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &submission{p: p}, nil
	}))
	p.srv.Domain = p.domain
	p.srv.AllowInsecureAuth = true // loopback only
	p.srv.MaxMessageBytes = 32 << 20
	p.srv.ReadTimeout, p.srv.WriteTimeout = time.Minute, time.Minute
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.ln = ln
	go p.srv.Serve(ln)
	go p.deliverLoop()
	t.Cleanup(func() {
		close(p.stop)
		<-p.done
		p.srv.Close()
	})
	return p
}

// SMTPAddr is the submission server's address, "127.0.0.1:PORT".
func (p *Provider) SMTPAddr() string { return p.ln.Addr().String() }

// SMTPPort is the submission server's port.
func (p *Provider) SMTPPort() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Domain is the provider's name in its stamps (the authserv-id of its
// Authentication-Results).
func (p *Provider) Domain() string { return p.domain }

// Stored counts the mails delivered into mailboxes so far.
func (p *Provider) Stored() int64 { return p.stored.Load() }

// Queued counts the mails accepted at submission and not yet delivered.
func (p *Provider) Queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// Send submits raw as a mail client does: it logs in as from (with the
// password of ProviderOptions.Users), and sends to rcpt.
func (p *Provider) Send(from string, rcpt []string, raw []byte) error {
	c, err := smtp.Dial(p.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if err := c.Auth(sasl.NewPlainClient("", from, p.users[from])); err != nil {
		return err
	}
	if err := c.SendMail(from, rcpt, bytes.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// WaitDelivered waits until no mail waits in the queue (every mail
// accepted so far is in its mailbox), or the context ends.
func (p *Provider) WaitDelivered(ctx context.Context) error {
	for p.Queued() > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("imaptest: %d mail(s) still queued at the provider: %w", p.Queued(), ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// StopIMAP stops Dovecot (IMAP and LMTP alike): mail submitted meanwhile
// waits in the provider's queue. StartIMAP starts it again on the same
// ports, with the same mailboxes.
func (p *Provider) StopIMAP() { p.Dovecot.Stop(syscall.SIGTERM) }

// StartIMAP starts Dovecot again after StopIMAP, and wakes the queue.
func (p *Provider) StartIMAP() {
	p.Dovecot.Start()
	p.kick()
}

func (p *Provider) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// deliverLoop hands queued mail to Dovecot's LMTP, in order, trying again
// every 50 ms while it cannot.
func (p *Provider) deliverLoop() {
	defer close(p.done)
	for {
		p.mu.Lock()
		var next *queued
		if len(p.queue) > 0 {
			next = &p.queue[0]
		}
		p.mu.Unlock()
		wait := time.Hour
		if next != nil {
			if err := p.Deliver(next.from, next.rcpt[0], next.raw); err == nil {
				p.mu.Lock()
				if len(next.rcpt) > 1 {
					p.queue[0].rcpt = p.queue[0].rcpt[1:]
				} else {
					p.queue = p.queue[1:]
				}
				p.mu.Unlock()
				p.stored.Add(1)
				continue
			}
			wait = 50 * time.Millisecond
		}
		select {
		case <-p.stop:
			return
		case <-p.wake:
		case <-time.After(wait):
		}
	}
}

// submission is one client's session with the submission server.
type submission struct {
	p    *Provider
	user string
	from string
	rcpt []string
}

var (
	_ smtp.Session     = (*submission)(nil)
	_ smtp.AuthSession = (*submission)(nil)
)

// AuthMechanisms offers AUTH PLAIN.
func (s *submission) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth checks the login against the provider's users.
func (s *submission) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if pw, ok := s.p.users[username]; !ok || pw != password || (identity != "" && identity != username) {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8},
				Message: "Username and Password not accepted"}
		}
		s.user = username
		return nil
	}), nil
}

// Mail takes the envelope sender: only the logged-in user's own address,
// as providers require.
func (s *submission) Mail(from string, _ *smtp.MailOptions) error {
	if s.user == "" {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	if !strings.EqualFold(from, s.user) {
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("Sender <%s> is not the logged-in user", from)}
	}
	s.from = from
	return nil
}

// Rcpt takes a recipient.
func (s *submission) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpt = append(s.rcpt, to)
	return nil
}

// Data stamps the mail as the provider's and queues it for delivery.
func (s *submission) Data(r io.Reader) error {
	if s.from == "" || len(s.rcpt) == 0 {
		return errors.New("imaptest: DATA before MAIL and RCPT")
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	p := s.p
	id := p.seq.Add(1)
	now := time.Now()
	stamp := fmt.Sprintf("Authentication-Results: %s; auth=pass smtp.auth=%s\r\n"+
		"Received: from client.test ([127.0.0.1]) by %s (pbem test provider) with ESMTPSA id %d\r\n\tfor <%s>; %s\r\n",
		p.domain, s.user, p.domain, id, s.rcpt[0], now.Format(time.RFC1123Z))
	raw := append([]byte(stamp), body...)
	p.mu.Lock()
	p.queue = append(p.queue, queued{from: s.from, rcpt: append([]string(nil), s.rcpt...), raw: raw})
	p.mu.Unlock()
	p.taken.Add(1)
	p.kick()
	return nil
}

// Reset forgets the envelope.
func (s *submission) Reset() { s.from, s.rcpt = "", nil }

// Logout ends the session.
func (s *submission) Logout() error { return nil }
