package gamecheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
)

// enemyKinds are the events by which an enemy (or the fortune of war) acts
// on a force: an order of a force named in one may fail, and the report
// says why.
var enemyKinds = []string{"Contact", "LandBattle", "Overrun", "CavalrySlowed", "SlowingRefused", "Filtered",
	"RetreatedBeforeBattle", "RetreatBlocked", "Pursued", "SeaContact", "SeaBattle", "LandingRefused",
	"EngagementPending", "SeaEngagementPending", "GarrisonKilled", "Surrender", "AssaultResolved",
	"SiegeLosses", "CounterBattery", "SiegeStatusChanged", "CityCaptured", "CityReverted"}

// acknowledged are a sheet's orders the checker accepted without an error or
// a warning on their lines.
func acknowledged(r *parser.Report) []engine.Order {
	warned := func(line int) bool {
		return slices.ContainsFunc(r.Diagnostics, func(d parser.Diagnostic) bool {
			end := max(d.EndLine, d.Line)
			return d.Severity != parser.Note && d.Line <= line && line <= end
		})
	}
	var out []engine.Order
	for _, o := range r.Orders.List {
		if !warned(o.SourceLine()) {
			out = append(out, o)
		}
	}
	return out
}

// orders checks that every order a sheet was acknowledged for without a
// warning was carried out, or that an enemy stopped it and the nation's
// report says so.
func (c *checker) orders() {
	t := c.t
	// disturbed: for each force (and city) an enemy acted on, the first
	// step of the turn it did so in. An enemy stops an order only from its
	// step on: a contact in the movement step may stop a march, never the
	// split made before it.
	steps := engine.Steps(t.Before.Calendar.Date(t.Before.Turn).IsYearEnd())
	stepOf := func(name string) int {
		if i := slices.Index(steps, name); i >= 0 {
			return i
		}
		return len(steps)
	}
	disturbed := map[string]int{}
	for _, e := range t.Events {
		if !slices.Contains(enemyKinds, e.Kind()) {
			continue
		}
		names := map[string]bool{}
		collect(e, names)
		at := stepOf(e.Head().Step)
		for n := range names { // a map filled: order does not matter
			if was, ok := disturbed[n]; !ok || at < was {
				disturbed[n] = at
			}
		}
	}
	// Troops aboard a fleet an enemy met were met too; a force gone may
	// have been carried along by whatever removed it: its orders cannot
	// be judged from the state it left.
	for _, f := range t.Before.Forces {
		if at, ok := disturbed[string(f.Aboard)]; f.Aboard != "" && ok {
			if was, ok := disturbed[string(f.ID)]; !ok || at < was {
				disturbed[string(f.ID)] = at
			}
		}
		if _, ok := t.After.Force(f.ID); !ok {
			disturbed[string(f.ID)] = -1
		}
	}
	hit := func(o engine.Order, names ...string) bool {
		k, _ := engine.KindOf(o.Kind())
		step := k.Step
		if t.Before.Calendar.Date(t.Before.Turn).IsYearEnd() && k.YearEndStep != "" {
			step = k.YearEndStep
		}
		for _, n := range names {
			if at, ok := disturbed[n]; ok && n != "" && at <= stepOf(step) {
				return true
			}
		}
		return false
	}
	var v *parser.Vocabulary // for the faults' wording, made when one is found
	say := func(o engine.Order) string {
		if v == nil {
			v = parser.NewVocabulary(t.Map, t.Before)
		}
		return fmt.Sprintf("line %d %q", o.SourceLine(), parser.FormatOrder(o, v))
	}
	for _, n := range sortedKeys(t.Sheets) {
		sh := t.Sheets[n]
		engineGot := map[int]bool{}
		for _, o := range t.Orders {
			if o.Nation == n {
				for _, x := range o.List {
					engineGot[x.SourceLine()] = true
				}
			}
		}
		for _, o := range acknowledged(sh.Report) {
			line := o.SourceLine()
			subject, city := subjectOf(o)
			stopped := hit(o, subject, city)
			if ig := c.ignored(n, line); ig != nil {
				if !stopped {
					c.fault("orders", n, "%s was acknowledged without a warning and not carried out: %s", say(o), ig.Reason)
				} else if md := t.Nations[n]; md != nil && !slices.ContainsFunc(md.Movements, func(s string) bool { return strings.Contains(s, ig.Reason) }) {
					c.fault("orders", n, "%s was not carried out (%s) and the report does not say so", say(o), ig.Reason)
				}
				continue
			}
			if c.done(n, o) || stopped {
				continue
			}
			why := "and no event says why"
			if !engineGot[line] {
				why = "and the engine never had it"
			}
			c.fault("orders", n, "%s was acknowledged without a warning and dropped without a reason: nothing came of it %s", say(o), why)
		}
	}
}

// rulings checks that every ruling the referee gave was applied, or the
// events say why not.
func (c *checker) rulings() {
	for _, r := range c.t.Rulings {
		if len(r.Effects) == 0 {
			continue
		}
		if !has(c, func(e *engine.RulingApplied) bool { return e.Token == r.Token }) &&
			!has(c, func(e *engine.RulingNotApplied) bool { return e.Token == r.Token }) {
			c.fault("orders", r.Nation, "the referee's ruling on %s was neither applied nor refused with a reason", r.Token)
		}
	}
}

// ignored returns the OrderIgnored event of nation n's order on line.
func (c *checker) ignored(n game.NationID, line int) *engine.OrderIgnored {
	for _, e := range c.t.Events {
		if x, ok := e.(*engine.OrderIgnored); ok && x.Nation == n && x.Line == line {
			return x
		}
	}
	return nil
}

// subjectOf is the force an order acts on, and the city, as events name
// them.
func subjectOf(o engine.Order) (force, city string) {
	switch x := o.(type) {
	case engine.Besiege:
		return string(x.Force), x.City
	case engine.Assault:
		return string(x.Force), x.City
	case engine.Bombard:
		return string(x.Force), x.City
	case engine.Fieldworks:
		return string(x.Force), ""
	}
	f, _ := engine.KindSubject(o)
	return string(f), ""
}

// has reports an event of type T for which match holds.
func has[T engine.Event](c *checker, match func(T) bool) bool {
	for _, e := range c.t.Events {
		if x, ok := e.(T); ok && match(x) {
			return true
		}
	}
	return false
}

// done reports whether order o of nation n shows its effect: in the state
// after the turn or in the event that carries it out.
func (c *checker) done(n game.NationID, o engine.Order) bool {
	t := c.t
	after := func(id game.ForceID) *game.Force {
		f, _ := t.After.Force(id)
		return f
	}
	switch x := o.(type) {
	case engine.Move:
		dest := x.Dest
		if len(x.Path) > 0 {
			dest = x.Path[len(x.Path)-1]
		}
		f := after(x.Force)
		return f != nil && f.At == game.AtHex(dest) ||
			has(c, func(e *engine.Embarked) bool { return e.Force == x.Force })
	case engine.SetStance:
		f := after(x.Force)
		return f == nil || f.Stance == x.Stance
	case engine.Retreat:
		f := after(x.Force)
		return f == nil || f.Standing.RetreatBelow != 0 || x.Never
	case engine.Pursue:
		f := after(x.Force)
		return f == nil || f.Standing.Pursue == x.On
	case engine.OnContact:
		f := after(x.Force)
		return f == nil || f.Standing.Continue == x.Continue
	case engine.SlowEnemy:
		f := after(x.Force)
		return f == nil || f.Standing.SlowEnemy == x.On
	case engine.FleetStance:
		f := after(x.Fleet)
		return f == nil || f.Standing.AvoidBattle == x.Avoid
	case engine.Split:
		return has(c, func(e *engine.ForceSplit) bool { return e.Force == x.Force })
	case engine.Merge:
		return has(c, func(e *engine.ForcesMerged) bool { return e.Force == x.Force && e.Into == x.Into })
	case engine.AssignLeader:
		return has(c, func(e *engine.LeaderAssigned) bool { return e.Leader == x.Leader })
	case engine.DetachLeader:
		return has(c, func(e *engine.LeaderAssigned) bool { return e.Leader == x.Leader })
	case engine.Garrison:
		return has(c, func(e *engine.GarrisonSet) bool { return e.Force == x.Force })
	case engine.GrantSupply:
		return has(c, func(e *engine.DepotGranted) bool { return e.Depot == x.Depot && e.Nation == x.Nation })
	case engine.Special:
		return has(c, func(e *engine.SpecialRequested) bool { return e.Nation == n && e.Line == x.Line })
	case engine.Embark:
		return has(c, func(e *engine.Embarked) bool { return e.Force == x.Force && e.Fleet == x.Fleet })
	case engine.Debark:
		return has(c, func(e *engine.Debarked) bool { return e.Force == x.Force })
	case engine.Sail:
		f := after(x.Fleet)
		return f != nil && len(x.Path) > 0 && f.At == x.Path[len(x.Path)-1]
	case engine.Repair:
		return has(c, func(e *engine.ShipsRepaired) bool { return e.Fleet == x.Fleet })
	case engine.Fieldworks:
		return has(c, func(e *engine.FieldworksBuilt) bool { return e.Force == x.Force })
	case engine.Besiege:
		return has(c, func(e *engine.SiegeStatusChanged) bool { return e.City == x.City && slices.Contains(e.Besiegers, n) }) ||
			has(c, func(e *engine.CityCaptured) bool { return e.City == x.City && e.By == n }) ||
			slices.ContainsFunc(t.After.Sieges, func(s engine.SiegeState) bool { return s.City == x.City && slices.Contains(s.Besiegers, n) })
	case engine.Assault:
		return has(c, func(e *engine.AssaultResolved) bool { return e.City == x.City && e.Nation == n })
	case engine.Bombard:
		return has(c, func(e *engine.Breach) bool { return e.City == x.City }) ||
			has(c, func(e *engine.CounterBattery) bool { return e.City == x.City })
	case engine.Buy:
		return has(c, func(e *engine.UnitsBought) bool { return e.Nation == n && e.Line == x.Line })
	case engine.Field:
		if x.Depot != "" {
			return has(c, func(e *engine.UnitsFielded) bool { return e.Depot == x.Depot })
		}
		if x.All {
			return has(c, func(e *engine.UnitsFielded) bool { return e.Nation == n }) || !slices.ContainsFunc(t.Before.Forces, func(f game.Force) bool { return f.Nation == n })
		}
		return has(c, func(e *engine.UnitsFielded) bool { return e.Force == x.Force })
	case engine.Disband:
		return has(c, func(e *engine.ForceDisbanded) bool { return e.Force == x.Force })
	case engine.Transfer:
		return has(c, func(e *engine.UnitsTransferred) bool { return e.From == n && e.Line == x.Line })
	case engine.MoveTreasury:
		return has(c, func(e *engine.TreasuryChanged) bool { return e.Line == x.Line && e.Change > 0 })
	case engine.TemporaryCapitol:
		return has(c, func(e *engine.CapitolDesignated) bool { return e.Nation == n && e.City == x.City })
	}
	return false
}
