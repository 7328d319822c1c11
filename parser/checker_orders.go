package parser

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// checkOrder checks one engine order of the right phase and returns it,
// perhaps with names resolved to their exact IDs.
func (c *checker) checkOrder(o engine.Order) engine.Order {
	if k, ok := checkedKind(o.Kind()); ok {
		return k.check(c, o)
	}
	c.reject(o.Kind(), fmt.Sprintf("%s is not an order pbem knows", o.Kind()), "")
	return o
}

// checkStanding checks a standing order of a land force (STANCE, RETREAT,
// PURSUE, ON CONTACT, SLOW ENEMY).
func (c *checker) checkStanding(o engine.Order, word string) {
	f, _ := engine.KindSubject(o)
	c.onceFor(word, string(f), string(f))
	c.own(f)
	c.legal(o)
	c.organise(o)
}

func (c *checker) checkSlow(o engine.SlowEnemy) {
	c.checkStanding(o, "slow enemy")
	if f := c.forces[o.Force]; o.On && f.CountArms(game.Arm.IsCavalry) == 0 {
		c.warn(string(o.Force), fmt.Sprintf("%s has no cavalry to send after the enemy", o.Force),
			"Slowing the enemy needs cavalry: 2:1 over the enemy's cavalry and 1 per 3 enemy infantry and guns.")
	}
}

func (c *checker) checkFleetStance(o engine.FleetStance) {
	c.onceFor("fleet", string(o.Fleet), string(o.Fleet))
	c.own(o.Fleet)
	c.legal(o)
	c.organise(o)
}

func (c *checker) checkSpecial(o engine.Special) {
	c.legal(o)
	c.organise(o)
	c.note("the referee rules on special actions when the turn is resolved (\"Likelihood of success will depend on how well the request fits in with the period\")")
}

// ---- land movement ----

// checkMove checks a march and returns it, a path that begins with the
// force's own hex read without that hex.
func (c *checker) checkMove(o engine.Move) engine.Move {
	c.onceFor("move", string(o.Force), string(o.Force))
	f := c.own(o.Force)
	c.legal(o)
	class := ruleset.ClassOf(f)
	mp := c.rules.Movement.Rows[class].MP
	from := f.At.Hex
	path := o.Path
	// Many players write a path from where the force stands: the first hex
	// is then not entered, and is dropped.
	startListed := len(path) > 1 && path[0] == from
	if startListed {
		path = slices.Clone(path[1:])
		o.Path = path
	}
	if len(path) == 0 {
		dest := o.Dest
		switch {
		case !c.m.InBounds(dest):
			c.reject(dest.String(), fmt.Sprintf("hex %s is not on the map (%d columns, %d rows)", dest, c.m.Cols, c.m.Rows), "Check the hex number: column then row.")
		case !c.m.IsLand(dest):
			c.reject(dest.String(), fmt.Sprintf("%s is sea: land forces cross the sea only aboard transports", dest), "EMBARK on a fleet, SAIL, and DEBARK.")
		case c.m.TerrainAt(dest) == game.Mountain:
			c.reject(dest.String(), fmt.Sprintf("%s is mountain: no force may enter a mountain hex (Movement Table: Mountain \"No\")", dest), "Choose a hex next to the mountains.")
		case dest == from:
			c.warn(dest.String(), fmt.Sprintf("%s is already at %s", o.Force, c.m.HexLabel(dest)), "Leave the order out.")
			c.planned[f.ID] = game.AtHex(dest)
			return o
		}
		route, cost, ok := engine.Route(c.m, c.rules, f, from, dest)
		if !ok {
			c.reject(dest.String(), fmt.Sprintf("no route from %s to %s that %s can march: it moves at the %s rate, and %s",
				c.m.HexLabel(from), c.m.HexLabel(dest), o.Force, class, blockers(class)),
				"Choose another destination, or give the path hex by hex.")
		}
		c.annotation = fmt.Sprintf("route %s, %d MP", hexList(route), cost)
		stop := c.stopAt(class, from, route, mp)
		if cost > mp {
			c.warn(dest.String(), fmt.Sprintf("the route to %s costs %d MP, and %s moves at the %s rate of %d MP a turn: this turn it gets to %s",
				c.m.HexLabel(dest), cost, o.Force, class, mp, c.m.HexLabel(stop)),
				"The march goes on next turn only if you order it again.")
		}
		c.planned[f.ID] = game.AtHex(stop)
		return o
	}
	cur, cost := from, 0
	for _, h := range path {
		if !c.m.InBounds(h) {
			c.reject(h.String(), fmt.Sprintf("hex %s is not on the map (%d columns, %d rows)", h, c.m.Cols, c.m.Rows), "Check the hex number: column then row.")
		}
		if h == cur {
			c.reject(h.String(), fmt.Sprintf("%s is listed where the force already is", h), "List each hex entered once, starting with the one next to the force.")
		}
		if !hexNear(cur, h) {
			c.reject(h.String(), fmt.Sprintf("%s is not next to %s: the path lists every hex entered, each next to the one before", h, c.m.HexLabel(cur)),
				fmt.Sprintf("Add the hexes in between, or write MOVE %s TO %s for the cheapest route.", o.Force, path[len(path)-1]))
		}
		step, ok := engine.StepCost(c.m, c.rules, class, cur, h, false)
		if !ok {
			c.illegalStep(f, class, cur, h)
		}
		cost += step
		cur = h
	}
	c.annotation = fmt.Sprintf("%d MP of %d, %s", cost, mp, class)
	stop := c.stopAt(class, from, path, mp)
	if cost > mp {
		c.warn(path[len(path)-1].String(), fmt.Sprintf("the march costs %d MP, and %s moves at the %s rate of %d MP: it stops at %s",
			cost, o.Force, class, mp, c.m.HexLabel(stop)),
			"Shorten the path, or leave the rest for next turn.")
	}
	if startListed {
		c.note(fmt.Sprintf("the path begins with %s, where %s stands: the march starts there and enters %s first", from, o.Force, path[0]))
	}
	c.planned[f.ID] = game.AtHex(stop)
	return o
}

func hexNear(a, b game.Hex) bool { return hexmap.Adjacent(a, b) }

// blockers says what stops a class of mover.
func blockers(c ruleset.MoveClass) string {
	if c == ruleset.Artillery {
		return "mountains, the sea and rivers without a road stop it"
	}
	return "mountains and the sea stop it"
}

// stopAt returns the last hex of path a mover of class reaches within mp.
func (c *checker) stopAt(class ruleset.MoveClass, from game.Hex, path []game.Hex, mp int) game.Hex {
	cur, cost, stop := from, 0, from
	for _, h := range path {
		step, _ := engine.StepCost(c.m, c.rules, class, cur, h, false)
		cost += step
		if cost > mp {
			break
		}
		stop, cur = h, h
	}
	return stop
}

// illegalStep rejects a step the Movement Table forbids, saying which rule.
func (c *checker) illegalStep(f *game.Force, class ruleset.MoveClass, from, to game.Hex) {
	t := c.m.TerrainAt(to)
	switch {
	case !t.IsLand():
		c.reject(to.String(), fmt.Sprintf("%s is sea: land forces cross the sea only aboard transports", to), "EMBARK on a fleet, SAIL, and DEBARK.")
	case t == game.Mountain:
		c.reject(to.String(), fmt.Sprintf("%s is mountain: no force may enter a mountain hex (Movement Table: Mountain \"No\")", to),
			"Go round the mountains.")
	case c.m.River(from, to) && class == ruleset.Artillery:
		c.reject(to.String(), fmt.Sprintf("%s has guns, which cannot cross the river between %s and %s (Movement Table: Cross River \"No\" for artillery)", f.ID, from, to),
			"Cross where a road bridges the river, or SPLIT the guns off and leave them behind.")
	}
	c.reject(to.String(), fmt.Sprintf("%s cannot enter %s from %s", f.ID, to, from), "Choose another path.")
}

// ---- organisation ----
//
// Each organisation order is checked here for what the player wrote (the
// force is there and holds what the order names, the new ID is free), and
// then carried out on the checker's forces by the engine's own rule
// (organise.go): what the later lines are checked against is what the
// engine will make of the forces.

func (c *checker) checkSplit(o engine.Split) engine.Split {
	defer func() {
		if r := recover(); r != nil {
			c.splitFailed(o)
			panic(r)
		}
	}()
	f := c.own(o.Force)
	c.legal(o)
	// What the force lacks, said with what it holds; the leaders named
	// by their IDs as the force has them.
	ct := Contents{Troops: o.Troops, Guns: o.Guns, Ships: o.Ships, Leaders: o.Leaders}
	probe := f.Clone()
	c.takeContents(&probe, ct, "split off")
	o.Leaders = ct.Leaders
	if o.NewID != "" {
		c.newID(o.NewID)
	}
	done := c.organise(o)
	if slices.Contains(done.Gone, o.Force) && !slices.ContainsFunc(done.Disbanded, func(d engine.ForceDisbanded) bool { return d.Force == o.Force }) {
		c.warn(string(o.Force), fmt.Sprintf("the split takes everything in %s, which ceases to exist", o.Force), "Leave the force whole instead.")
	}
	return o
}

func (c *checker) checkMerge(o engine.Merge) {
	c.own(o.Force)
	c.own(o.Into)
	c.legal(o)
	c.organise(o)
}

func (c *checker) checkAssign(o engine.AssignLeader) engine.AssignLeader {
	_, l := c.leaderOf(o.Leader)
	dst := c.own(o.To)
	o.Leader = l.ID
	c.legal(o)
	if l.Role == game.Admiral && !dst.IsFleet() && dst.Figures() > 0 {
		c.warn(l.ID, fmt.Sprintf("%s is an admiral, and %s a land force", l.ID, dst.ID), "Admirals command fleets; generals land forces.")
	}
	c.organise(o)
	return o
}

func (c *checker) checkDetach(o engine.DetachLeader) engine.DetachLeader {
	_, l := c.leaderOf(o.Leader)
	o.Leader = l.ID
	c.legal(o)
	if o.NewID != "" {
		c.newID(o.NewID)
	}
	c.organise(o)
	return o
}

func (c *checker) checkGarrison(o engine.Garrison) {
	f := c.land(o.Force)
	c.city(o.City)
	c.legal(o)
	c.organise(o)
	if n := f.FightingFigures(); n < c.rules.Capture.Garrison {
		c.warn(string(o.Force), fmt.Sprintf("%s has %s; a captured city needs %d as a garrison", f.ID, english.Count(n, "infantry and cavalry figure"), c.rules.Capture.Garrison),
			"Add figures to the garrison.")
	}
}

// ---- sieges ----

func (c *checker) checkFieldworks(o engine.Fieldworks) {
	c.onceFor("fieldworks", string(o.Force), string(o.Force))
	f := c.land(o.Force)
	c.legal(o)
	if start, end := c.where(f); start != end {
		c.warn(string(o.Force), fmt.Sprintf("%s also moves this turn; fieldworks need infantry that has been in the hex for 1/6 of a move", o.Force),
			"Build them where the force stands still.")
	}
	c.spend(c.rules.Costs.Fieldworks(o.Inches), fmt.Sprintf("%d\" of fieldworks", o.Inches))
}

func (c *checker) checkBesiege(o engine.Besiege) {
	verb := "besieges"
	if o.MaskOnly {
		verb = "masks"
	}
	f := c.land(o.Force)
	mc, _ := c.city(o.City)
	c.atCity(f, mc, verb)
	c.legal(o)
	if mc.Port && !c.warshipOff(mc) {
		c.warn(mc.Name, fmt.Sprintf("%s is a port: to besiege or mask a port you must also have a warship in its sea area (Sieges)", mc.Name),
			"Sail a warship into the sea area this turn.")
	}
}
