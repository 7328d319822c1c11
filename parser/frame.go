package parser

import (
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// The sheet frame for other campaigns. Every campaign's order sheet has the
// same frame — a GAME, NATION, PASSWORD, TURN header, statements one to a
// logical line, END — and the same hygiene: mail clean-up, reply quoting,
// wrapped lines, signatures, quoted mail. ReadFrame runs the first stage
// (clean.go) and the header reader over a mail with a campaign's own
// statement keywords, and Lex the lexer over one statement, so that a
// campaign's grammar (package trossian/sheet) reads its own vocabulary with
// the SYW checker's quality: the line, what was read, what was expected, a
// hint. Nothing here is used by the SYW sheets, whose path (Parse) is
// unchanged.

// FrameOptions are what a campaign tells ReadFrame about its sheets.
type FrameOptions struct {
	// Keywords are the words that begin a statement, matched like the SYW
	// keywords (any case, unique prefix of at least three letters): a line
	// beginning with one is never joined to the line above.
	Keywords []string
	// Nations are the nations a NATION line may name (by ID, name or unique
	// prefix).
	Nations []game.Nation
	// TurnByName reads a turn's name ("Mid Spring 1801") into its number;
	// nil: TURN takes a number only.
	TurnByName func(string) (int, error)
}

// Frame is a mail's sheet as the first stage reads it: the header, and the
// body's logical lines for the campaign's grammar.
type Frame struct {
	// Header is the sheet's header (Header.Found false: no sheet).
	Header Header
	// Lines are the body's statements, one logical line each, in order.
	Lines []FrameLine
	// EndLine is the END line (0 when the sheet has none).
	EndLine int
	// Diagnostics are the problems found while extracting the sheet and
	// reading its header (no sheet, no END, quoted lines, header errors).
	Diagnostics []Diagnostic
}

// FrameLine is one statement of a sheet: its text after clean-up and
// joining, and the mail lines it came from.
type FrameLine struct {
	// Text is the statement as read.
	Text string
	// Line and EndLine are its first and last mail lines.
	Line, EndLine int
	lg            *logical
}

// LineAt returns the mail line an offset of Text came from (a statement
// joined from several lines).
func (l FrameLine) LineAt(off int) int {
	if l.lg == nil {
		return l.Line
	}
	return l.lg.lineAt(off)
}

// ReadFrame runs the first stage over a mail body with a campaign's
// keywords and reads its header. A mail with no sheet gives a Frame whose
// Header.Found is false and whose Diagnostics say so.
func ReadFrame(mail string, opt FrameOptions) *Frame {
	starts := func(s string) bool {
		w := strings.Trim(firstWord(s), ".")
		if w == "" {
			return false
		}
		if w == "end" {
			return true
		}
		if kw, _ := match(w, opt.Keywords); kw != "" {
			return true
		}
		kw, _ := match(w, headerKeywords)
		return kw != ""
	}
	ex := extractWith(mail, starts)
	fr := &Frame{Diagnostics: ex.diags, EndLine: ex.endLine}
	if !ex.found {
		return fr
	}
	v := &Vocabulary{nations: slices.Clone(opt.Nations), turnNames: opt.TurnByName}
	var problems []Diagnostic
	fr.Header = parseHeader(ex.headerLines, v, &problems)
	fr.Header.Problems = problems
	fr.Diagnostics = append(fr.Diagnostics, problems...)
	for _, lg := range ex.body {
		fr.Lines = append(fr.Lines, FrameLine{Text: lg.text, Line: lg.first(), EndLine: lg.last(), lg: lg})
	}
	sortDiagnostics(fr.Diagnostics)
	return fr
}

// TokenType is the kind of a lexical item (Lex).
type TokenType int

// The token types, as the SYW lexer reads them.
const (
	TokenError  TokenType = iota // a lexical error; Val is the message
	TokenEOL                     // the end of the statement
	TokenWord                    // a word: N2, Elkmoor, line-infantry
	TokenNumber                  // digits only
	TokenString                  // a double-quoted string; Val is its text
	TokenComma                   // ',' or ';'
	TokenColon                   // ':'
	TokenSign                    // '+' or '-' directly before a number
	TokenOther                   // any other single character
)

// Token is one lexical item of a statement: its type, its value and its
// byte offsets in the statement (FrameLine.LineAt gives the mail line).
type Token struct {
	Type     TokenType
	Val      string
	Pos, End int
}

// Quoted shows what was read, for messages: "ATACK" in quotes, or "the end
// of the line".
func (t Token) Quoted() string {
	return item{typ: itemType(t.Type), val: t.Val}.quoted()
}

// LexHint says what to do about a lexical error token ("" for others).
func LexHint(t Token) string {
	if t.Type != TokenError {
		return ""
	}
	return lexHints[t.Val]
}

// Lex splits one statement into tokens, as the SYW lexer does ('#' starts a
// comment; the last token is TokenEOL or TokenError).
func Lex(statement string) []Token {
	items := lex(statement)
	out := make([]Token, len(items))
	for i, it := range items {
		out[i] = Token{Type: TokenType(it.typ), Val: it.val, Pos: it.pos, End: it.end}
	}
	return out
}

// MatchKeyword finds word among options as the SYW grammar does: any case,
// exact, else the one option it is a unique prefix of (three letters at
// least). It returns the option, or the options an ambiguous prefix could
// be.
func MatchKeyword(word string, options []string) (string, []string) { return match(word, options) }

// Suggest returns the options nearest to word by edit distance, if any is a
// likely misspelling (for "did you mean …?").
func Suggest(word string, options []string) []string { return suggest(word, options) }

// DidYouMean formats suggestions: "; did you mean E2?" or "".
func DidYouMean(s []string) string { return didYouMean(s) }

// OrList joins words as "A", "A or B", "A, B or C".
func OrList(words []string) string { return orList(words) }

// NameKey is the form names are compared in: lower case, accents dropped,
// hyphens as spaces.
func NameKey(s string) string { return nameKey(s) }

// SortDiagnostics orders diagnostics by line, sheet-wide ones last, errors
// before warnings before notes on a line.
func SortDiagnostics(d []Diagnostic) { sortDiagnostics(d) }

// FormatDiagnostic prints one diagnostic as the SYW reply prints it: where,
// severity and message, the statement as read, what to do.
func FormatDiagnostic(d Diagnostic) string {
	var b strings.Builder
	writeDiag(&b, d)
	return b.String()
}

// FormatDiagnostics prints diagnostics as the SYW reply lists them: at most
// MaxListedProblems, then how many more there are.
func FormatDiagnostics(ds []Diagnostic) string {
	var b strings.Builder
	writeDiags(&b, ds)
	return b.String()
}

// WrapText writes s wrapped at the reply's width, continuation lines
// indented by indent, as the SYW reply wraps its prose.
func WrapText(b *strings.Builder, s, indent string) { wrap(b, s, indent) }
