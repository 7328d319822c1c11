package console

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// keptGame is a fake game that keeps its sessions in a folder, as a
// *daemon.Game keeps them in its data folder.
type keptGame struct {
	*fakeGame
	dir string
}

func (g *keptGame) SessionDir() string { return g.dir }

var _ SessionKeeper = (*keptGame)(nil)

// restarted is a console started anew on game g (a new Game value on the
// same folder, as pbem run restarted gives), with a browser that carries
// the session cookie of the rig before.
func restarted(t *testing.T, before *rig, g Game, clk *clock) *rig {
	t.Helper()
	r := newRigFor(t, New(Single(g), &Options{Now: clk.now, SessionTTL: 4 * time.Hour}))
	old, _ := url.Parse(before.srv.URL)
	u, _ := url.Parse(r.srv.URL)
	r.jar.SetCookies(u, before.jar.Cookies(old))
	return r
}

// TestSessionsSurviveRestart: a sign-in outlives a restart of the console
// (its forms' token too); signed out, it does not come back after one; an
// expired one does not either; the file is the owner's only and holds no
// session ID.
func TestSessionsSurviveRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clk := &clock{t: time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)}
	r1 := newRigFor(t, New(Single(&keptGame{newFakeGame(), dir}), &Options{Now: clk.now, SessionTTL: 4 * time.Hour}))
	page := r1.signIn()
	token := r1.csrf(page)

	fi, err := os.Stat(filepath.Join(dir, sessionFileName))
	if err != nil {
		t.Fatalf("no sessions file after sign-in: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the sessions file is %v, want -rw-------", fi.Mode().Perm())
	}
	u, _ := url.Parse(r1.srv.URL)
	b, _ := os.ReadFile(filepath.Join(dir, sessionFileName))
	for _, ck := range r1.jar.Cookies(u) {
		if strings.HasPrefix(ck.Name, sessionCookie) && strings.Contains(string(b), ck.Value) {
			t.Error("the sessions file holds the session's ID")
		}
	}

	clk.add(10 * time.Minute)
	r2 := restarted(t, r1, &keptGame{newFakeGame(), dir}, clk)
	resp, page := r2.get("/g/syw/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after a restart the desk answers %s, want the desk", resp.Status)
	}
	if got := r2.csrf(page); got != token {
		t.Errorf("the forms' token changed across the restart: %q, was %q", got, token)
	}
	// Signed out after the restart: another restart does not bring it back.
	if resp, _ := r2.post("/g/syw/logout", url.Values{"csrf": {token}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %s", resp.Status)
	}
	r3 := restarted(t, r1, &keptGame{newFakeGame(), dir}, clk)
	if resp, _ := r3.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out, then restarted: the desk answers %s, want sent to sign in", resp.Status)
	}

	// Expired while the console was down: not let in.
	r4 := restarted(t, r1, &keptGame{newFakeGame(), dir}, clk)
	r4.signIn()
	clk.add(4*time.Hour + time.Minute)
	r5 := restarted(t, r4, &keptGame{newFakeGame(), dir}, clk)
	if resp, _ := r5.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("past web.session_hours across a restart: the desk answers %s, want sent to sign in", resp.Status)
	}
}

// TestSessionsOfAReplacedGame: a game removed and another added under its
// name (a new folder, or its folder deleted and made again) asks for a new
// sign-in, on a console that kept running and on one restarted; a game
// that keeps no sessions ends them when served anew, as before.
func TestSessionsOfAReplacedGame(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)}
	dir := filepath.Join(t.TempDir(), "syw", "data")
	os.MkdirAll(dir, 0o700)
	hg := &hostGames{}
	hg.set([]Game{&keptGame{newFakeGame(), dir}})
	r := newRigFor(t, New(hg, &Options{Now: clk.now, SessionTTL: 4 * time.Hour}))
	r.signIn()

	// The same game stopped and started again by the host: still in.
	hg.set([]Game{&keptGame{newFakeGame(), dir}})
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the game restarted on its folder: %s, want the desk", resp.Status)
	}
	// Removed (its folder deleted) and another added under its name.
	os.RemoveAll(filepath.Dir(dir))
	os.MkdirAll(dir, 0o700)
	hg.set([]Game{&keptGame{newFakeGame(), dir}})
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a new game under the old one's name let the old session in: %s", resp.Status)
	}
	r.signIn()
	other := filepath.Join(t.TempDir(), "data")
	hg.set([]Game{&keptGame{newFakeGame(), other}})
	if resp, _ := r.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a game in another folder under the old one's name let the old session in: %s", resp.Status)
	}
	r2 := restarted(t, r, &keptGame{newFakeGame(), other}, clk)
	if resp, _ := r2.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("restarted on the new game: the old session let in: %s", resp.Status)
	}

	// A game that keeps no sessions: served anew, signed out.
	mem := newRigFor(t, New(hg, &Options{Now: clk.now}))
	hg.set([]Game{newFakeGame()})
	mem.signIn()
	hg.set([]Game{newFakeGame()})
	if resp, _ := mem.get("/g/syw/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a game without a folder served anew kept its session: %s", resp.Status)
	}
}
