package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/console"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/host"
	"github.com/syw-pbem/pbem/mailserver"
)

// hostLimit bounds every wait on the host; waits return as soon as done.
const hostLimit = 60 * time.Second

// browser is a cookie-keeping client of a console.
type browser struct {
	t   *testing.T
	url string
	c   *http.Client
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	resp, err := b.c.Get(b.url + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func (b *browser) post(path string, form url.Values) int {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.url)
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// signIn signs in to a game's desk and reports whether it opened.
func (b *browser) signIn(game, pw string) bool {
	b.t.Helper()
	_, page := b.get("/g/" + game + "/login")
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		b.t.Fatalf("no sign-in form for %s:\n%s", game, page)
	}
	if b.post("/g/"+game+"/login", url.Values{"csrf": {m[1]}, "password": {pw}}) != http.StatusSeeOther {
		return false
	}
	code, _ := b.get("/g/" + game + "/")
	return code == http.StatusOK
}

func mustJar(t *testing.T) http.CookieJar {
	j, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func readSecret(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for start := time.Now(); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > hostLimit {
			t.Fatalf("not within %v: %s", hostLimit, what)
		}
	}
}

// TestHostConsole: "pbem run --host"'s console over a real host serving
// an SYW game and a Trossian game beside it (added with --scenario
// trossian): a sheet by mail to each, through the host's one address, seen
// on its own desk; each desk opened with its own game's referee password
// and giving nothing of the other; the Trossian game's turn resolved from
// its desk, the SYW game's untouched; a game stopped leaves the list and
// comes back, asking its referee to sign in again; a game added appears.
// No game is held, nothing panics.
func TestHostConsole(t *testing.T) {
	x := startTestHost(t)
	x.sheetsByMail()
	srv := httptest.NewServer(console.New(hostGames{x.h}, nil))
	t.Cleanup(srv.Close)
	x.b = &browser{t: t, url: srv.URL, c: &http.Client{Jar: mustJar(t), CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	x.eachDeskItsOwn()
	x.gamesComeAndGo()
	// Another game's referee password opens no desk (tried last: a wrong
	// password slows the next sign-in from the address).
	fresh := &browser{t: t, url: srv.URL, c: &http.Client{Jar: mustJar(t), CheckRedirect: x.b.c.CheckRedirect}}
	if fresh.signIn("alpha", x.refereePW("tross")) {
		t.Error("tross's referee password opened alpha's desk")
	}
	for _, g := range x.h.Games() {
		if g.Status == host.StatusHeld {
			t.Errorf("game %s held: %s", g.Name, g.Err)
		}
	}
	if strings.Contains(x.logs.String(), "panic") {
		t.Errorf("a panic in the host's log:\n%s", x.logs.String())
	}
}

// testHost is a host running for a test, and a browser on its console.
type testHost struct {
	t    *testing.T
	dir  string
	h    *host.Host
	ctx  context.Context
	logs *syncLog
	b    *browser
}

// startTestHost makes a host folder with alpha (SYW 1752) and tross (the
// Trossian campaign), its mail server on ports the kernel picks, and runs
// it until the test ends.
func startTestHost(t *testing.T) *testHost {
	dir := t.TempDir()
	if err := host.Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	s, err := host.ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Mail.IMAPListen, s.Mail.SMTPListen = "127.0.0.1:0", "127.0.0.1:0"
	if err := host.WriteSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	if _, err := host.AddGame(dir, "alpha", host.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if a, err := host.AddGame(dir, "tross", host.AddOptions{Scenario: "trossian"}); err != nil || a.Ruleset != "trossian" || len(a.Nations) != 5 {
		t.Fatalf("host add --scenario trossian: %v %+v", err, a)
	}
	x := &testHost{t: t, dir: dir, logs: &syncLog{}}
	h, err := host.Open(dir, &host.Options{Logger: slog.New(slog.NewTextHandler(x.logs, nil)), Reread: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; h.Close() })
	for _, g := range h.Games() {
		if g.Status != host.StatusRunning {
			t.Fatalf("game %s is %s: %s", g.Name, g.Status, g.Err)
		}
	}
	x.h, x.ctx = h, ctx
	return x
}

func (x *testHost) refereePW(game string) string {
	return readSecret(x.t, filepath.Join(host.GameDir(x.dir, game), "secrets", "referee.txt"))
}

// send mails a sheet from a player's account to the host's one address.
func (x *testHost) send(from, body string) {
	x.t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <%d.%s>\r\nDate: %s\r\n\r\n%s", from, x.h.Address(),
		time.Now().UnixNano(), from, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
	pw := readSecret(x.t, filepath.Join(x.dir, "secrets", "mail", from+".txt"))
	ctx, cancel := context.WithTimeout(context.Background(), hostLimit)
	defer cancel()
	if err := mailserver.SendAs(ctx, x.h.Mail().SMTPAddr(), &mailserver.Login{User: from, Password: pw}, from, []string{x.h.Address()}, []byte(raw)); err != nil {
		x.t.Fatal(err)
	}
}

// desk reads a served game's desk.
func (x *testHost) desk(game string) *daemon.DeskView {
	x.t.Helper()
	g, ok := x.h.Game(game)
	if !ok {
		x.t.Fatalf("game %s is not served", game)
	}
	v, err := g.Desk(context.Background())
	if err != nil {
		x.t.Fatalf("%s's desk: %v", game, err)
	}
	return v
}

// sheetsByMail sends a sheet to each game through the host's one address
// and waits for each on its game's desk.
func (x *testHost) sheetsByMail() {
	nationPW := func(game, nation string) string {
		return readSecret(x.t, filepath.Join(host.GameDir(x.dir, game), "secrets", nation+".txt"))
	}
	x.send("norvale@pbem.localhost", fmt.Sprintf("GAME tross\nNATION norvale\nPASSWORD %s\nTURN 1\nMOVE N1 TO Trossburg\nEND\n", nationPW("tross", "norvale")))
	x.send("eisenmark@pbem.localhost", fmt.Sprintf("GAME alpha\nNATION eisenmark\nPASSWORD %s\nTURN 1\nEND\n", nationPW("alpha", "eisenmark")))
	sheetIn := func(game, nation string) func() bool {
		return func() bool {
			for _, s := range x.desk(game).Sheets {
				if s.ID == nation && s.Receipt != "" {
					return true
				}
			}
			return false
		}
	}
	waitFor(x.t, "Norvale's sheet in tross", sheetIn("tross", "norvale"))
	waitFor(x.t, "Eisenmark's sheet in alpha", sheetIn("alpha", "eisenmark"))
}

// eachDeskItsOwn signs in to tross and alpha, each with its own referee's
// password, and checks that tross's session gets nothing of alpha; tross's
// turn is resolved from its desk, and alpha's is not.
func (x *testHost) eachDeskItsOwn() {
	t, b := x.t, x.b
	if code, list := b.get("/"); code != http.StatusOK || !strings.Contains(list, `href="/g/alpha/"`) || !strings.Contains(list, `href="/g/tross/"`) {
		t.Fatalf("the list of games: %d\n%s", code, list)
	}
	if !b.signIn("tross", x.refereePW("tross")) {
		t.Fatal("tross's referee password did not open its desk")
	}
	code, desk := b.get("/g/tross/")
	if code != http.StatusOK || !strings.Contains(desk, "Turn 1, Early Spring 1801") || !strings.Contains(desk, "MOVE N1 TO Trossburg") {
		t.Fatalf("tross's desk: %d\n%s", code, desk)
	}
	for _, path := range []string{"/g/alpha/", "/g/alpha/archive", "/g/alpha/report/0/referee.pdf", "/g/alpha/version"} {
		if code, body := b.get(path); code == http.StatusOK || strings.Contains(body, "eisenmark") {
			t.Errorf("tross's session: GET %s gave %d", path, code)
		}
	}
	if code, pdf := b.get("/g/tross/report/0/referee.pdf"); code != http.StatusOK || !strings.HasPrefix(pdf, "%PDF") {
		t.Errorf("tross's opening report: %d", code)
	}
	if code := b.post("/g/tross/act/resolve", url.Values{"csrf": {csrfRE.FindStringSubmatch(desk)[1]}, "turn": {"1"}}); code != http.StatusSeeOther {
		t.Fatalf("resolve from tross's desk: %d", code)
	}
	waitFor(t, "tross's turn 1 resolved", func() bool { return x.desk("tross").LastTurn == 1 })
	if code, pdf := b.get("/g/tross/report/1/norvale.pdf"); code != http.StatusOK || !strings.HasPrefix(pdf, "%PDF") {
		t.Errorf("Norvale's report of turn 1 on tross's desk: %d", code)
	}
	if n := x.desk("alpha").LastTurn; n != 0 {
		t.Errorf("alpha's last turn is %d after tross resolved; want 0", n)
	}
	if !b.signIn("alpha", x.refereePW("alpha")) {
		t.Fatal("alpha's referee password did not open its desk")
	}
	if code, desk := b.get("/g/alpha/"); code != http.StatusOK || !strings.Contains(desk, "Eisenmark") || strings.Contains(desk, "Norvale") {
		t.Fatalf("alpha's desk: %d", code)
	}
}

// gamesComeAndGo stops tross (off the list, its desk says why), starts it
// again (back, its referee still signed in), and adds charlie (on the list).
func (x *testHost) gamesComeAndGo() {
	t, b, ctx := x.t, x.b, x.ctx
	if err := host.StopGame(x.dir, "tross"); err != nil {
		t.Fatal(err)
	}
	x.h.Reload(ctx)
	waitFor(t, "tross stopped", func() bool { _, ok := x.h.Game("tross"); return !ok })
	if _, list := b.get("/"); strings.Contains(list, `href="/g/tross/"`) || !strings.Contains(list, "not served now: stopped") {
		t.Errorf("tross stopped, the list:\n%s", list)
	}
	if code, body := b.get("/g/tross/"); code != http.StatusNotFound || !strings.Contains(body, "pbem host start tross") {
		t.Errorf("tross stopped, its desk: %d %s", code, body)
	}
	if err := host.StartGame(x.dir, "tross"); err != nil {
		t.Fatal(err)
	}
	x.h.Reload(ctx)
	waitFor(t, "tross served again", func() bool { _, ok := x.h.Game("tross"); return ok })
	// Its folder and the sessions kept in it are the same: its referee is
	// still signed in (a game removed and added anew is not: console's
	// TestSessionsOfAReplacedGame).
	if code, _ := b.get("/g/tross/"); code != http.StatusOK {
		t.Errorf("tross served again, the old session: %d; want its desk (sessions outlive a restart)", code)
	}
	if _, err := host.AddGame(x.dir, "charlie", host.AddOptions{Ruleset: "syw-v4"}); err != nil {
		t.Fatal(err)
	}
	x.h.Reload(ctx)
	waitFor(t, "charlie served", func() bool { _, ok := x.h.Game("charlie"); return ok })
	if _, list := b.get("/"); !strings.Contains(list, `href="/g/charlie/"`) {
		t.Errorf("charlie added, the list:\n%s", list)
	}
}

// TestRunHostConsole: "pbem run --host DIR" as a user runs it serves the
// console where host.yaml's web block says, printed in the banner with
// each game's desk, and the list of the host's games is there; a web
// block beyond loopback without TLS stops the host before it starts.
func TestRunHostConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pbem binary: not under -short")
	}
	dir := t.TempDir()
	if err := host.Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	s, err := host.ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	web := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	s.Mail.IMAPListen, s.Mail.SMTPListen = fmt.Sprintf("127.0.0.1:%d", freePort(t)), fmt.Sprintf("127.0.0.1:%d", freePort(t))
	s.Web.Listen = "0.0.0.0:8443"
	if err := host.WriteSettings(dir, s); err == nil {
		t.Fatal("host.yaml written with a console beyond loopback without TLS")
	}
	s.Web.Listen = web
	if err := host.WriteSettings(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, g := range []host.AddOptions{{}, {Scenario: "trossian"}} {
		name := "alpha"
		if g.Scenario != "" {
			name = "tross"
		}
		if _, err := host.AddGame(dir, name, g); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(pbemBinary(t), "run", "--host", dir)
	var log syncLog
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	waitFor(t, "pbem run --host running", func() bool { return strings.Contains(log.String(), "pbem: running") })
	out := log.String()
	for _, want := range []string{"the referees' console: http://" + web + "/", "desk http://" + web + "/g/alpha/", "desk http://" + web + "/g/tross/"} {
		if !strings.Contains(out, want) {
			t.Errorf("the banner lacks %q:\n%s", want, out)
		}
	}
	resp, err := http.Get("http://" + web + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `href="/g/alpha/login"`) || !strings.Contains(string(body), `href="/g/tross/login"`) {
		t.Errorf("the list of games:\n%s", body)
	}
}

// TestRunHostRefusesConsoleInClear: a host.yaml whose console listens
// beyond loopback without TLS stops "pbem run --host" before anything
// starts, saying why; so does a certificate named but missing.
func TestRunHostRefusesConsoleInClear(t *testing.T) {
	dir := t.TempDir()
	if err := host.Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, host.SettingsFile)
	yaml, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ listen, want string }{
		{"listen: 0.0.0.0:8443", "needs TLS"},
		{"listen: 0.0.0.0:8443\n    tls_cert: nosuch.pem\n    tls_key: nosuch.key", "web.tls_cert: cannot be read"},
	} {
		text := strings.Replace(string(yaml), "listen: "+host.DefaultWebListen, c.listen, 1)
		text = strings.Replace(text, "    tls_cert: \"\"\n    tls_key: \"\"\n", "", 1)
		text = strings.NewReplacer("127.0.0.1:1143", "127.0.0.1:0", "127.0.0.1:2525", "127.0.0.1:0").Replace(text) // were it to start after all
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := run(t, "", "run", "--host", dir); code != exitConfig || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, want %d saying %q\n%s%s", c.listen, code, exitConfig, c.want, out, errs)
		}
	}
}
