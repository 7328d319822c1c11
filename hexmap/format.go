package hexmap

// The map text format (docs/map-format.md is the referee's guide).
//
// A map file is read line by line. '#' starts a comment anywhere outside double
// quotes. A line that starts with a space or a tab continues the directive
// above it, so long hex lists can be wrapped. Everything else is a directive:
//
//	map "The Continent" 35x30           header: name and size, first
//	terrain                             then Rows grid rows "RR <Cols chars>"
//	provinces                           then Rows grid rows of province letters
//	nation ID name=… letter=E capitol=… provinces=F,K,L traits=… tax=1600
//	province F "Name" owner=ID|neutral [hexes=0810-0814,0910 …]
//	city "Name" 0812 [port] [river]
//	sea S1 "Name" hexes=0101-0110 0201-0209 …
//	wind S1 > S2            the wind blows from S1 into S2
//	wind S4 <> S5           doldrums: 3 MP either way
//	river 0812/0813 0813/0913 …         hexsides, each a pair of hexes
//	road 0812 0813 0914 …               a path of adjacent hexes
//	goodholding 0812 0910-0912 …
//
// The parser is a single pass that collects every syntax error it meets rather
// than stopping at the first; references between directives (a capitol's
// city, a province's owner, a letter in the provinces grid) are resolved after
// the last line. Semantic checks — provinces contiguous, ports coastal, winds
// between every pair of adjacent sea areas — are Validate's, not Parse's.

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// MaxSide is the largest number of columns or rows a map may have: hex names
// have at most three digits per part.
const MaxSide = 999

// SyntaxError is one error in a map file: where, what was read and what was
// expected.
type SyntaxError struct {
	File string // as given to Parse
	Line int    // counted from 1; 0 for the file as a whole
	Msg  string // what was read, what was expected
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

// Terrain characters of the terrain grid.
var terrainChars = map[byte]game.Terrain{
	'.': game.Clear,
	'r': game.Rough,
	'w': game.Woods,
	'^': game.Mountain,
	'~': game.Sea,
}

// TerrainChar returns the grid character of a terrain ('?' for none).
func TerrainChar(t game.Terrain) byte {
	switch t {
	case game.Clear:
		return '.'
	case game.Rough:
		return 'r'
	case game.Woods:
		return 'w'
	case game.Mountain:
		return '^'
	case game.Sea:
		return '~'
	}
	return '?'
}

// traitKeywords are the words of a nation's traits= list, one per field of
// game.Traits (the same words as its YAML tags).
var traitKeywords = []struct {
	word string
	of   func(*game.Traits) *bool
}{
	{"irregular_light", func(t *game.Traits) *bool { return &t.IrregularLight }},
	{"volley_rout_hit", func(t *game.Traits) *bool { return &t.VolleyRoutHit }},
	{"stationary_fire_bonus", func(t *game.Traits) *bool { return &t.StationaryFireBonus }},
	{"advance_fire_bonus", func(t *game.Traits) *bool { return &t.AdvanceFireBonus }},
	{"cavalry_advance_bonus", func(t *game.Traits) *bool { return &t.CavalryAdvanceBonus }},
}

func traitWords() string {
	w := make([]string, len(traitKeywords))
	for i, k := range traitKeywords {
		w[i] = k.word
	}
	return strings.Join(w, ", ")
}

// Load reads and parses a map file.
func Load(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a map in the text format. filename is used only in error
// messages. On success the map is built (Build) and Lines records where each
// thing was declared; it is not validated (call Validate). On failure the
// error is a SyntaxErrors listing every error found, and the map is nil.
func Parse(r io.Reader, filename string) (*Map, error) {
	p := &parser{
		file:      filename,
		m:         &Map{Lines: map[string]int{}},
		nationAt:  map[game.NationID]int{},
		provAt:    map[string]int{},
		cityAt:    map[string]int{},
		cityHexAt: map[game.Hex]string{},
		seaAt:     map[game.SeaID]int{},
		windAt:    map[[2]game.SeaID]int{},
		provHexes: map[string]map[game.Hex]bool{},
		seaHexes:  map[game.SeaID]map[game.Hex]bool{},
		rivers:    map[Edge]bool{},
		roads:     map[Edge]bool{},
		holding:   map[game.Hex]bool{},
	}
	p.read(r)
	p.finish()
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *SyntaxError) int { return cmp.Compare(a.Line, b.Line) })
		return nil, p.errs
	}
	return p.m, nil
}

// token is one word of a directive, quotes removed.
type token struct {
	text string
	line int
	// eq is the index in text of the first '=' outside quotes, -1 if none:
	// the token is key=value.
	eq int
}

func (t token) isKey() bool   { return t.eq >= 0 }
func (t token) key() string   { return t.text[:t.eq] }
func (t token) value() string { return t.text[t.eq+1:] }

type gridKind int

const (
	noGrid gridKind = iota
	terrainGrid
	provinceGrid
)

type gridHex struct {
	hex  game.Hex
	line int
}

type parser struct {
	file string
	m    *Map
	errs SyntaxErrors
	last int // last line number read

	header    bool
	grid      gridKind
	gridRow   int // next row expected
	gridAt    map[gridKind]int
	noHeader  bool                 // the missing header was reported
	provGrid  map[string][]gridHex // province letter → hexes from the grid
	stmt      []token              // directive being gathered (with continuation lines)
	nationAt  map[game.NationID]int
	provAt    map[string]int
	cityAt    map[string]int
	cityHexAt map[game.Hex]string
	seaAt     map[game.SeaID]int
	windAt    map[[2]game.SeaID]int
	provHexes map[string]map[game.Hex]bool
	seaHexes  map[game.SeaID]map[game.Hex]bool
	rivers    map[Edge]bool
	roads     map[Edge]bool
	holding   map[game.Hex]bool
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) read(r io.Reader) {
	br := bufio.NewReader(r)
	line := 0
	for {
		s, err := br.ReadString('\n')
		if s != "" || err == nil {
			line++
			p.last = line
			p.physical(strings.TrimRight(s, "\r\n"), line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				p.errorf(line, "reading the file: %v", err)
			}
			break
		}
	}
	p.flush()
	if p.grid != noGrid {
		p.errorf(p.last, "the file ends inside the %s grid: expected row %02d, one line per map row", p.gridName(), p.gridRow)
	}
}

func (p *parser) gridName() string {
	if p.grid == provinceGrid {
		return "provinces"
	}
	return "terrain"
}

// physical handles one line of the file.
func (p *parser) physical(raw string, line int) {
	text, err := stripComment(raw)
	if err != "" {
		p.errorf(line, "%s", err)
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	indented := text[0] == ' ' || text[0] == '\t'
	if indented && p.grid == noGrid {
		if p.stmt == nil {
			p.errorf(line, "read an indented line %q, expected a directive at the start of the line (indented lines continue the directive above)", clip(strings.TrimSpace(text)))
			return
		}
		p.stmt = append(p.stmt, tokenize(text, line)...)
		return
	}
	p.flush()
	if p.grid != noGrid && p.gridText(text, line, indented) {
		return
	}
	p.stmt = tokenize(text, line)
}

// gridText handles a line met inside a grid section and reports whether it
// was used up. A line that is not a grid row ends the section; it is an error
// unless the grid's header was already reported bad (its rows are skipped).
func (p *parser) gridText(text string, line int, indented bool) bool {
	if text[0] >= '0' && text[0] <= '9' {
		if p.m.Cols > 0 {
			p.gridLine(text, line)
		}
		return true
	}
	name := p.gridName()
	p.grid = noGrid
	if p.m.Cols == 0 {
		return false
	}
	p.errorf(line, "read %q, expected row %02d of the %s grid (the row number, a space, then %d characters)",
		clip(strings.TrimSpace(text)), p.gridRow, name, p.m.Cols)
	return indented
}

// stripComment removes a '#' comment outside double quotes.
func stripComment(s string) (string, string) {
	in := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			in = !in
		case '#':
			if !in {
				return s[:i], ""
			}
		}
	}
	if in {
		return "", "a quoted name is not closed: expected a closing \" on the same line"
	}
	return s, ""
}

// tokenize splits a line into words; double quotes group spaces into a word
// and are removed. The line's quotes are balanced (stripComment checked).
func tokenize(s string, line int) []token {
	var out []token
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		var b strings.Builder
		eq := -1
		in := false
		for i < len(s) && (in || (s[i] != ' ' && s[i] != '\t')) {
			c := s[i]
			switch {
			case c == '"':
				in = !in
			case c == '=' && !in && eq < 0:
				eq = b.Len()
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
			i++
		}
		out = append(out, token{text: b.String(), line: line, eq: eq})
	}
	return out
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// gridLine reads one row of a grid section.
func (p *parser) gridLine(text string, line int) {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	num, err := strconv.Atoi(text[:i])
	row := p.gridRow
	rest := strings.TrimRight(text[i:], " \t")
	if err != nil || num != row {
		p.errorf(line, "read row number %q, expected row %02d of the %s grid", text[:i], row, p.gridName())
		if err == nil && num > row && num <= p.m.Rows {
			row = num // a row left out: carry on from the row given
			p.gridRow = num
		}
	}
	if len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
		p.errorf(line, "read %q, expected the row number, a space, then %d characters", clip(text), p.m.Cols)
		p.nextRow()
		return
	}
	cells := strings.TrimLeft(rest, " \t")
	if len(cells) != p.m.Cols {
		p.errorf(line, "row %02d of the %s grid has %d characters, expected %d (one per column)", row, p.gridName(), len(cells), p.m.Cols)
	}
	for c := 0; c < len(cells) && c < p.m.Cols; c++ {
		h := game.Hex{Col: c + 1, Row: row}
		ch := cells[c]
		if p.grid == terrainGrid {
			t, ok := terrainChars[ch]
			if !ok {
				p.errorf(line, "hex %s: read %q, expected a terrain character: . clear, r rough, w woods, ^ mountain, ~ sea", h, ch)
				continue
			}
			p.m.Terrain[(row-1)*p.m.Cols+c] = t
			p.m.Lines["hex "+h.String()] = line
			continue
		}
		switch {
		case ch == '.' || ch == '~':
		case ch >= 'A' && ch <= 'Z':
			l := string(ch)
			p.provGrid[l] = append(p.provGrid[l], gridHex{h, line})
		default:
			p.errorf(line, "hex %s: read %q, expected a province letter A–Z, or . or ~ for no province", h, ch)
		}
	}
	p.nextRow()
}

func (p *parser) nextRow() {
	p.gridRow++
	if p.gridRow > p.m.Rows {
		p.grid = noGrid
	}
}

// flush handles the gathered directive.
func (p *parser) flush() {
	toks := p.stmt
	p.stmt = nil
	if len(toks) == 0 {
		return
	}
	head := toks[0]
	args := toks[1:]
	if head.text != "map" && !p.header {
		if !p.noHeader {
			p.errorf(head.line, "read %q, expected the header first: map NAME COLSxROWS", clip(head.text))
		}
		p.noHeader = true
		return
	}
	switch head.text {
	case "map":
		p.parseHeader(head, args)
	case "terrain":
		p.startGrid(head, args, terrainGrid)
	case "provinces":
		p.startGrid(head, args, provinceGrid)
	case "nation":
		p.parseNation(head, args)
	case "province":
		p.parseProvince(head, args)
	case "city":
		p.parseCity(head, args)
	case "sea":
		p.parseSea(head, args)
	case "wind":
		p.parseWind(head, args)
	case "river":
		p.parseRiver(head, args)
	case "road":
		p.parseRoad(head, args)
	case "goodholding":
		p.parseGoodHolding(head, args)
	default:
		p.errorf(head.line, "read %q, expected a directive: map, terrain, provinces, nation, province, city, sea, wind, river, road or goodholding", clip(head.text))
	}
}

func (p *parser) parseHeader(head token, args []token) {
	if p.header {
		p.errorf(head.line, "read a second map header, expected one per file")
		return
	}
	p.header = true
	if len(args) != 2 {
		p.errorf(head.line, "read %d words after map, expected: map NAME COLSxROWS (a quoted name if it has spaces)", len(args))
		return
	}
	p.m.Name = args[0].text
	c, r, ok := strings.Cut(args[1].text, "x")
	cols, err1 := strconv.Atoi(c)
	rows, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || cols < 1 || rows < 1 || cols > MaxSide || rows > MaxSide {
		p.errorf(head.line, "read size %q, expected COLSxROWS such as 35x30 (each 1 to %d)", args[1].text, MaxSide)
		return
	}
	p.m.Cols, p.m.Rows = cols, rows
	p.m.Terrain = make([]game.Terrain, cols*rows)
	p.m.Lines["map"] = head.line
}

func (p *parser) startGrid(head token, args []token, kind gridKind) {
	name := "terrain"
	if kind == provinceGrid {
		name = "provinces"
	}
	if len(args) > 0 {
		p.errorf(head.line, "read %q after %s, expected nothing: the grid rows follow on the next lines", clip(args[0].text), name)
	}
	if p.m.Cols == 0 {
		p.errorf(head.line, "read the %s grid before a valid map header, expected map NAME COLSxROWS first", name)
		p.grid = kind // swallow its rows
		return
	}
	if p.gridAt == nil {
		p.gridAt = map[gridKind]int{}
	}
	if l, dup := p.gridAt[kind]; dup {
		p.errorf(head.line, "read a second %s grid, expected one (the first is at line %d)", name, l)
		return
	}
	p.gridAt[kind] = head.line
	p.m.Lines[name] = head.line
	if kind == provinceGrid && p.provGrid == nil {
		p.provGrid = map[string][]gridHex{}
	}
	p.grid = kind
	p.gridRow = 1
}

// hexItems reads hex lists: "0812", "0810-0814" (a run down one column), and
// comma-separated lists of those.
func (p *parser) hexItems(t token, s string) []game.Hex {
	var out []game.Hex
	for _, item := range strings.Split(s, ",") {
		if item == "" {
			continue
		}
		from, to, isRange := strings.Cut(item, "-")
		a, ok := p.hex(t.line, from)
		if !ok {
			continue
		}
		if !isRange {
			out = append(out, a)
			continue
		}
		b, ok := p.hex(t.line, to)
		if !ok {
			continue
		}
		if a.Col != b.Col || b.Row < a.Row {
			p.errorf(t.line, "read range %q, expected a run down one column, top first, such as 0810-0814", item)
			continue
		}
		for r := a.Row; r <= b.Row; r++ {
			out = append(out, game.Hex{Col: a.Col, Row: r})
		}
	}
	return out
}

// hex reads one hex name and checks it is on the map.
func (p *parser) hex(line int, s string) (game.Hex, bool) {
	h, err := game.ParseHex(s)
	if err != nil {
		p.errorf(line, "%v", err)
		return h, false
	}
	if p.m.Cols > 0 && !p.m.InBounds(h) {
		p.errorf(line, "hex %s is off the map, expected columns 01–%02d and rows 01–%02d", h, p.m.Cols, p.m.Rows)
		return h, false
	}
	return h, true
}

func validWord(s string, first func(byte) bool, rest func(byte) bool) bool {
	if s == "" || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest(s[i]) {
			return false
		}
	}
	return true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func validNationID(s string) bool {
	return validWord(s, isLower, func(c byte) bool { return isLower(c) || isDigit(c) || c == '-' || c == '_' })
}

func validLetter(s string) bool {
	return len(s) <= 3 && validWord(s, isUpper, func(c byte) bool { return isUpper(c) || isDigit(c) })
}

func validForceLetter(s string) bool {
	return len(s) <= 3 && validWord(s, isUpper, isUpper)
}

func validSeaID(s string) bool {
	alnum := func(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) }
	return len(s) <= 8 && validWord(s, func(c byte) bool { return isUpper(c) || isLower(c) }, alnum)
}

func validName(s string) bool {
	if strings.TrimSpace(s) != s || s == "" {
		return false
	}
	for _, r := range s {
		if r < ' ' || r == '"' {
			return false
		}
	}
	return true
}

func (p *parser) parseNation(head token, args []token) {
	if len(args) == 0 {
		p.errorf(head.line, "read nation with nothing after it, expected: nation ID name=… letter=… capitol=… provinces=…")
		return
	}
	id := args[0]
	if id.isKey() || !validNationID(id.text) {
		p.errorf(id.line, "read nation ID %q, expected a lower-case word such as eisenmark", clip(id.text))
		return
	}
	nid := game.NationID(id.text)
	if id.text == "neutral" {
		p.errorf(id.line, "read nation ID neutral, expected another word: neutral means no nation")
		return
	}
	if l, dup := p.nationAt[nid]; dup {
		p.errorf(id.line, "nation %s is declared again, expected one nation line per nation (the first is at line %d)", nid, l)
		return
	}
	p.nationAt[nid] = id.line
	p.m.Lines["nation "+id.text] = id.line
	n := game.Nation{ID: nid}
	seen := map[string]bool{}
	for _, a := range args[1:] {
		if !a.isKey() {
			p.errorf(a.line, "read %q, expected key=value: name, letter, capitol, provinces, traits or tax", clip(a.text))
			continue
		}
		k, v := a.key(), a.value()
		if seen[k] {
			p.errorf(a.line, "read %s= twice, expected it once", k)
			continue
		}
		seen[k] = true
		switch k {
		case "name":
			if !validName(v) {
				p.errorf(a.line, "read name %q, expected a name", clip(v))
			}
			n.Name = v
		case "letter":
			if !validForceLetter(v) {
				p.errorf(a.line, "read letter %q, expected one to three capital letters (the prefix of force IDs, E → E1)", clip(v))
			}
			n.Letter = v
		case "capitol":
			if !validName(v) {
				p.errorf(a.line, "read capitol %q, expected a city name", clip(v))
			}
			n.Capitol = v
		case "provinces":
			for l := range strings.SplitSeq(v, ",") {
				if !validLetter(l) {
					p.errorf(a.line, "read province letter %q, expected capital letters separated by commas (F,K,L)", clip(l))
					continue
				}
				n.Provinces = append(n.Provinces, l)
			}
		case "traits":
			for w := range strings.SplitSeq(v, ",") {
				found := false
				for _, k := range traitKeywords {
					if k.word == w {
						*k.of(&n.Traits) = true
						found = true
					}
				}
				if !found {
					p.errorf(a.line, "read trait %q, expected one of %s (comma-separated)", clip(w), traitWords())
				}
			}
		case "tax":
			t, err := strconv.Atoi(v)
			if err != nil || t < 0 {
				p.errorf(a.line, "read tax=%q, expected the home tax base as a number (tax=1600)", clip(v))
				continue
			}
			if p.m.HomeTax == nil {
				p.m.HomeTax = map[game.NationID]int{}
			}
			p.m.HomeTax[nid] = t
		default:
			p.errorf(a.line, "read %s=, expected name, letter, capitol, provinces, traits or tax", clip(k))
		}
	}
	for _, k := range []string{"name", "letter", "capitol", "provinces"} {
		if !seen[k] {
			p.errorf(head.line, "nation %s has no %s=, expected name=, letter=, capitol= and provinces=", nid, k)
		}
	}
	p.m.Nations = append(p.m.Nations, n)
}

// regionArgs reads the owner= and hexes= of a province or a sea: key=value
// words, and bare hex items that continue a hexes= list.
func (p *parser) regionArgs(what string, args []token, keys []string) (map[string]token, []gridHex) {
	kv := map[string]token{}
	var hexes []gridHex
	inHexes := false
	for _, a := range args {
		if a.isKey() {
			k := a.key()
			if k == "hexes" {
				inHexes = true
				for _, h := range p.hexItems(a, a.value()) {
					hexes = append(hexes, gridHex{h, a.line})
				}
				continue
			}
			if !slices.Contains(keys, k) {
				p.errorf(a.line, "read %s= on a %s line, expected %s", clip(k), what, strings.Join(append(slices.Clone(keys), "hexes"), "=, ")+"=")
				continue
			}
			if _, dup := kv[k]; dup {
				p.errorf(a.line, "read %s= twice, expected it once", k)
				continue
			}
			kv[k] = a
			inHexes = false
			continue
		}
		if !inHexes {
			p.errorf(a.line, "read %q on a %s line, expected key=value (hex lists follow hexes=)", clip(a.text), what)
			continue
		}
		for _, h := range p.hexItems(a, a.text) {
			hexes = append(hexes, gridHex{h, a.line})
		}
	}
	return kv, hexes
}

func (p *parser) parseProvince(head token, args []token) {
	if len(args) < 2 || args[0].isKey() || args[1].isKey() {
		p.errorf(head.line, "expected: province LETTER \"Name\" owner=NATION|neutral [hexes=…]")
		return
	}
	l, name := args[0], args[1]
	if !validLetter(l.text) {
		p.errorf(l.line, "read province letter %q, expected a capital letter (F)", clip(l.text))
		return
	}
	if !validName(name.text) {
		p.errorf(name.line, "read province name %q, expected a name", clip(name.text))
	}
	if at, dup := p.provAt[l.text]; dup {
		p.errorf(l.line, "province %s is declared again, expected one line per province (the first is at line %d)", l.text, at)
		return
	}
	p.provAt[l.text] = l.line
	p.m.Lines["province "+l.text] = l.line
	kv, hexes := p.regionArgs("province", args[2:], []string{"owner"})
	pr := Province{Letter: l.text, Name: name.text}
	if o, ok := kv["owner"]; ok {
		v := o.value()
		switch {
		case v == "neutral":
		case validNationID(v):
			pr.Owner = game.NationID(v)
		default:
			p.errorf(o.line, "read owner %q, expected a nation ID or neutral", clip(v))
		}
	} else {
		p.errorf(head.line, "province %s has no owner=, expected owner=NATION or owner=neutral", l.text)
	}
	p.m.Provinces = append(p.m.Provinces, pr)
	for _, h := range hexes {
		p.addProvinceHex(l.text, h)
	}
}

func (p *parser) addProvinceHex(letter string, h gridHex) {
	set := p.provHexes[letter]
	if set == nil {
		set = map[game.Hex]bool{}
		p.provHexes[letter] = set
	}
	if set[h.hex] {
		p.errorf(h.line, "hex %s is given twice for province %s, expected each once", h.hex, letter)
		return
	}
	set[h.hex] = true
	key := "province " + letter + " " + h.hex.String()
	if _, ok := p.m.Lines[key]; !ok {
		p.m.Lines[key] = h.line
	}
	i := slices.IndexFunc(p.m.Provinces, func(pr Province) bool { return pr.Letter == letter })
	p.m.Provinces[i].Hexes = append(p.m.Provinces[i].Hexes, h.hex)
}

func (p *parser) parseCity(head token, args []token) {
	if len(args) < 2 || args[0].isKey() {
		p.errorf(head.line, "expected: city \"Name\" HEX [port] [river]")
		return
	}
	name := args[0]
	if !validName(name.text) {
		p.errorf(name.line, "read city name %q, expected a name", clip(name.text))
		return
	}
	h, ok := p.hex(args[1].line, args[1].text)
	if !ok {
		return
	}
	c := City{Name: name.text, Hex: h}
	for _, f := range args[2:] {
		switch f.text {
		case "port":
			if c.Port {
				p.errorf(f.line, "read port twice, expected it once")
			}
			c.Port = true
		case "river":
			if c.River {
				p.errorf(f.line, "read river twice, expected it once")
			}
			c.River = true
		default:
			p.errorf(f.line, "read %q after the city's hex, expected port or river (or nothing)", clip(f.text))
		}
	}
	fold := foldName(c.Name)
	if at, dup := p.cityAt[fold]; dup {
		p.errorf(name.line, "city %q is declared again, expected each name once (the first is at line %d)", c.Name, at)
		return
	}
	if other, dup := p.cityHexAt[h]; dup {
		p.errorf(name.line, "city %q is in hex %s, which already holds %q: expected one city per hex", c.Name, h, other)
		return
	}
	p.cityAt[fold] = name.line
	p.cityHexAt[h] = c.Name
	p.m.Lines["city "+c.Name] = name.line
	p.m.Cities = append(p.m.Cities, c)
}

func (p *parser) parseSea(head token, args []token) {
	if len(args) < 2 || args[0].isKey() || args[1].isKey() {
		p.errorf(head.line, "expected: sea ID \"Name\" hexes=…")
		return
	}
	id, name := args[0], args[1]
	if !validSeaID(id.text) {
		p.errorf(id.line, "read sea area ID %q, expected a short word of letters and digits such as S1", clip(id.text))
		return
	}
	if !validName(name.text) {
		p.errorf(name.line, "read sea area name %q, expected a name", clip(name.text))
	}
	sid := game.SeaID(id.text)
	if at, dup := p.seaAt[sid]; dup {
		p.errorf(id.line, "sea area %s is declared again, expected one line per sea area (the first is at line %d)", sid, at)
		return
	}
	p.seaAt[sid] = id.line
	p.m.Lines["sea "+id.text] = id.line
	_, hexes := p.regionArgs("sea", args[2:], nil)
	s := SeaArea{ID: sid, Name: name.text}
	set := map[game.Hex]bool{}
	for _, h := range hexes {
		if set[h.hex] {
			p.errorf(h.line, "hex %s is given twice for sea area %s, expected each once", h.hex, sid)
			continue
		}
		set[h.hex] = true
		s.Hexes = append(s.Hexes, h.hex)
		p.m.Lines["sea "+id.text+" "+h.hex.String()] = h.line
	}
	if len(s.Hexes) == 0 {
		p.errorf(head.line, "sea area %s has no hexes, expected hexes=…", sid)
	}
	p.m.Seas = append(p.m.Seas, s)
}

func (p *parser) parseWind(head token, args []token) {
	if len(args) != 3 || (args[1].text != ">" && args[1].text != "<>") {
		p.errorf(head.line, "expected: wind FROM > TO (the wind blows from FROM into TO) or wind A <> B (doldrums)")
		return
	}
	a, b := args[0], args[2]
	for _, t := range []token{a, b} {
		if !validSeaID(t.text) {
			p.errorf(t.line, "read sea area ID %q, expected a sea area ID such as S1", clip(t.text))
			return
		}
	}
	w := Wind{From: game.SeaID(a.text), To: game.SeaID(b.text), Kind: WithWind}
	if args[1].text == "<>" {
		w.Kind = BothWays
	}
	key := [2]game.SeaID{w.From, w.To}
	if w.To < w.From {
		key = [2]game.SeaID{w.To, w.From}
	}
	if at, dup := p.windAt[key]; dup {
		p.errorf(head.line, "a second wind marker between %s and %s, expected one (the first is at line %d)", key[0], key[1], at)
		return
	}
	p.windAt[key] = head.line
	p.m.Lines["wind "+string(key[0])+" "+string(key[1])] = head.line
	p.m.Winds = append(p.m.Winds, w)
}

func (p *parser) parseRiver(head token, args []token) {
	if len(args) == 0 {
		p.errorf(head.line, "expected: river HEX/HEX HEX/HEX … (the hexsides the river runs along)")
		return
	}
	for _, a := range args {
		x, y, ok := strings.Cut(a.text, "/")
		if !ok {
			p.errorf(a.line, "read %q, expected a hexside as two hexes joined by /, such as 0812/0813", clip(a.text))
			continue
		}
		h1, ok1 := p.hex(a.line, x)
		h2, ok2 := p.hex(a.line, y)
		if !ok1 || !ok2 {
			continue
		}
		e := EdgeOf(h1, h2)
		if p.rivers[e] {
			continue // a river drawn twice along a side is the same river
		}
		p.rivers[e] = true
		p.m.Lines["river "+edgeKey(e)] = a.line
		p.m.Rivers = append(p.m.Rivers, e)
	}
}

func edgeKey(e Edge) string { return e.A.String() + "/" + e.B.String() }

func (p *parser) parseRoad(head token, args []token) {
	if len(args) < 2 {
		p.errorf(head.line, "expected: road HEX HEX … (a path of at least two adjacent hexes)")
		return
	}
	var prev game.Hex
	havePrev := false
	for _, a := range args {
		h, ok := p.hex(a.line, a.text)
		if !ok {
			havePrev = false
			continue
		}
		if havePrev {
			e := EdgeOf(prev, h)
			if !p.roads[e] {
				p.roads[e] = true
				p.m.Lines["road "+edgeKey(e)] = a.line
				p.m.Roads = append(p.m.Roads, e)
			}
		}
		prev, havePrev = h, true
	}
}

func (p *parser) parseGoodHolding(head token, args []token) {
	if len(args) == 0 {
		p.errorf(head.line, "expected: goodholding HEX … (coastal hexes where troops may land)")
		return
	}
	for _, a := range args {
		for _, h := range p.hexItems(a, a.text) {
			if p.holding[h] {
				p.errorf(a.line, "hex %s is marked good holding twice, expected once", h)
				continue
			}
			p.holding[h] = true
			p.m.Lines["goodholding "+h.String()] = a.line
			p.m.GoodHolding = append(p.m.GoodHolding, h)
		}
	}
}

// finish resolves references and builds the map.
func (p *parser) finish() {
	if !p.header {
		if !p.noHeader {
			p.errorf(p.last, "the file has no map header, expected map NAME COLSxROWS first")
		}
		return
	}
	if p.m.Cols == 0 {
		return
	}
	if _, ok := p.gridAt[terrainGrid]; !ok {
		p.errorf(p.last, "the file has no terrain grid, expected a terrain line followed by %d rows", p.m.Rows)
	}
	letters := make([]string, 0, len(p.provGrid))
	for l := range p.provGrid {
		letters = append(letters, l)
	}
	slices.Sort(letters)
	for _, l := range letters {
		hexes := p.provGrid[l]
		if _, ok := p.provAt[l]; !ok {
			p.errorf(hexes[0].line, "province letter %s in the provinces grid has no province line, expected province %s \"Name\" owner=…", l, l)
			continue
		}
		for _, h := range hexes {
			p.addProvinceHex(l, h)
		}
	}
	if len(p.errs) > 0 {
		return
	}
	p.m.Build()
	p.m.deriveCities()
}

// deriveCities sets each city's province from its hex and its capitol from
// the nations' capitol= names.
func (m *Map) deriveCities() {
	for i := range m.Cities {
		c := &m.Cities[i]
		c.Province = ""
		c.Capitol = game.Neutral
		if pr, ok := m.ProvinceOf(c.Hex); ok {
			c.Province = pr.Letter
		}
	}
	for _, n := range m.Nations {
		if c, ok := m.City(n.Capitol); ok && c.Capitol == game.Neutral {
			c.Capitol = n.ID
		}
	}
}
