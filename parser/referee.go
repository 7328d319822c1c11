package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/schedule"
)

// The referee's commands: rulings on requests, treaty breaches, the
// deadline, and running the turn. They come by mail from the referee's
// address (the mail layer checks that and the request tokens); this file
// reads them. The same clean-up and lexer as for order sheets apply.

// RefereeCommand is one command of a referee's mail.
type RefereeCommand interface {
	// Verb is the command's keyword: "approve", "deny", "breach", "lift",
	// "deadline-extend", "deadline-set", "resolve", "rerun", "preview".
	Verb() string
	// SourceLine is the mail line the command was read from.
	SourceLine() int
}

// The effects of an approved request, and the breaches and lifted penalties,
// are the engine's rulings (engine/rulings.go): this reader produces
// engine.Effect values (engine.TreasuryChange, engine.AddUnits,
// engine.RemoveUnits, engine.PlaceForce, engine.SetLoyalty,
// engine.DeclareBreach, engine.LiftPenalty) and RulingOf turns a command into
// the engine.Ruling the daemon stores and the turn carries out.

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

// DeadlineExtend moves the current turn's deadline later by By.
type DeadlineExtend struct {
	Line int
	By   time.Duration
}

// DeadlineSet sets the current turn's deadline.
type DeadlineSet struct {
	Line int
	At   time.Time
}

// ResolveNow resolves the turn at once, without waiting for the deadline.
type ResolveNow struct{ Line int }

// Rerun resolves a turn again from its saved state and orders (after a
// correction), replacing its results.
type Rerun struct {
	Line int
	Turn int
}

// Preview resolves the turn without saving or sending anything and mails
// the referee the result.
type Preview struct{ Line int }

// RulingOf returns the engine ruling a command carries: an APPROVE's
// effects bound to its token (the daemon sets Nation, the requester), or a
// BREACH or LIFT. ok is false for the other commands.
func RulingOf(c RefereeCommand) (r engine.Ruling, ok bool) {
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

// Verb returns "deadline-extend".
func (DeadlineExtend) Verb() string { return "deadline-extend" }

// Verb returns "deadline-set".
func (DeadlineSet) Verb() string { return "deadline-set" }

// Verb returns "resolve".
func (ResolveNow) Verb() string { return "resolve" }

// Verb returns "rerun".
func (Rerun) Verb() string { return "rerun" }

// Verb returns "preview".
func (Preview) Verb() string { return "preview" }

// SourceLine returns the mail line the Approve command was read from.
func (c Approve) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Deny command was read from.
func (c Deny) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Breach command was read from.
func (c Breach) SourceLine() int { return c.Line }

// SourceLine returns the mail line the LiftBreach command was read from.
func (c LiftBreach) SourceLine() int { return c.Line }

// SourceLine returns the mail line the DeadlineExtend command was read from.
func (c DeadlineExtend) SourceLine() int { return c.Line }

// SourceLine returns the mail line the DeadlineSet command was read from.
func (c DeadlineSet) SourceLine() int { return c.Line }

// SourceLine returns the mail line the ResolveNow command was read from.
func (c ResolveNow) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Rerun command was read from.
func (c Rerun) SourceLine() int { return c.Line }

// SourceLine returns the mail line the Preview command was read from.
func (c Preview) SourceLine() int { return c.Line }

// RefereeSheet is a referee's mail as read.
type RefereeSheet struct {
	// Game is the game a GAME line names ("" when there is none).
	Game        string
	Commands    []RefereeCommand
	Diagnostics []Diagnostic
	// Password is the text of the PASSWORD line, the referee's own
	// password ("" when there is none); the daemon checks it. PasswordLine
	// is its line.
	Password     string
	PasswordLine int
	// Turn is the turn a TURN line names (0 when there is none): the turn
	// the mail's RESOLVE NOW, DEADLINE, PREVIEW and ROLLBACK mean (the
	// daemon refuses them when another turn is open). TurnLine is its line.
	Turn     int
	TurnLine int
}

var refereeVerbs = append([]string{"APPROVE", "DENY", "BREACH", "LIFT", "DEADLINE", "RESOLVE", "RERUN", "PREVIEW"}, moreRefereeVerbs...)

var effectVerbs = []string{"TREASURY", "ADD", "REMOVE", "MOVE", "LOYALTY"}

// ParseRefereeCommands reads a referee's mail: an optional GAME line, then
// one command per line, each APPROVE followed by its effect lines, up to END
// or the end of the mail. Lines before the first command (greetings, quoted
// mail) are ignored. Times without a zone are read in loc (UTC if nil). The
// vocabulary may be nil. A command with an error is left out and reported.
func ParseRefereeCommands(mail string, v *Vocabulary, loc *time.Location) *RefereeSheet {
	if loc == nil {
		loc = time.UTC
	}
	rs := &RefereeSheet{}
	raw := strings.Split(normalize(mail), "\n")
	start, depth := -1, 0
	for i, l := range raw {
		t, d := dequote(l, 1<<30)
		if startsRefereeCommand(firstWord(t)) {
			if start < 0 || d < depth {
				start, depth = i, d
			}
			if d == 0 {
				break
			}
		}
	}
	if start < 0 {
		rs.Diagnostics = append(rs.Diagnostics, Diagnostic{Severity: Error,
			Message: "no referee command found: expected a line starting " + orList(refereeVerbs),
			Hint:    "Write one command per line, e.g. APPROVE R1a2b3c or DEADLINE EXTEND 2d."})
		return rs
	}
	var lines []*logical
	var prev string
	for i := start; i < len(raw); i++ {
		t, _ := dequote(raw[i], depth)
		t = strings.TrimRight(t, " ")
		tt := strings.TrimSpace(t)
		switch {
		case tt == "" || strings.HasPrefix(tt, "#"):
			prev = ""
			continue
		case isEndLine(tt), isSignature(t):
			i = len(raw)
			continue
		}
		if n := len(lines); n > 0 && prev != "" && len(lines[n-1].segs) < maxJoin && (strings.HasSuffix(prev, "\\") || strings.HasSuffix(prev, ",") ||
			tt[0] >= '0' && tt[0] <= '9' || tt[0] == ',') {
			lg := lines[n-1]
			lg.text = strings.TrimRight(strings.TrimSuffix(lg.text, "\\"), " ") + " "
			lg.segs = append(lg.segs, segment{off: len(lg.text), line: i + 1})
			lg.text += tt
		} else {
			lines = append(lines, &logical{text: tt, segs: []segment{{0, i + 1}}})
		}
		prev = tt
	}
	lastApprove := -1
	for _, lg := range lines {
		cmd, eff, d := parseRefereeLine(lg, v, loc)
		switch {
		case d != nil:
			rs.Diagnostics = append(rs.Diagnostics, *d)
			if fold(firstWord(lg.text)) == "approve" {
				// The effects after a bad APPROVE must not land on an
				// earlier one.
				lastApprove = -2
			}
		case eff != nil:
			if lastApprove < 0 {
				msg := fmt.Sprintf("the effect %s follows no APPROVE", strings.ToUpper(eff.EffectKind()))
				if lastApprove == -2 {
					msg = fmt.Sprintf("the effect %s belongs to an APPROVE with an error", strings.ToUpper(eff.EffectKind()))
				}
				rs.Diagnostics = append(rs.Diagnostics, Diagnostic{Line: lg.first(), Severity: Error, Source: lg.text,
					Message: msg, Hint: "Put effect lines right after the APPROVE line they belong to."})
				continue
			}
			a := rs.Commands[lastApprove].(Approve)
			a.Effects = append(a.Effects, eff)
			rs.Commands[lastApprove] = a
		case cmd != nil:
			if g, ok := cmd.(gameLine); ok {
				rs.Game = g.game
				continue
			}
			if pl, ok := cmd.(passwordLine); ok {
				rs.Password, rs.PasswordLine = pl.password, pl.line
				continue
			}
			if tl, ok := cmd.(turnLine); ok {
				if rs.TurnLine > 0 && rs.Turn != tl.turn {
					rs.Diagnostics = append(rs.Diagnostics, Diagnostic{Line: tl.line, Severity: Error, Source: lg.text,
						Message: fmt.Sprintf("a second TURN line names turn %d, the first (line %d) turn %d", tl.turn, rs.TurnLine, rs.Turn),
						Hint:    "Write one TURN line: the turn your commands are about."})
					continue
				}
				rs.Turn, rs.TurnLine = tl.turn, tl.line
				continue
			}
			rs.Commands = append(rs.Commands, cmd)
			lastApprove = -1
			if _, ok := cmd.(Approve); ok {
				lastApprove = len(rs.Commands) - 1
			}
		}
	}
	sortDiagnostics(rs.Diagnostics)
	return rs
}

// gameLine is the GAME line of a referee's mail, returned as a command so
// the loop above can take it.
type gameLine struct{ game string }

// Verb returns "game".
func (gameLine) Verb() string { return "game" }

// SourceLine returns 0: the GAME line is not a command.
func (gameLine) SourceLine() int { return 0 }

// EffectKind returns "".
func (gameLine) EffectKind() string { return "" }

// passwordLine is the PASSWORD line of a referee's mail, returned as a
// command so the loop above can take it.
type passwordLine struct {
	password string
	line     int
}

// Verb returns "password".
func (passwordLine) Verb() string { return "password" }

// turnLine is the TURN line of a referee's mail, returned as a command so
// the loop above can take it.
type turnLine struct{ turn, line int }

// Verb returns "turn".
func (turnLine) Verb() string { return "turn" }

// SourceLine returns the line: the TURN line is not a command.
func (t turnLine) SourceLine() int { return t.line }

// SourceLine returns the line: the PASSWORD line is not a command.
func (p passwordLine) SourceLine() int { return p.line }

var durationPattern = regexp.MustCompile(`^(?i)(\d+[dhm])+$`)

// startsRefereeCommand reports a word that begins the referee's commands: a
// command, an effect or GAME, by unique prefix, or a word of five letters or
// more one edit away from one.
func startsRefereeCommand(w string) bool {
	all := append(append(append([]string{}, refereeVerbs...), effectVerbs...), "GAME", "PASSWORD", "TURN")
	if kw, _ := match(w, all); kw != "" {
		return true
	}
	if len(w) < 5 {
		return false
	}
	for _, k := range all {
		if distance(fold(w), fold(k)) <= 1 {
			return true
		}
	}
	return false
}

// parseDuration reads "2d", "36h", "1d12h", "90m".
func parseDuration(s string) (time.Duration, bool) {
	if !durationPattern.MatchString(s) {
		return 0, false
	}
	var d time.Duration
	num := 0
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= '0' && r <= '9':
			num = num*10 + int(r-'0')
			if num > 1000000 {
				return 0, false
			}
		case r == 'd':
			d += time.Duration(num) * 24 * time.Hour
			num = 0
		case r == 'h':
			d += time.Duration(num) * time.Hour
			num = 0
		case r == 'm':
			d += time.Duration(num) * time.Minute
			num = 0
		}
	}
	return d, d > 0
}

// formatDuration prints a duration as parseDuration reads it.
func formatDuration(d time.Duration) string {
	var b strings.Builder
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	hours := d / time.Hour
	d -= hours * time.Hour
	mins := d / time.Minute
	if days > 0 {
		fmt.Fprintf(&b, "%dd", days)
	}
	if hours > 0 {
		fmt.Fprintf(&b, "%dh", hours)
	}
	if mins > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%dm", mins)
	}
	return b.String()
}

// parseRefereeLine reads one line: a command, an effect, or the GAME line.
func parseRefereeLine(lg *logical, v *Vocabulary, loc *time.Location) (cmd RefereeCommand, eff engine.Effect, diag *Diagnostic) {
	p := &parser{v: v, lg: lg, items: lex(lg.text), st: &Statement{Line: lg.first()}}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			cmd, eff, diag = nil, nil, &f.d
		}
	}()
	line := lg.first()
	it := p.next()
	if it.typ != itemWord {
		p.expected(it, "a referee command ("+orList(refereeVerbs)+")", "Write one command per line.")
	}
	all := append(append(append([]string{}, refereeVerbs...), effectVerbs...), "GAME", "PASSWORD", "TURN")
	kw, amb := match(it.val, all)
	if kw == "" {
		if len(amb) > 0 {
			p.fail(it, fmt.Sprintf("%s could be %s", it.quoted(), orList(amb)), "Write more of the word.")
		}
		p.fail(it, fmt.Sprintf("expected a referee command (%s) or an effect (%s), read %s%s", orList(refereeVerbs), orList(effectVerbs),
			it.quoted(), didYouMean(suggest(it.val, all))), "Write one command per line.")
	}
	switch kw {
	case "GAME":
		g := p.next()
		if g.typ != itemWord && g.typ != itemNumber {
			p.expected(g, "the game's ID", "Write GAME and the game's ID.")
		}
		cmd = gameLine{game: g.val}
	case "TURN":
		it := p.peek()
		n := p.number("the turn your commands are about", 100000)
		if n < 1 {
			p.fail(it, "turn 0 is the starting position, which no command can act on", "Write TURN and the number of the open turn.")
		}
		cmd = turnLine{turn: n, line: line}
	case "PASSWORD":
		// The rest of the line as written: a password may hold any
		// character the lexer would split on.
		t := strings.TrimSpace(lg.text)
		rest := strings.TrimLeft(t[strings.IndexFunc(t+" ", unicode.IsSpace):], " \t")
		return passwordLine{password: strings.TrimSpace(rest), line: line}, nil, nil
	case "APPROVE":
		cmd = Approve{Line: line, Token: p.token()}
	case "DENY":
		d := Deny{Line: line, Token: p.token()}
		if !p.atEnd() {
			d.Reason = p.text("reason")
		}
		cmd = d
	case "BREACH", "LIFT":
		t := p.next()
		if t.typ != itemWord {
			p.expected(t, "a treaty such as T3", "Write "+kw+" T3 offender AGAINST aggrieved.")
		}
		off := p.nation()
		p.keyword("Write "+kw+" "+t.val+" offender AGAINST aggrieved.", "AGAINST")
		agg := p.nation()
		if kw == "BREACH" {
			cmd = Breach{Line: line, DeclareBreach: engine.DeclareBreach{Treaty: strings.ToUpper(t.val), Offender: off, Aggrieved: agg}}
		} else {
			cmd = LiftBreach{Line: line, LiftPenalty: engine.LiftPenalty{Treaty: strings.ToUpper(t.val), Offender: off, Aggrieved: agg}}
		}
	case "DEADLINE":
		switch p.keyword("Write DEADLINE EXTEND 2d or DEADLINE SET 2025-06-08 18:00.", "EXTEND", "SET") {
		case "EXTEND":
			d := p.next()
			dur, ok := parseDuration(d.val)
			if (d.typ != itemWord && d.typ != itemNumber) || !ok {
				p.expected(d, "a duration such as 2d, 36h or 1d12h", "Write DEADLINE EXTEND and days (d), hours (h) or minutes (m).")
			}
			cmd = DeadlineExtend{Line: line, By: dur}
		default:
			rest := strings.TrimSpace(lg.text[p.peek().pos:])
			if i := strings.Index(rest, "#"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			t, err := schedule.Parse(rest, loc, nil)
			if err != nil {
				p.fail(p.peek(), fmt.Sprintf("expected a date and time such as 2025-06-08 18:00, read %q (%v)", rest, err),
					"Write DEADLINE SET 2025-06-08 18:00, optionally followed by a time zone such as Europe/Berlin.")
			}
			p.pos = len(p.items) - 1
			cmd = DeadlineSet{Line: line, At: t}
		}
	case "RESOLVE":
		p.keyword("Write RESOLVE NOW.", "NOW")
		cmd = ResolveNow{Line: line}
	case "RERUN":
		p.accept("TURN")
		cmd = Rerun{Line: line, Turn: p.number("the turn to run again", 100000)}
	case "PREVIEW":
		cmd = Preview{Line: line}
	case "ROLLBACK", "RESEND", "REQUEUE", "RESET", "BATTLE":
		cmd = p.parseMoreReferee(kw, line) // referee_more.go
	case "TREASURY":
		n := p.nation()
		sign := p.next()
		if sign.typ != itemSign {
			p.expected(sign, "+ or - and a number of crowns, such as +200", "Write TREASURY nation +200 or -200.")
		}
		amt := p.number("a number of crowns", 10000000)
		if sign.val == "-" {
			amt = -amt
		}
		eff = engine.TreasuryChange{Nation: n, Delta: amt}
	case "ADD":
		f := p.force("the force to add to or create")
		c := p.contents(allowAll, "the units to add, such as 24 C infantry", "AT")
		p.keyword("Write ADD force units AT hex.", "AT")
		eff = engine.AddUnits{Force: f, Units: c, At: p.hexOrCity()}
	case "REMOVE":
		f := p.force("the force to remove from")
		var c Contents
		if !p.atEnd() {
			c = p.contents(allowAll, "the units to remove, or nothing for the whole force")
		}
		eff = engine.RemoveUnits{Force: f, Units: c}
	case "MOVE":
		f := p.force("the force to move")
		p.keyword("Write MOVE force TO hex.", "TO")
		eff = engine.PlaceForce{Force: f, To: p.hexOrCity()}
	case "LOYALTY":
		c := p.city()
		var n game.NationID
		if _, ok := p.acceptExact("NEUTRAL", "NONE"); !ok {
			n = p.nation()
		}
		eff = engine.SetLoyalty{City: c, Nation: n}
	}
	p.end(kw)
	return cmd, eff, nil
}

// token reads a request token.
func (p *parser) token() string {
	it := p.next()
	if it.typ != itemWord || len(it.val) < 2 {
		p.expected(it, "a request token such as R1a2b3c", "Copy the token from the request.")
	}
	return it.val
}

// FormatRefereeCommand prints a command (and an APPROVE's effects, one per
// line, indented) in canonical form.
func FormatRefereeCommand(c RefereeCommand, v *Vocabulary) string {
	switch c := c.(type) {
	case Approve:
		s := "APPROVE " + c.Token
		for _, e := range c.Effects {
			s += "\n  " + FormatEffect(e, v)
		}
		return s
	case Deny:
		if c.Reason != "" {
			return fmt.Sprintf("DENY %s %s", c.Token, quote(c.Reason))
		}
		return "DENY " + c.Token
	case Breach:
		return fmt.Sprintf("BREACH %s %s AGAINST %s", c.Treaty, c.Offender, c.Aggrieved)
	case LiftBreach:
		return fmt.Sprintf("LIFT %s %s AGAINST %s", c.Treaty, c.Offender, c.Aggrieved)
	case DeadlineExtend:
		return "DEADLINE EXTEND " + formatDuration(c.By)
	case DeadlineSet:
		return "DEADLINE SET " + c.At.Format(time.RFC3339)
	case ResolveNow:
		return "RESOLVE NOW"
	case Rerun:
		return "RERUN " + strconv.Itoa(c.Turn)
	case Preview:
		return "PREVIEW"
	}
	return formatMoreReferee(c)
}

// FormatEffect prints an effect in canonical form.
func FormatEffect(e engine.Effect, v *Vocabulary) string {
	switch e := e.(type) {
	case engine.TreasuryChange:
		return fmt.Sprintf("TREASURY %s %+d", e.Nation, e.Delta)
	case engine.AddUnits:
		return fmt.Sprintf("ADD %s %s AT %s", e.Force, FormatContents(e.Units, v), e.At)
	case engine.RemoveUnits:
		if e.Units.IsEmpty() {
			return "REMOVE " + string(e.Force)
		}
		return fmt.Sprintf("REMOVE %s %s", e.Force, FormatContents(e.Units, v))
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
		return fmt.Sprintf("LOYALTY %s %s", cityName(e.City), n)
	}
	return ""
}
