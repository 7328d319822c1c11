package inbox

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

const (
	testDomain = "pbem.example"
	testUser   = "orders"
	testPass   = "secret-for-tests"
)

// testLog collects a test's log lines and prints them only if it fails.
type testLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func newTestLogger(t testing.TB) *slog.Logger {
	l := &testLog{}
	t.Cleanup(func() {
		if t.Failed() {
			l.mu.Lock()
			t.Logf("log:\n%s", l.buf.String())
			l.mu.Unlock()
		}
	})
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startMailServer runs the embedded server on loopback ports.
func startMailServer(t testing.TB) *mailserver.Server {
	t.Helper()
	srv, err := mailserver.New(&mailserver.Options{
		Dir: t.TempDir(), Domain: testDomain, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Accounts: []mailserver.Account{{User: testUser, Password: testPass}},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func openStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// testOptions are fast options for a loopback server.
func testOptions(t testing.TB, addr string, h Handler) *Options {
	return &Options{
		Addr: addr, Security: config.SecurityNone, Username: testUser, Password: testPass,
		PollInterval: 300 * time.Millisecond, CommandTimeout: 2 * time.Second, DialTimeout: 2 * time.Second,
		BackoffInitial: 20 * time.Millisecond, BackoffMax: 200 * time.Millisecond,
		Handler: h, Logger: newTestLogger(t),
	}
}

// counter is a store-backed handler. Its effect — a counter per mail content
// in the meta table — commits in one transaction with the status change, as
// a real handler's submission does; it has no guard of its own, so a second
// call for a mail the intake should no longer hand over shows as a second
// effect. Calls are counted apart, outside that transaction.
type counter struct {
	db   *store.DB
	fail func(m store.Mail) error // if set and non-nil, the call fails before any effect
	mu   sync.Mutex
	seen []int64 // mail ids in call order
}

func (c *counter) handle(ctx context.Context, m store.Mail) error {
	c.mu.Lock()
	c.seen = append(c.seen, m.ID)
	c.mu.Unlock()
	if err := bumpMeta(ctx, c.db, "test:calls:"+m.SHA256); err != nil {
		return err
	}
	if c.fail != nil {
		if err := c.fail(m); err != nil {
			return err
		}
	}
	return c.db.Update(ctx, func(tx *store.Tx) error {
		if err := bumpMetaTx(ctx, tx, "test:effects:"+m.SHA256); err != nil {
			return err
		}
		return tx.SetMailStatus(ctx, m.ID, store.MailHandled, "orders", "")
	})
}

func bumpMeta(ctx context.Context, db *store.DB, key string) error {
	return db.Update(ctx, func(tx *store.Tx) error { return bumpMetaTx(ctx, tx, key) })
}

func bumpMetaTx(ctx context.Context, tx *store.Tx, key string) error {
	v, _, err := tx.GetMeta(ctx, key)
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(v)
	return tx.SetMeta(ctx, key, strconv.Itoa(n+1))
}

func metaInt(t testing.TB, db *store.DB, key string) int {
	t.Helper()
	v, _, err := db.GetMeta(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(v)
	return n
}

// effects returns the effect count of the mail with these bytes.
func effects(t testing.TB, db *store.DB, raw []byte) int {
	return metaInt(t, db, "test:effects:"+store.SHA256Hex(raw))
}

// testMail makes a distinct order mail.
func testMail(n int) []byte {
	return crlf(fmt.Sprintf("From: player%d@example.org\nTo: %s@%s\nSubject: orders %d\nMessage-ID: <m%d.%d@example.org>\n\n%s",
		n, testUser, testDomain, n, n, time.Now().UnixNano(), sheet))
}

// imapPeek is a test's own IMAP client, to look at and change the mailbox
// behind the intake's back.
type imapPeek struct {
	t testing.TB
	c *imapclient.Client
}

func dialPeek(t testing.TB, addr, user, pass string) *imapPeek {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &imapPeek{t: t, c: c}
}

type peekMessage struct {
	uid   imap.UID
	flags []imap.Flag
	raw   []byte
}

// messages lists a mailbox (nil if it does not exist).
func (p *imapPeek) messages(mailbox string) []peekMessage {
	p.t.Helper()
	sel, err := p.c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil
	}
	if sel.NumMessages == 0 {
		return []peekMessage{}
	}
	section := &imap.FetchItemBodySection{Peek: true}
	var set imap.SeqSet
	set.AddRange(1, 0)
	bufs, err := p.c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		p.t.Fatal(err)
	}
	var out []peekMessage
	for _, b := range bufs {
		out = append(out, peekMessage{uid: b.UID, flags: b.Flags, raw: b.FindBodySection(section)})
	}
	return out
}

func (p *imapPeek) uidValidity(mailbox string) uint32 {
	p.t.Helper()
	d, err := p.c.Status(mailbox, &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		p.t.Fatal(err)
	}
	return d.UIDValidity
}

func (p *imapPeek) append(mailbox string, raw []byte) {
	p.t.Helper()
	cmd := p.c.Append(mailbox, int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		p.t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		p.t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		p.t.Fatal(err)
	}
}

func (p *imapPeek) create(mailbox string) {
	p.t.Helper()
	if err := p.c.Create(mailbox, nil).Wait(); err != nil {
		p.t.Fatal(err)
	}
}

func (p *imapPeek) delete(mailbox string) {
	p.t.Helper()
	p.c.Unselect().Wait()
	if err := p.c.Delete(mailbox).Wait(); err != nil {
		p.t.Fatal(err)
	}
}

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	for _, g := range flags {
		if strings.EqualFold(string(g), string(f)) {
			return true
		}
	}
	return false
}

// mailRows returns every stored mail, by id.
func mailRows(t testing.TB, db *store.DB) []store.Mail {
	t.Helper()
	var all []store.Mail
	for _, st := range []store.MailStatus{store.MailStored, store.MailHandled, store.MailIgnored, store.MailQuarantined, store.MailAcknowledged, store.MailMoved} {
		rs, err := db.MailByStatus(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rs...)
	}
	return all
}

// proxy is a TCP proxy in front of a server. It can stall every connection
// open at the time (forward nothing, close nothing: a half-open link), drop
// them all, and rewrite the server's capability lists.
type proxy struct {
	ln     net.Listener
	target string
	strip  *regexp.Regexp // capabilities removed from CAPABILITY lines, if set
	// noEmptyMove turns the OK of a UID MOVE that moved nothing (no
	// EXPUNGE came before it) into a NO, as some servers answer.
	noEmptyMove bool
	refused     atomic.Int64 // MOVEs answered NO by the proxy

	mu     sync.Mutex
	conns  []*proxyConn
	accept atomic.Int64
}

type proxyConn struct {
	client, server net.Conn
	stalled        atomic.Bool
}

func startProxy(t testing.TB, target string, stripCaps ...string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	if len(stripCaps) > 0 {
		p.strip = regexp.MustCompile(`(?i) (` + strings.Join(stripCaps, "|") + `)\b`)
	}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.drop() })
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		pc := &proxyConn{client: c, server: s}
		p.mu.Lock()
		p.conns = append(p.conns, pc)
		p.mu.Unlock()
		p.accept.Add(1)
		go pc.pipe(c, s, nil, nil)
		var refused *atomic.Int64
		if p.noEmptyMove {
			refused = &p.refused
		}
		go pc.pipe(s, c, p.strip, refused)
	}
}

var emptyMoveOK = regexp.MustCompile(`^(\S+) OK (\[[^\]]*\] )?UID MOVE`)

func (pc *proxyConn) pipe(src, dst net.Conn, strip *regexp.Regexp, refused *atomic.Int64) {
	defer func() { src.Close(); dst.Close() }()
	r := bufio.NewReader(src)
	expunged := false
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !pc.stalled.Load() {
			if strip != nil && bytes.Contains(bytes.ToUpper(line), []byte("CAPABILITY")) {
				line = strip.ReplaceAll(line, nil)
			}
			if refused != nil {
				if bytes.Contains(line, []byte(" EXPUNGE")) {
					expunged = true
				} else if m := emptyMoveOK.FindSubmatch(line); m != nil && !expunged && !bytes.Equal(m[1], []byte("*")) {
					line = []byte(string(m[1]) + " NO [NONEXISTENT] No matching messages\r\n")
					refused.Add(1)
				} else if len(line) > 0 && line[0] != '*' {
					expunged = false
				}
			}
			if _, werr := dst.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// stall makes every open connection silent both ways, without closing it.
func (p *proxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.stalled.Store(true)
	}
}

// drop closes every open connection.
func (p *proxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.client.Close()
		c.server.Close()
	}
	p.conns = nil
}

// runIntake runs in.Run until the test ends.
func runIntake(t testing.TB, in *Intake) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
}
