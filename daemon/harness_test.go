package daemon

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// testConfig is a game on the embedded server, on ports the kernel picks.
const testConfig = `
data_dir: data
log_level: warn
game:
  id: syw
  name: SYW Test Game
  ruleset: syw-1752
  scenario: %s
  referee: referee@pbem.localhost
  referee_password: {password: demo-referee-orders}
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  nations:
    eisenmark: {addresses: [eisenmark@pbem.localhost], password: demo-eisenmark}
    morgronskia: {addresses: [morgronskia@pbem.localhost], password: demo-morgronskia}
    unterreich: {addresses: [unterreich@pbem.localhost], password: demo-unterreich}
    fromande: {addresses: [fromande@pbem.localhost], password: demo-fromande}
    hispardia: {addresses: [hispardia@pbem.localhost], password: demo-hispardia}
mail:
  mode: embedded
  address: orders@pbem.localhost
  embedded:
    domain: pbem.localhost
    imap_listen: 127.0.0.1:0
    smtp_listen: 127.0.0.1:0
    accounts:
      - {user: orders@pbem.localhost, password: pw-orders}
      - {user: referee@pbem.localhost, password: pw-referee}
      - {user: eisenmark@pbem.localhost, password: pw-eisenmark}
      - {user: morgronskia@pbem.localhost, password: pw-morgronskia}
      - {user: unterreich@pbem.localhost, password: pw-unterreich}
      - {user: fromande@pbem.localhost, password: pw-fromande}
      - {user: hispardia@pbem.localhost, password: pw-hispardia}
      - {user: stranger@pbem.localhost, password: pw-stranger}
  imap:
    %s
`

// waitLimit bounds every wait for something the daemon does. Waits poll and
// return as soon as it is done, so the limit is generous: a loaded two-core
// machine running the race detector is slow, not broken.
const waitLimit = 30 * time.Second

// harness is a running daemon on the embedded mail server.
type harness struct {
	t      *testing.T
	d      *Daemon
	cfg    *config.Config
	cancel context.CancelFunc
	done   chan error
	sent   int // mails posted to the game's address
}

func startGame(t testing.TB, dir string, edit func(string) string) (*Daemon, *config.Config) {
	t.Helper()
	return startGameWith(t, dir, edit, nil)
}

// startGameWith is startGame with the daemon's options (the logger is
// set here).
func startGameWith(t testing.TB, dir string, edit func(string) string, opts *Options) (*Daemon, *config.Config) {
	t.Helper()
	scen, err := filepath.Abs("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf(testConfig, scen, imapWait)
	if edit != nil {
		text = edit(text)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	// Parse, not Load: Validate rightly refuses port 0 for a real game, and
	// tests need the kernel to pick free ports.
	cfg, err := config.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = io.Discard
	if os.Getenv("PBEM_TEST_LOG") != "" {
		w = os.Stderr
	}
	log := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Logger = log
	d, err := Start(context.Background(), cfg, &o)
	if err != nil {
		t.Fatal(err)
	}
	return d, cfg
}

func newHarness(t *testing.T, edit func(string) string) *harness {
	t.Helper()
	return newHarnessWith(t, edit, nil)
}

// newHarnessWith is newHarness with the daemon's options.
func newHarnessWith(t *testing.T, edit func(string) string, opts *Options) *harness {
	t.Helper()
	d, cfg := startGameWith(t, t.TempDir(), edit, opts)
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, d: d, cfg: cfg, cancel: cancel, done: make(chan error, 1)}
	go func() { h.done <- d.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	select {
	case <-h.done:
	case <-time.After(waitLimit):
		h.t.Errorf("daemon did not stop within %v", waitLimit)
	}
	h.cancel = nil
	h.d.Close()
}

// send posts a mail as a player's client would. Headers are extra header
// lines ("Auto-Submitted: auto-replied"). It returns the Message-ID.
func (h *harness) send(from, subject, body string, headers ...string) string {
	h.t.Helper()
	id := fmt.Sprintf("<%d.%s>", time.Now().UnixNano(), from)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: orders@pbem.localhost\r\nSubject: %s\r\nMessage-ID: %s\r\nDate: %s\r\n",
		from, subject, id, time.Now().Format(time.RFC1123Z))
	for _, hd := range headers {
		b.WriteString(hd + "\r\n")
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	h.sendRaw(from, []byte(b.String()))
	return strings.Trim(id, "<>")
}

// sendRaw posts raw as from's mail client does: logged in as from (with
// the test config's password for its account, see loginFor).
func (h *harness) sendRaw(from string, raw []byte) {
	h.t.Helper()
	if err := h.sendAs(loginFor(from), from, raw); err != nil {
		h.t.Fatal(err)
	}
}

// sendAs posts raw logged in as login (nil: without logging in) with the
// envelope sender from, and counts it if the server took it.
func (h *harness) sendAs(login *mailserver.Login, from string, raw []byte) error {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	err := mailserver.SendAs(ctx, h.d.Mail.SMTPAddr(), login, from, []string{"orders@pbem.localhost"}, raw)
	if err == nil {
		h.sent++
	}
	return err
}

// loginFor is the login of an account of the test config: the address and
// "pw-" and its local part. nil for an address of another domain.
func loginFor(addr string) *mailserver.Login {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || !strings.EqualFold(domain, "pbem.localhost") {
		return nil
	}
	return &mailserver.Login{User: addr, Password: "pw-" + local}
}

// refereePassword is the test config's game.referee_password.
const refereePassword = "demo-referee-orders"

// inbox returns the raw messages in an account's INBOX.
func (h *harness) inbox(user, pass string) [][]byte {
	h.t.Helper()
	return fetchAll(h.t, h.d.Mail.IMAPAddr(), user, pass)
}

func fetchAll(t testing.TB, addr, user, pass string) [][]byte {
	t.Helper()
	msgs, err := imaptest.Messages(addr, user, pass, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// waitFor polls an account's INBOX until a message satisfies ok or
// waitLimit passes; it returns the message ("" if none came) and how long it
// took.
func (h *harness) waitFor(user, pass string, ok func(string) bool) (string, time.Duration) {
	h.t.Helper()
	start := time.Now()
	for time.Since(start) < waitLimit {
		for _, m := range h.inbox(user, pass) {
			if ok(string(m)) {
				return string(m), time.Since(start)
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	return "", time.Since(start)
}

// replyTo is a waitFor condition: the message answers Message-ID id.
func replyTo(id string) func(string) bool {
	return func(m string) bool { return strings.Contains(header(m, "In-Reply-To"), id) }
}

// settle waits until every mail posted has been stored and handled and
// every answer sent, so that a test can assert what did not happen.
func (h *harness) settle() {
	h.t.Helper()
	ctx := context.Background()
	db := h.d.Game.DB
	deadline := time.Now().Add(waitLimit)
	for {
		done, waiting := 0, 0
		for _, st := range []store.MailStatus{store.MailIgnored, store.MailQuarantined, store.MailAcknowledged, store.MailMoved} {
			ms, err := db.MailByStatus(ctx, st)
			if err != nil {
				h.t.Fatal(err)
			}
			done += len(ms)
		}
		for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending} {
			rows, err := db.MessagesInState(ctx, st)
			if err != nil {
				h.t.Fatal(err)
			}
			waiting += len(rows)
		}
		if done >= h.sent && waiting == 0 {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("after %v: %d of %d mails handled, %d answers not yet sent", waitLimit, done, h.sent, waiting)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// count returns how many messages an account's INBOX holds, besides the
// starting report every nation and the referee get when the game is made.
func (h *harness) count(user, pass string) int {
	h.t.Helper()
	n := 0
	for _, m := range h.inbox(user, pass) {
		if !isStartReport(string(m)) {
			n++
		}
	}
	return n
}

// isStartReport is a waitFor condition: the starting report (a nation's,
// or the referee's master report of the opening).
func isStartReport(m string) bool {
	s := header(m, "Subject")
	return strings.Contains(s, "starting report") || strings.Contains(s, "opening — referee's master report")
}

// body returns a message's decoded text: the body, or the text parts of a
// multipart mail (not its attachments).
func body(raw string) string {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return raw
	}
	ct, params, _ := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if strings.HasPrefix(ct, "multipart/") {
		var out strings.Builder
		r := multipart.NewReader(m.Body, params["boundary"])
		for {
			p, err := r.NextPart()
			if err != nil {
				break
			}
			if p.FileName() != "" {
				continue
			}
			var rd io.Reader = p // the multipart reader decodes quoted-printable itself
			if p.Header.Get("Content-Transfer-Encoding") == "base64" {
				rd = base64.NewDecoder(base64.StdEncoding, p)
			}
			b, _ := io.ReadAll(rd)
			out.Write(b)
		}
		return strings.ReplaceAll(out.String(), "\r\n", "\n")
	}
	var r io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, _ := io.ReadAll(r)
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// header returns a header field of a raw message.
func header(raw, key string) string {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return ""
	}
	v := m.Header.Get(key)
	if d, err := new(mime.WordDecoder).DecodeHeader(v); err == nil {
		return d
	}
	return v
}

// imapWait is how the harness's intake waits for new mail: with IDLE, as in
// production, and a short poll as the safety net.
const imapWait = "idle: true\n    poll_interval: 1s"

// testClock is a clock that runs with the real one, put forward by Advance:
// the daemon's deadlines pass without a test waiting for them. The mail
// servers keep the real clock.
type testClock struct{ off atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *testClock) Advance(d time.Duration) { c.off.Add(int64(d)) }

// waitUntil polls cond until it holds, or fails the test saying what.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > waitLimit {
			t.Fatalf("not within %v: %s", waitLimit, what)
		}
	}
}

// emptySheet is a nation's sheet with no orders: a sheet in force all the
// same (the nation is not NMR).
func emptySheet(nation string, turn int) string {
	return fmt.Sprintf("GAME syw\nNATION %s\nPASSWORD demo-%s\nTURN %d\nEND\n", nation, nation, turn)
}

// subjectHas is a waitFor condition on the subject.
func subjectHas(s string) func(string) bool {
	return func(m string) bool { return strings.Contains(header(m, "Subject"), s) }
}

// refereeCommand is a referee mail of commands with the referee password.
func refereeCommand(lines ...string) string {
	return "PASSWORD " + refereePassword + "\n" + strings.Join(lines, "\n") + "\n"
}
