package console

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// fakeGame is a game whose desk is made up, recording what the console
// asks of it: the doors of the console are tested without a store.
type fakeGame struct {
	mu       sync.Mutex
	view     daemon.DeskView
	acts     []string
	verified int
	reports  []string
	// noReferee: no referee password is configured.
	noReferee bool
	// id and password, when set, are the game's ID and referee password
	// (default "syw" and rightPassword).
	id, password string
}

const rightPassword = "the-referee-password"

func newFakeGame() *fakeGame {
	g := &fakeGame{}
	g.view = daemon.DeskView{
		Status: &daemon.Status{Game: "syw", Name: "SYW Test Game", Turn: 3, TurnLabel: "Turn 3, June 1752", Zone: time.UTC,
			Deadline: time.Date(2030, 6, 8, 18, 0, 0, 0, time.UTC), DeadlineSource: "schedule",
			Nations: []daemon.NationStatus{{ID: "eisenmark", Name: "Eisenmark"}, {ID: "fromande", Name: "Fromande"}},
			Requests: []daemon.RequestStatus{{Nation: "eisenmark", Token: "R1a2b3c",
				Text: `<script>alert("special")</script> bribe the governor`},
				{Nation: "fromande", Token: "R9f8e7d", Text: "Fromande's secret plan"}},
			Outbox: map[store.OutboxState]int{}},
		LastTurn: 2,
		Sheets: []daemon.DeskSheet{
			{NationStatus: daemon.NationStatus{ID: "eisenmark", Name: "Eisenmark", Receipt: "abc123", Sheets: 1, Final: true},
				From: "eisenmark@pbem.localhost", Orders: "GAME syw\nNATION eisenmark\nTURN 3\nSTANCE E1 ATTACK\nEND\n"},
			{NationStatus: daemon.NationStatus{ID: "fromande", Name: "Fromande"}, NMR: 2},
		},
		Treaties: []game.Treaty{{ID: "T1", Title: `<img src=x onerror=alert("treaty")>`, Parties: []game.NationID{"eisenmark", "fromande"}}},
	}
	return g
}

func (g *fakeGame) ID() string {
	if g.id != "" {
		return g.id
	}
	return "syw"
}
func (g *fakeGame) Desk(context.Context) (*daemon.DeskView, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v := g.view
	return &v, nil
}
func (g *fakeGame) DeskAct(_ context.Context, who, from, text string) ([]string, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.acts = append(g.acts, text)
	g.view.Log = append(g.view.Log, daemon.DeskEntry{Who: who, From: from, Text: text, OK: true})
	return []string{"line 1: " + strings.TrimSpace(text) + " — done"}, true, nil
}
func (g *fakeGame) DeskReport(_ context.Context, turn int, nation string) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reports = append(g.reports, fmt.Sprintf("%d/%s", turn, nation))
	if nation != "referee" && nation != "eisenmark" && nation != "fromande" {
		return nil, daemon.ErrNoReport
	}
	return []byte("%PDF-1.4 fake"), nil
}
func (g *fakeGame) DeskMapSVG(_ context.Context, turn int, nation string) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reports = append(g.reports, fmt.Sprintf("%d/%s.svg", turn, nation))
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), nil
}
func (g *fakeGame) DeskMap(context.Context, int) ([]byte, error) { return []byte("%PDF-1.4 map"), nil }
func (g *fakeGame) PreviewText(context.Context) (string, error)  { return "the preview", nil }
func (g *fakeGame) Export(_ context.Context, w io.Writer) (int, error) {
	n, err := io.WriteString(w, "{}\n")
	return n, err
}
func (g *fakeGame) VerifyReferee(pw string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.verified++
	if g.password != "" {
		return pw == g.password
	}
	return pw == rightPassword
}

func (g *fakeGame) HasRefereePassword() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.noReferee
}

func (g *fakeGame) VerifyNation(_ context.Context, nation, pw string) bool {
	return pw == "demo-"+nation
}

func (g *fakeGame) actsDone() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.acts...)
}

// clock is a test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// rig is a console on a test server with a browser-like client.
type rig struct {
	t       testing.TB
	g       *fakeGame
	clk     *clock
	srv     *httptest.Server
	c       *http.Client
	jar     http.CookieJar
	opts    Options
	csrfR   *regexp.Regexp
	console *Console
}

func newRig(t *testing.T, opts *Options) *rig {
	t.Helper()
	g, clk := newFakeGame(), &clock{t: time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Now = clk.now
	r := newRigFor(t, New(Single(g), &o))
	r.g, r.clk, r.opts = g, clk, o
	return r
}

// newRigFor is a rig of any console.
func newRigFor(t testing.TB, c *Console) *rig {
	t.Helper()
	r := &rig{t: t, console: c}
	r.srv = httptest.NewServer(c)
	t.Cleanup(r.srv.Close)
	r.jar, _ = cookiejar.New(nil)
	r.c = &http.Client{Jar: r.jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r.csrfR = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	return r
}

func (r *rig) get(path string) (*http.Response, string) {
	r.t.Helper()
	resp, err := r.c.Get(r.srv.URL + path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (r *rig) post(path string, form url.Values, headers ...string) (*http.Response, string) {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", r.srv.URL)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := r.c.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// csrf is the token of the page's first form.
func (r *rig) csrf(page string) string {
	r.t.Helper()
	m := r.csrfR.FindStringSubmatch(page)
	if m == nil {
		r.t.Fatalf("no CSRF token on the page:\n%s", page)
	}
	return m[1]
}

// login signs in with pw and returns the response.
func (r *rig) login(pw string) (*http.Response, string) {
	r.t.Helper()
	_, page := r.get("/g/syw/login")
	return r.post("/g/syw/login", url.Values{"csrf": {r.csrf(page)}, "password": {pw}})
}

// signIn signs in and returns the desk page.
func (r *rig) signIn() string {
	r.t.Helper()
	return r.signInWith(rightPassword)
}

// signInWith signs in with pw and returns the desk page.
func (r *rig) signInWith(pw string) string {
	r.t.Helper()
	if resp, body := r.login(pw); resp.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("sign-in: %s\n%s", resp.Status, body)
	}
	resp, page := r.get("/g/syw/")
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("desk after sign-in: %s", resp.Status)
	}
	return page
}

// TestSignInShowsTheDesk: the desk sends a stranger to sign in; the
// referee password lets him in, and the desk shows the open turn, each
// sheet and the requests.
func TestSignInShowsTheDesk(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	if resp, _ := r.get("/"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/g/syw/" {
		t.Errorf("/ with one game: %s to %q, want a redirect to the game", resp.Status, resp.Header.Get("Location"))
	}
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(resp.Header.Get("Location"), "/login") {
		t.Fatalf("the desk without a session: %s to %q, want the sign-in page", resp.Status, resp.Header.Get("Location"))
	}
	for _, path := range []string{"/g/syw/reports", "/g/syw/report/2/referee.pdf", "/g/syw/archive", "/g/syw/preview", "/g/syw/version"} {
		if resp, _ := r.get(path); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without a session: %s, want 401", path, resp.Status)
		}
	}
	page := r.signIn()
	for _, want := range []string{"Turn 3, June 1752", "abc123", "FINAL", "eisenmark@pbem.localhost", "STANCE E1 ATTACK",
		"missing", "2 turns in a row", "R1a2b3c", "PENDING"} {
		if !strings.Contains(page, want) {
			t.Errorf("the desk lacks %q", want)
		}
	}
	if _, body := r.get("/g/syw/preview"); !strings.Contains(body, "the preview") {
		t.Error("the preview page lacks the preview")
	}
	if resp, body := r.get("/g/syw/archive"); body != "{}\n" || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("the archive: %q %v", body, resp.Header)
	}
	if _, body := r.get("/g/syw/reports?turn=1&nation=fromande"); !strings.Contains(body, `data="/g/syw/report/1/fromande.pdf"`) {
		t.Error("the reports page does not show Fromande's report of turn 1")
	}
	if _, body := r.get("/g/syw/reports?turn=9&nation=..%2f"); !strings.Contains(body, `data="/g/syw/report/2/referee.pdf"`) {
		t.Error("the reports page with a turn and nation out of range does not fall back to the last turn's master report")
	}
	if resp, _ := r.get("/g/nosuch/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another game's desk: %s, want 404", resp.Status)
	}
}

// TestNoRefereePassword: without a referee password the sign-in page says
// so, and nobody signs in.
func TestNoRefereePassword(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.g.mu.Lock()
	r.g.noReferee = true
	r.g.mu.Unlock()
	if _, page := r.get("/g/syw/login"); !strings.Contains(page, "No referee password is configured") {
		t.Error("the sign-in page does not say that no referee password is configured")
	}
	if resp, _ := r.login(rightPassword); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("signing in without a referee password configured: %s", resp.Status)
	}
}

// TestWrongPasswordSlowed: each wrong password from an address makes the
// next attempt from it wait twice as long; an attempt made before then is
// refused without the password being checked, even the right one.
func TestWrongPasswordSlowed(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	resp, body := r.login("guess-1")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "not the referee password") {
		t.Fatalf("a wrong password: %s\n%s", resp.Status, body)
	}
	checked := r.g.verified
	resp, body = r.login(rightPassword)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "wait") {
		t.Fatalf("an attempt right after a wrong one: %s (Retry-After %q), want 429 with a wait", resp.Status, resp.Header.Get("Retry-After"))
	}
	if r.g.verified != checked {
		t.Error("the password of an attempt made too soon was checked")
	}
	r.clk.add(firstWait)
	if resp, _ = r.login("guess-2"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("after the wait: %s, want 401", resp.Status)
	}
	r.clk.add(firstWait) // the second failure earned 2 s
	if resp, _ = r.login(rightPassword); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("1 s after the second failure: %s, want 429 (the wait doubles)", resp.Status)
	}
	r.clk.add(firstWait)
	if resp, _ = r.login(rightPassword); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the right password after the wait: %s, want 303", resp.Status)
	}
}

// TestSessionFixation: a session ID planted in the browser before sign-in
// is not the one it signs in with, and the session's cookie is HttpOnly,
// SameSite=Strict.
func TestSessionFixation(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	u, _ := url.Parse(r.srv.URL)
	r.jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie + "syw", Value: "planted-by-an-attacker", Path: "/"}})
	resp, _ := r.login(rightPassword)
	var set *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie+"syw" {
			set = c
		}
	}
	if set == nil || set.Value == "planted-by-an-attacker" || len(set.Value) < 40 {
		t.Fatalf("the session cookie set at sign-in: %+v", set)
	}
	if !set.HttpOnly || set.SameSite != http.SameSiteStrictMode || set.Secure {
		t.Errorf("session cookie HttpOnly %v SameSite %v Secure %v; want HttpOnly, Strict, not Secure without TLS", set.HttpOnly, set.SameSite, set.Secure)
	}
	// Signed out, the old ID no longer opens the desk.
	old := set.Value
	_, page := r.get("/g/syw/")
	if resp, _ := r.post("/g/syw/logout", url.Values{"csrf": {r.csrf(page)}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %s", resp.Status)
	}
	stale := &http.Client{Jar: mustJar(), CheckRedirect: r.c.CheckRedirect}
	stale.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie + "syw", Value: old, Path: "/"}})
	if resp, err := stale.Get(r.srv.URL + "/g/syw/"); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the session signed out still opens the desk: %v %v", resp.Status, err)
	}
}

func mustJar() http.CookieJar { j, _ := cookiejar.New(nil); return j }

// TestSessionExpires: a session ends after its time, and after a quarter
// of it idle.
func TestSessionExpires(t *testing.T) {
	t.Parallel()
	r := newRig(t, &Options{SessionTTL: 4 * time.Hour})
	r.signIn()
	r.clk.add(59 * time.Minute)
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusOK {
		t.Fatalf("59 minutes in: %s", resp.Status)
	}
	r.clk.add(61 * time.Minute) // idle an hour: a quarter of 4 h
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("idle for an hour: %s, want sent to sign in", resp.Status)
	}
	r.signIn()
	for range 5 { // busy, but past its 4 hours
		r.clk.add(50 * time.Minute)
		r.get("/g/syw/version")
	}
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("past the session's 4 hours: %s, want sent to sign in", resp.Status)
	}
}

// TestCSRF: a form posted without the session's token, with another token,
// or from another site is refused and nothing is done; so is a sign-in
// without its form's token.
func TestCSRF(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	page := r.signIn()
	token := r.csrf(page)
	form := url.Values{"token": {"R1a2b3c"}}
	if resp, _ := r.post("/g/syw/act/approve", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("no token: %s, want 403", resp.Status)
	}
	form.Set("csrf", "x"+token[1:])
	if resp, _ := r.post("/g/syw/act/approve", form); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a wrong token: %s, want 403", resp.Status)
	}
	form.Set("csrf", token)
	if resp, _ := r.post("/g/syw/act/approve", form, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("from another site: %s, want 403", resp.Status)
	}
	if acts := r.g.actsDone(); len(acts) > 0 {
		t.Fatalf("a refused form was carried out: %q", acts)
	}
	if resp, _ := r.post("/g/syw/act/approve", form); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("with its token: %s, want 303", resp.Status)
	}
	if acts := r.g.actsDone(); len(acts) != 1 || acts[0] != "APPROVE R1a2b3c\n" {
		t.Errorf("acts: %q", acts)
	}
	// Sign-in: the form's token is the login cookie's double.
	fresh := newRig(t, nil)
	if resp, _ := fresh.post("/g/syw/login", url.Values{"password": {rightPassword}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a sign-in without the form's token: %s, want 403", resp.Status)
	}
}

// TestSecurityHeaders: every page forbids inline script and framing.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	check := func(path string, resp *http.Response) {
		t.Helper()
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
		for h, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
			"Cache-Control": "no-store"} {
			if got := resp.Header.Get(h); got != want {
				t.Errorf("%s: %s %q, want %q", path, h, got, want)
			}
		}
	}
	resp, page := r.get("/g/syw/login")
	check("login", resp)
	if strings.Contains(page, "<script>") || regexp.MustCompile(`<script[^>]*>[^<]`).MatchString(page) || strings.Contains(page, "style=") {
		t.Error("the sign-in page has inline script or style")
	}
	r.signIn()
	resp, page = r.get("/g/syw/")
	check("desk", resp)
	if regexp.MustCompile(`<script[^>]*>[^<]`).MatchString(page) || strings.Contains(page, " on") && regexp.MustCompile(`<[^>]+\son[a-z]+=`).MatchString(page) {
		t.Error("the desk has inline script or an event handler attribute")
	}
	// A report may be shown in the console's own page, nowhere else.
	resp, _ = r.get("/g/syw/report/2/referee.pdf")
	if resp.Header.Get("Content-Type") != "application/pdf" || resp.Header.Get("X-Frame-Options") != "SAMEORIGIN" ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'self'") {
		t.Errorf("report headers: %v", resp.Header)
	}
}

// TestCookiesUnderTLS: under TLS the cookies are Secure, with the __Host-
// prefix, and Strict-Transport-Security is sent.
func TestCookiesUnderTLS(t *testing.T) {
	t.Parallel()
	c := New(Single(newFakeGame()), &Options{TLS: true})
	w := httptest.NewRecorder()
	c.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "https://desk.example/g/syw/login", nil))
	resp := w.Result()
	if resp.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no Strict-Transport-Security under TLS")
	}
	cs := resp.Cookies()
	if len(cs) != 1 || cs[0].Name != loginCookieTLS || !cs[0].Secure || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode {
		t.Errorf("cookies under TLS: %+v", cs)
	}
}

// TestXSSEscaped: a player's SPECIAL text and a treaty's title are shown as
// text, never as markup.
func TestXSSEscaped(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	page := r.signIn()
	for _, bad := range []string{`<script>alert(`, `<img src=x onerror`} {
		if strings.Contains(page, bad) {
			t.Errorf("the desk holds %q unescaped", bad)
		}
	}
	for _, good := range []string{`&lt;script&gt;alert(&#34;special&#34;)&lt;/script&gt;`, `&lt;img src=x onerror=alert(&#34;treaty&#34;)&gt;`} {
		if !strings.Contains(page, good) {
			t.Errorf("the desk lacks the escaped %q", good)
		}
	}
}

// TestReportPathTraversal: a report's name is a nation, referee or map and
// .pdf; anything else is not found, and never reaches the game.
func TestReportPathTraversal(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.signIn()
	for _, path := range []string{
		"/g/syw/report/2/..%2f..%2f..%2fetc%2fpasswd",
		"/g/syw/report/2/..%2F..%2Fpbem.db.pdf",
		"/g/syw/report/2/%2e%2e.pdf",
		"/g/syw/report/-1/referee.pdf",
		"/g/syw/report/x/referee.pdf",
		"/g/syw/report/2/referee",
		"/g/syw/report/2/nosuch.pdf",
		"/g/syw/report/2/a%00b.pdf",
		"/g/syw/mapimg/2/..%2f..%2fetc%2fpasswd.svg",
		"/g/syw/mapimg/2/referee.pdf",
		"/g/syw/mapimg/x/referee.svg",
	} {
		resp, _ := r.get(path)
		if resp.StatusCode == http.StatusOK {
			t.Errorf("%s: %s, want not found", path, resp.Status)
		}
	}
	for _, asked := range r.g.reports {
		if asked != "2/nosuch" {
			t.Errorf("the game was asked for the report %q", asked)
		}
	}
	if resp, body := r.get("/g/syw/report/2/eisenmark.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("a nation's report: %s", resp.Status)
	}
	if resp, body := r.get("/g/syw/mapimg/2/referee.svg"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "<svg") ||
		resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("the map image: %s %v", resp.Status, resp.Header)
	}
	// Asked for gzip, the map comes compressed; asked for nothing, plain.
	for _, enc := range []string{"gzip, deflate, br", "identity"} {
		req, _ := http.NewRequest(http.MethodGet, r.srv.URL+"/g/syw/mapimg/2/referee.svg", nil)
		req.Header.Set("Accept-Encoding", enc)
		resp, err := r.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := io.Reader(resp.Body)
		if got := resp.Header.Get("Content-Encoding"); (got == "gzip") != (enc != "identity") {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", enc, got)
		} else if got == "gzip" {
			if body, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := io.ReadAll(body)
		resp.Body.Close()
		if !strings.HasPrefix(string(b), "<svg") {
			t.Errorf("Accept-Encoding %q: the image reads %.40q", enc, b)
		}
	}
}

// TestActsWriteReferreeCommands: each form is written as the referee's
// mail would be; a bound act carries the page's turn; a field cannot add a
// second command; a rollback asks first, naming what it sets aside.
func TestActsWriteRefereeCommands(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	token := r.csrf(r.signIn())
	post := func(action string, kv ...string) *http.Response {
		t.Helper()
		f := url.Values{"csrf": {token}}
		for i := 0; i+1 < len(kv); i += 2 {
			f.Set(kv[i], kv[i+1])
		}
		resp, _ := r.post("/g/syw/act/"+action, f)
		return resp
	}
	post("approve", "token", "R1a2b3c", "effects", "TREASURY eisenmark +50\r\n\r\nLOYALTY Dresna eisenmark")
	post("extend", "turn", "3", "duration", "2d")
	post("deny", "token", "R1a2b3c", "reason", "the governor is incorruptible")
	post("password", "nation", "fromande", "password", "snuffbox")
	// Not carried out: a second command smuggled in a field.
	post("extend", "turn", "3", "duration", "2d\nRESOLVE NOW")
	post("approve", "token", "R1a2b3c", "effects", "TREASURY eisenmark +50\nROLLBACK 1")
	post("deny", "token", "R1a2b3c", "reason", "no\nRESOLVE NOW")
	want := []string{
		"APPROVE R1a2b3c\n  TREASURY eisenmark +50\n  LOYALTY Dresna eisenmark\n",
		"TURN 3\nDEADLINE EXTEND 2d\n",
		"DENY R1a2b3c \"the governor is incorruptible\"\n",
		"RESET PASSWORD fromande snuffbox\n",
	}
	if got := r.g.actsDone(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("commands run:\n%q\nwant\n%q", got, want)
	}
	_, page := r.get("/g/syw/")
	if !strings.Contains(page, "the reason must be one line") {
		t.Error("the field error of the last form is not on the page")
	}
	// ROLLBACK asks first.
	resp := post("rollback", "turn", "3", "target", "1")
	if resp.StatusCode != http.StatusOK || len(r.g.actsDone()) != 4 {
		t.Fatalf("a rollback without confirming: %s, %d acts", resp.Status, len(r.g.actsDone()))
	}
	_, body := r.post("/g/syw/act/rollback", url.Values{"csrf": {token}, "turn": {"3"}, "target": {"1"}})
	if !strings.Contains(body, "sets turns 1 to 2 aside") {
		t.Errorf("the confirmation does not name what is set aside:\n%s", body)
	}
	post("rollback", "turn", "3", "target", "1", "confirm", "yes")
	if got := r.g.actsDone(); got[len(got)-1] != "TURN 3\nROLLBACK 1\n" {
		t.Errorf("confirmed rollback ran %q", got[len(got)-1])
	}
	_, page = r.get("/g/syw/")
	if !strings.Contains(page, "ROLLBACK 1 — done") {
		t.Error("the answer is not on the page")
	}
	// The form has no lines to count: the answer is not numbered by the
	// lines of the text the desk wrote for it.
	if strings.Contains(page, "line 1: ") {
		t.Error("the answer on the page is numbered by the lines of the text the desk wrote")
	}
}

// TestListenNeedsTLSBeyondLoopback: the console does not listen beyond
// this machine without a certificate.
func TestListenNeedsTLSBeyondLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "[::]:0"} {
		if s, err := Listen(addr, "", "", Single(newFakeGame()), nil); !errors.Is(err, ErrNeedsTLS) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Listen(%q) without TLS: %v, want ErrNeedsTLS", addr, err)
		}
	}
	s, err := Listen("127.0.0.1:0", "", "", Single(newFakeGame()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp, err := http.Get(s.URL() + "g/syw/login")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("loopback console: %v %v", resp, err)
	}
	resp.Body.Close()
}

// FuzzCommandText: whatever a form's fields hold, the text it writes is
// its own command (and the TURN line of a bound act), never a second one.
func FuzzCommandText(f *testing.F) {
	f.Add("approve", "R1a2b3c", "TREASURY eisenmark +50", "3")
	f.Add("extend", "2d\nRESOLVE NOW", "", "3")
	f.Add("deny", "R1a2b3c", "reason\r\nROLLBACK 1", "x")
	f.Add("result", "0502", "LOSSES E1 infantry C KILLED 4\nRESOLVE NOW", "1")
	f.Add("password", "fromande snuffbox", "x", "2")
	f.Add("rule", "x", "COURIERS varn +1\nRESOLVE NOW", "1")
	f.Add("rule", "x", `RULE TELL ostmark "The plans"`, "1")
	f.Fuzz(func(t *testing.T, name, a, b, turn string) {
		act, ok := actionOf(name)
		if !ok || act.name == "commands" {
			return
		}
		values := map[string]string{"turn": turn, "token": a, "effects": b, "reason": b, "duration": a, "date": a, "time": b,
			"zone": b, "target": a, "nation": a, "password": b, "hex": a, "treaty": a, "offender": b, "aggrieved": b,
			"outcome": a, "winner": b, "losses": b, "hits": b, "generals": b, "guns": b, "days": a, "ruling": b}
		text, _, errs := commandText(act, values)
		if errs != nil {
			return
		}
		verbs := map[string][]string{"approve": {"APPROVE", "TREASURY", "ADD", "REMOVE", "MOVE", "LOYALTY"}, "deny": {"DENY"},
			"breach": {"BREACH"}, "lift": {"LIFT"}, "extend": {"DEADLINE"}, "deadline": {"DEADLINE"}, "resolve": {"RESOLVE"},
			"rollback": {"ROLLBACK"}, "rerun": {"RERUN"}, "resend": {"RESEND"}, "requeue": {"REQUEUE"}, "password": {"RESET"},
			"table": {"BATTLE"}, "rule": {"RULE"}, "result": {"RESULT", "OUTCOME", "WINNER", "LOSSES", "HITS", "GENERAL", "GUNS", "DAYS", "END"}}[act.name]
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for i, l := range lines {
			if strings.ContainsFunc(l, func(r rune) bool { return r < ' ' && r != '\t' }) {
				t.Fatalf("line %d of %q holds a control character", i+1, text)
			}
			first, _, _ := strings.Cut(strings.TrimSpace(l), " ")
			if i == 0 && act.bound && first == "TURN" {
				continue
			}
			ok := false
			for _, v := range verbs {
				ok = ok || strings.EqualFold(first, v)
			}
			if !ok {
				t.Fatalf("%s wrote a line %q that is not its own command: %q", act.name, l, text)
			}
		}
		if n := strings.Count(text, "\n"); act.name != "approve" && act.name != "result" && n > 1+boolN(act.bound) {
			t.Fatalf("%s wrote %d lines: %q", act.name, n, text)
		}
	})
}

func boolN(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestNationPage: a player signs in with the nation's password and sees
// the nation's own sheet, requests and reports, nothing of another nation's
// and nothing of the referee's; a report is the session's nation's, whatever
// the path says.
func TestNationPage(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	_, page := r.get("/g/syw/nation/login")
	resp, body := r.post("/g/syw/nation/login", url.Values{"csrf": {r.csrf(page)}, "nation": {"eisenmark"}, "password": {"demo-fromande"}})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("another nation's password: %s\n%s", resp.Status, body)
	}
	r.clk.add(time.Minute)
	resp, body = r.post("/g/syw/nation/login", url.Values{"csrf": {r.csrf(page)}, "nation": {"eisenmark"}, "password": {"demo-eisenmark"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %s\n%s", resp.Status, body)
	}
	resp, page = r.get("/g/syw/nation/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the nation's page: %s", resp.Status)
	}
	for _, want := range []string{"Eisenmark", "abc123", "STANCE E1 ATTACK", "R1a2b3c", "/g/syw/nation/report/2.pdf", "/g/syw/nation/report/0.pdf"} {
		if !strings.Contains(page, want) {
			t.Errorf("the nation's page lacks %q", want)
		}
	}
	for _, foreign := range []string{"Fromande", "fromande", "R9f8e7d", "secret plan", "eisenmark@pbem.localhost", "/act/", "/g/syw/archive"} {
		if strings.Contains(page, foreign) {
			t.Errorf("the nation's page holds %q", foreign)
		}
	}
	for _, path := range []string{"/g/syw/reports", "/g/syw/report/2/referee.pdf", "/g/syw/report/2/fromande.pdf", "/g/syw/archive", "/g/syw/preview"} {
		if resp, _ := r.get(path); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a nation's session opens %s: %s", path, resp.Status)
		}
	}
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a nation's session opens the desk: %s", resp.Status)
	}
	if resp, _ := r.post("/g/syw/act/resolve", url.Values{"csrf": {r.csrf(page)}, "turn": {"3"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a nation's session acts: %s", resp.Status)
	}
	r.g.reports = nil
	for _, path := range []string{"/g/syw/nation/report/2.pdf", "/g/syw/nation/report/..%2ffromande.pdf", "/g/syw/nation/report/02.pdf",
		"/g/syw/nation/report/fromande.pdf", "/g/syw/nation/report/-1.pdf", "/g/syw/nation/map/1.svg", "/g/syw/nation/map/..%2freferee.svg",
		"/g/syw/nation/map/referee.svg", "/g/syw/mapimg/1/referee.svg"} {
		r.get(path)
	}
	if got := strings.Join(r.g.reports, " "); got != "2/eisenmark 1/eisenmark.svg" {
		t.Errorf("reports built for the nation's session: %q, want only 2/eisenmark and 1/eisenmark.svg", got)
	}
	if len(r.g.actsDone()) > 0 {
		t.Error("a nation's session did something")
	}
}

func (g *fakeGame) reportsAsked() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.reports...)
}
