package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// warshipOff reports whether the nation has a warship in a sea area the port
// opens onto, or in the port, now or at the end of its voyage.
func (c *checker) warshipOff(mc *hexmap.City) bool {
	seas := c.m.SeasTouching(mc.Hex)
	for _, f := range c.forces {
		if f.Ships.AllWarships() == 0 {
			continue
		}
		start, end := c.where(f)
		for _, p := range []game.Place{start, end} {
			if p.Hex == mc.Hex && !p.IsSea() || p.IsSea() && slices.Contains(seas, p.Sea) {
				return true
			}
		}
	}
	return false
}

func (c *checker) checkAssault(o engine.Assault) {
	f := c.land(o.Force)
	mc, cs := c.city(o.City)
	c.onceFor("assault", mc.Name, mc.Name)
	c.atCity(f, mc, "assaults")
	c.legal(o)
	if cs.Siege == game.NotBesieged && !c.besieging[fold(mc.Name)] {
		c.warn(mc.Name, fmt.Sprintf("%s is neither besieged nor masked, and no order of this sheet besieges it", mc.Name),
			fmt.Sprintf("Add BESIEGE %s %s.", o.Force, cityName(mc.Name)))
	}
}

func (c *checker) checkBombard(o engine.Bombard) {
	f := c.land(o.Force)
	mc, _ := c.city(o.City)
	c.atCity(f, mc, "bombards")
	c.legal(o)
}

// ---- the sea ----

func (c *checker) cargoAboard(fleet game.ForceID) int {
	n := 0
	for _, f := range c.forces {
		if f.Aboard == fleet {
			n += c.rules.Cargo.PointsOf(f)
		}
	}
	for _, d := range c.ownDepots() {
		if d.Aboard == fleet {
			n += c.rules.Cargo.Depot
		}
	}
	return n
}

// cargoBreakdown explains a force's cargo points.
func (c *checker) cargoBreakdown(f *game.Force) string {
	cg := c.rules.Cargo
	var parts []string
	if n := f.CountArms(game.Arm.IsInfantry); n > 0 {
		parts = append(parts, fmt.Sprintf("%d infantry × %d", n, cg.InfantryFigure))
	}
	if n := f.CountArms(game.Arm.IsCavalry); n > 0 {
		parts = append(parts, fmt.Sprintf("%d cavalry × %d", n, cg.CavalryFigure))
	}
	if n := f.GunCount(); n > 0 {
		parts = append(parts, fmt.Sprintf("%s × %d", english.Count(n, "gun"), cg.GunModel))
	}
	return strings.Join(parts, " + ")
}

func (c *checker) checkEmbark(o engine.Embark) {
	c.onceFor("embark", string(o.Force), string(o.Force))
	f := c.land(o.Force)
	fl := c.fleet(o.Fleet)
	c.legal(o)
	// The engine's rule, with the marches and voyages this sheet plans
	// above the order.
	fs, fe := c.where(f)
	ls, le := c.where(fl)
	if _, _, r := engine.EmbarkMeeting(c.m, f.ID, fl.ID, engine.Passage{Start: fs, End: fe}, engine.Passage{Start: ls, End: le}); r != nil {
		c.reject(r.Read, r.Text(), r.Hint)
	}
	capacity := c.rules.Cargo.Capacity * fl.Ships.AllTransports()
	used := c.cargoAboard(fl.ID)
	need := c.rules.Cargo.PointsOf(f)
	if used+need > capacity {
		already := ""
		if used > 0 {
			already = fmt.Sprintf(", of which %d %s taken already", used, english.Agree(used, "is", "are"))
		}
		carry := english.Agree(fl.Ships.AllTransports(), "carries", "carry")
		c.reject(string(o.Force), fmt.Sprintf("%s needs %d cargo points (%s), and %s's %s %s %d (%d each)%s",
			o.Force, need, c.cargoBreakdown(f), o.Fleet, english.Count(fl.Ships.AllTransports(), "transport"), carry, capacity, c.rules.Cargo.Capacity, already),
			"Embark fewer troops (SPLIT some off first), or bring more transports. Gunners, generals and admirals take no room.")
	}
	f.Aboard = fl.ID
	c.annotation = fmt.Sprintf("cargo %d of %d", used+need, capacity)
}

func (c *checker) checkSail(o engine.Sail) {
	c.onceFor("sail", string(o.Fleet), string(o.Fleet))
	f := c.fleet(o.Fleet)
	c.legal(o)
	if f.At.IsZero() {
		c.reject(string(o.Fleet), fmt.Sprintf("%s has no position", o.Fleet), "Write to the referee: the fleet has no place on the map.")
	}
	cur, cost := f.At, 0
	mp := c.rules.SeaMovement.FleetMP(f.Ships)
	stop := cur
	for _, pl := range o.Path {
		if !pl.IsSea() {
			if !c.m.InBounds(pl.Hex) {
				c.reject(pl.Hex.String(), fmt.Sprintf("hex %s is not on the map", pl.Hex), "Check the hex number.")
			}
			if !engine.Anchorage(c.m, pl.Hex) {
				c.reject(pl.Hex.String(), fmt.Sprintf("%s is neither a port nor a good-holding hex: ships lie only there, or at sea", c.m.HexLabel(pl.Hex)),
					"Name sea areas by ID, ports by name, and good-holding hexes by number.")
			}
		} else if _, ok := c.m.Sea(pl.Sea); !ok {
			c.reject(string(pl.Sea), fmt.Sprintf("no sea area %s%s", pl.Sea, didYouMean(suggest(string(pl.Sea), c.v.seaNames()))), "Name sea areas as on the map.")
		}
		switch {
		case pl == cur && cur == f.At:
			c.reject(c.label(pl), fmt.Sprintf("%s is where the fleet already is", c.label(pl)), "List each place the fleet enters once.")
		case pl == cur:
			// A sea area written twice in a row, most often by its ID and
			// then its name as the map prints them ("S5 Bay of Aurore").
			c.reject(c.label(pl), fmt.Sprintf("%s comes twice in a row: the step before already took the fleet there", c.label(pl)),
				"List each place the fleet enters once, a sea area by its ID or by its name, not both.")
		}
		step, ok := engine.SeaStepCost(c.m, c.rules, cur, pl)
		if !ok {
			c.badVoyage(cur, pl)
		}
		cost += step
		if cost <= mp {
			stop = pl
		}
		cur = pl
	}
	c.annotation = fmt.Sprintf("%d MP of %d", cost, mp)
	c.planned[f.ID] = stop
	if cost > mp {
		c.warn(c.label(cur), fmt.Sprintf("the voyage costs %d MP, and %s has %d (its slowest ship's): it stops at %s", cost, o.Fleet, mp, c.label(stop)),
			"Sail with the wind (1 MP an area, 3 against), or shorten the voyage.")
	}
	if !c.admiralNear(f) {
		c.warn(string(o.Fleet), fmt.Sprintf("%s has no admiral with it or in its sea area: \"A ship must have an admiral in its sea area … or with the fleet, in order to move\" (Sea Movement)", o.Fleet),
			fmt.Sprintf("ASSIGN an admiral to %s.", o.Fleet))
	}
}

// badVoyage rejects a step of a voyage, saying why it is not possible.
func (c *checker) badVoyage(from, to game.Place) {
	switch {
	case from.IsSea() && to.IsSea():
		c.reject(string(to.Sea), fmt.Sprintf("%s does not border %s: a fleet sails from each sea area into one next to it (%s borders %s)",
			to.Sea, from.Sea, from.Sea, orList(seaStrings(c.m.AdjacentSeas(from.Sea)))), "Add the sea areas in between.")
	case !from.IsSea() && !to.IsSea():
		c.reject(c.label(to), fmt.Sprintf("from %s a fleet first sails out into a sea area (%s)", c.label(from), orList(seaStrings(c.m.SeasTouching(from.Hex)))),
			"Put the sea area between the two.")
	case from.IsSea():
		c.reject(c.label(to), fmt.Sprintf("%s does not open onto %s", c.label(to), from.Sea), "Sail into a sea area it opens onto first: "+orList(seaStrings(c.m.SeasTouching(to.Hex)))+".")
	default:
		c.reject(string(to.Sea), fmt.Sprintf("%s does not open onto %s; it opens onto %s", c.label(from), to.Sea, orList(seaStrings(c.m.SeasTouching(from.Hex)))),
			"Sail out into one of those first.")
	}
}

func seaStrings(s []game.SeaID) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = string(x)
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// admiralNear reports an admiral with the fleet, or in a force of the nation
// in the fleet's sea area or in a port or good-holding hex on it.
func (c *checker) admiralNear(fl *game.Force) bool {
	if fl.HasRole(game.Admiral) {
		return true
	}
	seas := []game.SeaID{fl.At.Sea}
	if !fl.At.IsSea() {
		seas = c.m.SeasTouching(fl.At.Hex)
	}
	for _, f := range c.forces {
		if !f.HasRole(game.Admiral) {
			continue
		}
		if f.At.IsSea() && slices.Contains(seas, f.At.Sea) {
			return true
		}
		if !f.At.IsSea() && engine.Anchorage(c.m, f.At.Hex) {
			for _, s := range c.m.SeasTouching(f.At.Hex) {
				if slices.Contains(seas, s) {
					return true
				}
			}
		}
	}
	return false
}

func (c *checker) checkDebark(o engine.Debark) {
	c.onceFor("debark", string(o.Force), string(o.Force))
	f := c.land(o.Force)
	if f.Aboard == "" {
		c.legal(o)
	}
	fl, ok := c.forces[f.Aboard]
	if !ok {
		c.reject(string(o.Force), fmt.Sprintf("%s is aboard %s, which is not yours", o.Force, f.Aboard), "Ask the fleet's owner to land it, or write to the referee.")
	}
	c.legal(o)
	_, at := c.where(fl)
	switch {
	case o.Hex.IsZero() && at.IsSea():
		c.reject(string(o.Force), fmt.Sprintf("%s will be at sea in %s: say where %s lands", fl.ID, at.Sea, o.Force),
			fmt.Sprintf("Write DEBARK %s AT a good-holding hex or port on %s.", o.Force, at.Sea))
	case o.Hex.IsZero():
		o.Hex = at.Hex
	case at.IsSea() && !slices.Contains(c.m.SeasTouching(o.Hex), at.Sea):
		c.reject(o.Hex.String(), fmt.Sprintf("%s does not lie on %s, where %s will be", c.m.HexLabel(o.Hex), at.Sea, fl.ID),
			"Land on the sea area the fleet sails to.")
	case !at.IsSea() && at.Hex != o.Hex:
		c.reject(o.Hex.String(), fmt.Sprintf("%s will lie at %s, so %s lands there, not at %s", fl.ID, c.m.HexLabel(at.Hex), o.Force, o.Hex),
			fmt.Sprintf("Write DEBARK %s, or sail %s to %s first.", o.Force, fl.ID, o.Hex))
	}
	for _, e := range c.view.Foreign {
		// What the nation sees: a foreign force's place and size class.
		if e.Aboard == "" && e.At.Hex == o.Hex && !e.At.IsSea() && e.Size != "" {
			c.warn(o.Hex.String(), fmt.Sprintf("%s's force %s holds %s: a landing there needs 3:1 over its infantry, cavalry and gunners, each warship in the hex counting as %d infantry (Coastal Landings)",
				c.v.nationName(e.Nation), e.ID, o.Hex, c.rules.SeaMovement.WarshipAsInfantry), "Land in strength, or elsewhere.")
			break
		}
	}
	f.Aboard = ""
	c.annotation = "lands at " + c.m.HexLabel(o.Hex)
}

func (c *checker) checkRepair(o engine.Repair) {
	c.onceFor("repair", string(o.Fleet), string(o.Fleet))
	f := c.fleet(o.Fleet)
	c.legal(o)
	if f.Ships.DamagedWarships+f.Ships.DamagedTransports == 0 {
		c.warn(string(o.Fleet), fmt.Sprintf("%s has no damaged ships", o.Fleet), "Leave the order out.")
		return
	}
	cost := f.Ships.DamagedWarships*c.rules.Costs.RepairWarship + f.Ships.DamagedTransports*c.rules.Costs.RepairTransport
	c.spend(cost, fmt.Sprintf("repairing %s", o.Fleet))
}

func (c *checker) checkGrant(o engine.GrantSupply) engine.GrantSupply {
	d := c.depot(o.Depot)
	o.Depot = d.ID
	c.otherNation(o.Nation, true)
	c.legal(o)
	has := slices.Contains(d.GrantedTo, o.Nation)
	switch {
	case o.Withdraw && !has:
		c.warn(string(o.Nation), fmt.Sprintf("%s does not supply %s now", d.ID, o.Nation), "Leave the order out.")
	case !o.Withdraw && has:
		c.warn(string(o.Nation), fmt.Sprintf("%s supplies %s already", d.ID, o.Nation), "Leave the order out.")
	}
	c.organise(o)
	return o
}
