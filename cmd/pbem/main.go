// Command pbem is the play-by-email turn processor for the SYW Big Game
// Campaign: it checks the map, creates games, checks order sheets, and runs
// the mail daemon with its own embedded mail server.
//
// Usage:
//
//	pbem [--config FILE] COMMAND [flags] [args]
//
// Run "pbem help" for the commands and "pbem COMMAND --help" for one. Every
// command also takes --config after its name.
//
// Exit codes: 0 success; 1 the input was checked and has problems (a map that
// does not validate, an order sheet with errors); 2 usage errors (unknown
// command or flag, missing argument); 3 configuration errors (the config
// file, or the scenario or ruleset it names); 4 a failure while running
// (a file that cannot be read or written, the store, the network).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Exit codes, documented in the package comment, "pbem help" and the README.
const (
	exitOK       = 0
	exitProblems = 1
	exitUsage    = 2
	exitConfig   = 3
	exitFailure  = 4
)

// command is one subcommand. A group (map) has no run, only sub.
type command struct {
	name    string // "validate"; path() gives "map validate"
	args    string // the synopsis after the name: "[FILE]"
	summary string // one line, as in "pbem help" and the README's table
	// description is the paragraph of "pbem COMMAND --help".
	description string
	// run receives the command and the arguments after its name.
	run    func(e *env, c *command, args []string) int
	sub    []*command
	parent *command
}

// path is the command's words after "pbem".
func (c *command) path() string {
	if c.parent == nil {
		return c.name
	}
	return c.parent.path() + " " + c.name
}

// synopsis is the command as "pbem help" and the README show it.
func (c *command) synopsis() string {
	return strings.TrimSpace("pbem " + c.path() + " " + c.args)
}

// env is what every command gets: where to read and write, and the global
// flags.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	configPath     string
	// configGiven is true when --config was named on the command line: a
	// missing file is then an error, not a reason to use the defaults.
	configGiven bool
	// hostDir and gameName are --host DIR and --game NAME (host.go): the
	// game of a host folder a command is about, in place of --config.
	hostDir, gameName string
}

func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "pbem: "+format+"\n", args...)
}

// commands is every command, in the order "pbem help" lists them.
func commands() []*command {
	cmds := []*command{
		{name: "map", summary: "checks or draws a map file", sub: []*command{
			{name: "validate", args: "[FILE]", run: runMapValidate,
				summary: "checks a map file's invariants (provinces, cities, ports, capitols, winds, tax bases) and prints a summary; every error with its line",
				description: "Checks a map file: every land hex in one province, provinces contiguous, cities on land, ports\n" +
					"exactly the coastal cities, one capitol per nation, a wind between every pair of adjacent sea\n" +
					"areas, good-holding hexes on the coast, roads and rivers on real hexes, and every nation's home\n" +
					"tax base at the rules' starting value. Prints a summary; every error with its line.\n" +
					"FILE defaults to the config's scenario map, or " + defaultMapFile + ". Exits 1 when the map has errors."},
			{name: "render", args: "--out FILE.pdf [--game] [FILE]", run: runMapRender,
				summary: "draws the map as a PDF (A3), the way the rules' map key describes it; --game draws the game's current state",
				description: "Draws a map file as a PDF: terrain, rivers, roads, province outlines with names and tax totals,\n" +
					"cities with tax values and their holders' flags, capitols in red, sea areas with wind arrows,\n" +
					"good-holding dots and hex numbers. A3 by default. FILE defaults as for \"pbem map validate\".\n" +
					"With --game it draws the configured game as it stands: every force with its ID and size class,\n" +
					"provinces tinted and cities marked by the nation holding them, sieges."},
		}},
		{name: "init", args: "[--provider gmail|fastmail|generic] [--address ADDR] [--referee ADDR] [--imap HOST:PORT] [--smtp HOST:PORT] [--security tls|starttls|none] [--username NAME] [--scenario DIR|trossian] DIR", run: runInit,
			summary: "writes a new game folder for a real game by mail: a commented config, fresh passwords in secrets/, the map and scenario to edit",
			description: "Writes a new game folder DIR (new or empty) a referee starts a real game from: config.yaml for\n" +
				"external mail with the chosen provider's settings (Gmail, Fastmail, or a generic IMAP/SMTP host),\n" +
				"a fresh random password for each nation and for the referee in secrets/ (files only you can\n" +
				"read), secrets/mail.txt for the mail account's app password (taken from PBEM_MAIL_PASSWORD if\n" +
				"set), and the map and scenario copied into scenario/ to edit. Then run \"pbem doctor\"."},
		{name: "doctor", args: "[--no-send]", run: runDoctor,
			summary: "checks the configuration against the real mail servers and says per line what works and what to fix",
			description: "Checks a configuration against the real services before a game starts, one line per check: the\n" +
				"clock and time zone, the map and scenario, the data folder, IMAP (connection and TLS, login, IDLE,\n" +
				"MOVE and UIDPLUS and what pbem does without them, the mailbox and the processed mailbox), SMTP\n" +
				"(connection and TLS, login, a test message to the referee) and the provider's DKIM signing of\n" +
				"pbem's mail. Changes nothing but sending the test message. In mail.mode embedded it checks the\n" +
				"running \"pbem run\", or starts the embedded server for the checks. Exits 0 when nothing failed\n" +
				"(warnings included), 3 when a fix is in the configuration, 4 when a server or this machine fails."},
		{name: "new", run: runNew,
			summary: "creates the game in the store from the config's scenario",
			description: "Creates the game named in the config (game.id) from its scenario (game.scenario): the map, the\n" +
				"starting forces, every nation with its registered addresses and a hash of its password. The\n" +
				"store lives in data_dir. Running it again for a game that exists changes nothing."},
		{name: "check", args: "[--game NAME|DIR] [--nation NAME] [--turn N|year-end] [--treasury CROWNS] [--forecast MAP.pdf] FILE|-", run: runCheck,
			summary: "checks an order sheet against the game's current state and prints the reply a player would get; exit 1 if it has errors. `--forecast` adds the forecast of the turn and writes its map (docs/forecast.md)",
			description: "Checks an order sheet against the game's current state and prints exactly the reply a player\n" +
				"would get: the orders as understood, every error and warning by line, and a receipt. Passwords\n" +
				"are not checked here. Exits 0 when the sheet has no errors, 1 when it has.\n" +
				"The game is game NAME of the host folder (--host), or the one configured in DIR/config.yaml\n" +
				"(default: --config); before \"pbem new\" the scenario's starting position is used. --turn checks\n" +
				"it as orders for a later turn (year-end: the next year-end), --treasury as if the treasury held\n" +
				"that many crowns: a year-end sheet can be checked in any month."},
		{name: "report", args: "--nation NAME|--referee [--turn T] [--json] [--paper A4|A3] --out FILE", run: runReport,
			summary: "renders a nation's turn report (or the referee's master report) from the store, without mailing it",
			description: "Renders the report a nation was (or will be) mailed for a resolved turn, from the store: the PDF,\n" +
				"or with --json the nation's view as JSON (docs/reports.md). --turn T is the resolved turn (0: the\n" +
				"starting report; default: the latest). --referee renders the referee's master report: every force,\n" +
				"battle, die roll and treasury, and the sheets received and missing. Nothing is mailed."},
		{name: "send", args: "--from ADDR [--password PW | --password-file FILE] [--to ADDR] [--subject TEXT] [--smtp HOST:PORT] FILE|-", run: runSend,
			summary: "posts a sheet or message to the mail server by SMTP, as a mail client would",
			description: "Posts an order sheet, or any text or RFC 5322 message, to the mail server by SMTP as a mail client\n" +
				"would. Plain text is wrapped in a new text/plain message; a file that is already a message (a\n" +
				"header block with a From line, then a blank line) is sent unchanged. The server is the embedded\n" +
				"one from the config (mail.embedded.smtp_listen) unless --smtp names another; the recipient\n" +
				"defaults to the game's address (mail.address). It logs in (SMTP AUTH) as --from (or --user) with\n" +
				"--password-file FILE or --password PW, or asks for the password on the terminal: the embedded\n" +
				"server takes mail from its accounts only from a client logged in as that account."},
		{name: "run", args: "[--host DIR]", run: runRun,
			summary: "runs the embedded mail server and the daemon until Ctrl-C or SIGTERM; with --host, every game of a host folder",
			description: "Runs the game: creates it on first start, starts pbem's own IMAP and SMTP server on loopback\n" +
				"(mail.mode: embedded), reads the game's mailbox, answers every order sheet at once and sends\n" +
				"what is queued. Stops cleanly on Ctrl-C or SIGTERM (a second one stops at once); everything it\n" +
				"was doing is finished or picked up on the next start. With --host DIR it serves every game of the\n" +
				"host folder DIR (\"pbem host\") from this process, on one mail server (docs/hosting.md). A single\n" +
				"game's run also serves the referee's console in a browser on web.listen (127.0.0.1:8026 unless\n" +
				"set; off for none) and prints its address: sign in with the referee password (docs/console.md)."},
		{name: "status", run: runStatus,
			summary: "prints the open turn, its deadline, who has sent orders, pending requests and the mail queues",
			description: "Prints the game's status for the referee: the turn open for orders and its deadline (and who set\n" +
				"it), each nation's sheet in force (receipt, time received, FINAL) or that none has come, the\n" +
				"requests on sheets in force and whether they were ruled on, and the mail waiting to go out or to\n" +
				"be handled. It reads the store only, so it can run beside \"pbem run\"."},
		{name: "resolve", args: "[--turn N]", run: runResolve,
			summary: "resolves the open turn now and queues its reports",
			description: "Resolves the turn open for orders now, as at its deadline: from each nation's sheet in force\n" +
				"(nations without one hold on DEFEND), with the turn's own dice; saves it, opens the next turn\n" +
				"with its deadline from the schedule, and queues every nation's report and the referee's\n" +
				"summary, which \"pbem run\" sends (within seconds if it is running). The referee's RESOLVE NOW by mail\n" +
				"does the same. It says which turn it resolved; with --turn N it resolves turn N only, and does\n" +
				"nothing if another turn is open (turn N was resolved meanwhile)."},
		{name: "preview", args: "[--turn N]", run: runPreview,
			summary: "prints the open turn as it would be resolved now, saving and sending nothing",
			description: "Resolves the turn open for orders as it would be resolved now, with the sheets in force and the\n" +
				"turn's own dice, and prints the referee's summary. Nothing is saved or sent. The referee's\n" +
				"PREVIEW by mail does the same and mails the summary."},
		{name: "demo", args: "[--out DIR] [--seed N] [--scenario DIR|trossian]", run: runDemo,
			summary: "plays a whole game-year by mail on the embedded server (five scripted players and a referee) and writes every report to DIR",
			description: "Plays a complete game on pbem's own mail server, in a temporary data folder: five scripted players\n" +
				"mail their order sheets through SMTP (some with mistakes they then correct), sign a treaty, ask\n" +
				"the referee for a special action he approves; the scripted referee resolves each turn with RESOLVE\n" +
				"NOW, through six monthly turns and the year-end buy. Every report mailed is read from the mailboxes\n" +
				"and written to DIR/<turn>/<nation>.pdf (and referee.pdf), the starting reports of the opening to\n" +
				"DIR/00-1752-start, each turn's other mail to <nation>-mail.txt and who took part in which battle\n" +
				"to DIR/involved.json; a summary of the year is printed at the end. It needs no folder beside it:\n" +
				"the default scenario is built into pbem. The same --seed plays the same game (default --out\n" +
				"demo-out). With --scenario trossian (or in a Trossian game's folder) it plays a year of the\n" +
				"Trossian campaign instead (with its own default seed): nine phases from Early Spring 1801 and\n" +
				"winter quarters, each kingdom's report a PDF with its area map (docs/trossian.md)."},
		{name: "version", run: runVersion,
			summary:     "prints the version and the rulesets",
			description: "Prints pbem's version, the Go version it was built with, and the rulesets it knows."},
		{name: "help", args: "[COMMAND]", run: runHelp,
			summary:     "lists the commands, or describes one",
			description: "Lists the commands, or describes one as \"pbem COMMAND --help\" does."},
	}
	// referee.go: rollback, rerun, export, verify, resend, requeue, referee, password.
	cmds = slices.Insert(cmds, slices.IndexFunc(cmds, func(c *command) bool { return c.name == "version" }), refereeCommands()...)
	// host.go: many games in one host folder.
	cmds = slices.Insert(cmds, slices.IndexFunc(cmds, func(c *command) bool { return c.name == "version" }), hostCommands())
	for _, c := range cmds {
		for _, s := range c.sub {
			s.parent = c
		}
	}
	return cmds
}

// leaves is every runnable command, groups unfolded, in help order.
func leaves(cmds []*command) []*command {
	var out []*command
	for _, c := range cmds {
		if c.run != nil {
			out = append(out, c)
		}
		out = append(out, leaves(c.sub)...)
	}
	return out
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr, stdin: stdin}
	fs := flag.NewFlagSet("pbem", flag.ContinueOnError)
	fs.StringVar(&e.configPath, "config", "config.yaml", "the config file")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout, commands())
			return exitOK
		}
		e.errorf("%v (the flag before the command is --config FILE; try \"pbem help\")", err)
		return exitUsage
	}
	e.noteConfigFlag(fs)
	if fs.NArg() == 0 {
		usage(stderr, commands())
		return exitUsage
	}
	return dispatch(e, commands(), fs.Args())
}

// dispatch finds the command named by args[0] among cmds and runs it.
func dispatch(e *env, cmds []*command, args []string) int {
	i := slices.IndexFunc(cmds, func(c *command) bool { return c.name == args[0] })
	if i < 0 {
		var names []string
		for _, c := range cmds {
			names = append(names, c.name)
		}
		slices.Sort(names)
		what := args[0]
		if p := cmds[0].parent; p != nil {
			what = p.path() + " " + what
		}
		e.errorf("unknown command %q: expected one of %s (try \"pbem help\")", what, strings.Join(names, ", "))
		return exitUsage
	}
	c := cmds[i]
	if c.run != nil {
		return c.run(e, c, args[1:])
	}
	if len(args) < 2 {
		e.errorf("%s: expected one of its commands", c.path())
		usage(e.stderr, c.sub)
		return exitUsage
	}
	if isHelp(args[1]) {
		usage(e.stdout, c.sub)
		return exitOK
	}
	return dispatch(e, c.sub, args[1:])
}

func isHelp(arg string) bool { return arg == "--help" || arg == "-help" || arg == "-h" }

// usage lists cmds (groups unfolded) with their synopsis and summary, and
// says what every command has in common.
func usage(w io.Writer, cmds []*command) {
	fmt.Fprintf(w, "Usage: pbem [--config FILE] COMMAND [flags] [args]\n\nCommands:\n")
	for _, c := range leaves(cmds) {
		fmt.Fprintf(w, "  %s\n      %s\n", c.synopsis(), c.summary)
	}
	fmt.Fprint(w, `
Every command takes --help, and --config FILE (default config.yaml) before or after its name.
Exit codes: 0 success; 1 the input has problems (a map that does not validate, an order sheet
with errors); 2 usage errors; 3 configuration errors; 4 failures while running.
`)
}

func runHelp(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	args = fs.Args()
	if len(args) == 0 {
		usage(e.stdout, commands())
		return exitOK
	}
	return dispatch(e, commands(), append(slices.Clone(args), "--help"))
}

// newFlags makes a command's flag set; every command takes --config too.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("pbem "+c.path(), flag.ContinueOnError)
	fs.StringVar(&e.configPath, "config", e.configPath, "the config file")
	addHostFlags(e, c, fs)
	return fs
}

// commandUsage prints a command's synopsis, description and flags.
func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", c.synopsis(), c.description)
	if fs != nil {
		fmt.Fprintf(w, "\nFlags:\n")
		printFlags(w, fs)
	}
}

// printFlags lists a command's flags as they are written on the command
// line, with two dashes ("--out DIR"), as the synopses and the README write
// them — flag.PrintDefaults would print one — each with its usage and
// default.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" {
			if name == "string" {
				def = strconv.Quote(def)
			}
			usage += " (default " + def + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}

// parseFlags parses a command's flags. ok is false when the command should
// return code at once: 0 after --help (the usage on standard output), 2
// after a bad flag (the error and the usage on standard error).
func parseFlags(e *env, c *command, fs *flag.FlagSet, args []string) (code int, ok bool) {
	fs.SetOutput(io.Discard)
	err := parseInterleaved(fs, args)
	switch {
	case err == nil:
		e.noteConfigFlag(fs)
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		commandUsage(e.stdout, c, fs)
		return exitOK, false
	}
	e.errorf("%s: %s", c.path(), dashes.Replace(err.Error()))
	commandUsage(e.stderr, c, fs)
	return exitUsage, false
}

// dashes writes the flag package's errors with the flags as the help and
// the docs write them, two dashes ("flag needs an argument: --out").
var dashes = strings.NewReplacer("not defined: -", "not defined: --", "needs an argument: -", "needs an argument: --", "for flag -", "for flag --")

// parseNoArgs is parseFlags for a command that takes no arguments.
func parseNoArgs(e *env, c *command, fs *flag.FlagSet, args []string) (code int, ok bool) {
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		e.errorf("%s: takes no arguments, got %q (see \"pbem %s --help\")", c.path(), strings.Join(fs.Args(), " "), c.path())
		return exitUsage, false
	}
	return exitOK, true
}
