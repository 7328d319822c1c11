package console

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// The console in a real browser: Chromium (Debian's chromium), driven by
// chromedp, against a live game. Skipped, with a message, when Chromium is
// not installed and under -short. With -screenshots it writes the pages it
// sees to docs/console-*.png (docs/console.md shows them).

var screenshots = flag.Bool("screenshots", false, "write the browser test's screenshots to docs/console-*.png")

// chromium returns the browser to drive, or "" when none is installed
// (PBEM_CHROMIUM names another).
func chromium() string {
	for _, name := range []string{os.Getenv("PBEM_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless Chromium tab.
type browser struct {
	t   *testing.T
	ctx context.Context
	url string
}

// theBrowser is the one Chromium the tests of the package share, started
// by the first browser test; each test has a tab of its own in a browser
// context of its own (its own cookies, as a fresh profile), so a test sees
// nothing of another's. TestMain stops it.
var theBrowser struct {
	once sync.Once
	ctx  context.Context
	stop func()
	err  error
}

func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	exe := chromium()
	if exe == "" {
		t.Skip("no Chromium installed (apt-get install chromium, or set PBEM_CHROMIUM): the browser test is skipped")
	}
	theBrowser.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
			chromedp.Flag("disable-gpu", true), chromedp.WindowSize(1280, 1000))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		theBrowser.ctx, theBrowser.stop = ctx, func() { cancelCtx(); cancelAlloc() }
		// Starts the browser (no timeout on this one: it would stop the
		// browser).
		theBrowser.err = chromedp.Do(ctx)
	})
	if theBrowser.err != nil {
		t.Skipf("Chromium (%s) does not start here: %v", exe, theBrowser.err)
	}
	ctx, cancel := chromedp.NewContext(theBrowser.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatalf("a new tab in Chromium: %v", err)
	}
	return &browser{t: t, ctx: ctx, url: strings.TrimSuffix(base, "/")}
}

// stopBrowser stops the shared Chromium, if a test started it.
func stopBrowser() {
	if theBrowser.stop != nil {
		theBrowser.stop()
	}
}

// stepLimit bounds each step in the browser.
const stepLimit = time.Minute

func (b *browser) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// text returns the visible text of the element sel (a CSS selector).
func (b *browser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("read %s: %v", sel, err)
	}
	return s
}

// shot writes a screenshot of the whole page as docs/console-NAME.png
// (with -screenshots).
func (b *browser) shot(name string) {
	b.t.Helper()
	if !*screenshots {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join("..", "docs", "console-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// imageLoaded waits until the image of that id has loaded (a screenshot of
// the whole page taken before would be cut at the window's height).
func (b *browser) imageLoaded(id string) {
	b.t.Helper()
	js := fmt.Sprintf(`document.getElementById(%q).complete && document.getElementById(%q).naturalWidth > 0`, id, id)
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) { // the DOM gives no load signal to wait on from here
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		if time.Since(start) > stepLimit {
			b.t.Fatalf("the image %s did not load within %v", id, stepLimit)
		}
	}
}

// answered waits for the desk's answer to the act of that name.
// The answer on the page the click left is marked stale first (staleAnswer),
// so that a second answer to the same action is waited for, not the first.
func answered(action string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`#answer[data-action="` + action + `"]:not([data-stale])`))
}

// markPage marks the page now shown as one being left.
func markPage() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`(document.body.dataset.left = "1", true)`)(ctx, t)
		return chromedp.Void{}, err
	}
}

// staleAnswer marks the answer now on the page as an old one.
func staleAnswer() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`(document.querySelectorAll("#answer").forEach(e => e.dataset.stale = "1"), true)`)(ctx, t)
		return chromedp.Void{}, err
	}
}

// setField sets a form field's value, as typing would.
func setField(sel, value string) chromedp.Action[chromedp.Void] {
	js, _ := json.Marshal(value)
	q, _ := json.Marshal(sel)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector(%s).value = %s) !== null`, q, js))(ctx, t)
		return chromedp.Void{}, err
	}
}

// signIn signs in on the sign-in page.
func (b *browser) signIn(pw string) {
	b.t.Helper()
	// The sign-in page's body is marked, so that the wait after the click
	// is for the page the form's answer loads, not the one it left.
	b.run("sign in", chromedp.Navigate(b.url+"/g/syw/login"), chromedp.WaitVisible(chromedp.CSS("#password")),
		markPage(), chromedp.SendKeys(chromedp.CSS("#password"), pw), chromedp.Click(chromedp.CSS("#signin")),
		chromedp.WaitReady(chromedp.CSS("body:not([data-left])")))
}

// TestBrowserDesk: in Chromium, a wrong password is slowed; the referee
// signs in and sees Eisenmark's sheet and request; approves it and sees the
// ruling applied and the player's mail queued; a RESULT with an error shows
// it at its field; the deadline is extended; a form stripped of its CSRF
// token is refused; a resolved turn is rolled back after its confirmation.
func TestBrowserDesk(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the browser test drives Chromium: not under -short")
	}
	l := startLiveGame(t)
	token := l.sendRequest()
	c := New(Single(l.d.Game), &Options{Refresh: time.Hour})
	c.limit.first = time.Hour // a slow browser still tries again within the wait
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL)

	// A wrong password, then the right one at once: slowed.
	b.signIn("a-guess")
	if got := b.text("#login-error"); !strings.Contains(got, "not the referee password") {
		t.Errorf("after a wrong password the page says %q", got)
	}
	b.shot("login-wrong")
	b.signIn(liveRefereePassword)
	if got := b.text("#login-error"); !strings.Contains(got, "wait") {
		t.Errorf("the right password right after a wrong one: %q, want to wait", got)
	}
	c.limit.succeeded("127.0.0.1") // the wait over (TestWrongPasswordSlowed times it)
	b.signIn(liveRefereePassword)

	// The desk: the sheet and the request.
	b.run("the desk", chromedp.WaitVisible(chromedp.CSS("#sheets")))
	if s := b.text("#sheet-eisenmark"); !strings.Contains(s, "FINAL") && !strings.Contains(s, "receipt") {
		t.Errorf("Eisenmark's sheet row: %q", s)
	}
	if s := b.text("#sheet-fromande"); !strings.Contains(s, "missing") {
		t.Errorf("Fromande's row: %q", s)
	}
	if s := b.text("#request-" + token); !strings.Contains(s, "Bribe the governor of Dresna") || !strings.Contains(s, "PENDING") {
		t.Errorf("the request: %q", s)
	}
	b.shot("desk")

	// Approve it: the answer, the ruling on the page, the player's mail.
	b.run("approve", chromedp.Click(chromedp.CSS("#request-"+token+" button.approve")), answered("approve"))
	if s := b.text("#answer"); !strings.Contains(s, "recorded for Eisenmark") {
		t.Errorf("the answer to the approval: %q", s)
	}
	if s := b.text("#request-" + token); !strings.Contains(s, "Ruled:") {
		t.Errorf("the request after the approval: %q", s)
	}
	l.mailTo("eisenmark@pbem.localhost", "approved")
	b.shot("approved")

	// A RESULT with an error, at its field.
	b.run("open the result form", chromedp.Click(chromedp.CSS("#result-box summary")))
	b.run("result", chromedp.SetValue(chromedp.CSS(`#result input[name="hex"]`), "0502"),
		chromedp.SetValue(chromedp.CSS(`#result input[name="winner"]`), "eisenmark"),
		chromedp.Click(chromedp.CSS(`#result button`)), answered("result"))
	if s := b.text(`#result .field-error`); !strings.Contains(s, "no battle at 0502") {
		t.Errorf("the RESULT's error at its field: %q", s)
	}

	// Extend the deadline.
	before, _ := l.d.Game.Desk(context.Background())
	b.run("extend", chromedp.SetValue(chromedp.CSS(`#extend input[name="duration"]`), "2d"),
		chromedp.Click(chromedp.CSS(`#extend button`)), answered("extend"))
	if after, _ := l.d.Game.Desk(context.Background()); after.Deadline.Sub(before.Deadline) != 48*time.Hour {
		t.Errorf("the deadline moved from %v to %v, want 2 days", before.Deadline, after.Deadline)
	}

	// A form whose CSRF token is taken out is refused.
	b.run("no CSRF", func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](`document.querySelector('#extend input[name="csrf"]').remove() === undefined`)(ctx, t)
		return chromedp.Void{}, err
	}, chromedp.Click(chromedp.CSS(`#extend button`)), chromedp.WaitVisible(chromedp.CSS("#refused")))
	status := b.text("#refused")
	if !strings.Contains(status, "security token is missing") {
		t.Errorf("a form without its CSRF token: %q", status)
	}
	if after, _ := l.d.Game.Desk(context.Background()); after.Deadline.Sub(before.Deadline) != 48*time.Hour {
		t.Error("the form without its token was carried out")
	}

	// Resolve the turn, then roll it back after the confirmation.
	b.run("resolve", chromedp.Navigate(b.url+"/g/syw/"), chromedp.Click(chromedp.CSS(`form[action$="/act/resolve"] button`)),
		answered("resolve"))
	l.waitDesk("turn 2 open", func(v *daemon.DeskView) bool { return v.Turn == 2 })
	// The map as an image, then the PDF (which headless Chromium leaves blank).
	b.run("reports", chromedp.Navigate(b.url+"/g/syw/reports?turn=1&nation=eisenmark"), chromedp.WaitVisible(chromedp.CSS("object.pdf")))
	if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("map-image").complete && document.getElementById("map-image").naturalWidth > 0`)); err != nil || !ok {
		t.Errorf("the map image did not load (%v)", err)
	}
	b.shot("reports")
	b.run("rollback", chromedp.Navigate(b.url+"/g/syw/"), chromedp.Click(chromedp.CSS(`#rollback button`)),
		chromedp.WaitVisible(chromedp.CSS("#confirm")))
	if s := b.text("#confirm"); !strings.Contains(s, "sets turn 1 aside") {
		t.Errorf("the confirmation: %q", s)
	}
	b.shot("confirm-rollback")
	b.run("confirm", chromedp.Click(chromedp.CSS("#confirm-yes")), answered("rollback"))
	l.waitDesk("turn 1 open again", func(v *daemon.DeskView) bool { return v.Turn == 1 })
	if s := b.text("#log"); !strings.Contains(s, "ROLLBACK 1") || !strings.Contains(s, "APPROVE "+token) {
		t.Errorf("the desk's log: %q", s)
	}
	b.run("top", chromedp.Navigate(b.url+"/g/syw/"), chromedp.WaitVisible(chromedp.CSS("#turn")))
	b.shot("after-rollback")

	// Eisenmark's player signs in to the nation's page: its own sheet and
	// reports, nothing of another nation's.
	b.run("nation sign-in", chromedp.Navigate(b.url+"/g/syw/nation/login"), chromedp.WaitVisible(chromedp.CSS("#password")),
		setField("#nation", "eisenmark"), chromedp.SendKeys(chromedp.CSS("#password"), "demo-eisenmark"),
		chromedp.Click(chromedp.CSS("#signin")), chromedp.WaitVisible(chromedp.CSS("#nation-reports")))
	page, err := chromedp.Run(b.ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "STANCE E1 ATTACK") || !strings.Contains(page, "/nation/report/0.pdf") {
		t.Errorf("the nation's page lacks its sheet or its opening report:\n%s", page)
	}
	checkFog(t, l, "eisenmark", page)
	b.imageLoaded("nation-map")
	b.shot("nation")
}

// tableBattle sets up, in a game fought on the table, an opening with one
// land battle — an army marched onto another nation's, attacking — and
// sends the attacker's sheet. It returns the hex and the two forces.
func tableBattle(t *testing.T, l *liveGame) (game.Hex, *game.Force, *game.Force) {
	t.Helper()
	ctx := context.Background()
	g := l.d.Game
	rec, err := g.DB.LatestTurn(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	var st engine.State
	if err := json.Unmarshal(rec.State, &st); err != nil {
		t.Fatal(err)
	}
	var a, b *game.Force
	for i := range st.Forces {
		f := &st.Forces[i]
		if f.IsFleet() || f.Aboard != "" || f.At.Hex == (game.Hex{}) || !f.HasRole(game.General) || f.FightingFigures() < 40 {
			continue
		}
		switch {
		case a == nil:
			a = f
		case b == nil && f.Nation != a.Nation:
			b = f
		}
	}
	if a == nil || b == nil {
		t.Skip("no two armies of different nations in the scenario")
	}
	for _, nb := range g.Map.Neighbors(b.At.Hex) { // in the field, not behind walls
		if _, city := g.Map.CityAt(nb); !city && g.Map.TerrainAt(nb) != game.Mountain && g.Map.TerrainAt(nb) != game.Sea {
			b.At = game.AtHex(nb)
			break
		}
	}
	a.At, a.Stance = b.At, game.Attack
	js, _ := json.Marshal(&st)
	if _, err := g.DB.SaveTurn(ctx, store.TurnRecord{GameID: "syw", Turn: 0, Status: store.TurnInitial, State: js, ResolvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	l.send(string(a.Nation)+"@pbem.localhost", "orders", fmt.Sprintf("GAME syw\nNATION %s\nPASSWORD demo-%s\nTURN 1\nSTANCE %s ATTACK\nEND\n",
		a.Nation, a.Nation, a.ID))
	l.waitDesk("the attacker's sheet", func(v *daemon.DeskView) bool {
		return slices.ContainsFunc(v.Sheets, func(s daemon.DeskSheet) bool { return s.ID == string(a.Nation) && s.Receipt != "" })
	})
	return b.At.Hex, a, b
}

// TestBrowserTabletop: in Chromium, in a game fought on the table, the
// referee resolves the turn; the desk shows the battle waiting with its
// sheet; a result with a mistake shows the error at its field, and
// nothing is recorded; corrected, it is recorded and the turn resolves
// with it.
func TestBrowserTabletop(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the browser test drives Chromium: not under -short")
	}
	l := startLiveGameWith(t, func(s string) string {
		return strings.Replace(s, "timezone: Europe/London", "timezone: Europe/London\n  battles: table", 1)
	})
	hex, a, b := tableBattle(t, l)
	srv := httptest.NewServer(New(Single(l.d.Game), &Options{Refresh: time.Hour}))
	t.Cleanup(srv.Close)
	br := newBrowser(t, srv.URL)
	br.signIn(liveRefereePassword)
	br.run("resolve", chromedp.Click(chromedp.CSS(`form[action$="/act/resolve"] button`)), answered("resolve"))
	l.waitDesk("the battle's sheet", func(v *daemon.DeskView) bool {
		return len(v.Battles) > 0 && !v.Battles[0].SheetSent.IsZero() && v.Battles[0].Sheet != ""
	})
	br.run("the desk", chromedp.Navigate(br.url+"/g/syw/?look=battles"), chromedp.WaitVisible(chromedp.CSS("#battle-"+hex.String())))
	if s := br.text("#battle-" + hex.String()); !strings.Contains(s, "PENDING") || !strings.Contains(s, "RESULT "+hex.String()) {
		t.Errorf("the battle on the desk: %q", s)
	}
	br.shot("battle")

	fill := func(losses, hits string) {
		t.Helper()
		br.run("result", staleAnswer(), setField(`#result input[name="hex"]`, hex.String()),
			setField(`#result select[name="outcome"]`, "decisive"),
			setField(`#result input[name="winner"]`, string(a.Nation)),
			setField(`#result textarea[name="losses"]`, losses),
			setField(`#result textarea[name="hits"]`, hits),
			chromedp.Click(chromedp.CSS(`#result button`)), answered("result"))
	}
	fill(fmt.Sprintf("LOSSES %s infantry Q KILLED 2", b.ID), "")
	if s := br.text(`#result label:has(textarea[name="losses"]) + .field-error`); !strings.Contains(s, "line 4") {
		t.Errorf("the error under the losses: %q", s)
	}
	if s := br.text("#answer"); !strings.Contains(s, "Nothing was recorded") {
		t.Errorf("the answer to a result with a mistake: %q", s)
	}
	br.shot("result-error")
	if v, _ := l.d.Game.Desk(context.Background()); v.Battles[0].Result {
		t.Fatal("a result with a mistake was recorded")
	}
	fill(fmt.Sprintf("LOSSES %s %s %s KILLED 2 ROUTED 1", b.ID, b.Troops[0].Arm, b.Troops[0].Grade),
		fmt.Sprintf("HITS %s %s %s 3", a.Nation, a.Troops[0].Arm, a.Troops[0].Grade))
	if s := br.text("#answer"); !strings.Contains(s, "is recorded (decisive)") {
		t.Errorf("the answer to the corrected result: %q", s)
	}
	l.waitDesk("the turn resolved with the result", func(v *daemon.DeskView) bool { return v.Turn == 2 })
}

// TestBrowserLiveRefresh: the page's script reloads the desk when the game
// changes — a sheet comes in — with no click.
func TestBrowserLiveRefresh(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the browser test drives Chromium: not under -short")
	}
	l := startLiveGame(t)
	srv := httptest.NewServer(New(Single(l.d.Game), &Options{Refresh: time.Second}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL)
	b.signIn(liveRefereePassword)
	b.run("the desk", chromedp.WaitVisible(chromedp.CSS("#sheet-fromande")))
	if s := b.text("#sheet-fromande"); !strings.Contains(s, "missing") {
		t.Fatalf("Fromande's row before its sheet: %q", s)
	}
	l.send("fromande@pbem.localhost", "orders", "GAME syw\nNATION fromande\nPASSWORD demo-fromande\nTURN 1\nEND\n")
	b.run("the desk reloaded with Fromande's sheet", chromedp.WaitVisible(chromedp.CSS("#sheet-fromande code")))
}
