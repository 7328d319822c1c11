package refcmd

import (
	"fmt"
	"strconv"

	"github.com/syw-pbem/pbem/parser"
)

// The turn: RESOLVE NOW (the open turn's orders close, and it is resolved),
// PREVIEW (the open turn resolved for the referee's eyes only), STATUS (how
// the open turn stands: the sheets in, the requests, the mail), ROLLBACK
// (turns set aside, one open again), RERUN (a turn resolved again), and the
// TURN line, which is no command but binds the mail's commands about the
// open turn to the turn the referee meant (the daemon refuses them when
// another turn is open).

// ResolveNow resolves the turn at once, without waiting for the deadline.
type ResolveNow struct{ Line int }

// Preview resolves the turn without saving or sending anything and mails
// the referee the result.
type Preview struct{ Line int }

// Status asks how the game stands: the open turn and its deadline, the
// sheets in force, the requests, the mail queues (what "pbem status"
// prints).
type Status struct{ Line int }

// Rollback sets turn Turn and every later turn aside (voided, kept for the
// record) and opens turn Turn again.
type Rollback struct {
	Line int
	Turn int
}

// Rerun resolves a turn again from its saved state and orders (after a
// correction), replacing its results.
type Rerun struct {
	Line int
	Turn int
}

// turnKinds are this family's kinds.
var turnKinds = []Kind{
	{Verb: "resolve", Keyword: "RESOLVE", Family: "turn", Zero: ResolveNow{}, Parse: parseResolve, Example: "RESOLVE NOW"},
	{Verb: "rerun", Keyword: "RERUN", Family: "turn", Zero: Rerun{}, Parse: parseRerun, Example: "RERUN 3"},
	{Verb: "preview", Keyword: "PREVIEW", Family: "turn", Zero: Preview{}, Parse: parsePreview, Example: "PREVIEW"},
	{Verb: "rollback", Keyword: "ROLLBACK", Family: "turn", Zero: Rollback{}, Parse: parseRollback, Example: "ROLLBACK 2"},
	{Verb: "status", Keyword: "STATUS", Family: "turn", Zero: Status{}, Parse: parseStatus, Example: "STATUS"},
}

// RESOLVE NOW
func parseResolve(r *parser.Reader, at Reading) Command {
	r.Keyword("Write RESOLVE NOW.", "NOW")
	return ResolveNow{Line: at.Line}
}

// RERUN [TURN] n
func parseRerun(r *parser.Reader, at Reading) Command {
	r.Accept("TURN")
	return Rerun{Line: at.Line, Turn: r.Number("the turn to run again", 100000)}
}

// PREVIEW
func parsePreview(_ *parser.Reader, at Reading) Command { return Preview{Line: at.Line} }

// STATUS
func parseStatus(_ *parser.Reader, at Reading) Command { return Status{Line: at.Line} }

// ROLLBACK [TO] [TURN] n
func parseRollback(r *parser.Reader, at Reading) Command {
	r.Accept("TO")
	r.Accept("TURN")
	return Rollback{Line: at.Line, Turn: r.Number("the turn to open again", 100000)}
}

// readTurnLine reads TURN n, the turn the mail's commands are about, and
// returns what it sets on the sheet: a second TURN line naming another
// turn is an error.
func readTurnLine(r *parser.Reader, line int) func(*Sheet) *parser.Diagnostic {
	it := r.Peek()
	n := r.Number("the turn your commands are about", 100000)
	if n < 1 {
		r.Fail(it, "turn 0 is the starting position, which no command can act on", "Write TURN and the number of the open turn.")
	}
	return func(sh *Sheet) *parser.Diagnostic {
		if sh.TurnLine > 0 && sh.Turn != n {
			return &parser.Diagnostic{Line: line, Severity: parser.Error,
				Message: fmt.Sprintf("a second TURN line names turn %d, the first (line %d) turn %d", n, sh.TurnLine, sh.Turn),
				Hint:    "Write one TURN line: the turn your commands are about."}
		}
		sh.Turn, sh.TurnLine = n, line
		return nil
	}
}

// Verb returns "resolve".
func (ResolveNow) Verb() string { return "resolve" }

// Verb returns "preview".
func (Preview) Verb() string { return "preview" }

// Verb returns "status".
func (Status) Verb() string { return "status" }

// SourceLine returns the mail line the Status command was read from.
func (c Status) SourceLine() int { return c.Line }

// Format prints "STATUS".
func (Status) Format(*parser.Vocabulary) string { return "STATUS" }

// Verb returns "rollback".
func (Rollback) Verb() string { return "rollback" }

// Verb returns "rerun".
func (Rerun) Verb() string { return "rerun" }

// SourceLine returns the mail line the ResolveNow command was read from.
func (c ResolveNow) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Preview command was read from.
func (c Preview) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Rollback command was read from.
func (c Rollback) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Rerun command was read from.
func (c Rerun) SourceLine() int { return c.Line }

// Format prints "RESOLVE NOW".
func (ResolveNow) Format(*parser.Vocabulary) string { return "RESOLVE NOW" }

// Format prints "PREVIEW".
func (Preview) Format(*parser.Vocabulary) string { return "PREVIEW" }

// Format prints "ROLLBACK n".
func (c Rollback) Format(*parser.Vocabulary) string { return "ROLLBACK " + strconv.Itoa(c.Turn) }

// Format prints "RERUN n".
func (c Rerun) Format(*parser.Vocabulary) string { return "RERUN " + strconv.Itoa(c.Turn) }
