package parser

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Severity tells errors (the order is not carried out), warnings (it is, but
// probably not as the player hoped) and notes (information) apart.
type Severity int

// The severities.
const (
	Error Severity = iota
	Warning
	Note
)

// String returns "error", "warning" or "note".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// Diagnostic is one message about a sheet: where, what was read, what was
// expected and what to do.
type Diagnostic struct {
	// Line is the sheet line the problem is on (the line number in the mail
	// as received); 0 for the sheet as a whole.
	Line int
	// EndLine is the last line of a statement that spans several lines (0
	// otherwise).
	EndLine  int
	Severity Severity
	// Source is the statement as read, after the input clean-up.
	Source string `json:",omitempty"`
	// Read is the word the problem was found at ("" when there is none).
	Read string `json:",omitempty"`
	// Message says what is wrong and what was expected.
	Message string
	// Hint says what to do about it.
	Hint string `json:",omitempty"`
}

// Header is a sheet's header block: GAME, NATION, PASSWORD and TURN.
type Header struct {
	// Found is false when the mail holds no sheet.
	Found bool
	// Line is the GAME line.
	Line int
	Game string
	// Nation is the nation as written; NationID the nation it names (empty
	// when the vocabulary knows no such nation).
	Nation   string
	NationID game.NationID
	// Password is the password as written (case matters); HasPassword tells
	// an empty password from a missing one.
	Password    string `json:"-"`
	HasPassword bool
	Turn        int
	// Lines holds the line each field was read on, by keyword ("TURN").
	Lines map[string]int
	// TurnRead reports a TURN line whose number was read (TURN 0 included,
	// so that it is answered with the turn orders are taken for).
	TurnRead bool `json:",omitempty"`
	// Problems are the errors found in the header (also in the sheet's
	// Diagnostics).
	Problems []Diagnostic `json:",omitempty"`
}

// Statement is one statement of a sheet: an engine order, or one of the
// sheet-level forms the engine does not see (treaty, attestation, request,
// password change). Exactly one of the pointer fields or Order is set.
type Statement struct {
	// Line and EndLine are the first and last sheet lines it was read from.
	Line, EndLine int
	// Source is the statement as read, after the input clean-up.
	Source   string
	Order    engine.Order    `json:",omitempty"`
	Treaty   *Treaty         `json:",omitempty"`
	Attest   *Attest         `json:",omitempty"`
	Lift     *Lift           `json:",omitempty"`
	Request  *Request        `json:",omitempty"`
	Withdraw *Withdraw       `json:",omitempty"`
	Password *PasswordChange `json:",omitempty"`
	Final    *Final          `json:",omitempty"`
	Forecast *ForecastChoice `json:",omitempty"`
}

// Kind returns the statement's keyword: the engine order's Kind, or
// "treaty", "attest", "lift", "request", "withdraw", "password", "final".
func (s *Statement) Kind() string {
	switch {
	case s.Order != nil:
		return s.Order.Kind()
	case s.Treaty != nil:
		return "treaty"
	case s.Attest != nil:
		return "attest"
	case s.Lift != nil:
		return "lift"
	case s.Request != nil:
		return "request"
	case s.Withdraw != nil:
		return "withdraw"
	case s.Password != nil:
		return "password"
	case s.Final != nil:
		return "final"
	case s.Forecast != nil:
		return "forecast"
	}
	return ""
}

// Treaty is a public treaty's text sent for publication (rules, "Public
// Treaties"). It is published once every party has attested it.
type Treaty struct {
	Title   string
	Parties []game.NationID
	// Text is the treaty's text, lines joined with "\n".
	Text string
}

// Attest is a nation's attestation of a treaty sent by another party.
type Attest struct {
	Treaty string // "T3"
}

// Request asks the referee to rule on a special action ("You may ask me
// about performing special actions"). Token is set by Check: the referee
// answers APPROVE token or DENY token.
type Request struct {
	Text  string
	Token string `json:",omitempty"`
}

// Withdraw takes back a request (or a SPECIAL) of the nation's sheet in
// force, by its token: without it a new sheet carries the earlier sheet's
// pending and approved requests over (carry.go).
type Withdraw struct {
	Token string // "R1a2b3c", "S1a2b3c"
}

// Final marks the sheet as the nation's last orders for the turn (a FINAL
// line; the word FINAL in the mail's subject does the same). When every
// nation's sheet in force is marked final, the turn is resolved at once.
type Final struct{}

// ForecastChoice is a FORECAST ON or FORECAST OFF line: whether the answer
// to the nation's sheets carries the forecast of the turn (forecast/).
type ForecastChoice struct {
	On bool
}

// PasswordChange sets the nation's password from the next sheet on.
type PasswordChange struct {
	New string `json:"-"`
}

// Sheet is an order sheet as read, before it is checked against the game.
type Sheet struct {
	Header     Header
	Statements []Statement
	// Diagnostics are the problems found while reading, in line order.
	Diagnostics []Diagnostic
	// EndLine is the END line (0 when the sheet has none).
	EndLine int
}

// Parse reads an order sheet from a mail body: it cleans the text, finds the
// sheet, reads the header and every statement. A statement with an error is
// left out of Statements and reported in Diagnostics; the others are kept.
// The vocabulary may be nil.
func Parse(mail string, v *Vocabulary) *Sheet {
	ex := extract(mail)
	sh := &Sheet{Diagnostics: ex.diags, EndLine: ex.endLine}
	if !ex.found {
		return sh
	}
	var problems []Diagnostic
	sh.Header = parseHeader(ex.headerLines, v, &problems)
	sh.Header.Problems = problems
	sh.Diagnostics = append(sh.Diagnostics, problems...)
	var prev *logical
	for i := 0; i < len(ex.body); i++ {
		lg := ex.body[i]
		st, d := parseStatement(lg, v, prev)
		if d != nil && d.Read == "" && i+1 < len(ex.body) && joinable(lg, ex.body[i+1]) {
			// The statement ran out of words and the next line cannot
			// start one: a hard-wrapped order. Read the two as one if
			// that makes a good statement.
			j := joinLogical(lg, ex.body[i+1])
			if st2, d2 := parseStatement(j, v, prev); d2 == nil {
				st, d, lg = st2, nil, j
				i++
			}
		}
		if d != nil {
			sh.Diagnostics = append(sh.Diagnostics, *d)
		} else {
			sh.Statements = append(sh.Statements, st)
		}
		prev = lg
	}
	sortDiagnostics(sh.Diagnostics)
	return sh
}

// ParseHeader reads only the header of an order sheet in a mail body: it
// finds the sheet as Parse does and reads its GAME, NATION, PASSWORD and
// TURN lines, and nothing after them, so that finding which text of a mail
// holds a sheet, and whose it is, costs a pass over its lines however long
// the body. The Sheet it returns has Parse's Header, no Statements, and as
// Diagnostics only the header's problems (or that no sheet was found).
func ParseHeader(mail string, v *Vocabulary) *Sheet {
	ex, _, _ := extractHeader(mail, startsWithKeyword)
	sh := &Sheet{Diagnostics: ex.diags}
	if !ex.found {
		return sh
	}
	var problems []Diagnostic
	sh.Header = parseHeader(ex.headerLines, v, &problems)
	sh.Header.Problems = problems
	sh.Diagnostics = append(sh.Diagnostics, problems...)
	return sh
}

// joinable reports whether next directly follows lg (no blank line between)
// and does not start with a keyword.
func joinable(lg, next *logical) bool {
	return !lg.isTreaty && !next.isTreaty && next.first() == lg.last()+1 && !startsWithKeyword(next.text)
}

// joinLogical joins two logical lines into one.
func joinLogical(a, b *logical) *logical {
	j := &logical{text: a.text + " ", segs: append([]segment(nil), a.segs...)}
	for _, s := range b.segs {
		j.segs = append(j.segs, segment{off: len(j.text) + s.off, line: s.line})
	}
	j.text += b.text
	return j
}

// parseHeader reads the header block's fields; any may be on one line.
func parseHeader(lines []physLine, v *Vocabulary, diags *[]Diagnostic) Header {
	h := Header{Found: true, Line: lines[0].num, Lines: map[string]int{}}
	for _, pl := range lines {
		f := headerWords(pl.text)
		source := redactPassword(f)
		for i := 0; i < len(f); i++ {
			kw := strings.ToUpper(strings.TrimSuffix(f[i], ":"))
			bad := func(msg, hint string) {
				*diags = append(*diags, Diagnostic{Line: pl.num, Severity: Error, Source: source,
					Read: f[i], Message: msg, Hint: hint})
			}
			if !contains(headerKeywords, kw) {
				bad(fmt.Sprintf("expected GAME, NATION, PASSWORD or TURN in the header, read %q", f[i]),
					"Write the header as GAME name, NATION name, PASSWORD word, TURN number.")
				break
			}
			if _, dup := h.Lines[kw]; dup {
				bad(fmt.Sprintf("%s is given twice in the header", kw), "Give each header field once.")
				break
			}
			h.Lines[kw] = pl.num
			if i+1 >= len(f) {
				if kw == "PASSWORD" {
					h.HasPassword = true
					continue
				}
				bad(fmt.Sprintf("expected a value after %s, read the end of the line", kw),
					fmt.Sprintf("Write %s and its value on one line, e.g. %s.", kw, headerExample[kw]))
				break
			}
			i++
			val := f[i]
			switch kw {
			case "GAME":
				h.Game = val
			case "NATION":
				h.Nation = val
				id, amb := v.Nation(val)
				switch {
				case id != "":
					h.NationID = id
				case len(amb) > 0:
					bad(fmt.Sprintf("NATION %q could be %s", val, orList(amb)), "Write the nation in full.")
				default:
					bad(fmt.Sprintf("no nation %q in this game%s", val, didYouMean(suggest(val, v.NationIDs()))),
						"Write your nation as it is printed on your report: "+orList(v.NationIDs())+".")
				}
			case "PASSWORD":
				h.Password, h.HasPassword = val, true
			case "TURN":
				n, err := strconv.Atoi(strings.TrimSuffix(val, ","))
				// A turn's name: "May 1752", "1752 year-end".
				if tn, used, ok := v.turnByName(f[i:]); ok {
					n, err = tn, nil
					i += used - 1
				}
				if err != nil || n < 0 || n > 100000 {
					bad(fmt.Sprintf("expected a turn number after TURN, read %q", val),
						"Write the number or the name of the turn these orders are for, as printed on your report: TURN 3, or TURN May 1752.")
					break
				}
				h.Turn, h.TurnRead = n, true
			}
		}
	}
	return h
}

// headerWords splits a header line into words; a word starting with '#'
// starts a comment, except where a password is expected (a password may
// start with '#').
func headerWords(s string) []string {
	f := splitHeaderColons(strings.Fields(s))
	for i, w := range f {
		afterPassword := i > 0 && strings.EqualFold(strings.TrimSuffix(f[i-1], ":"), "PASSWORD")
		if strings.HasPrefix(w, "#") && !afterPassword {
			return f[:i]
		}
	}
	return f
}

// redactPassword prints header words with the password replaced by ****, so
// that no reply ever repeats it.
func redactPassword(f []string) string {
	out := make([]string, len(f))
	for i, w := range f {
		out[i] = w
		if i > 0 && strings.EqualFold(strings.TrimSuffix(f[i-1], ":"), "PASSWORD") {
			out[i] = "****"
		}
	}
	return strings.Join(out, " ")
}

var headerExample = map[string]string{"GAME": "GAME syw", "NATION": "NATION eisenmark", "TURN": "TURN 3"}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// failure stops the reading of one statement; parseStatement recovers it.
type failure struct{ d Diagnostic }

// parser reads one statement.
type parser struct {
	v     *Vocabulary
	lg    *logical
	items []item
	pos   int
	st    *Statement
}

func (p *parser) peek() item { return p.items[p.pos] }

func (p *parser) next() item {
	it := p.items[p.pos]
	if it.typ != itemEOL && it.typ != itemError {
		p.pos++
	}
	return it
}

// fail stops the statement with an error at item it.
func (p *parser) fail(it item, msg, hint string) {
	d := Diagnostic{Line: p.lg.lineAt(it.pos), Severity: Error, Source: p.lg.text, Message: msg, Hint: hint}
	if it.typ != itemEOL {
		d.Read = it.String()
	}
	if it.typ == itemError {
		// A lexical error explains itself better than what the grammar
		// expected at that point.
		d.Message = "read " + it.val
		d.Hint = lexHints[it.val]
		d.Read = clip(strings.TrimSpace(p.lg.text[it.pos:]), 24)
	}
	if l := p.lg.last(); l != d.Line {
		d.EndLine = l
	}
	panic(failure{d})
}

// expected stops the statement: "expected X, read Y".
func (p *parser) expected(it item, what, hint string) {
	p.fail(it, fmt.Sprintf("expected %s, read %s", what, it.quoted()), hint)
}

// keyword reads one of the options (by unique prefix, any case).
func (p *parser) keyword(hint string, options ...string) string {
	it := p.next()
	if it.typ == itemWord {
		kw, amb := match(it.val, options)
		if kw != "" {
			return kw
		}
		if len(amb) > 0 {
			p.fail(it, fmt.Sprintf("%s could be %s", it.quoted(), orList(amb)), "Write more of the word. "+hint)
		}
		p.fail(it, fmt.Sprintf("expected %s, read %s%s", orList(options), it.quoted(), didYouMean(suggest(it.val, options))), hint)
	}
	p.expected(it, orList(options), hint)
	return ""
}

// accept reads an optional keyword.
func (p *parser) accept(options ...string) (string, bool) {
	it := p.peek()
	if it.typ != itemWord {
		return "", false
	}
	if kw, _ := match(it.val, options); kw != "" {
		p.next()
		return kw, true
	}
	return "", false
}

// acceptExact reads an optional keyword written in full.
func (p *parser) acceptExact(options ...string) (string, bool) {
	it := p.peek()
	if it.typ != itemWord {
		return "", false
	}
	for _, o := range options {
		if fold(o) == fold(it.val) {
			p.next()
			return o, true
		}
	}
	return "", false
}

func (p *parser) acceptComma() bool {
	if p.peek().typ == itemComma {
		p.next()
		return true
	}
	return false
}

// end expects the end of the statement.
func (p *parser) end(after string) {
	it := p.peek()
	if it.typ != itemEOL {
		p.fail(it, fmt.Sprintf("expected the end of the order after %s, read %s", after, it.quoted()),
			"Remove the extra words, or put them in a comment after #.")
	}
}

func (p *parser) atEnd() bool { return p.peek().typ == itemEOL }

var forceIDPattern = regexp.MustCompile(`^[A-Za-z]{1,3}[0-9]{1,5}$`)

// force reads a force ID ("E2", any case).
func (p *parser) force(what string) game.ForceID {
	it := p.next()
	if it.typ == itemWord && forceIDPattern.MatchString(it.val) {
		return game.ForceID(strings.ToUpper(it.val))
	}
	p.expected(it, what+" such as E2", "Name the force by its ID as printed on your report.")
	return ""
}

// isForce reports whether the next item looks like a force ID.
func (p *parser) isForce() bool {
	it := p.peek()
	return it.typ == itemWord && forceIDPattern.MatchString(it.val)
}

// number reads a whole number from 0 to max.
func (p *parser) number(what string, maxN int) int {
	it := p.next()
	if it.typ == itemNumber {
		n, err := strconv.Atoi(it.val)
		if err == nil && n <= maxN {
			return n
		}
		p.fail(it, fmt.Sprintf("%s %s is too large (at most %d)", what, it.val, maxN), "Check the number.")
	}
	p.expected(it, what, "Write the number in digits: 24, not twenty-four.")
	return 0
}

// hexOf reads the item as a hex name.
func (p *parser) hexOf(it item) game.Hex {
	if it.typ == itemNumber {
		h, err := game.ParseHex(it.val)
		if err == nil {
			return h
		}
		p.fail(it, fmt.Sprintf("read %s: a hex is four digits, column then row, such as 0812", it.quoted()),
			"Write the hex as printed on the map.")
	}
	p.expected(it, "a hex such as 0812", "Write the hex as printed on the map: column then row, four digits.")
	return game.Hex{}
}

// name reads a name: a quoted string, or up to maxWords words matched
// greedily against known (the longest run of words that is a known name
// wins); unknown single words are returned as written.
func (p *parser) name(maxWords int, known func(string) bool) (string, item, bool) {
	it := p.peek()
	switch it.typ {
	case itemString:
		p.next()
		return it.val, it, known != nil && known(it.val)
	case itemWord:
	default:
		return "", it, false
	}
	if known != nil {
		for n := maxWords; n >= 1; n-- {
			words, ok := p.wordsAhead(n)
			if !ok {
				continue
			}
			if cand := strings.Join(words, " "); known(cand) {
				p.pos += n
				return cand, it, true
			}
		}
	}
	p.next()
	return it.val, it, false
}

// wordsAhead returns the next n items if all are words or numbers.
func (p *parser) wordsAhead(n int) ([]string, bool) {
	if p.pos+n > len(p.items) {
		return nil, false
	}
	out := make([]string, n)
	for i := 0; i < n; i++ {
		it := p.items[p.pos+i]
		if it.typ != itemWord && (it.typ != itemNumber || i == 0) {
			return nil, false
		}
		out[i] = it.val
	}
	return out, true
}

// city reads a city of the map by name (quoted, or its words unquoted).
func (p *parser) city() string {
	if p.v == nil || len(p.v.cities) == 0 {
		name, it, _ := p.name(1, nil)
		if name == "" {
			p.expected(it, "a city", "Name the city as it is printed on the map.")
		}
		return name
	}
	start := p.pos
	name, it, ok := p.name(p.v.cityWords, func(s string) bool { _, ok := p.v.City(s); return ok })
	if ok {
		c, _ := p.v.City(name)
		return c.Name
	}
	if name == "" {
		p.expected(it, "a city", "Name the city as it is printed on the map; put a name of several words in quotes.")
	}
	// Suggest against the same number of words as the nearest city has.
	var sugg []string
	for n := 1; n <= p.v.cityWords; n++ {
		p.pos = start
		if words, ok := p.wordsAhead(n); ok {
			for _, s := range suggest(strings.Join(words, " "), p.v.cities) {
				if !contains(sugg, s) {
					sugg = append(sugg, s)
				}
			}
		}
	}
	if len(sugg) > 3 {
		sugg = sugg[:3]
	}
	p.fail(it, fmt.Sprintf("no city %s on the map%s", quoteName(name), didYouMean(sugg)),
		"Name the city as it is printed on the map; put a name of several words in quotes.")
	return ""
}

// hexOrCity reads a hex, or a city standing for its hex.
func (p *parser) hexOrCity() game.Hex {
	it := p.peek()
	if it.typ == itemNumber {
		p.next()
		return p.hexOf(it)
	}
	if it.typ != itemWord && it.typ != itemString {
		p.expected(it, "a hex such as 0812 or a city", "Write the hex as printed on the map, or the city's name.")
	}
	name := p.city()
	c, ok := p.v.City(name)
	if !ok {
		p.fail(it, fmt.Sprintf("cannot tell where %s is without the map", quoteName(name)), "Write the hex instead.")
	}
	return c.Hex
}

// nation reads a nation by ID or name.
func (p *parser) nation() game.NationID {
	it := p.next()
	if it.typ != itemWord && it.typ != itemString {
		p.expected(it, "a nation", "Name the nation: "+orList(p.v.NationIDs())+".")
	}
	id, amb := p.v.Nation(it.val)
	if id != "" {
		return id
	}
	if len(amb) > 0 {
		p.fail(it, fmt.Sprintf("%s could be %s", it.quoted(), orList(amb)), "Write more of the nation's name.")
	}
	p.fail(it, fmt.Sprintf("no nation %s in this game%s", it.quoted(), didYouMean(suggest(it.val, p.v.NationIDs()))),
		"Name the nation: "+orList(p.v.NationIDs())+".")
	return ""
}

// leader reads a leader's ID (a word, a quoted name, or a known multiword
// ID).
func (p *parser) leader() string {
	words := 1
	if p.v != nil {
		words = max(1, p.v.leadWords)
	}
	name, it, ok := p.name(words, func(s string) bool { _, ok := p.v.Leader(s); return ok })
	if name == "" {
		p.expected(it, "a general's or admiral's name", "Name the leader as printed on your report.")
	}
	if ok {
		l, _ := p.v.Leader(name)
		return l.ID
	}
	return name
}

// text reads free text: a quoted string, or the rest of the line as written.
func (p *parser) text(what string) string {
	it := p.peek()
	if it.typ == itemString {
		p.next()
		p.end(what)
		if strings.TrimSpace(it.val) == "" {
			p.fail(it, "the text is empty", "Write what you ask for between the quotes.")
		}
		return strings.TrimSpace(it.val)
	}
	if it.typ == itemEOL {
		p.expected(it, "the text of the "+what+" in quotes", `Write the text in double quotes: SPECIAL "…".`)
	}
	if it.typ == itemError {
		p.fail(it, "the text of the "+what+" has a quote that is never closed", `Close the quote at the end of the text.`)
	}
	rest := strings.TrimSpace(p.lg.text[it.pos:])
	if i := strings.Index(rest, "#"); i >= 0 && !strings.Contains(rest[:i], `"`) {
		rest = strings.TrimSpace(rest[:i])
	}
	p.pos = len(p.items) - 1
	return rest
}

// redactedPasswordChange stands for a PASSWORD CHANGE line wherever the
// statement would be shown.
const redactedPasswordChange = "PASSWORD CHANGE ****"

// parseStatement reads one logical line. It returns the statement, or the
// error that stopped it.
func parseStatement(lg *logical, v *Vocabulary, prev *logical) (st Statement, diag *Diagnostic) {
	p := &parser{v: v, lg: lg, items: lex(lg.text)}
	st = Statement{Line: lg.first(), EndLine: lg.last(), Source: lg.text}
	p.st = &st
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			diag = &f.d
			if st.Source == redactedPasswordChange {
				diag.Source, diag.Read = st.Source, ""
			}
		}
	}()
	it := p.peek()
	contHint := "Start each order with its keyword. If this line is not an order (your name, a remark), put a line END after your last order, or # before the remark."
	// A blank line always ends an order, so joining is only offered for the
	// line right after the one above.
	if prev != nil && prev.last()+1 == lg.first() {
		contHint = fmt.Sprintf("If this line continues the order on line %d, start it with a space or end line %d with \\.", prev.last(), prev.last())
	}
	if it.typ != itemWord {
		p.expected(it, "an order keyword such as MOVE or STANCE", contHint)
	}
	kw, amb := match(it.val, orderKeywords)
	if kw == "" {
		if msg, hint, ok := keywordCorrection(lg.text, p.items); ok {
			p.fail(it, msg, hint)
		}
		if h, _ := match(it.val, headerKeywords); h != "" {
			p.fail(it, fmt.Sprintf("%s belongs to the header, which must come before the first order", h),
				"Move the header lines (GAME, NATION, PASSWORD, TURN) to the top of the sheet.")
		}
		if len(amb) > 0 {
			p.fail(it, fmt.Sprintf("%s could be %s", it.quoted(), orList(amb)), "Write more of the keyword.")
		}
		if s := suggest(it.val, orderKeywords); len(s) > 0 {
			p.fail(it, fmt.Sprintf("expected an order keyword, read %s%s", it.quoted(), didYouMean(s)),
				"Correct the keyword; the orders reference lists them all.")
		}
		p.fail(it, fmt.Sprintf("expected an order keyword such as MOVE or STANCE, read %s", it.quoted()), contHint)
	}
	p.next()
	if kw == "PASSWORD" {
		// The new password is never repeated in a reply.
		st.Source = redactedPasswordChange
	}
	statementParsers[kw](p)
	p.end(kw)
	return st, nil
}

// set records the order a statement parser built.
func (p *parser) set(o engine.Order) { p.st.Order = o }

// at is the engine.At of the statement.
func (p *parser) at() engine.At { return engine.At{Line: p.st.Line} }

// statementParsers maps each keyword to its grammar (grammar.go).
var statementParsers map[string]func(*parser)

func sortDiagnostics(d []Diagnostic) {
	slices.SortStableFunc(d, func(a, b Diagnostic) int {
		switch {
		case lessDiag(a, b):
			return -1
		case lessDiag(b, a):
			return 1
		}
		return 0
	})
}

// lessDiag orders diagnostics by line, those about the sheet as a whole
// (line 0) last, errors before warnings before notes on a line.
func lessDiag(a, b Diagnostic) bool {
	if a.Line != b.Line {
		if a.Line == 0 || b.Line == 0 {
			return b.Line == 0
		}
		return a.Line < b.Line
	}
	return a.Severity < b.Severity
}

// lexHints says what to do about each lexical error.
var lexHints = map[string]string{
	msgOpenQuote: "Close the quote with a second \" (the text may run over several lines), or remove it.",
	msgBadEncode: "Retype the line; your mail program may have sent it in an encoding other than UTF-8.",
}

// clip shortens s to at most n runes, marking the cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// quoteName prints a name in double quotes for messages.
func quoteName(s string) string { return `"` + s + `"` }
