package refcmd

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/parser"
)

// Command is one command of a referee's mail.
type Command interface {
	// Verb is the command's name: its Kind's Verb ("approve",
	// "deadline-set", "resolve", "reset-password").
	Verb() string
	// SourceLine is the mail line the command was read from (0 for a
	// command built by the CLI).
	SourceLine() int
	// Format prints the command in canonical form, which Parse reads back
	// to the same command (an APPROVE with its effects, one per line,
	// indented). v may be nil.
	Format(v *parser.Vocabulary) string
}

// Kind is one kind of referee command: what begins it, how it is read, and
// the example the docs give.
type Kind struct {
	// Verb is Command.Verb of its commands.
	Verb string
	// Keyword is the word that begins it: "DEADLINE" for both DEADLINE
	// commands, whose grammar reads on to tell them apart.
	Keyword string
	// Family is the file it lives in (rulings, deadline, turn, mail,
	// passwords, table).
	Family string
	// Zero is its type's zero value.
	Zero Command
	// Parse reads the line after the keyword (kinds that share a keyword
	// share it). It stops the line with r's methods on an error.
	Parse func(r *parser.Reader, at Reading) Command
	// Example is a command of the kind as docs/referee.md shows it
	// (TestDocReferee finds it there).
	Example string
}

// Reading is what a grammar knows of the line it reads besides its words.
type Reading struct {
	// Line is the mail line the command begins on.
	Line int
	// Zone is where a time written without a zone is read.
	Zone *time.Location
}

// kinds is the registry: every kind, family by family, in the order the
// docs list them.
var kinds = slices.Concat(rulingKinds, deadlineKinds, turnKinds, mailKinds, passwordKinds, tableKinds, ruleKinds)

// Kinds returns every referee command kind.
func Kinds() []Kind { return slices.Clone(kinds) }

// KindOf returns the kind with the verb.
func KindOf(verb string) (Kind, bool) {
	i := slices.IndexFunc(kinds, func(k Kind) bool { return k.Verb == verb })
	if i < 0 {
		return Kind{}, false
	}
	return kinds[i], true
}

// keywords are the words that begin a command, each once, in the
// registry's order.
var keywords = func() []string {
	var out []string
	for _, k := range kinds {
		if !slices.Contains(out, k.Keyword) {
			out = append(out, k.Keyword)
		}
	}
	return out
}()

// frameWords begin the lines of a mail that are not commands: the game, the
// referee's password, the turn the commands are about (turn.go).
var frameWords = []string{"GAME", "PASSWORD", "TURN"}

// lineWords are every word a line of a referee's mail may begin with.
var lineWords = slices.Concat(keywords, effectKeywords, frameWords)

// Sheet is a referee's mail as read.
type Sheet struct {
	// Game is the game a GAME line names ("" when there is none).
	Game string
	// Commands are the commands read without an error, in mail order.
	Commands    []Command
	Diagnostics []parser.Diagnostic
	// Password is the text of the PASSWORD line, the referee's own
	// password ("" when there is none); the daemon checks it. PasswordLine
	// is its line.
	Password     string
	PasswordLine int
	// Turn is the turn a TURN line names (0 when there is none): the turn
	// the mail's commands about the open turn mean (the daemon refuses them
	// when another turn is open). TurnLine is its line.
	Turn     int
	TurnLine int
}

// Parse reads a referee's mail: an optional GAME line, then one command per
// line, each APPROVE followed by its effect lines, up to END or the end of
// the mail. Lines before the first command (greetings, quoted mail) are
// ignored. Times without a zone are read in loc (UTC if nil). The
// vocabulary may be nil. A command with an error is left out and reported.
func Parse(mail string, v *parser.Vocabulary, loc *time.Location) *Sheet {
	if loc == nil {
		loc = time.UTC
	}
	sh := &Sheet{}
	lines, found := parser.CommandLines(mail, startsCommand)
	if !found {
		sh.Diagnostics = append(sh.Diagnostics, parser.Diagnostic{Severity: parser.Error,
			Message: "no referee command found: expected a line starting " + parser.OrList(keywords),
			Hint:    "Write one command per line, e.g. APPROVE R1a2b3c or DEADLINE EXTEND 2d."})
		return sh
	}
	lastApprove := -1 // the APPROVE effect lines go to; -2 after an APPROVE with an error
	var approveText string
	for _, l := range lines {
		rd, d := readLine(l, v, loc)
		switch {
		case d != nil:
			sh.Diagnostics = append(sh.Diagnostics, *d)
			switch {
			case firstWord(l.Text) == "approve":
				// The effects after a bad APPROVE must not land on an
				// earlier one.
				lastApprove = -2
			case lastApprove >= 0 && !beginsCommandOrFrame(l.Text):
				// A bad effect line: the APPROVE is refused whole.
				sh.Diagnostics = append(sh.Diagnostics, refuseApprove(sh, lastApprove, approveText, d.Line))
				lastApprove = -2
			}
		case rd.effect != nil:
			if d := addEffect(sh, lastApprove, rd.effect, l); d != nil {
				sh.Diagnostics = append(sh.Diagnostics, *d)
			}
		case rd.frame != nil:
			if d := rd.frame(sh); d != nil {
				d.Source = l.Text
				sh.Diagnostics = append(sh.Diagnostics, *d)
			}
		case rd.cmd != nil:
			sh.Commands = append(sh.Commands, rd.cmd)
			lastApprove = -1
			if _, ok := rd.cmd.(Approve); ok {
				lastApprove, approveText = len(sh.Commands)-1, l.Text
			}
		}
	}
	parser.SortDiagnostics(sh.Diagnostics)
	return sh
}

// lineRead is what one line of a referee's mail held: a command, an
// effect line of the APPROVE above it, or a line of the mail's frame
// (GAME, PASSWORD, TURN), which sets the sheet's field.
type lineRead struct {
	cmd    Command
	effect engine.Effect
	frame  func(*Sheet) *parser.Diagnostic
}

// startsCommand reports a word that begins the referee's commands: a
// command, an effect or a frame line, by unique prefix, or a word of five
// letters or more one edit away from one.
func startsCommand(w string) bool {
	if kw, _ := parser.MatchKeyword(w, lineWords); kw != "" {
		return true
	}
	if len(w) < 5 {
		return false
	}
	for _, k := range lineWords {
		if parser.EditDistance(w, k) <= 1 {
			return true
		}
	}
	return false
}

// grammarOf is the grammar of each command keyword.
var grammarOf = func() map[string]func(*parser.Reader, Reading) Command {
	m := map[string]func(*parser.Reader, Reading) Command{}
	for _, k := range kinds {
		if _, ok := m[k.Keyword]; !ok {
			m[k.Keyword] = k.Parse
		}
	}
	return m
}()

// readLine reads one line: a command, an effect or a frame line.
func readLine(l parser.FrameLine, v *parser.Vocabulary, loc *time.Location) (rd lineRead, d *parser.Diagnostic) {
	r := parser.NewReader(l, v)
	line := r.Line()
	at := Reading{Line: line, Zone: loc}
	d = r.Read(func() {
		it := r.Next()
		if it.Type != parser.TokenWord {
			r.Expected(it, "a referee command ("+parser.OrList(keywords)+")", "Write one command per line.")
		}
		kw, amb := parser.MatchKeyword(it.Val, lineWords)
		if kw == "" {
			if len(amb) > 0 {
				r.Fail(it, fmt.Sprintf("%s could be %s", it.Quoted(), parser.OrList(amb)), "Write more of the word.")
			}
			r.Fail(it, fmt.Sprintf("expected a referee command (%s) or an effect (%s), read %s%s", parser.OrList(keywords),
				parser.OrList(effectKeywords), it.Quoted(), parser.DidYouMean(parser.Suggest(it.Val, lineWords))), "Write one command per line.")
		}
		switch kw {
		case "GAME":
			g := r.Next()
			if g.Type != parser.TokenWord && g.Type != parser.TokenNumber {
				r.Expected(g, "the game's ID", "Write GAME and the game's ID.")
			}
			rd.frame = func(sh *Sheet) *parser.Diagnostic { sh.Game = g.Val; return nil }
		case "PASSWORD":
			// The rest of the line as written: a password may hold any
			// character the lexer would split on.
			t := strings.TrimSpace(r.Source())
			pw := strings.TrimSpace(strings.TrimLeft(t[strings.IndexFunc(t+" ", unicode.IsSpace):], " \t"))
			rd.frame = func(sh *Sheet) *parser.Diagnostic { sh.Password, sh.PasswordLine = pw, line; return nil }
			r.SkipRest()
			return
		case "TURN":
			rd.frame = readTurnLine(r, line) // turn.go
		default:
			switch parse, effect := grammarOf[kw], effectGrammar[kw]; {
			case parse != nil:
				rd.cmd = parse(r, at)
			case effect != nil:
				rd.effect = effect(r) // rulings.go
			default: // a Kind without its Parse: TestCommandKindsComplete says which
				r.Fail(it, fmt.Sprintf("pbem cannot read %s yet (it has no grammar)", kw), "Tell pbem's developers.")
			}
		}
		r.End(kw)
	})
	if d != nil {
		return lineRead{}, d
	}
	return rd, nil
}

// firstWord is a line's first word in lower case, cut at a colon.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	w := f[0]
	if i := strings.IndexByte(w, ':'); i > 0 {
		w = w[:i]
	}
	return strings.ToLower(w)
}

// addEffect puts an effect line on the APPROVE it follows (at index
// approve of the sheet's commands: -1 for none, -2 for one with an error).
func addEffect(sh *Sheet, approve int, e engine.Effect, l parser.FrameLine) *parser.Diagnostic {
	if approve < 0 {
		msg := fmt.Sprintf("the effect %s follows no APPROVE", strings.ToUpper(e.EffectKind()))
		if approve == -2 {
			msg = fmt.Sprintf("the effect %s belongs to an APPROVE with an error", strings.ToUpper(e.EffectKind()))
		}
		return &parser.Diagnostic{Line: l.Line, Severity: parser.Error, Source: l.Text,
			Message: msg, Hint: "Put effect lines right after the APPROVE line they belong to."}
	}
	a := sh.Commands[approve].(Approve)
	a.Effects = append(a.Effects, e)
	sh.Commands[approve] = a
	return nil
}

// beginsCommandOrFrame reports a line whose first word is a command's or a
// frame line's keyword (by unique prefix): a line that ends the APPROVE
// above it rather than being one of its effect lines.
func beginsCommandOrFrame(text string) bool {
	kw, _ := parser.MatchKeyword(firstWord(text), slices.Concat(keywords, frameWords))
	return kw != ""
}

// refuseApprove takes the APPROVE at index approve (the sheet's last
// command) off the sheet, for the error on its effect line bad, and returns
// the error that says so. An approval is carried out whole or not at all:
// recording the effects that read well without the one that did not would
// grant the player something the referee did not write.
func refuseApprove(sh *Sheet, approve int, text string, bad int) parser.Diagnostic {
	a := sh.Commands[approve].(Approve)
	sh.Commands = slices.Delete(sh.Commands, approve, approve+1)
	return parser.Diagnostic{Line: a.Line, Severity: parser.Error, Source: text,
		Message: fmt.Sprintf("APPROVE %s was not recorded: its effect line %d has an error (below), and an approval is carried out whole or not at all", a.Token, bad),
		Hint:    "Correct that line and send the APPROVE again with all its effect lines."}
}
