package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/console"
	"github.com/syw-pbem/pbem/daemon"
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
		fmt.Fprint(e.stdout, msg)
		fmt.Fprint(e.stderr, msg)
		return nil, exitOK
	}
	fmt.Fprintf(e.stdout, "pbem: the referee's console: %sg/%s/ (sign in with the referee password)\n", s.URL(), cfg.Game.ID)
	return s, exitOK
}
