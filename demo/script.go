package demo

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
)

// write is the player's draft for the turn st is open for, from its own
// View: the year-end buy, or the month's set pieces and general rule.
func (p *player) write(m *hexmap.Map, rules *ruleset.Ruleset, st *engine.State) (*engine.NationView, draft) {
	v := engine.View(m, rules, st, p.nation)
	pl := &plan{p: p, m: m, rules: rules, v: v, used: map[game.ForceID]bool{}, next: v.NextForce}
	for _, f := range v.Own {
		if n, err := strconv.Atoi(strings.TrimPrefix(string(f.ID), p.letter)); err == nil && n >= pl.next {
			pl.next = n + 1
		}
	}
	if st.Calendar.Date(st.Turn).IsYearEnd() {
		// Every crown the nation holds: its own treasury's, and those of
		// the treasuries it captured, which it brings home first.
		treasury := 0
		own := capitolOf(pl)
		for _, c := range v.Cities {
			treasury += c.Treasury
			if mc, ok := m.City(c.Name); ok && c.Treasury > 0 && c.Controller == p.nation && mc.Capitol != p.nation && c.Name != v.TemporaryCapitol {
				pl.add("TREASURY FROM %s %d TO %s", c.Name, c.Treasury, p.nation)
			}
		}
		return v, pl.yearEnd(own, treasury)
	}
	return v, pl.monthly()
}

// Script is the demo's scripted players without the mail: the sheets the
// demo mails, for a game held in memory. TestGameInvariants
// (internal/gamecheck) plays the demo's year with it through the engine,
// the checker and the report models, fast, over many seeds. Every nation of
// the map is a player: the five of the default scenario play their set
// pieces and then the general rule, the nations of any other map the
// general rule alone.
type Script struct {
	m       *hexmap.Map
	rules   *ruleset.Ruleset
	players map[game.NationID]*player
}

// NewScript makes the players of map m. The same seed writes the same
// sheets, as "pbem demo --seed" does.
func NewScript(m *hexmap.Map, rules *ruleset.Ruleset, seed uint64) *Script {
	s := &Script{m: m, rules: rules, players: map[game.NationID]*player{}}
	for i, n := range m.Nations {
		// The demo's five take their place in its mailing order, so that
		// a seed draws the same dice for them by mail and in memory.
		k := slices.IndexFunc(nations, func(x struct{ id, name, signature string }) bool { return x.id == string(n.ID) })
		if k < 0 {
			k = i
		}
		s.players[n.ID] = &player{nation: n.ID, name: n.Name, letter: n.Letter, password: "demo-" + string(n.ID),
			rng: rand.New(rand.NewPCG(seed, uint64(k)+1))}
	}
	return s
}

// Play writes nation's sheet for the turn st is open for and has it
// checked as the demo's player does by mail: a sheet written with a
// deliberate mistake is corrected after the first answer, and lines the
// checker refused are struck out and the sheet checked again. A treaty
// awaiting the nation's attestation in st (the notice the daemon mails) is
// attested. It returns the last sheet sent and its answer.
func (s *Script) Play(st *engine.State, nation game.NationID, check func(sheet string) *parser.Report) (string, *parser.Report) {
	p := s.players[nation]
	if p == nil {
		return "", nil
	}
	if p.treatyID == "" {
		for _, t := range st.Treaties {
			if t.Ratified == 0 && slices.Contains(t.Parties, nation) && !slices.Contains(t.Attested, nation) {
				p.treatyID = t.ID
				break
			}
		}
	}
	v, d := p.write(s.m, s.rules, st)
	text := p.sheet(v, d.lines, "")
	r := check(text)
	if d.fixed != nil {
		d.lines = d.fixed
		text = p.sheet(v, d.lines, "")
		r = check(text)
	}
	if bad := refusedLines(text, r); len(bad) > 0 {
		d.lines = slices.DeleteFunc(d.lines, func(l string) bool { return slices.Contains(bad, l) })
		text = p.sheet(v, d.lines, "")
		r = check(text)
	}
	for _, l := range d.lines {
		if strings.HasPrefix(l, "ATTEST ") {
			p.attested = true
		}
	}
	return text, r
}

// refusedLines are the lines of sheet that the checker's report has errors
// on, as refused reads them from the mailed answer.
func refusedLines(sheet string, r *parser.Report) []string {
	lines := strings.Split(sheet, "\n")
	var out []string
	for _, d := range r.Diagnostics {
		if d.Severity == parser.Error && d.Line >= 1 && d.Line <= len(lines) {
			out = append(out, strings.TrimSpace(lines[d.Line-1]))
		}
	}
	return out
}
