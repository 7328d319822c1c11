package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// stepRepairs is "Damaged Ships have half their normal attack value and -1
// movement point. They must be repaired in a port. This takes one full turn
// and costs the amount listed in the cost chart" (Repair warship 20, Repair
// transport 10). A REPAIR order repairs every damaged ship of a fleet that
// spent the whole turn in a port its nation controls, neither besieged nor
// masked: it lay there at the start of the turn, did not sail and met no
// enemy. The cost is paid from the nation's treasury at the end of the turn
// (the treasury does not move: it pays where it lies); an order the
// treasury cannot pay is refused whole, and the ships stay damaged.
func (t *turn) stepRepairs() {
	rule := t.cite("Sea Battles", "Damaged Ships")
	for _, no := range ordersOfKind[Repair](t) {
		n, o := no.nation, no.o.(Repair)
		f := t.ownForce(n, o, o.Fleet, rule)
		if f == nil {
			continue
		}
		fi := t.fi(f.ID)
		sh := f.Ships
		var why string
		var mc *hexmap.City
		var cs *game.CityState
		inCity := false
		if !f.At.IsSea() {
			mc, inCity = t.m.CityAt(f.At.Hex)
		}
		if inCity {
			cs, _ = t.s.City(mc.Name)
		}
		switch {
		case sh.DamagedWarships == 0 && sh.DamagedTransports == 0:
			why = fmt.Sprintf("%s has no damaged ships", f.ID)
		case f.At.IsSea() || !inCity || !mc.Port:
			why = fmt.Sprintf("%s is not in a port: damaged ships \"must be repaired in a port\"", f.ID)
		case cs == nil || cs.Controller != n:
			why = fmt.Sprintf("%s is not your port", mc.Name)
		case cs.Siege != game.NotBesieged:
			why = fmt.Sprintf("%s is %s", mc.Name, cs.Siege)
		case fi.moved || fi.start != f.At || fi.engaged || t.sailed(f.ID):
			why = fmt.Sprintf("%s did not spend the whole turn in %s: a repair \"takes one full turn\"", f.ID, mc.Name)
		}
		if why != "" {
			t.ignore(n, o, f.ID, rule, why)
			continue
		}
		cost := sh.DamagedWarships*t.r.Costs.RepairWarship + sh.DamagedTransports*t.r.Costs.RepairTransport
		what := fmt.Sprintf("repairing %s and %s of %s", english.Count(sh.DamagedWarships, "warship"), english.Count(sh.DamagedTransports, "transport"), f.ID)
		if !t.pay(n, cost, "repair", what, o.Line, rule) {
			held := t.treasuryHeld(n)
			t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s costs %s and %s", what, english.Count(cost, "crown"), held))
			continue
		}
		t.emit(&ShipsRepaired{Fleet: f.ID, Warships: sh.DamagedWarships, Transports: sh.DamagedTransports, Cost: cost},
			rule, f.At, to(n), n)
		f.Ships.Warships += sh.DamagedWarships
		f.Ships.Transports += sh.DamagedTransports
		f.Ships.DamagedWarships, f.Ships.DamagedTransports = 0, 0
	}
}

// sailed reports a fleet that left its place during the turn, even if it
// came back (a voyage out of port and in again).
func (t *turn) sailed(id game.ForceID) bool {
	for _, e := range t.events {
		if sm, ok := e.(*SeaMoved); ok && sm.Fleet == id && len(sm.Path) > 0 {
			return true
		}
	}
	return false
}

// ShipsRepaired: a fleet's damaged ships were repaired in port for Cost
// crowns. Visible to the owner.
type ShipsRepaired struct {
	Header
	Fleet      game.ForceID
	Warships   int `json:",omitempty"`
	Transports int `json:",omitempty"`
	Cost       int
}

// Kind returns "ShipsRepaired".
func (*ShipsRepaired) Kind() string { return "ShipsRepaired" }

func init() { registerEvent(func() Event { return new(ShipsRepaired) }) }
