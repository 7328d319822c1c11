package trossian

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
)

// A Trossian scenario is a folder with map.txt (the area map) and
// scenario.yaml: each kingdom's census of stands ("each Kingdom will
// receive a full census of the forces available for the coming campaign to
// include naval forces and couriers available"), its couriers, AP banked
// and starting armies and navies. docs/trossian.md ("The default scenario") describes the
// file; ParseScenario reads it strictly (every mistake with its line) and
// InitialState makes turn 1. The reading of the file's bytes is the
// caller's (package campaign reads the folder).

// Scenario is a parsed, checked scenario.
type Scenario struct {
	Name      string
	Map       *areamap.Map
	StartYear int
	Kingdoms  []KingdomSetup
}

// KingdomSetup is one kingdom's starting position.
type KingdomSetup struct {
	ID       game.NationID
	Couriers int
	Census   Stands
	Banks    map[string]int
	Armies   []Army
	Navies   []Navy
}

type scenarioSpec struct {
	Name      string        `yaml:"name"`
	Map       string        `yaml:"map"`
	StartYear int           `yaml:"start_year"`
	Kingdoms  []kingdomSpec `yaml:"kingdoms"`
}

type kingdomSpec struct {
	ID       string         `yaml:"id"`
	Couriers int            `yaml:"couriers"`
	Census   []string       `yaml:"census"`
	Banks    map[string]int `yaml:"banks"`
	Armies   []armySpec     `yaml:"armies"`
	Navies   []navySpec     `yaml:"navies"`
}

type armySpec struct {
	ID     string   `yaml:"id"`
	At     string   `yaml:"at"`
	Stance string   `yaml:"stance"`
	Stands []string `yaml:"stands"`
}

type navySpec struct {
	ID string `yaml:"id"`
	At string `yaml:"at"`
}

// ScenarioError is one mistake in scenario.yaml: its line and what is
// wrong.
type ScenarioError struct {
	File string
	Line int
	Msg  string
}

// Error prints "file:line: message".
func (e *ScenarioError) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ScenarioErrors is every mistake found, in line order.
type ScenarioErrors []*ScenarioError

// Error prints one mistake per line.
func (l ScenarioErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

var yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// ParseScenario reads scenario.yaml against its map; file names it in
// messages.
func ParseScenario(data []byte, m *areamap.Map, file string) (*Scenario, error) {
	var spec scenarioSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&spec); err != nil {
		var errs ScenarioErrors
		var te *yaml.TypeError
		msgs := []string{err.Error()}
		if errors.As(err, &te) {
			msgs = te.Errors
		}
		for _, msg := range msgs {
			line := 0
			if x := yamlLineRE.FindStringSubmatch(msg); x != nil {
				line, _ = strconv.Atoi(x[1])
				msg = x[2]
			}
			if msg == "EOF" {
				msg = "the file is empty: expected name, start_year and kingdoms"
			}
			errs = append(errs, &ScenarioError{File: file, Line: line, Msg: strings.TrimPrefix(msg, "yaml: ")})
		}
		return nil, errs
	}
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root)
	c := &scenarioChecker{file: file, root: &root, m: m}
	sc := c.check(&spec)
	if len(c.errs) > 0 {
		slices.SortStableFunc(c.errs, func(a, b *ScenarioError) int { return a.Line - b.Line })
		return nil, c.errs
	}
	return sc, nil
}

type scenarioChecker struct {
	file string
	root *yaml.Node
	m    *areamap.Map
	errs ScenarioErrors
}

func (c *scenarioChecker) errorf(path []any, format string, args ...any) {
	c.errs = append(c.errs, &ScenarioError{File: c.file, Line: lineOf(c.root, path...), Msg: fmt.Sprintf(format, args...)})
}

func (c *scenarioChecker) check(spec *scenarioSpec) *Scenario {
	sc := &Scenario{Name: spec.Name, Map: c.m, StartYear: spec.StartYear}
	if spec.Name == "" {
		c.errorf([]any{"name"}, "no name: expected name: \"Trossia, 1801\"")
	}
	if spec.StartYear < 1 {
		c.errorf([]any{"start_year"}, "start_year %d: expected the first year, e.g. 1801 (\"The game begins in the early spring of 1801\")", spec.StartYear)
	}
	seen := map[game.NationID]bool{}
	ids := map[string]bool{}
	portNavies := map[string]int{}
	for i, ks := range spec.Kingdoms {
		at := []any{"kingdoms", i}
		k, ok := c.m.Kingdom(game.NationID(ks.ID))
		if !ok {
			c.errorf(append(at, "id"), "kingdom %q is not on the map: expected one of %s", ks.ID, kingdomIDs(c.m))
			continue
		}
		if seen[k.ID] {
			c.errorf(append(at, "id"), "kingdom %s is given twice", k.ID)
			continue
		}
		seen[k.ID] = true
		ksu := KingdomSetup{ID: k.ID, Couriers: ks.Couriers, Banks: map[string]int{}}
		if ks.Couriers < 0 {
			c.errorf(append(at, "couriers"), "couriers %d: expected 0 or more", ks.Couriers)
		}
		census, err := ParseStands(strings.Join(ks.Census, ", "))
		if err != nil {
			c.errorf(append(at, "census"), "census: %v", err)
		}
		ksu.Census = census
		for _, city := range sortedKeys(ks.Banks) {
			ap := ks.Banks[city]
			p, ok := c.m.Province(city)
			switch {
			case !ok || !p.Kind.IsCity() || p.Kingdom != k.ID:
				c.errorf(append(at, "banks"), "banks: %s is not a town or port of %s (\"AP not spent must be banked at a player's controlled cities\")", city, k.ID)
			case ap < 0:
				c.errorf(append(at, "banks"), "banks: %d AP in %s: expected 0 or more", ap, city)
			default:
				ksu.Banks[city] = ap
			}
		}
		var owned Stands
		for j, as := range ks.Armies {
			apath := append(slices.Clone(at), "armies", j)
			a := Army{ID: game.ForceID(as.ID), Nation: k.ID, At: as.At}
			if !validForceID(as.ID, k.Letter, "") || ids[as.ID] {
				c.errorf(append(apath, "id"), "army ID %q: expected %s and a number, unique (e.g. %s1)", as.ID, k.Letter, k.Letter)
			}
			ids[as.ID] = true
			p, ok := c.m.Province(as.At)
			switch {
			case !ok:
				c.errorf(append(apath, "at"), "army %s at %q: no such province", as.ID, as.At)
			case !p.Kind.IsCity() || p.Kingdom != k.ID:
				c.errorf(append(apath, "at"), "army %s at %s: expected one of %s's towns or ports (\"All units must begin the Early Spring phase inside a town province\")", as.ID, as.At, k.ID)
			}
			if err := a.Stance.UnmarshalText([]byte(as.Stance)); err != nil {
				c.errorf(append(apath, "stance"), "army %s: %v", as.ID, err)
			}
			st, err := ParseStands(strings.Join(as.Stands, ", "))
			switch {
			case err != nil:
				c.errorf(append(apath, "stands"), "army %s: %v", as.ID, err)
			case st.Total() == 0:
				c.errorf(append(apath, "stands"), "army %s has no stands", as.ID)
			case st.Count(HQ) == 0:
				c.errorf(append(apath, "stands"), "army %s has no hq: \"HQ (Required for every detachment)\"", as.ID)
			}
			a.Stands = st
			owned = owned.Plus(st)
			ksu.Armies = append(ksu.Armies, a)
		}
		for _, u := range UnitTypes {
			if owned.Count(u) > census.Count(u) {
				c.errorf(append(at, "census"), "%s fields %d %s, more than its census of %d: \"no force can march with more units than those detailed on the Nations Page\"",
					k.ID, owned.Count(u), u, census.Count(u))
			}
		}
		for j, ns := range ks.Navies {
			npath := append(slices.Clone(at), "navies", j)
			if !validForceID(ns.ID, k.Letter, "F") || ids[ns.ID] {
				c.errorf(append(npath, "id"), "navy ID %q: expected %sF and a number, unique (e.g. %sF1)", ns.ID, k.Letter, k.Letter)
			}
			ids[ns.ID] = true
			p, ok := c.m.Province(ns.At)
			if !ok || p.Kind != Port || p.Kingdom != k.ID {
				c.errorf(append(npath, "at"), "navy %s at %q: expected one of %s's ports", ns.ID, ns.At, k.ID)
			}
			portNavies[ns.At]++
			if portNavies[ns.At] == 3 {
				c.errorf(append(npath, "at"), "a third navy in %s: \"Each port can hold a maximum of two navies\"", ns.At)
			}
			ksu.Navies = append(ksu.Navies, Navy{ID: game.ForceID(ns.ID), Nation: k.ID, At: NavyPlace{Province: ns.At}})
		}
		sc.Kingdoms = append(sc.Kingdoms, ksu)
	}
	for _, k := range c.m.Kingdoms {
		if !seen[k.ID] {
			c.errorf([]any{"kingdoms"}, "kingdom %s of the map has no entry: expected one for every kingdom", k.ID)
		}
	}
	slices.SortFunc(sc.Kingdoms, func(a, b KingdomSetup) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return sc
}

func kingdomIDs(m *areamap.Map) string {
	var s []string
	for _, k := range m.Kingdoms {
		s = append(s, string(k.ID))
	}
	return strings.Join(s, ", ")
}

// validForceID: the letter, the infix ("F" for navies) and a number.
func validForceID(id, letter, infix string) bool {
	rest, ok := strings.CutPrefix(id, letter+infix)
	if !ok || rest == "" {
		return false
	}
	n, err := strconv.Atoi(rest)
	return err == nil && n > 0 && strconv.Itoa(n) == rest
}

// lineOf finds the line of a value: steps are mapping keys and list
// indexes; a missing step gives the deepest line found.
func lineOf(root *yaml.Node, path ...any) int {
	n := root
	if n == nil {
		return 0
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, step := range path {
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == s {
						next, line = n.Content[i+1], n.Content[i].Line
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && s < len(n.Content) {
				next = n.Content[s]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

// InitialState makes turn 1, Early Spring of the first year: every
// province held by its kingdom (the unclaimed lands by nobody), the armies,
// navies, couriers and banks of the scenario.
func (sc *Scenario) InitialState(gameID string, r *Rules) *State {
	s := &State{Game: gameID, Ruleset: r.ID, Turn: 1, Calendar: Calendar{StartYear: sc.StartYear}}
	for _, p := range sc.Map.Provinces {
		s.Provinces = append(s.Provinces, ProvinceState{ID: p.ID, Controller: p.Kingdom})
	}
	for _, k := range sc.Map.Kingdoms {
		ns := NationState{ID: k.ID, Name: k.Name, Letter: k.Letter, Capital: k.Capital, NextForce: 1, NextNavy: 1, NextCourier: 1}
		for _, ks := range sc.Kingdoms {
			if ks.ID != k.ID {
				continue
			}
			ns.Couriers, ns.Census = ks.Couriers, ks.Census
			for _, a := range ks.Armies {
				s.Armies = append(s.Armies, a)
				ns.NextForce = max(ns.NextForce, forceNumber(a.ID)+1)
			}
			for _, n := range ks.Navies {
				s.Navies = append(s.Navies, n)
				ns.NextNavy = max(ns.NextNavy, forceNumber(n.ID)+1)
			}
			for _, city := range sortedKeys(ks.Banks) {
				if ps, ok := s.provinceForSetup(city); ok {
					ps.Bank = ks.Banks[city]
				}
			}
		}
		s.Nations = append(s.Nations, ns)
	}
	s.Normalize()
	return s
}

func (s *State) provinceForSetup(id string) (*ProvinceState, bool) {
	for i := range s.Provinces {
		if s.Provinces[i].ID == id {
			return &s.Provinces[i], true
		}
	}
	return nil, false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
