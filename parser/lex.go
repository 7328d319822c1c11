package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer is modelled on text/template/parse/lex.go: a state is a function
// that reads some input, emits items and returns the next state. It runs
// synchronously over one logical line and collects its items in a slice; each
// item carries its offset, from which the physical line is recovered.

// itemType identifies the kind of a lexical item.
type itemType int

const (
	itemError  itemType = iota // a lexical error; val is the message
	itemEOL                    // end of the statement
	itemWord                   // a word: E2, Altburg, light-cavalry, 3d, E-D1
	itemNumber                 // digits only: 24, 0812
	itemString                 // a double-quoted string; val is its text, "" unescaped
	itemComma                  // ',' or ';'
	itemColon                  // ':' as in odds 3:2
	itemSign                   // '+' or '-' directly before a number (referee deltas)
	itemOther                  // any other single character, for the parser to refuse
)

// item is one lexical item of a statement.
type item struct {
	typ itemType
	val string
	pos int // byte offset in the logical line
	end int // offset just after the item
}

func (i item) String() string {
	switch i.typ {
	case itemEOL:
		return "the end of the line"
	case itemString:
		return `"` + strings.ReplaceAll(i.val, `"`, `""`) + `"`
	case itemError:
		return i.val
	}
	return i.val
}

// quoted shows what was read, for messages: `"ATACK"`, or "the end of the
// line".
func (i item) quoted() string {
	switch i.typ {
	case itemEOL:
		return "the end of the line"
	case itemString:
		return i.String()
	}
	return fmt.Sprintf("%q", i.val)
}

const eof = -1

type stateFn func(*lexer) stateFn

type lexer struct {
	input string
	start int
	pos   int
	width int
	items []item
}

// lex splits one logical line into items. It always ends with itemEOL or
// itemError. A '#' outside a string starts a comment that runs to the end.
func lex(input string) []item {
	l := &lexer{input: input}
	for state := lexAny; state != nil; {
		state = state(l)
	}
	return l.items
}

func (l *lexer) next() rune {
	if l.pos >= len(l.input) {
		l.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(l.input[l.pos:])
	l.width = w
	l.pos += w
	return r
}

func (l *lexer) backup() { l.pos -= l.width }

func (l *lexer) peek() rune {
	r := l.next()
	l.backup()
	return r
}

func (l *lexer) emit(t itemType) {
	l.items = append(l.items, item{typ: t, val: l.input[l.start:l.pos], pos: l.start, end: l.pos})
	l.start = l.pos
}

func (l *lexer) emitVal(t itemType, val string) {
	l.items = append(l.items, item{typ: t, val: val, pos: l.start, end: l.pos})
	l.start = l.pos
}

func (l *lexer) ignore() { l.start = l.pos }

// The lexical errors.
const (
	msgOpenQuote = "a double quote that is never closed"
	msgBadEncode = "a character that is not valid text"
)

func (l *lexer) errorf(msg string) stateFn {
	l.items = append(l.items, item{typ: itemError, val: msg, pos: l.start, end: l.pos})
	return nil
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isWordRune reports the runes words are made of: letters, digits and the
// joiners found in names and keywords.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
		r == '-' || r == '_' || r == '.' || r == '\'' || r == '/' || r == '&'
}

func lexAny(l *lexer) stateFn {
	switch r := l.next(); {
	case r == eof:
		l.emitVal(itemEOL, "")
		return nil
	case r == ' ':
		l.ignore()
		return lexAny
	case r == '#':
		l.pos = len(l.input)
		l.ignore()
		return lexAny
	case r == '"':
		return lexString
	case r == ',' || r == ';':
		l.emit(itemComma)
		return lexAny
	case r == ':':
		l.emit(itemColon)
		return lexAny
	case (r == '+' || r == '-') && isDigit(l.peek()):
		l.emit(itemSign)
		return lexAny
	case isDigit(r):
		return lexNumber
	case r == utf8.RuneError:
		return l.errorf(msgBadEncode)
	case isWordRune(r):
		return lexWord
	default:
		l.emit(itemOther)
		return lexAny
	}
}

// lexNumber reads digits; a number that runs on into letters ("3d",
// "2025-06-08", "0812-0813") is a word.
func lexNumber(l *lexer) stateFn {
	for isDigit(l.peek()) {
		l.next()
	}
	if r := l.peek(); r != eof && isWordRune(r) {
		// "24." at the end of a sentence is still the number 24.
		if r == '.' && l.pos+1 == len(l.input) {
			l.emit(itemNumber)
			l.next()
			l.ignore()
			return lexAny
		}
		return lexWord
	}
	l.emit(itemNumber)
	return lexAny
}

func lexWord(l *lexer) stateFn {
	for isWordRune(l.peek()) {
		l.next()
	}
	w := l.input[l.start:l.pos]
	// A full stop ending the statement is punctuation, not part of the word.
	if len(w) > 1 && strings.HasSuffix(w, ".") && strings.TrimRight(l.input[l.pos:], " ") == "" {
		l.items = append(l.items, item{typ: itemWord, val: w[:len(w)-1], pos: l.start, end: l.pos - 1})
		l.start = l.pos
		return lexAny
	}
	l.emit(itemWord)
	return lexAny
}

// lexString reads a double-quoted string; a doubled quote inside stands for
// one quote.
func lexString(l *lexer) stateFn {
	var b strings.Builder
	for {
		switch r := l.next(); r {
		case eof:
			return l.errorf(msgOpenQuote)
		case '"':
			if l.peek() == '"' {
				l.next()
				b.WriteByte('"')
				continue
			}
			l.emitVal(itemString, b.String())
			return lexAny
		default:
			b.WriteRune(r)
		}
	}
}
