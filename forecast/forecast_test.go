package forecast_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/gamecheck"
	"github.com/syw-pbem/pbem/ruleset"
)

// seeds is how many generated games the property test plays.
const seeds = 24

func ordersOf(all []engine.Orders, n game.NationID) engine.Orders {
	for _, o := range all {
		if o.Nation == n {
			return o
		}
	}
	return engine.Orders{Nation: n}
}

// interfered tells the forces of nation n that the resolved turn shows
// meeting another nation: any event but a scouting report that involves n
// and another nation and names the force.
func interfered(t *testing.T, events []engine.Event, n game.NationID) map[game.ForceID]bool {
	out := map[game.ForceID]bool{}
	for _, e := range events {
		h := e.Head()
		if _, ok := e.(*engine.Scouted); ok || len(h.Nations) < 2 || !slices.Contains(h.Nations, n) {
			continue
		}
		b, err := engine.MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), `"`) {
			out[game.ForceID(part)] = true
		}
	}
	return out
}

// tally counts the forces a property test compared and skipped.
type tally struct{ compared, skipped int }

// sameAsResolved compares nation n's forecast with the turn the engine
// resolved from the same state with every nation's orders (res): for every
// force no foreign force interfered with — no event of the turn involves
// it and another nation, it is in no siege, it met no known foreign force
// on its way — the end position, the supply (where no foreign force could
// block the line), the attrition (within the forecast's range); and the
// crowns, unless a city changed hands.
func sameAsResolved(t *testing.T, where string, fc *forecast.Forecast, res *engine.Result, n game.NationID, c *tally) {
	t.Helper()
	touched := interfered(t, res.Events, n)
	supply := map[game.ForceID]*engine.SupplyTraced{}
	attrition := map[game.ForceID]*engine.Attrition{}
	captured := false
	for _, e := range res.Events {
		switch e := e.(type) {
		case *engine.SupplyTraced:
			supply[e.Force] = e
		case *engine.Attrition:
			attrition[e.Force] = e
		case *engine.CityCaptured:
			captured = captured || e.By == n || e.From == n
		case *engine.GarrisonKilled, *engine.Surrender:
			captured = true
		}
	}
	besieging := map[game.ForceID]bool{}
	for _, s := range fc.Sieges {
		for _, id := range s.Forces {
			besieging[id] = true
		}
	}
	for _, ff := range fc.Forces {
		where := fmt.Sprintf("%s %s %s", where, n, ff.ID)
		if touched[ff.ID] || len(ff.Contacts) > 0 || besieging[ff.ID] || ff.Aboard != "" {
			c.skipped++
			continue
		}
		c.compared++
		real, ok := res.State.Force(ff.ID)
		if gone := ff.Disbanded != ""; gone == ok {
			t.Errorf("%s: forecast disbanded %q, resolution keeps it: %v", where, ff.Disbanded, ok)
			continue
		}
		if !ok {
			continue
		}
		if real.At != ff.End {
			t.Errorf("%s: forecast ends in %s, the turn ends it in %s (stopped %q)", where, ff.End, real.At, ff.Stopped)
		}
		st := supply[ff.ID]
		if st != nil && !ff.SupplyAtRisk && st.Supplied != ff.Supplied {
			t.Errorf("%s: forecast supplied %v, the turn %v (%s)", where, ff.Supplied, st.Supplied, st.Reason)
		}
		if a := attrition[ff.ID]; a != nil && !ff.SupplyAtRisk {
			for _, l := range a.Losses {
				i := slices.IndexFunc(ff.Attrition, func(o engine.LossOdds) bool {
					return o.Arm == l.Arm && o.Grade == l.Grade && o.Gun == l.Gun && o.Before == l.Before
				})
				if i < 0 {
					t.Errorf("%s: the turn's attrition %+v is not in the forecast %+v", where, l, ff.Attrition)
					continue
				}
				if o := ff.Attrition[i]; l.Lost < o.Min || l.Lost > o.Max {
					t.Errorf("%s: the turn lost %d, the forecast %d–%d", where, l.Lost, o.Min, o.Max)
				}
			}
		} else if !ff.Supplied && !ff.SupplyAtRisk {
			for _, o := range ff.Attrition {
				if o.Min > 0 {
					t.Errorf("%s: forecast loses at least %d %v to attrition, the turn none", where, o.Min, o)
				}
			}
		}
	}
	for _, fl := range fc.Fleets {
		if touched[fl.ID] || len(fl.Contacts) > 0 {
			c.skipped++
			continue
		}
		c.compared++
		if real, ok := res.State.Force(fl.ID); ok && real.At != fl.End {
			t.Errorf("%s %s fleet %s: forecast ends in %s, the turn in %s", where, n, fl.ID, fl.End, real.At)
		}
	}
	if !captured {
		after := 0
		for _, c := range res.State.Cities {
			if c.Controller == n {
				after += c.Treasury
			}
		}
		if after != fc.After {
			t.Errorf("%s %s: forecast leaves %d crowns, the turn %d", where, n, fc.After, after)
		}
	}
}

// enough fails a property test that compared too few forces to mean much.
func enough(t *testing.T, c tally, least int) {
	t.Helper()
	t.Logf("compared %d forces and fleets, skipped %d that met foreign forces", c.compared, c.skipped)
	if c.compared < least {
		t.Errorf("compared only %d forces (skipped %d): the property is hardly tested", c.compared, c.skipped)
	}
}

// TestForecastEqualsResolution is the property over generated
// games (engine/enginegen), both editions, 24 seeds: for a turn in which no
// foreign force interferes with a force, the forecast's end position,
// supply and attrition are the resolved turn's, and so are the crowns.
func TestForecastEqualsResolution(t *testing.T) {
	t.Parallel()
	var c tally
	for seed := uint64(1); seed <= seeds; seed++ {
		rules := ruleset.SYW1752()
		if seed%2 == 0 {
			rules = ruleset.SYWV4()
		}
		g := enginegen.New(seed, 30, 24, 3, 6)
		g.State.Ruleset = rules.ID
		res, err := engine.Resolve(engine.Input{Map: g.Map, Rules: rules, State: g.State, Orders: g.Orders, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, nat := range g.Map.Nations {
			n := nat.ID
			v := engine.View(g.Map, rules, g.State, n)
			fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: rules, View: v, Orders: ordersOf(g.Orders, n)})
			if err != nil {
				t.Fatal(err)
			}
			sameAsResolved(t, fmt.Sprintf("seed %d %s", seed, rules.ID), fc, res, n, &c)
		}
	}
	enough(t, c, 300)
}

// TestForecastEqualsResolutionDemo is the property over the demo's game:
// the default scenario's game-year, its year-end included, as the demo's
// scripted players play it (internal/gamecheck), both editions, two seeds, every nation's sheet forecast
// from its view and compared with the turn resolved from all of them.
// Turns with referee rulings are left out (a forecast does not know them).
func TestForecastEqualsResolutionDemo(t *testing.T) {
	t.Parallel()
	var c tally
	for _, ed := range ruleset.IDs() {
		for seed := uint64(1); seed <= 2; seed++ {
			s := gamecheck.Setup{Game: gamecheck.Demo, Edition: ed, Model: ruleset.BattleModels[0], Seed: seed}
			err := gamecheck.Play(s, gamecheck.Hooks{Each: func(tn *gamecheck.Turn) error {
				if len(tn.Rulings) > 0 {
					return nil
				}
				res := &engine.Result{State: tn.After, Events: tn.Events}
				for _, o := range tn.Orders {
					v := engine.View(tn.Map, tn.Rules, tn.Before, o.Nation)
					fc, err := forecast.Make(forecast.Input{Map: tn.Map, Rules: tn.Rules, View: v, Orders: o})
					if err != nil {
						return err
					}
					sameAsResolved(t, fmt.Sprintf("%s turn %d", s, tn.Before.Turn), fc, res, o.Nation, &c)
				}
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	enough(t, c, 50)
}

// TestForecastKeepsTheFog: the forecast is made from the nation's view
// alone. Changing what the nation cannot see — the contents, leaders and
// orders of foreign forces its scouts never counted, other nations'
// treasuries — changes nothing in it; and every foreign force it names is
// one the view holds, where the view holds it.
func TestForecastKeepsTheFog(t *testing.T) {
	t.Parallel()
	rules := ruleset.SYW1752()
	for seed := uint64(1); seed <= 8; seed++ {
		g := enginegen.New(seed, 30, 24, 3, 6)
		for _, nat := range g.Map.Nations {
			n := nat.ID
			text := func(s *engine.State) string {
				v := engine.View(g.Map, rules, s, n)
				fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: rules, View: v, Orders: ordersOf(g.Orders, n)})
				if err != nil {
					t.Fatal(err)
				}
				for _, ff := range fc.Forces {
					for _, c := range ff.Contacts {
						if !slices.ContainsFunc(v.Foreign, func(f engine.ForeignForce) bool { return f.ID == c.Force && f.At == c.At }) {
							t.Errorf("seed %d %s: the forecast names %s at %s, which the view does not hold", seed, n, c.Force, c.At)
						}
					}
				}
				return fc.Text(g.Map)
			}
			before := text(g.State)
			hidden := g.State.Clone()
			for i := range hidden.Forces {
				f := &hidden.Forces[i]
				if f.Nation == n {
					continue
				}
				// Same size class, other contents and leaders.
				for j := range f.Troops {
					if f.Troops[j].Count > 2 {
						f.Troops[j].Count--
					}
				}
				for j := range f.Leaders {
					f.Leaders[j].Name = "Secret " + f.Leaders[j].ID
				}
				f.Stance = game.Defend
			}
			for i := range hidden.Cities {
				if hidden.Cities[i].Controller != n {
					hidden.Cities[i].Treasury += 777
				}
			}
			if after := text(hidden); after != before {
				t.Errorf("seed %d %s: the forecast changed with what the nation cannot see:\n%s\n----\n%s", seed, n, before, after)
			}
			if strings.Contains(before, "Secret") || strings.Contains(before, "General of") && !strings.Contains(before, "General of "+string(nat.Letter)) {
				t.Errorf("seed %d %s: the forecast names a foreign leader", seed, n)
			}
		}
	}
}
