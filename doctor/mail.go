package doctor

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/mailserver"
)

// placeholderPrefix starts the line "pbem init" writes into
// secrets/mail.txt until the referee puts the real password there.
const placeholderPrefix = "REPLACE-WITH-"

// ensureEmbedded starts the embedded server for the checks in mode
// embedded when no "pbem run" serves it already; the returned function
// stops it.
func ensureEmbedded(ctx context.Context, r *report, cfg *config.Config) func() {
	if cfg.Mail.Mode != config.ModeEmbedded {
		return func() {}
	}
	addr := cfg.Mail.Embedded.IMAPListen
	if c, err := net.DialTimeout("tcp", addr, 2*time.Second); err == nil {
		c.Close()
		r.ok("embedded server", "something answers on %s: the checks use it (a running \"pbem run\")", addr)
		return func() {}
	}
	var accounts []mailserver.Account
	for i, a := range cfg.Mail.Embedded.Accounts {
		pw, err := a.Secret.Value()
		if err != nil {
			r.fail("embedded server", ClassConfig, fmt.Sprintf("mail.embedded.accounts[%d] (%s): %v", i, a.User, err), "Give the account a password.")
			return func() {}
		}
		accounts = append(accounts, mailserver.Account{User: a.User, Password: pw.Reveal()})
	}
	ms, err := mailserver.New(&mailserver.Options{
		Dir:      filepath.Join(cfg.Path(cfg.DataDir), "mail"),
		Domain:   cfg.Mail.Embedded.Domain,
		IMAPAddr: cfg.Mail.Embedded.IMAPListen,
		SMTPAddr: cfg.Mail.Embedded.SMTPListen,
		Accounts: accounts,
		Logger:   slog.New(slog.DiscardHandler),
	})
	if err == nil {
		err = ms.Start(ctx)
		if err != nil {
			ms.Close()
		}
	}
	if err != nil {
		class := ClassConfig
		if errors.Is(err, syscall.EADDRINUSE) {
			class = ClassRuntime
		}
		r.fail("embedded server", class, fmt.Sprintf("cannot start it on %s and %s: %v", cfg.Mail.Embedded.IMAPListen, cfg.Mail.Embedded.SMTPListen, err),
			"Free the ports or give others in mail.embedded.imap_listen and smtp_listen.")
		return func() {}
	}
	r.ok("embedded server", "no \"pbem run\" is running: started the embedded server on %s and %s for these checks", ms.IMAPAddr(), ms.SMTPAddr())
	return func() { ms.Close() }
}

// dial connects to an endpoint with its security, returning the
// connection (TLS already negotiated for tls) and a description of the
// protection.
func dial(ctx context.Context, ep config.Endpoint, o Options) (net.Conn, string, error) {
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	if net.ParseIP(ep.Host) == nil {
		// Resolve first, so that a name that cannot be found is told
		// apart from a server that cannot be reached.
		if _, err := o.lookupHost(ctx, ep.Host); err != nil {
			return nil, "", err
		}
	}
	d := net.Dialer{Timeout: 15 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, "", err
	}
	c.SetDeadline(time.Now().Add(o.Timeout))
	if ep.Security != config.SecurityTLS {
		return c, "", nil
	}
	tc := tls.Client(c, tlsConfig(o, ep.Host))
	if err := tc.HandshakeContext(ctx); err != nil {
		c.Close()
		return nil, "", fmt.Errorf("TLS handshake: %w", err)
	}
	return tc, describeTLS(tc.ConnectionState()), nil
}

func tlsConfig(o Options, host string) *tls.Config {
	t := &tls.Config{}
	if o.TLSConfig != nil {
		t = o.TLSConfig.Clone()
	}
	if t.ServerName == "" {
		t.ServerName = host
	}
	return t
}

func describeTLS(st tls.ConnectionState) string {
	s := tls.VersionName(st.Version)
	if len(st.PeerCertificates) > 0 {
		cert := st.PeerCertificates[0]
		s += fmt.Sprintf(", certificate for %s valid until %s", cert.Subject.CommonName, cert.NotAfter.Format("2006-01-02"))
	}
	return s
}

// connectProblem turns a connection error into a line's text and fix.
func connectProblem(ctx context.Context, o Options, proto, key string, ep config.Endpoint, err error) (string, string, int) {
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	var cv *tls.CertificateVerificationError
	var unk x509.UnknownAuthorityError
	var host x509.HostnameError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return dnsProblem(ctx, o, key, ep, dnsErr)
	case errors.As(err, &host):
		return fmt.Sprintf("%s's certificate is not for %s: %v", addr, ep.Host, err), fmt.Sprintf("Use the host name the provider gives in %s.host.", key), ClassConfig
	case errors.As(err, &unk) || errors.As(err, &cv):
		return fmt.Sprintf("%s's certificate is not trusted: %v", addr, err), "Use the provider's documented host name; a self-signed certificate is not accepted.", ClassRuntime
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("nothing accepts connections on %s", addr), fmt.Sprintf("Check %s.host and %s.port (the %s port for security %s).", key, key, proto, ep.Security), ClassRuntime
	case strings.Contains(err.Error(), "TLS handshake") || strings.Contains(err.Error(), "first record does not look like a TLS handshake"):
		return fmt.Sprintf("%s: %v", addr, err), fmt.Sprintf("The port may expect another security: implicit TLS (security: tls) and STARTTLS (security: starttls) use different ports; check %s.port and %s.security.", key, key), ClassConfig
	}
	return fmt.Sprintf("%s: %v", addr, err), fmt.Sprintf("Check %s.host, %s.port and the network.", key, key), ClassRuntime
}

// password reads an endpoint's password, failing the line when it is the
// placeholder "pbem init" wrote.
func password(r *report, check, key string, ep config.Endpoint) (string, bool) {
	pw, err := ep.Password.Value()
	if err != nil {
		r.fail(check, ClassConfig, fmt.Sprintf("%s: %v", key, err), "Give the mail account's password (password_file or password_env).")
		return "", false
	}
	if strings.HasPrefix(pw.Reveal(), placeholderPrefix) {
		// Failed already, before any connection (checkPlaceholders).
		r.skip(check, fmt.Sprintf("the password file %s still holds the placeholder pbem init wrote (see \"mail password\")", ep.Password.PasswordFile))
		return "", false
	}
	return pw.Reveal(), true
}

// imapSession is the logged-in IMAP connection the later checks use.
type imapSession struct {
	conn net.Conn
	c    *imapclient.Client
	caps imap.CapSet
}

func (m *imapSession) close() { m.c.Logout().Wait(); m.c.Close() }

func checkIMAP(ctx context.Context, r *report, cfg *config.Config, o Options) *imapSession {
	ep := cfg.IMAPEndpoint()
	key := "mail.imap"
	if cfg.Mail.Mode == config.ModeEmbedded {
		key = "mail.embedded.imap_listen"
	}
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	conn, tlsText, err := dial(ctx, ep, o)
	if err != nil {
		text, fix, class := connectProblem(ctx, o, "IMAP", key, ep, err)
		r.fail("imap connect", class, text, fix)
		r.skip("imap login", "no connection")
		return nil
	}
	var c *imapclient.Client
	switch ep.Security {
	case config.SecuritySTARTTLS:
		c, err = imapclient.NewStartTLS(conn, &imapclient.Options{TLSConfig: tlsConfig(o, ep.Host)})
		if err != nil {
			conn.Close()
			text, fix, class := connectProblem(ctx, o, "IMAP", key, ep, fmt.Errorf("STARTTLS: %w", err))
			r.fail("imap connect", class, text, fix)
			r.skip("imap login", "no connection")
			return nil
		}
		tlsText = "STARTTLS"
	default:
		c = imapclient.New(conn, nil)
	}
	if err := c.WaitGreeting(); err != nil {
		c.Close()
		r.fail("imap connect", ClassRuntime, fmt.Sprintf("%s did not greet as an IMAP server: %v", addr, err), fmt.Sprintf("Check %s.port: it must be the IMAP port.", key))
		r.skip("imap login", "no connection")
		return nil
	}
	switch {
	case tlsText != "":
		r.ok("imap connect", "%s, %s", addr, tlsText)
	case isLoopback(ep.Host):
		r.ok("imap connect", "%s, no encryption (loopback only)", addr)
	default:
		r.fail("imap connect", ClassConfig, fmt.Sprintf("%s without encryption", addr), fmt.Sprintf("Set %s.security to tls or starttls.", key))
	}
	pw, ok := password(r, "imap login", key+".password", ep)
	if !ok {
		c.Close()
		return nil
	}
	if err := c.Login(ep.Username, pw).Wait(); err != nil {
		c.Close()
		r.fail("imap login", ClassConfig, fmt.Sprintf("%s refused the login of %s: %v", addr, ep.Username, err),
			fmt.Sprintf("Check %s.username and the password (Gmail and Fastmail need an app password, not the account's; IMAP access must be on).", key))
		return nil
	}
	r.ok("imap login", "logged in as %s", ep.Username)
	m := &imapSession{conn: conn, c: c, caps: c.Caps()}
	checkCaps(r, cfg, m.caps)
	checkMailboxes(r, cfg, m)
	return m
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkCaps says which of the capabilities pbem uses the server has, and
// what pbem does without each.
func checkCaps(r *report, cfg *config.Config, caps imap.CapSet) {
	poll := shortDuration(cfg.Mail.IMAP.PollInterval)
	switch {
	case !caps.Has(imap.CapIdle):
		r.warn("imap IDLE", "the server does not offer IDLE",
			fmt.Sprintf("Nothing to fix: pbem checks the mailbox every %s (mail.imap.poll_interval), so answers come up to %s later; lower poll_interval to answer sooner.", poll, poll))
	case !cfg.Mail.IMAP.IDLE:
		r.ok("imap IDLE", "offered, but mail.imap.idle is false: pbem checks every %s", poll)
	default:
		r.ok("imap IDLE", "offered: new mail is answered at once (and the mailbox checked every %s besides)", poll)
	}
	move, uidplus := caps.Has(imap.CapMove), caps.Has(imap.CapUIDPlus)
	switch {
	case move:
		r.ok("imap MOVE", "offered: handled mail is moved to %s", cfg.Mail.IMAP.ProcessedMailbox)
	case uidplus:
		r.warn("imap MOVE", "the server does not offer MOVE",
			fmt.Sprintf("Nothing to fix: with UIDPLUS pbem moves handled mail to %s by COPY and UID EXPUNGE, as safely.", cfg.Mail.IMAP.ProcessedMailbox))
	default:
		r.warn("imap MOVE", "the server offers neither MOVE nor UIDPLUS",
			"Nothing to fix: pbem flags handled mail and leaves it in the mailbox, never deleting anything; the mailbox grows, so archive old mail now and then.")
	}
	if uidplus {
		r.ok("imap UIDPLUS", "offered")
	} else {
		r.warn("imap UIDPLUS", "the server does not offer UIDPLUS",
			"Nothing to fix: pbem does not expunge messages it cannot name by UID; with MOVE it moves them, without it they stay flagged.")
	}
}

// checkMailboxes examines the mailbox (read-only) and looks for the
// processed mailbox.
func checkMailboxes(r *report, cfg *config.Config, m *imapSession) {
	mb := cfg.Mail.IMAP.Mailbox
	sel, err := m.c.Select(mb, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		r.fail("mailbox", ClassConfig, fmt.Sprintf("cannot open %s: %v", mb, err), "Set mail.imap.mailbox to a folder the account has (INBOX is the usual one).")
	} else {
		r.ok("mailbox", "%s holds %s", mb, english.Count(int(sel.NumMessages), "message"))
	}
	pm := cfg.Mail.IMAP.ProcessedMailbox
	if !m.caps.Has(imap.CapMove) && !m.caps.Has(imap.CapUIDPlus) {
		r.ok("processed mailbox", "%s is not used: the server can move nothing safely (see imap MOVE)", pm)
		return
	}
	list, err := m.c.List("", pm, nil).Collect()
	switch {
	case err != nil:
		r.fail("processed mailbox", ClassRuntime, fmt.Sprintf("cannot list %s: %v", pm, err), "")
	case len(list) == 0:
		r.ok("processed mailbox", "%s does not exist yet: pbem run creates it", pm)
	default:
		r.ok("processed mailbox", "%s exists", pm)
	}
}

// checkSMTP logs in to the SMTP server and sends the test message; it
// returns the message's Message-ID ("" when none was sent).
func checkSMTP(ctx context.Context, r *report, cfg *config.Config, o Options, m *imapSession) string {
	ep := cfg.SMTPEndpoint()
	key := "mail.smtp"
	if cfg.Mail.Mode == config.ModeEmbedded {
		key = "mail.embedded.smtp_listen"
	}
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	conn, tlsText, err := dial(ctx, ep, o)
	if err != nil {
		text, fix, class := connectProblem(ctx, o, "SMTP", key, ep, err)
		r.fail("smtp connect", class, text, fix)
		r.skip("smtp login", "no connection")
		return ""
	}
	var c *smtp.Client
	if ep.Security == config.SecuritySTARTTLS {
		c, err = smtp.NewClientStartTLS(conn, tlsConfig(o, ep.Host))
		tlsText = "STARTTLS"
	} else {
		c = smtp.NewClient(conn)
		err = c.Hello(localName(cfg))
	}
	if err != nil {
		conn.Close()
		text, fix, class := connectProblem(ctx, o, "SMTP", key, ep, err)
		r.fail("smtp connect", class, text, fix)
		r.skip("smtp login", "no connection")
		return ""
	}
	defer c.Close()
	if st, ok := c.TLSConnectionState(); ok && ep.Security == config.SecuritySTARTTLS {
		tlsText = "STARTTLS, " + describeTLS(st)
	}
	switch {
	case tlsText != "":
		r.ok("smtp connect", "%s, %s", addr, tlsText)
	case isLoopback(ep.Host):
		r.ok("smtp connect", "%s, no encryption (loopback only)", addr)
	default:
		r.fail("smtp connect", ClassConfig, fmt.Sprintf("%s without encryption", addr), fmt.Sprintf("Set %s.security to tls or starttls.", key))
	}
	pw, ok := password(r, "smtp login", key+".password", ep)
	if !ok {
		return ""
	}
	if ok, _ := c.Extension("AUTH"); !ok {
		r.fail("smtp login", ClassConfig, fmt.Sprintf("%s offers no login (AUTH) on this connection", addr),
			fmt.Sprintf("Use the provider's submission port (465 with security tls, 587 with starttls) in %s.", key))
		return ""
	}
	if err := c.Auth(sasl.NewPlainClient("", ep.Username, pw)); err != nil {
		r.fail("smtp login", ClassConfig, fmt.Sprintf("%s refused the login of %s: %v", addr, ep.Username, err),
			fmt.Sprintf("Check %s.username and the password (Gmail and Fastmail need an app password).", key))
		return ""
	}
	r.ok("smtp login", "logged in as %s", ep.Username)
	if o.NoSend {
		r.skip("test message", "not sent (--no-send)")
		return ""
	}
	msgID, raw := testMessage(cfg, o.Now())
	rcpts := []string{cfg.Game.Referee}
	if m != nil && !strings.EqualFold(cfg.Game.Referee, cfg.Mail.Address) {
		rcpts = append(rcpts, cfg.Mail.Address) // the copy the DKIM check reads
	}
	if err := sendTest(c, cfg, rcpts, raw); err != nil {
		text, fix, class := sendProblem(cfg, err)
		r.fail("test message", class, text, fix)
		return ""
	}
	r.ok("test message", "sent from %s to the referee %s (subject \"pbem doctor: test message\"); check that it arrives", cfg.Mail.Address, cfg.Game.Referee)
	return msgID
}

func localName(cfg *config.Config) string {
	if _, d, ok := strings.Cut(cfg.Mail.Address, "@"); ok && d != "" {
		return d
	}
	return "localhost"
}

// testMessage is the message to the referee. X-Loop names the game's
// address, so that pbem treats its copy in the game's mailbox as its own
// mail and never answers it.
func testMessage(cfg *config.Config, now time.Time) (string, []byte) {
	var b [8]byte
	rand.Read(b[:])
	id := fmt.Sprintf("<doctor.%x@%s>", b, localName(cfg))
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: pbem doctor: test message\r\nDate: %s\r\nMessage-ID: %s\r\n"+
		"X-Loop: %s\r\nAuto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
		"This is a test message from \"pbem doctor\" for the game %s: mail from %s reaches the referee.\r\n",
		cfg.Mail.Address, cfg.Game.Referee, now.Format(time.RFC1123Z), id, strings.ToLower(cfg.Mail.Address), cfg.Game.ID, cfg.Mail.Address)
	return id, []byte(raw)
}

// checkDKIM waits for the copy of the test message in the game's mailbox
// and verifies its DKIM signature for the game address's domain.
func checkDKIM(ctx context.Context, r *report, cfg *config.Config, o Options, m *imapSession, msgID string) {
	if cfg.Mail.Mode == config.ModeEmbedded {
		r.ok("dkim", "not used: the embedded server does not sign, and its mail stays on this machine")
		return
	}
	if m == nil || msgID == "" {
		r.skip("dkim", "needs the IMAP login and the test message")
		return
	}
	_, domain, _ := strings.Cut(cfg.Mail.Address, "@")
	raw, found := waitForCopy(ctx, m, cfg.Mail.IMAP.Mailbox, msgID, o.DKIMWait)
	if !found {
		r.warn("dkim", fmt.Sprintf("the copy of the test message did not reach %s within %s, so the provider's DKIM signing cannot be checked", cfg.Mail.IMAP.Mailbox, o.DKIMWait),
			"Look at the test message the referee received: its headers should carry a DKIM-Signature with d="+domain+".")
		return
	}
	verifs, err := dkim.Verify(bytes.NewReader(raw))
	if err != nil {
		r.warn("dkim", "the copy's signatures cannot be read: "+err.Error(), "")
		return
	}
	var others []string
	for _, v := range verifs {
		if v.Err == nil && (strings.EqualFold(v.Domain, domain) || strings.HasSuffix(strings.ToLower(domain), "."+strings.ToLower(v.Domain))) {
			r.ok("dkim", "the provider signs mail from %s (DKIM d=%s verifies)", cfg.Mail.Address, v.Domain)
			return
		}
		others = append(others, v.Domain)
	}
	if len(verifs) == 0 {
		r.warn("dkim", fmt.Sprintf("mail sent from %s carries no DKIM signature", cfg.Mail.Address),
			"Players' spam filters may hold pbem's replies: turn on DKIM signing for "+domain+" at the provider (Gmail and Fastmail addresses are signed already).")
		return
	}
	r.warn("dkim", fmt.Sprintf("mail from %s is signed, but no signature for %s verifies (signed by %s)", cfg.Mail.Address, domain, strings.Join(others, ", ")),
		"Set up DKIM for "+domain+" at the provider (its DNS needs the provider's DKIM record).")
}

// waitForCopy polls the mailbox (read-only) for the message with msgID.
func waitForCopy(ctx context.Context, m *imapSession, mailbox, msgID string, wait time.Duration) ([]byte, bool) {
	deadline := time.Now().Add(wait)
	m.conn.SetDeadline(deadline.Add(30 * time.Second))
	for {
		if _, err := m.c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
			return nil, false
		}
		crit := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: msgID}}}
		res, err := m.c.UIDSearch(crit, nil).Wait()
		if err == nil {
			if uids := res.AllUIDs(); len(uids) > 0 {
				msgs, err := m.c.Fetch(imap.UIDSetNum(uids[0]), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
				if err == nil && len(msgs) == 1 {
					for _, b := range msgs[0].BodySection {
						return b.Bytes, true
					}
				}
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, false
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(time.Second):
		}
	}
}

// shortDuration prints 2m rather than 2m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
