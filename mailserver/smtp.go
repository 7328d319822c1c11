package mailserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// maxRecipients bounds RCPT TO per message.
const maxRecipients = 100

func (s *Server) newSMTPServer() *smtp.Server {
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, conn: c}, nil
	}))
	srv.Domain = s.opts.Domain
	srv.MaxMessageBytes = s.opts.MaxMessageBytes
	srv.MaxRecipients = maxRecipients
	// AUTH PLAIN without TLS: smtpSession.Auth refuses it from a peer that
	// is not loopback unless AllowNonLoopback.
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 5 * time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = printfLogger{s.log.With("protocol", "smtp")}
	srv.Debug = s.opts.Debug
	return srv
}

// smtpSession receives one SMTP connection's mail and delivers it to the
// recipients' INBOXes.
type smtpSession struct {
	srv      *Server
	conn     *smtp.Conn
	from     string
	rcpts    []smtpRecipient
	authUser string
}

type smtpRecipient struct {
	user string // account key
	addr string // as given in RCPT TO
}

var (
	_ smtp.Session     = (*smtpSession)(nil)
	_ smtp.AuthSession = (*smtpSession)(nil)
)

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	if !s.srv.clearTextAllowed(s.conn.Conn().RemoteAddr()) {
		return nil, &smtp.SMTPError{Code: 538, EnhancedCode: smtp.EnhancedCode{5, 7, 11},
			Message: "Clear-text authentication is accepted from loopback only"}
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && !strings.EqualFold(identity, username) {
			return smtp.ErrAuthFailed
		}
		remote := s.conn.Conn().RemoteAddr()
		name, ok, err := s.srv.login(username, password, remote)
		if err != nil {
			return &smtp.SMTPError{Code: 454, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: err.Error()}
		}
		if !ok {
			s.srv.log.Info("SMTP authentication failed", "user", name, "remote", remote.String())
			return smtp.ErrAuthFailed
		}
		s.authUser = name
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	if err := s.checkMailFrom(from); err != nil {
		s.srv.log.Info("SMTP sender refused", "from", from, "user", s.authUser, "remote", s.conn.Conn().RemoteAddr().String())
		return err
	}
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, opts *smtp.RcptOptions) error {
	local, domain, ok := cutLast(to, "@")
	if !ok || !strings.EqualFold(strings.TrimSuffix(domain, "."), s.srv.opts.Domain) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("Relaying denied: this server only takes mail for @%s", s.srv.opts.Domain)}
	}
	name, err := s.srv.localUser(local)
	var known bool
	if err == nil {
		s.srv.mu.RLock()
		known = s.srv.accounts[name] != nil
		s.srv.mu.RUnlock()
	}
	if !known {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message: fmt.Sprintf("No such user here: <%s>", to)}
	}
	for _, r := range s.rcpts {
		if r.user == name {
			return nil // one copy per account
		}
	}
	s.rcpts = append(s.rcpts, smtpRecipient{user: name, addr: to})
	return nil
}

// Data stores one copy per recipient, all in one transaction, and returns
// (so the client gets 250) only once that has committed.
func (s *smtpSession) Data(r io.Reader) error {
	sp, err := s.srv.spool(r)
	if err != nil {
		if errors.Is(err, smtp.ErrDataTooLarge) {
			return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
				Message: fmt.Sprintf("Message too big: this server takes mail up to %d MiB; send the orders as plain text, without large attachments",
					s.srv.opts.MaxMessageBytes>>20)}
		}
		var smtpErr *smtp.SMTPError
		if errors.As(err, &smtpErr) {
			return err
		}
		if errors.Is(err, smtp.ErrTooLongLine) {
			return &smtp.SMTPError{Code: 500, EnhancedCode: smtp.EnhancedCode{5, 5, 2},
				Message: "Line too long; wrap lines or use quoted-printable"}
		}
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Error reading message data"}
	}
	defer sp.close()
	info, err := s.checkHeader(sp.head, sp.whole())
	if err != nil {
		s.srv.log.Info("SMTP message refused", "from", s.from, "user", s.authUser, "err", err)
		return err
	}
	arrival := Arrival{Via: ViaSMTP, Remote: remoteIP(s.conn.Conn().RemoteAddr())}
	if s.authUser != "" {
		arrival.User = s.srv.address(s.authUser)
	}
	key := deliveryKey(arrival.User, info.messageID, sp.sum)

	// route.go: a router may file the message for another account, refuse
	// it, or answer its sender.
	rcpts, replies, refusal := s.route(arrival.User, sp)
	if refusal != nil {
		s.srv.log.Info("SMTP message refused by the router", "from", s.from, "user", s.authUser, "reason", refusal.Message)
		return refusal.smtpError()
	}

	var msgs []newMessage
	var prefixes []string
	now := s.srv.now()
	id := newID()
	s.srv.mu.RLock()
	for _, rc := range rcpts {
		var inbox *mailbox
		if a := s.srv.accounts[rc.user]; a != nil {
			inbox = a.mailboxes[inboxName]
		}
		if inbox == nil {
			s.srv.mu.RUnlock()
			return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 2, 0},
				Message: fmt.Sprintf("Mailbox of <%s> unavailable", rc.addr)}
		}
		msgs = append(msgs, newMessage{mailbox: inbox, date: now, arrival: arrival, dedupe: key})
		prefixes = append(prefixes, s.traceHeaders(rc.addr, id, now))
	}
	for i := range msgs {
		// Stored from the spool a chunk at a time (chunks.go).
		msgs[i].body = spooledContent(prefixes[i], sp, info.drop)
	}
	for _, r := range replies {
		if m, ok := s.srv.routeReply(arrival.User, r, now); ok {
			msgs = append(msgs, m)
		}
	}
	s.srv.mu.RUnlock()

	if err := s.srv.deliverGrouped(context.Background(), msgs); err != nil {
		s.srv.log.Error("SMTP delivery failed", "id", id, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
			Message: "Could not store the message; try again later"}
	}
	s.srv.log.Debug("SMTP delivered", "id", id, "from", s.from, "recipients", len(msgs), "bytes", sp.size)
	return nil
}

// traceHeaders are the Return-Path and Received fields a final-delivery
// server prepends (RFC 5321 section 4.4).
func (s *smtpSession) traceHeaders(rcpt, id string, now time.Time) string {
	helo := s.conn.Hostname()
	if helo == "" {
		helo = "unknown"
	}
	ip := s.conn.Conn().RemoteAddr().String()
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	with := "ESMTP"
	if s.authUser != "" {
		with = "ESMTPA"
	}
	return fmt.Sprintf("Return-Path: <%s>\r\n"+s.authResults()+"Received: from %s ([%s])\r\n\tby %s (pbem mailserver) with %s id %s\r\n\tfor <%s>; %s\r\n",
		s.from, helo, ip, s.srv.opts.Domain, with, id, rcpt, now.Format(time.RFC1123Z))
}

func (s *smtpSession) Reset() {
	s.from = ""
	s.rcpts = nil
}

func (s *smtpSession) Logout() error { return nil }
