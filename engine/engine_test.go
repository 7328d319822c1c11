package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

func rules1752() *ruleset.Ruleset { return ruleset.SYW1752() }

// encodeResult is the bytes a turn is judged by: state, events and rolls.
func encodeResult(t testing.TB, res *engine.Result) []byte {
	st, err := json.Marshal(res.State)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := engine.MarshalEvents(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := json.Marshal(res.Rolls)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Join([][]byte{st, ev, ro}, []byte("\n"))
}

// TestDeterminism resolves the same game twice, under GOMAXPROCS=1 and the
// default, and wants the same bytes; the input state must be left as it was.
func TestDeterminism(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		g := newGenGame(seed, 60, 50, 8, 40)
		before, _ := json.Marshal(g.state)
		prev := runtime.GOMAXPROCS(1)
		r1, err := engine.Resolve(g.input(seed))
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := engine.Resolve(g.input(seed))
		if err != nil {
			t.Fatal(err)
		}
		a, b := encodeResult(t, r1), encodeResult(t, r2)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two resolutions differ", seed)
		}
		after, _ := json.Marshal(g.state)
		if !bytes.Equal(before, after) {
			t.Fatalf("seed %d: Resolve changed its input state", seed)
		}
		if r1.State.Turn != 2 {
			t.Fatalf("next turn is %d, want 2", r1.State.Turn)
		}
		if len(r1.Rolls) == 0 || len(r1.Events) < 100 {
			t.Fatalf("seed %d: suspiciously quiet turn: %d events, %d rolls", seed, len(r1.Events), len(r1.Rolls))
		}
		kinds := map[string]bool{}
		for _, e := range r1.Events {
			kinds[e.Kind()] = true
		}
		for _, k := range []string{"ForceMoved", "SupplyTraced", "Scouted", "Contact", "SeaMoved"} {
			if !kinds[k] {
				t.Errorf("seed %d: no %s event in a busy turn", seed, k)
			}
		}
		// A different seed gives a different turn (the dice matter).
		r3, _ := engine.Resolve(g.input(seed + 100))
		if bytes.Equal(a, encodeResult(t, r3)) && len(r1.Rolls) > 0 {
			t.Errorf("seed %d: another seed gave the same turn", seed)
		}
	}
}

// TestEventsRoundTrip: every event of a busy turn survives MarshalEvents /
// UnmarshalEvents byte for byte.
func TestEventsRoundTrip(t *testing.T) {
	g := newGenGame(5, 60, 50, 8, 40)
	res, err := engine.Resolve(g.input(5))
	if err != nil {
		t.Fatal(err)
	}
	a, err := engine.MarshalEvents(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	back, err := engine.UnmarshalEvents(a)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := engine.MarshalEvents(back)
	if !bytes.Equal(a, b) {
		t.Fatal("events differ after a round trip")
	}
	if _, err := engine.UnmarshalEvents([]byte(`[{"kind":"NoSuchThing"}]`)); err == nil {
		t.Fatal("an unknown kind was accepted")
	}
}

// TestFogOfWar is the property that View decides fog of war: over random
// games with random scouting intelligence (with the scouts' snapshot, or
// without as stored before snapshots were kept), no foreign force's contents
// — counts, grades, leaders, supply — appear in a nation's view unless an
// Intel entry grants the level that reveals them.
func TestFogOfWar(t *testing.T) {
	rules := rules1752()
	for seed := uint64(1); seed <= 30; seed++ {
		g := newGenGame(seed, 30, 24, 4, 12)
		r := rand.New(rand.NewPCG(seed, 99))
		st := g.state.Clone()
		// Mark every force so its contents can be searched for: counts that
		// are 1 (troops) or 2 (guns) more than a multiple of 25 (estimates are multiples
		// of 25), unique per force, and leaders named after the force.
		for i := range st.Forces {
			f := &st.Forces[i]
			for j := range f.Troops {
				f.Troops[j].Count = 5001 + 25*(i*8+j)
			}
			for j := range f.Guns {
				f.Guns[j].Count = 3002 + 25*(i*4+j)
			}
			for j := range f.Leaders {
				f.Leaders[j].Name = fmt.Sprintf("Secret-%s-%d", f.ID, j)
			}
			f.Unsupplied = r.IntN(2) == 0
		}
		for _, n := range st.Nations {
			for _, f := range st.Forces {
				if f.Nation != n.ID && r.IntN(4) == 0 {
					s := engine.Sighting{Nation: n.ID, Force: f.ID, Level: r.IntN(4), Turn: st.Turn - 1}
					if s.Level > 0 && r.IntN(2) == 0 {
						// What the scouts saw (the same marked contents):
						// the View shows it at the level, no more.
						seen := engine.Reveal(rules, &f, ruleset.ScoutingLevel(s.Level)).Revealed
						s.Seen = &seen
					}
					st.Intel = append(st.Intel, s)
				}
			}
		}
		// Treasuries (a city's own crowns: its holder's business), depots
		// (not forces: never shown to a nation without a grant) and treaties
		// not yet published (only their parties know them).
		for i := range st.Cities {
			st.Cities[i].Treasury = 70001 + 25*i
			if r.IntN(3) == 0 {
				st.Cities[i].Controller = st.Nations[r.IntN(len(st.Nations))].ID
			}
		}
		for i := range st.Depots {
			if r.IntN(3) == 0 {
				st.Depots[i].GrantedTo = []game.NationID{st.Nations[r.IntN(len(st.Nations))].ID}
			}
		}
		a, b := st.Nations[0].ID, st.Nations[1].ID
		st.Treaties = append(st.Treaties,
			game.Treaty{ID: "T1", Title: "Secret-pact", Parties: []game.NationID{a, b}, Text: "Secret-clause"},
			game.Treaty{ID: "T2", Title: "Public-peace", Parties: []game.NationID{a, b}, Text: "Public-clause", Published: 1})
		st.Normalize()
		for _, n := range st.Nations {
			v := engine.View(g.m, rules, st, n.ID)
			js, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			text := string(js)
			granted := map[game.ForceID]ruleset.ScoutingLevel{}
			for _, s := range st.Intel {
				if s.Nation == n.ID && ruleset.ScoutingLevel(s.Level) > granted[s.Force] {
					granted[s.Force] = ruleset.ScoutingLevel(s.Level)
				}
			}
			var back engine.NationView
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			for _, c := range st.Cities {
				mc, _ := g.m.City(c.Name)
				mine := c.Controller == n.ID || mc.Capitol == n.ID
				if !mine && numberIn(text, c.Treasury) {
					t.Fatalf("seed %d: %s sees the treasury of %s, held by %q", seed, n.ID, c.Name, c.Controller)
				}
			}
			for _, d := range st.Depots {
				if d.Nation != n.ID && !slices.Contains(d.GrantedTo, n.ID) && strings.Contains(text, `"`+d.ID+`"`) {
					t.Fatalf("seed %d: %s sees %s's depot %s", seed, n.ID, d.Nation, d.ID)
				}
			}
			party := n.ID == a || n.ID == b
			if strings.Contains(text, "Secret-clause") != party || !strings.Contains(text, "Public-clause") {
				t.Fatalf("seed %d: %s (party %v) sees the treaties wrongly", seed, n.ID, party)
			}
			for _, f := range st.Forces {
				if f.Nation == n.ID {
					if !slices.ContainsFunc(back.Own, func(x game.Force) bool { return x.ID == f.ID }) {
						t.Fatalf("seed %d: %s does not see its own %s", seed, n.ID, f.ID)
					}
					continue
				}
				lv := granted[f.ID]
				for _, tr := range f.Troops {
					if lv < ruleset.LevelExact && numberIn(text, tr.Count) {
						t.Fatalf("seed %d: %s sees the count of %s at level %d", seed, n.ID, f.ID, lv)
					}
				}
				for _, gn := range f.Guns {
					if lv < ruleset.LevelExact && numberIn(text, gn.Count) {
						t.Fatalf("seed %d: %s sees the guns of %s at level %d", seed, n.ID, f.ID, lv)
					}
				}
				for _, l := range f.Leaders {
					if lv < ruleset.LevelApprox && strings.Contains(text, l.Name) {
						t.Fatalf("seed %d: %s sees the leader of %s at level %d", seed, n.ID, f.ID, lv)
					}
				}
				i := slices.IndexFunc(back.Foreign, func(x engine.ForeignForce) bool { return x.ID == f.ID })
				if i < 0 {
					t.Fatalf("seed %d: %s does not see where %s is (locations are public)", seed, n.ID, f.ID)
				}
				ff := back.Foreign[i]
				if ff.At != f.At {
					t.Fatalf("seed %d: %s sees %s at %s, it is at %s", seed, n.ID, f.ID, ff.At, f.At)
				}
				if ff.Level != lv {
					t.Fatalf("seed %d: %s holds level %d on %s, view says %d", seed, n.ID, lv, f.ID, ff.Level)
				}
				if lv < ruleset.LevelExact && (ff.Unsupplied || ff.Troops != nil || ff.Guns != nil || ff.Leaders != nil) {
					t.Fatalf("seed %d: %s sees exact contents of %s at level %d", seed, n.ID, f.ID, lv)
				}
				if lv < ruleset.LevelApprox && (ff.Approx != nil || ff.LeaderNames != nil || ff.ShipCounts != nil || ff.ApproxGuns != 0) {
					t.Fatalf("seed %d: %s sees estimates of %s at level %d", seed, n.ID, f.ID, lv)
				}
				if lv < ruleset.LevelArms && (ff.Arms != nil || ff.HasGeneral) {
					t.Fatalf("seed %d: %s sees the arms of %s at level %d", seed, n.ID, f.ID, lv)
				}
			}
		}
	}
}

// TestIntelComesFromScouting: after a resolved turn, every Intel entry is
// backed by a Scouted event the nation saw.
func TestIntelComesFromScouting(t *testing.T) {
	g := newGenGame(11, 40, 30, 5, 25)
	res, err := engine.Resolve(g.input(11))
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		n game.NationID
		f game.ForceID
	}
	best := map[key]ruleset.ScoutingLevel{}
	for _, e := range res.Events {
		if s, ok := e.(*engine.Scouted); ok && s.VisibleTo(s.Nation) {
			best[key{s.Nation, s.Target}] = max(best[key{s.Nation, s.Target}], s.Level)
		}
	}
	if len(res.State.Intel) == 0 {
		t.Fatal("no intelligence gathered in a busy turn")
	}
	for _, s := range res.State.Intel {
		if lv, ok := best[key{s.Nation, s.Force}]; !ok || int(lv) != s.Level {
			t.Fatalf("intel %s on %s at %d has no matching Scouted event (best %d)", s.Nation, s.Force, s.Level, lv)
		}
	}
	for _, n := range res.State.Nations {
		for _, e := range engine.EventsFor(res.Events, n.ID) {
			if s, ok := e.(*engine.Scouted); ok && s.Nation != n.ID {
				t.Fatalf("%s sees %s's scouting report", n.ID, s.Nation)
			}
			if _, ok := e.(*engine.EngagementPending); ok {
				t.Fatalf("%s sees a referee-only EngagementPending", n.ID)
			}
		}
	}
}

// TestRoute: the exported route is the cheapest and stable.
func TestRoute(t *testing.T) {
	g := newGenGame(3, 40, 30, 4, 10)
	f := g.state.Forces[0]
	from := f.At.Hex
	to := game.Hex{Col: from.Col + 5, Row: from.Row + 3}
	p1, c1, ok1 := engine.Route(g.m, rules1752(), &f, from, to)
	p2, c2, ok2 := engine.Route(g.m, rules1752(), &f, from, to)
	if ok1 != ok2 || c1 != c2 || !slices.Equal(p1, p2) {
		t.Fatal("Route is not stable")
	}
	if ok1 {
		sum, prev := 0, from
		for _, h := range p1 {
			c, ok := engine.StepCost(g.m, rules1752(), ruleset.ClassOf(&f), prev, h, false)
			if !ok {
				t.Fatalf("route steps into %s illegally", h)
			}
			sum += c
			prev = h
		}
		if sum != c1 || prev != to {
			t.Fatalf("route cost %d, steps sum to %d, ends at %s", c1, sum, prev)
		}
	}
}

// TestResolveErrors: impossible inputs are errors, bad orders are not.
func TestResolveErrors(t *testing.T) {
	g := newGenGame(1, 20, 20, 2, 3)
	in := g.input(1)
	in.Rules = ruleset.SYWV4()
	if _, err := engine.Resolve(in); err == nil {
		t.Fatal("a 1752 state with the V4 ruleset was accepted")
	}
	in = g.input(1)
	in.Map = nil
	if _, err := engine.Resolve(in); err == nil {
		t.Fatal("no map was accepted")
	}
	in = g.input(1)
	in.Orders = []engine.Orders{{Nation: "nobody", Turn: 1, List: []engine.Order{engine.Move{Force: "X1"}}},
		{Nation: g.state.Nations[0].ID, Turn: 9, List: []engine.Order{engine.Move{Force: "A1"}}}}
	res, err := engine.Resolve(in)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range res.Events {
		if _, ok := e.(*engine.OrderIgnored); ok {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d orders ignored, want 2", n)
	}
}

// TestYearEnd: the year-end turn runs its own pipeline.
func TestYearEnd(t *testing.T) {
	g := newGenGame(1, 20, 20, 2, 3)
	in := g.input(1)
	st := g.state.Clone()
	st.Turn = 7
	in.State = st
	for i := range in.Orders {
		in.Orders[i].Turn = 7
	}
	res, err := engine.Resolve(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Turn != 8 {
		t.Fatalf("turn %d after the year-end, want 8", res.State.Turn)
	}
	if got := engine.Steps(true); !slices.Contains(got, "taxes") || slices.Contains(got, "movement") {
		t.Fatalf("year-end steps %v", got)
	}
}

func benchResolve(b *testing.B, g *genGame) {
	b.ReportAllocs()
	in := g.input(1)
	for b.Loop() {
		if _, err := engine.Resolve(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveFiveNations: a 5-nation turn on a 35×30 map, 25 forces a
// nation, orders for all (the size of the default campaign).
func BenchmarkResolveFiveNations(b *testing.B) { benchResolve(b, newGenGame(1, 35, 30, 5, 25)) }

// BenchmarkResolveLarge: 200×200 hexes, 40 nations, 4,000 land forces plus
// a fleet each, orders for all.
func BenchmarkResolveLarge(b *testing.B) { benchResolve(b, newGenGame(1, 200, 200, 40, 100)) }

// numberIn reports whether n appears in JSON text as a whole number value.
func numberIn(text string, n int) bool {
	s := fmt.Sprintf(":%d", n)
	for i := strings.Index(text, s); i >= 0; {
		end := i + len(s)
		if end >= len(text) || text[end] < '0' || text[end] > '9' {
			return true
		}
		j := strings.Index(text[end:], s)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}

// TestFogOfWarEvents tries to leak through the events: every force of a
// busy generated game is marked (each troop and gun count made unique and
// recognisable, leaders named "Secret-…"), a turn is resolved, and for each
// nation the JSON of EventsFor(nation) and of its View of the next state is
// searched for every foreign force's marks. A foreign count may appear only
// if the nation reached the exact scouting level on that force this turn
// (a Scouted event it saw), a leader's name only from the approximate level.
// Counts are scaled, not replaced, so that the game plays as generated:
// contacts, overruns, retreats, slowing and losses all happen.
func TestFogOfWarEvents(t *testing.T) {
	kinds := map[string]int{}
	for seed := uint64(1); seed <= 12; seed++ {
		g := newGenGame(seed, 14, 12, 4, 14)
		st := g.state.Clone()
		// A mark is the count times 10^5 plus 77700 plus a number unique to
		// the stack (1–99, not a multiple of 25): no scouting estimate (a
		// multiple of 25) can look like one, nor can a percentage of marks,
		// a sum of them or a difference (their last five digits differ).
		marks := map[game.ForceID][]int{}
		uniq := 0
		next := func() int {
			// No marker is a multiple of 5: approximate scouting rounds
			// figures to 25 and guns to 5, and a rounded count must not
			// equal a marker by chance.
			uniq++
			for uniq%5 == 0 {
				uniq++
			}
			return 77700 + uniq
		}
		for i := range st.Forces {
			f := &st.Forces[i]
			for j := range f.Troops {
				f.Troops[j].Count = f.Troops[j].Count*100000 + next()
				marks[f.ID] = append(marks[f.ID], f.Troops[j].Count)
			}
			for j := range f.Guns {
				f.Guns[j].Count = f.Guns[j].Count*100000 + next()
				marks[f.ID] = append(marks[f.ID], f.Guns[j].Count)
			}
			for j := range f.Leaders {
				f.Leaders[j].Name = fmt.Sprintf("Secret-%s-%d", f.ID, j)
			}
		}
		in := g.input(seed)
		in.State = st
		res, err := engine.Resolve(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			kinds[e.Kind()]++
		}
		for _, n := range st.Nations {
			seen := engine.EventsFor(res.Events, n.ID)
			best := map[game.ForceID]ruleset.ScoutingLevel{}
			for _, e := range seen {
				if s, ok := e.(*engine.Scouted); ok {
					best[s.Target] = max(best[s.Target], s.Level)
				}
			}
			// Guns taken from a surrendered or stormed garrison are the
			// capturer's own from then on: it may count them.
			captured := map[int]bool{}
			for _, e := range seen {
				var c *engine.Captured
				switch x := e.(type) {
				case *engine.Surrender:
					if slices.Contains(x.Attackers, n.ID) {
						c = x.Captured
					}
				case *engine.AssaultResolved:
					if x.Nation == n.ID {
						c = x.Captured
					}
				}
				if c != nil {
					for _, g := range c.Guns {
						captured[g.Count] = true
					}
				}
			}
			evs := ownLossesRemoved(t, seen, n.ID)
			// Counts the nation may know after the turn: its own forces', and
			// those of forces it scouted exactly. Promotions and losses do
			// arithmetic on them that may land on another force's marker.
			for _, f := range res.State.Forces {
				if f.Nation == n.ID || best[f.ID] >= ruleset.LevelExact {
					for _, tr := range f.Troops {
						captured[tr.Count] = true
					}
					for _, g := range f.Guns {
						captured[g.Count] = true
					}
				}
			}
			view, _ := json.Marshal(engine.View(g.m, rules1752(), res.State, n.ID))
			for _, text := range []string{string(evs), string(view)} {
				for _, f := range st.Forces {
					if f.Nation == n.ID {
						continue
					}
					if best[f.ID] < ruleset.LevelExact {
						for _, c := range marks[f.ID] {
							if numberIn(text, c) && !captured[c] {
								t.Errorf("seed %d: %s learns a count of %s (%d) without exact scouting (level %d):\n%s",
									seed, n.ID, f.ID, c, best[f.ID], excerpt(text, c))
								return
							}
						}
					}
					if best[f.ID] < ruleset.LevelApprox {
						for _, l := range f.Leaders {
							if strings.Contains(text, l.Name) {
								t.Fatalf("seed %d: %s learns the name of %s's leader without scouting", seed, n.ID, f.ID)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("events searched: %v", kinds)
	for _, k := range []string{"Contact", "Scouted", "Overrun", "RetreatedBeforeBattle", "Filtered"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the marked games: the test does not try hard enough", k)
		}
	}
}

// ownLossesRemoved encodes the events a nation saw, less what the rules
// themselves tell a force that refused to be slowed: its own losses, "1
// figure per cavalry model you send after them, in excess of the enemy's
// cavalry", from which it may work out the chasers' cavalry.
func ownLossesRemoved(t *testing.T, seen []engine.Event, n game.NationID) []byte {
	var out bytes.Buffer
	for _, e := range seen {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := e.(*engine.SlowingRefused); ok && s.Nation == n {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "Killed")
			delete(m, "Losses")
			b, _ = json.Marshal(m)
		}
		if lb, ok := e.(*engine.LandBattle); ok && lb.SideOf(n) >= 0 {
			// A beaten army's pursuit losses are one or two figures per
			// excess enemy cavalry figure: its own losses, like a refused
			// slowing's, may equal an enemy count.
			c := *lb
			own := c.Sides[lb.SideOf(n)]
			own.Killed, own.Routed, own.Regained, own.PursuitLost, own.Lost, own.Stacks, own.Exhausted = 0, 0, 0, 0, 0, nil, 0
			own.PursuitLight, own.PursuitHeavy, own.Promotions = 0, 0, nil
			c.Sides[lb.SideOf(n)] = own
			b, _ = engine.MarshalEvent(&c)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// excerpt returns the JSON around a number, for a failure message.
func excerpt(text string, n int) string {
	i := strings.Index(text, fmt.Sprintf(":%d", n))
	lo, hi := max(0, i-300), min(len(text), i+100)
	if k := strings.LastIndex(text[:i], `{"kind":`); k >= 0 && k < lo {
		lo = k
	}
	return text[lo:hi]
}

// BenchmarkResolveGrowth: the generated 40-nation game at 1k, 4k, 16k and
// 64k land forces (enginegen.Growth: the map and each nation's spread grow
// with the forces, so the density of forces, battles and sieges per hex is
// the same at every size), to show how a turn's time grows with the number
// of forces. It reports the land battles fought, so that a reader can see
// the work per force is the same at every size.
func BenchmarkResolveGrowth(b *testing.B) {
	for _, sz := range genSizes {
		if !sz.growth {
			continue
		}
		b.Run(sz.name, func(b *testing.B) {
			g := sz.game()
			b.ReportAllocs()
			in := g.input(sz.seed)
			cpu0 := processCPU()
			for b.Loop() {
				if _, err := engine.Resolve(in); err != nil {
					b.Fatal(err)
				}
			}
			// The CPU time the process spent per turn (the engine's and
			// the garbage collector's): on a machine shared with other work
			// it moves less than the wall-clock ns/op.
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(g.state.Forces)), "forces")
		})
	}
}
