package areamap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// ValidateOptions are the rule numbers Validate checks a map against; the
// zero value skips those checks.
type ValidateOptions struct {
	// FrozenLanes is how many lanes must be frozen ("The four northern sea
	// lanes marked with a snowflake"); 0 skips the check.
	FrozenLanes int
}

// Problem is one thing wrong with a map: the line it was found at (0: the
// map as a whole) and what is wrong, said for the referee who will fix it.
type Problem struct {
	Line    int
	Message string
}

// String prints "line 12: message".
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	}
	return p.Message
}

// In prints the problem as a compiler does: "map.txt:12: message".
func (p Problem) In(file string) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", file, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", file, p.Message)
}

// Validate checks what Parse cannot and returns every problem, sorted by
// line. A map fit to play has none:
//
//   - every name a directive uses is declared: kingdoms of provinces,
//     capitals, lanes of coasts, provinces of borders and roads, lanes of
//     links; nothing borders or links itself, and no border, road or link is
//     given twice
//   - each kingdom has one capital, a town or port of its own; letters and
//     names are unique
//   - a port has a coast; a road runs along a border
//   - every province has a border or a coast, every lane a link or a coast,
//     and every place can be reached from every other by land and sea
//   - positions: either every place has at=, or none has, and no two share
//     one
//   - the number of frozen lanes is the rules' (ValidateOptions)
func (m *Map) Validate(opts ValidateOptions) []Problem {
	v := &validator{m: m}
	if len(m.Kingdoms) == 0 {
		v.add(m.Line, "the map has no kingdom: expected at least one kingdom line")
	}
	if len(m.Provinces) == 0 {
		v.add(m.Line, "the map has no province: expected province lines")
	}
	v.kingdoms()
	v.provinces()
	isProvince := func(id string) bool { _, ok := m.Province(id); return ok }
	isLane := func(id string) bool { _, ok := m.Lane(id); return ok }
	v.pairs("border", m.Borders, isProvince, "province")
	v.pairs("link", m.Links, isLane, "lane")
	v.pairs("road", m.Roads, isProvince, "province")
	v.roads()
	v.isolated()
	v.connected()
	v.positions()
	if opts.FrozenLanes > 0 {
		n := 0
		for _, l := range m.Lanes {
			if l.Frozen {
				n++
			}
		}
		if n != opts.FrozenLanes {
			v.add(m.Line, "the map has %d frozen lanes: expected %d (\"The four northern sea lanes marked with a snowflake\")", n, opts.FrozenLanes)
		}
	}
	slices.SortStableFunc(v.out, func(a, b Problem) int { return a.Line - b.Line })
	return v.out
}

type validator struct {
	m   *Map
	out []Problem
}

func (v *validator) add(line int, format string, args ...any) {
	v.out = append(v.out, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) kingdoms() {
	letters := map[string]game.NationID{}
	names := map[string]game.NationID{}
	for _, k := range v.m.Kingdoms {
		if o, dup := letters[k.Letter]; dup && k.Letter != "" {
			v.add(k.Line, "kingdom %s has letter %s, which %s has already: expected a letter of its own", k.ID, k.Letter, o)
		}
		letters[k.Letter] = k.ID
		if o, dup := names[strings.ToLower(k.Name)]; dup && k.Name != "" {
			v.add(k.Line, "kingdom %s is named %q, as %s is: expected a name of its own", k.ID, k.Name, o)
		}
		names[strings.ToLower(k.Name)] = k.ID
		if k.Capital == "" {
			continue
		}
		p, ok := v.m.Province(k.Capital)
		switch {
		case !ok:
			v.add(k.Line, "kingdom %s: capital=%s is no province of the map: expected one of its own towns or ports", k.ID, k.Capital)
		case !p.Kind.IsCity():
			v.add(k.Line, "kingdom %s: its capital %s is a %s: expected a town or port (the King \"remains inside [his] capital city\")", k.ID, p.ID, p.Kind)
		case p.Kingdom != k.ID:
			v.add(k.Line, "kingdom %s: its capital %s belongs to %s: expected one of its own provinces", k.ID, p.ID, owner(p.Kingdom))
		}
		if len(v.m.ProvincesOf(k.ID)) == 0 {
			v.add(k.Line, "kingdom %s has no province: expected provinces with kingdom=%s", k.ID, k.ID)
		}
	}
}

func owner(n game.NationID) string {
	if n == game.Neutral {
		return "no kingdom"
	}
	return string(n)
}

func (v *validator) provinces() {
	for _, p := range v.m.Provinces {
		if p.Kingdom != game.Neutral {
			if _, ok := v.m.Kingdom(p.Kingdom); !ok {
				v.add(p.Line, "province %s: kingdom=%s is not declared: expected a kingdom line for it, or no kingdom= for unclaimed lands", p.ID, p.Kingdom)
			}
		}
		if p.Kind == Port && len(p.Coast) == 0 {
			v.add(p.Line, "province %s is a port with no coast: expected coast=LANE (a port is entered from its sea lane)", p.ID)
		}
		for _, l := range p.Coast {
			if _, ok := v.m.Lane(l); !ok {
				v.add(p.Line, "province %s: coast lane %s is not declared: expected a lane line for it", p.ID, l)
			}
		}
	}
}

// pairs checks a border, link or road list: declared ends, no loops, no
// pair twice.
func (v *validator) pairs(what string, list []Pair, exists func(string) bool, noun string) {
	seen := map[[2]string]int{}
	for _, p := range list {
		for _, end := range []string{p.A, p.B} {
			if !exists(end) {
				v.add(p.Line, "%s %s–%s: %s is no %s of the map", what, p.A, p.B, end, noun)
			}
		}
		if p.A == p.B {
			v.add(p.Line, "%s %s–%s joins a %s to itself: expected two different %ss", what, p.A, p.B, noun, noun)
			continue
		}
		k := [2]string{p.A, p.B}
		if first, dup := seen[k]; dup {
			v.add(p.Line, "%s %s–%s is given twice (first on line %d): expected each once", what, p.A, p.B, first)
		}
		seen[k] = p.Line
	}
}

func (v *validator) roads() {
	for _, r := range v.m.Roads {
		if r.A != r.B && !v.m.Bordering(r.A, r.B) {
			v.add(r.Line, "road %s–%s: the two provinces share no border: expected a border line joining them", r.A, r.B)
		}
	}
}

func (v *validator) isolated() {
	for _, p := range v.m.Provinces {
		if len(v.m.Neighbors(p.ID)) == 0 && len(p.Coast) == 0 {
			v.add(p.Line, "province %s has no border and no coast: expected a border line or coast=", p.ID)
		}
	}
	for _, l := range v.m.Lanes {
		if len(v.m.LaneNeighbors(l.ID)) == 0 && len(v.m.CoastsOn(l.ID)) == 0 {
			v.add(l.Line, "lane %s is linked to no lane and touches no coast: expected a link line or a province with coast=%s", l.ID, l.ID)
		}
	}
}

// connected reports the places that cannot be reached from the first
// province by land and sea together.
func (v *validator) connected() {
	m := v.m
	if len(m.Provinces) == 0 {
		return
	}
	seen := map[string]bool{m.Provinces[0].ID: true}
	queue := []string{m.Provinces[0].ID}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		var next []string
		if _, ok := m.Province(x); ok {
			next = append(slices.Clone(m.Neighbors(x)), m.Coast(x)...)
		} else {
			next = append(slices.Clone(m.LaneNeighbors(x)), m.CoastsOn(x)...)
		}
		for _, y := range next {
			if !seen[y] {
				seen[y] = true
				queue = append(queue, y)
			}
		}
	}
	for _, p := range m.Provinces {
		if !seen[p.ID] {
			v.add(p.Line, "province %s cannot be reached from %s by land or sea: expected the map to hang together", p.ID, m.Provinces[0].ID)
		}
	}
	for _, l := range m.Lanes {
		if !seen[l.ID] {
			v.add(l.Line, "lane %s cannot be reached from %s by land or sea: expected the map to hang together", l.ID, m.Provinces[0].ID)
		}
	}
}

func (v *validator) positions() {
	type place struct {
		id   string
		at   Point
		line int
	}
	var all []place
	for _, p := range v.m.Provinces {
		all = append(all, place{p.ID, p.At, p.Line})
	}
	for _, l := range v.m.Lanes {
		all = append(all, place{l.ID, l.At, l.Line})
	}
	with := 0
	for _, p := range all {
		if !p.at.IsZero() {
			with++
		}
	}
	if with == 0 {
		return
	}
	at := map[Point]string{}
	for _, p := range all {
		if p.at.IsZero() {
			v.add(p.line, "%s has no at=X,Y while other places have one: expected every place drawn, or none", p.id)
			continue
		}
		if o, dup := at[p.at]; dup {
			v.add(p.line, "%s is at %d,%d, where %s is drawn: expected a place of its own", p.id, p.at.X, p.at.Y, o)
		}
		at[p.at] = p.id
	}
}
