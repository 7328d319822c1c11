package gamecheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// contents is what a force is made of, for comparing it before and after
// a turn: figures by arm and grade, guns by kind and owner, ships, leaders
// by ID. Exhaustion and experience are left out: they change without
// figures coming or going.
func contents(f *game.Force) string {
	troops := map[string]int{}
	for _, t := range f.Troops {
		troops[fmt.Sprintf("%s %s", t.Grade, t.Arm)] += t.Count
	}
	guns := map[string]int{}
	for _, g := range f.Guns {
		guns[fmt.Sprintf("%s/%s", g.Kind, g.Owner)] += g.Count
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(troops)) {
		if troops[k] != 0 {
			fmt.Fprintf(&b, "%d %s, ", troops[k], k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(guns)) {
		if guns[k] != 0 {
			fmt.Fprintf(&b, "%d %s, ", guns[k], k)
		}
	}
	fmt.Fprintf(&b, "ships %+v, leaders", f.Ships)
	for _, l := range f.Leaders {
		b.WriteString(" " + l.ID)
	}
	return b.String()
}

// tally is a nation's strength: figures, guns, ships and leaders.
type tally struct{ figures, guns, ships, leaders int }

func tallies(st *engine.State) map[game.NationID]tally {
	out := map[game.NationID]tally{}
	for i := range st.Forces {
		f := &st.Forces[i]
		t := out[f.Nation]
		t.figures += f.Figures()
		t.guns += f.GunCount()
		t.ships += f.Ships.Total()
		t.leaders += len(f.Leaders)
		out[f.Nation] = t
	}
	return out
}

// gains are the event kinds that may bring a nation figures, guns, ships
// or leaders it did not have: purchases, transfers, the referee's rulings,
// and (guns and ships) trophies of a battle, a surrender or an assault.
var gains = map[string][]string{
	"figures": {"UnitsBought", "UnitsTransferred", "RulingApplied"},
	"guns":    {"UnitsBought", "UnitsTransferred", "RulingApplied", "LandBattle", "Surrender", "AssaultResolved"},
	"ships":   {"UnitsBought", "UnitsTransferred", "RulingApplied", "SeaBattle"},
	"leaders": {"UnitsBought", "UnitsTransferred", "RulingApplied", "LandBattle"},
}

// forces checks that nothing appears or vanishes without an event: every
// force gone, new or changed is named by an event of the turn, every
// leader gone or new too, and a nation grows only by an event that brings
// what it gained.
func (c *checker) forces() {
	t := c.t
	before := map[game.ForceID]*game.Force{}
	for i := range t.Before.Forces {
		before[t.Before.Forces[i].ID] = &t.Before.Forces[i]
	}
	after := map[game.ForceID]*game.Force{}
	for i := range t.After.Forces {
		after[t.After.Forces[i].ID] = &t.After.Forces[i]
	}
	for _, id := range slices.SortedFunc(maps.Keys(before), game.CompareForceIDs) {
		f, g := before[id], after[id]
		switch {
		case g == nil && !c.named[string(id)]:
			c.fault("forces", f.Nation, "force %s (%s) is gone and no event names it", id, contents(f))
		case g != nil && contents(f) != contents(g) && !c.named[string(id)]:
			c.fault("forces", f.Nation, "force %s changed from %s to %s and no event names it", id, contents(f), contents(g))
		case g != nil && g.Nation != f.Nation:
			c.fault("forces", f.Nation, "force %s changed hands to %s", id, g.Nation)
		}
	}
	c.figures(before, after)
	for _, id := range slices.SortedFunc(maps.Keys(after), game.CompareForceIDs) {
		if before[id] == nil && !c.named[string(id)] {
			c.fault("forces", after[id].Nation, "force %s (%s) appeared and no event names it", id, contents(after[id]))
		}
	}
	leaders := func(st *engine.State) map[string]game.Leader {
		out := map[string]game.Leader{}
		for _, f := range st.Forces {
			for _, l := range f.Leaders {
				out[l.ID] = l
			}
		}
		return out
	}
	lb, la := leaders(t.Before), leaders(t.After)
	with := map[string]game.ForceID{} // leader → his force before the turn
	for _, f := range t.Before.Forces {
		for _, l := range f.Leaders {
			with[l.ID] = f.ID
		}
	}
	for _, id := range slices.Sorted(maps.Keys(lb)) {
		if _, ok := la[id]; !ok && !c.named[id] && !c.named[lb[id].Name] {
			if f := with[id]; after[f] == nil && has(c, func(e *engine.ForceDisbanded) bool { return e.Force == f && e.Leaders > 0 }) {
				continue // disbanded with his force, and counted
			}
			c.fault("forces", "", "leader %s (%s) is gone and no event names him", id, lb[id].Name)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(la)) {
		if _, ok := lb[id]; !ok && !c.named[id] && !c.named[la[id].Name] {
			c.fault("forces", "", "leader %s (%s) appeared and no event names him", id, la[id].Name)
		}
	}
	tb, ta := tallies(t.Before), tallies(t.After)
	for _, n := range slices.Sorted(maps.Keys(ta)) {
		b, a := tb[n], ta[n]
		for _, x := range []struct {
			what   string
			b, a   int
			events []string
		}{{"figures", b.figures, a.figures, gains["figures"]}, {"guns", b.guns, a.guns, gains["guns"]},
			{"ships", b.ships, a.ships, gains["ships"]}, {"leaders", b.leaders, a.leaders, gains["leaders"]}} {
			if x.a > x.b && !c.eventFor(n, x.events...) {
				c.fault("forces", n, "the nation has %d %s, %d more than before the turn, and no event of %v brought them", x.a, x.what, x.a-x.b, x.events)
			}
		}
	}
}

// eventFor reports an event of one of the kinds that involves nation n.
func (c *checker) eventFor(n game.NationID, kinds ...string) bool {
	for _, e := range c.t.Events {
		if slices.Contains(kinds, e.Kind()) && slices.Contains(e.Head().Nations, n) {
			return true
		}
	}
	return false
}

// losses are the figures and guns each force lost by the events that list
// their losses one by one (attrition, siege losses, assaults and the guns
// they take, overruns' victors, retreats before battle, a slowing refused);
// opaque are the forces an event changes
// by a count it does not itemise per force (a battle, a sea battle, a
// surrender, a split or merge, a ruling, the year-end's fielding and
// transfers), whose figures are not reckoned here.
func (c *checker) losses() (lost map[game.ForceID][2]int, opaque map[string]bool) {
	lost = map[game.ForceID][2]int{}
	opaque = map[string]bool{}
	add := func(def game.ForceID, ls []engine.Loss) {
		for _, l := range ls {
			f := l.Force
			if f == "" {
				f = def
			}
			x := lost[f]
			if l.Gun != 0 {
				x[1] += l.Lost
			} else {
				x[0] += l.Lost
			}
			lost[f] = x
		}
	}
	for _, e := range c.t.Events {
		switch x := e.(type) {
		case *engine.Attrition:
			add(x.Force, x.Losses)
		case *engine.SiegeLosses:
			add("", x.Losses)
		case *engine.AssaultResolved:
			add(x.Force, x.AttackerLosses)
			add("", x.DefenderLosses)
			if x.Captured != nil && x.Captured.By != "" {
				// The garrison's guns, taken by the storming force.
				for _, g := range x.Captured.Guns {
					add(x.Captured.By, []engine.Loss{{Gun: g.Kind, Lost: -g.Count}})
				}
			}
		case *engine.SlowingRefused:
			add(x.Force, x.Losses)
		case *engine.Overrun:
			add("", x.Losses)
		case *engine.RetreatedBeforeBattle:
			add(x.Force, x.Losses)
		case *engine.LandBattle, *engine.SeaBattle, *engine.CounterBattery, *engine.Surrender, *engine.GarrisonKilled,
			*engine.RulingApplied, *engine.UnitsTransferred, *engine.UnitsFielded, *engine.UnitsBought, *engine.ForceDisbanded,
			*engine.ForceSplit, *engine.ForcesMerged, *engine.LandingRefused:
			collect(e, opaque)
		}
	}
	return lost, opaque
}

// figures checks each force that stayed in the game without a battle, a
// split or another change its events do not itemise: it lost exactly the
// figures and guns its events list.
func (c *checker) figures(before, after map[game.ForceID]*game.Force) {
	lost, opaque := c.losses()
	for _, id := range slices.SortedFunc(maps.Keys(before), game.CompareForceIDs) {
		f, g := before[id], after[id]
		if g == nil || opaque[string(id)] {
			continue
		}
		want := lost[id]
		if got := f.Figures() - g.Figures(); got != want[0] {
			c.fault("forces", f.Nation, "force %s has %d figures, %d fewer than before the turn; its events list %d lost", id, g.Figures(), got, want[0])
		}
		if got := f.GunCount() - g.GunCount(); got != want[1] {
			c.fault("forces", f.Nation, "force %s has %d guns, %d fewer than before the turn; its events list %d lost", id, g.GunCount(), got, want[1])
		}
	}
}
