package gamecheck

import (
	"maps"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// statuses checks that the cities every report prints are the state's,
// and that the siege status the events last announced for a city is the
// one it has.
func (c *checker) statuses() {
	t := c.t
	check := func(n game.NationID, cities []reports.City) {
		for _, rc := range cities {
			cs, ok := t.After.City(rc.Name)
			if !ok {
				c.fault("statuses", n, "the report prints city %s, which is not in the state", rc.Name)
				continue
			}
			siege := ""
			if cs.Siege != game.NotBesieged {
				siege = cs.Siege.String()
			}
			if rc.Controller != cs.Controller || rc.Loyalty != cs.Loyalty || rc.Siege != siege {
				c.fault("statuses", n, "the report prints %s held by %q, loyal to %q, %q; the state has %q, %q, %q",
					rc.Name, rc.Controller, rc.Loyalty, rc.Siege, cs.Controller, cs.Loyalty, siege)
			}
		}
	}
	for _, n := range sortedKeys(t.Nations) {
		check(n, t.Nations[n].Cities)
	}
	check(engine.Referee, t.Referee.Cities)
	// A city masked or besieged has besiegers, none of them its holder;
	// a siege recorded is of a city masked or besieged.
	for _, cs := range t.After.Cities {
		i := slices.IndexFunc(t.After.Sieges, func(s engine.SiegeState) bool { return s.City == cs.Name })
		switch {
		case cs.Siege != game.NotBesieged && i < 0:
			c.fault("statuses", "", "%s is %s and nobody besieges it", cs.Name, cs.Siege)
		case cs.Siege == game.NotBesieged && i >= 0:
			c.fault("statuses", "", "%s is free, and the state has %v besieging it", cs.Name, t.After.Sieges[i].Besiegers)
		case i >= 0 && slices.Contains(t.After.Sieges[i].Besiegers, cs.Controller):
			c.fault("statuses", "", "%s is %s by its own holder %s", cs.Name, cs.Siege, cs.Controller)
		}
	}
	// The year-end's taxes read the siege status the last reports printed
	// (the state the turn was resolved from): half from a masked city,
	// nothing from a besieged one.
	for _, e := range t.Events {
		x, ok := e.(*engine.TaxesCollected)
		if !ok {
			continue
		}
		for _, ct := range x.Cities {
			cs, _ := t.Before.City(ct.City)
			if cs == nil {
				continue
			}
			if cs.Siege != game.NotBesieged && !strings.Contains(ct.Why, cs.Siege.String()) {
				c.fault("statuses", x.Nation, "%s was %s and paid its taxes as if it were not (%d of %d: %q)", ct.City, cs.Siege, ct.Paid, ct.Value, ct.Why)
			}
			if cs.Siege == game.NotBesieged && (strings.Contains(ct.Why, "masked") || strings.Contains(ct.Why, "besieged")) {
				c.fault("statuses", x.Nation, "%s was free and paid its taxes as %q", ct.City, ct.Why)
			}
		}
	}
	// The last word the events said about each city's siege and holder.
	status := map[string]*engine.SiegeStatusChanged{}
	holder := map[string]game.NationID{}
	for _, e := range t.Events {
		switch x := e.(type) {
		case *engine.SiegeStatusChanged:
			status[x.City] = x
		case *engine.CityCaptured:
			holder[x.City] = x.By
			delete(status, x.City)
		case *engine.CityReverted:
			holder[x.City] = x.To
			delete(status, x.City)
		case *engine.GarrisonKilled:
			holder[x.City] = x.RevertsTo
			delete(status, x.City)
		case *engine.Surrender:
			delete(status, x.City)
		case *engine.AssaultResolved:
			if x.Captured != nil || x.DefendersWipedOut {
				delete(status, x.City)
			}
		}
	}
	for _, city := range slices.Sorted(maps.Keys(status)) {
		x := status[city]
		if cs, ok := t.After.City(city); ok && cs.Siege != x.Status {
			c.fault("statuses", "", "the events say %s is %s (was %s), and the state after the turn has it %s", city, x.Status, x.Previous, cs.Siege)
		}
	}
	for _, city := range slices.Sorted(maps.Keys(holder)) {
		n := holder[city]
		if cs, ok := t.After.City(city); ok && cs.Controller != n {
			c.fault("statuses", "", "the events give %s to %q, and the state after the turn has it held by %q", city, n, cs.Controller)
		}
	}
}
