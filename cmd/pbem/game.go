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
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
)

// loadConfig loads and validates the config file, printing every problem.
func loadConfig(e *env) (*config.Config, int) {
	if e.gameName != "" { // host.go: --game NAME of a host folder
		path, ok := gameConfigPath(e)
		if !ok {
			return nil, exitUsage
		}
		e.configPath, e.configGiven = path, true
	}
	cfg, err := config.Load(e.configPath)
	if errors.Is(err, os.ErrNotExist) {
		e.errorf("there is no config file %s: run pbem in the folder that holds config.yaml, or name the file with --config FILE", e.configPath)
		return nil, exitConfig
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		e.errorf("the config file %s has problems; fix them (every key is described in docs/config.md)", e.configPath)
		return nil, exitConfig
	}
	return cfg, exitOK
}

// failed prints an error from opening or running the game and returns its
// exit code: 3 for a problem in the config, 4 for the rest.
func failed(e *env, err error) int {
	var ce *daemon.ConfigError
	if errors.As(err, &ce) {
		e.errorf("%s: %v", e.configPath, err)
		e.errorf("fix the config file (every key is described in docs/config.md)")
		return exitConfig
	}
	e.errorf("%v", err)
	return exitFailure
}

func logger(e *env, cfg *config.Config) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
}

// cliLogger is the log of a command that answers and exits (new, status,
// resolve, referee …): its answer is what it prints, so the log on stderr
// says only what goes wrong — warnings and errors, or the config's level if
// that is quieter still. "pbem run" logs at the config's level (logger).
func cliLogger(e *env, cfg *config.Config) *slog.Logger {
	level := cfg.SlogLevel()
	if level == slog.LevelInfo { // log_level: debug still shows all, for a referee tracing a fault
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

func runNew(e *env, c *command, args []string) int {
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
		return code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	ctx := context.Background()
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: cliLogger(e, cfg)})
	if err != nil {
		return failed(e, err)
	}
	defer g.Close()
	created, err := g.Ensure(ctx)
	if err != nil {
		return failed(e, err)
	}
	st, err := g.State(ctx)
	if err != nil {
		return failed(e, err)
	}
	verb := "exists already"
	if created {
		verb = "created"
	}
	forces := ", " + english.Count(len(st.Forces), "force")
	if g.Map == nil {
		forces = "" // a campaign played through the seam: the daemon's state counts no forces
	}
	fmt.Fprintf(e.stdout, "game %s %s: %s, %s, %s%s; orders are now taken for %s\nstore: %s\n",
		cfg.Game.ID, verb, g.RulesName(), g.ScenarioName(), english.Count(len(st.Nations), "nation"), forces, g.TurnLabel(st, st.Turn), cfg.StorePath())
	return exitOK
}

func runCheck(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	fs.StringVar(&e.gameName, "game", "", "the game: NAME of the host folder (--host), or a game folder DIR holding config.yaml; default: the --config file")
	nation := fs.String("nation", "", "the nation the sheet is from (default: its NATION line)")
	treasury := fs.Int("treasury", -1, "check as if every nation's treasury held this many crowns (for a year-end sheet checked before the taxes are in)")
	turnFlag := fs.String("turn", "", "check the sheet as orders for turn N, or \"year-end\" for the next year-end turn (default: the turn orders are now taken for)")
	forecastMap := fs.String("forecast", "", "also print the forecast of the turn (docs/forecast.md) and write its map to this PDF file")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("check: expected one sheet file (or - for standard input), got %d", fs.NArg())
		return exitUsage
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
	g, err := openForCheck(ctx, cfg, cliLogger(e, cfg))
	if err != nil {
		return failed(e, err)
	}
	defer g.Close()
	if g.Map == nil { // a campaign played through the seam: its own checker
		if *forecastMap != "" {
			e.errorf("check: --forecast: game %s is a %s game, and the forecast is made for the SYW campaign's sheets only (docs/forecast.md); check the sheet without --forecast", cfg.Game.ID, cfg.Game.Ruleset)
			return exitUsage
		}
		text, err := io.ReadAll(io.LimitReader(in, parser.MaxSheetBytes+1))
		if err != nil {
			e.errorf("check: %v", err)
			return exitFailure
		}
		r, err := g.CheckSheet(ctx, string(text), game.NationID(*nation))
		if err != nil {
			return failed(e, err)
		}
		fmt.Fprint(e.stdout, r.Text)
		if r.Refused || slices.ContainsFunc(r.Diagnostics, func(d parser.Diagnostic) bool { return d.Severity == parser.Error }) {
			return 1 // as parser.Report.ExitCode
		}
		return 0
	}
	st, err := g.State(ctx)
	if err != nil {
		return failed(e, err)
	}
	nationID, code := checkNationFlag(e, *nation, st)
	if code != exitOK {
		return code
	}
	turn, code := checkTurnFlag(e, *turnFlag, st)
	if code != exitOK {
		return code
	}
	if *treasury >= 0 {
		setTreasuries(st, g.Map, *treasury)
	}
	// The treaties sent and attested so far, for ATTEST and LIFT.
	if err := g.TreatiesInto(ctx, st); err != nil {
		return failed(e, err)
	}
	deadline, _ := g.Deadline(ctx)
	if turn != 0 && turn != st.Turn {
		deadline = time.Time{} // that turn's deadline is not set yet
	}
	report, err := parser.CheckReader(in, parser.CheckContext{
		Map: g.Map, Rules: g.Rules, State: st, Game: cfg.Game.ID, Nation: nationID,
		Deadline: deadline, Zone: g.Zone, Turn: turn,
	})
	if err != nil {
		e.errorf("check: %v", err)
		return exitFailure
	}
	fmt.Fprint(e.stdout, report.Text())
	if *forecastMap != "" && !report.Refused {
		if code := printForecast(e, g, st, report, *forecastMap); code != exitOK {
			return code
		}
	}
	return report.ExitCode()
}

// printForecast prints the forecast of a checked sheet's turn, as the
// answer by mail carries it, and writes its map to path.
func printForecast(e *env, g *daemon.Game, st *engine.State, r *parser.Report, path string) int {
	v := engine.View(g.Map, g.Rules, st, r.Nation)
	fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: g.Rules, View: v, Orders: r.Orders})
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprint(e.stdout, fc.Text(g.Map))
	if !fc.HasMoves() {
		fmt.Fprintf(e.stdout, "\nNo moves: no map written to %s.\n", path)
		return exitOK
	}
	pdf, err := fc.PictureBytes(g.Map, g.Rules)
	if err != nil {
		return failed(e, err)
	}
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		e.errorf("check: cannot write the forecast's map: %v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "\nThe map of these moves is in %s.\n", path)
	return exitOK
}

// openForCheck opens the game from its store, or, when the game has not been
// created, from its scenario alone (no store is made just to check a sheet).
func openForCheck(ctx context.Context, cfg *config.Config, log *slog.Logger) (*daemon.Game, error) {
	if _, err := os.Stat(cfg.StorePath()); err == nil {
		g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: log})
		if err != nil {
			return nil, err
		}
		_, err = g.DB.Game(ctx, cfg.Game.ID)
		if err == nil {
			return g, nil
		}
		g.Close()
		if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	return daemon.Open(ctx, cfg, &daemon.Options{NoStore: true, Logger: log})
}

func runRun(e *env, c *command, args []string) int {
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
		return code
	}
	if e.hostDir != "" && e.gameName == "" {
		return runHost(e) // host.go: every game of the host folder
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	setMemoryLimit()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, the next one has its default effect: a
		// shutdown that hangs can still be interrupted.
		<-ctx.Done()
		stop()
	}()
	d, err := daemon.Start(ctx, cfg, &daemon.Options{Logger: logger(e, cfg)})
	if err != nil {
		return failed(e, err)
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()
	st, err := d.Game.State(ctx)
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprintf(e.stdout, "pbem: game %s (%s), orders taken for %s\n", cfg.Game.ID, d.Game.RulesName(), d.Game.TurnLabel(st, st.Turn))
	if d.Mail != nil {
		fmt.Fprint(e.stdout, bannerMail(e, cfg, d.Mail.IMAPAddr(), d.Mail.SMTPAddr()))
	}
	// Wrong credentials are loud: a line each here, in "pbem status" and
	// the log, and the referee is mailed when only IMAP fails.
	logins := d.CheckLogins(ctx)
	if banner := bannerLogins(logins); banner != "" {
		fmt.Fprint(e.stdout, banner)
		fmt.Fprint(e.stderr, banner)
	}
	if logins.Fatal() {
		e.errorf("neither the IMAP nor the SMTP server can be logged in to, so pbem can neither read nor send mail: stopping. " +
			"Fix mail.imap and mail.smtp in the config (pbem doctor checks them) and start pbem run again")
		if logins.IMAPRefused && logins.SMTPRefused {
			return exitConfig
		}
		return exitFailure
	}
	web, code := startConsole(e, cfg, d)
	if code != exitOK {
		return code
	}
	fmt.Fprintln(e.stdout, "pbem: running; Ctrl-C or SIGTERM stops")
	runErr := d.Run(ctx)
	if web != nil {
		web.Close()
	}
	// Close before saying so: nothing is logged after "stopped".
	closed = true
	closeErr := d.Close()
	if runErr != nil {
		return failed(e, runErr)
	}
	if closeErr != nil {
		return failed(e, closeErr)
	}
	fmt.Fprintln(e.stdout, "pbem: stopped")
	return exitOK
}

// selfName is how the user started pbem, for a hint they can paste: "go run
// ./cmd/pbem" when the binary is go run's temporary build, else "pbem".
func selfName() string {
	if exe, err := os.Executable(); err == nil && strings.Contains(filepath.ToSlash(exe), "/go-build") {
		return "go run ./cmd/pbem"
	}
	return "pbem"
}
