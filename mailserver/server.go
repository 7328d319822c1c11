package mailserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Defaults for Options.
const (
	DefaultDir             = "pbem-mail"
	DefaultDomain          = "localhost"
	DefaultIMAPAddr        = "127.0.0.1:1143"
	DefaultSMTPAddr        = "127.0.0.1:2525"
	DefaultMaxMessageBytes = 32 << 20
)

// Options configure a Server. The zero value, and a nil *Options, give the
// defaults documented on each field.
type Options struct {
	// Dir holds the store (mail.db) and its lock file; it is created if
	// missing. Default DefaultDir ("pbem-mail"), relative to the working
	// directory.
	Dir string
	// Domain is the mail domain the server accepts mail for: an account
	// "referee" receives mail to referee@Domain. Default DefaultDomain.
	Domain string
	// IMAPAddr and SMTPAddr are the listen addresses, host:port. An empty
	// host (":0", ":1143") means 127.0.0.1; port 0 picks a free port (see
	// Server.IMAPAddr). Defaults DefaultIMAPAddr and DefaultSMTPAddr.
	IMAPAddr, SMTPAddr string
	// AllowNonLoopback lets Start listen on addresses that are not loopback.
	// The server has no TLS, so passwords and mail then cross the network in
	// clear: set it only on a network you trust (a container, a test VM).
	AllowNonLoopback bool
	// Accounts are created (with their INBOX) when the store is opened if
	// missing; an existing account gets the password given here.
	Accounts []Account
	// MaxMessageBytes is the largest message accepted by SMTP, APPEND and
	// Deliver. Default DefaultMaxMessageBytes (32 MiB); it cannot exceed 4 GiB.
	MaxMessageBytes int64
	// Logger receives the server's log lines. Default slog.Default().
	Logger *slog.Logger
	// AuthServID is the authserv-id of the Authentication-Results header
	// the SMTP server puts on every message it takes ("auth=pass
	// smtp.auth=user@domain" after SMTP AUTH, "auth=none" otherwise).
	// Default Domain.
	AuthServID string
	// Debug, if set, receives the raw IMAP and SMTP traffic, passwords
	// included. For tests and troubleshooting only.
	Debug io.Writer
	// Route, when set, is asked for every recipient of every message taken
	// by SMTP, before it is stored, which account it belongs to, whether to
	// refuse it, and what to reply to its sender (route.go). It is called
	// from the SMTP sessions, concurrently. Default none: every message is
	// stored as addressed.
	Route func(RouteRequest) RouteDecision
}

// Account is a mailbox owner.
type Account struct {
	// User is the login name and the local part of the account's address,
	// compared without regard to case; "user@Domain" is accepted too.
	User string
	// Password is used for IMAP LOGIN and SMTP AUTH PLAIN. An account with
	// an empty password can receive mail but not log in.
	Password string
}

// Server is an IMAP and SMTP server storing mail in SQLite. Create it with
// New, then call Open (storage only) or Start (storage and listeners), and
// Close when done. Its methods are safe for concurrent use.
type Server struct {
	opts Options
	log  *slog.Logger
	now  func() time.Time

	// lifecycle guards opening, starting and closing.
	lifecycle sync.Mutex
	lock      *dirLock
	started   bool
	closed    bool
	imapSrv   *imapserver.Server
	smtpSrv   *smtp.Server
	imapLn    net.Listener
	smtpLn    net.Listener
	serving   sync.WaitGroup

	// mu guards db (being set or cleared) and the in-memory index; see the
	// package comment.
	mu       sync.RWMutex
	db       *sql.DB
	accounts map[string]*account // by user

	// large admits one large SMTP message at a time (spool.go).
	large chan struct{}

	// group collects SMTP deliveries for group commit (groupcommit.go).
	group groupCommit

	// authOK remembers the SMTP logins that passed (see passwordOK).
	authMu sync.Mutex
	authOK map[[32]byte]bool

	// limiter slows password guessing (authlimit.go).
	limiter authLimiter

	// changed is closed (and replaced) after every committed change, to
	// wake the sessions in IDLE; see imapSession.Idle.
	changedMu sync.Mutex
	changed   chan struct{}
}

// changes returns a channel that is closed at the next committed change.
func (s *Server) changes() <-chan struct{} {
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

// announce wakes everyone waiting on changes.
func (s *Server) announce() {
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// New checks opts and returns a Server. It does no I/O.
func New(opts *Options) (*Server, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Accounts = append([]Account(nil), o.Accounts...)
	if o.Dir == "" {
		o.Dir = DefaultDir
	}
	if o.Domain == "" {
		o.Domain = DefaultDomain
	}
	o.Domain = strings.ToLower(strings.TrimSuffix(o.Domain, "."))
	if err := checkDomain(o.Domain); err != nil {
		return nil, err
	}
	if o.AuthServID == "" {
		o.AuthServID = o.Domain
	}
	if o.IMAPAddr == "" {
		o.IMAPAddr = DefaultIMAPAddr
	}
	if o.SMTPAddr == "" {
		o.SMTPAddr = DefaultSMTPAddr
	}
	for _, addr := range []*string{&o.IMAPAddr, &o.SMTPAddr} {
		host, port, err := net.SplitHostPort(*addr)
		if err != nil {
			return nil, fmt.Errorf("mailserver: listen address %q: %w (expected host:port, e.g. 127.0.0.1:1143)", *addr, err)
		}
		if host == "" {
			*addr = net.JoinHostPort("127.0.0.1", port)
		}
	}
	switch {
	case o.MaxMessageBytes == 0:
		o.MaxMessageBytes = DefaultMaxMessageBytes
	case o.MaxMessageBytes < 0 || o.MaxMessageBytes > math.MaxUint32:
		return nil, fmt.Errorf("mailserver: MaxMessageBytes %d out of range (1 to %d)", o.MaxMessageBytes, int64(math.MaxUint32))
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s := &Server{opts: o, log: o.Logger.With("component", "mailserver"), now: time.Now, large: make(chan struct{}, 1)}
	for _, a := range o.Accounts {
		if _, err := s.localUser(a.User); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkDomain accepts a DNS-like name: letters, digits, hyphens and dots.
func checkDomain(d string) error {
	if d == "" || len(d) > 253 {
		return fmt.Errorf("mailserver: domain %q is not a domain name", d)
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return fmt.Errorf("mailserver: domain %q is not a domain name (letters, digits, hyphens and dots)", d)
		}
	}
	return nil
}

// localUser turns "User" or "User@Domain" into the account key (lower-case
// local part). Addresses of other domains are refused.
func (s *Server) localUser(name string) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if local, domain, ok := cutLast(name, "@"); ok {
		if strings.TrimSuffix(domain, ".") != s.opts.Domain {
			return "", fmt.Errorf("mailserver: %q is not an address of this server's domain %s", name, s.opts.Domain)
		}
		name = local
	}
	if name == "" {
		return "", errors.New("mailserver: empty user name")
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),:;<>@[\]`, r) {
			return "", fmt.Errorf("mailserver: user name %q: use letters, digits and . _ - + only", name)
		}
	}
	return name, nil
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// Open creates Options.Dir if needed, locks it, opens the store (checking
// its integrity) and creates the accounts of Options. It is called by Start;
// call it alone to use Deliver and EnsureAccount without listening.
// Opening an open server does nothing.
func (s *Server) Open(ctx context.Context) error {
	s.lifecycle.Lock()
	defer s.lifecycle.Unlock()
	return s.openLocked(ctx)
}

func (s *Server) openLocked(ctx context.Context) error {
	if s.closed {
		return errClosed
	}
	if s.lock != nil {
		return nil
	}
	if err := os.MkdirAll(s.opts.Dir, 0o700); err != nil {
		return fmt.Errorf("mailserver: %w", err)
	}
	lock, err := lockDir(s.opts.Dir)
	if err != nil {
		return err
	}
	db, err := openDB(ctx, s.opts.Dir)
	if err != nil {
		lock.unlock()
		return fmt.Errorf("mailserver: %w", err)
	}
	accounts, err := loadIndex(ctx, db)
	if err != nil {
		db.Close()
		lock.unlock()
		return fmt.Errorf("mailserver: loading %s: %w", s.opts.Dir, err)
	}
	s.mu.Lock()
	s.db, s.accounts = db, accounts
	s.mu.Unlock()
	s.lock = lock
	for _, a := range s.opts.Accounts {
		if err := s.EnsureAccount(ctx, a.User, a.Password); err != nil {
			s.closeLocked()
			return err
		}
	}
	return nil
}

// Start opens the store (see Open) and starts serving IMAP and SMTP on the
// addresses of Options. It returns once both listeners are bound; ctx bounds
// only that start-up. Non-loopback addresses are refused unless
// Options.AllowNonLoopback is set.
func (s *Server) Start(ctx context.Context) error {
	s.lifecycle.Lock()
	defer s.lifecycle.Unlock()
	if s.started {
		return errors.New("mailserver: already started")
	}
	for _, addr := range []string{s.opts.IMAPAddr, s.opts.SMTPAddr} {
		if err := s.checkListenAddr(ctx, addr); err != nil {
			return err
		}
	}
	if err := s.openLocked(ctx); err != nil {
		return err
	}
	var lc net.ListenConfig
	imapLn, err := lc.Listen(ctx, "tcp", s.opts.IMAPAddr)
	if err != nil {
		return fmt.Errorf("mailserver: IMAP: %w", err)
	}
	smtpLn, err := lc.Listen(ctx, "tcp", s.opts.SMTPAddr)
	if err != nil {
		imapLn.Close()
		return fmt.Errorf("mailserver: SMTP: %w", err)
	}
	s.imapLn, s.smtpLn = imapLn, smtpLn
	s.imapSrv = s.newIMAPServer()
	s.smtpSrv = s.newSMTPServer()
	s.started = true
	s.serving.Add(2)
	go func() {
		defer s.serving.Done()
		if err := s.imapSrv.Serve(imapLn); err != nil {
			s.log.Error("IMAP server stopped", "err", err)
		}
	}()
	go func() {
		defer s.serving.Done()
		if err := s.smtpSrv.Serve(smtpLn); err != nil && !errors.Is(err, net.ErrClosed) {
			s.log.Error("SMTP server stopped", "err", err)
		}
	}()
	s.log.Info("mail server listening", "imap", imapLn.Addr().String(), "smtp", smtpLn.Addr().String(),
		"domain", s.opts.Domain, "dir", s.opts.Dir)
	return nil
}

// checkListenAddr refuses a host that is not loopback, unless allowed.
func (s *Server) checkListenAddr(ctx context.Context, addr string) error {
	if s.opts.AllowNonLoopback {
		return nil
	}
	host, _, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsLoopback() {
			return nil
		}
	} else if strings.EqualFold(host, "localhost") {
		return nil
	} else if ips, err := net.DefaultResolver.LookupIPAddr(ctx, host); err == nil && len(ips) > 0 {
		loopback := true
		for _, ip := range ips {
			loopback = loopback && ip.IP.IsLoopback()
		}
		if loopback {
			return nil
		}
	}
	return fmt.Errorf("mailserver: refusing to listen on %s: not a loopback address; this server has no TLS, "+
		"so it listens on 127.0.0.1 or ::1 only unless AllowNonLoopback is set", addr)
}

// IMAPAddr returns the address the IMAP listener is bound to (with the real
// port when Options asked for port 0), or "" before Start.
func (s *Server) IMAPAddr() string {
	s.lifecycle.Lock()
	defer s.lifecycle.Unlock()
	if s.imapLn == nil {
		return ""
	}
	return s.imapLn.Addr().String()
}

// SMTPAddr returns the address the SMTP listener is bound to, or "" before
// Start.
func (s *Server) SMTPAddr() string {
	s.lifecycle.Lock()
	defer s.lifecycle.Unlock()
	if s.smtpLn == nil {
		return ""
	}
	return s.smtpLn.Addr().String()
}

// Domain returns the mail domain the server accepts mail for.
func (s *Server) Domain() string { return s.opts.Domain }

// Close stops the listeners, drops every connection, closes the store and
// releases Options.Dir. Everything acknowledged to a client is already on
// disk. A closed Server cannot be opened again; make a new one.
func (s *Server) Close() error {
	s.lifecycle.Lock()
	defer s.lifecycle.Unlock()
	if s.closed {
		return nil
	}
	return s.closeLocked()
}

func (s *Server) closeLocked() error {
	s.closed = true
	var errs []error
	if s.imapSrv != nil {
		if err := s.imapSrv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	if s.smtpSrv != nil {
		if err := s.smtpSrv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	// go-smtp's Close misses a listener its Serve has not registered yet
	// (a Close right after Start); closing ours ends any Accept for sure.
	for _, ln := range []net.Listener{s.imapLn, s.smtpLn} {
		if ln != nil {
			ln.Close()
		}
	}
	s.serving.Wait()
	s.mu.Lock()
	if s.db != nil {
		errs = append(errs, s.db.Close())
		s.db = nil
	}
	s.mu.Unlock()
	if s.lock != nil {
		errs = append(errs, s.lock.unlock())
		s.lock = nil
	}
	return errors.Join(errs...)
}

// EnsureAccount creates the account user (with its INBOX) if it does not
// exist, and sets its password. The server must be open.
func (s *Server) EnsureAccount(ctx context.Context, user, password string) error {
	name, err := s.localUser(user)
	if err != nil {
		return err
	}
	s.mu.RLock()
	a := s.accounts[name]
	upToDate := a != nil && a.mailboxes[inboxName] != nil &&
		(password == "" && len(a.passHash) == 0 || checkPassword(password, a.passSalt, a.passHash))
	s.mu.RUnlock()
	if upToDate {
		return nil
	}
	var salt, hash []byte
	if password != "" {
		if salt, hash, err = hashPassword(password); err != nil {
			return err
		}
	}
	return s.update(ctx, func(tx *sql.Tx) (func(), error) {
		a := s.accounts[name]
		isNew := a == nil
		if isNew {
			res, err := tx.ExecContext(ctx, "INSERT INTO accounts (user, pass_salt, pass_hash) VALUES (?, ?, ?)", name, salt, hash)
			if err != nil {
				return nil, err
			}
			a = &account{user: name, mailboxes: make(map[string]*mailbox)}
			if a.id, err = res.LastInsertId(); err != nil {
				return nil, err
			}
		} else if _, err := tx.ExecContext(ctx, "UPDATE accounts SET pass_salt = ?, pass_hash = ? WHERE id = ?", salt, hash, a.id); err != nil {
			return nil, err
		}
		var inbox *mailbox
		if a.mailboxes[inboxName] == nil {
			var err error
			if inbox, err = s.insertMailbox(ctx, tx, a, inboxName, true); err != nil {
				return nil, err
			}
		}
		return func() {
			a.passSalt, a.passHash = salt, hash
			if inbox != nil {
				a.mailboxes[inboxName] = inbox
			}
			if isNew {
				s.accounts[name] = a
			}
		}, nil
	})
}

// Deliver stores raw in user's INBOX as a local delivery (with a Received
// header and CRLF line ends) and wakes IMAP clients idling on it. It
// returns once the message is on disk. The server must be open. Its
// Arrival is ViaLocal: not sent by any account, whatever its header says.
func (s *Server) Deliver(ctx context.Context, user string, raw []byte) error {
	name, err := s.localUser(user)
	if err != nil {
		return err
	}
	if int64(len(raw)) > s.opts.MaxMessageBytes {
		return fmt.Errorf("mailserver: message of %d bytes is larger than the limit of %d", len(raw), s.opts.MaxMessageBytes)
	}
	s.mu.RLock()
	open := s.db != nil
	var inbox *mailbox
	if a := s.accounts[name]; a != nil {
		inbox = a.mailboxes[inboxName]
	}
	s.mu.RUnlock()
	if !open {
		return errClosed
	}
	if inbox == nil {
		return fmt.Errorf("mailserver: no account %q on this server", name)
	}
	now := s.now()
	received := fmt.Sprintf("Received: by %s (pbem mailserver) with local id %s\r\n\tfor <%s@%s>; %s\r\n",
		s.opts.Domain, newID(), name, s.opts.Domain, now.Format(time.RFC1123Z))
	msg := append([]byte(received), toCRLF(raw)...)
	_, err = s.appendMessages(ctx, []newMessage{{mailbox: inbox, body: bytesContent(msg), date: now, arrival: Arrival{Via: ViaLocal}}})
	return err
}

// toCRLF turns bare LF line ends into CRLF, as IMAP clients expect.
func toCRLF(b []byte) []byte {
	if !bytes.Contains(b, []byte("\n")) {
		return b
	}
	out := make([]byte, 0, len(b)+bytes.Count(b, []byte("\n")))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// newID returns a random queue id for Received headers.
func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return strings.ToUpper(hex.EncodeToString(b[:]))
}

// appendLimit is MaxMessageBytes for IMAP's APPENDLIMIT.
func (s *Server) appendLimit() uint32 { return uint32(s.opts.MaxMessageBytes) }

// printfLogger adapts slog for the IMAP and SMTP libraries.
type printfLogger struct{ l *slog.Logger }

func (p printfLogger) Printf(format string, v ...any) {
	p.warn(strings.TrimSpace(fmt.Sprintf(format, v...)))
}

func (p printfLogger) Println(v ...any) { p.warn(strings.TrimSpace(fmt.Sprintln(v...))) }

// warn logs a library's complaint as a warning, except a read on a
// connection the server itself closed (at shutdown, or a session it
// ended), which is expected and logged at debug level only.
func (p printfLogger) warn(msg string) {
	if strings.Contains(msg, net.ErrClosed.Error()) {
		p.l.Debug(msg)
		return
	}
	p.l.Warn(msg)
}

// imapCaps are the capabilities advertised beyond those imapserver adds by
// itself (IDLE, UNSELECT, ENABLE, SASL-IR, LITERAL-, APPENDLIMIT=…).
var imapCaps = imap.CapSet{
	imap.CapIMAP4rev1:    {},
	imap.CapNamespace:    {},
	imap.CapUIDPlus:      {},
	imap.CapMove:         {},
	imap.CapESearch:      {},
	imap.CapSearchRes:    {},
	imap.CapListExtended: {},
	imap.CapListStatus:   {},
	imap.CapStatusSize:   {},
	imap.CapChildren:     {},
	imap.CapLiteralPlus:  {},
}

func (s *Server) newIMAPServer() *imapserver.Server {
	return imapserver.New(&imapserver.Options{
		NewSession: func(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{srv: s, conn: c}, nil, nil
		},
		Caps:   imapCaps,
		Logger: printfLogger{s.log.With("protocol", "imap")},
		// Plaintext LOGIN: the session itself refuses it from a peer that is
		// not loopback unless AllowNonLoopback.
		InsecureAuth: true,
		DebugWriter:  s.opts.Debug,
	})
}

// clearTextAllowed reports whether a peer may send a password without TLS.
func (s *Server) clearTextAllowed(remote net.Addr) bool {
	if s.opts.AllowNonLoopback {
		return true
	}
	tcp, ok := remote.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
