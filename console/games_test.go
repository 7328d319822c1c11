package console

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostGames is a host's list of games as the console sees it: the games
// served, which the test changes while the console runs, and those not
// served now.
type hostGames struct {
	mu     sync.Mutex
	served []Game
	absent []UnservedGame
}

func (h *hostGames) Games() []Game {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.served)
}

func (h *hostGames) Unserved() []UnservedGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.absent)
}

func (h *hostGames) set(served []Game, absent ...UnservedGame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.served, h.absent = served, absent
}

// hostRig is a console of two games, alpha and bravo, each with its own
// referee password.
func hostRig(t *testing.T) (*rig, *hostGames, *fakeGame, *fakeGame) {
	t.Helper()
	alpha, bravo := newFakeGame(), newFakeGame()
	alpha.id, alpha.password = "alpha", "alpha-referee"
	bravo.id, bravo.password = "bravo", "bravo-referee"
	bravo.view.Name = "Bravo Only Campaign"
	bravo.view.Requests[0].Text = "a bravo-only request"
	hg := &hostGames{}
	hg.set([]Game{alpha, bravo})
	c := New(hg, nil)
	c.limit.first = time.Nanosecond // a wrong password tried here is not what is tested
	return newRigFor(t, c), hg, alpha, bravo
}

// signInTo signs in to a game's desk with pw and reports whether the desk
// opened.
func (r *rig) signInTo(game, pw string) bool {
	r.t.Helper()
	_, page := r.get("/g/" + game + "/login")
	resp, _ := r.post("/g/"+game+"/login", url.Values{"csrf": {r.csrf(page)}, "password": {pw}})
	if resp.StatusCode != http.StatusSeeOther {
		return false
	}
	resp, _ = r.get("/g/" + game + "/")
	return resp.StatusCode == http.StatusOK
}

// TestHostGamesSealed: on a console serving two games, the referee of
// alpha signs in with alpha's password and is given nothing of bravo — not
// its desk, version, preview, reports, report or map downloads, archive,
// forms or nation pages — and alpha's password does not open bravo's desk.
// Signed in to both, each session opens its own game only.
func TestHostGamesSealed(t *testing.T) {
	t.Parallel()
	r, _, alpha, bravo := hostRig(t)
	if _, page := r.get("/g/alpha/login"); strings.Contains(page, "Sign out") || strings.Contains(page, `href="/g/alpha/archive"`) {
		t.Error("the sign-in page shows the referee's links")
	}
	if r.signInTo("bravo", "alpha-referee") {
		t.Fatal("alpha's referee password opened bravo's desk")
	}
	if !r.signInTo("alpha", "alpha-referee") {
		t.Fatal("alpha's referee password did not open alpha's desk")
	}
	_, desk := r.get("/g/alpha/")
	csrf := r.csrf(desk)
	for _, path := range []string{"/g/bravo/", "/g/bravo/version", "/g/bravo/preview", "/g/bravo/reports?turn=2&nation=referee",
		"/g/bravo/report/2/referee.pdf", "/g/bravo/report/2/map.pdf", "/g/bravo/report/2/eisenmark.pdf", "/g/bravo/mapimg/2/referee.svg",
		"/g/bravo/archive", "/g/bravo/nation/", "/g/bravo/nation/report/2.pdf", "/g/bravo/nation/map/2.svg"} {
		resp, body := r.get(path)
		if resp.StatusCode == http.StatusOK || strings.Contains(body, "Bravo Only") || strings.Contains(body, "bravo-only") || strings.Contains(body, "%PDF") || strings.Contains(body, "<svg") {
			t.Errorf("alpha's session: GET %s gave %s:\n%.300s", path, resp.Status, body)
		}
	}
	for _, act := range []string{"resolve", "approve", "extend", "commands", "password"} {
		form := url.Values{"csrf": {csrf}, "turn": {"3"}, "token": {"R9f8e7d"}, "duration": {"2d"}, "text": {"RESOLVE NOW"},
			"nation": {"eisenmark"}, "password": {"x1y2z3w4"}}
		if resp, body := r.post("/g/bravo/act/"+act, form); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("alpha's session: POST /g/bravo/act/%s gave %s:\n%.300s", act, resp.Status, body)
		}
	}
	if resp, _ := r.post("/g/bravo/logout", url.Values{"csrf": {csrf}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("alpha's session signed bravo out: %s", resp.Status)
	}
	if acts, reports := bravo.actsDone(), bravo.reportsAsked(); len(acts) > 0 || len(reports) > 0 {
		t.Fatalf("alpha's session reached bravo: acts %q, reports %q", acts, reports)
	}
	// Signed in to bravo too, in the same browser: each desk its own.
	if !r.signInTo("bravo", "bravo-referee") {
		t.Fatal("bravo's password did not open bravo's desk")
	}
	_, a := r.get("/g/alpha/")
	_, b := r.get("/g/bravo/")
	if strings.Contains(a, "Bravo Only") || strings.Contains(a, "bravo-only") || !strings.Contains(b, "Bravo Only") || !strings.Contains(b, "bravo-only") {
		t.Fatalf("the two desks: alpha's shows bravo's (%v), bravo's shows its own (%v)", strings.Contains(a, "bravo-only"), strings.Contains(b, "bravo-only"))
	}
	if r.csrf(a) == r.csrf(b) {
		t.Error("the two games' sessions share a CSRF token")
	}
	// Alpha's form token does not act on bravo.
	if resp, _ := r.post("/g/bravo/act/resolve", url.Values{"csrf": {r.csrf(a)}, "turn": {"3"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("alpha's CSRF token on bravo's form: %s", resp.Status)
	}
	if len(bravo.actsDone()) > 0 {
		t.Fatal("a form of alpha's acted on bravo")
	}
	if resp, _ := r.post("/g/bravo/act/resolve", url.Values{"csrf": {r.csrf(b)}, "turn": {"3"}}); resp.StatusCode != http.StatusSeeOther ||
		len(bravo.actsDone()) != 1 || len(alpha.actsDone()) != 0 {
		t.Fatalf("bravo's own act: %s; bravo's acts %q, alpha's %q", resp.Status, bravo.actsDone(), alpha.actsDone())
	}
}

// TestHostGamesComeAndGo: the list of games shows each game served and
// those not served now; a game added while the console runs appears, a
// game stopped or removed disappears (its desk says why), and a game served
// anew — stopped and started, or another game under the same name — needs
// its referee to sign in again.
func TestHostGamesComeAndGo(t *testing.T) {
	t.Parallel()
	r, hg, alpha, _ := hostRig(t)
	resp, list := r.get("/")
	if resp.StatusCode != http.StatusOK || !strings.Contains(list, `href="/g/alpha/"`) || !strings.Contains(list, `href="/g/bravo/"`) {
		t.Fatalf("the list of games: %s\n%s", resp.Status, list)
	}
	if !r.signInTo("bravo", "bravo-referee") {
		t.Fatal("bravo's desk did not open")
	}
	// Bravo is stopped: off the list's links, its desk says so.
	hg.set([]Game{alpha}, UnservedGame{ID: "bravo", Status: "stopped"})
	_, list = r.get("/")
	if strings.Contains(list, `href="/g/bravo/"`) || !strings.Contains(list, "not served now: stopped") {
		t.Errorf("bravo stopped, the list:\n%s", list)
	}
	if resp, body := r.get("/g/bravo/"); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "pbem host start bravo") {
		t.Errorf("bravo stopped, its desk: %s %s", resp.Status, body)
	}
	// Started again (a new daemon: a new value): the old session ends.
	bravo2 := newFakeGame()
	bravo2.id, bravo2.password = "bravo", "bravo-referee"
	hg.set([]Game{alpha, bravo2})
	if resp, _ := r.get("/g/bravo/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("bravo served anew, the old session: %s; want a redirect to sign in", resp.Status)
	}
	// Removed, and another game added under its name with another
	// referee: bravo's old referee gets nothing.
	other := newFakeGame()
	other.id, other.password = "bravo", "another-referee"
	hg.set([]Game{alpha, other})
	if resp, _ := r.get("/g/bravo/archive"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a new game under bravo's name opened to bravo's old session: %s", resp.Status)
	}
	// A game added while the console runs appears.
	charlie := newFakeGame()
	charlie.id, charlie.password = "charlie", "charlie-referee"
	hg.set([]Game{alpha, other, charlie})
	if _, list = r.get("/"); !strings.Contains(list, `href="/g/charlie/"`) {
		t.Errorf("charlie added, the list:\n%s", list)
	}
	if !r.signInTo("charlie", "charlie-referee") {
		t.Error("charlie's desk did not open")
	}
	// Removed altogether: gone.
	hg.set([]Game{alpha})
	if resp, _ := r.get("/g/charlie/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("charlie removed, its desk: %s", resp.Status)
	}
	if resp, _ := r.get("/"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/g/alpha/" {
		t.Errorf("one game left, / gave %s to %q; want a redirect to its desk", resp.Status, resp.Header.Get("Location"))
	}
}
