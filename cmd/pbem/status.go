package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/refcmd"
)

// runStatus prints the game's status for the referee: the open turn, its
// deadline, who has sent orders, pending requests, the mail queues. It
// reads the store only, so it works while "pbem run" is up.
func runStatus(e *env, c *command, args []string) int {
	g, code := openGameToRead(e, c, args)
	if g == nil {
		return code
	}
	defer g.Close()
	s, err := g.Status(context.Background())
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprint(e.stdout, s.Text(time.Now()))
	return exitOK
}

// runResolve resolves the open turn now and queues its reports. With
// --turn N it resolves only turn N: if another turn is open (turn N was
// resolved meanwhile, at its deadline), nothing is done.
func runResolve(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	want := fs.Int("turn", 0, "resolve only this turn: refused, doing nothing, when another is open")
	g, code := openGameFlags(e, c, fs, args)
	if g == nil {
		return code
	}
	defer g.Close()
	return runReferee(e, c, g, refcmd.ResolveNow{}, *want) // referee.go: the referee's RESOLVE NOW
}

// runPreview prints the open turn as it would be resolved now (with
// --turn N, only if turn N is the one open).
func runPreview(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	want := fs.Int("turn", 0, "preview only this turn: refused when another is open")
	g, code := openGameFlags(e, c, fs, args)
	if g == nil {
		return code
	}
	defer g.Close()
	return runReferee(e, c, g, refcmd.Preview{}, *want) // referee.go: the referee's PREVIEW
}

// openGameToRead opens a created game for a command without arguments
// that only reads it ("pbem status": the store's header checked, not the
// whole file, daemon.Options.ReadsOnly); a nil game comes with the exit
// code.
func openGameToRead(e *env, c *command, args []string) (*daemon.Game, int) {
	return openGameAs(e, c, newFlags(e, c), args, true)
}

// openGameFlags opens a created game for a command with its own flags
// that may write to it; a nil game comes with the exit code.
func openGameFlags(e *env, c *command, fs *flag.FlagSet, args []string) (*daemon.Game, int) {
	return openGameAs(e, c, fs, args, false)
}

// openGameAs is openGameFlags, reading only if readsOnly.
func openGameAs(e *env, c *command, fs *flag.FlagSet, args []string, readsOnly bool) (*daemon.Game, int) {
	if code, ok := parseNoArgs(e, c, fs, args); !ok {
		return nil, code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return nil, code
	}
	if _, err := os.Stat(cfg.StorePath()); errors.Is(err, os.ErrNotExist) {
		e.errorf("%s: game %s has not been created yet (no %s): run \"pbem new\" or \"pbem run\"", c.name, cfg.Game.ID, cfg.StorePath())
		return nil, exitFailure
	}
	g, err := daemon.Open(context.Background(), cfg, &daemon.Options{Logger: cliLogger(e, cfg), ReadsOnly: readsOnly})
	if err != nil {
		return nil, failed(e, err)
	}
	return g, exitOK
}
