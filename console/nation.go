package console

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/daemon"
)

// A nation's own page, read-only: a player signs in with the nation's
// order-sheet password and sees the nation's reports of every turn (the
// PDFs the nation was mailed, built again from the archive), its sheet in
// force with its receipt, its requests and their rulings, and the
// deadline. Nothing on it is another nation's: the page is cut from the
// desk by nation, and the reports are the nation's own (the reports'
// fog, reports/fog_test.go). A player's session opens nothing of the
// referee's.

// nationSignedIn lets a player's session through, with the same CSRF and
// origin checks on a POST as the referee's.
func (c *Console) nationSignedIn(h sessionHandler) gameHandler {
	return func(w http.ResponseWriter, r *http.Request, g Game) {
		s, ok := c.sessionOf(r, g)
		if !ok || s.nation == "" {
			if r.Method == http.MethodGet && r.URL.Path == "/g/"+g.ID()+"/nation/" {
				http.Redirect(w, r, "/g/"+g.ID()+"/nation/login", http.StatusSeeOther)
				return
			}
			http.Error(w, "not signed in as a nation, or the session ended: sign in again", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
			if !sameOrigin(r) || !sameToken(r.PostFormValue("csrf"), s.csrf) {
				c.render(w, http.StatusForbidden, "refused.html", map[string]any{"Title": "Refused", "Game": g.ID(),
					"Why": "The form's security token is missing or out of date: nothing was done."})
				return
			}
		}
		h(w, r, g, s)
	}
}

// nationLoginPage is the players' sign-in form.
type nationLoginPage struct {
	Title, Game, CSRF, Error, Nation string
	Nations                          []nationChoice
}

func (c *Console) nationLogin(w http.ResponseWriter, r *http.Request, g Game) (nationLoginPage, bool) {
	p := nationLoginPage{Title: "Sign in", Game: g.ID(), CSRF: c.loginToken(w, r)}
	v, err := g.Desk(r.Context())
	if err != nil {
		c.fail(w, g, "the game could not be read", err)
		return p, false
	}
	for _, n := range v.Nations {
		if !n.Eliminated {
			p.Nations = append(p.Nations, nationChoice{n.ID, n.Name})
		}
	}
	return p, true
}

func (c *Console) serveNationLogin(w http.ResponseWriter, r *http.Request, g Game) {
	if p, ok := c.nationLogin(w, r, g); ok {
		c.render(w, http.StatusOK, "nation_login.html", p)
	}
}

func (c *Console) doNationLogin(w http.ResponseWriter, r *http.Request, g Game) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	addr := clientAddr(r)
	p, ok := c.nationLogin(w, r, g)
	if !ok {
		return
	}
	nation := r.PostFormValue("nation")
	p.Nation = nation
	if status, why := c.loginRefusal(w, r, addr); status != 0 { // pages.go
		p.Error = why
		c.render(w, status, "nation_login.html", p)
		return
	}
	known := slices.ContainsFunc(p.Nations, func(n nationChoice) bool { return n.ID == nation })
	if !known || !g.VerifyNation(r.Context(), nation, r.PostFormValue("password")) {
		d := c.limit.failed(addr)
		c.log.Warn("console: a wrong nation password", "game", g.ID(), "nation", nation, "from", addr, "wait", d)
		p.Error = fmt.Sprintf("That is not the nation's order-sheet password. The next try from your address waits %s.", waitText(d))
		c.render(w, http.StatusUnauthorized, "nation_login.html", p)
		return
	}
	c.limit.succeeded(addr)
	old := ""
	if ck, err := r.Cookie(c.sessionCookieOf(g.ID())); err == nil {
		old = ck.Value
	}
	s := c.session.start(g, "nation "+nation, nation, old)
	c.setCookie(w, c.sessionCookieOf(g.ID()), s.id, int(c.opts.SessionTTL/time.Second))
	c.setCookie(w, c.cookieName(loginCookie, loginCookieTLS), "", -1)
	http.Redirect(w, r, "/g/"+g.ID()+"/nation/", http.StatusSeeOther)
}

// nationPage is a nation's page: only what is the nation's own.
type nationPage struct {
	Title, Game, CSRF string // CSRF empty: the layout shows the referee's links only with it
	Token             string // the session's CSRF token, for sign-out
	Name, TurnLabel   string
	Turn, LastTurn    int
	Deadline, Now     time.Time
	Zone              *time.Location
	Over              bool
	MapImage          bool // the map is drawn as an image too (else in the PDFs only)
	Victory           string
	Sheet             daemon.DeskSheet
	Requests          []daemon.RequestStatus
	Turns             []int
}

func (c *Console) serveNation(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	v, err := g.Desk(r.Context())
	if err != nil {
		c.fail(w, g, "the game could not be read", err)
		return
	}
	p := nationPage{Title: "Your nation", Game: g.ID(), Token: s.csrf, TurnLabel: v.TurnLabel, Turn: v.Turn, LastTurn: v.LastTurn,
		Deadline: v.Deadline, Now: v.Now, Zone: v.Zone, Over: v.Over, Victory: v.Victory, MapImage: v.MapImage}
	for _, sh := range v.Sheets {
		if sh.ID == s.nation {
			p.Sheet, p.Name = sh, sh.Name
			p.Sheet.From = "" // the address is the nation's own, but the page needs it not
		}
	}
	for _, q := range v.Requests {
		if q.Nation == s.nation {
			p.Requests = append(p.Requests, q)
		}
	}
	for t := v.LastTurn; t >= 0; t-- {
		p.Turns = append(p.Turns, t)
	}
	c.render(w, http.StatusOK, "nation.html", p)
}

// serveNationMap sends the nation's own map of a turn as an image.
func (c *Console) serveNationMap(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	ts, ok := strings.CutSuffix(r.PathValue("file"), ".svg")
	turn, err := strconv.Atoi(ts)
	if !ok || err != nil || turn < 0 || strconv.Itoa(turn) != ts {
		http.NotFound(w, r)
		return
	}
	c.sendMapImage(w, r, g, turn, s.nation)
}

// serveNationReport sends the nation's own report of a turn: the name is
// the turn and .pdf, nothing else; the nation is the session's.
func (c *Console) serveNationReport(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	ts, ok := strings.CutSuffix(r.PathValue("file"), ".pdf")
	turn, err := strconv.Atoi(ts)
	if !ok || err != nil || turn < 0 || strconv.Itoa(turn) != ts {
		http.NotFound(w, r)
		return
	}
	pdf, err := g.DeskReport(r.Context(), turn, s.nation)
	if errors.Is(err, daemon.ErrNoReport) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if err != nil {
		c.fail(w, g, "the report could not be built", err)
		return
	}
	servePDF(w, fmt.Sprintf("%s-turn%d-%s.pdf", g.ID(), turn, s.nation), pdf)
}
