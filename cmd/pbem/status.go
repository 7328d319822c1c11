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
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
		return code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	if _, err := os.Stat(cfg.StorePath()); errors.Is(err, os.ErrNotExist) {
		e.errorf("status: game %s has not been created yet (no %s): run \"pbem new\" or \"pbem run\"", cfg.Game.ID, cfg.StorePath())
		return exitFailure
	}
	ctx := context.Background()
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: logger(e, cfg)})
	if err != nil {
		return failed(e, err)
	}
	defer g.Close()
	s, err := g.Status(ctx)
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprint(e.stdout, s.Text(time.Now()))
	return exitOK
}
