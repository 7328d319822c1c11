package console

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/syw-pbem/pbem/daemon"
)

// TestBrowserHostGames: in Chromium, the console of a host's games lists
// them — an SYW game, a Trossian game and one not served now; the Trossian
// game's referee opens its desk from the list, signs in and sees the
// kingdoms' sheets, its rulings form and no SYW-only forms; that session
// does not open the SYW game's desk.
func TestBrowserHostGames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the browser test drives Chromium: not under -short")
	}
	syw, tross := startLiveGame(t), startTrossianGame(t)
	tross.send("norvale@pbem.localhost", "orders", trossianSheet("norvale", 1, "MOVE N1 TO Trossburg", "ATTACK N1"))
	tross.send("carrowland@pbem.localhost", "orders", trossianSheet("carrowland", 1, "MOVE C1 TO Nowhere"))
	tross.waitDesk("two sheets", func(v *daemon.DeskView) bool { return v.Sheets[0].Receipt != "" && v.Sheets[1].Receipt != "" })
	hg := &hostGames{}
	hg.set([]Game{syw.d.Game, tross.d.Game}, UnservedGame{ID: "minden", Status: "stopped"})
	srv := httptest.NewServer(New(hg, &Options{Refresh: time.Hour}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL)
	b.run("the list of games", chromedp.Navigate(b.url+"/"), chromedp.WaitVisible(chromedp.CSS("#games")))
	if s := b.text("#games"); !strings.Contains(s, "SYW Console Game") || !strings.Contains(s, "Trossian Console Game") ||
		!strings.Contains(s, "minden") || !strings.Contains(s, "not served now: stopped") {
		t.Errorf("the list of games: %q", s)
	}
	b.shot("games")
	b.run("tross's desk from the list", chromedp.Click(chromedp.CSS(`#game-tross a[href="/g/tross/login"]`)),
		chromedp.WaitVisible(chromedp.CSS("#password")), chromedp.SendKeys(chromedp.CSS("#password"), liveRefereePassword),
		chromedp.Click(chromedp.CSS("#signin")), chromedp.WaitVisible(chromedp.CSS("#rulings")))
	if s := b.text("#turn"); !strings.Contains(s, "Turn 1, Early Spring 1801") || !strings.Contains(s, "Deadline") {
		t.Errorf("tross's turn on its desk: %q", s)
	}
	if s := b.text("#sheet-carrowland + tr"); !strings.Contains(s, "line 5") {
		t.Errorf("Carrowland's sheet's mistake on the desk: %q", s)
	}
	b.shot("trossian-desk")
	b.run("syw's desk with tross's session", chromedp.Navigate(b.url+"/g/syw/"), chromedp.WaitVisible(chromedp.CSS("#password")))
}
