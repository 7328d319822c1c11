package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/syw-pbem/pbem/daemon"
)

// runStatus prints the game's status for the referee: the open turn, its
// deadline, who has sent orders, pending requests, the mail queues. It
// reads the store only, so it works while "pbem run" is up.
func runStatus(e *env, c *command, args []string) int {
	g, code := openGame(e, c, args)
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

// runResolve resolves the open turn now and queues its reports.
func runResolve(e *env, c *command, args []string) int {
	g, code := openGame(e, c, args)
	if g == nil {
		return code
	}
	defer g.Close()
	ctx := context.Background()
	st, err := g.State(ctx)
	if err != nil {
		return failed(e, err)
	}
	if err := g.ResolveTurn(ctx); err != nil {
		return failed(e, err)
	}
	fmt.Fprintf(e.stdout, "%s resolved; the reports are queued and go out with \"pbem run\" (within seconds if it is running)\n",
		st.Calendar.Label(st.Turn))
	return exitOK
}

// runPreview prints the open turn as it would be resolved now.
func runPreview(e *env, c *command, args []string) int {
	g, code := openGame(e, c, args)
	if g == nil {
		return code
	}
	defer g.Close()
	text, err := g.PreviewText(context.Background())
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprint(e.stdout, text)
	return exitOK
}

// openGame opens a created game for a command without arguments; a nil
// game comes with the exit code.
func openGame(e *env, c *command, args []string) (*daemon.Game, int) {
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
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
	g, err := daemon.Open(context.Background(), cfg, &daemon.Options{Logger: logger(e, cfg)})
	if err != nil {
		return nil, failed(e, err)
	}
	return g, exitOK
}
