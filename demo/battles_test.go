package demo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/scenarios"
)

// playInProcess plays the demo's year as "pbem demo --seed seed" does, but
// without mail: each nation's scripted sheet (plan.monthly, plan.yearEnd:
// the corrected sheet where the script writes one with a mistake) is
// checked by the order checker, the accepted orders of all five go to the
// engine, and the turn is resolved with the dice the daemon would use for
// the demo's seed. Treaties and the referee's rulings, which come by mail,
// are left out. It returns every event of the year.
func playInProcess(t *testing.T, seed uint64) []engine.Event {
	t.Helper()
	sc, err := scenario.LoadFS(scenarios.Default(), scenarios.DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	rules := ruleset.SYW1752()
	st, err := sc.InitialState("syw", rules.ID)
	if err != nil {
		t.Fatal(err)
	}
	var players []*player
	for i, n := range nations {
		p := &player{nation: game.NationID(n.id), name: n.signature, password: "demo-" + n.id, rng: rand.New(rand.NewPCG(seed, uint64(i)+1))}
		if nn, ok := sc.Map.Nation(p.nation); ok {
			p.letter = nn.Letter
		}
		players = append(players, p)
	}
	// The dice key "pbem demo" gives the game (seedDice), and the turn's
	// seed the daemon derives from it (daemon.turnSeed).
	sum := sha256.Sum256([]byte("pbem demo " + strconv.FormatUint(seed, 10)))
	key := hex.EncodeToString(sum[:])
	year := st.Calendar.Date(st.Turn).Year
	var events []engine.Event
	for st.Calendar.Date(st.Turn).Year == year {
		var orders []engine.Orders
		for _, p := range players {
			v, d := p.write(sc.Map, rules, st)
			lines := d.lines
			if d.fixed != nil {
				lines = d.fixed
			}
			rep := parser.Check(p.sheet(v, lines, ""), parser.CheckContext{Map: sc.Map, Rules: rules, State: st, Game: "syw", Nation: p.nation, Turn: st.Turn})
			if rep.Refused {
				t.Fatalf("seed %d, turn %d: %s's sheet refused", seed, st.Turn, p.nation)
			}
			orders = append(orders, rep.Orders)
		}
		slices.SortFunc(orders, func(a, b engine.Orders) int {
			return map[bool]int{true: -1, false: 1}[a.Nation < b.Nation]
		})
		ts := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(st.Turn)))
		res, err := engine.Resolve(engine.Input{Map: sc.Map, Rules: rules, State: st, Orders: orders, Seed: binary.BigEndian.Uint64(ts[:8])})
		if err != nil {
			t.Fatalf("seed %d, turn %d: %v", seed, st.Turn, err)
		}
		events = append(events, res.Events...)
		st = res.State
	}
	return events
}

// TestDemoBattlesReadAsBattles plays the demo's year for seeds 1–20 and
// checks its battles as a referee would: at least one attack is repulsed
// or a battle lasts more than a day ("Repulse Result", "Multi-Day
// Battles"), and no army of twice the enemy's figures breaks after losing
// fewer than it inflicted — unless its commander fell with the unit he was
// with (a general is at risk only while attached: "Generals/ADC cannot
// usually be fired on or attacked while Unattached").
func TestDemoBattlesReadAsBattles(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 20 demo years")
	}
	type found struct {
		seed   uint64
		battle *engine.LandBattle
	}
	var mu sync.Mutex
	var all []found
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for seed := uint64(1); seed <= 20; seed++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			for _, e := range playInProcess(t, seed) {
				if lb, ok := e.(*engine.LandBattle); ok {
					mu.Lock()
					all = append(all, found{seed, lb})
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	slices.SortFunc(all, func(a, b found) int { return int(a.seed) - int(b.seed) })
	long := 0
	for _, f := range all {
		lb := f.battle
		name := fmt.Sprintf("seed %d, %s, hex %s", f.seed, lb.Date, lb.Hex)
		if lb.Outcome == battle.Repulse || lb.Outcome == battle.BothRepulsed || lb.Outcome == battle.Withdrew || lb.Days > 1 {
			long++
		}
		if lb.Outcome != battle.Decisive || lb.Winner < 0 {
			continue
		}
		w, l := lb.Sides[lb.Winner], lb.Sides[1-lb.Winner]
		fighting := func(s engine.BattleSide) int {
			n := 0
			for _, a := range s.Arms {
				if a.Arm.IsFighting() {
					n += a.Figures
				}
			}
			return n
		}
		lost := func(s engine.BattleSide) int { return s.Killed + s.Routed + s.Captured }
		if fighting(l) < 2*fighting(w) || lost(l) >= lost(w) {
			continue
		}
		fell := false
		for _, g := range l.Generals {
			fell = fell || g.Name == l.Commander && (g.Fate == battle.Killed || g.Fate == battle.Captured)
		}
		if !fell {
			t.Errorf("%s: %s's army of %d broke against %d after losing %d to the enemy's %d, its commander unhurt", name, l.CommanderNation, fighting(l), fighting(w), lost(l), lost(w))
		}
	}
	t.Logf("%d land battles in 20 demo years, %d repulsed or of more than one day", len(all), long)
	if len(all) == 0 {
		t.Fatal("the demo years fought no land battle")
	}
	if long == 0 {
		t.Error("no battle of the 20 demo years was a repulse or lasted more than a day")
	}
}
