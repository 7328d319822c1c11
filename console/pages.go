package console

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages are the console's templates, parsed when the first page is built
// (not at start-up: every pbem command carries the console).
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"when": func(t time.Time, z *time.Location) string {
			if t.IsZero() {
				return "—"
			}
			if z == nil {
				z = time.UTC
			}
			return t.In(z).Format("Mon 2 Jan 2006 15:04 MST")
		},
		"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"until": func(t, now time.Time) string { return roundDuration(t.Sub(now)) },
		"ago":   func(t, now time.Time) string { return roundDuration(now.Sub(t)) },
		"after": func(a, b time.Time) bool { return a.After(b) },
		"join":  strings.Join,
		"split": strings.Fields,
		// pendingHex is the hex of the one battle waiting for its result ("" for none or several).
		"pendingHex": func(v *daemon.DeskView) string {
			hex := ""
			for _, b := range v.Battles {
				if !b.Result {
					if hex != "" {
						return ""
					}
					hex = b.Hex
				}
			}
			return hex
		},
		"outbox":     func(v *daemon.DeskView, state string) int { return v.Outbox[store.OutboxState(state)] },
		"err":        func(f *flash, action, field string) string { return f.fieldError(action, field) },
		"val":        func(f *flash, action, field string) string { return f.value(action, field) },
		"nav":        func(page any) bool { show, _ := navOf(page); return show },
		"navPreview": func(page any) bool { _, preview := navOf(page); return preview },
		"turns": func(last int) []int {
			out := []int{}
			for t := last; t >= 1; t-- {
				out = append(out, t)
			}
			return out
		},
	}).ParseFS(templateFS, "templates/*.html"))
})

// navOf says which of the referee's links the page's header shows: none on
// a sign-in page (its CSRF token is the sign-in form's, not a session's),
// and Preview only for a game that takes PREVIEW.
func navOf(page any) (show, preview bool) {
	switch p := page.(type) {
	case loginPage, nationLoginPage:
		return false, false
	case deskPage:
		return true, p.V == nil || p.V.Takes("preview")
	case map[string]any:
		if v, ok := p["V"].(*daemon.DeskView); ok && v != nil {
			return true, v.Takes("preview")
		}
	}
	return true, true
}

func (f *flash) fieldError(action, field string) string {
	if f == nil || f.Action != action {
		return ""
	}
	return f.Fields[field]
}

func (f *flash) value(action, field string) string {
	if f == nil || f.Action != action {
		return ""
	}
	return f.Values[field]
}

// roundDuration says a duration for people: "3d 4h", "2h 5m", "45s".
func roundDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "passed"
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", d/time.Hour, d%time.Hour/time.Minute)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

func (c *Console) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /{$}", c.serveGames)
	m.HandleFunc("GET /g/{game}/{$}", c.withGame(c.serveDesk))
	m.HandleFunc("GET /g/{game}/login", c.withGame(c.serveLogin))
	m.HandleFunc("POST /g/{game}/login", c.withGame(c.doLogin))
	m.HandleFunc("POST /g/{game}/logout", c.withGame(c.signedIn(c.doLogout)))
	m.HandleFunc("GET /g/{game}/version", c.withGame(c.signedIn(c.serveVersion)))
	m.HandleFunc("GET /g/{game}/preview", c.withGame(c.signedIn(c.servePreview)))
	m.HandleFunc("GET /g/{game}/reports", c.withGame(c.signedIn(c.serveReports)))
	m.HandleFunc("GET /g/{game}/report/{turn}/{file}", c.withGame(c.signedIn(c.serveReport)))
	m.HandleFunc("GET /g/{game}/mapimg/{turn}/{file}", c.withGame(c.signedIn(c.serveMapImage)))
	m.HandleFunc("GET /g/{game}/archive", c.withGame(c.signedIn(c.serveArchive)))
	m.HandleFunc("POST /g/{game}/act/{action}", c.withGame(c.signedIn(c.doAct)))
	m.HandleFunc("GET /g/{game}/nation/login", c.withGame(c.serveNationLogin))
	m.HandleFunc("POST /g/{game}/nation/login", c.withGame(c.doNationLogin))
	m.HandleFunc("GET /g/{game}/nation/{$}", c.withGame(c.nationSignedIn(c.serveNation)))
	m.HandleFunc("GET /g/{game}/nation/report/{file}", c.withGame(c.nationSignedIn(c.serveNationReport)))
	m.HandleFunc("GET /g/{game}/nation/map/{file}", c.withGame(c.nationSignedIn(c.serveNationMap)))
	m.HandleFunc("POST /g/{game}/nation/logout", c.withGame(c.nationSignedIn(c.doLogout)))
	c.mux = m
}

// gameHandler serves a request about a game.
type gameHandler func(w http.ResponseWriter, r *http.Request, g Game)

// sessionHandler serves a request of a signed-in session.
type sessionHandler func(w http.ResponseWriter, r *http.Request, g Game, s *session)

func (c *Console) withGame(h gameHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("game")
		g, ok := c.game(id)
		if !ok {
			http.Error(w, c.notServed(id), http.StatusNotFound)
			return
		}
		h(w, r, g)
	}
}

// signedIn lets a signed-in session through; a page is sent to sign in,
// anything else is refused. A POST must carry the session's CSRF token and
// come from this site.
func (c *Console) signedIn(h sessionHandler) gameHandler {
	return func(w http.ResponseWriter, r *http.Request, g Game) {
		s, ok := c.sessionOf(r, g)
		if ok && s.nation != "" { // a player's session sees the nation's page only
			ok = false
		}
		if !ok {
			if r.Method == http.MethodGet && r.URL.Path == "/g/"+g.ID()+"/" {
				http.Redirect(w, r, "/g/"+g.ID()+"/login", http.StatusSeeOther)
				return
			}
			http.Error(w, "not signed in, or the session ended: sign in again", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 256<<10)
			if !sameOrigin(r) || !sameToken(r.PostFormValue("csrf"), s.csrf) {
				c.log.Warn("console: a form without the session's CSRF token refused", "game", g.ID(), "from", clientAddr(r), "path", r.URL.Path)
				c.render(w, http.StatusForbidden, "refused.html", map[string]any{"Title": "Refused", "Game": g.ID(),
					"Why": "The form's security token is missing or out of date: nothing was done. Go back to the desk, reload it and try again."})
				return
			}
		}
		h(w, r, g, s)
	}
}

func (c *Console) render(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		c.log.Error("console: a page could not be built", "page", name, "err", err)
		http.Error(w, "the page could not be built (the log has why)", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

func (c *Console) fail(w http.ResponseWriter, g Game, what string, err error) {
	c.log.Error("console: "+what, "game", g.ID(), "err", err)
	http.Error(w, what+": "+err.Error(), http.StatusInternalServerError)
}

// gameEntry is a game on the list of games.
type gameEntry struct {
	ID, Title, Rules, Map, Status string
}

// serveGames lists the games served, each opening its desk (signed in
// with its own referee password), and those not served now; with one game
// served and no other, it goes straight to it. The list is public: it
// shows what the games' addresses show anyway, never a game's state.
func (c *Console) serveGames(w http.ResponseWriter, r *http.Request) {
	gs := c.games.Games()
	var absent []UnservedGame
	if u, ok := c.games.(Unserved); ok {
		absent = u.Unserved()
	}
	if len(gs) == 1 && len(absent) == 0 {
		http.Redirect(w, r, "/g/"+gs[0].ID()+"/", http.StatusSeeOther)
		return
	}
	var list []gameEntry
	for _, g := range gs {
		e := gameEntry{ID: g.ID()}
		if t, ok := g.(Titled); ok {
			e.Title, e.Rules, e.Map = t.DeskTitle(), t.RulesName(), t.ScenarioName()
		}
		list = append(list, e)
	}
	for _, a := range absent {
		list = append(list, gameEntry{ID: a.ID, Status: a.Status})
	}
	slices.SortFunc(list, func(a, b gameEntry) int { return strings.Compare(a.ID, b.ID) })
	c.render(w, http.StatusOK, "games.html", map[string]any{"Title": "Games", "Games": list})
}

// notServed says why there is no desk at /g/id/.
func (c *Console) notServed(id string) string {
	if u, ok := c.games.(Unserved); ok {
		for _, a := range u.Unserved() {
			if a.ID == id {
				return fmt.Sprintf("game %s is not served now (%s): its referee starts it with \"pbem host start %s\"; the list of games is at /", id, a.Status, id)
			}
		}
	}
	return "no such game: the list of games is at /"
}

// loginPage is the sign-in form's data.
type loginPage struct {
	Title, Game, CSRF, Error string
}

func (c *Console) serveLogin(w http.ResponseWriter, r *http.Request, g Game) {
	if _, ok := c.sessionOf(r, g); ok {
		http.Redirect(w, r, "/g/"+g.ID()+"/", http.StatusSeeOther)
		return
	}
	p := loginPage{Title: "Sign in", Game: g.ID(), CSRF: c.loginToken(w, r)}
	if !g.HasRefereePassword() {
		p.Error = noRefereePassword
	}
	c.render(w, http.StatusOK, "login.html", p)
}

// noRefereePassword is what the sign-in page says without a referee
// password.
const noRefereePassword = "No referee password is configured (game.referee_password), so nobody can sign in, as no referee's mail " +
	"of commands is taken: set it in the config and restart pbem run."

// loginRefusal is why a sign-in form (the referee's or a nation's) is
// refused before its password is looked at: a missing or stale CSRF token,
// or too many wrong passwords from the address (Retry-After set). Status 0
// when neither.
func (c *Console) loginRefusal(w http.ResponseWriter, r *http.Request, addr string) (status int, why string) {
	ck, err := r.Cookie(c.cookieName(loginCookie, loginCookieTLS))
	if err != nil || !sameOrigin(r) || !sameToken(r.PostFormValue("csrf"), ck.Value) {
		return http.StatusForbidden, "The form's security token is missing or out of date (are cookies on?): sign in again from this page."
	}
	if d := c.limit.wait(addr); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(d/time.Second)+1))
		return http.StatusTooManyRequests, fmt.Sprintf("Too many wrong passwords from your address: wait %s before trying again.", waitText(d))
	}
	return 0, ""
}

func (c *Console) doLogin(w http.ResponseWriter, r *http.Request, g Game) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	addr := clientAddr(r)
	page := loginPage{Title: "Sign in", Game: g.ID(), CSRF: c.loginToken(w, r)}
	if status, why := c.loginRefusal(w, r, addr); status != 0 {
		page.Error = why
		c.render(w, status, "login.html", page)
		return
	}
	if !g.HasRefereePassword() {
		page.Error = noRefereePassword
		c.render(w, http.StatusUnauthorized, "login.html", page)
		return
	}
	if !g.VerifyReferee(r.PostFormValue("password")) {
		d := c.limit.failed(addr)
		c.log.Warn("console: a wrong referee password", "game", g.ID(), "from", addr, "wait", d)
		page.Error = fmt.Sprintf("That is not the referee password (game.referee_password). The next try from your address waits %s.", waitText(d))
		c.render(w, http.StatusUnauthorized, "login.html", page)
		return
	}
	c.limit.succeeded(addr)
	old := ""
	if ck, err := r.Cookie(c.sessionCookieOf(g.ID())); err == nil {
		old = ck.Value
	}
	s := c.session.start(g, "referee", "", old)
	c.setCookie(w, c.sessionCookieOf(g.ID()), s.id, int(c.opts.SessionTTL/time.Second))
	c.setCookie(w, c.cookieName(loginCookie, loginCookieTLS), "", -1)
	c.log.Info("console: the referee signed in", "game", g.ID(), "from", addr)
	http.Redirect(w, r, "/g/"+g.ID()+"/", http.StatusSeeOther)
}

func (c *Console) doLogout(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	c.session.end(s)
	c.setCookie(w, c.sessionCookieOf(g.ID()), "", -1)
	if s.nation != "" {
		http.Redirect(w, r, "/g/"+g.ID()+"/nation/login", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/g/"+g.ID()+"/login", http.StatusSeeOther)
}

// deskPage is the desk's data.
type deskPage struct {
	Title   string
	Game    string
	CSRF    string
	V       *daemon.DeskView
	Flash   *flash
	Refresh int // seconds between the script's looks
	Version string
	Nations []nationChoice
	Pending []daemon.RequestStatus
	Confirm *confirmPage
}

type nationChoice struct{ ID, Name string }

func (c *Console) serveDesk(w http.ResponseWriter, r *http.Request, g Game) {
	c.signedIn(func(w http.ResponseWriter, r *http.Request, g Game, s *session) {
		v, err := g.Desk(r.Context())
		if err != nil {
			c.fail(w, g, "the game could not be read", err)
			return
		}
		c.render(w, http.StatusOK, "desk.html", c.deskData(v, g, s, c.session.takeFlash(s)))
	})(w, r, g)
}

func (c *Console) deskData(v *daemon.DeskView, g Game, s *session, f *flash) deskPage {
	p := deskPage{Title: v.Name, Game: g.ID(), CSRF: s.csrf, V: v, Flash: f, Refresh: int(c.opts.Refresh / time.Second), Version: version(v)}
	for _, n := range v.Nations {
		p.Nations = append(p.Nations, nationChoice{n.ID, n.Name})
	}
	for _, q := range v.Requests {
		if q.Ruling == "" {
			p.Pending = append(p.Pending, q)
		}
	}
	return p
}

// version sums what the desk shows that changes: the script reloads the
// page when it changes.
func version(v *daemon.DeskView) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d|%s|%s|%v|%v|%d|%d|%d|%d", v.Turn, v.Deadline, v.LastResolved, v.IsClosed, v.IsHeld, v.MailWaiting,
		v.MailQuarantined, len(v.Log), len(v.Failed))
	for _, s := range v.Sheets {
		fmt.Fprintf(h, "|%s %s %v %d", s.ID, s.Receipt, s.Final, s.Refused)
	}
	for _, q := range v.Requests {
		fmt.Fprintf(h, "|%s %s", q.Token, q.Ruling)
	}
	for _, b := range v.Battles {
		fmt.Fprintf(h, "|%s %v", b.Hex, b.Result)
	}
	for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxFailed} {
		fmt.Fprintf(h, "|%d", v.Outbox[st])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func (c *Console) serveVersion(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	v, err := g.Desk(r.Context())
	if err != nil {
		c.fail(w, g, "the game could not be read", err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, version(v))
}

func (c *Console) servePreview(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
	defer cancel()
	text, err := g.PreviewText(ctx)
	page := map[string]any{"Title": "Preview", "Game": g.ID(), "CSRF": s.csrf, "Text": text}
	if err != nil {
		page["Error"] = err.Error()
	}
	c.render(w, http.StatusOK, "preview.html", page)
}

// serveReports shows a resolved turn's reports: the referee's, or a
// nation's, inline.
func (c *Console) serveReports(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	v, err := g.Desk(r.Context())
	if err != nil {
		c.fail(w, g, "the game could not be read", err)
		return
	}
	turn := v.LastTurn
	if t, err := strconv.Atoi(r.URL.Query().Get("turn")); err == nil && t >= 0 && t <= v.LastTurn {
		turn = t
	}
	who := r.URL.Query().Get("nation")
	if who != "map" && !slices.ContainsFunc(v.Nations, func(n daemon.NationStatus) bool { return n.ID == who }) {
		who = "referee"
	}
	c.render(w, http.StatusOK, "reports.html", map[string]any{"Title": "Reports", "Game": g.ID(), "CSRF": s.csrf, "V": v,
		"Turn": turn, "Who": who, "File": fmt.Sprintf("/g/%s/report/%d/%s.pdf", g.ID(), turn, who), "Img": mapImage(g.ID(), turn, who)})
}

// mapImage is the address of the map image of a report.
func mapImage(game string, turn int, who string) string {
	if who == "map" {
		who = "referee"
	}
	return fmt.Sprintf("/g/%s/mapimg/%d/%s.svg", game, turn, who)
}

// reportName reads the name of a report: a nation, "referee" or "map", and .pdf.
// Nothing else is served, whatever the path holds.
func reportName(file string) (string, bool) {
	who, ok := strings.CutSuffix(file, ".pdf")
	return who, ok && who != "" && wordRE.MatchString(who) && !strings.Contains(who, "..") && !strings.Contains(who, "/")
}

func (c *Console) serveReport(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	turn, err := strconv.Atoi(r.PathValue("turn"))
	who, ok := reportName(r.PathValue("file"))
	if err != nil || turn < 0 || !ok {
		http.NotFound(w, r)
		return
	}
	var pdf []byte
	if who == "map" {
		pdf, err = g.DeskMap(r.Context(), turn)
	} else {
		pdf, err = g.DeskReport(r.Context(), turn, who)
	}
	if errors.Is(err, daemon.ErrNoReport) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if err != nil {
		c.fail(w, g, "the report could not be built", err)
		return
	}
	servePDF(w, fmt.Sprintf("%s-turn%d-%s.pdf", g.ID(), turn, who), pdf)
}

func (c *Console) serveMapImage(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	turn, err := strconv.Atoi(r.PathValue("turn"))
	who, ok := strings.CutSuffix(r.PathValue("file"), ".svg")
	if err != nil || turn < 0 || !ok || who == "" || !wordRE.MatchString(who) || strings.Contains(who, "..") {
		http.NotFound(w, r)
		return
	}
	c.sendMapImage(w, r, g, turn, who)
}

// sendMapImage sends a turn's map for who (a nation, or "referee") as an
// SVG image.
func (c *Console) sendMapImage(w http.ResponseWriter, r *http.Request, g Game, turn int, who string) {
	svg, err := g.DeskMapSVG(r.Context(), turn, who)
	if errors.Is(err, daemon.ErrNoReport) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if err != nil {
		c.fail(w, g, "the map could not be drawn", err)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	w.Header().Set("Vary", "Accept-Encoding")
	// A map is some hundreds of KB of repetitive text: sent compressed to
	// a browser that takes it (it holds no secret to leak by its length).
	if acceptsGzip(r) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write(svg)
		zw.Close()
		return
	}
	w.Write(svg)
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// servePDF sends a PDF to be shown inline, in the console's own pages only.
func servePDF(w http.ResponseWriter, name string, pdf []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'self'")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	w.Write(pdf)
}

func (c *Console) serveArchive(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	var b bytes.Buffer
	if _, err := g.Export(r.Context(), &b); err != nil {
		c.fail(w, g, "the archive could not be written", err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", g.ID()+"-archive.jsonl"))
	w.Write(b.Bytes())
}

// confirmPage asks before an act that sets turns aside.
type confirmPage struct {
	Action, Title, What string
	Values              map[string]string
}

// doAct runs a form: its command written as in a mail, through DeskAct.
func (c *Console) doAct(w http.ResponseWriter, r *http.Request, g Game, s *session) {
	a, ok := actionOf(r.PathValue("action"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	values := map[string]string{}
	for k, vs := range r.PostForm {
		if k != "csrf" && len(vs) > 0 {
			values[k] = vs[0]
		}
	}
	back := "/g/" + g.ID() + "/#" + a.name
	text, lines, errs := commandText(a, values)
	if errs != nil {
		c.session.setFlash(s, &flash{Action: a.name, Fields: errs, Values: values})
		http.Redirect(w, r, back, http.StatusSeeOther)
		return
	}
	if a.confirm != nil && values["confirm"] != "yes" {
		v, err := g.Desk(r.Context())
		if err != nil {
			c.fail(w, g, "the game could not be read", err)
			return
		}
		p := c.deskData(v, g, s, nil)
		p.Confirm = &confirmPage{Action: a.name, Title: a.title, What: a.confirm(newForm(values), v.LastTurn), Values: values}
		c.render(w, http.StatusOK, "confirm.html", p)
		return
	}
	answer, ok, err := g.DeskAct(r.Context(), s.who, clientAddr(r), text)
	f := &flash{Action: a.name, Lines: unnumbered(answer), OK: ok, Values: values}
	if err != nil {
		f.Error = err.Error()
		c.log.Error("console: an act failed", "game", g.ID(), "action", a.name, "err", err)
	}
	if !ok {
		f.Fields = fieldErrors(answer, lines)
	}
	if ok {
		f.Values = nil
	}
	c.session.setFlash(s, f)
	http.Redirect(w, r, "/g/"+g.ID()+"/#answer", http.StatusSeeOther)
}
