package console

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The console's acts. Each form is written as the referee's mail would
// write it (docs/referee.md) and run by the game's DeskAct, through the
// registry of referee commands: the console has no second way of doing
// anything. A field is checked only so far as to keep it to its place — a
// one-word field one word, a one-line field one line — so that no field can
// write a second command; what a command means is refcmd's to check, and
// its refusal comes back as the mail's would.

// action is one form of the console.
type action struct {
	name  string // its path: /g/ID/act/NAME
	title string
	// bound: the command acts on the open turn, and the form carries the
	// turn the page showed (a TURN line): a page left open while the turn
	// was resolved cannot act on the next one.
	bound bool
	// confirm, when set, says what the act will set aside; the act is done
	// only when the form comes back with confirm=yes.
	confirm func(f form, lastTurn int) string
	build   func(f form) (text string, lines map[int]string)
}

// form is a form's values, with the errors found by field.
type form struct {
	values map[string]string
	errs   map[string]string
}

func newForm(values map[string]string) form {
	return form{values: values, errs: map[string]string{}}
}

func (f form) raw(name string) string { return f.values[name] }

// word is a field of one word: letters, digits and - _ . : + /.
func (f form) word(name, what string) string {
	v := strings.TrimSpace(f.values[name])
	switch {
	case v == "":
		f.errs[name] = "give " + what
	case len(v) > 64 || !wordRE.MatchString(v):
		f.errs[name] = fmt.Sprintf("%q is not %s: one word of letters and digits", clip(v), what)
	}
	return v
}

var wordRE = regexp.MustCompile(`^[\p{L}\p{N}_.:+/-]+$`)

// optWord is word when the field is not empty.
func (f form) optWord(name, what string) string {
	if strings.TrimSpace(f.values[name]) == "" {
		return ""
	}
	return f.word(name, what)
}

// line is a field of one line of text without quotes (a reason).
func (f form) line(name, what string, max int) string {
	v := strings.TrimSpace(f.values[name])
	switch {
	case strings.ContainsFunc(v, unicode.IsControl):
		f.errs[name] = what + " must be one line"
	case strings.Contains(v, `"`):
		f.errs[name] = what + ` cannot hold a double quote (")`
	case len(v) > max:
		f.errs[name] = fmt.Sprintf("%s is %d characters long; at most %d", what, len(v), max)
	}
	return v
}

// turn is a field holding a turn number.
func (f form) turn(name string) int {
	v := strings.TrimSpace(f.values[name])
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 100000 {
		f.errs[name] = fmt.Sprintf("%q is not a turn number such as 3", clip(v))
		return 0
	}
	return n
}

// lines is a field of several lines, each of which must start with one of
// keywords (an APPROVE's effects, a RESULT's losses); lines after an
// earlier field's count from first. It returns the lines and records the
// field of each line number.
func (f form) lines(name string, keywords []string, max int) []string {
	v := f.values[name]
	if len(v) > max {
		f.errs[name] = fmt.Sprintf("%d characters; at most %d", len(v), max)
		return nil
	}
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(v, "\r\n", "\n"), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.ContainsFunc(l, unicode.IsControl) {
			f.errs[name] = "a line holds a control character"
			return nil
		}
		first, _, _ := strings.Cut(l, " ")
		ok := false
		for _, k := range keywords {
			ok = ok || strings.EqualFold(first, k)
		}
		if !ok {
			f.errs[name] = fmt.Sprintf("each line must start with %s; %q does not", strings.Join(keywords, ", "), clip(l))
			return nil
		}
		out = append(out, l)
	}
	return out
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// text builds a command's text, recording for each line the field it came
// from (for errors the answer gives "line N").
type text struct {
	b     strings.Builder
	n     int
	field map[int]string
}

func (t *text) add(field, line string) {
	if t.field == nil {
		t.field = map[int]string{}
	}
	t.n++
	t.field[t.n] = field
	t.b.WriteString(line + "\n")
}

func (t *text) done() (string, map[int]string) { return t.b.String(), t.field }

func one(field, line string) (string, map[int]string) {
	var t text
	t.add(field, line)
	return t.done()
}

var effectWords = []string{"TREASURY", "ADD", "REMOVE", "MOVE", "LOYALTY"}

// actions are the console's forms, one for each referee command and two
// for text written as in a mail.
var actions = []action{
	{name: "approve", title: "Approve a request", build: func(f form) (string, map[int]string) {
		var t text
		t.add("token", "APPROVE "+f.word("token", "the request's token, such as R1a2b3c"))
		for _, l := range f.lines("effects", effectWords, 4000) {
			t.add("effects", "  "+l)
		}
		return t.done()
	}},
	{name: "deny", title: "Deny a request", build: func(f form) (string, map[int]string) {
		line := "DENY " + f.word("token", "the request's token, such as R1a2b3c")
		if why := f.line("reason", "the reason", 500); why != "" {
			line += ` "` + why + `"`
		}
		return one("token", line)
	}},
	{name: "breach", title: "Declare a breach of a treaty", build: func(f form) (string, map[int]string) {
		return one("treaty", fmt.Sprintf("BREACH %s %s AGAINST %s", f.word("treaty", "the treaty, such as T1"),
			f.word("offender", "the nation in breach"), f.word("aggrieved", "the nation wronged")))
	}},
	{name: "lift", title: "Lift a treaty penalty", build: func(f form) (string, map[int]string) {
		return one("treaty", fmt.Sprintf("LIFT %s %s AGAINST %s", f.word("treaty", "the treaty, such as T1"),
			f.word("offender", "the nation in breach"), f.word("aggrieved", "the nation wronged")))
	}},
	{name: "extend", title: "Extend the deadline", bound: true, build: func(f form) (string, map[int]string) {
		return one("duration", "DEADLINE EXTEND "+f.word("duration", "a duration such as 2d, 36h or 90m"))
	}},
	{name: "deadline", title: "Set the deadline", bound: true, build: func(f form) (string, map[int]string) {
		line := "DEADLINE SET " + f.word("date", "a date such as 2025-06-08") + " " + f.word("time", "a time such as 18:00")
		if z := f.optWord("zone", "a time zone such as Europe/Berlin"); z != "" {
			line += " " + z
		}
		return one("date", line)
	}},
	{name: "resolve", title: "Resolve the turn now", bound: true, build: func(f form) (string, map[int]string) {
		return one("", "RESOLVE NOW")
	}},
	{name: "rollback", title: "Roll back to a turn", bound: true, confirm: setAside("rollback"), build: func(f form) (string, map[int]string) {
		return one("target", fmt.Sprintf("ROLLBACK %d", f.turn("target")))
	}},
	{name: "rerun", title: "Resolve a turn again", confirm: setAside("rerun"), build: func(f form) (string, map[int]string) {
		return one("target", fmt.Sprintf("RERUN %d", f.turn("target")))
	}},
	{name: "resend", title: "Send a report again", build: func(f form) (string, map[int]string) {
		line := "RESEND " + f.word("nation", "the nation")
		if strings.TrimSpace(f.raw("target")) != "" {
			line += fmt.Sprintf(" %d", f.turn("target"))
		}
		return one("nation", line)
	}},
	{name: "requeue", title: "Requeue the failed mail", build: func(f form) (string, map[int]string) {
		return one("", "REQUEUE")
	}},
	{name: "password", title: "Reset a nation's password", build: func(f form) (string, map[int]string) {
		return one("password", "RESET PASSWORD "+f.word("nation", "the nation")+" "+f.word("password", "the new password, one word"))
	}},
	{name: "table", title: "Fight a battle on the table", bound: true, build: func(f form) (string, map[int]string) {
		return one("hex", "BATTLE "+f.word("hex", "the battle's hex, such as 0502")+" TABLE")
	}},
	{name: "result", title: "Enter a tabletop result", build: buildResult},
	{name: "rule", title: "Record a ruling", bound: true, build: func(f form) (string, map[int]string) {
		v := strings.TrimSpace(f.values["ruling"])
		if w, rest, ok := strings.Cut(v, " "); ok && strings.EqualFold(w, "RULE") {
			v = strings.TrimSpace(rest) // the word RULE typed again
		}
		switch {
		case v == "":
			f.errs["ruling"] = "give the ruling, such as COURIERS varn +1"
		case strings.ContainsFunc(v, unicode.IsControl):
			f.errs["ruling"] = "the ruling must be one line"
		case len(v) > 500:
			f.errs["ruling"] = fmt.Sprintf("the ruling is %d characters long; at most 500", len(v))
		}
		return one("ruling", "RULE "+v)
	}},
	{name: "commands", title: "Referee commands as in a mail", build: func(f form) (string, map[int]string) {
		v := strings.ReplaceAll(f.raw("text"), "\r\n", "\n")
		if strings.TrimSpace(v) == "" {
			f.errs["text"] = "write the commands, one a line, as in a referee's mail"
		}
		if len(v) > 64<<10 {
			f.errs["text"] = "at most 64 KB"
		}
		return v, nil
	}},
}

// buildResult writes a battle's RESULT form from its fields, each line
// remembered with its field so that an error on it is shown there.
func buildResult(f form) (string, map[int]string) {
	var t text
	t.add("hex", "RESULT "+f.word("hex", "the battle's hex"))
	t.add("outcome", "OUTCOME "+f.word("outcome", "the outcome"))
	if w := f.optWord("winner", "a nation, or NONE"); w != "" {
		t.add("winner", "WINNER "+w)
	}
	for _, fl := range []struct{ name, word string }{{"losses", "LOSSES"}, {"hits", "HITS"}, {"generals", "GENERAL"}, {"guns", "GUNS"}} {
		for _, l := range f.lines(fl.name, []string{fl.word}, 8000) {
			t.add(fl.name, l)
		}
	}
	if d := f.optWord("days", "a number of days"); d != "" {
		t.add("days", "DAYS "+d)
	}
	t.add("", "END")
	return t.done()
}

// setAside says what a ROLLBACK or RERUN of the form's turn sets aside.
func setAside(verb string) func(f form, lastTurn int) string {
	return func(f form, lastTurn int) string {
		n, err := strconv.Atoi(strings.TrimSpace(f.raw("target")))
		if err != nil || n < 1 {
			return ""
		}
		later := ""
		switch {
		case n > lastTurn:
			return fmt.Sprintf("Turn %d has not been resolved (the last resolved is %d): the command will be refused.", n, lastTurn)
		case n == lastTurn && verb == "rollback":
			later = fmt.Sprintf("turn %d", n)
		default:
			later = fmt.Sprintf("turns %d to %d", n, lastTurn)
		}
		if verb == "rollback" {
			return fmt.Sprintf("ROLLBACK %d sets %s aside (voided, kept for the record) and opens turn %d again with its stored sheets "+
				"and rulings; it waits until RESOLVE NOW, RERUN %d or a new deadline. The sheets sent for the turn open now stay stored but no longer count.",
				n, later, n, n)
		}
		return fmt.Sprintf("RERUN %d resolves turn %d again from its stored orders, rulings and dice. If the result differs, the earlier record "+
			"is voided (kept), corrected reports go to every nation, and the turns after it (up to %d) are set aside.", n, n, lastTurn)
	}
}

// actionOf returns the action of a name.
func actionOf(name string) (action, bool) {
	for _, a := range actions {
		if a.name == name {
			return a, true
		}
	}
	return action{}, false
}

// commandText builds the text of an act from its form: the TURN line of a
// bound act, then its command. errs holds the fields in error (nothing is
// to be run then); lines gives the field of each line of the text.
func commandText(a action, values map[string]string) (text string, lines map[int]string, errs map[string]string) {
	f := newForm(values)
	prefix := ""
	if a.bound {
		if n := f.turn("turn"); n > 0 {
			prefix = fmt.Sprintf("TURN %d\n", n)
		}
	}
	body, fields := a.build(f)
	if len(f.errs) > 0 {
		return "", nil, f.errs
	}
	if prefix != "" && fields != nil {
		shifted := map[int]string{}
		for l, fl := range fields {
			shifted[l+1] = fl
		}
		fields = shifted
	}
	return prefix + body, fields, nil
}

// unnumbered is the answer as the desk shows it: without the "line N: " a
// mail's answer starts with, since the form the referee filled in has no
// lines to count (and the TURN line the desk adds would make them wrong).
// The errors under the fields keep the numbers (fieldErrors).
func unnumbered(answer []string) []string {
	out := make([]string, len(answer))
	for i, a := range answer {
		out[i] = lineRE.ReplaceAllString(a, "")
	}
	return out
}

// lineRE finds the line an answer is about: "line 4: …".
var lineRE = regexp.MustCompile(`^line (\d+): `)

// fieldErrors gives each answer line that names a line of the text to the
// field that line came from.
func fieldErrors(answer []string, lines map[int]string) map[string]string {
	out := map[string]string{}
	for _, a := range answer {
		m := lineRE.FindStringSubmatch(a)
		// "line 4: APPROVE … — recorded" is a command done; "— REFUSED: …",
		// "ERROR: …" and a RESULT's "line 2: "OUTCOME x": …" are not.
		if m == nil || strings.Contains(a, " — ") && !strings.Contains(a, "REFUSED") && !strings.Contains(a, "ERROR") {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if fl := lines[n]; fl != "" {
			if out[fl] != "" {
				out[fl] += "\n"
			}
			out[fl] += a
		}
	}
	return out
}
