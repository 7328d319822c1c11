// Package refcmd is the referee's language: the commands the referee mails
// (docs/referee.md) and the tabletop RESULT form, read and printed here and
// carried out by the daemon.
//
// A referee's mail is read like an order sheet — the parser's clean-up,
// reply quoting, wrapped lines, signatures and lexer (parser.CommandLines,
// parser.Reader) — but it holds one command per line: an optional GAME line,
// the referee's PASSWORD line, an optional TURN line naming the turn the
// commands are about, then the commands, each APPROVE followed by its
// effect lines, up to END or the end of the mail. Parse reads it into a
// Sheet: the commands that read cleanly, each with its mail line, and a
// diagnostic (line, what was read, what was expected, a hint) for each line
// that did not. A command with an error is left out; nothing else is.
//
// Each command kind has one home, the file of its family, as the engine's
// order kinds do (engine/orderkinds.go): its type (a Command: its verb, its
// mail line, its canonical form), its grammar (a function reading the line
// after its keyword) and its entry in the family's []Kind list with an
// example as the docs show it:
//
//	rulings.go    APPROVE (and its effect lines), DENY, BREACH, LIFT
//	deadline.go   DEADLINE SET, DEADLINE EXTEND
//	turn.go       RESOLVE NOW, PREVIEW, ROLLBACK, RERUN, and the TURN line
//	mail.go       RESEND, REQUEUE
//	passwords.go  RESET PASSWORD
//	table.go      BATTLE hex TABLE, and the RESULT form (ParseResult)
//
// command.go assembles the registry (Kinds) and reads a mail (Parse). The
// canonical form of every command reads back to the same command
// (TestRefereeCommands, FuzzReferee), and every kind has an example in
// docs/referee.md that reads back (TestDocReferee).
//
// The daemon gives each kind its effect — what it decides, writes and
// answers — in its own registry (daemon/referee.go), which the mail path
// and the CLI share; its completeness test fails when a kind here has no
// entry there.
//
// The RESULT form is not a command among others: a mail whose first line
// (after PASSWORD and GAME) is RESULT is a battle's result from the
// referee's table and holds nothing else. ParseResult reads it against the
// battle it names, line by line, every mistake under its own line.
package refcmd
