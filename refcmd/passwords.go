package refcmd

import (
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
)

// The nations' passwords: RESET PASSWORD gives a nation a new order-sheet
// password (the referee's own is the mail's PASSWORD line, command.go).

// PasswordReset gives a nation a new order-sheet password, from its next
// sheet on; the nation is told.
type PasswordReset struct {
	Line     int
	Nation   game.NationID
	Password string
}

// passwordKinds are this family's kinds.
var passwordKinds = []Kind{
	{Verb: "reset-password", Keyword: "RESET", Family: "passwords", Zero: PasswordReset{}, Parse: parseReset,
		Example: "RESET PASSWORD fromande snuffbox"},
}

// RESET PASSWORD nation newpassword
func parseReset(r *parser.Reader, at Reading) Command {
	r.Keyword("Write RESET PASSWORD nation newpassword.", "PASSWORD")
	n := r.Nation()
	rest := r.Rest()
	if f := strings.Fields(rest); len(f) != 1 || len(f[0]) < 4 || strings.HasPrefix(f[0], "#") {
		r.Fail(r.Peek(), "expected one new password of at least 4 characters, read "+strconv.Quote(rest),
			"Write RESET PASSWORD nation newpassword (one word).")
	}
	r.SkipRest()
	return PasswordReset{Line: at.Line, Nation: n, Password: rest}
}

// Verb returns "reset-password".
func (PasswordReset) Verb() string { return "reset-password" }

// SourceLine returns the mail line the PasswordReset command was read from.
func (c PasswordReset) SourceLine() int { return c.Line }

// Format prints "RESET PASSWORD nation ********": the new password is never
// repeated.
func (c PasswordReset) Format(*parser.Vocabulary) string {
	return "RESET PASSWORD " + string(c.Nation) + " ********"
}
