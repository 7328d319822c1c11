// Command pbem is the play-by-email turn processor for the SYW Big Game
// Campaign: it checks the map, creates games, checks order sheets, runs the
// mail daemon with its own embedded mail server, and resolves turns.
//
// Usage:
//
//	pbem [--config FILE] COMMAND [flags] [args]
//
// Run "pbem help" for the commands and "pbem COMMAND --help" for one.
//
// Exit codes: 0 success; 1 the input was checked and has problems (a map that
// does not validate, an order sheet with errors); 2 usage errors (unknown
// command or flag); 3 configuration errors; 4 a failure while running (I/O,
// store, network).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes, documented in the package comment and the README.
const (
	exitOK       = 0
	exitProblems = 1
	exitUsage    = 2
	exitConfig   = 3
	exitFailure  = 4
)

// command is one subcommand. Subcommands with children (map validate, map
// render) list them in sub.
type command struct {
	name    string
	summary string
	// run receives the arguments after the command name.
	run func(env *env, args []string) int
	sub []*command
}

// env is what every command gets: where to write, and the global flags.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	configPath     string
}

func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "pbem: "+format+"\n", args...)
}

func commands() []*command {
	return []*command{
		{name: "map", summary: "check or draw a map file", sub: []*command{
			{name: "validate", summary: "check a map file's invariants and print its summary", run: runMapValidate},
			{name: "render", summary: "draw a map file as a PDF", run: runMapRender},
		}},
		{name: "new", summary: "create a game from the config's scenario", run: runNew},
		{name: "check", summary: "check an order sheet and print the reply a player would get", run: runCheck},
		{name: "send", summary: "post a sheet or message to the mail server by SMTP", run: runSend},
		{name: "run", summary: "run pbem: the embedded mail server and the daemon", run: runRun},
		{name: "version", summary: "print the version", run: runVersion},
	}
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr, stdin: stdin}
	fs := flag.NewFlagSet("pbem", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&e.configPath, "config", "config.yaml", "the config file")
	fs.Usage = func() { usage(stderr, "", commands()) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	rest := fs.Args()
	if len(rest) == 0 {
		usage(stderr, "", commands())
		return exitUsage
	}
	if rest[0] == "help" {
		if len(rest) > 1 {
			return dispatch(e, commands(), "", append(rest[1:], "--help"))
		}
		usage(stdout, "", commands())
		return exitOK
	}
	return dispatch(e, commands(), "", rest)
}

func dispatch(e *env, cmds []*command, prefix string, args []string) int {
	name := args[0]
	for _, c := range cmds {
		if c.name != name {
			continue
		}
		if c.sub != nil {
			if len(args) < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "-help" {
				usage(e.stderr, prefix+c.name+" ", c.sub)
				if len(args) >= 2 {
					return exitOK
				}
				return exitUsage
			}
			return dispatch(e, c.sub, prefix+c.name+" ", args[1:])
		}
		return c.run(e, args[1:])
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	sort.Strings(names)
	e.errorf("unknown command %q: expected one of %s (try \"pbem help\")", strings.TrimSpace(prefix+name), strings.Join(names, ", "))
	return exitUsage
}

func usage(w io.Writer, prefix string, cmds []*command) {
	fmt.Fprintf(w, "Usage: pbem [--config FILE] %sCOMMAND [flags] [args]\n\nCommands:\n", prefix)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"pbem %sCOMMAND --help\" for a command's flags.\n", prefix)
}

// newFlags makes a command's flag set with a usage line and a description.
func newFlags(e *env, name, argsUsage, description string) *flag.FlagSet {
	fs := flag.NewFlagSet("pbem "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: pbem %s [flags] %s\n\n%s\n", name, argsUsage, description)
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintf(e.stderr, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses and turns flag errors into exit codes; ok is false when
// the command should return code.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}
