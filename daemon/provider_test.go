//go:build unix

package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/store"
)

// The external mode, end to end, on the suite's test provider
// (internal/imaptest.Provider: a real Dovecot for IMAP, an authenticated
// submission server delivering into it over LMTP). A game here is the
// daemon as "pbem run" runs it against a provider; stopping it is what
// SIGTERM does to "pbem run" (the context ends, Run returns, Close).

// providerUsers are the provider's accounts: the game's, the referee's,
// and each nation's, with "pw-" and the local part as password.
var providerUsers = func() map[string]string {
	m := map[string]string{}
	for _, u := range []string{"orders", "referee", "eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"} {
		m[u+"@provider.test"] = "pw-" + u
	}
	return m
}()

// providerConfig is a game in external mode on the test provider: IMAP
// and SMTP ports, then the scenario.
const providerConfig = `
data_dir: data
log_level: warn
game:
  id: syw
  name: SYW Provider Game
  ruleset: syw-1752
  scenario: %[3]s
  referee: referee@provider.test
  referee_password: {password: demo-referee-orders}
  timezone: UTC
  deadline: {time: "18:00", every_days: 28}
  nations:
    eisenmark: {addresses: [eisenmark@provider.test], password: demo-eisenmark}
    morgronskia: {addresses: [morgronskia@provider.test], password: demo-morgronskia}
    unterreich: {addresses: [unterreich@provider.test], password: demo-unterreich}
    fromande: {addresses: [fromande@provider.test], password: demo-fromande}
    hispardia: {addresses: [hispardia@provider.test], password: demo-hispardia}
mail:
  mode: external
  address: orders@provider.test
  imap:
    host: 127.0.0.1
    port: %[1]d
    security: none
    username: orders@provider.test
    password_file: imap-password.txt
    idle: true
    poll_interval: 1s
    arrival_grace: 0s
  smtp:
    host: 127.0.0.1
    port: %[2]d
    security: none
    username: orders@provider.test
    password_file: smtp-password.txt
    rate_per_minute: 6000
    backoff_initial: 1s
    backoff_max: 2s
`

// provGame is a game on the test provider.
type provGame struct {
	t      *testing.T
	p      *imaptest.Provider
	dir    string
	cfg    *config.Config
	clock  *testClock // nil: the real clock
	d      *Daemon
	cancel context.CancelFunc
	done   chan error
}

// newProvGame writes a game's config for a fresh provider (edit changes
// the config text) and starts it.
func newProvGame(t *testing.T, edit func(string) string, clock *testClock) *provGame {
	t.Helper()
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: providerUsers})
	g := &provGame{t: t, p: p, dir: t.TempDir(), clock: clock}
	scen, err := filepath.Abs("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf(providerConfig, p.IMAPPort(), p.SMTPPort(), scen)
	if edit != nil {
		text = edit(text)
	}
	for name, body := range map[string]string{"config.yaml": text, "imap-password.txt": "pw-orders\n", "smtp-password.txt": "pw-orders\n"} {
		if err := os.WriteFile(filepath.Join(g.dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(g.dir, "config.yaml")
	if g.cfg, err = config.Parse([]byte(text), path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.stop)
	g.start()
	return g
}

// start starts the daemon, as "pbem run" does.
func (g *provGame) start() {
	g.t.Helper()
	o := &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), TurnMailer: PlainTurnMail}
	if g.clock != nil {
		o.Now = g.clock.Now
	}
	d, err := Start(context.Background(), g.cfg, o)
	if err != nil {
		g.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.d, g.cancel, g.done = d, cancel, make(chan error, 1)
	go func() { g.done <- d.Run(ctx) }()
}

// stop stops the daemon as SIGTERM stops "pbem run".
func (g *provGame) stop() {
	if g.cancel == nil {
		return
	}
	g.cancel()
	select {
	case <-g.done:
	case <-time.After(waitLimit):
		g.t.Errorf("the daemon did not stop within %v", waitLimit)
	}
	g.cancel = nil
	g.d.Close()
	g.d = nil
}

// db opens the game's store while the daemon is stopped (the caller
// closes it).
func (g *provGame) db() *store.DB {
	g.t.Helper()
	db, err := store.Open(filepath.Join(g.dir, "data", "pbem.db"), nil)
	if err != nil {
		g.t.Fatal(err)
	}
	return db
}

// send submits a mail to the game's address through the provider, logged
// in as from, and returns its Message-ID (without brackets).
func (g *provGame) send(from, subject, text string, headers ...string) string {
	g.t.Helper()
	id := fmt.Sprintf("%d.%s", time.Now().UnixNano(), from)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: orders@provider.test\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n",
		from, subject, id, time.Now().Format(time.RFC1123Z))
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(text, "\n", "\r\n"))
	if err := g.p.Send(from, []string{"orders@provider.test"}, []byte(b.String())); err != nil {
		g.t.Fatal(err)
	}
	return id
}

// delivered waits until the provider has put every mail submitted so far
// into its mailbox.
func (g *provGame) delivered() {
	g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := g.p.WaitDelivered(ctx); err != nil {
		g.t.Fatal(err)
	}
}

// waitFor polls an account's INBOX at the provider until a message
// satisfies ok, and returns it.
func (g *provGame) waitFor(user string, ok func(string) bool) string {
	g.t.Helper()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(25 * time.Millisecond) {
		msgs, _ := imaptest.Messages(g.p.IMAPAddr(), user, providerUsers[user], "INBOX")
		for _, m := range msgs {
			if ok(string(m)) {
				return string(m)
			}
		}
	}
	g.t.Fatalf("%s got no such mail within %v", user, waitLimit)
	return ""
}
