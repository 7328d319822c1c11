package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
)

func logger(e *env, cfg *config.Config) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
}

func runNew(e *env, args []string) int {
	fs := newFlags(e, "new", "",
		"Creates the game named in the config (game.id) from its scenario (game.scenario): the map, the\n"+
			"starting forces, every nation with its registered addresses and a hash of its password. The\n"+
			"store lives in data_dir. Running it again for a game that exists changes nothing.")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	ctx := context.Background()
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: logger(e, cfg)})
	if err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	defer g.Close()
	created, err := g.Ensure(ctx)
	if err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	st, err := g.State(ctx)
	if err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	verb := "exists already"
	if created {
		verb = "created"
	}
	fmt.Fprintf(e.stdout, "game %s %s: %s, %s, %d nations, %d forces; orders are now taken for %s\nstore: %s\n",
		cfg.Game.ID, verb, g.Rules.Name, g.Map.Name, len(st.Nations), len(st.Forces), st.Calendar.Label(st.Turn), cfg.StorePath())
	return exitOK
}

func runCheck(e *env, args []string) int {
	fs := newFlags(e, "check", "[--game DIR] [--nation NAME] FILE|-",
		"Checks an order sheet against the game's current state and prints exactly the reply a player\n"+
			"would get: the orders as understood, every error and warning by line, and a receipt. Passwords\n"+
			"are not checked here. Exits 0 when the sheet has no errors, 1 when it has.\n"+
			"The game is the one configured in DIR/config.yaml (default: --config); before \"pbem new\" the\n"+
			"scenario's starting position is used.")
	gameDir := fs.String("game", "", "the game's folder (holding config.yaml); default: the --config file")
	nation := fs.String("nation", "", "the nation the sheet is from (default: its NATION line)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("check: expected one sheet file (or - for standard input), got %d", fs.NArg())
		return exitUsage
	}
	if *gameDir != "" {
		e.configPath = filepath.Join(*gameDir, "config.yaml")
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	var in io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			e.errorf("check: cannot read %s: %v", name, err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	ctx := context.Background()
	st, g, err := currentState(ctx, cfg)
	if err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	defer g.Close()
	deadline, _ := g.Deadline(ctx)
	report, err := parser.CheckReader(in, parser.CheckContext{
		Map: g.Map, Rules: g.Rules, State: st, Game: cfg.Game.ID, Nation: game.NationID(*nation),
		Deadline: deadline, Zone: g.Zone,
	})
	if err != nil {
		e.errorf("check: %v", err)
		return exitFailure
	}
	fmt.Fprint(e.stdout, report.Text())
	return report.ExitCode()
}

// currentState returns the game's state from the store, or the scenario's
// starting position when the game has not been created (no store is made
// just to check a sheet).
func currentState(ctx context.Context, cfg *config.Config) (*engine.State, *daemon.Game, error) {
	opts := &daemon.Options{}
	if _, err := os.Stat(cfg.StorePath()); err != nil {
		opts.NoStore = true
	}
	g, err := daemon.Open(ctx, cfg, opts)
	if err != nil {
		return nil, nil, err
	}
	if !opts.NoStore {
		if _, err := g.DB.Game(ctx, cfg.Game.ID); errors.Is(err, store.ErrNotFound) {
			g.Close()
			opts.NoStore = true
			if g, err = daemon.Open(ctx, cfg, opts); err != nil {
				return nil, nil, err
			}
		}
	}
	st, err := g.State(ctx)
	if err != nil {
		g.Close()
		return nil, nil, err
	}
	return st, g, nil
}

func runRun(e *env, args []string) int {
	fs := newFlags(e, "run", "",
		"Runs the game: creates it on first start, starts pbem's own IMAP and SMTP server on loopback\n"+
			"(mail.mode: embedded), reads the game's mailbox, answers every order sheet at once and sends\n"+
			"what is queued. Stops cleanly on Ctrl-C or SIGTERM; everything it was doing is finished or\n"+
			"picked up on the next start.")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := logger(e, cfg)
	d, err := daemon.Start(ctx, cfg, &daemon.Options{Logger: log})
	if err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	defer d.Close()
	st, _ := d.Game.State(ctx)
	fmt.Fprintf(e.stdout, "pbem: game %s (%s), %s\n", cfg.Game.ID, d.Game.Rules.Name, labelOf(st))
	if d.Mail != nil {
		fmt.Fprintf(e.stdout, "pbem: embedded mail server: IMAP %s, SMTP %s (loopback, no encryption)\n", d.Mail.IMAPAddr(), d.Mail.SMTPAddr())
		fmt.Fprintf(e.stdout, "pbem: players send orders to %s; try: pbem send --from eisenmark@%s docs/examples/monthly.txt\n",
			cfg.Mail.Address, cfg.Mail.Embedded.Domain)
	}
	fmt.Fprintln(e.stdout, "pbem: running; Ctrl-C stops")
	if err := d.Run(ctx); err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	fmt.Fprintln(e.stdout, "pbem: stopped")
	return exitOK
}

func labelOf(st *engine.State) string {
	if st == nil {
		return ""
	}
	return "orders taken for " + st.Calendar.Label(st.Turn)
}
