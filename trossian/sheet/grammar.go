package sheet

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// The grammar: one function per statement keyword, each reading the words
// after the keyword into a trossian order. docs/orders-trossian.md is the
// players' reference.

// Keywords are the words that begin a statement, in the reference's order.
var Keywords = []string{
	"MOVE", "ATTACK", "DEFEND", "STANCE", "HOLD", "RETREAT", "DETACH", "MERGE",
	"PACIFY", "BESIEGE", "NAVY", "COURIER", "SEND", "BUY", "BANK",
}

// statementParsers maps each keyword to its grammar.
var statementParsers = map[string]func(*reader){
	"MOVE": parseMove, "ATTACK": parseAttack, "DEFEND": parseDefend, "STANCE": parseStance, "HOLD": parseHold,
	"RETREAT": parseRetreat, "DETACH": parseDetach, "MERGE": parseMerge, "PACIFY": parsePacify,
	"BESIEGE": parseBesiege, "NAVY": parseNavy, "COURIER": parseCourier, "SEND": parseSend,
	"BUY": parseBuy, "BANK": parseBank,
}

// failure stops the reading of one statement.
type failure struct{ d parser.Diagnostic }

// reader reads one statement.
type reader struct {
	m    *areamap.Map
	line parser.FrameLine
	toks []parser.Token
	pos  int
	out  engine.Order
}

func (p *reader) peek() parser.Token { return p.toks[p.pos] }

func (p *reader) next() parser.Token {
	t := p.toks[p.pos]
	if t.Type != parser.TokenEOL && t.Type != parser.TokenError {
		p.pos++
	}
	return t
}

func (p *reader) at() engine.At { return engine.At{Line: p.line.Line} }

// fail stops the statement: the line, what was read, what was expected, a
// hint.
func (p *reader) fail(t parser.Token, msg, hint string) {
	d := parser.Diagnostic{Line: p.line.LineAt(t.Pos), Severity: parser.Error, Source: p.line.Text, Message: msg, Hint: hint}
	if t.Type != parser.TokenEOL {
		d.Read = t.Val
	}
	if t.Type == parser.TokenError {
		d.Message, d.Hint = "read "+t.Val, parser.LexHint(t)
	}
	if p.line.EndLine != d.Line {
		d.EndLine = p.line.EndLine
	}
	panic(failure{d})
}

func (p *reader) expected(t parser.Token, what, hint string) {
	p.fail(t, fmt.Sprintf("expected %s, read %s", what, t.Quoted()), hint)
}

// keyword reads one of options by unique prefix.
func (p *reader) keyword(hint string, options ...string) string {
	t := p.next()
	if t.Type == parser.TokenWord {
		kw, amb := parser.MatchKeyword(t.Val, options)
		if kw != "" {
			return kw
		}
		if len(amb) > 0 {
			p.fail(t, fmt.Sprintf("%s could be %s", t.Quoted(), parser.OrList(amb)), "Write more of the word. "+hint)
		}
		p.fail(t, fmt.Sprintf("expected %s, read %s%s", parser.OrList(options), t.Quoted(), parser.DidYouMean(parser.Suggest(t.Val, options))), hint)
	}
	p.expected(t, parser.OrList(options), hint)
	return ""
}

// acceptExact reads an optional word written in full.
func (p *reader) acceptExact(options ...string) bool {
	t := p.peek()
	if t.Type != parser.TokenWord {
		return false
	}
	for _, o := range options {
		if strings.EqualFold(o, t.Val) {
			p.next()
			return true
		}
	}
	return false
}

func (p *reader) atEnd() bool { return p.peek().Type == parser.TokenEOL }

func (p *reader) acceptComma() bool {
	if p.peek().Type == parser.TokenComma {
		p.next()
		return true
	}
	return false
}

var forceIDPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z]?[0-9]{1,5}$`)

// force reads a force ID ("N2", "NF1").
func (p *reader) force(what string) game.ForceID {
	t := p.next()
	if t.Type == parser.TokenWord && forceIDPattern.MatchString(t.Val) {
		return game.ForceID(strings.ToUpper(t.Val))
	}
	p.expected(t, what+" such as N2", "Name the force by its ID as printed on your report.")
	return ""
}

// number reads a whole number from 1 to max.
func (p *reader) number(what string, maxN int) int {
	t := p.next()
	if t.Type == parser.TokenNumber {
		n, err := strconv.Atoi(t.Val)
		if err == nil && n >= 1 && n <= maxN {
			return n
		}
		p.fail(t, fmt.Sprintf("%s %s: expected a number from 1 to %d", what, t.Val, maxN), "Check the number.")
	}
	p.expected(t, what, "Write the number in digits: 4, not four.")
	return 0
}

// place reads a province (or, with lanes, a sea lane) of the map by name.
func (p *reader) place(lanes bool, what string) string {
	t := p.next()
	if t.Type != parser.TokenWord && t.Type != parser.TokenString {
		p.expected(t, what, "Name it as it is printed on the map.")
	}
	id, lane, ok := p.m.Lookup(t.Val)
	if ok && (lanes || !lane) {
		return id
	}
	var names []string
	for _, pr := range p.m.Provinces {
		names = append(names, pr.ID)
	}
	if lanes {
		for _, l := range p.m.Lanes {
			names = append(names, l.ID)
		}
	}
	if ok && lane {
		p.fail(t, fmt.Sprintf("%s is a sea lane: expected %s", id, what), "Name a province.")
	}
	p.fail(t, fmt.Sprintf("no %s %s on the map%s", map[bool]string{true: "province or lane", false: "province"}[lanes], t.Quoted(), parser.DidYouMean(parser.Suggest(t.Val, names))),
		"Name it as it is printed on the map.")
	return ""
}

// lane reads a sea lane.
func (p *reader) lane() string {
	t := p.peek()
	id := p.place(true, "a sea lane such as W1")
	if _, ok := p.m.Lane(id); !ok {
		p.fail(t, fmt.Sprintf("%s is a province: expected a sea lane", id), "Name the lane by its ID as printed on the map, e.g. W1.")
	}
	return id
}

// stands reads "1 hq, 2 line-infantry, 1 guard heavy-infantry"; extras
// reads the words a purchase may hold besides stands (navy, messenger).
func (p *reader) stands(extras map[string]*int) trossian.Stands {
	var out trossian.Stands
	for {
		t := p.peek()
		if t.Type != parser.TokenNumber {
			if len(out) == 0 && len(extras) == 0 {
				p.expected(t, "a count of stands such as 2 line-infantry", "List stands as COUNT TYPE, separated by commas.")
			}
			break
		}
		n := p.number("a count of stands", 999)
		guard := p.acceptExact("guard", "guards")
		w := p.next()
		if w.Type != parser.TokenWord {
			p.expected(w, "a unit type after "+strconv.Itoa(n), "Write the type: "+typeList()+".")
		}
		if !guard && extras != nil {
			if x, ok := extraOf(w.Val); ok {
				*extras[x] += n
				if !p.acceptComma() {
					break
				}
				continue
			}
		}
		u, ok := trossian.ParseUnitType(w.Val)
		if !ok {
			opts := typeWords()
			if extras != nil {
				opts = append(opts, "navy", "messenger")
			}
			p.fail(w, fmt.Sprintf("expected a unit type, read %s%s", w.Quoted(), parser.DidYouMean(parser.Suggest(w.Val, opts))),
				"The types are "+typeList()+".")
		}
		out = append(out, trossian.Stand{Type: u, Guard: guard, Count: n})
		if !p.acceptComma() {
			break
		}
	}
	return out.Normalize()
}

func extraOf(w string) (string, bool) {
	switch strings.ToLower(w) {
	case "navy", "navies":
		return "navy", true
	case "messenger", "messengers", "courier", "couriers":
		return "messenger", true
	}
	return "", false
}

func typeWords() []string {
	var out []string
	for _, u := range trossian.UnitTypes {
		out = append(out, string(u))
	}
	return out
}

func typeList() string { return parser.OrList(typeWords()) }

// MOVE army [TO] province | MOVE army province province …
func parseMove(p *reader) {
	f := p.force("the army to move")
	if p.acceptExact("TO") {
		p.out = trossian.Move{At: p.at(), Force: f, Dest: p.place(false, "the province to march to")}
		return
	}
	var path []string
	for !p.atEnd() {
		if p.acceptComma() {
			continue
		}
		path = append(path, p.place(false, "the next province of the march"))
	}
	if len(path) == 0 {
		p.expected(p.peek(), "the provinces of the march, or TO and a province", "Write MOVE "+string(f)+" TO Trossburg, or MOVE "+string(f)+" Elkmoor Tarnwick.")
	}
	if len(path) == 1 {
		p.out = trossian.Move{At: p.at(), Force: f, Dest: path[0]}
		return
	}
	p.out = trossian.Move{At: p.at(), Force: f, Path: path}
}

// ATTACK army | DEFEND army | STANCE army ATTACK|DEFEND
func parseAttack(p *reader) {
	p.out = trossian.SetStance{At: p.at(), Force: p.force("an army"), Stance: game.Attack}
}

func parseDefend(p *reader) {
	p.out = trossian.SetStance{At: p.at(), Force: p.force("an army"), Stance: game.Defend}
}

func parseStance(p *reader) {
	f := p.force("an army")
	s := game.Defend
	if p.keyword("An army's stance is ATTACK or DEFEND.", "ATTACK", "DEFEND") == "ATTACK" {
		s = game.Attack
	}
	p.out = trossian.SetStance{At: p.at(), Force: f, Stance: s}
}

// HOLD army
func parseHold(p *reader) { p.out = trossian.Hold{At: p.at(), Force: p.force("an army")} }

// RETREAT army [TO] province
func parseRetreat(p *reader) {
	f := p.force("an army")
	p.acceptExact("TO")
	p.out = trossian.Retreat{At: p.at(), Force: f, To: p.place(false, "the province to retreat to")}
}

// DETACH army stands [AS id]
func parseDetach(p *reader) {
	f := p.force("the army to detach from")
	st := p.stands(nil)
	var as game.ForceID
	if p.acceptExact("AS") {
		as = p.force("the new army's ID")
	}
	p.out = trossian.Detach{At: p.at(), Force: f, Stands: st, As: as}
}

// MERGE army [INTO] army
func parseMerge(p *reader) {
	f := p.force("the army to merge")
	p.acceptExact("INTO", "WITH")
	p.out = trossian.Merge{At: p.at(), Force: f, Into: p.force("the army to merge into")}
}

func parsePacify(p *reader) {
	p.out = trossian.Pacify{At: p.at(), Force: p.force("the army to pacify with")}
}

func parseBesiege(p *reader) {
	p.out = trossian.Besiege{At: p.at(), Force: p.force("the army to besiege with")}
}

// NAVY navy action, action … (OUT [lane], SAIL lane, IN province, EMBARK
// army, LAND army)
func parseNavy(p *reader) {
	n := p.force("a navy such as NF1;")
	x := trossian.NavyOrders{At: p.at(), Navy: n}
	hint := "Write NAVY " + string(n) + " OUT, SAIL W1, IN Carrow, LAND N1."
	for !p.atEnd() {
		if p.acceptComma() {
			continue
		}
		switch p.keyword(hint, "OUT", "SAIL", "IN", "EMBARK", "LAND") {
		case "OUT":
			a := trossian.NavyAction{Act: trossian.ActOut}
			if t := p.peek(); t.Type == parser.TokenWord {
				if _, lane, ok := p.m.Lookup(t.Val); ok && lane {
					a.Lane = p.lane()
				}
			}
			x.Actions = append(x.Actions, a)
		case "SAIL":
			p.acceptExact("TO", "INTO")
			x.Actions = append(x.Actions, trossian.NavyAction{Act: trossian.ActSail, Lane: p.lane()})
			for p.peek().Type == parser.TokenWord && !isAction(p.peek().Val) {
				x.Actions = append(x.Actions, trossian.NavyAction{Act: trossian.ActSail, Lane: p.lane()})
			}
		case "IN":
			p.acceptExact("TO", "AT")
			x.Actions = append(x.Actions, trossian.NavyAction{Act: trossian.ActIn, Province: p.place(false, "the port or coast to go in to")})
		case "EMBARK":
			x.Actions = append(x.Actions, trossian.NavyAction{Act: trossian.ActEmbark, Army: p.force("the army to take aboard")})
		case "LAND":
			x.Actions = append(x.Actions, trossian.NavyAction{Act: trossian.ActLand, Army: p.force("the army to land")})
		}
	}
	if len(x.Actions) == 0 {
		p.expected(p.peek(), "the navy's actions", hint)
	}
	p.out = x
}

func isAction(w string) bool {
	kw, _ := parser.MatchKeyword(w, []string{"OUT", "SAIL", "IN", "EMBARK", "LAND"})
	return kw != ""
}

// COURIER TO force [VIA place …] | SEND [A] [COURIER] TO force …
func parseCourier(p *reader) {
	x := trossian.SendCourier{At: p.at()}
	if !p.acceptExact("TO") {
		p.expected(p.peek(), "TO and the force the courier rides to", "Write COURIER TO N2, then the orders for N2 on the lines that follow.")
	}
	x.To = p.force("the army or navy the courier rides to")
	if p.acceptExact("VIA", "BY", "THROUGH") {
		for !p.atEnd() {
			if p.acceptComma() {
				continue
			}
			x.Via = append(x.Via, p.place(true, "a province or lane to ride through"))
		}
	}
	p.out = x
}

func parseSend(p *reader) {
	p.acceptExact("A")
	p.acceptExact("COURIER")
	parseCourier(p)
}

// BUY stands [, n navy] [, n messengers] AT city
func parseBuy(p *reader) {
	var navies, messengers int
	st := p.stands(map[string]*int{"navy": &navies, "messenger": &messengers})
	if st.Total() == 0 && navies == 0 && messengers == 0 {
		p.expected(p.peek(), "what to buy, such as 2 line-infantry", "Write BUY 1 hq, 2 line-infantry AT Norhaven.")
	}
	if !p.acceptExact("AT", "IN") {
		p.expected(p.peek(), "AT and the city where they appear", "Recruits \"appear in any controlled city province\": write AT and the town or port.")
	}
	p.out = trossian.Buy{At: p.at(), City: p.place(false, "the town or port where they appear"), Stands: st, Navies: navies, Messengers: messengers}
}

// BANK n [AP] AT city
func parseBank(p *reader) {
	n := p.number("the AP to bank", 100000)
	p.acceptExact("AP")
	if !p.acceptExact("AT", "IN") {
		p.expected(p.peek(), "AT and the city to bank them in", "Write BANK 5 AT Tarnwick.")
	}
	p.out = trossian.Bank{At: p.at(), AP: n, City: p.place(false, "the town or port to bank them in")}
}

// parseStatement reads one statement.
func parseStatement(m *areamap.Map, l parser.FrameLine, prev *parser.FrameLine) (o engine.Order, diag *parser.Diagnostic) {
	p := &reader{m: m, line: l, toks: parser.Lex(l.Text)}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			o, diag = nil, &f.d
		}
	}()
	t := p.peek()
	cont := "Start each order with its keyword. If this line is not an order, put END after your last order, or # before the remark."
	if prev != nil && prev.EndLine+1 == l.Line {
		cont = fmt.Sprintf("If this line continues the order on line %d, start it with a space or end line %d with \\.", prev.EndLine, prev.EndLine)
	}
	if t.Type != parser.TokenWord {
		p.expected(t, "an order keyword such as MOVE or COURIER", cont)
	}
	kw, amb := parser.MatchKeyword(t.Val, Keywords)
	if kw == "" {
		if len(amb) > 0 {
			p.fail(t, fmt.Sprintf("%s could be %s", t.Quoted(), parser.OrList(amb)), "Write more of the keyword.")
		}
		if h, _ := parser.MatchKeyword(t.Val, []string{"GAME", "NATION", "PASSWORD", "TURN"}); h != "" {
			p.fail(t, h+" belongs to the header, which must come before the first order", "Move the header lines to the top of the sheet.")
		}
		if s := parser.Suggest(t.Val, Keywords); len(s) > 0 {
			p.fail(t, fmt.Sprintf("expected an order keyword, read %s%s", t.Quoted(), parser.DidYouMean(s)), "Correct the keyword; docs/orders-trossian.md lists them all.")
		}
		p.fail(t, fmt.Sprintf("expected an order keyword such as MOVE or COURIER, read %s", t.Quoted()), cont)
	}
	p.next()
	statementParsers[kw](p)
	if !p.atEnd() {
		t := p.peek()
		p.fail(t, fmt.Sprintf("expected the end of the order after %s, read %s", kw, t.Quoted()), "Remove the extra words, or put them in a comment after #.")
	}
	return p.out, nil
}
