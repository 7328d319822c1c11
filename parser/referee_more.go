package parser

import (
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// The referee's commands about the game's record and its mail: ROLLBACK,
// RESEND, REQUEUE, RESET PASSWORD (a nation's password reset; PASSWORD alone
// is the referee's own password line) and BATTLE hex TABLE. The daemon
// carries them out (daemon/rollback.go, daemon/referee.go).

// Rollback sets turn Turn and every later turn aside (voided, kept for the
// record) and opens turn Turn again.
type Rollback struct {
	Line int
	Turn int
}

// Resend sends a nation's report of a turn again, with its original bytes
// and Message-ID. Turn 0 means the last turn resolved.
type Resend struct {
	Line   int
	Nation game.NationID
	Turn   int
}

// Requeue puts every mail the outbox gave up on back in the queue.
type Requeue struct{ Line int }

// PasswordReset gives a nation a new order-sheet password, from its next
// sheet on; the nation is told.
type PasswordReset struct {
	Line     int
	Nation   game.NationID
	Password string
}

// TableBattle asks for the battle in Hex this turn to be fought on the
// referee's table (in a game whose battles are otherwise fought by the
// model).
type TableBattle struct {
	Line int
	Hex  game.Hex
}

// Verb returns "battle".
func (TableBattle) Verb() string { return "battle" }

// SourceLine returns the mail line the TableBattle command was read from.
func (c TableBattle) SourceLine() int { return c.Line }

// Verb returns "rollback".
func (Rollback) Verb() string { return "rollback" }

// Verb returns "resend".
func (Resend) Verb() string { return "resend" }

// Verb returns "requeue".
func (Requeue) Verb() string { return "requeue" }

// Verb returns "reset-password".
func (PasswordReset) Verb() string { return "reset-password" }

// SourceLine returns the mail line the Rollback command was read from.
func (c Rollback) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Resend command was read from.
func (c Resend) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Requeue command was read from.
func (c Requeue) SourceLine() int { return c.Line }

// SourceLine returns the mail line the PasswordReset command was read from.
func (c PasswordReset) SourceLine() int { return c.Line }

// moreRefereeVerbs are the keywords of this file's commands.
var moreRefereeVerbs = []string{"ROLLBACK", "RESEND", "REQUEUE", "RESET", "BATTLE"}

// parseMoreReferee reads one of this file's commands after its keyword kw
// (nil if kw is not one of them).
func (p *parser) parseMoreReferee(kw string, line int) RefereeCommand {
	switch kw {
	case "ROLLBACK":
		p.accept("TO")
		p.accept("TURN")
		return Rollback{Line: line, Turn: p.number("the turn to open again", 100000)}
	case "RESEND":
		c := Resend{Line: line, Nation: p.nation()}
		if !p.atEnd() {
			p.accept("TURN")
			c.Turn = p.number("the turn whose report to send again", 100000)
		}
		return c
	case "REQUEUE":
		return Requeue{Line: line}
	case "BATTLE":
		it := p.next()
		h, err := game.ParseHex(it.val)
		if it.typ != itemNumber || err != nil {
			p.expected(it, "the battle's hex, such as 0502", "Write BATTLE hex TABLE.")
		}
		p.keyword("Write BATTLE hex TABLE.", "TABLE")
		return TableBattle{Line: line, Hex: h}
	case "RESET":
		p.keyword("Write RESET PASSWORD nation newpassword.", "PASSWORD")
		n := p.nation()
		rest := strings.TrimSpace(p.lg.text[p.peek().pos:])
		if f := strings.Fields(rest); len(f) != 1 || len(f[0]) < 4 || strings.HasPrefix(f[0], "#") {
			p.fail(p.peek(), "expected one new password of at least 4 characters, read "+strconv.Quote(rest),
				"Write RESET PASSWORD nation newpassword (one word).")
		}
		p.pos = len(p.items) - 1
		return PasswordReset{Line: line, Nation: n, Password: rest}
	}
	return nil
}

// formatMoreReferee prints one of this file's commands in canonical form.
// A password reset's new password is not repeated.
func formatMoreReferee(c RefereeCommand) string {
	switch c := c.(type) {
	case Rollback:
		return "ROLLBACK " + strconv.Itoa(c.Turn)
	case Resend:
		if c.Turn > 0 {
			return "RESEND " + string(c.Nation) + " " + strconv.Itoa(c.Turn)
		}
		return "RESEND " + string(c.Nation)
	case Requeue:
		return "REQUEUE"
	case TableBattle:
		return "BATTLE " + c.Hex.String() + " TABLE"
	case PasswordReset:
		return "RESET PASSWORD " + string(c.Nation) + " ********"
	}
	return ""
}
