package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the first stage: it turns a mail body into the lines of one
// order sheet. It undoes what mail clients do to text (normalize), finds the
// sheet inside the mail (findHeader), strips reply quoting to the sheet's
// depth, stops at END or a signature, and joins wrapped lines into logical
// lines (splitBody) that the lexer reads one at a time.

// normalize makes a mail body plain: no byte-order marks or zero-width
// characters, LF line ends (CRLF, lone CR and the Unicode line separators all
// become LF), every Unicode space and tab a plain space, smart quotes and
// dashes their ASCII forms (also when Windows-1252 text was decoded as
// ISO-8859-1 and they arrive as C1 controls), other control characters
// spaces, and invalid UTF-8 the replacement character (which the lexer then
// reports).
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			b.WriteByte('\n')
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case r == '\n', r == '\u2028', r == '\u2029':
			b.WriteByte('\n')
		case r == '\uFEFF', r == '\u200B', r == '\u200C', r == '\u200D', r == '\u2060', r == '\u00AD':
			// byte-order mark, zero-width spaces and joiners, soft hyphen: dropped
		case r == '\t':
			b.WriteByte(' ')
		case r == '\u2018', r == '\u2019', r == '\u201A', r == '\u201B', r == '\u2032', r == '\u00B4', r == '`':
			b.WriteByte('\'')
		case r == '\u201C', r == '\u201D', r == '\u201E', r == '\u201F', r == '\u2033', r == '\u00AB', r == '\u00BB':
			b.WriteByte('"')
		case r >= '\u2010' && r <= '\u2015', r == '\u2212', r == '\uFE58', r == '\uFE63', r == '\uFF0D':
			b.WriteByte('-')
		case r == '\u2026', r == '\u0085':
			b.WriteString("...")
		case r >= '\u0091' && r <= '\u0097':
			// Windows-1252 punctuation in a mail labelled ISO-8859-1 arrives
			// as these C1 controls: read them as the quotes and dashes meant.
			b.WriteString(c1Punctuation[r-'\u0091'])
		case unicode.IsSpace(r), unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		case unicode.IsControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// c1Punctuation is what U+0091 to U+0097 stand for when Windows-1252 text
// was decoded as ISO-8859-1: ' ' " " • – —.
var c1Punctuation = [...]string{"'", "'", `"`, `"`, "*", "-", "-"}

// maxJoin is the most physical lines joined into one statement: no order is
// longer, and the cap keeps a hostile mail from costing quadratic time.
const maxJoin = 40

// continuationWords never begin an order but often begin the second half of
// a wrapped one: a line starting with one of them continues the line before.
var continuationWords = map[string]bool{
	"to": true, "at": true, "as": true, "into": true, "in": true, "with": true, "from": true,
	"if": true, "odds": true, "parties": true, "and": true, "general": true, "admiral": true,
}

// dequote strips up to max levels of reply quoting ("> ", ">>", "> > ") from
// the start of a line and returns the rest and the levels stripped. A space
// after each '>' goes with it; spaces before a '>' are dropped only when a '>'
// follows them.
func dequote(s string, max int) (string, int) {
	depth := 0
	for depth < max {
		t := strings.TrimLeft(s, " ")
		if !strings.HasPrefix(t, ">") {
			break
		}
		s = t[1:]
		s = strings.TrimPrefix(s, " ")
		depth++
	}
	return s, depth
}

// physLine is one line of the mail after normalisation.
type physLine struct {
	num   int    // 1-based line number in the mail as received
	text  string // quoting stripped to the sheet's depth, trailing spaces removed
	depth int    // quote levels of the line as received
}

// logical is one statement as the parser sees it: one physical line, or
// several joined by the continuation rule; for a TREATY, the lines of its text
// block too.
type logical struct {
	text string    // the joined statement text
	segs []segment // where each physical line starts in text
	// block is a treaty's text lines (TREATY … TEXT … ENDTREATY), blockLines
	// their line numbers; blockOpen is set when no ENDTREATY closed it.
	block      []string
	blockLines []int
	blockOpen  bool
	isTreaty   bool
}

// segment maps an offset in a logical line to the physical line it came from.
type segment struct {
	off  int
	line int
}

func (l *logical) first() int { return l.segs[0].line }

func (l *logical) last() int {
	if n := len(l.blockLines); n > 0 {
		return l.blockLines[n-1]
	}
	return l.segs[len(l.segs)-1].line
}

// lineAt returns the physical line of an offset in the logical text.
func (l *logical) lineAt(off int) int {
	line := l.segs[0].line
	for _, s := range l.segs {
		if s.off > off {
			break
		}
		line = s.line
	}
	return line
}

// firstWord returns the first space-delimited word of s, lower-cased, cut at
// a colon ("Game:" and "Game:syw" → "game").
func firstWord(s string) string {
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		s = s[:i]
	}
	return fold(s)
}

// headerFields splits s at spaces, stopping at a '#' that starts a word.
func headerFields(s string) []string {
	f := strings.Fields(s)
	for i, w := range f {
		if strings.HasPrefix(w, "#") {
			return f[:i]
		}
	}
	return f
}

// splitHeaderColons reads the colons players put after header keywords the
// way they meant them: "TURN:3" is TURN 3, and in "Turn : 3" the lone colon
// goes with the keyword. Other words are left as written (a password may
// hold a colon).
func splitHeaderColons(f []string) []string {
	out := make([]string, 0, len(f)+2)
	for i := 0; i < len(f); i++ {
		w := f[i]
		if kw, val, ok := strings.Cut(w, ":"); ok && kw != "" && isHeaderKeyword(kw) && (i == 0 || !isHeaderKeyword(strings.TrimSuffix(f[i-1], ":"))) {
			out = append(out, kw+":")
			if val != "" {
				out = append(out, val)
			}
			continue
		}
		if w == ":" && len(out) > 0 && isHeaderKeyword(strings.TrimSuffix(out[len(out)-1], ":")) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func isHeaderKeyword(w string) bool {
	for _, kw := range headerKeywords {
		if strings.EqualFold(w, kw) {
			return true
		}
	}
	return false
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// headerKeywords are the words of the header block.
var headerKeywords = []string{"GAME", "NATION", "PASSWORD", "TURN"}

// isHeaderLine reports a line that belongs to the header block: NATION, TURN
// or PASSWORD (but not PASSWORD CHANGE, which is an order).
func isHeaderLine(s string) bool {
	switch firstWord(s) {
	case "nation", "turn":
		return true
	case "password":
		f := headerFields(s)
		return !(len(f) >= 2 && fold(f[1]) == "change")
	}
	return false
}

// findHeader picks the line that starts the sheet: a GAME line followed, on
// the same line or within the next few lines, by NATION, PASSWORD or TURN.
// Of several such lines the least quoted wins (the player's own text, not the
// sheet quoted from an earlier mail), and of those the first.
func findHeader(lines []string) (idx, depth int) {
	idx, depth = -1, 0
	for i, raw := range lines {
		text, d := dequote(raw, 1<<30)
		if firstWord(text) != "game" {
			continue
		}
		if !looksLikeHeader(lines, i, d) {
			continue
		}
		if idx < 0 || d < depth {
			idx, depth = i, d
		}
	}
	return idx, depth
}

func looksLikeHeader(lines []string, i, d int) bool {
	text, _ := dequote(lines[i], d)
	f := splitHeaderColons(headerFields(text))
	if len(f) < 2 {
		return false
	}
	for _, w := range f[2:] {
		switch strings.TrimSuffix(fold(w), ":") {
		case "nation", "turn", "password":
			return true
		}
	}
	if len(f) > 2 {
		return false
	}
	seen := 0
	for j := i + 1; j < len(lines) && seen < 4; j++ {
		t, _ := dequote(lines[j], d)
		if strings.TrimSpace(t) == "" {
			continue
		}
		seen++
		if isHeaderLine(t) {
			return true
		}
	}
	return false
}

// extraction is what the first stage hands the parser.
type extraction struct {
	found       bool
	headerLines []physLine
	body        []*logical
	endLine     int // the END line, 0 if none
	diags       []Diagnostic
	baseIndent  int
	depth       int // the reply-quoting depth of the sheet
	// startsStatement reports a line that begins a statement (never joined
	// to the line above): startsWithKeyword for SYW sheets, the campaign's
	// own keywords for ReadFrame.
	startsStatement func(string) bool
}

// isSignature reports the "-- " signature separator (its trailing space is
// often lost on the way).
func isSignature(s string) bool { return strings.TrimRight(s, " ") == "--" }

// replyAttribution matches the line a mail program puts above the mail being
// replied to: "On Mon, 2 Jun 2025, Referee <ref@…> wrote:", and its French,
// German, Spanish, Italian and Dutch forms.
var replyAttribution = lazyRegexp(`(?i)^(on|le|am|el|il|op) .*(wrote|écrit|ecrit|schrieb|escribió|escribio|scritto|geschreven) ?:$`)

// originalMessage matches Outlook's "-----Original Message-----" and its
// relatives, in a few languages.
var originalMessage = lazyRegexp(`(?i)^-{2,} ?(original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht) ?-{2,}$`)

// isQuotedMail reports the start of the mail being replied to or forwarded,
// as mail programs mark it: an attribution line ("On … wrote:", possibly
// wrapped onto the next line), Outlook's "-----Original Message-----", or
// the line of underscores newer Outlooks put above "From:".
func isQuotedMail(s, next string) bool {
	t := strings.TrimSpace(s)
	if originalMessage().MatchString(t) || replyAttribution().MatchString(t) {
		return true
	}
	if len(t) >= 10 && strings.Trim(t, "_") == "" {
		return true
	}
	return replyAttribution().MatchString(t + " " + strings.TrimSpace(next))
}

// isEndLine reports the END marker: END alone, or with a comment.
func isEndLine(s string) bool {
	f := headerFields(s)
	return len(f) == 1 && fold(strings.TrimSuffix(f[0], ".")) == "end"
}

func isEndTreaty(s string) bool {
	f := headerFields(s)
	switch {
	case len(f) == 1:
		w := fold(f[0])
		return w == "endtreaty" || w == "end-treaty"
	case len(f) == 2:
		return fold(f[0]) == "end" && fold(f[1]) == "treaty"
	}
	return false
}

// extract runs the first stage over a mail body.
func extract(mail string) *extraction { return extractWith(mail, startsWithKeyword) }

// extractWith runs the first stage with another campaign's statement
// keywords (ReadFrame).
func extractWith(mail string, startsStatement func(string) bool) *extraction {
	ex, raw, end := extractHeader(mail, startsStatement)
	if ex.found {
		lines := make([]physLine, 0, len(raw)-end)
		for i := end; i < len(raw); i++ {
			lines = append(lines, physLineOf(raw, i, ex.depth))
		}
		ex.splitBody(lines)
	}
	return ex
}

// extractHeader runs the first stage up to the end of the sheet's header:
// it finds the header and reads its lines (ex.headerLines), and returns
// the mail's lines and the index of the first line after the header. It
// reads nothing of the body, so its cost is a pass over the lines however
// many there are.
func extractHeader(mail string, startsStatement func(string) bool) (ex *extraction, raw []string, end int) {
	ex = &extraction{startsStatement: startsStatement}
	raw = strings.Split(normalize(mail), "\n")
	hi, depth := findHeader(raw)
	if hi < 0 {
		ex.diags = append(ex.diags, Diagnostic{
			Severity: Error,
			Message:  "no order sheet found: expected a line starting GAME, followed by NATION, PASSWORD and TURN",
			Hint:     "Start the orders with the header, for example:\n  GAME syw\n  NATION eisenmark\n  PASSWORD yourpassword\n  TURN 3\nand end them with a line END.",
		})
		return ex, raw, len(raw)
	}
	ex.found, ex.depth = true, depth
	first := physLineOf(raw, hi, depth)
	ex.baseIndent = indentOf(first.text)
	ex.headerLines = append(ex.headerLines, first)
	i := hi + 1
	for ; i < len(raw); i++ {
		pl := physLineOf(raw, i, depth)
		t := strings.TrimSpace(pl.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if !isHeaderLine(t) {
			break
		}
		ex.headerLines = append(ex.headerLines, pl)
	}
	return ex, raw, i
}

// physLineOf is line i of a mail (numbered from 1) with the quoting of a
// sheet at depth taken off.
func physLineOf(raw []string, i, depth int) physLine {
	t, _ := dequote(raw[i], depth)
	_, d := dequote(raw[i], 1<<30)
	return physLine{num: i + 1, text: strings.TrimRight(t, " "), depth: d}
}

// splitBody groups the body lines into logical lines, applying the
// continuation rule and the TREATY text blocks, up to END or a signature.
func (ex *extraction) splitBody(lines []physLine) {
	var cur *logical
	var last string // the last physical line joined into cur
	blank := true   // a blank line since cur began (breaks continuation)
	inTreaty := false
	quotedFrom, quotedTo, quotedOrders := 0, 0, false
	flushQuoted := func() {
		if quotedFrom > 0 && quotedOrders {
			d := Diagnostic{Line: quotedFrom, Severity: Warning,
				Message: "line " + itoa(quotedFrom) + " is quoted from an earlier mail (it starts with >), so it was not read",
				Hint:    "To give a quoted order, copy it without the > in front."}
			if quotedTo != quotedFrom {
				d.EndLine = quotedTo
				d.Message = "lines " + itoa(quotedFrom) + "-" + itoa(quotedTo) + " are quoted from an earlier mail (they start with >), so they were not read"
			}
			ex.diags = append(ex.diags, d)
		}
		quotedFrom, quotedOrders = 0, false
	}
	defer flushQuoted()
	for i := 0; i < len(lines); i++ {
		pl := lines[i]
		if !inTreaty && pl.depth > ex.depth {
			// Quoted deeper than the sheet: text of the mail being replied
			// to, between the player's own lines. It is not read, and ends
			// any order above it.
			if quotedFrom == 0 {
				quotedFrom = pl.num
			}
			quotedTo = pl.num
			if t, _ := dequote(pl.text, 1<<30); ex.startsStatement(t) && !isEndLine(t) {
				quotedOrders = true
			}
			blank = true
			continue
		}
		flushQuoted()
		if inTreaty {
			switch {
			case isEndTreaty(pl.text):
				inTreaty = false
				cur.blockOpen = false
				cur = nil
			case isEndLine(pl.text):
				ex.endLine = pl.num
				return
			default:
				cur.block = append(cur.block, stripIndent(pl.text, ex.baseIndent))
				cur.blockLines = append(cur.blockLines, pl.num)
			}
			continue
		}
		t := strings.TrimSpace(pl.text)
		switch {
		case t == "":
			blank = true
			continue
		case strings.HasPrefix(t, "#"):
			continue
		case isEndLine(t):
			ex.endLine = pl.num
			return
		case isSignature(pl.text):
			ex.diags = append(ex.diags, Diagnostic{Line: pl.num, Severity: Warning,
				Message: "no END line: the orders were read up to the signature on line " + itoa(pl.num),
				Hint:    "End the orders with a line END."})
			return
		case isQuotedMail(pl.text, nextText(lines, i)):
			ex.diags = append(ex.diags, Diagnostic{Line: pl.num, Severity: Warning, Source: t,
				Message: "no END line: the orders were read up to the quoted mail that starts on line " + itoa(pl.num),
				Hint:    "End the orders with a line END."})
			return
		case firstWord(t) == "game":
			ex.diags = append(ex.diags, Diagnostic{Line: pl.num, Severity: Error, Read: t, Source: t,
				Message: "a second GAME header before END: only the first sheet in a mail is read; everything from this line on was ignored",
				Hint:    "Send one sheet per mail, or end the first with END."})
			return
		}
		treatyText := cur != nil && firstWord(cur.text) == "treaty" && !cur.isTreaty && firstWord(t) == "text"
		if cur != nil && !blank && len(cur.segs) < maxJoin && (treatyText || ex.continues(last, pl, lines[i+1:])) {
			cur.text = strings.TrimSuffix(strings.TrimRight(cur.text, " "), "\\")
			cur.text = strings.TrimRight(cur.text, " ") + " "
			cur.segs = append(cur.segs, segment{off: len(cur.text), line: pl.num})
			cur.text += t
			last = pl.text
		} else {
			cur = &logical{text: t, segs: []segment{{0, pl.num}}}
			ex.body = append(ex.body, cur)
			last = pl.text
			blank = false
		}
		if firstWord(cur.text) == "treaty" && !cur.isTreaty {
			if head, rest, ok := splitAtText(cur.text); ok {
				cur.isTreaty = true
				cur.text = head
				cur.blockOpen = true
				if rest = strings.TrimSpace(rest); rest != "" {
					cur.block = append(cur.block, rest)
					cur.blockLines = append(cur.blockLines, pl.num)
				}
				inTreaty = true
			}
		}
	}
	if !inTreaty {
		n := 0
		if len(lines) > 0 {
			n = lines[len(lines)-1].num
		}
		ex.diags = append(ex.diags, Diagnostic{Line: n, Severity: Warning,
			Message: "no END line: the orders were read to the end of the mail",
			Hint:    "End the orders with a line END; anything after it is ignored."})
	}
}

// nextText returns the text of the line after lines[i], or "".
func nextText(lines []physLine, i int) string {
	if i+1 < len(lines) {
		return lines[i+1].text
	}
	return ""
}

// stripIndent removes up to n leading spaces (the sheet's own indentation).
func stripIndent(s string, n int) string {
	for n > 0 && strings.HasPrefix(s, " ") {
		s = s[1:]
		n--
	}
	return strings.TrimRight(s, " ")
}

// continues applies the continuation rule (docs/orders.md, "Long orders"):
// the line pl continues the statement whose last physical line is prev when
//
//   - prev ends with a backslash, or
//   - prev has an open double quote that a following line closes, or
//   - pl does not start with an order keyword and: its first word is one
//     that never starts an order (TO, AT, AS, INTO, IN, WITH, FROM, IF,
//     ODDS, PARTIES, AND, GENERAL, ADMIRAL), or it is indented more than the
//     GAME line, or it starts with a digit, a comma or a quote, or prev ends
//     with a comma.
func (ex *extraction) continues(prev string, pl physLine, rest []physLine) bool {
	p := strings.TrimRight(prev, " ")
	if strings.HasSuffix(p, "\\") {
		return true
	}
	t := strings.TrimSpace(pl.text)
	if openQuote(prev) {
		if closesQuoteSoon(pl, rest) {
			return true
		}
	}
	if ex.startsStatement(t) {
		return false
	}
	if continuationWords[firstWord(t)] {
		return true
	}
	if indentOf(pl.text) > ex.baseIndent {
		return true
	}
	if c := t[0]; c >= '0' && c <= '9' || c == ',' || c == '"' || c == ';' {
		return true
	}
	return strings.HasSuffix(p, ",") || strings.HasSuffix(p, ";")
}

// openQuote reports whether a line leaves a double quote open (a doubled
// quote inside a quoted string is an escaped quote; '#' outside quotes starts
// a comment).
func openQuote(s string) bool {
	in := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			if in && i+1 < len(s) && s[i+1] == '"' {
				i++
				continue
			}
			in = !in
		case '#':
			if !in {
				return false
			}
		}
	}
	return in
}

// closesQuoteSoon reports whether an open quote is closed on pl or one of the
// few lines after it before a blank line or END: only then are the lines
// joined, so that a forgotten closing quote spoils one order, not the rest.
func closesQuoteSoon(pl physLine, rest []physLine) bool {
	const maxLines = 20
	check := func(s string) (closed, stop bool) {
		t := strings.TrimSpace(s)
		if t == "" || isEndLine(t) || isSignature(s) {
			return false, true
		}
		return strings.Count(t, `"`)%2 == 1, false
	}
	if closed, stop := check(pl.text); closed || stop {
		return closed
	}
	for i := 0; i < len(rest) && i < maxLines; i++ {
		if closed, stop := check(rest[i].text); closed || stop {
			return closed
		}
	}
	return false
}

// splitAtText finds the word TEXT (outside quotes) in a TREATY line and
// splits the line after it.
func splitAtText(s string) (head, rest string, ok bool) {
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			in = !in
			continue
		}
		if in {
			continue
		}
		if c == '#' {
			return "", "", false
		}
		if (i == 0 || s[i-1] == ' ' || s[i-1] == ',') && len(s) >= i+4 && fold(s[i:i+4]) == "text" &&
			(len(s) == i+4 || s[i+4] == ' ' || s[i+4] == ':') {
			rest = strings.TrimPrefix(s[i+4:], ":")
			return s[:i+4], rest, true
		}
	}
	return "", "", false
}

func fold(s string) string { return strings.ToLower(s) }
