package trossian

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
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Trossian rules cases are data files in testdata/cases, one case a file,
// in the format of the SYW cases (engine/cases_test.go) with the campaign's
// own state lines:
//
//	CASE name
//	RULE the rule quoted from 004 (one or more lines)
//	MAP trossia                       (the default map; or testdata/maps/NAME.txt)
//	SEED 1
//	TURN 1                            (Early Spring 1801; 10 is Winter 1801)
//	PARAM post-battle-modifiers=as-written   (a Rules parameter, repeatable)
//	DICE purpose: 4 6                 (the next rolls for that purpose; DICE 4 6: any purpose)
//	ALLIES norvale carrowland         (at peace; every other pair at war)
//	PRESTATE                          (every province starts held by its map kingdom)
//	nation norvale [couriers=N] [chance=1801]
//	census norvale: 4 hq, 10 line-infantry   (default: 50 of every type)
//	province Elkmoor [controller=ostmark|none] [bank=N] [siege=BY:PROGRESS:REQUIRED[:SINCE]] [pacify=BY:PROGRESS:REQUIRED[:SINCE]]
//	army N1 norvale Elkmoor: 1 hq, 4 line-infantry; attack march=Tarnwick,Wendmoor task=besiege since=1 still=2 retreat=Greyfell aboard=NF1
//	navy NF1 norvale port:Norhaven | lane:N1 | coast:Greyfell:W1
//	courier NC1 norvale Elkmoor target=N2 [returning] [via=A,B] [sent=1]
//	carries NC1 {"kind":"move",…}    (an order the courier carries)
//	chance norvale 5                  (a chance card on turn 5)
//	ORDERS
//	norvale {"kind":"move","Force":"N1","Dest":"Tarnwick"}
//	norvale@3 {…}                     (a sheet for turn 3)
//	RULINGS
//	{"Effects":[{"Kind":"ap","Province":"Norhaven","Delta":5}]}
//	RESULT {"Province":"Elkmoor","Outcome":"win","Winner":"norvale","Units":[…]}
//	POSTSTATE
//	army N1 Tarnwick: 1 hq, 4 line-infantry; attack march=… task=… still=2 aboard=NF1 march=none
//	gone N1                           (an army, navy or courier no more)
//	navy NF1 lane:N2 [nation=ostmark]
//	courier NC1 Elkmoor [returning]
//	couriers norvale 3                (idle at the seat)
//	province Elkmoor controller=norvale bank=10 siege=ostmark:1:1 | siege=none pacify=…
//	chance norvale 12
//	turn 2
//	awaiting Elkmoor                  (the turn waits for that battle's result)
//	EVENTS
//	Marched {"Army":"N1"}             (an event of that kind whose JSON contains these fields)
//	NO Met {}                         (no such event)
//	SEEN ostmark Intercepted {"Fate":"lost"}   (as engine.EventsFor gives it to the kingdom)
//	VIEW
//	ostmark {"Foreign":[…]}           (the kingdom's view contains these fields)
//
// '#' starts a comment line.

type trCase struct {
	file, name, mapName string
	rule                []string
	seed                uint64
	turn                int
	params              [][2]string
	pre, orders, post   []string
	rulings, results    []string
	events, views       []string
	dice                map[string][]int
	forced              []int
	allies              [][2]game.NationID
}

func readTrCase(path string) (*trCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &trCase{file: path, seed: 1, turn: 1, mapName: "trossia"}
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
		case "MAP":
			c.mapName, section = rest, ""
			continue
		case "SEED":
			c.seed, err = strconv.ParseUint(rest, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: SEED %q", path, line, rest)
			}
			section = ""
			continue
		case "TURN":
			c.turn, _ = strconv.Atoi(rest)
			section = ""
			continue
		case "PARAM":
			k, v, _ := strings.Cut(rest, "=")
			c.params = append(c.params, [2]string{k, v})
			section = ""
			continue
		case "ALLIES":
			w := strings.Fields(rest)
			c.allies = append(c.allies, [2]game.NationID{game.NationID(w[0]), game.NationID(w[1])})
			section = ""
			continue
		case "DICE":
			if i := strings.LastIndex(rest, ":"); i >= 0 {
				if c.dice == nil {
					c.dice = map[string][]int{}
				}
				p := strings.TrimSpace(rest[:i])
				for _, v := range strings.Fields(rest[i+1:]) {
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, fmt.Errorf("%s:%d: DICE %q", path, line, v)
					}
					c.dice[p] = append(c.dice[p], n)
				}
			} else {
				for _, v := range strings.Fields(rest) {
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, fmt.Errorf("%s:%d: DICE %q", path, line, v)
					}
					c.forced = append(c.forced, n)
				}
			}
			section = ""
			continue
		case "RESULT":
			c.results, section = append(c.results, rest), ""
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
	if c.name == "" || len(c.rule) == 0 {
		return nil, fmt.Errorf("%s: CASE and RULE are required", path)
	}
	return c, sc.Err()
}

var (
	trossiaOnce sync.Once
	trossiaMap  *areamap.Map
	trossiaErr  error
)

func caseMap(name string) (*areamap.Map, error) {
	if name == "trossia" {
		trossiaOnce.Do(func() { trossiaMap, trossiaErr = areamap.Load("../scenarios/trossian/map.txt") })
		return trossiaMap, trossiaErr
	}
	return areamap.Load(filepath.Join("testdata", "maps", name+".txt"))
}

// parseFlags reads "k=v" and bare flags after ';'.
func parseFlags(s string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		out[k] = v
	}
	return out
}

func parseNavyPlace(s string) (NavyPlace, error) {
	w := strings.Split(s, ":")
	switch {
	case len(w) == 2 && w[0] == "port":
		return NavyPlace{Province: w[1]}, nil
	case len(w) == 2 && w[0] == "lane":
		return NavyPlace{Lane: w[1]}, nil
	case len(w) == 3 && w[0] == "coast":
		return NavyPlace{Province: w[1], Lane: w[2]}, nil
	}
	return NavyPlace{}, fmt.Errorf("navy place %q: expected port:P, lane:L or coast:P:L", s)
}

func parseTask(v string) (*Siege, error) {
	w := strings.Split(v, ":")
	if len(w) < 3 {
		return nil, fmt.Errorf("%q: expected BY:PROGRESS:REQUIRED[:SINCE]", v)
	}
	p, _ := strconv.Atoi(w[1])
	r, _ := strconv.Atoi(w[2])
	sg := &Siege{By: game.NationID(w[0]), Progress: p, Required: r}
	if len(w) > 3 {
		sg.Since, _ = strconv.Atoi(w[3])
	}
	return sg, nil
}

// armyLine reads "ID [nation] PLACE[: stands][; flags]".
func armyLine(s string, withNation bool) (Army, bool, map[string]string, error) {
	head, flags, _ := strings.Cut(s, ";")
	head, stands, hasStands := strings.Cut(head, ":")
	w := strings.Fields(head)
	want := 2
	if withNation {
		want = 3
	}
	if len(w) != want {
		return Army{}, false, nil, fmt.Errorf("army line %q", s)
	}
	a := Army{ID: game.ForceID(w[0]), At: w[len(w)-1]}
	if withNation {
		a.Nation = game.NationID(w[1])
	}
	if a.At == "aboard" {
		a.At = ""
	}
	st, err := ParseStands(stands)
	if err != nil {
		return Army{}, false, nil, err
	}
	a.Stands = st
	fl := parseFlags(flags)
	if _, ok := fl["attack"]; ok {
		a.Stance = game.Attack
	}
	if v, ok := fl["march"]; ok && v != "none" {
		a.March = strings.Split(v, ",")
	}
	a.Task = fl["task"]
	a.TaskSince, _ = strconv.Atoi(fl["since"])
	a.StillUntil, _ = strconv.Atoi(fl["still"])
	a.RetreatTo = fl["retreat"]
	a.Aboard = game.ForceID(fl["aboard"])
	return a, hasStands, fl, nil
}

func buildTrState(c *trCase, m *areamap.Map) (*State, error) {
	s := &State{Game: "case", Ruleset: "trossian", Turn: c.turn, Calendar: Calendar{StartYear: 1801}, Allies: c.allies}
	for _, p := range m.Provinces {
		s.Provinces = append(s.Provinces, ProvinceState{ID: p.ID, Controller: p.Kingdom})
	}
	full := Stands{}
	for _, u := range UnitTypes {
		full = append(full, Stand{Type: u, Count: 50})
	}
	for _, k := range m.Kingdoms {
		s.Nations = append(s.Nations, NationState{ID: k.ID, Name: k.Name, Letter: k.Letter, Capital: k.Capital,
			Census: full, NextForce: 20, NextNavy: 20, NextCourier: 20, ChanceYear: s.Calendar.YearOf(c.turn)})
	}
	s.Normalize()
	couriers := map[game.ForceID]*Courier{}
	for _, l := range c.pre {
		word, rest, _ := strings.Cut(l, " ")
		w := strings.Fields(rest)
		switch word {
		case "nation":
			ns, ok := s.Nation(game.NationID(w[0]))
			if !ok {
				return nil, fmt.Errorf("PRESTATE %q: no kingdom %s on the map", l, w[0])
			}
			for k, v := range parseFlags(strings.Join(w[1:], " ")) {
				switch k {
				case "couriers":
					ns.Couriers, _ = strconv.Atoi(v)
				case "chance":
					ns.ChanceYear, _ = strconv.Atoi(v)
				}
			}
		case "census":
			n, list, _ := strings.Cut(rest, ":")
			ns, ok := s.Nation(game.NationID(strings.TrimSpace(n)))
			if !ok {
				return nil, fmt.Errorf("PRESTATE %q", l)
			}
			st, err := ParseStands(list)
			if err != nil {
				return nil, err
			}
			ns.Census = st
		case "province":
			ps, ok := s.Province(w[0])
			if !ok {
				return nil, fmt.Errorf("PRESTATE %q: no province %s", l, w[0])
			}
			for _, kv := range w[1:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "controller":
					if v == "none" {
						v = ""
					}
					ps.Controller = game.NationID(v)
				case "bank":
					ps.Bank, _ = strconv.Atoi(v)
				case "siege":
					sg, err := parseTask(v)
					if err != nil {
						return nil, err
					}
					ps.Siege = sg
				case "pacify":
					sg, err := parseTask(v)
					if err != nil {
						return nil, err
					}
					ps.Pacify = &Pacification{By: sg.By, Progress: sg.Progress, Required: sg.Required, Since: sg.Since}
				}
			}
		case "army":
			a, _, _, err := armyLine(rest, true)
			if err != nil {
				return nil, fmt.Errorf("PRESTATE %q: %v", l, err)
			}
			s.Armies = append(s.Armies, a)
		case "navy":
			at, err := parseNavyPlace(w[2])
			if err != nil {
				return nil, err
			}
			s.Navies = append(s.Navies, Navy{ID: game.ForceID(w[0]), Nation: game.NationID(w[1]), At: at})
		case "courier":
			cr := Courier{ID: game.ForceID(w[0]), Nation: game.NationID(w[1]), Sent: c.turn - 1}
			if id, lane, ok := m.Lookup(w[2]); ok && lane {
				cr.At = CourierPlace{Lane: id}
			} else {
				cr.At = CourierPlace{Province: w[2]}
			}
			for k, v := range parseFlags(strings.Join(w[3:], " ")) {
				switch k {
				case "target":
					cr.Target = game.ForceID(v)
				case "returning":
					cr.Returning = true
				case "via":
					cr.Via = strings.Split(v, ",")
				case "sent":
					cr.Sent, _ = strconv.Atoi(v)
				}
			}
			s.Couriers = append(s.Couriers, cr)
			couriers[cr.ID] = &s.Couriers[len(s.Couriers)-1]
		case "carries":
			var found *Courier
			for i := range s.Couriers {
				if string(s.Couriers[i].ID) == w[0] {
					found = &s.Couriers[i]
				}
			}
			if found == nil {
				return nil, fmt.Errorf("PRESTATE %q: no courier %s above", l, w[0])
			}
			o, err := UnmarshalOrder([]byte(strings.TrimSpace(strings.TrimPrefix(rest, w[0]))))
			if err != nil {
				return nil, fmt.Errorf("PRESTATE %q: %v", l, err)
			}
			found.Carries = append(found.Carries, o)
		case "chance":
			turn, _ := strconv.Atoi(w[1])
			s.Chance = append(s.Chance, ChanceCard{Nation: game.NationID(w[0]), Turn: turn})
		default:
			return nil, fmt.Errorf("PRESTATE line %q: expected nation, census, province, army, navy, courier, carries or chance", l)
		}
	}
	s.Normalize()
	return s, nil
}

func buildTrOrders(c *trCase) ([]engine.Orders, error) {
	by := map[game.NationID]*engine.Orders{}
	var order []game.NationID
	for i, l := range c.orders {
		n, js, _ := strings.Cut(l, " ")
		turn := c.turn
		if nn, t, ok := strings.Cut(n, "@"); ok {
			n = nn
			turn, _ = strconv.Atoi(t)
		}
		o, err := UnmarshalOrder([]byte(js))
		if err != nil {
			return nil, fmt.Errorf("ORDERS %q: %v", l, err)
		}
		o = withLine(o, i+1)
		id := game.NationID(n)
		if by[id] == nil {
			by[id] = &engine.Orders{Nation: id, Turn: turn}
			order = append(order, id)
		}
		by[id].List = append(by[id].List, o)
	}
	var out []engine.Orders
	for _, n := range order {
		out = append(out, *by[n])
	}
	return out, nil
}

// withLine sets an order's sheet line (its number in the case).
func withLine(o engine.Order, line int) engine.Order {
	v := reflect.New(reflect.TypeOf(o)).Elem()
	v.Set(reflect.ValueOf(o))
	if f := v.FieldByName("At"); f.IsValid() && f.FieldByName("Line").Int() == 0 {
		f.FieldByName("Line").SetInt(int64(line))
	}
	return v.Interface().(engine.Order)
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

func jsonOf(v any) map[string]any {
	b, _ := json.Marshal(v)
	var x map[string]any
	json.Unmarshal(b, &x)
	return x
}

func eventJSON(e engine.Event) map[string]any {
	b, _ := engine.MarshalEvent(e)
	var x map[string]any
	json.Unmarshal(b, &x)
	return x
}

func runTrCase(t *testing.T, c *trCase) {
	m, err := caseMap(c.mapName)
	if err != nil {
		t.Fatal(err)
	}
	rules := Trossian1801()
	for _, p := range c.params {
		if err := rules.WithParam(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	st, err := buildTrState(c, m)
	if err != nil {
		t.Fatalf("%s: %v", c.file, err)
	}
	orders, err := buildTrOrders(c)
	if err != nil {
		t.Fatalf("%s: %v", c.file, err)
	}
	in := Input{Map: m, Rules: rules, State: st, Orders: orders, Seed: c.seed}
	for _, l := range c.rulings {
		var r Ruling
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("RULINGS %q: %v", l, err)
		}
		in.Rulings = append(in.Rulings, r)
	}
	for _, l := range c.results {
		var r BattleResult
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("RESULT %q: %v", l, err)
		}
		in.Battles = append(in.Battles, r)
	}
	if c.dice != nil || c.forced != nil {
		in.ScriptDice = func(d *engine.Dice) {
			for _, p := range sortedKeys(c.dice) {
				d.Script(p, c.dice[p]...)
			}
			d.Force(c.forced...)
		}
	}
	res, err := Resolve(in)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		t.Errorf("%s: "+format, append([]any{filepath.Base(c.file)}, args...)...)
	}
	var awaiting []string
	for _, sh := range res.Awaiting {
		awaiting = append(awaiting, sh.Province)
	}
	wantAwait := false
	for _, l := range c.post {
		if w, ok := strings.CutPrefix(l, "awaiting "); ok {
			wantAwait = true
			if !slices.Contains(awaiting, strings.TrimSpace(w)) {
				fail("POSTSTATE awaiting %s: the turn awaits %v", w, awaiting)
			}
		}
	}
	if !wantAwait && len(awaiting) > 0 {
		fail("the turn awaits tabletop results for %v", awaiting)
	}
	if res.State != nil {
		checkTrPost(t, c, m, res.State, fail)
	}
	var evs []map[string]any
	var lines []string
	for _, e := range res.Events {
		evs = append(evs, eventJSON(e))
		b, _ := engine.MarshalEvent(e)
		lines = append(lines, string(b))
	}
	for _, l := range c.events {
		neg := false
		if rest, ok := strings.CutPrefix(l, "NO "); ok {
			neg, l = true, rest
		}
		pool, by := evs, ""
		if rest, ok := strings.CutPrefix(l, "SEEN "); ok {
			by, l, _ = strings.Cut(rest, " ")
			pool = nil
			for _, e := range engine.EventsFor(res.Events, game.NationID(by)) {
				pool = append(pool, eventJSON(e))
			}
		}
		kind, js, _ := strings.Cut(l, " ")
		if strings.TrimSpace(js) == "" {
			js = "{}"
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(js), &want); err != nil {
			t.Fatalf("EVENTS %q: %v", l, err)
		}
		want["kind"] = kind
		found := slices.ContainsFunc(pool, func(g map[string]any) bool { return subset(want, g) })
		if found == neg {
			what := "no"
			if neg {
				what = "unexpected"
			}
			fail("EVENTS: %s %s%s %s", what, kind, map[bool]string{true: " seen by " + by, false: ""}[by != ""], js)
		}
	}
	if res.State != nil {
		for _, l := range c.views {
			n, js, _ := strings.Cut(l, " ")
			var want map[string]any
			if err := json.Unmarshal([]byte(js), &want); err != nil {
				t.Fatalf("VIEW %q: %v", l, err)
			}
			got := jsonOf(View(m, rules, res.State, game.NationID(n)))
			if !subset(want, got) {
				b, _ := json.Marshal(got)
				fail("VIEW %s: got %s\nwant %s", n, b, js)
			}
		}
	}
	// Every case's events survive the JSON round trip, and its state too.
	all, err := engine.MarshalEvents(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	back, err := engine.UnmarshalEvents(all)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := engine.MarshalEvents(back); string(again) != string(all) {
		fail("events do not survive a JSON round trip")
	}
	if failed {
		t.Logf("rule: %s", strings.Join(c.rule, " "))
		t.Logf("events:\n%s", strings.Join(lines, "\n"))
		if res.State != nil {
			b, _ := json.MarshalIndent(res.State.Armies, "", " ")
			t.Logf("armies: %s", b)
		}
	}
}

// TestCases runs every Trossian rules case as a subtest.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Errorf("%d Trossian rules cases, want at least 60", len(files))
	}
	for _, file := range files {
		c, err := readTrCase(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) { runTrCase(t, c) })
	}
}
