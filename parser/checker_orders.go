package parser

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// checkOrder checks one engine order of the right phase and returns it,
// perhaps with names resolved to their exact IDs.
func (c *checker) checkOrder(o engine.Order) engine.Order {
	switch o := o.(type) {
	case engine.Move:
		return c.checkMove(o)
	case engine.SetStance:
		c.onceFor("stance", string(o.Force), string(o.Force))
		c.land(o.Force)
	case engine.Retreat:
		c.onceFor("retreat", string(o.Force), string(o.Force))
		c.land(o.Force)
	case engine.Pursue:
		c.onceFor("pursue", string(o.Force), string(o.Force))
		c.land(o.Force)
	case engine.OnContact:
		c.onceFor("on contact", string(o.Force), string(o.Force))
		c.land(o.Force)
	case engine.SlowEnemy:
		c.onceFor("slow enemy", string(o.Force), string(o.Force))
		f := c.land(o.Force)
		if o.On && f.CountArms(game.Arm.IsCavalry) == 0 {
			c.warn(string(o.Force), fmt.Sprintf("%s has no cavalry to send after the enemy", o.Force),
				"Slowing the enemy needs cavalry: 2:1 over the enemy's cavalry and 1 per 3 enemy infantry and guns.")
		}
	case engine.Split:
		return c.checkSplit(o)
	case engine.Merge:
		c.checkMerge(o)
	case engine.AssignLeader:
		return c.checkAssign(o)
	case engine.DetachLeader:
		return c.checkDetach(o)
	case engine.Garrison:
		c.checkGarrison(o)
	case engine.Fieldworks:
		c.checkFieldworks(o)
	case engine.Besiege:
		c.checkBesiege(o)
	case engine.Assault:
		c.checkAssault(o)
	case engine.Bombard:
		c.checkBombard(o)
	case engine.Embark:
		c.checkEmbark(o)
	case engine.Sail:
		c.checkSail(o)
	case engine.Debark:
		c.checkDebark(o)
	case engine.FleetStance:
		c.onceFor("fleet", string(o.Fleet), string(o.Fleet))
		c.fleet(o.Fleet)
	case engine.Repair:
		c.checkRepair(o)
	case engine.GrantSupply:
		return c.checkGrant(o)
	case engine.Special:
		c.note("the referee rules on special actions when the turn is resolved (\"Likelihood of success will depend on how well the request fits in with the period\")")
	case engine.Buy:
		c.checkBuy(o)
	case engine.Field:
		return c.checkField(o)
	case engine.Disband:
		c.checkDisband(o)
	case engine.Transfer:
		return c.checkTransfer(o)
	case engine.MoveTreasury:
		c.checkTreasury(o)
	case engine.TemporaryCapitol:
		c.checkTemporaryCapitol(o)
	}
	return o
}

// ---- land movement ----

// checkMove checks a march and returns it, a path that begins with the
// force's own hex read without that hex.
func (c *checker) checkMove(o engine.Move) engine.Move {
	c.onceFor("move", string(o.Force), string(o.Force))
	f := c.land(o.Force)
	if f.Aboard != "" {
		c.reject(string(o.Force), fmt.Sprintf("%s is aboard %s: it comes ashore with DEBARK, not MOVE", o.Force, f.Aboard),
			fmt.Sprintf("Write DEBARK %s (AT a hex, from a sea area).", o.Force))
	}
	if f.At.IsSea() || f.At.Hex.IsZero() {
		c.reject(string(o.Force), fmt.Sprintf("%s is not on land", o.Force), "Write to the referee: the force has no place on the map.")
	}
	if !f.HasRole(game.General) {
		why := ""
		if l, ok := c.leaderLeft[f.ID]; ok {
			why = fmt.Sprintf(" once the order on line %d takes its general away", l)
		}
		c.reject(string(o.Force), fmt.Sprintf("%s has no general%s: \"A land force must have a general with it in order to move\" (Land Movement)", o.Force, why),
			fmt.Sprintf("ASSIGN a general to %s, or MERGE it into a force that has one.", o.Force))
	}
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

func (c *checker) checkSplit(o engine.Split) engine.Split {
	f := c.own(o.Force)
	ct := Contents{Troops: o.Troops, Guns: o.Guns, Ships: o.Ships, Leaders: o.Leaders}
	before := f.Clone()
	c.takeContents(f, ct, "split off")
	id, err := c.tryNewID(o.NewID)
	if err != nil {
		*f = before
		panic(err)
	}
	nf := &game.Force{ID: id, Nation: c.nation, At: f.At, Aboard: f.Aboard, Stance: f.Stance, Standing: f.Standing}
	for _, t := range ct.Troops {
		nf.Troops = append(nf.Troops, t)
	}
	nf.Guns = append(nf.Guns, ct.Guns...)
	nf.Ships = ct.Ships
	for _, l := range ct.Leaders {
		for _, x := range before.Leaders {
			if x.ID == l {
				nf.Leaders = append(nf.Leaders, x)
			}
		}
	}
	nf.Normalize()
	c.forces[id] = nf
	o.Leaders = ct.Leaders
	if o.NewID == "" {
		c.annotation = "new force " + string(id)
		c.note(fmt.Sprintf("the new force will be %s", id))
	}
	if f.IsEmpty() {
		delete(c.forces, f.ID)
		c.gone[f.ID] = c.st.Line
		c.warn(string(o.Force), fmt.Sprintf("the split takes everything in %s, which ceases to exist", o.Force), "Leave the force whole instead.")
	}
	c.noteLeaderLeft(f, &before)
	c.checkMinimum(nf)
	return o
}

// noteLeaderLeft records that an order took a force's last general.
func (c *checker) noteLeaderLeft(f, before *game.Force) {
	if before.HasRole(game.General) && !f.HasRole(game.General) {
		c.leaderLeft[f.ID] = c.st.Line
	}
}

// tryNewID is newID with the rejection returned instead of raised, so the
// caller can undo its changes first.
func (c *checker) tryNewID(want game.ForceID) (id game.ForceID, err any) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(failure); !ok {
				panic(r)
			}
			err = r
		}
	}()
	return c.newID(want), nil
}

// checkMinimum warns of a new force too small to survive (Minimum Force
// Sizes).
func (c *checker) checkMinimum(f *game.Force) {
	if f.IsFleet() || f.HasRole(game.General) || f.Figures() == 0 {
		return
	}
	mc, inCity := c.m.CityAt(f.At.Hex)
	if f.At.IsSea() {
		inCity = false
	}
	limit := c.rules.MinimumForce.OutsideCityDeserts
	where := "outside a city"
	if inCity {
		if cs := c.cityState(mc.Name); cs.Loyalty != c.nation {
			limit, where = c.rules.MinimumForce.ForeignCityMilitia, "in a foreign city"
		} else {
			limit, where = c.rules.MinimumForce.FriendlyTownDeserts, "in a friendly town without a general"
		}
	}
	if f.Figures() <= limit {
		c.warn(string(f.ID), fmt.Sprintf("%s has %d figures and no general: a force of %d or fewer %s is lost at once (Minimum Force Sizes)",
			f.ID, f.Figures(), limit, where), "Split off more figures, or a general with them.")
	}
}

func (c *checker) checkMerge(o engine.Merge) {
	f := c.own(o.Force)
	into := c.own(o.Into)
	if f.ID == into.ID {
		c.reject(string(o.Into), "a force cannot merge into itself", "Name two different forces.")
	}
	if f.IsFleet() != into.IsFleet() && !f.IsEmpty() && !into.IsEmpty() && (f.Figures() > 0 || into.Figures() > 0) {
		c.reject(string(o.Into), fmt.Sprintf("%s and %s are a fleet and a land force, which do not merge", f.ID, into.ID),
			"Put a land force aboard a fleet with EMBARK.")
	}
	if f.At != into.At || f.Aboard != into.Aboard {
		c.reject(string(o.Into), fmt.Sprintf("%s is at %s and %s at %s: forces merge only in the same place, at the start of the turn",
			f.ID, c.label(f.At), into.ID, c.label(into.At)),
			"Bring them together first; merge them next turn.")
	}
	into.Troops = append(into.Troops, f.Troops...)
	into.Guns = append(into.Guns, f.Guns...)
	into.Leaders = append(into.Leaders, f.Leaders...)
	into.Ships.Warships += f.Ships.Warships
	into.Ships.DamagedWarships += f.Ships.DamagedWarships
	into.Ships.Transports += f.Ships.Transports
	into.Ships.DamagedTransports += f.Ships.DamagedTransports
	into.Normalize()
	for _, x := range c.forces {
		if x.Aboard == f.ID {
			x.Aboard = into.ID
		}
	}
	delete(c.forces, f.ID)
	c.gone[f.ID] = c.st.Line
}

func (c *checker) checkAssign(o engine.AssignLeader) engine.AssignLeader {
	src, l := c.leaderOf(o.Leader)
	dst := c.own(o.To)
	o.Leader = l.ID
	if src.ID == dst.ID {
		c.reject(l.ID, fmt.Sprintf("%s is already with %s", l.ID, dst.ID), "Leave the order out.")
	}
	if src.At != dst.At || src.Aboard != dst.Aboard {
		c.reject(string(o.To), fmt.Sprintf("%s is with %s at %s, and %s is at %s: a leader joins a force in the same place, at the start of the turn",
			l.ID, src.ID, c.label(src.At), dst.ID, c.label(dst.At)), "Move them together first.")
	}
	if l.Role == game.Admiral && !dst.IsFleet() && dst.Figures() > 0 {
		c.warn(l.ID, fmt.Sprintf("%s is an admiral, and %s a land force", l.ID, dst.ID), "Admirals command fleets; generals land forces.")
	}
	before := src.Clone()
	src.Leaders = slices.DeleteFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l.ID })
	c.noteLeaderLeft(src, &before)
	dst.Leaders = append(dst.Leaders, l)
	dst.Normalize()
	if src.IsEmpty() {
		delete(c.forces, src.ID)
		c.gone[src.ID] = c.st.Line
	}
	return o
}

func (c *checker) checkDetach(o engine.DetachLeader) engine.DetachLeader {
	src, l := c.leaderOf(o.Leader)
	o.Leader = l.ID
	if len(src.Leaders) == 1 && src.Figures() == 0 && src.GunCount() == 0 && src.Ships.Total() == 0 {
		c.reject(l.ID, fmt.Sprintf("%s is already alone in %s", l.ID, src.ID), "Leave the order out.")
	}
	id := c.newID(o.NewID)
	before := src.Clone()
	src.Leaders = slices.DeleteFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l.ID })
	c.noteLeaderLeft(src, &before)
	c.forces[id] = &game.Force{ID: id, Nation: c.nation, At: src.At, Aboard: src.Aboard, Leaders: []game.Leader{l}}
	if o.NewID == "" {
		c.annotation = "new force " + string(id)
		c.note(fmt.Sprintf("%s forms the new force %s", l.ID, id))
	}
	return o
}

func (c *checker) checkGarrison(o engine.Garrison) {
	f := c.land(o.Force)
	mc, _ := c.city(o.City)
	if f.At.Hex != mc.Hex || f.Aboard != "" || f.At.IsSea() {
		c.reject(mc.Name, fmt.Sprintf("%s is at %s, not in %s (%s): a garrison is set at the start of the turn, before movement",
			f.ID, c.label(f.At), mc.Name, mc.Hex), "Garrison the city on the turn after the force arrives.")
	}
	if n := f.FightingFigures(); n < c.rules.Capture.Garrison {
		c.warn(string(o.Force), fmt.Sprintf("%s has %d infantry and cavalry figures; a captured city needs %d as a garrison", f.ID, n, c.rules.Capture.Garrison),
			"Add figures to the garrison.")
	}
}

// ---- sieges ----

func (c *checker) checkFieldworks(o engine.Fieldworks) {
	c.onceFor("fieldworks", string(o.Force), string(o.Force))
	f := c.land(o.Force)
	inf := f.CountArms(game.Arm.IsInfantry)
	if inf == 0 {
		c.reject(string(o.Force), fmt.Sprintf("%s has no infantry, and only infantry builds fieldworks", o.Force), "Leave the order out.")
	}
	limit, rule := c.rules.Fieldworks.Limit(inf), c.rules.Fieldworks.Rule
	if o.Inches > limit {
		c.reject(itoa(o.Inches), fmt.Sprintf("%s has %d infantry figures, enough for %d\" of fieldworks: %s", o.Force, inf, limit, rule),
			fmt.Sprintf("Build at most %d inches.", limit))
	}
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
	mc, cs := c.city(o.City)
	c.atCity(f, mc, verb)
	if cs.Controller == c.nation {
		c.reject(mc.Name, fmt.Sprintf("%s is yours", mc.Name), "Besiege a city another nation holds, or a neutral one.")
	}
	if mc.Port && !c.warshipOff(mc) {
		c.warn(mc.Name, fmt.Sprintf("%s is a port: to besiege or mask a port you must also have a warship in its sea area (Sieges)", mc.Name),
			"Sail a warship into the sea area this turn.")
	}
}
