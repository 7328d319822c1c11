package outbox

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/store"
)

// sink is an SMTP server on 127.0.0.1:0 that records what it receives and
// misbehaves on request: each mail transaction (from MAIL FROM on) takes
// the next fault from a script, and behaves normally once the script is
// used up.
type sink struct {
	t    testing.TB
	srv  *smtp.Server
	addr string
	port int
	done chan struct{} // closed at cleanup: releases held transactions

	mu          sync.Mutex
	deliveries  []delivery // messages taken, or dropped after the final dot
	script      []fault
	connections int
	mails       int      // MAIL FROM commands seen
	logins      []string // "user:password" of successful logins
	arrived     chan delivery
}

// delivery is one message the sink received in full.
type delivery struct {
	From string
	To   []string
	Data []byte
}

// fault is what one transaction does wrong.
type fault struct {
	at   Stage             // StageMail, StageRcpt or StageResult (after the final dot)
	code int               // the reply; 0 with drop
	enh  smtp.EnhancedCode // the enhanced code, optional
	msg  string            // the reply text
	drop bool              // close the connection without a reply (at StageResult: after recording the delivery)
	hold chan struct{}     // with drop at StageResult: wait until this is closed (or the test ends) before dropping
}

type sinkOptions struct {
	security config.Security // none (default), tls or starttls
	user     string          // require AUTH with user and password
	password string
	mechs    []string // mechanisms offered; default PLAIN
	noTLS    bool     // with starttls: do not offer STARTTLS
}

// newSink starts a sink; it stops when the test ends.
func newSink(t testing.TB, so sinkOptions) *sink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &sink{t: t, done: make(chan struct{}), arrived: make(chan delivery, 100)}
	s.addr = ln.Addr().String()
	s.port = ln.Addr().(*net.TCPAddr).Port
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.connections++
		s.mu.Unlock()
		return &sinkSession{s: s, c: c, so: so}, nil
	}))
	s.srv.Domain = "sink.localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ErrorLog = log.New(io.Discard, "", 0)
	s.srv.MaxMessageBytes = 64 << 20
	switch so.security {
	case config.SecurityTLS:
		ln = tls.NewListener(ln, testServerTLS)
	case config.SecuritySTARTTLS:
		if !so.noTLS {
			s.srv.TLSConfig = testServerTLS
		}
	}
	go s.srv.Serve(ln)
	t.Cleanup(func() {
		close(s.done)
		s.srv.Close()
	})
	return s
}

// fail queues faults for the next transactions, in order.
func (s *sink) fail(fs ...fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, fs...)
}

func (s *sink) got() []delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]delivery(nil), s.deliveries...)
}

func (s *sink) stats() (connections, mails int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connections, s.mails
}

type sinkSession struct {
	s     *sink
	c     *smtp.Conn
	so    sinkOptions
	authd bool
	f     *fault
	from  string
	to    []string
}

func (ss *sinkSession) Reset()        { ss.f, ss.from, ss.to = nil, "", nil }
func (ss *sinkSession) Logout() error { return nil }

// drop closes the connection without a reply.
func (ss *sinkSession) drop() error {
	ss.c.Conn().Close()
	return errors.New("dropped")
}

func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.so.user != "" && !ss.authd {
		return smtp.ErrAuthRequired
	}
	ss.s.mu.Lock()
	ss.s.mails++
	if len(ss.s.script) > 0 {
		f := ss.s.script[0]
		ss.s.script = ss.s.script[1:]
		ss.f = &f
	}
	ss.s.mu.Unlock()
	ss.from = from
	return ss.fault(StageMail)
}

func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := ss.fault(StageRcpt); err != nil {
		return err
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *sinkSession) fault(at Stage) error {
	f := ss.f
	if f == nil || f.at != at {
		return nil
	}
	if f.drop {
		return ss.drop()
	}
	return &smtp.SMTPError{Code: f.code, EnhancedCode: f.enh, Message: f.msg}
}

func (ss *sinkSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	d := delivery{From: ss.from, To: ss.to, Data: data}
	if f := ss.f; f != nil && f.at == StageResult {
		if !f.drop {
			return &smtp.SMTPError{Code: f.code, EnhancedCode: f.enh, Message: f.msg}
		}
		ss.s.record(d)
		if f.hold != nil {
			select {
			case <-f.hold:
			case <-ss.s.done:
			}
		}
		return ss.drop()
	}
	ss.s.record(d)
	return nil
}

func (s *sink) record(d delivery) {
	s.mu.Lock()
	s.deliveries = append(s.deliveries, d)
	s.mu.Unlock()
	s.arrived <- d
}

func (ss *sinkSession) AuthMechanisms() []string {
	if ss.so.user == "" {
		return nil
	}
	if len(ss.so.mechs) > 0 {
		return ss.so.mechs
	}
	return []string{sasl.Plain}
}

func (ss *sinkSession) Auth(mech string) (sasl.Server, error) {
	check := func(user, pass string) error {
		if user != ss.so.user || pass != ss.so.password {
			return smtp.ErrAuthFailed
		}
		ss.authd = true
		ss.s.mu.Lock()
		ss.s.logins = append(ss.s.logins, user+":"+pass)
		ss.s.mu.Unlock()
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(_, user, pass string) error { return check(user, pass) }), nil
	case sasl.Login:
		return &loginServer{check: check}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// loginServer is the server side of AUTH LOGIN, asking "Username:" then
// "Password:".
type loginServer struct {
	check func(user, pass string) error
	step  int
	user  string
}

func (l *loginServer) Next(resp []byte) ([]byte, bool, error) {
	l.step++
	switch l.step {
	case 1:
		if resp == nil {
			return []byte("Username:"), false, nil
		}
		l.step++
		l.user = string(resp)
		return []byte("Password:"), false, nil
	case 2:
		l.user = string(resp)
		return []byte("Password:"), false, nil
	case 3:
		return nil, true, l.check(l.user, string(resp))
	}
	return nil, false, errors.New("unexpected response")
}

// testServerTLS is a self-signed certificate for 127.0.0.1 and localhost;
// testRoots trusts it.
var testServerTLS, testRoots = func() (*tls.Config, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "pbem test sink"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}()

// clock is a fake clock: Sleep moves it on at once and remembers the
// waits.
type clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

var t0 = time.Date(1757, time.May, 6, 9, 0, 0, 0, time.UTC) // the battle of Prague

func newClock() *clock { return &clock{now: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	return nil
}

func (c *clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// lockedBuffer collects log output from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fixture is an outbox on a fresh store, sending to a sink on a fake clock.
type fixture struct {
	t     testing.TB
	db    *store.DB
	sink  *sink
	clock *clock
	opts  *Options
	out   *Outbox
	log   *lockedBuffer
}

// newFixture builds a fixture; edit may change the options first.
func newFixture(t testing.TB, so sinkOptions, edit func(*Options)) *fixture {
	t.Helper()
	f := &fixture{t: t, clock: newClock(), log: &lockedBuffer{}}
	f.sink = newSink(t, so)
	db, err := store.Open(t.TempDir()+"/pbem.db", &store.Options{Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	sec := so.security
	if sec == "" {
		sec = config.SecurityNone
	}
	f.opts = &Options{
		Server:         Server{Host: "127.0.0.1", Port: f.sink.port, Security: sec},
		TLSConfig:      &tls.Config{RootCAs: testRoots},
		RatePerMinute:  600,
		MaxAttempts:    5,
		BackoffInitial: 30 * time.Second,
		BackoffMax:     10 * time.Minute,
		Referee:        "referee@pbem.localhost",
		Timeout:        5 * time.Second,
		Now:            f.clock.Now,
		Sleep:          f.clock.Sleep,
		Logger:         slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if so.user != "" {
		f.opts.Server.Username = so.user
		f.opts.Server.Password = config.Secret{Password: config.Password(so.password)}
	}
	if edit != nil {
		edit(f.opts)
	}
	f.out = New(db, f.opts)
	return f
}

// report is a turn report for nation, dated now on the fixture's clock.
func (f *fixture) report(nation string, turn int) Message {
	return Message{
		Game: "syw", Turn: turn, Nation: nation, Kind: "report",
		From:    gameAddress,
		To:      []mail.Address{{Name: strings.ToUpper(nation[:1]) + nation[1:], Address: nation + "@example.org"}},
		Subject: "Turn " + strconv.Itoa(turn) + " report for " + nation,
		Date:    f.clock.Now(),
		// Lines starting with dots test SMTP's dot-stuffing both ways.
		Text: "Your army stands before Prague.\n.\n..two dots\nSECRET-BODY-MARKER-" + nation + "\n",
	}
}

func (f *fixture) enqueue(m Message) store.OutboxMessage {
	f.t.Helper()
	if _, err := f.out.Enqueue(context.Background(), m); err != nil {
		f.t.Fatal(err)
	}
	return f.row(m.ID())
}

// row returns the outbox row with a Message-ID.
func (f *fixture) row(messageID string) store.OutboxMessage {
	f.t.Helper()
	for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
		ms, err := f.db.MessagesInState(context.Background(), st)
		if err != nil {
			f.t.Fatal(err)
		}
		for _, m := range ms {
			if m.MessageID == messageID {
				return m
			}
		}
	}
	f.t.Fatalf("no outbox row %s", messageID)
	return store.OutboxMessage{}
}

// rows returns every outbox row, in id order.
func (f *fixture) rows() []store.OutboxMessage {
	f.t.Helper()
	var all []store.OutboxMessage
	for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
		ms, err := f.db.MessagesInState(context.Background(), st)
		if err != nil {
			f.t.Fatal(err)
		}
		all = append(all, ms...)
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[j].ID < all[i].ID {
				all[i], all[j] = all[j], all[i]
			}
		}
	}
	return all
}

func (f *fixture) flush() Stats {
	f.t.Helper()
	st, err := f.out.Flush(context.Background())
	if err != nil {
		f.t.Fatalf("Flush: %v", err)
	}
	return st
}
