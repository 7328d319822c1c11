package parser

import (
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// The reader for languages written in the players' words. The referee's
// commands (package refcmd) are one line each and name nations, forces,
// units, hexes and cities as order sheets do; they are read with the
// sheet's hygiene and the sheet's errors — the line, what was read, what was
// expected, a hint. CommandLines is their first stage (this package's mail
// clean-up for a mail of commands rather than a sheet), Reader the pieces
// of the SYW grammar over one of its lines. Nothing here is used by the SYW
// sheets, whose path (Parse) is unchanged.

// CommandLines runs the first stage over a mail of one-line commands. The
// commands begin at the first line whose first word (lower case, cut at a
// colon) starts says begins one, among the lines at the shallowest reply
// quoting that has one — so a command quoted from an earlier mail counts
// only when the mail has none of its own — and end at END, a signature
// ("-- ") or the end of the mail. Blank lines and # comments are dropped; a
// line continues the one above when that one ends in \ or a comma, or when
// it begins with a digit or a comma. found is false when no line begins a
// command.
func CommandLines(mail string, starts func(word string) bool) (lines []FrameLine, found bool) {
	raw := strings.Split(normalize(mail), "\n")
	start, depth := -1, 0
	for i, l := range raw {
		t, d := dequote(l, 1<<30)
		if starts(firstWord(t)) {
			if start < 0 || d < depth {
				start, depth = i, d
			}
			if d == 0 {
				break
			}
		}
	}
	if start < 0 {
		return nil, false
	}
	var lgs []*logical
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
		if n := len(lgs); n > 0 && prev != "" && len(lgs[n-1].segs) < maxJoin && (strings.HasSuffix(prev, "\\") || strings.HasSuffix(prev, ",") ||
			tt[0] >= '0' && tt[0] <= '9' || tt[0] == ',') {
			lg := lgs[n-1]
			lg.text = strings.TrimRight(strings.TrimSuffix(lg.text, "\\"), " ") + " "
			lg.segs = append(lg.segs, segment{off: len(lg.text), line: i + 1})
			lg.text += tt
		} else {
			lgs = append(lgs, &logical{text: tt, segs: []segment{{0, i + 1}}})
		}
		prev = tt
	}
	for _, lg := range lgs {
		lines = append(lines, FrameLine{Text: lg.text, Line: lg.first(), EndLine: lg.last(), lg: lg})
	}
	return lines, true
}

// Reader reads one line (a FrameLine of CommandLines or ReadFrame) with
// the pieces of the SYW grammar. Its methods stop the line at the first
// thing that does not fit: Read returns that error as a Diagnostic.
type Reader struct{ p parser }

// NewReader reads line l with the vocabulary v (nil: names are taken as
// written, and a city cannot stand for its hex).
func NewReader(l FrameLine, v *Vocabulary) *Reader {
	lg := l.lg
	if lg == nil {
		lg = &logical{text: l.Text, segs: []segment{{0, l.Line}}}
	}
	return &Reader{p: parser{v: v, lg: lg, items: lex(lg.text), st: &Statement{Line: lg.first(), EndLine: lg.last(), Source: lg.text}}}
}

// Read runs read, which reads the line with r's methods, and returns the
// error that stopped it: nil when read returned.
func (r *Reader) Read(read func()) (d *Diagnostic) {
	defer func() {
		if x := recover(); x != nil {
			f, ok := x.(failure)
			if !ok {
				panic(x)
			}
			d = &f.d
		}
	}()
	read()
	return nil
}

// Line is the mail line the reader's line begins on.
func (r *Reader) Line() int { return r.p.lg.first() }

// Source is the line as read (joined from several when it was wrapped).
func (r *Reader) Source() string { return r.p.lg.text }

func tokenOf(it item) Token {
	return Token{Type: TokenType(it.typ), Val: it.val, Pos: it.pos, End: it.end}
}

func (t Token) item() item { return item{typ: itemType(t.Type), val: t.Val, pos: t.Pos, end: t.End} }

// Peek returns the next token without reading it.
func (r *Reader) Peek() Token { return tokenOf(r.p.peek()) }

// Next reads the next token (the end of the line, or a lexical error, is
// returned again and again).
func (r *Reader) Next() Token { return tokenOf(r.p.next()) }

// Fail stops the line with an error at token t.
func (r *Reader) Fail(t Token, msg, hint string) { r.p.fail(t.item(), msg, hint) }

// Expected stops the line: "expected what, read t".
func (r *Reader) Expected(t Token, what, hint string) { r.p.expected(t.item(), what, hint) }

// Keyword reads one of the options (any case, a unique prefix), or stops
// the line saying which were expected.
func (r *Reader) Keyword(hint string, options ...string) string { return r.p.keyword(hint, options...) }

// Accept reads an optional keyword (any case, a unique prefix).
func (r *Reader) Accept(options ...string) (string, bool) { return r.p.accept(options...) }

// AcceptExact reads an optional keyword written in full.
func (r *Reader) AcceptExact(options ...string) (string, bool) { return r.p.acceptExact(options...) }

// Number reads a whole number from 0 to maxN; what names it in errors.
func (r *Reader) Number(what string, maxN int) int { return r.p.number(what, maxN) }

// Nation reads a nation by ID or name.
func (r *Reader) Nation() game.NationID { return r.p.nation() }

// Force reads a force ID ("E2", any case); what names it in errors.
func (r *Reader) Force(what string) game.ForceID { return r.p.force(what) }

// Units reads a list of units as SPLIT does ("24 C infantry, 2 field-gun,
// general Keith"), up to the end of the line or one of the stop words.
func (r *Reader) Units(what string, stop ...string) Contents {
	return r.p.contents(allowAll, what, stop...)
}

// HexOrCity reads a hex, or a city standing for its hex.
func (r *Reader) HexOrCity() game.Hex { return r.p.hexOrCity() }

// City reads a city of the map by name.
func (r *Reader) City() string { return r.p.city() }

// FreeText reads free text: a quoted string, or the rest of the line as
// written (up to a # comment); what names it in errors.
func (r *Reader) FreeText(what string) string { return r.p.text(what) }

// AtEnd reports whether the line has been read to its end.
func (r *Reader) AtEnd() bool { return r.p.atEnd() }

// End stops the line if anything is left after it: after names what was
// read last.
func (r *Reader) End(after string) { r.p.end(after) }

// Rest returns the rest of the line as written, from the next token on,
// without reading it.
func (r *Reader) Rest() string { return strings.TrimSpace(r.p.lg.text[r.p.peek().pos:]) }

// SkipRest reads the rest of the line without looking at it (after Rest).
func (r *Reader) SkipRest() { r.p.pos = len(r.p.items) - 1 }

// EditDistance is the distance the suggestions use between two words, in
// any case: the edits (insert, delete, change, swap) that make one the
// other.
func EditDistance(a, b string) int { return editDistance(a, b, true) }

// Quote prints text in double quotes as the canonical forms do, doubling a
// quote inside.
func Quote(s string) string { return quote(s) }

// FormatCity prints a city's name as the canonical forms do: bare when it
// is one plain word, else in quotes.
func FormatCity(name string) string { return cityName(name) }
