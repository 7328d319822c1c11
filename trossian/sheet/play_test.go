package sheet

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/trossian"
)

// randomSheet writes a kingdom's sheet for a turn as a careless player
// might: marches anywhere, stances, tasks, detachments, couriers to forces
// away from the seat, navies' actions, purchases and banking in winter —
// legal or not; the checker decides.
func randomSheet(rng *rand.Rand, s *trossian.State, n game.NationID, provinces, lanes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME tr\nNATION %s\nPASSWORD secret\nTURN %d\n", n, s.Turn)
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	ns, _ := s.Nation(n)
	if s.Calendar.PhaseOf(s.Turn) == trossian.Winter {
		fmt.Fprintf(&b, "BUY %d hq, %d line-infantry AT %s\n", rng.IntN(2), 1+rng.IntN(3), ns.Capital)
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "BUY 1 navy, 1 messenger AT %s\n", pick(provinces))
		}
		fmt.Fprintf(&b, "BANK %d AT %s\n", 1+rng.IntN(6), pick(provinces))
		b.WriteString("END\n")
		return b.String()
	}
	for _, a := range s.Armies {
		if a.Nation != n {
			continue
		}
		var lines []string
		switch rng.IntN(6) {
		case 0, 1:
			lines = append(lines, fmt.Sprintf("MOVE %s TO %s", a.ID, pick(provinces)))
		case 2:
			lines = append(lines, fmt.Sprintf("ATTACK %s", a.ID))
		case 3:
			lines = append(lines, fmt.Sprintf("PACIFY %s", a.ID), fmt.Sprintf("BESIEGE %s", a.ID))
		case 4:
			lines = append(lines, fmt.Sprintf("DETACH %s 1 hq, 1 line-infantry", a.ID))
		case 5:
			lines = append(lines, fmt.Sprintf("RETREAT %s TO %s", a.ID, pick(provinces)))
		}
		if a.At != ns.Capital {
			b.WriteString("COURIER TO " + string(a.ID) + "\n")
		}
		b.WriteString(strings.Join(lines, "\n") + "\n")
	}
	for _, nv := range s.Navies {
		if nv.Nation != n {
			continue
		}
		acts := []string{"OUT", "SAIL " + pick(lanes), "SAIL " + pick(lanes), "IN " + pick(provinces)}
		fmt.Fprintf(&b, "NAVY %s %s\n", nv.ID, strings.Join(acts[:1+rng.IntN(4)], ", "))
	}
	b.WriteString("END\n")
	return b.String()
}

// TestRandomYearsCheckerAndEngineAgree plays years of random sheets through
// the checker and the engine: an order the checker accepted for a force at
// the King's seat is one the engine carries out at tick 0 (the same
// legality function on the same state: the engine never reports it
// ignored); the engine never panics; every turn's state keeps the
// invariants of TestTrossianYear; and the same seed gives the same bytes.
func TestRandomYearsCheckerAndEngineAgree(t *testing.T) {
	m, _ := fixture(t, 1)
	var provinces, lanes []string
	for _, p := range m.Provinces {
		provinces = append(provinces, p.ID)
	}
	for _, l := range m.Lanes {
		lanes = append(lanes, l.ID)
	}
	rules := trossian.Trossian1801()
	stats := map[string]int{}
	play := func(seed uint64) []byte {
		rng := rand.New(rand.NewPCG(seed, 99))
		_, st := fixture(t, 1)
		var log []byte
		for st.Turn <= trossian.PhasesPerYear {
			var orders []engine.Orders
			immediate := map[game.NationID]map[int]bool{}
			for _, ns := range st.Nations {
				ctx := Context{Map: m, Rules: rules, State: st, Game: "tr",
					VerifyPassword: func(game.NationID, string) bool { return true }}
				r := Check(randomSheet(rng, st, ns.ID, provinces, lanes), ctx)
				if r.Refused {
					t.Fatalf("seed %d turn %d %s refused:\n%s", seed, st.Turn, ns.ID, r.Text())
				}
				orders = append(orders, r.Orders)
				immediate[ns.ID] = map[int]bool{}
				for _, o := range r.Orders.List {
					if k, _ := trossian.KindOf(o.Kind()); k.ByCourier {
						immediate[ns.ID][o.SourceLine()] = true
					}
				}
			}
			in := trossian.Input{Map: m, Rules: rules, State: st, Orders: orders, Seed: seed*100 + uint64(st.Turn)}
			res, err := trossian.Resolve(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Awaiting) > 0 {
				for _, sh := range res.Awaiting {
					in.Battles = append(in.Battles, randomResult(rng, sh))
				}
				if res, err = trossian.Resolve(in); err != nil || res.State == nil {
					t.Fatalf("seed %d turn %d: %v %v", seed, st.Turn, err, res.Awaiting)
				}
			}
			for _, e := range res.Events {
				if oi, ok := e.(*engine.OrderIgnored); ok && (oi.Step == "orders" || oi.Step == "organisation") && immediate[oi.Nation][oi.Line] {
					t.Errorf("seed %d turn %d: the checker accepted %s's %s (line %d) and the engine refused it: %s", seed, st.Turn, oi.Nation, oi.Order, oi.Line, oi.Reason)
				}
			}
			for _, e := range res.Events {
				stats[e.Kind()]++
			}
			b, _ := engine.MarshalEvents(res.Events)
			log = append(log, b...)
			st = res.State
			checkInvariants(t, seed, st)
		}
		return log
	}
	defer func() { t.Logf("events over the years: %v", stats) }()
	for seed := uint64(1); seed <= 12; seed++ {
		if a, b := play(seed), play(seed); string(a) != string(b) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

// randomResult answers a battle sheet at random, as a table might end.
func randomResult(rng *rand.Rand, sh trossian.BattleSheet) trossian.BattleResult {
	r := trossian.BattleResult{Province: sh.Province, Outcome: "draw"}
	if rng.IntN(4) > 0 {
		side := sh.Sides[rng.IntN(len(sh.Sides))]
		r.Outcome, r.Winner = "win", side.Nations[0]
	}
	for _, s := range sh.Sides {
		for _, a := range s.Armies {
			for _, st := range a.Stands {
				d := rng.IntN(st.Count + 1)
				ro := rng.IntN(st.Count - d + 1)
				r.Units = append(r.Units, trossian.UnitFate{Army: a.Army, Type: st.Type, Guard: st.Guard, Destroyed: d, Routed: ro})
			}
		}
	}
	return r
}

func checkInvariants(t *testing.T, seed uint64, s *trossian.State) {
	t.Helper()
	ports := map[string]int{}
	for _, n := range s.Navies {
		if n.At.InPort() {
			if ports[n.At.Province]++; ports[n.At.Province] > 2 {
				t.Errorf("seed %d turn %d: %s holds %d navies", seed, s.Turn, n.At.Province, ports[n.At.Province])
			}
		}
	}
	for _, a := range s.Armies {
		if a.Stands.Total() == 0 || (a.At == "") == (a.Aboard == "") {
			t.Errorf("seed %d turn %d: army %+v", seed, s.Turn, a)
		}
	}
	for _, ns := range s.Nations {
		var owned trossian.Stands
		for _, a := range s.Armies {
			if a.Nation == ns.ID {
				owned = owned.Plus(a.Stands)
			}
		}
		for _, u := range trossian.UnitTypes {
			if owned.Count(u) > ns.Census.Count(u) {
				t.Errorf("seed %d turn %d: %s over its census of %s", seed, s.Turn, ns.ID, u)
			}
		}
		if ns.Couriers < 0 {
			t.Errorf("seed %d turn %d: %s has %d couriers", seed, s.Turn, ns.ID, ns.Couriers)
		}
	}
}
