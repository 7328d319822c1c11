package areamap

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// SyntaxError is one error in a map file: where, what was read and what was
// expected.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

// Error prints "file:line: message".
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// SyntaxErrors is every error Parse found in a file, in line order.
type SyntaxErrors []*SyntaxError

// Error prints one error per line.
func (l SyntaxErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// MaxLines is the most lines Parse reads: no map is longer, and the cap
// keeps a hostile file from costing time.
const MaxLines = 20000

// maxCoord is the largest coordinate of an at= position.
const maxCoord = 1000

// Load reads and parses a map file.
func Load(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a map in the text format (docs/areamap-format.md). filename
// is used only in messages. On success the map is built; it is not validated
// (Validate). On failure the error is a SyntaxErrors with every error found.
func Parse(r io.Reader, filename string) (*Map, error) {
	p := &reader{file: filename, m: &Map{}, seen: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	var cur []token
	curLine := 0
	flush := func() {
		if len(cur) > 0 {
			p.directive(cur, curLine)
		}
		cur = nil
	}
	for sc.Scan() {
		line++
		if line > MaxLines {
			p.errorf(line, "the file is longer than %d lines: expected a map", MaxLines)
			break
		}
		raw := sc.Text()
		toks, err := tokenize(raw)
		if err != "" {
			p.errorf(line, "%s", err)
			continue
		}
		if len(toks) == 0 {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			if cur == nil {
				p.errorf(line, "read an indented line %q with no directive above it to continue: expected a directive at the start of the line", clip(strings.TrimSpace(raw)))
				continue
			}
			cur = append(cur, toks...)
			continue
		}
		flush()
		cur, curLine = toks, line
	}
	flush()
	if err := sc.Err(); err != nil {
		p.errorf(line+1, "%v", err)
	}
	if p.m.Line == 0 && len(p.errs) == 0 {
		p.errorf(0, `no map header: expected a first directive such as map "Trossia, 1801"`)
	}
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *SyntaxError) int { return a.Line - b.Line })
		return nil, p.errs
	}
	p.m.Build()
	return p.m, nil
}

// token is one word of a directive: text (quotes removed), whether it was
// quoted, and for key=value words the position of '='.
type token struct {
	text   string
	quoted bool
}

func (t token) keyValue() (string, string, bool) {
	if t.quoted {
		return "", "", false
	}
	return strings.Cut(t.text, "=")
}

// tokenize splits a line into words; '#' outside quotes starts a comment,
// a quoted word may hold spaces and may follow key= directly (name="North
// Sea").
func tokenize(s string) ([]token, string) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			return out, ""
		default:
			var b strings.Builder
			// A word is quoted when it starts with a quote; name="North
			// Water" is a key with a quoted value.
			quoted := s[i] == '"'
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' {
				if s[i] == '#' {
					break // a comment; a '#' inside quotes is skipped below
				}
				if s[i] == '"' {
					end := strings.IndexByte(s[i+1:], '"')
					if end < 0 {
						return nil, "a double quote that is never closed on its line: expected a closing \""
					}
					b.WriteString(s[i+1 : i+1+end])
					i += end + 2
					continue
				}
				b.WriteByte(s[i])
				i++
			}
			out = append(out, token{text: b.String(), quoted: quoted})
			if i < len(s) && s[i] == '#' {
				return out, ""
			}
		}
	}
	return out, ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

type reader struct {
	file string
	m    *Map
	errs SyntaxErrors
	// seen records the line each name was declared on ("province Elkmoor").
	seen map[string]int
}

func (p *reader) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// directives are the map's directive words, for "expected …" messages.
var directives = []string{"map", "kingdom", "province", "lane", "border", "road", "link"}

func (p *reader) directive(t []token, line int) {
	head := strings.ToLower(t[0].text)
	if t[0].quoted {
		head = ""
	}
	if head != "map" && p.m.Line == 0 {
		if !slices.Contains(directives, head) {
			p.errorf(line, "read %q: expected a directive (%s)", clip(t[0].text), strings.Join(directives, ", "))
			return
		}
		p.errorf(line, "read %q before the map header: expected the first directive to be map \"NAME\"", head)
		return
	}
	args := t[1:]
	switch head {
	case "map":
		p.header(args, line)
	case "kingdom":
		p.kingdom(args, line)
	case "province":
		p.province(args, line)
	case "lane":
		p.lane(args, line)
	case "border", "link":
		p.fan(head, args, line)
	case "road":
		p.road(args, line)
	default:
		p.errorf(line, "read %q: expected a directive (%s)", clip(t[0].text), strings.Join(directives, ", "))
	}
}

func (p *reader) header(args []token, line int) {
	if p.m.Line != 0 {
		p.errorf(line, "a second map header (the first is on line %d): expected one", p.m.Line)
		return
	}
	p.m.Line = line
	if len(args) != 1 || args[0].text == "" {
		p.errorf(line, `read %d words after map: expected the map's name, e.g. map "Trossia, 1801"`, len(args))
		return
	}
	p.m.Name = args[0].text
}

// validProvinceID: a capital letter, then letters, hyphens or apostrophes,
// with at least one lower-case letter (so that no province reads as a lane).
func validProvinceID(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	lower := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z', c == '-', c == '\'':
		default:
			return false
		}
	}
	return lower
}

// validLaneID: capital letters then digits, at least one of each ("N1",
// "SW12").
func validLaneID(s string) bool {
	if len(s) < 2 || len(s) > 8 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i == len(s) {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func validKingdomID(s string) bool {
	if len(s) == 0 || len(s) > 24 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// declare records a name's declaration; a second one is an error.
func (p *reader) declare(what, name string, line int) bool {
	key := strings.ToLower(name)
	if what == "kingdom" {
		key = "kingdom " + key
	}
	if first, dup := p.seen[key]; dup {
		p.errorf(line, "%s %s is declared twice (first on line %d): expected each name once", what, name, first)
		return false
	}
	p.seen[key] = line
	return true
}

func (p *reader) kingdom(args []token, line int) {
	if len(args) == 0 {
		p.errorf(line, "read nothing after kingdom: expected kingdom ID name=NAME letter=L capital=PROVINCE")
		return
	}
	id := args[0].text
	if !validKingdomID(id) || args[0].quoted {
		p.errorf(line, "read kingdom ID %q: expected a lower-case word such as norvale", clip(id))
		return
	}
	k := Kingdom{ID: game.NationID(id), Line: line}
	for _, a := range args[1:] {
		key, val, ok := a.keyValue()
		switch {
		case !ok && a.quoted && k.Name == "":
			k.Name = a.text
		case !ok:
			p.errorf(line, "read %q in kingdom %s: expected name=, letter= or capital=", clip(a.text), id)
		case key == "name":
			k.Name = val
		case key == "letter":
			if len(val) != 1 || val[0] < 'A' || val[0] > 'Z' {
				p.errorf(line, "read letter=%s in kingdom %s: expected one capital letter (N: forces N1, N2 …)", clip(val), id)
			}
			k.Letter = val
		case key == "capital":
			k.Capital = val
		default:
			p.errorf(line, "read %s= in kingdom %s: expected name=, letter= or capital=", clip(key), id)
		}
	}
	for _, need := range []struct{ v, key string }{{k.Name, "name"}, {k.Letter, "letter"}, {k.Capital, "capital"}} {
		if need.v == "" {
			p.errorf(line, "kingdom %s has no %s=: expected kingdom ID name=NAME letter=L capital=PROVINCE", id, need.key)
		}
	}
	if p.declare("kingdom", id, line) {
		p.m.Kingdoms = append(p.m.Kingdoms, k)
	}
}

// position reads "X,Y".
func (p *reader) position(val string, line int, what string) Point {
	xs, ys, ok := strings.Cut(val, ",")
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 || x > maxCoord || y > maxCoord {
		p.errorf(line, "read at=%s for %s: expected two whole numbers from 0 to %d, e.g. at=20,10", clip(val), what, maxCoord)
		return Point{}
	}
	return Point{X: x, Y: y}
}

func (p *reader) province(args []token, line int) {
	if len(args) < 2 {
		p.errorf(line, "read %d words after province: expected province NAME plain|town|port [kingdom=ID] [coast=LANE,…] [at=X,Y]", len(args))
		return
	}
	id := args[0].text
	if !validProvinceID(id) || args[0].quoted {
		p.errorf(line, "read province name %q: expected one word starting with a capital letter, e.g. Elkmoor (players type it in orders)", clip(id))
		return
	}
	kind, ok := ParseKind(args[1].text)
	if !ok {
		p.errorf(line, "read %q as the kind of %s: expected plain, town or port", clip(args[1].text), id)
		return
	}
	pr := Province{ID: id, Kind: kind, Line: line}
	for _, a := range args[2:] {
		key, val, ok := a.keyValue()
		switch {
		case !ok:
			p.errorf(line, "read %q in province %s: expected kingdom=, coast= or at=", clip(a.text), id)
		case key == "kingdom":
			pr.Kingdom = game.NationID(val)
		case key == "coast":
			for _, l := range strings.Split(val, ",") {
				if !validLaneID(l) {
					p.errorf(line, "read coast lane %q in province %s: expected lane IDs such as N1, comma-separated", clip(l), id)
					continue
				}
				if slices.Contains(pr.Coast, l) {
					p.errorf(line, "province %s lists coast lane %s twice", id, l)
					continue
				}
				pr.Coast = append(pr.Coast, l)
			}
		case key == "at":
			pr.At = p.position(val, line, id)
		default:
			p.errorf(line, "read %s= in province %s: expected kingdom=, coast= or at=", clip(key), id)
		}
	}
	if p.declare("province", id, line) {
		p.m.Provinces = append(p.m.Provinces, pr)
	}
}

func (p *reader) lane(args []token, line int) {
	if len(args) < 2 {
		p.errorf(line, `read %d words after lane: expected lane ID "NAME" [frozen] [at=X,Y]`, len(args))
		return
	}
	id := args[0].text
	if !validLaneID(id) || args[0].quoted {
		p.errorf(line, "read lane ID %q: expected capital letters then digits, e.g. N1", clip(id))
		return
	}
	l := Lane{ID: id, Name: args[1].text, Line: line}
	for _, a := range args[2:] {
		key, val, ok := a.keyValue()
		switch {
		case !ok && strings.EqualFold(a.text, "frozen"):
			l.Frozen = true
		case ok && key == "at":
			l.At = p.position(val, line, id)
		default:
			p.errorf(line, "read %q in lane %s: expected frozen or at=X,Y", clip(a.text), id)
		}
	}
	if p.declare("lane", id, line) {
		p.m.Lanes = append(p.m.Lanes, l)
	}
}

// fan reads "border P Q R …" (P borders Q, R …) and "link L M N …".
func (p *reader) fan(head string, args []token, line int) {
	what := "province names"
	valid := validProvinceID
	if head == "link" {
		what, valid = "lane IDs", validLaneID
	}
	if len(args) < 2 {
		p.errorf(line, "read %d words after %s: expected %s FIRST NEXT … (%s; FIRST is joined to each of the others)", len(args), head, head, what)
		return
	}
	for _, a := range args {
		if !valid(a.text) || a.quoted {
			p.errorf(line, "read %q in %s: expected %s", clip(a.text), head, what)
			return
		}
	}
	for _, a := range args[1:] {
		pr := pairOf(args[0].text, a.text)
		pr.Line = line
		if head == "border" {
			p.m.Borders = append(p.m.Borders, pr)
		} else {
			p.m.Links = append(p.m.Links, pr)
		}
	}
}

// road reads "road P Q R …": a road along P–Q and Q–R.
func (p *reader) road(args []token, line int) {
	if len(args) < 2 {
		p.errorf(line, "read %d words after road: expected road FIRST SECOND … (a path of provinces, each bordering the one before)", len(args))
		return
	}
	for _, a := range args {
		if !validProvinceID(a.text) || a.quoted {
			p.errorf(line, "read %q in road: expected province names", clip(a.text))
			return
		}
	}
	for i := 1; i < len(args); i++ {
		pr := pairOf(args[i-1].text, args[i].text)
		pr.Line = line
		p.m.Roads = append(p.m.Roads, pr)
	}
}
