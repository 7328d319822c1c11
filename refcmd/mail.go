package refcmd

import (
	"strconv"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
)

// The game's mail: RESEND (a nation's report sent again, the same bytes
// under the same Message-ID) and REQUEUE (every mail the outbox gave up on
// queued again).

// Resend sends a nation's report of a turn again, with its original bytes
// and Message-ID. Turn 0 means the last turn resolved.
type Resend struct {
	Line   int
	Nation game.NationID
	Turn   int
}

// Requeue puts every mail the outbox gave up on back in the queue.
type Requeue struct{ Line int }

// mailKinds are this family's kinds.
var mailKinds = []Kind{
	{Verb: "resend", Keyword: "RESEND", Family: "mail", Zero: Resend{}, Parse: parseResend, Example: "RESEND eisenmark 2"},
	{Verb: "requeue", Keyword: "REQUEUE", Family: "mail", Zero: Requeue{}, Parse: parseRequeue, Example: "REQUEUE"},
}

// RESEND nation [[TURN] n]
func parseResend(r *parser.Reader, at Reading) Command {
	c := Resend{Line: at.Line, Nation: r.Nation()}
	if !r.AtEnd() {
		r.Accept("TURN")
		c.Turn = r.Number("the turn whose report to send again", 100000)
	}
	return c
}

// REQUEUE
func parseRequeue(_ *parser.Reader, at Reading) Command { return Requeue{Line: at.Line} }

// Verb returns "resend".
func (Resend) Verb() string { return "resend" }

// Verb returns "requeue".
func (Requeue) Verb() string { return "requeue" }

// SourceLine returns the mail line the Resend command was read from.
func (c Resend) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Requeue command was read from.
func (c Requeue) SourceLine() int { return c.Line }

// Format prints "RESEND nation [turn]".
func (c Resend) Format(*parser.Vocabulary) string {
	if c.Turn > 0 {
		return "RESEND " + string(c.Nation) + " " + strconv.Itoa(c.Turn)
	}
	return "RESEND " + string(c.Nation)
}

// Format prints "REQUEUE".
func (Requeue) Format(*parser.Vocabulary) string { return "REQUEUE" }
