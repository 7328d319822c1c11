package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/console"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/host"
)

// startConsole starts the referee's console of "pbem run" (web.listen,
// docs/console.md) and prints where it is. Beyond loopback without TLS it
// refuses to start (exitConfig); an address it cannot open (in use) is
// said loudly and pbem runs on without it: the mail is the game.
func startConsole(e *env, cfg *config.Config, d *daemon.Daemon) (*console.Server, int) {
	if !cfg.Web.ConsoleOn() {
		fmt.Fprintln(e.stdout, "pbem: no web console (web.listen: off)")
		return nil, exitOK
	}
	s, err := console.Listen(cfg.Web.Listen, cfg.Path(cfg.Web.TLSCert), cfg.Path(cfg.Web.TLSKey), console.Single(d.Game),
		&console.Options{SessionTTL: time.Duration(cfg.Web.SessionHours) * time.Hour, Logger: d.Game.Log})
	if errors.Is(err, console.ErrNeedsTLS) {
		e.errorf("web.listen %s: %v", cfg.Web.Listen, err)
		return nil, exitConfig
	}
	if err != nil {
		msg := fmt.Sprintf("pbem: the web console did not start: %v (set web.listen to a free port, or off); the game runs without it\n", err)
		fmt.Fprint(e.stderr, msg) // once: on a terminal stdout and stderr are the same screen
		return nil, exitOK
	}
	fmt.Fprintf(e.stdout, "pbem: the referee's console: %sg/%s/ (sign in with the referee password)\n", s.URL(), cfg.Game.ID)
	return s, exitOK
}

// hostGames are a host's games as its console serves them: each game the
// host runs now (its *daemon.Game, a new one each time the game is
// started, so that a game started again asks its referee to sign in
// again), and the others named as not served.
type hostGames struct{ h *host.Host }

var _ console.Unserved = hostGames{}

// Games lists the games the host serves now.
func (x hostGames) Games() []console.Game {
	var out []console.Game
	for _, info := range x.h.Games() {
		if g, ok := x.h.Game(info.Name); ok {
			out = append(out, g)
		}
	}
	return out
}

// Unserved lists the host's games not served now (stopped, held,
// starting); archived games are left off.
func (x hostGames) Unserved() []console.UnservedGame {
	var out []console.UnservedGame
	for _, info := range x.h.Games() {
		if _, ok := x.h.Game(info.Name); !ok && info.Status != host.StatusArchived {
			out = append(out, console.UnservedGame{ID: info.Name, Status: string(info.Status)})
		}
	}
	return out
}

// checkHostWeb refuses, before anything starts, a host.yaml whose console
// names a certificate or key that cannot be read — as a game's config is
// refused: a mistake to fix, not a console to go without.
func checkHostWeb(e *env, dir string, s *host.Settings) int {
	if !s.Web.ConsoleOn() {
		return exitOK
	}
	for _, f := range []struct{ key, path string }{{"web.tls_cert", s.Web.TLSCert}, {"web.tls_key", s.Web.TLSKey}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(s.WebPath(dir, f.path)); err != nil {
			e.errorf("host.yaml %s: cannot be read: %v", f.key, err)
			return exitConfig
		}
	}
	return exitOK
}

// startHostConsole starts the one console of "pbem run --host" (host.yaml's
// web block, docs/hosting.md): every game's desk, each signed in to with
// that game's referee password. As for one game: beyond loopback without
// TLS it refuses to start (exitConfig); an address it cannot open is said
// loudly and the host runs on without it.
func startHostConsole(e *env, dir string, s *host.Settings, h *host.Host, log *slog.Logger) (*console.Server, int) {
	if !s.Web.ConsoleOn() {
		fmt.Fprintln(e.stdout, "pbem: no web console (host.yaml web.listen: off)")
		return nil, exitOK
	}
	cert, key := s.WebPath(dir, s.Web.TLSCert), s.WebPath(dir, s.Web.TLSKey)
	srv, err := console.Listen(s.Web.Listen, cert, key, hostGames{h},
		&console.Options{SessionTTL: time.Duration(s.Web.SessionHours) * time.Hour, Logger: log.With("part", "console")})
	if errors.Is(err, console.ErrNeedsTLS) {
		e.errorf("host.yaml web.listen %s: %v", s.Web.Listen, err)
		return nil, exitConfig
	}
	if err != nil {
		msg := fmt.Sprintf("pbem: the web console did not start: %v (set web.listen in %s to a free port, or off); the games run without it\n",
			err, filepath.Join(dir, host.SettingsFile))
		fmt.Fprint(e.stderr, msg) // once: on a terminal stdout and stderr are the same screen
		return nil, exitOK
	}
	fmt.Fprintf(e.stdout, "pbem: the referees' console: %s (each game's desk at %sg/NAME/, signed in with that game's referee password)\n",
		srv.URL(), srv.URL())
	return srv, exitOK
}
