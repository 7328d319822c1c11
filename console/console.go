// Package console is the referee's desk in a browser: the web page "pbem
// run" serves (docs/console.md).
//
// # What it serves
//
// For each game (Games: the one game of "pbem run", or every game a host
// serves for "pbem run --host", listed at /) a page with the open turn and its deadline counting down, every nation's sheet
// (received when, from whom, FINAL, its problems, the orders as
// understood), missing sheets and NMR streaks, the requests waiting with
// their text and token, the battles waiting on the table with their sheets,
// the treaties, the mail queues and the intake's health, the last resolved
// turn's reports (the PDFs inline) and the game's archive; and a form for
// every referee command. A form never does anything itself: it writes the
// command as the referee's mail would (actions.go) and hands it to the
// game's DeskAct, which runs it through the registry of referee commands
// (daemon/referee.go) — the path of a signed referee mail, so the mail, the
// CLI and the console cannot drift. Each act answers on the page, is mailed
// to whom the mail command tells, and is logged (who, when, what, the
// answer) and listed on the page.
//
// # Who may enter
//
// The referee signs in with the game's referee password
// (game.referee_password: the hash the PASSWORD line of a referee's mail
// is checked against). A session is for one game: it opens nothing of
// another game of a host. Sessions are kept in the game's data folder
// (sessions.go), so that a restart keeps everyone signed in, while another
// game under the same name (a new folder) asks for a new sign-in; they end
// after web.session_hours (sooner when idle) and at sign-out, and get a new
// ID at sign-in (no fixation). The cookie, one
// per game, is HttpOnly, SameSite=Strict, and Secure (with the __Host-
// prefix) under TLS. Every
// form carries a CSRF token (the session's; before sign-in, a cookie's
// double), and a POST whose Origin is another site is refused. Failed
// sign-ins slow the address that made them: after each, the next attempt
// from it waits twice as long as the last (from 1 s, at most 5 minutes),
// and an attempt before then is refused without checking the password.
// Every response carries a Content-Security-Policy without inline script
// or style, frame-ancestors 'none' and X-Frame-Options DENY (no framing),
// nosniff, the referrer kept to this site, and no caching of pages.
//
// # Pages without JavaScript
//
// Everything works with JavaScript off: the forms post, the answer comes
// back on the page (post, redirect, get). The one script (static/console.js,
// served from the binary like the style sheet) counts the deadline down and
// reloads the page when the game changes, unless a form is being filled in.
package console

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/syw-pbem/pbem/daemon"
)

// Game is one game as the console serves it. *daemon.Game is one.
type Game interface {
	// ID is the game's id (config game.id): its pages are under /g/ID/.
	ID() string
	// Desk reads the game for the page.
	Desk(ctx context.Context) (*daemon.DeskView, error)
	// DeskAct runs referee commands written as in a mail, through the
	// registry of referee commands, and logs them as done by who from
	// address from; it returns the answer line by line and whether every
	// line was carried out.
	DeskAct(ctx context.Context, who, from, text string) (lines []string, ok bool, err error)
	// DeskReport renders a resolved turn's report as a PDF: a nation's, or
	// the referee's master report for "referee" (daemon.ErrNoReport when
	// there is no such turn or nation).
	DeskReport(ctx context.Context, turn int, nation string) ([]byte, error)
	// DeskMap renders the map after a resolved turn as a PDF.
	DeskMap(ctx context.Context, turn int) ([]byte, error)
	// DeskMapSVG draws the map of a resolved turn as an SVG image: a
	// nation's (as its report shows it), or every force for "referee".
	DeskMapSVG(ctx context.Context, turn int, nation string) ([]byte, error)
	// PreviewText resolves the open turn without saving anything and
	// returns the referee's summary (the referee's PREVIEW).
	PreviewText(ctx context.Context) (string, error)
	// Export writes the game's hash-chained archive.
	Export(ctx context.Context, w io.Writer) (int, error)
	// VerifyReferee reports whether pw is the referee's password;
	// HasRefereePassword whether one is configured.
	VerifyReferee(pw string) bool
	HasRefereePassword() bool
	// VerifyNation reports whether pw is nation's order-sheet password
	// for the turn open (a player's sign-in to the nation's page).
	VerifyNation(ctx context.Context, nation, pw string) bool
}

var _ Game = (*daemon.Game)(nil)

var _ SessionKeeper = (*daemon.Game)(nil)

// A session of a game that is not a SessionKeeper is bound to the Game
// value it signed in to, compared with ==: implement Game on a pointer,
// and give a game served anew (stopped and started again, or another game
// under its name) a new value, so that the sessions of the old one end with
// it. A SessionKeeper's sessions are bound to its folder (sessions.go).

// Titled is what a Game may also tell the list of games: its name for
// people, its rules and its map. *daemon.Game does.
type Titled interface {
	DeskTitle() string
	RulesName() string
	ScenarioName() string
}

var _ Titled = (*daemon.Game)(nil)

// Games is the games a console serves: one for "pbem run" (Single), the
// host's list when one process runs many. The list may change between
// calls; a game is found by its ID.
type Games interface {
	Games() []Game
}

// GamesFunc is a func listing games, as Games, such as
//
//	console.GamesFunc(func() []console.Game { … h.Game(name) for each running game … })
//
// ("pbem run --host" adapts its host with a type of its own,
// cmd/pbem/console.go, that is also Unserved.)
type GamesFunc func() []Game

// Games calls f.
func (f GamesFunc) Games() []Game { return f() }

// Unserved is what Games may also tell: the games it has but does not
// serve now (a host's games stopped, held or starting), named on the list
// of games so that their referees know why their desk does not open.
type Unserved interface {
	Unserved() []UnservedGame
}

// UnservedGame is a game not served now.
type UnservedGame struct {
	ID     string
	Status string // "stopped", "held", "starting": a word, no detail (the list is public)
}

// Single is the Games of one game.
func Single(g Game) Games { return single{g} }

type single struct{ g Game }

func (s single) Games() []Game { return []Game{s.g} }

// Options tune a Console. The zero value (or nil) means the defaults.
type Options struct {
	// TLS says the console is served over TLS: cookies are Secure, and
	// Strict-Transport-Security is sent. Serve sets it from its cert.
	TLS bool
	// SessionTTL is how long a sign-in lasts; an idle session ends after a
	// quarter of it (at least 30 minutes). Default 12 hours.
	SessionTTL time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger gets the detail of failures (default: discarded).
	Logger *slog.Logger
	// Refresh is how often the page's script asks whether the game
	// changed. Default 15 seconds.
	Refresh time.Duration
}

// Console is the web console of some games. Its zero value is not usable;
// New makes one.
type Console struct {
	games   Games
	opts    Options
	log     *slog.Logger
	now     func() time.Time
	mux     *http.ServeMux
	session *sessions
	limit   *limiter
}

// New returns the console of games. It does no I/O.
func New(games Games, opts *Options) *Console {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = 12 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Refresh <= 0 {
		o.Refresh = 15 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Console{games: games, opts: o, log: log, now: o.Now, session: newSessions(o.SessionTTL, o.Now, log), limit: newLimiter(o.Now)}
	c.routes()
	return c
}

// ServeHTTP serves the console, every response with its security headers.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header(), c.opts.TLS)
	c.mux.ServeHTTP(w, r)
}

// game finds a game by its ID.
func (c *Console) game(id string) (Game, bool) {
	for _, g := range c.games.Games() {
		if g.ID() == id {
			return g, true
		}
	}
	return nil, false
}

// ErrNeedsTLS is Listen's error for an address beyond loopback without a
// certificate.
var ErrNeedsTLS = errors.New("the console listens beyond this machine and needs TLS: set web.tls_cert and web.tls_key, or listen on 127.0.0.1")

// Server is a console listening.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	tls  bool
	done chan error
}

// Listen opens addr for the console: plain HTTP on a loopback address,
// HTTPS with certFile and keyFile (both, or neither). An address beyond
// loopback without them is ErrNeedsTLS: nothing is opened. opts.TLS is set
// from the files.
func Listen(addr, certFile, keyFile string, games Games, opts *Options) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("console: web.listen %q: %w", addr, err)
	}
	useTLS := certFile != "" || keyFile != ""
	if !useTLS && !loopbackHost(host) {
		return nil, ErrNeedsTLS
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.TLS = useTLS
	var cfg *tls.Config
	if useTLS {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("console: the certificate (web.tls_cert, web.tls_key): %w", err)
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	s := &Server{ln: ln, tls: useTLS, done: make(chan error, 1),
		srv: &http.Server{Handler: New(games, &o), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
			WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}}
	go func() {
		err := s.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	return s, nil
}

// URL is where the console can be reached: http(s)://host:port/.
func (s *Server) URL() string {
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	return scheme + "://" + s.ln.Addr().String() + "/"
}

// Close stops the console, letting requests under way finish for a few
// seconds.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serveErr := <-s.done; err == nil {
		err = serveErr
	}
	return err
}

// loopbackHost reports whether host is this machine only.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
