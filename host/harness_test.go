package host

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/demo"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/parser"
)

// waitLimit bounds every wait; waits poll and return as soon as it is done.
const waitLimit = 60 * time.Second

// testClock runs with the real clock, put forward by Advance, so that the
// games' deadlines pass without the test waiting for them.
type testClock struct{ off atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *testClock) Advance(d time.Duration) { c.off.Add(int64(d)) }

func testLogger() *slog.Logger {
	var w io.Writer = io.Discard
	if os.Getenv("PBEM_TEST_LOG") != "" {
		w = os.Stderr
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// gameSpec is a game a test puts on its host.
type gameSpec struct{ name, ruleset string }

// newHostFolder makes a host folder with the games, its server on ports
// the kernel picks, each game's store created with the same dice key (so a
// copy run alone rolls the same dice).
func newHostFolder(t testing.TB, games ...gameSpec) string {
	t.Helper()
	dir := t.TempDir()
	if err := Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Mail.IMAPListen, s.Mail.SMTPListen = "127.0.0.1:0", "127.0.0.1:0"
	if err := WriteSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	scen, err := filepath.Abs("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if _, err := AddGame(dir, g.name, AddOptions{Scenario: scen, Ruleset: g.ruleset}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// startHost starts the host in dir with the clock; it is stopped when the
// test ends.
func startHost(t testing.TB, dir string, clock *testClock, gameOpts func(string) *daemon.Options) *Host {
	t.Helper()
	h, err := Open(dir, &Options{Logger: testLogger(), Now: clock.Now, Reread: 50 * time.Millisecond, GameOptions: gameOpts})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		h.Close()
	})
	return h
}

// secret reads a password file of the host folder.
func secret(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// mailPassword is an account's password on the host's server.
func mailPassword(t testing.TB, dir, user string) string {
	return secret(t, filepath.Join(dir, accountSecretRel(user)))
}

// nationPassword is a nation's order-sheet password in a game.
func nationPassword(t testing.TB, gameDir, nation string) string {
	return secret(t, filepath.Join(gameDir, "secrets", nation+".txt"))
}

var msgSeq atomic.Int64

// post sends a sheet from a player's account (logged in) to an address on
// the server at smtpAddr; it returns the Message-ID, or the server's
// refusal.
func post(smtpAddr, from, pass, to, subject, body string) (string, error) {
	id := fmt.Sprintf("%d.%d@test", time.Now().UnixNano(), msgSeq.Add(1))
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, to, subject, id, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	return id, mailserver.SendAs(ctx, smtpAddr, &mailserver.Login{User: from, Password: pass}, from, []string{to}, []byte(raw))
}

// waitMail waits for a message in an account's INBOX that satisfies ok. It
// polls over one login, fetching each message once.
func waitMail(t testing.TB, imapAddr, user, pass string, ok func(string) bool) string {
	t.Helper()
	box := imaptest.OpenMailbox(imapAddr, user, pass, "INBOX")
	defer box.Close()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(30 * time.Millisecond) {
		msgs, err := box.Messages()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if ok(string(m)) {
				return string(m)
			}
		}
	}
	t.Fatalf("no mail for %s within %v", user, waitLimit)
	return ""
}

// header returns a header field of a raw message.
func header(raw, key string) string {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return ""
	}
	return m.Header.Get(key)
}

// answers is a waitMail condition: the message answers Message-ID id.
func answers(id string) func(string) bool {
	return func(m string) bool { return strings.Contains(header(m, "In-Reply-To"), id) }
}

// waitUntil polls cond until it holds, or fails the test saying what.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > waitLimit {
			t.Fatalf("not within %v: %s", waitLimit, what)
		}
	}
}

// scriptSheets writes every nation's sheet for the open turn of g as the
// demo's scripted players would, for game name with the game's passwords.
func scriptSheets(t testing.TB, g *daemon.Game, gameDir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	st, err := g.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fix := func(sheet string, nation string) string {
		sheet = strings.Replace(sheet, "GAME syw\n", "GAME "+g.ID()+"\n", 1)
		return strings.Replace(sheet, "PASSWORD demo-"+nation+"\n", "PASSWORD "+nationPassword(t, gameDir, nation)+"\n", 1)
	}
	script := demo.NewScript(g.Map, g.Rules, 7)
	out := map[string]string{}
	for _, n := range st.Nations {
		nation := string(n.ID)
		check := func(sheet string) *parser.Report {
			return parser.Check(fix(sheet, nation), parser.CheckContext{Map: g.Map, Rules: g.Rules, State: st, Game: g.ID()})
		}
		text, _ := script.Play(st, n.ID, check)
		out[nation] = fix(text, nation)
	}
	return out
}

// turnOf is the turn g takes orders for.
func turnOf(t testing.TB, g *daemon.Game) int {
	st, err := g.State(context.Background())
	if err != nil {
		return -1
	}
	return st.Turn
}
