package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/syw-pbem/pbem/host"
)

// The host commands: many games in one host folder, served by one "pbem
// run --host DIR" (package host, docs/hosting.md).

// hostEnv is the host folder named by --host, else $PBEM_HOST, else the
// current folder.
func (e *env) hostFolder() string {
	if e.hostDir != "" {
		return e.hostDir
	}
	if d := os.Getenv("PBEM_HOST"); d != "" {
		return d
	}
	return "."
}

// addHostFlags gives a command that reads a game's config --host DIR and,
// unless it has a --game of its own (check; map render), --game NAME: the
// game of a host folder the command is about. The host commands take
// --host alone.
func addHostFlags(e *env, c *command, fs *flag.FlagSet) {
	top := c
	if c.parent != nil {
		top = c.parent
	}
	switch top.name {
	case "init", "demo", "version", "help":
		return // they read no game's config
	}
	fs.StringVar(&e.hostDir, "host", e.hostDir, "the host folder (default: $PBEM_HOST, else the current folder); see docs/hosting.md")
	if c.parent == nil && c.name != "check" {
		fs.StringVar(&e.gameName, "game", e.gameName, "the game NAME of the host folder (--host) the command is about: its games/NAME/config.yaml instead of --config")
	}
}

// gameConfigPath is the config file of --game NAME: the host folder's
// game, or (for "pbem check --game DIR", as before hosts) a folder holding
// config.yaml. ok is false after an error was printed.
func gameConfigPath(e *env) (string, bool) {
	name := e.gameName
	hostDir := e.hostFolder()
	if s, err := host.ReadSettings(hostDir); err == nil {
		if entry, ok := s.Games[name]; ok {
			return host.ConfigPath(hostDir, name, entry), true
		}
		if _, err := os.Stat(filepath.Join(name, "config.yaml")); err != nil {
			e.errorf("--game %s: the host folder %s has no such game; its games: %s", name, hostDir, strings.Join(s.Names(), ", "))
			return "", false
		}
	}
	if _, err := os.Stat(filepath.Join(name, "config.yaml")); err == nil {
		return filepath.Join(name, "config.yaml"), true
	}
	e.errorf("--game %s: %s is not a host folder (no host.yaml) and %s is not a game folder: name the host folder with --host DIR (or PBEM_HOST)", name, hostDir, name)
	return "", false
}

func hostCommands() *command {
	return &command{name: "host", summary: "many games in one host folder, served by one pbem run --host", sub: []*command{
		{name: "init", args: "[--domain DOMAIN] DIR", run: runHostInit,
			summary: "writes a new host folder: host.yaml, the host's order address and its password, folders for the games",
			description: "Writes a new host folder DIR: host.yaml (the host's embedded mail server, its one order address\n" +
				"orders@DOMAIN, the games' limits on mail), secrets/mail/ for the mail accounts' passwords, games/ and\n" +
				"archive/. Add games with \"pbem host add\", serve them all with \"pbem run --host DIR\"."},
		{name: "add", args: "[--host DIR] [--scenario DIR] [--ruleset syw-1752|syw-v4] [--referee ADDR] NAME", run: runHostAdd,
			summary: "adds a game folder games/NAME to the host: its config on the host's mail server, fresh passwords, the scenario to edit",
			description: "Adds game NAME to the host folder: games/NAME written as \"pbem init\" writes a game folder (config.yaml,\n" +
				"secrets/, scenario/), with mail on the host's server at the game's own address orders+NAME@DOMAIN,\n" +
				"a fresh password for each nation and the referee, and every mail account's password in the host's\n" +
				"secrets/mail/ (one per address on the whole host). --scenario trossian adds a game of the Trossian\n" +
				"campaign (seed 004) beside the SYW games. On a host whose address is at a provider (host.yaml's\n" +
				"mail.external), the game is written in mail mode external on the shared account, reading its own folder\n" +
				"pbem-game-NAME, which the host fills. A running \"pbem run --host\" starts it within seconds."},
		{name: "list", args: "[--host DIR]", run: runHostList,
			summary: "lists the host's games: state, what the running host is doing with each, address, rules",
			description: "Lists the host's games: the state host.yaml asks for (running, stopped, archived), what the running\n" +
				"\"pbem run --host\" reports (running, held after a failure and why), each game's address and ruleset."},
		{name: "stop", args: "[--host DIR] NAME", run: runHostState,
			summary: "stops serving one game while the others run; its mail waits in its mailbox",
			description: "Asks the running host to stop serving game NAME (host.yaml's state: stopped) and waits until it has.\n" +
				"The other games run on; mail to NAME waits in its mailbox until it is started again."},
		{name: "start", args: "[--host DIR] NAME", run: runHostState,
			summary: "serves a stopped game again, or retries one held after a failure",
			description: "Asks the running host to serve game NAME again: a stopped game, or one held after a failure (the\n" +
				"referee was told why), which is started afresh."},
		{name: "archive", args: "[--host DIR] NAME", run: runHostState,
			summary: "stops a game, writes its archive to archive/NAME.jsonl and moves its folder to archive/NAME",
			description: "Stops game NAME, waits until no process serves it, writes its archive (as \"pbem export\": every turn,\n" +
				"hash-chained, \"pbem verify\" checks it) to archive/NAME.jsonl and moves its folder to archive/NAME.\n" +
				"The other games run on."},
		{name: "remove", args: "[--host DIR] NAME", run: runHostState,
			summary: "takes a stopped or archived game off the host, deleting its folder (an archive file stays)",
			description: "Takes game NAME off the host: its folder (store, secrets, scenario) is deleted and it leaves\n" +
				"host.yaml. A running game is refused: stop or archive it first. archive/NAME.jsonl, if written, stays."},
	}}
}

func runHostInit(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	domain := fs.String("domain", "", "the host's mail domain (default pbem.localhost)")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("host init: expected one folder to make the host in, got %d (see \"pbem host init --help\")", fs.NArg())
		return exitUsage
	}
	dir := fs.Arg(0)
	if err := host.Init(dir, *domain); err != nil {
		e.errorf("host init: %v", err)
		return exitFailure
	}
	s, err := host.ReadSettings(dir)
	if err != nil {
		e.errorf("host init: %v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "wrote the host folder %s: host.yaml (its order address %s, mail on %s and %s)\n", dir, s.Mail.Address, s.Mail.IMAPListen, s.Mail.SMTPListen)
	fmt.Fprintf(e.stdout, "Next: add games, then serve them all:\n\n  %s host add --host %s NAME\n  %s run --host %s\n", selfName(), shellQuote(dir), selfName(), shellQuote(dir))
	return exitOK
}

func runHostAdd(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	var o host.AddOptions
	fs.StringVar(&o.Scenario, "scenario", "", "the scenario folder (map.txt, scenario.yaml) to copy into the game folder, or \"trossian\" for the Trossian campaign's (default scenarios/default)")
	fs.StringVar(&o.Ruleset, "ruleset", "", "the rules: syw-1752 or syw-v4, or trossian (default syw-1752; trossian for the Trossian scenario)")
	fs.StringVar(&o.Referee, "referee", "", "the referee's address (default referee@ the host's domain)")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("host add: expected the game's NAME, got %d arguments (see \"pbem host add --help\")", fs.NArg())
		return exitUsage
	}
	dir := e.hostFolder()
	a, err := host.AddGame(dir, fs.Arg(0), o)
	if err != nil {
		e.errorf("host add: %v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "added game %s (%s, %s) in %s; its address %s\n", fs.Arg(0), a.Ruleset, strings.Join(a.Nations, ", "), a.Dir, a.Address)
	fmt.Fprintf(e.stdout, "Replace the example player addresses in %s; the nations' passwords are in %s.\n",
		filepath.Join(a.Dir, "config.yaml"), filepath.Join(a.Dir, "secrets"))
	return exitOK
}

func runHostList(e *env, c *command, args []string) int {
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
		return code
	}
	games, live, err := host.List(e.hostFolder())
	if err != nil {
		e.errorf("host list: %v", err)
		return exitConfig
	}
	if !live {
		fmt.Fprintf(e.stdout, "no \"pbem run --host\" is serving %s now\n", e.hostFolder())
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "GAME\tSTATE\tNOW\tRULESET\tADDRESS\tPROBLEM")
	for _, g := range games {
		now := string(g.Status)
		if now == "" {
			now = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", g.Name, g.State, now, g.Ruleset, g.Address, g.Err)
	}
	w.Flush()
	return exitOK
}

// runHostState is stop, start, archive and remove.
func runHostState(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	wait := fs.Duration("wait", time.Minute, "how long to wait for the running host to stop the game")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("host %s: expected the game's NAME, got %d arguments", c.name, fs.NArg())
		return exitUsage
	}
	dir, name := e.hostFolder(), fs.Arg(0)
	ctx, cancel := context.WithTimeout(context.Background(), *wait)
	defer cancel()
	var err error
	switch c.name {
	case "stop":
		if err = host.StopGame(dir, name); err == nil {
			err = host.WaitStopped(ctx, dir, name)
		}
		if err == nil {
			fmt.Fprintf(e.stdout, "game %s is stopped; its mail waits until \"pbem host start %s\"\n", name, name)
		}
	case "start":
		if err = host.StartGame(dir, name); err == nil {
			fmt.Fprintf(e.stdout, "game %s is to run: the running host starts it within seconds (pbem host list shows it)\n", name)
		}
	case "archive":
		var out string
		var n int
		if out, n, err = host.ArchiveGame(ctx, dir, name); err == nil {
			fmt.Fprintf(e.stdout, "game %s is archived: %d turn records in %s, its folder in %s\n", name, n, out, host.ArchiveDir(dir, name))
		}
	case "remove":
		if err = host.RemoveGame(ctx, dir, name); err == nil {
			fmt.Fprintf(e.stdout, "game %s is off the host\n", name)
		}
	}
	if err != nil {
		e.errorf("host %s: %v", c.name, err)
		return exitFailure
	}
	return exitOK
}

// hostMemoryPerGame is what "pbem run --host" adds to the runtime's soft
// memory limit for each game of the host.
const hostMemoryPerGame = 2 << 20

// runHost is "pbem run --host DIR": every game of the host folder from this
// process, until Ctrl-C or SIGTERM.
func runHost(e *env) int {
	dir := e.hostFolder()
	if s, err := host.ReadSettings(dir); err == nil && os.Getenv("GOMEMLIMIT") == "" {
		// One game's soft limit (memlimit.go) and room for each game's
		// own heap: about 0.5 MB idle, more while it takes mail or
		// resolves (docs/hosting.md).
		debug.SetMemoryLimit(runMemoryLimit + int64(len(s.Games))*hostMemoryPerGame)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	log := hostLogger(e)
	h, err := host.Open(dir, &host.Options{Logger: log})
	if err != nil {
		e.errorf("%v", err)
		return exitConfig
	}
	settings, err := host.ReadSettings(dir)
	if err != nil {
		e.errorf("%v", err)
		return exitConfig
	}
	if code := checkHostWeb(e, dir, settings); code != exitOK {
		return code
	}
	if err := h.Start(ctx); err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	if x := h.External(); x != nil {
		fmt.Fprintf(e.stdout, "pbem: host %s, mail at the provider (IMAP %s, SMTP %s); orders to %s, filed by the GAME line into each game's folder, or to each game's plus-address\n",
			dir, x.IMAPHost, x.SMTPHost, h.Address())
	} else {
		fmt.Fprintf(e.stdout, "pbem: host %s, mail server IMAP %s SMTP %s; orders to %s (routed by the GAME line) or to each game's address\n",
			dir, h.Mail().IMAPAddr(), h.Mail().SMTPAddr(), h.Address())
	}
	web, code := startHostConsole(e, dir, settings, h, log)
	if code != exitOK {
		h.Close()
		return code
	}
	for _, g := range h.Games() {
		line := fmt.Sprintf("  %-16s %-9s %s", g.Name, g.Status, g.Address)
		if g.Err != "" {
			line += "  (" + g.Err + ")"
		}
		if web != nil && g.Status == host.StatusRunning {
			line += "  desk " + web.URL() + "g/" + g.Name + "/"
		}
		fmt.Fprintln(e.stdout, line)
	}
	fmt.Fprintln(e.stdout, "pbem: running; Ctrl-C or SIGTERM stops")
	runErr := h.Run(ctx)
	if web != nil {
		web.Close()
	}
	closeErr := h.Close()
	if err := errors.Join(runErr, closeErr); err != nil {
		e.errorf("%v", err)
		return exitFailure
	}
	fmt.Fprintln(e.stdout, "pbem: stopped")
	return exitOK
}

// hostLogger is the host's log: text lines on standard error, each game's
// with game=NAME.
func hostLogger(e *env) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
