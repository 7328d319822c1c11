package daemon

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/mailserver"
)

// Hosted games (package host): several games served by one process, each
// its own Daemon with its own store, intake, outbox and turn runner, all
// on one embedded mail server that the host starts and stops. A game's
// daemon then neither starts nor closes the server; its intake reads its
// own account's INBOX (mail.address) on it and its outbox sends through
// it, exactly as when the game runs alone, so the game's mail, dice and
// archive are the same either way.

// StartHosted is Start for a game served by a host: when the config's mail
// mode is embedded, the game uses ms (started by the host, with the game's
// accounts on it) instead of starting its own server, and Close leaves ms
// running. A game in external mode reaches its provider as when it runs
// alone, and ms is not used.
func StartHosted(ctx context.Context, cfg *config.Config, opts *Options, ms *mailserver.Server) (*Daemon, error) {
	if ms == nil {
		return nil, fmt.Errorf("daemon: StartHosted needs the host's mail server")
	}
	return start(ctx, cfg, opts, ms)
}

// PanicError is a panic in one of a daemon's parts (its intake, outbox or
// turn runner), recovered and returned by Run as an error, so that a host
// serving other games carries on while this one is held.
type PanicError struct {
	Value any    // what was passed to panic
	Stack string // where it happened
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

func panicError(p any) error { return &PanicError{Value: p, Stack: string(debug.Stack())} }

// Running reports whether some process runs the game now: its last
// recorded run has not stopped and its process is alive (on this machine;
// a run recorded by another machine counts as running). A host's commands
// use it to wait for a game to stop before archiving or removing it.
func (g *Game) Running(ctx context.Context) (bool, error) {
	_, running, err := g.lastRun(ctx)
	return running, err
}

// isPanic reports whether err is, or wraps, a recovered panic.
func isPanic(err error) bool {
	var pe *PanicError
	return errors.As(err, &pe)
}
