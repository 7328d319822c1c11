package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/refcmd"
)

// The referee's commands on the game's record and mail: rollback, rerun,
// export, verify, resend, requeue, referee, password. Each that is a
// referee's command (docs/referee.md) builds the command's refcmd value and
// runs it through the daemon's registry (daemon.RunReferee): the same code
// as the referee's mail, so the two cannot drift.

// refereeCommands are this file's commands, in help order.
func refereeCommands() []*command {
	return []*command{
		{name: "rollback", args: "TURN", run: runRollback,
			summary: "sets TURN and every later turn aside (kept, voided) and opens TURN again",
			description: "Rolls the game back to before TURN: the records of TURN and every later turn are voided (kept for\n" +
				"the record) and TURN is open again with its stored sheets and rulings. It is resolved again by\n" +
				"\"pbem resolve\", \"pbem rerun TURN\", the referee's RESOLVE NOW or RERUN, or at a deadline set from\n" +
				"now on: with nothing changed the same result is restored and nothing new is sent; otherwise\n" +
				"corrected reports go out. The referee's ROLLBACK TURN by mail does the same."},
		{name: "rerun", args: "TURN", run: runRerun,
			summary: "resolves TURN again from its stored orders, rulings and dice; corrected reports only if the result changed",
			description: "Resolves TURN again from the state before it, its stored sheets and rulings and its own dice.\n" +
				"The same result changes nothing and sends nothing; a different one voids the earlier record (kept),\n" +
				"saves the new one, mails corrected reports, and sets the later turns aside (the next one is open\n" +
				"again). The referee's RERUN TURN by mail does the same."},
		{name: "export", args: "[--out FILE]", run: runExport,
			summary: "writes the game's hash-chained archive (standard output, or FILE)",
			description: "Writes the game's archive: every turn record with its state, orders, rulings, seed, dice and\n" +
				"events, each line carrying the SHA-256 of the one before (format in docs/turns.md). Every turn\n" +
				"is first resolved again from its stored inputs; a turn whose inputs changed since is an error."},
		{name: "verify", args: "FILE", run: runVerify,
			summary: "checks an archive's hash chain and resolves every turn again to the same bytes; exit 1 if it fails",
			description: "Checks a game archive made by \"pbem export\": every line's hash, the chain, and every turn in\n" +
				"force resolved again by the engine to the same state, events and dice. Needs no config or store.\n" +
				"Exit 1, naming the line, the turn and what differs, when it fails."},
		{name: "resend", args: "--nation NATION [--turn TURN]", run: runResend,
			summary: "sends a nation's report again, the same mail under its original Message-ID",
			description: "Queues a nation's turn report (of TURN, by default the last resolved; NATION \"referee\" for the\n" +
				"referee's summary) again: the same bytes under the same Message-ID, so a reader who has it sees\n" +
				"one message. \"pbem run\" sends it. The referee's RESEND NATION [TURN] by mail does the same."},
		{name: "requeue", run: runRequeue,
			summary: "puts every mail the outbox gave up on back in the queue",
			description: "Puts every failed outbox mail back in the queue with its attempts reset: the same bytes and\n" +
				"Message-ID, sent by \"pbem run\". Fix the cause first (the undelivered notice says what it was).\n" +
				"The referee's REQUEUE by mail does the same."},
		{name: "referee", args: "FILE|-", run: runRefereeFile,
			summary: "runs referee commands written as in a mail (FILE, or - for standard input) and prints the answer",
			description: "Runs the referee's commands of FILE as the referee's mail would (docs/referee.md): APPROVE, DENY,\n" +
				"BREACH, LIFT, DEADLINE, RESOLVE NOW, PREVIEW, ROLLBACK, RERUN, RESEND, REQUEUE, RESET PASSWORD,\n" +
				"BATTLE hex TABLE, or a battle's RESULT; a TURN line binds them to their turn. Each is carried out\n" +
				"by the same code as by mail, all in one transaction, and answered line by line; the mails they send\n" +
				"(the players told of rulings, breaches, a new deadline) go out with \"pbem run\". No PASSWORD line is\n" +
				"needed: whoever runs pbem on the game is its referee. Exit 1 when a line has an error or a command\n" +
				"is refused (the others are carried out, as by mail)."},
		{name: "password", args: "NATION NEWPASSWORD", run: runPassword,
			summary: "resets a nation's order-sheet password from the open turn on; the nation is told by mail",
			description: "Gives NATION a new order-sheet password, in force from the open turn on, and queues a mail\n" +
				"telling the nation the new one. The referee's RESET PASSWORD NATION NEWPASSWORD by mail does the same."},
	}
}

// openGameArgs opens the created game for a command with flags fs and
// positional arguments (want of them); a nil game comes with the exit code.
func openGameArgs(e *env, c *command, fs *flag.FlagSet, args []string, want int) (*daemon.Game, []string, int) {
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return nil, nil, code
	}
	if fs.NArg() != want {
		e.errorf("%s: expected %s, got %q (see \"pbem %s --help\")", c.path(), english.Count(want, "argument"), strings.Join(fs.Args(), " "), c.path())
		return nil, nil, exitUsage
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return nil, nil, code
	}
	if _, err := os.Stat(cfg.StorePath()); errors.Is(err, os.ErrNotExist) {
		e.errorf("%s: game %s has not been created yet (no %s): run \"pbem new\" or \"pbem run\"", c.name, cfg.Game.ID, cfg.StorePath())
		return nil, nil, exitFailure
	}
	g, err := daemon.Open(context.Background(), cfg, &daemon.Options{Logger: cliLogger(e, cfg)})
	if err != nil {
		return nil, nil, failed(e, err)
	}
	return g, fs.Args(), exitOK
}

// turnArg reads a TURN argument.
func turnArg(e *env, c *command, s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		e.errorf("%s: TURN must be a turn number such as 3, got %q", c.path(), s)
		return 0, false
	}
	return n, true
}

func runRollback(e *env, c *command, args []string) int {
	return runTurnCommand(e, c, args, func(n int) refcmd.Command { return refcmd.Rollback{Turn: n} })
}

func runRerun(e *env, c *command, args []string) int {
	return runTurnCommand(e, c, args, func(n int) refcmd.Command { return refcmd.Rerun{Turn: n} })
}

// runTurnCommand runs a command taking one TURN (the referee's ROLLBACK,
// RERUN: daemon.RunReferee).
func runTurnCommand(e *env, c *command, args []string, cmd func(turn int) refcmd.Command) int {
	g, rest, code := openGameArgs(e, c, newFlags(e, c), args, 1)
	if g == nil {
		return code
	}
	defer g.Close()
	n, ok := turnArg(e, c, rest[0])
	if !ok {
		return exitUsage
	}
	return runReferee(e, c, g, cmd(n), 0)
}

func runVerify(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("%s: name the archive file (see \"pbem verify --help\")", c.path())
		return exitUsage
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return failed(e, err)
	}
	defer f.Close()
	sum, err := daemon.VerifyArchive(f)
	if err != nil {
		e.errorf("%s: FAILED: %v", fs.Arg(0), err)
		return exitProblems
	}
	fmt.Fprintf(e.stdout, "%s: game %s (%s): %s, the chain intact; %s resolved again to the same bytes; %d voided\n",
		fs.Arg(0), sum.Game, sum.Ruleset, english.Count(sum.Records, "turn record"), english.Count(sum.Resolved, "turn"), sum.Voided)
	return exitOK
}

func runResend(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	nation := fs.String("nation", "", "the nation whose report to send again (\"referee\" for the referee's)")
	turn := fs.Int("turn", 0, "the turn (default: the last resolved)")
	g, _, code := openGameArgs(e, c, fs, args, 0)
	if g == nil {
		return code
	}
	defer g.Close()
	if *nation == "" {
		e.errorf("%s: name the nation with --nation", c.path())
		return exitUsage
	}
	return runReferee(e, c, g, refcmd.Resend{Nation: game.NationID(strings.ToLower(*nation)), Turn: *turn}, 0)
}

func runRequeue(e *env, c *command, args []string) int {
	g, _, code := openGameArgs(e, c, newFlags(e, c), args, 0)
	if g == nil {
		return code
	}
	defer g.Close()
	return runReferee(e, c, g, refcmd.Requeue{}, 0)
}

func runPassword(e *env, c *command, args []string) int {
	g, rest, code := openGameArgs(e, c, newFlags(e, c), args, 2)
	if g == nil {
		return code
	}
	defer g.Close()
	return runReferee(e, c, g, refcmd.PasswordReset{Nation: game.NationID(strings.ToLower(rest[0])), Password: rest[1]}, 0)
}

// runRefereeFile runs the referee's commands of a file (or standard
// input) through the daemon's registry, as the referee's mail would.
func runRefereeFile(e *env, c *command, args []string) int {
	g, rest, code := openGameArgs(e, c, newFlags(e, c), args, 1)
	if g == nil {
		return code
	}
	defer g.Close()
	var in io.Reader = e.stdin
	if rest[0] != "-" {
		f, err := os.Open(rest[0])
		if err != nil {
			e.errorf("%s: cannot read %s: %v", c.path(), rest[0], err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	text, err := io.ReadAll(io.LimitReader(in, 1<<20))
	if err != nil {
		return failed(e, err)
	}
	lines, ok, err := g.RunRefereeText(context.Background(), string(text))
	for _, l := range lines {
		fmt.Fprintln(e.stdout, strings.TrimRight(l, "\n"))
	}
	if err != nil {
		return failed(e, err)
	}
	if !ok {
		return exitProblems
	}
	return exitOK
}

// runReferee runs a referee command built from the command line through
// its entry of the daemon's registry — what the referee's mail runs
// (daemon.RunReferee) — and prints its answer: exit 2 for a turn that has
// not been resolved (a wrong argument), 1 for any other refusal or failure.
func runReferee(e *env, c *command, g *daemon.Game, cmd refcmd.Command, turn int) int {
	line, err := g.RunReferee(context.Background(), cmd, turn)
	if errors.Is(err, daemon.ErrNotResolved) {
		e.errorf("%s: %v", c.path(), err)
		return exitUsage
	}
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprintln(e.stdout, strings.TrimRight(line, "\n"))
	return exitOK
}
