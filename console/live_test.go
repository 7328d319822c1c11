package console

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// A live game: the daemon on its embedded mail server, as "pbem run" runs
// it, with the console in front. The tests here go through the real
// registry of referee commands, the store and the outbox.

const liveConfig = `
data_dir: data
log_level: warn
game:
  id: syw
  name: SYW Console Game
  ruleset: syw-1752
  scenario: %s
  referee: referee@pbem.localhost
  referee_password: {password: %s}
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
  imap:
    idle: true
    poll_interval: 1s
web:
  listen: 127.0.0.1:0
`

const liveRefereePassword = "demo-referee-orders"

// liveLimit bounds every wait for the daemon; waits return as soon as it is
// done.
const liveLimit = 60 * time.Second

// liveGame is a running daemon.
type liveGame struct {
	t    testing.TB
	d    *daemon.Daemon
	sent int
}

func startLiveGame(t testing.TB) *liveGame { return startLiveGameWith(t, nil) }

// startLiveGameWith is startLiveGame with the config edited.
func startLiveGameWith(t testing.TB, edit func(string) string) *liveGame {
	t.Helper()
	scen, err := filepath.Abs("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := fmt.Sprintf(liveConfig, scen, liveRefereePassword)
	if edit != nil {
		text = edit(text)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte(text), path) // Parse: Validate refuses the port 0 tests need
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = io.Discard
	if os.Getenv("PBEM_TEST_LOG") != "" {
		w = os.Stderr
	}
	d, err := daemon.Start(context.Background(), cfg, &daemon.Options{Logger: slog.New(slog.NewTextHandler(w, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(liveLimit):
			t.Errorf("the daemon did not stop within %v", liveLimit)
		}
		d.Close()
	})
	return &liveGame{t: t, d: d}
}

// send posts a mail from a player's account, logged in as the player.
func (l *liveGame) send(from, subject, body string) {
	l.t.Helper()
	l.sent++
	local, _, _ := strings.Cut(from, "@")
	raw := fmt.Sprintf("From: %s\r\nTo: orders@pbem.localhost\r\nSubject: %s\r\nMessage-ID: <%d.%d.%s>\r\nDate: %s\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, subject, time.Now().UnixNano(), l.sent, from, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	ctx, cancel := context.WithTimeout(context.Background(), liveLimit)
	defer cancel()
	if err := mailserver.SendAs(ctx, l.d.Mail.SMTPAddr(), &mailserver.Login{User: from, Password: "pw-" + local}, from,
		[]string{"orders@pbem.localhost"}, []byte(raw)); err != nil {
		l.t.Fatal(err)
	}
}

// waitDesk waits until the desk shows what ok looks for.
func (l *liveGame) waitDesk(what string, ok func(*daemon.DeskView) bool) *daemon.DeskView {
	l.t.Helper()
	deadline := time.Now().Add(liveLimit)
	for {
		v, err := l.d.Game.Desk(context.Background())
		if err != nil {
			l.t.Fatal(err)
		}
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("waited %v for %s", liveLimit, what)
		}
		time.Sleep(20 * time.Millisecond) // the intake gives no signal to wait on from outside
	}
}

// mailTo waits for a mail in the outbox to addr whose subject holds want,
// and returns the subject.
func (l *liveGame) mailTo(addr, want string) string {
	l.t.Helper()
	deadline := time.Now().Add(liveLimit)
	for {
		for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
			rows, err := l.d.Game.DB.MessagesInState(context.Background(), st)
			if err != nil {
				l.t.Fatal(err)
			}
			for _, r := range rows {
				if strings.Contains(strings.Join(r.Recipients, ","), addr) {
					if s := subjectLine(r.Raw); strings.Contains(s, want) {
						return s
					}
				}
			}
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("no mail to %s about %q within %v", addr, want, liveLimit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var subjectRE = regexp.MustCompile(`(?m)^Subject: (.*)\r?$`)

func subjectLine(raw []byte) string {
	if m := subjectRE.FindSubmatch(raw); m != nil {
		return strings.TrimSpace(string(m[1]))
	}
	return ""
}

const requestSheet = `My orders:

GAME syw
NATION eisenmark
PASSWORD demo-eisenmark
TURN 1
STANCE E1 ATTACK
REQUEST "Bribe the governor of Dresna"
END
`

// sendRequest sends Eisenmark's sheet with a request and waits for the
// desk to show it; it returns the request's token.
func (l *liveGame) sendRequest() string {
	l.t.Helper()
	l.send("eisenmark@pbem.localhost", "orders", requestSheet)
	v := l.waitDesk("Eisenmark's sheet and request", func(v *daemon.DeskView) bool { return len(v.Requests) > 0 })
	return v.Requests[0].Token
}

// TestDeskOnALiveGame: on a running game the desk shows a sheet as it came
// in; approving its request from the desk records the ruling through the
// registry and mails the player as a referee's mail would; a deadline
// extended moves; a tabletop result with an error shows it at its field;
// a turn resolved from the desk can be rolled back from it; every act is
// in the desk's log.
func TestDeskOnALiveGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a live game: not under -short")
	}
	t.Parallel()
	l := startLiveGame(t)
	token := l.sendRequest()

	b := newRigFor(t, New(Single(l.d.Game), nil))
	if resp, _ := b.login("not-the-password"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %s", resp.Status)
	}
	b.console.limit.succeeded("127.0.0.1") // the next sign-in is not the wrong one's to slow
	page := b.signInWith(liveRefereePassword)
	for _, want := range []string{"Eisenmark", "eisenmark@pbem.localhost", "STANCE E1 ATTACK", token, "Bribe the governor of Dresna", "missing"} {
		if !strings.Contains(page, want) {
			t.Errorf("the desk lacks %q", want)
		}
	}
	v0, _ := l.d.Game.Desk(context.Background())

	// Approve the request: the ruling is the registry's, the player is told.
	b.act("approve", "token", token)
	page = b.page()
	if !strings.Contains(page, "recorded for Eisenmark") {
		t.Errorf("the answer to APPROVE is not on the desk:\n%s", answerOf(page))
	}
	if s := l.mailTo("eisenmark@pbem.localhost", "approved"); s == "" {
		t.Error("the player was not mailed the ruling")
	}
	if v, _ := l.d.Game.Desk(context.Background()); v.Requests[0].Ruling == "" {
		t.Error("the ruling is not recorded")
	}

	// Extend the deadline by two days.
	b.act("extend", "turn", "1", "duration", "2d")
	if v, _ := l.d.Game.Desk(context.Background()); v.Deadline.Sub(v0.Deadline) != 48*time.Hour {
		t.Errorf("deadline %v after EXTEND 2d, was %v", v.Deadline, v0.Deadline)
	}

	// A tabletop result with an error: shown at its field.
	b.act("result", "hex", "0502", "outcome", "decisive", "winner", "eisenmark")
	page = b.page()
	if !regexp.MustCompile(`name="hex" value="0502"[^>]*></label><span class="field-error"`).MatchString(page) {
		t.Errorf("the RESULT's error is not at the hex field:\n%s", answerOf(page))
	}

	// Resolve the turn now, then roll it back: turn 1 is open again.
	b.act("resolve", "turn", "1")
	l.waitDesk("turn 2 open", func(v *daemon.DeskView) bool { return v.Turn == 2 })
	if resp, body := b.get("/g/syw/report/1/eisenmark.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("Eisenmark's report of turn 1: %s", resp.Status)
	}
	if resp, body := b.get("/g/syw/report/1/referee.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("the master report of turn 1: %s", resp.Status)
	}
	if resp, body := b.get("/g/syw/mapimg/1/referee.svg"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "<svg") {
		t.Errorf("the map image of turn 1: %s", resp.Status)
	}
	b.act("rollback", "turn", "2", "target", "1", "confirm", "yes")
	l.waitDesk("turn 1 open again", func(v *daemon.DeskView) bool { return v.Turn == 1 })

	v, _ := l.d.Game.Desk(context.Background())
	var log []string
	for _, e := range v.Log {
		log = append(log, strings.TrimSpace(e.Text))
	}
	for _, want := range []string{"APPROVE " + token, "TURN 1\nDEADLINE EXTEND 2d", "TURN 1\nRESOLVE NOW", "TURN 2\nROLLBACK 1"} {
		if !strings.Contains(strings.Join(log, "|"), want) {
			t.Errorf("the desk's log lacks %q: %q", want, log)
		}
	}
	for _, e := range v.Log {
		if e.Who != "referee" || e.From == "" || e.At.IsZero() {
			t.Errorf("a log entry without who, whence or when: %+v", e)
		}
	}
}

// page is the desk.
func (c *rig) page() string {
	c.t.Helper()
	resp, page := c.get("/g/syw/")
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("the desk: %s", resp.Status)
	}
	return page
}

// act posts a form of the desk with the page's CSRF token.
func (c *rig) act(action string, kv ...string) {
	c.t.Helper()
	f := url.Values{"csrf": {c.csrf(c.page())}}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	if resp, body := c.post("/g/syw/act/"+action, f); resp.StatusCode != http.StatusSeeOther {
		c.t.Fatalf("%s: %s\n%s", action, resp.Status, body)
	}
}

var answerRE = regexp.MustCompile(`(?s)<section id="answer".*?</section>`)

func answerOf(page string) string { return answerRE.FindString(page) }

// TestNationPageFog: a nation's page on a live game shows no force ID or
// general of another nation that the nation's own report does not show.
func TestNationPageFog(t *testing.T) {
	if testing.Short() {
		t.Skip("a live game: not under -short")
	}
	t.Parallel()
	l := startLiveGame(t)
	l.sendRequest()
	b := newRigFor(t, New(Single(l.d.Game), nil))
	_, page := b.get("/g/syw/nation/login")
	if resp, body := b.post("/g/syw/nation/login", url.Values{"csrf": {b.csrf(page)}, "nation": {"eisenmark"},
		"password": {"demo-eisenmark"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %s\n%s", resp.Status, body)
	}
	_, page = b.get("/g/syw/nation/")
	if !strings.Contains(page, "STANCE E1 ATTACK") || !strings.Contains(page, "Bribe the governor") {
		t.Fatalf("the nation's page lacks its sheet:\n%s", page)
	}
	checkFog(t, l, "eisenmark", page)
	// The player's session is kept in the game's data folder: a console
	// started again on the game lets the same browser in.
	if _, err := os.Stat(filepath.Join(l.d.Game.SessionDir(), sessionFileName)); err != nil {
		t.Errorf("no sessions file in the game's data folder: %v", err)
	}
	again := newRigFor(t, New(Single(l.d.Game), nil))
	u0, _ := url.Parse(b.srv.URL)
	u1, _ := url.Parse(again.srv.URL)
	again.jar.SetCookies(u1, b.jar.Cookies(u0))
	if resp, _ := again.get("/g/syw/nation/"); resp.StatusCode != http.StatusOK {
		t.Errorf("the nation's page after the console restarted: %s, want it still signed in", resp.Status)
	}
	resp, svg := b.get("/g/syw/nation/map/0.svg")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(svg, "<svg") || !regexp.MustCompile(`>E1( [A-Z])?<`).MatchString(svg) {
		t.Fatalf("the nation's map image: %s\n%.300s", resp.Status, svg)
	}
	// The image reads like the report's map page: hex numbers, the hexes'
	// and counters' tooltips, rivers, roads, city names, the key — and the
	// fog holds over all of it (checkFog reads every text and tooltip).
	for _, want := range []string{">1910<", "<title>1910 ", "<title>E1 ", "Konigsfeld", "river (along hexsides)",
		"foreign force: size class only", `id="legend"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the nation's map image lacks %q", want)
		}
	}
	checkFog(t, l, "eisenmark", svg)
	if resp, body := b.get("/g/syw/nation/report/0.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("the nation's opening report: %s", resp.Status)
	}
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// checkFog fails the test when page shows a force ID, general's ID or
// general's name of another nation than nation that nation's opening
// report does not show.
func checkFog(t *testing.T, l *liveGame, nation, page string) {
	t.Helper()
	ctx := context.Background()
	st, err := l.d.Game.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	md, err := l.d.Game.RebuildReport(ctx, 0, game.NationID(nation))
	if err != nil {
		t.Fatal(err)
	}
	report, _ := json.Marshal(md)
	text := tagRE.ReplaceAllString(page, " ")
	seen := 0
	for _, f := range st.Forces {
		if string(f.Nation) == nation {
			continue
		}
		names := []string{string(f.ID)}
		for _, ld := range f.Leaders {
			names = append(names, ld.ID, ld.Name)
		}
		for _, n := range names {
			if n == "" {
				continue
			}
			seen++
			if regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).MatchString(text) && !strings.Contains(string(report), n) {
				t.Errorf("%s's page shows %s's %q, which its report does not", nation, f.Nation, n)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no foreign force to look for")
	}
}
