package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Rules cases are data files in testdata/cases, in the manner of godip's
// DATC cases. Each file holds one case:
//
//	CASE name
//	RULE the rule quoted (one or more lines)
//	RULESET syw-1752 | syw-v4
//	MAP plain                      (testdata/maps/plain.txt)
//	SEED 1
//	TURN 1                         (optional)
//	DICE breach: 4 6               (optional, repeatable: the next rolls for that purpose, in order)
//	ALLIES eisenmark hispardia     (optional, repeatable: these nations are not hostile to each other)
//	PRESTATE
//	nation eisenmark [next=N]
//	city Mitte [controller=N] [loyalty=N] [siege=masked|besieged] [breaches=N] [treasury=N] [besiegers=N,…] [since=T]
//	depot E-D1 eisenmark 0105 [aboard=E9] [granted=fromande,…]
//	force E1 eisenmark 0101: 24 C infantry, 6 B light-cavalry exh=2, 2 field-gun, general Keith, 3 warships; attack pursue retreat=1.5 slow continue avoid unsupplied garrison aboard=E3
//	intel eisenmark F1 2 [seen]    (seen: with what the scouts saw, the force as given here; without: a
//	                                sighting stored before snapshots, showing the force's current contents)
//	treaty T1 eisenmark,fromande [attested=eisenmark,…] [ratified=N] [published=N] [penalty=OFFENDER>AGGRIEVED:SINCE[:ENDED]]
//	(city lines take treasury=N; nation lines temp=CITY, the temporary capitol)
//	ORDERS
//	eisenmark {"kind":"move","Force":"E1","Path":["0201"]}
//	RULINGS                        (the referee's approved rulings, engine.Input.Rulings, one JSON Ruling a line)
//	{"Token":"R1a2b3c","Nation":"eisenmark","Effects":[{"kind":"treasury","Nation":"eisenmark","Delta":-100}]}
//	POSTSTATE
//	force E1 0401: 24 C infantry, general Keith; unsupplied   (contents after ':' and flags after ';' are compared only if given;
//	                                                         garrison=no: not a garrison)
//	gone E2
//	city Mitte controller=eisenmark siege=besieged breaches=2 treasury=400
//	intel eisenmark F1 2
//	treasury eisenmark 450          (the crowns the nation may spend: Treasury)
//	taxbase eisenmark 1600          (TaxBase)
//	depot E-D1 [nation [aboard=E4]] (the depot exists [and belongs to nation] [aboard the fleet])
//	nodepot E-D1
//	treaty T1 published=5 penalty=fromande>eisenmark:7[:ended]  (fields compared if given)
//	victory eisenmark,fromande | victory none
//	EVENTS
//	ForceMoved {"Force":"E1","MP":6}    (an event of that kind whose JSON contains these fields)
//	NO Contact {}                        (no such event)
//	SEEN fromande Overrun {"Losses":null} (an event as EventsFor gives it to the nation;
//	                                       null: the field is absent)
//	VIEW
//	fromande E1 {"Size":"small"}          (the nation's view of the force contains these fields)
//	RESULT 0502 [eisenmark,…] {"Outcome":"repulse","Winner":1,…}
//	                                      (a tabletop result for the battle in that hex, engine.Input.Battles;
//	                                       the optional nations are its first side)
//	ALLIES eisenmark hispardia            (these nations are not hostile to each other; others are)
//	DICE 4 4 1 …                          (the first dice of the turn show these faces, in order; the seed
//	                                       throws the rest)
//
// '#' starts a comment line.

type testCase struct {
	file, name, ruleset, mapName string
	rule                         []string
	seed                         uint64
	turn                         int
	pre                          []string
	orders                       []string
	rulings                      []string
	post                         []string
	events                       []string
	views                        []string
	results                      []TabletopBattle
	dice                         map[string][]int
	forced                       []int
	allies                       [][2]game.NationID
}

func readCase(path string) (*testCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &testCase{file: path, seed: 1, turn: 1}
	section := ""
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		word, rest, _ := strings.Cut(s, " ")
		rest = strings.TrimSpace(rest)
		switch word {
		case "CASE":
			c.name, section = rest, ""
			continue
		case "RULE":
			c.rule, section = append(c.rule, rest), "RULE"
			continue
		case "RULESET":
			c.ruleset, section = rest, ""
			continue
		case "MAP":
			c.mapName, section = rest, ""
			continue
		case "SEED":
			c.seed, err = strconv.ParseUint(rest, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: SEED %q", path, line, rest)
			}
			continue
		case "TURN":
			c.turn, _ = strconv.Atoi(rest)
			continue
		case "RESULT":
			hx, js, _ := strings.Cut(rest, " ")
			h, err := game.ParseHex(hx)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: RESULT %v", path, line, err)
			}
			tb := TabletopBattle{Hex: h}
			if ns, more, ok := strings.Cut(js, " "); ok && !strings.HasPrefix(ns, "{") {
				for _, n := range strings.Split(ns, ",") {
					tb.Nations = append(tb.Nations, game.NationID(n))
				}
				js = more
			}
			if err := json.Unmarshal([]byte(js), &tb.Result); err != nil {
				return nil, fmt.Errorf("%s:%d: RESULT %v", path, line, err)
			}
			c.results = append(c.results, tb)
			section = ""
			continue
		case "ALLIES":
			w := strings.Fields(rest)
			for i := range w {
				for j := range w {
					if i != j {
						c.allies = append(c.allies, [2]game.NationID{game.NationID(w[i]), game.NationID(w[j])})
					}
				}
			}
			section = ""
			continue
		case "DICE":
			// DICE purpose: N N … fixes the rolls made for that purpose;
			// DICE N N … the next rolls of any purpose.
			if i := strings.LastIndex(rest, ":"); i >= 0 {
				purpose := strings.TrimSpace(rest[:i])
				if c.dice == nil {
					c.dice = map[string][]int{}
				}
				for _, v := range strings.Fields(rest[i+1:]) {
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, fmt.Errorf("%s:%d: DICE value %q", path, line, v)
					}
					c.dice[purpose] = append(c.dice[purpose], n)
				}
				section = ""
				continue
			}
			for _, w := range strings.Fields(rest) {
				v, err := strconv.Atoi(w)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: DICE %q", path, line, w)
				}
				c.forced = append(c.forced, v)
			}
			section = ""
			continue
		case "PRESTATE", "ORDERS", "RULINGS", "POSTSTATE", "EVENTS", "VIEW":
			section = word
			continue
		}
		switch section {
		case "RULE":
			c.rule = append(c.rule, s)
		case "PRESTATE":
			c.pre = append(c.pre, s)
		case "ORDERS":
			c.orders = append(c.orders, s)
		case "RULINGS":
			c.rulings = append(c.rulings, s)
		case "POSTSTATE":
			c.post = append(c.post, s)
		case "EVENTS":
			c.events = append(c.events, s)
		case "VIEW":
			c.views = append(c.views, s)
		default:
			return nil, fmt.Errorf("%s:%d: %q outside any section", path, line, s)
		}
	}
	if c.name == "" || c.ruleset == "" || c.mapName == "" {
		return nil, fmt.Errorf("%s: CASE, RULESET and MAP are required", path)
	}
	return c, sc.Err()
}

// parsedForce is a force line and which of its parts were given.
type parsedForce struct {
	f               game.Force
	contents, flags bool
	flagSet         map[string]string
	supplied        bool
}

func parsePlace(s string) (game.Place, error) {
	if h, err := game.ParseHex(s); err == nil {
		return game.AtHex(h), nil
	}
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return game.Place{}, fmt.Errorf("place %q: expected a hex or a sea area", s)
	}
	return game.AtSea(game.SeaID(s)), nil
}

// parseForceLine reads "ID [nation] PLACE[: items][; flags]".
func parseForceLine(s string, withNation bool) (*parsedForce, error) {
	pf := &parsedForce{flagSet: map[string]string{}}
	head, flags, hasFlags := strings.Cut(s, ";")
	head, items, hasItems := strings.Cut(head, ":")
	w := strings.Fields(head)
	need := 2
	if withNation {
		need = 3
	}
	if len(w) != need {
		return nil, fmt.Errorf("force line %q: expected ID%s PLACE", s, map[bool]string{true: " NATION", false: ""}[withNation])
	}
	pf.f.ID = game.ForceID(w[0])
	ps := w[1]
	if withNation {
		pf.f.Nation = game.NationID(w[1])
		ps = w[2]
	}
	p, err := parsePlace(ps)
	if err != nil {
		return nil, err
	}
	pf.f.At = p
	pf.contents = hasItems
	for _, it := range strings.Split(items, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		x := strings.Fields(it)
		switch {
		case x[0] == "general" || x[0] == "admiral":
			if len(x) < 2 {
				return nil, fmt.Errorf("item %q: expected a name", it)
			}
			l := game.Leader{ID: x[1], Name: x[1], Role: game.General}
			if x[0] == "admiral" {
				l.Role = game.Admiral
			}
			for _, kv := range x[2:] {
				if v, ok := strings.CutPrefix(kv, "xp="); ok {
					l.Experience, _ = strconv.Atoi(v)
				}
			}
			pf.f.Leaders = append(pf.f.Leaders, l)
			continue
		}
		n, err := strconv.Atoi(x[0])
		if err != nil || len(x) < 2 {
			return nil, fmt.Errorf("item %q: expected a count and what", it)
		}
		switch x[1] {
		case "warships":
			pf.f.Ships.Warships += n
			continue
		case "damaged-warships":
			pf.f.Ships.DamagedWarships += n
			continue
		case "transports":
			pf.f.Ships.Transports += n
			continue
		case "damaged-transports":
			pf.f.Ships.DamagedTransports += n
			continue
		}
		if k, err := game.ParseGunKind(x[1]); err == nil {
			g := game.Guns{Kind: k, Count: n}
			for _, kv := range x[2:] {
				if v, ok := strings.CutPrefix(kv, "owner="); ok {
					g.Owner = game.NationID(v)
				}
			}
			pf.f.Guns = append(pf.f.Guns, g)
			continue
		}
		if len(x) < 3 {
			return nil, fmt.Errorf("item %q: expected COUNT GRADE ARM", it)
		}
		g, err := game.ParseGrade(x[1])
		if err != nil {
			return nil, fmt.Errorf("item %q: %v", it, err)
		}
		a, err := game.ParseArm(x[2])
		if err != nil {
			return nil, fmt.Errorf("item %q: %v", it, err)
		}
		tr := game.Troops{Arm: a, Grade: g, Count: n}
		for _, kv := range x[3:] {
			if v, ok := strings.CutPrefix(kv, "exh="); ok {
				tr.Exhausted, _ = strconv.Atoi(v)
			}
		}
		pf.f.Troops = append(pf.f.Troops, tr)
	}
	pf.flags = hasFlags
	for _, fl := range strings.Fields(flags) {
		k, v, _ := strings.Cut(fl, "=")
		pf.flagSet[k] = v
		switch k {
		case "attack":
			pf.f.Stance = game.Attack
		case "defend":
			pf.f.Stance = game.Defend
		case "pursue":
			pf.f.Standing.Pursue = true
		case "slow":
			pf.f.Standing.SlowEnemy = true
		case "continue":
			pf.f.Standing.Continue = true
		case "avoid":
			pf.f.Standing.AvoidBattle = true
		case "unsupplied":
			pf.f.Unsupplied = true
		case "supplied":
			pf.supplied = true
		case "garrison":
			pf.f.Garrison = true
		case "aboard":
			pf.f.Aboard = game.ForceID(v)
		case "since":
			pf.f.Since, _ = strconv.Atoi(v)
		case "retreat":
			if v == "always" {
				pf.f.Standing.RetreatBelow = -1
			} else {
				pf.f.Standing.RetreatBelow, _ = strconv.ParseFloat(v, 64)
			}
		case "exhausted":
		default:
			return nil, fmt.Errorf("flag %q: unknown", fl)
		}
	}
	pf.f.Normalize()
	return pf, nil
}

func formatForce(f *game.Force) string {
	var items []string
	for _, t := range f.Troops {
		s := fmt.Sprintf("%d %s %s", t.Count, t.Grade, t.Arm)
		if t.Exhausted > 0 {
			s += fmt.Sprintf(" exh=%d", t.Exhausted)
		}
		items = append(items, s)
	}
	for _, g := range f.Guns {
		items = append(items, fmt.Sprintf("%d %s", g.Count, g.Kind))
	}
	for _, l := range f.Leaders {
		if l.Experience > 0 {
			items = append(items, fmt.Sprintf("%s %s xp=%d", l.Role, l.ID, l.Experience))
			continue
		}
		items = append(items, fmt.Sprintf("%s %s", l.Role, l.ID))
	}
	sh := f.Ships
	for _, x := range []struct {
		n int
		w string
	}{{sh.Warships, "warships"}, {sh.DamagedWarships, "damaged-warships"}, {sh.Transports, "transports"}, {sh.DamagedTransports, "damaged-transports"}} {
		if x.n > 0 {
			items = append(items, fmt.Sprintf("%d %s", x.n, x.w))
		}
	}
	var flags []string
	if f.Stance == game.Attack {
		flags = append(flags, "attack")
	}
	if f.Unsupplied {
		flags = append(flags, "unsupplied")
	}
	if f.Aboard != "" {
		flags = append(flags, "aboard="+string(f.Aboard))
	}
	if f.Garrison {
		flags = append(flags, "garrison")
	}
	return fmt.Sprintf("force %s %s: %s; %s", f.ID, f.At, strings.Join(items, ", "), strings.Join(flags, " "))
}

func buildState(c *testCase) (*State, error) {
	s := &State{Game: "case", Ruleset: c.ruleset, Turn: c.turn, Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4}}
	for _, l := range c.pre {
		word, rest, _ := strings.Cut(l, " ")
		w := strings.Fields(rest)
		switch word {
		case "nation":
			ns := NationState{ID: game.NationID(w[0]), NextForce: 50}
			for _, kv := range w[1:] {
				if v, ok := strings.CutPrefix(kv, "next="); ok {
					ns.NextForce, _ = strconv.Atoi(v)
				}
				if v, ok := strings.CutPrefix(kv, "temp="); ok {
					ns.TemporaryCapitol = v
				}
			}
			s.Nations = append(s.Nations, ns)
		case "city":
			cs := game.CityState{Name: w[0]}
			for _, kv := range w[1:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "controller":
					cs.Controller = game.NationID(v)
				case "loyalty":
					cs.Loyalty = game.NationID(v)
				case "siege":
					if err := cs.Siege.UnmarshalText([]byte(v)); err != nil {
						return nil, err
					}
				case "breaches":
					cs.Breaches, _ = strconv.Atoi(v)
				case "treasury":
					cs.Treasury, _ = strconv.Atoi(v)
				case "besiegers", "since":
					i := slices.IndexFunc(s.Sieges, func(x SiegeState) bool { return x.City == cs.Name })
					if i < 0 {
						s.Sieges = append(s.Sieges, SiegeState{City: cs.Name, Since: c.turn - 1})
						i = len(s.Sieges) - 1
					}
					if k == "since" {
						s.Sieges[i].Since, _ = strconv.Atoi(v)
					} else {
						for _, n := range strings.Split(v, ",") {
							s.Sieges[i].Besiegers = append(s.Sieges[i].Besiegers, game.NationID(n))
						}
					}
				}
			}
			s.Cities = slices.DeleteFunc(s.Cities, func(x game.CityState) bool { return x.Name == cs.Name })
			s.Cities = append(s.Cities, cs)
		case "depot":
			p, err := parsePlace(w[2])
			if err != nil {
				return nil, err
			}
			d := game.Depot{ID: w[0], Nation: game.NationID(w[1]), At: p}
			for _, kv := range w[3:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "aboard":
					d.Aboard = game.ForceID(v)
				case "granted":
					for _, n := range strings.Split(v, ",") {
						d.GrantedTo = append(d.GrantedTo, game.NationID(n))
					}
				}
			}
			s.Depots = append(s.Depots, d)
		case "force":
			pf, err := parseForceLine(rest, true)
			if err != nil {
				return nil, err
			}
			s.Forces = append(s.Forces, pf.f)
		case "intel":
			lv, _ := strconv.Atoi(w[2])
			sg := Sighting{Nation: game.NationID(w[0]), Force: game.ForceID(w[1]), Level: lv, Turn: c.turn - 1}
			if len(w) > 3 && w[3] == "seen" {
				// Filled below, once every force is read.
				sg.Seen = &Revealed{}
			}
			s.Intel = append(s.Intel, sg)
		default:
			if ok, err := yearEndPrestate(s, word, w); ok || err != nil {
				if err != nil {
					return nil, fmt.Errorf("PRESTATE line %q: %v", l, err)
				}
				continue
			}
			return nil, fmt.Errorf("PRESTATE line %q: expected nation, city, depot, force, intel or treaty", l)
		}
	}
	s.Normalize()
	for i := range s.Intel {
		sg := &s.Intel[i]
		if sg.Seen == nil {
			continue
		}
		rules, err := ruleset.ByID(c.ruleset)
		if err != nil {
			return nil, err
		}
		f, ok := s.Force(sg.Force)
		if !ok {
			return nil, fmt.Errorf("PRESTATE intel %s %s seen: no force %s to have been seen", sg.Nation, sg.Force, sg.Force)
		}
		*sg.Seen = Reveal(rules, f, ruleset.ScoutingLevel(sg.Level)).Revealed
	}
	return s, nil
}

func buildOrders(c *testCase) ([]Orders, error) {
	byNation := map[game.NationID]*Orders{}
	var out []game.NationID
	for i, l := range c.orders {
		n, js, _ := strings.Cut(l, " ")
		o, err := UnmarshalOrder([]byte(js))
		if err != nil {
			return nil, fmt.Errorf("ORDERS line %q: %v", l, err)
		}
		o = withLine(o, i+1)
		nid := game.NationID(n)
		if byNation[nid] == nil {
			byNation[nid] = &Orders{Nation: nid, Turn: c.turn}
			out = append(out, nid)
		}
		byNation[nid].List = append(byNation[nid].List, o)
	}
	var res []Orders
	for _, n := range out {
		res = append(res, *byNation[n])
	}
	return res, nil
}

// withLine sets the sheet line of an order value (the case file's order
// number) so that OrderIgnored events can be checked.
func withLine(o Order, line int) Order {
	v := reflect.New(reflect.TypeOf(o)).Elem()
	v.Set(reflect.ValueOf(o))
	if f := v.FieldByName("At"); f.IsValid() && f.FieldByName("Line").Int() == 0 {
		f.FieldByName("Line").SetInt(int64(line))
	}
	return v.Interface().(Order)
}

// subset reports whether want is contained in got (JSON values).
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !subset(v, g[k]) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !subset(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func loadMap(name string) (*hexmap.Map, error) {
	return hexmap.Load(filepath.Join("testdata", "maps", name+".txt"))
}

func runCase(t *testing.T, c *testCase) {
	m, err := loadMap(c.mapName)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ruleset.ByID(c.ruleset)
	if err != nil {
		t.Fatal(err)
	}
	st, err := buildState(c)
	if err != nil {
		t.Fatalf("%s: %v", c.file, err)
	}
	orders, err := buildOrders(c)
	if err != nil {
		t.Fatalf("%s: %v", c.file, err)
	}
	var rulings []Ruling
	for _, l := range c.rulings {
		var r Ruling
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: RULINGS line %q: %v", c.file, l, err)
		}
		rulings = append(rulings, r)
	}
	in := Input{Map: m, Rules: rules, State: st, Orders: orders, Rulings: rulings, Seed: c.seed, Battles: c.results,
		fixedDice: c.dice, forcedDice: c.forced}
	if len(c.allies) > 0 {
		in.Hostile = func(a, b game.NationID) bool {
			return DefaultHostility(a, b) && !slices.Contains(c.allies, [2]game.NationID{a, b})
		}
	}
	res, err := Resolve(in)
	if err != nil {
		t.Fatalf("%s: Resolve: %v", c.file, err)
	}
	var evJSON []map[string]any
	var evLines []string
	for _, e := range res.Events {
		b, err := MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		var x map[string]any
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatal(err)
		}
		evJSON = append(evJSON, x)
		evLines = append(evLines, string(b))
	}
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		t.Errorf("%s: "+format, append([]any{filepath.Base(c.file)}, args...)...)
	}
	for _, l := range c.post {
		word, rest, _ := strings.Cut(l, " ")
		switch word {
		case "force":
			pf, err := parseForceLine(rest, false)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := res.State.Force(pf.f.ID)
			if !ok {
				fail("POSTSTATE %s: the force is gone", pf.f.ID)
				continue
			}
			if got.At != pf.f.At {
				fail("POSTSTATE %s: at %s, want %s\n  got  %s", pf.f.ID, got.At, pf.f.At, formatForce(got))
			}
			if pf.contents {
				g, w := got.Clone(), pf.f.Clone()
				for i := range g.Leaders {
					g.Leaders[i] = game.Leader{ID: g.Leaders[i].ID, Name: g.Leaders[i].ID, Role: g.Leaders[i].Role, Experience: g.Leaders[i].Experience}
				}
				if !reflect.DeepEqual(g.Troops, w.Troops) || !reflect.DeepEqual(g.Guns, w.Guns) || g.Ships != w.Ships || !reflect.DeepEqual(g.Leaders, w.Leaders) {
					fail("POSTSTATE %s contents:\n  got  %s\n  want %s", pf.f.ID, formatForce(got), formatForce(&pf.f))
				}
			}
			if pf.flags {
				if _, ok := pf.flagSet["unsupplied"]; ok && !got.Unsupplied {
					fail("POSTSTATE %s: supplied, want unsupplied", pf.f.ID)
				}
				if pf.supplied && got.Unsupplied {
					fail("POSTSTATE %s: unsupplied, want supplied", pf.f.ID)
				}
				if v, ok := pf.flagSet["aboard"]; ok && string(got.Aboard) != v {
					fail("POSTSTATE %s: aboard %q, want %q", pf.f.ID, got.Aboard, v)
				}
				if v, ok := pf.flagSet["garrison"]; ok && got.Garrison != (v != "no") {
					fail("POSTSTATE %s: garrison %v, want garrison=%q", pf.f.ID, got.Garrison, v)
				}
				if _, ok := pf.flagSet["attack"]; ok && got.Stance != game.Attack {
					fail("POSTSTATE %s: stance %s, want attack", pf.f.ID, got.Stance)
				}
				if v, ok := pf.flagSet["retreat"]; ok {
					want, _ := strconv.ParseFloat(v, 64)
					if v == "always" {
						want = -1
					}
					if got.Standing.RetreatBelow != want {
						fail("POSTSTATE %s: retreat %v, want %v", pf.f.ID, got.Standing.RetreatBelow, want)
					}
				}
			}
		case "gone":
			if f, ok := res.State.Force(game.ForceID(strings.TrimSpace(rest))); ok {
				fail("POSTSTATE %s should be gone, is %s", rest, formatForce(f))
			}
		case "city":
			w := strings.Fields(rest)
			cs, ok := res.State.City(w[0])
			if !ok {
				fail("POSTSTATE city %s: no state", w[0])
				continue
			}
			for _, kv := range w[1:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "controller":
					if string(cs.Controller) != v {
						fail("POSTSTATE city %s: controller %q, want %q", w[0], cs.Controller, v)
					}
				case "loyalty":
					if string(cs.Loyalty) != v {
						fail("POSTSTATE city %s: loyalty %q, want %q", w[0], cs.Loyalty, v)
					}
				case "siege":
					if cs.Siege.String() != v {
						fail("POSTSTATE city %s: siege %s, want %s", w[0], cs.Siege, v)
					}
				case "breaches":
					if strconv.Itoa(cs.Breaches) != v {
						fail("POSTSTATE city %s: breaches %d, want %s", w[0], cs.Breaches, v)
					}
				case "treasury":
					if strconv.Itoa(cs.Treasury) != v {
						fail("POSTSTATE city %s: treasury %d, want %s", w[0], cs.Treasury, v)
					}
				}
			}
		case "intel":
			w := strings.Fields(rest)
			lv, _ := strconv.Atoi(w[2])
			found := -1
			for _, s := range res.State.Intel {
				if string(s.Nation) == w[0] && string(s.Force) == w[1] {
					found = s.Level
				}
			}
			if found != lv {
				fail("POSTSTATE intel %s on %s: level %d, want %d (-1: none)", w[0], w[1], found, lv)
			}
		case "turn":
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			if res.State.Turn != n {
				fail("POSTSTATE turn %d, want %d", res.State.Turn, n)
			}
		default:
			if msg, ok := yearEndPoststate(m, rules, res.State, word, strings.Fields(rest)); ok {
				if msg != "" {
					fail("POSTSTATE %s", msg)
				}
				continue
			}
			t.Fatalf("POSTSTATE line %q: expected force, gone, city, intel, turn, treasury, taxbase, depot, nodepot, treaty or victory", l)
		}
	}
	for _, l := range c.events {
		neg := false
		if rest, ok := strings.CutPrefix(l, "NO "); ok {
			neg, l = true, rest
		}
		pool, seenBy := evJSON, ""
		if rest, ok := strings.CutPrefix(l, "SEEN "); ok {
			seenBy, l, _ = strings.Cut(rest, " ")
			pool = nil
			for _, e := range EventsFor(res.Events, game.NationID(seenBy)) {
				b, _ := MarshalEvent(e)
				var x map[string]any
				json.Unmarshal(b, &x)
				pool = append(pool, x)
			}
		}
		kind, js, _ := strings.Cut(l, " ")
		var want map[string]any
		if strings.TrimSpace(js) == "" {
			js = "{}"
		}
		if err := json.Unmarshal([]byte(js), &want); err != nil {
			t.Fatalf("EVENTS line %q: %v", l, err)
		}
		want["kind"] = kind
		found := slices.ContainsFunc(pool, func(g map[string]any) bool { return subset(want, g) })
		by := ""
		if seenBy != "" {
			by = " seen by " + seenBy
		}
		if found == neg {
			if neg {
				fail("EVENTS: unexpected %s%s %s", kind, by, js)
			} else {
				fail("EVENTS: no %s%s matching %s", kind, by, js)
			}
		}
	}
	for _, l := range c.views {
		w := strings.SplitN(l, " ", 3)
		v := View(m, rules, res.State, game.NationID(w[0]))
		var ff *ForeignForce
		for i := range v.Foreign {
			if string(v.Foreign[i].ID) == w[1] {
				ff = &v.Foreign[i]
			}
		}
		if ff == nil {
			fail("VIEW %s: no foreign force %s", w[0], w[1])
			continue
		}
		b, _ := json.Marshal(ff)
		var got, want map[string]any
		json.Unmarshal(b, &got)
		if err := json.Unmarshal([]byte(w[2]), &want); err != nil {
			t.Fatalf("VIEW line %q: %v", l, err)
		}
		if !subset(want, got) {
			fail("VIEW %s of %s: got %s, want %s", w[0], w[1], b, w[2])
		}
	}
	// Every case's events survive the JSON round trip.
	all, err := MarshalEvents(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalEvents(all)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := MarshalEvents(back)
	if string(all) != string(again) {
		fail("events do not survive a JSON round trip")
	}
	if failed {
		t.Logf("rule: %s", strings.Join(c.rule, " "))
		t.Logf("events:\n%s", strings.Join(evLines, "\n"))
		for _, f := range res.State.Forces {
			t.Logf("  %s", formatForce(&f))
		}
	}
}

// TestCases runs every rules case in testdata/cases as a subtest.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		c, err := readCase(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) { runCase(t, c) })
	}
}
