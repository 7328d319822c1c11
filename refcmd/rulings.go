package refcmd

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
)

// The rulings: the referee's answer to a player's request (APPROVE, with
// the effect lines that say what it does, or DENY), and the breach of a
// public treaty (BREACH) and the end of its penalty (LIFT). The effects,
// the breaches and the lifted penalties are the engine's rulings
// (engine/rulings.go): this file reads engine.Effect values
// (engine.TreasuryChange, AddUnits, RemoveUnits, PlaceForce, SetLoyalty,
// DeclareBreach, LiftPenalty), and RulingOf turns a command into the
// engine.Ruling the daemon stores and the turn carries out.

// Approve grants a player's request (named by the token the player's reply
// printed) with the effects listed on the lines after it.
type Approve struct {
	Line    int
	Token   string
	Effects []engine.Effect `json:",omitempty"`
}

// Deny refuses a request, with an optional reason sent to the player.
type Deny struct {
	Line   int
	Token  string
	Reason string `json:",omitempty"`
}

// Breach declares Offender in breach of a public treaty against Aggrieved:
// the 200-point yearly penalty runs until Aggrieved agrees to end it
// (Public Treaties).
type Breach struct {
	Line int
	engine.DeclareBreach
}

// LiftBreach ends a breach penalty (the aggrieved party agreed).
type LiftBreach struct {
	Line int
	engine.LiftPenalty
}

// rulingKinds are this family's kinds.
var rulingKinds = []Kind{
	{Verb: "approve", Keyword: "APPROVE", Family: "rulings", Zero: Approve{}, Parse: parseApprove,
		Example: "APPROVE R1a2b3c\n  TREASURY eisenmark -100\n  ADD E9 24 C infantry, general Stockli AT 1910"},
	{Verb: "deny", Keyword: "DENY", Family: "rulings", Zero: Deny{}, Parse: parseDeny,
		Example: `DENY R777777 "Swiss mercenaries are not to be had this year."`},
	{Verb: "breach", Keyword: "BREACH", Family: "rulings", Zero: Breach{}, Parse: parseBreach,
		Example: "BREACH T1 fromande AGAINST eisenmark"},
	{Verb: "lift", Keyword: "LIFT", Family: "rulings", Zero: LiftBreach{}, Parse: parseLift,
		Example: "LIFT T1 fromande AGAINST eisenmark"},
}

// APPROVE token (the effect lines follow)
func parseApprove(r *parser.Reader, at Reading) Command {
	return Approve{Line: at.Line, Token: token(r)}
}

// DENY token ["reason"]
func parseDeny(r *parser.Reader, at Reading) Command {
	d := Deny{Line: at.Line, Token: token(r)}
	if !r.AtEnd() {
		d.Reason = r.FreeText("reason")
	}
	return d
}

// BREACH treaty offender AGAINST aggrieved
func parseBreach(r *parser.Reader, at Reading) Command {
	t, off, agg := treatyParties(r, "BREACH")
	return Breach{Line: at.Line, DeclareBreach: engine.DeclareBreach{Treaty: t, Offender: off, Aggrieved: agg}}
}

// LIFT treaty offender AGAINST aggrieved
func parseLift(r *parser.Reader, at Reading) Command {
	t, off, agg := treatyParties(r, "LIFT")
	return LiftBreach{Line: at.Line, LiftPenalty: engine.LiftPenalty{Treaty: t, Offender: off, Aggrieved: agg}}
}

// treatyParties reads what follows BREACH and LIFT (kw): the treaty, the
// offender, AGAINST and the aggrieved party.
func treatyParties(r *parser.Reader, kw string) (treaty string, off, agg game.NationID) {
	t := r.Next()
	if t.Type != parser.TokenWord {
		r.Expected(t, "a treaty such as T3", "Write "+kw+" T3 offender AGAINST aggrieved.")
	}
	off = r.Nation()
	r.Keyword("Write "+kw+" "+t.Val+" offender AGAINST aggrieved.", "AGAINST")
	return strings.ToUpper(t.Val), off, r.Nation()
}

// token reads a request token.
func token(r *parser.Reader) string {
	it := r.Next()
	if it.Type != parser.TokenWord || len(it.Val) < 2 {
		r.Expected(it, "a request token such as R1a2b3c", "Copy the token from the request.")
	}
	return it.Val
}

// RulingOf returns the engine ruling a command carries: an APPROVE's
// effects bound to its token (the daemon sets Nation, the requester), or a
// BREACH or LIFT. ok is false for the other commands.
func RulingOf(c Command) (r engine.Ruling, ok bool) {
	switch x := c.(type) {
	case Approve:
		return engine.Ruling{Token: x.Token, Effects: x.Effects}, true
	case Breach:
		return engine.Ruling{Effects: []engine.Effect{x.DeclareBreach}}, true
	case LiftBreach:
		return engine.Ruling{Effects: []engine.Effect{x.LiftPenalty}}, true
	}
	return engine.Ruling{}, false
}

// Verb returns "approve".
func (Approve) Verb() string { return "approve" }

// Verb returns "deny".
func (Deny) Verb() string { return "deny" }

// Verb returns "breach".
func (Breach) Verb() string { return "breach" }

// Verb returns "lift".
func (LiftBreach) Verb() string { return "lift" }

// SourceLine returns the mail line the Approve command was read from.
func (c Approve) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Deny command was read from.
func (c Deny) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Breach command was read from.
func (c Breach) SourceLine() int { return c.Line }

// SourceLine returns the mail line the LiftBreach command was read from.
func (c LiftBreach) SourceLine() int { return c.Line }

// Format prints "APPROVE token" and its effects, one per line, indented.
func (c Approve) Format(v *parser.Vocabulary) string {
	s := "APPROVE " + c.Token
	for _, e := range c.Effects {
		s += "\n  " + FormatEffect(e, v)
	}
	return s
}

// Format prints `DENY token ["reason"]`.
func (c Deny) Format(*parser.Vocabulary) string {
	if c.Reason != "" {
		return fmt.Sprintf("DENY %s %s", c.Token, parser.Quote(c.Reason))
	}
	return "DENY " + c.Token
}

// Format prints "BREACH treaty offender AGAINST aggrieved".
func (c Breach) Format(*parser.Vocabulary) string {
	return fmt.Sprintf("BREACH %s %s AGAINST %s", c.Treaty, c.Offender, c.Aggrieved)
}

// Format prints "LIFT treaty offender AGAINST aggrieved".
func (c LiftBreach) Format(*parser.Vocabulary) string {
	return fmt.Sprintf("LIFT %s %s AGAINST %s", c.Treaty, c.Offender, c.Aggrieved)
}

// The effect lines of an APPROVE, each a kind of engine.Effect.
type effectKind struct {
	Keyword string // the word that begins the line
	Kind    string // engine.Effect.EffectKind of what it reads
	Parse   func(r *parser.Reader) engine.Effect
	Example string // as the docs show it
}

var effectKinds = []effectKind{
	{"TREASURY", "treasury", parseTreasury, "TREASURY eisenmark -100"},
	{"ADD", "add", parseAdd, "ADD E9 24 C infantry, general Stockli AT 1910"},
	{"REMOVE", "remove", parseRemove, "REMOVE E1 4 C infantry"},
	{"MOVE", "move", parseMoveEffect, "MOVE E2 TO 1910"},
	{"LOYALTY", "loyalty", parseLoyalty, "LOYALTY Dresna eisenmark"},
}

// effectKeywords are the words that begin an effect line.
var effectKeywords = func() []string {
	out := make([]string, len(effectKinds))
	for i, e := range effectKinds {
		out[i] = e.Keyword
	}
	return out
}()

// effectGrammar is the grammar of each effect keyword.
var effectGrammar = func() map[string]func(*parser.Reader) engine.Effect {
	m := map[string]func(*parser.Reader) engine.Effect{}
	for _, e := range effectKinds {
		m[e.Keyword] = e.Parse
	}
	return m
}()

// TREASURY nation +n|-n
func parseTreasury(r *parser.Reader) engine.Effect {
	n := r.Nation()
	const hint = "Write TREASURY nation +200 to give crowns or -200 to take them."
	written := firstField(r.Rest()) // "+abc" as written: the lexer splits it
	sign := r.Next()
	if sign.Type != parser.TokenSign || r.Peek().Type != parser.TokenNumber {
		what := fmt.Sprintf("expected a signed number of crowns, such as +200 or -200, read %s", parser.Quote(written))
		if written == "" {
			what = "expected a signed number of crowns, such as +200 or -200, after the nation"
		}
		if written != "" { // the error shows the whole of it
			sign = parser.Token{Type: parser.TokenWord, Val: written, Pos: sign.Pos, End: sign.Pos + len(written)}
		}
		r.Fail(sign, what, hint)
	}
	amt := r.Number("a number of crowns", 10000000)
	if sign.Val == "-" {
		amt = -amt
	}
	return engine.TreasuryChange{Nation: n, Delta: amt}
}

// ADD force units AT hex
func parseAdd(r *parser.Reader) engine.Effect {
	f := r.Force("the force to add to or create")
	c := r.Units("the units to add, such as 24 C infantry", "AT")
	r.Keyword("Write ADD force units AT hex.", "AT")
	return engine.AddUnits{Force: f, Units: c, At: r.HexOrCity()}
}

// REMOVE force [units]
func parseRemove(r *parser.Reader) engine.Effect {
	f := r.Force("the force to remove from")
	var c parser.Contents
	if !r.AtEnd() {
		c = r.Units("the units to remove, or nothing for the whole force")
	}
	return engine.RemoveUnits{Force: f, Units: c}
}

// MOVE force TO hex
func parseMoveEffect(r *parser.Reader) engine.Effect {
	f := r.Force("the force to move")
	r.Keyword("Write MOVE force TO hex.", "TO")
	return engine.PlaceForce{Force: f, To: r.HexOrCity()}
}

// LOYALTY city nation|NEUTRAL
func parseLoyalty(r *parser.Reader) engine.Effect {
	c := r.City()
	var n game.NationID
	if _, ok := r.AcceptExact("NEUTRAL", "NONE"); !ok {
		n = r.Nation()
	}
	return engine.SetLoyalty{City: c, Nation: n}
}

// FormatEffect prints an effect in canonical form.
func FormatEffect(e engine.Effect, v *parser.Vocabulary) string {
	switch e := e.(type) {
	case engine.TreasuryChange:
		return fmt.Sprintf("TREASURY %s %+d", e.Nation, e.Delta)
	case engine.AddUnits:
		return fmt.Sprintf("ADD %s %s AT %s", e.Force, parser.FormatContents(e.Units, v), e.At)
	case engine.RemoveUnits:
		if e.Units.IsEmpty() {
			return "REMOVE " + string(e.Force)
		}
		return fmt.Sprintf("REMOVE %s %s", e.Force, parser.FormatContents(e.Units, v))
	case engine.PlaceForce:
		return fmt.Sprintf("MOVE %s TO %s", e.Force, e.To)
	case engine.DeclareBreach:
		return fmt.Sprintf("BREACH %s %s AGAINST %s", e.Treaty, e.Offender, e.Aggrieved)
	case engine.LiftPenalty:
		return fmt.Sprintf("LIFT %s %s AGAINST %s", e.Treaty, e.Offender, e.Aggrieved)
	case engine.SetLoyalty:
		n := string(e.Nation)
		if n == "" {
			n = "NEUTRAL"
		}
		return fmt.Sprintf("LOYALTY %s %s", parser.FormatCity(e.City), n)
	}
	return ""
}

// firstField is the first word of s as written, up to a space ("" for none).
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
