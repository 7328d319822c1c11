package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
)

// Contact (rules "Land Battles": Attack and Defend, Slowing the Enemy, Force
// Sizes and Overrun Attacks, Exception - Grenzers, Retreat before Battle).
//
// When hostile land forces stand in one hex, each pair of hostile nations
// there is resolved in this order:
//
//  1. Grenzers (forces of irregular light infantry alone) passing through,
//     or on defend orders, filter past an enemy whose scouting points do not
//     equal theirs, paying the hex's off-road cost.
//  2. Overrun: if one side has 6:1 or more in point value (generals
//     excluded) and a battle would occur or that side is marching on, the
//     smaller side is wiped out after inflicting the assault table's damage.
//     At 7:1 it costs the overrunning movers nothing; at 6:1 an extra 1/6 of
//     their move, rounded up to whole MP. A side holding the hex's city is
//     never overrun: its walls are "all the stuff that keeps you from just
//     overrunning the place".
//  3. If one side holds the hex's city, stands wholly within its walls
//     (its infantry and cavalry no more than the city's blocks hold) and
//     will not come out (none of its forces on attack orders), the attack
//     is no field battle ("The attacker may not launch an assault on a city
//     during a field battle"): the attackers halt before the walls and the
//     sieges step masks the city, or besieges it if they meet the siege
//     limits ("If the attackers do not meet the siege limits but the
//     defenders will not come out and fight, the city is "masked"").
//  4. If either side attacks, each force whose standing order says so
//     retreats one hex before battle.
//  5. If either side still attacks, a battle is pending: every force of both
//     sides stops in the hex (EngagementPending in the battles step); forces
//     arriving later join it. Otherwise it is a standoff: no battle, and
//     neither side moves on past the other this turn.

// engagement is a battle found in movement between two blocs of allied
// nations (a and b, each sorted; a holds the first nation in name order).
type engagement struct {
	hex     game.Hex
	a, b    []game.NationID
	tick    int
	members []engMember
}

type engMember struct {
	id     game.ForceID
	joined int
	from   game.Hex
}

type seaEngagement struct {
	place   game.Place
	a, b    game.NationID
	tick    int
	members []game.ForceID
}

func (t *turn) engagementAt(h game.Hex, a, b []game.NationID) *engagement {
	for _, e := range t.engs {
		if e.hex == h && slices.Equal(e.a, a) && slices.Equal(e.b, b) {
			return e
		}
	}
	return nil
}

// landContact resolves contact in hex h. The nations there form blocs:
// nations that are not hostile to each other (allies) stand together as one
// side ("allied nations in one hex fight as one side"); each pair of
// hostile blocs is then a contact of its own.
func (mv *movement) landContact(h game.Hex) {
	var nations []game.NationID
	for _, u := range mv.land.at(h) {
		if !u.dead && !slices.Contains(nations, u.nation) {
			nations = append(nations, u.nation)
		}
	}
	slices.Sort(nations)
	blocs := mv.t.blocs(nations)
	for i := range blocs {
		for j := i + 1; j < len(blocs); j++ {
			if mv.t.blocsHostile(blocs[i], blocs[j]) {
				mv.contactPair(h, blocs[i], blocs[j])
			}
		}
	}
}

// blocs groups sorted nations into blocs of allies: a nation joins the first
// bloc all of whose members it is not hostile to. Each bloc stays sorted;
// blocs are in the order of their first nation.
func (t *turn) blocs(nations []game.NationID) [][]game.NationID {
	var out [][]game.NationID
	for _, n := range nations {
		placed := false
		for k, b := range out {
			if !slices.ContainsFunc(b, func(x game.NationID) bool { return t.hostile(n, x) }) {
				out[k] = append(out[k], n)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []game.NationID{n})
		}
	}
	return out
}

// blocsHostile: two blocs are enemies when any of their nations are.
func (t *turn) blocsHostile(a, b []game.NationID) bool {
	for _, x := range a {
		for _, y := range b {
			if t.hostile(x, y) {
				return true
			}
		}
	}
	return false
}

func (mv *movement) side(h game.Hex, bloc []game.NationID) []*unit {
	var out []*unit
	for _, u := range mv.land.at(h) {
		if !u.dead && slices.Contains(bloc, u.nation) && u.filteredIn != h {
			out = append(out, u)
		}
	}
	return out
}

func anyAttack(us []*unit) bool {
	return slices.ContainsFunc(us, func(u *unit) bool { return u.f.Stance == game.Attack })
}

func (mv *movement) sidePV(us []*unit) int {
	n := 0
	for _, u := range us {
		n += mv.t.pv(u.f)
	}
	return n
}

func (mv *movement) contactPair(h game.Hex, a, b []game.NationID) {
	all2 := append(slices.Clone(a), b...)
	t := mv.t
	sa, sb := mv.side(h, a), mv.side(h, b)
	if len(sa) == 0 || len(sb) == 0 {
		return
	}
	sa = mv.filterSide(h, sa, sb)
	sb = mv.filterSide(h, sb, sa)
	if len(sa) == 0 || len(sb) == 0 {
		return
	}
	all := append(slices.Clone(sa), sb...)
	if e := t.engagementAt(h, a, b); e != nil {
		var joined []game.ForceID
		for _, u := range all {
			if !slices.ContainsFunc(e.members, func(m engMember) bool { return m.id == u.id }) {
				e.members = append(e.members, engMember{id: u.id, joined: mv.tick, from: u.from})
				joined = append(joined, u.id)
			}
			mv.halt(u, stopBattle)
			t.fi(u.id).engaged = true
		}
		if len(joined) > 0 {
			t.emit(&Contact{Forces: joined, Tick: mv.tick, Outcome: "battle"}, t.cite("Land Battles", "Attack and Defend"), game.AtHex(h), to(all2...), all2...)
		}
		return
	}
	// Forces that come together scout each other, whatever follows.
	mv.scoutSides(sa, sb)
	mv.scoutSides(sb, sa)
	battle := anyAttack(sa) || anyAttack(sb)
	pa, pb := mv.sidePV(sa), mv.sidePV(sb)
	big, small, bigPV, smallPV := sa, sb, pa, pb
	if pb > pa {
		big, small, bigPV, smallPV = sb, sa, pb, pa
	}
	marching := slices.ContainsFunc(big, func(u *unit) bool { return u.moving })
	if bigPV > 0 && (battle || marching) && bigPV >= smallPV*t.r.Overrun.OneSixthOdds && !mv.behindWalls(h, small) {
		mv.overrun(h, big, small, bigPV, smallPV)
		return
	}
	if battle {
		if city, att := mv.walledIn(h, [2][]game.NationID{a, b}, [2][]*unit{sa, sb}); city != "" {
			mv.walls(h, city, att, all, all2)
			return
		}
	}
	if battle {
		for _, u := range sa {
			if !u.dead && !t.fi(u.id).engaged && mv.wantsRetreat(u, pb) {
				mv.retreat(u, sb, true)
			}
		}
		for _, u := range sb {
			if !u.dead && !t.fi(u.id).engaged && mv.wantsRetreat(u, pa) {
				mv.retreat(u, sa, true)
			}
		}
		sa, sb = mv.side(h, a), mv.side(h, b)
		all = append(slices.Clone(sa), sb...)
		if len(sa) == 0 || len(sb) == 0 {
			return
		}
		battle = anyAttack(sa) || anyAttack(sb)
	}
	if battle {
		e := &engagement{hex: h, a: a, b: b, tick: mv.tick}
		for _, u := range all {
			e.members = append(e.members, engMember{id: u.id, joined: mv.tick, from: u.from})
			mv.halt(u, stopBattle)
			t.fi(u.id).engaged = true
		}
		t.engs = append(t.engs, e)
		t.emit(&Contact{Forces: idsOf(all), Tick: mv.tick, Outcome: "battle"}, t.cite("Land Battles", "Attack and Defend"), game.AtHex(h), to(all2...), all2...)
		return
	}
	if mv.starting {
		// A standoff holds for the turn the forces met ("one force may not
		// move past the other"): at the start of the next either may march
		// off, or both stay; held again, neither could ever leave unless
		// one attacked (docs/rules-notes.md).
		return
	}
	fresh := false
	for _, u := range all {
		k := [2]game.ForceID{u.id, game.ForceID(h.String())}
		if !mv.standoff[k] {
			mv.standoff[k] = true
			fresh = true
		}
		mv.halt(u, stopStandoff)
	}
	if fresh {
		t.emit(&Contact{Forces: idsOf(all), Tick: mv.tick, Outcome: "standoff"}, t.cite("Land Battles", "Attack and Defend"), game.AtHex(h), to(all2...), all2...)
	}
}

// behindWalls reports whether the side holds the city in hex h (the city's
// controller is one of its nations): its walls keep it from being overrun
// (OverrunRules.WallsStopOverrun; "all the stuff that keeps you from just
// overrunning the place"). A besieger marching off, or an army marching
// through, leaves it where it is; an attack on it is a battle.
func (mv *movement) behindWalls(h game.Hex, side []*unit) bool {
	t := mv.t
	if !t.r.Overrun.WallsStopOverrun {
		return false
	}
	c, ok := t.m.CityAt(h)
	if !ok {
		return false
	}
	ctl := t.cityState(c.Name).Controller
	return ctl != game.Neutral && slices.ContainsFunc(side, func(u *unit) bool { return u.nation == ctl })
}

// stopWalls is why an attacker halts before a city whose garrison stays
// within its walls.
const stopWalls = "the garrison stays behind its walls: no field battle, the city is masked or besieged"

// walledIn reports whether one of the two sides stands wholly within the
// walls of the city in hex h and will not come out, while the other attacks
// (LandBattleRules.NoBattleBehindWalls): the side holds the city (its
// controller is of the side's bloc), none of its forces is on attack
// orders, and its infantry and cavalry are no more than the city's blocks
// hold (CityOnTable.Holds). It returns the city and the attacking bloc ("":
// the sides fight a field battle, if any).
func (mv *movement) walledIn(h game.Hex, blocs [2][]game.NationID, sides [2][]*unit) (string, []game.NationID) {
	t := mv.t
	lb := t.r.LandBattles
	if !lb.NoBattleBehindWalls {
		return "", nil
	}
	c, ok := t.m.CityAt(h)
	if !ok {
		return "", nil
	}
	ctl := t.cityState(c.Name).Controller
	for i, bloc := range blocs {
		if ctl == game.Neutral || !slices.Contains(bloc, ctl) || anyAttack(sides[i]) || !anyAttack(sides[1-i]) {
			continue
		}
		figs := 0
		for _, u := range sides[i] {
			figs += u.f.FightingFigures()
		}
		if figs <= lb.City.Holds(t.r.Taxes.Of(c.Port, c.River)) {
			return c.Name, blocs[1-i]
		}
	}
	return "", nil
}

// walls: the garrison of city stays behind its walls and the attackers
// (of the bloc att) halt before them ("one force may not move past the
// other if on defend orders"); the sieges step masks or besieges the city
// with them. As with a standoff, forces already together at the start of
// the turn are not held, and each force hears of it once.
func (mv *movement) walls(h game.Hex, city string, att []game.NationID, all []*unit, nations []game.NationID) {
	t := mv.t
	if t.walled == nil {
		t.walled = map[game.Hex][]game.NationID{}
	}
	for _, n := range att {
		if !slices.Contains(t.walled[h], n) {
			t.walled[h] = append(t.walled[h], n)
		}
	}
	slices.Sort(t.walled[h])
	if mv.starting {
		return
	}
	fresh := false
	for _, u := range all {
		k := [2]game.ForceID{u.id, game.ForceID("walls " + h.String())}
		if !mv.standoff[k] {
			mv.standoff[k] = true
			fresh = true
		}
		mv.halt(u, stopWalls)
	}
	if fresh {
		t.emit(&Contact{Forces: idsOf(all), Tick: mv.tick, Outcome: "walls", City: city},
			t.cite("Land Battles", "Representing Cities During Battles"), game.AtHex(h), to(nations...), nations...)
	}
}

// filterSide lets a side's Grenzers filter past the enemy and returns the
// rest of the side.
func (mv *movement) filterSide(h game.Hex, side, enemy []*unit) []*unit {
	sp := mv.t.r.ScoutingPoints
	esp := 0
	for _, e := range enemy {
		esp += sp.Of(e.f)
	}
	out := side[:0:0]
	for _, g := range side {
		if grenzersOnly(g.f) && esp < sp.Of(g.f) && (g.moving || g.f.Stance == game.Defend) {
			mv.filter(g, enemy, h, true)
			continue
		}
		out = append(out, g)
	}
	return out
}

// filter lets Grenzers g infiltrate hex h past enemies: no contact there,
// and no road rate into it ("they may not use road rate in any hex where they
// infiltrate").
func (mv *movement) filter(g *unit, enemies []*unit, h game.Hex, arrived bool) {
	t := mv.t
	sp := t.r.ScoutingPoints
	esp := 0
	for _, e := range enemies {
		esp += sp.Of(e.f)
	}
	extra := 0
	switch {
	case arrived && g.at.Hex == h && g.lastTick == mv.tick && !g.from.IsZero() && t.m.Road(g.from, h):
		road, _ := StepCost(t.m, t.r, g.class, g.from, h, false)
		off, ok := StepCost(t.m, t.r, g.class, g.from, h, true)
		if ok {
			extra = off - road
			g.spent += extra
		}
	case !arrived && g.moving && g.next < len(g.route) && t.m.Road(g.at.Hex, h):
		off, ok := StepCost(t.m, t.r, g.class, g.at.Hex, h, true)
		if ok {
			extra = off - g.costs[g.next]
			g.costs[g.next] = off
		}
	}
	g.filteredIn = h
	nations := []game.NationID{g.nation}
	for _, e := range enemies {
		nations = append(nations, e.nation)
	}
	t.emit(&Filtered{Nation: g.nation, Force: g.id, Past: idsOf(enemies), GrenzerSP: sp.Of(g.f), EnemySP: esp, ExtraMP: extra, Tick: mv.tick},
		t.cite("Land Battles", "Exception - Grenzers"), game.AtHex(h), to(nations...), nations...)
}

// overrun wipes out the small side: the assault table, read at the odds in
// point value, gives the casualties the defenders inflict first ("Attackers
// suffer casualties = X% of defender strength", strength counted in
// figures).
func (mv *movement) overrun(h game.Hex, big, small []*unit, bigPV, smallPV int) {
	t := mv.t
	or := t.r.Overrun
	odds := or.FreeOdds
	if smallPV > 0 {
		odds = min(bigPV/smallPV, or.FreeOdds)
	}
	die := t.dice.Roll("overrun: assault table", 6, h.String())
	col := t.r.Assault.Column(bigPV, smallPV)
	res := t.r.Assault.Result(die, col)
	out := t.r.Assault.Outcomes[res]
	figs := 0
	for _, u := range small {
		figs += u.f.Figures()
	}
	damage := t.dice.PercentOf(t.r, figs, out.AttackerLoss, "overrun: fraction of a figure", h.String())
	losses := takeLosses(forcesOf(big), damage, game.Arm.IsFighting)
	ev := &Overrun{ByNation: big[0].nation, OverrunNation: small[0].nation, By: idsOf(big), Overrun: idsOf(small), ByPV: bigPV, OverrunPV: smallPV, Odds: odds, Column: col, Die: die,
		Result: res, Damage: damage, Losses: losses, Generals: leadersLost(forcesOf(small), battle.Captured), Tick: mv.tick}
	for _, u := range big {
		if !u.moving {
			continue
		}
		if odds < or.FreeOdds {
			c := ceilDiv(u.ma, or.BattleFraction)
			u.spent += c
			ev.MPCost = max(ev.MPCost, c)
		}
		if !u.f.Standing.Continue {
			mv.halt(u, stopOverran)
		}
	}
	var nations []game.NationID
	for _, u := range append(slices.Clone(big), small...) {
		nations = append(nations, u.nation)
	}
	rule := t.cite("Land Battles", "Force Sizes and Overrun Attacks")
	t.emit(ev, rule, game.AtHex(h), to(nations...), nations...)
	t.emit(&Contact{Forces: append(idsOf(big), idsOf(small)...), Tick: mv.tick, Outcome: "overrun"}, rule, game.AtHex(h), to(nations...), nations...)
	for _, u := range small {
		t.remove(u.id)
	}
	for _, f := range forcesOf(big) {
		f.Normalize()
	}
	for _, n := range unitNations(big) {
		t.checkMinimumAt(game.AtHex(h), n)
	}
}

// wantsRetreat reads a force's standing retreat order against an enemy of
// enemyPV: always (RetreatBelow < 0), or when the enemy's point value is at
// least RetreatBelow times that of the force's nation in its hex.
func (mv *movement) wantsRetreat(u *unit, enemyPV int) bool {
	r := u.f.Standing.RetreatBelow
	if r == 0 || u.fleet || u.dead {
		return false
	}
	if r < 0 {
		return true
	}
	own := mv.sidePV(mv.landStack(u.at.Hex, u.nation))
	return float64(enemyPV) >= r*float64(own)
}

// retreat moves u one hex away from the enemies rather than face battle,
// applying the edition's retreat attrition; pursuers follow.
func (mv *movement) retreat(u *unit, enemies []*unit, sameHex bool) bool {
	t := mv.t
	rule := t.cite("Land Battles", "Retreat before Battle")
	blocked := func(why string) bool {
		t.emit(&RetreatBlocked{Force: u.id, Reason: why, Tick: mv.tick}, rule, u.at, to(u.nation), u.nation)
		return false
	}
	switch {
	case !u.f.HasRole(game.General):
		return blocked("a land force must have a general with it in order to move")
	case u.retreats >= maxRetreats:
		return blocked("it has retreated as far as it can this turn")
	}
	from := u.at.Hex
	to_, cost, ok := mv.retreatHex(u, enemies)
	if !ok {
		return blocked("no hex is open to it")
	}
	u.spent += cost
	beyond := u.spent > u.ma
	mv.halt(u, stopRetreated)
	u.stopped = stopRetreated
	u.ordered = true
	mv.place(u, game.AtHex(to_))
	u.entered = append(u.entered, u.at)
	u.lastTick = mv.tick
	u.retreats++
	var losses []Loss
	exhausted := 0
	rr := t.r.Retreat
	if !rr.LossOnlyInContactOrBeyondMA || sameHex || beyond {
		losses, exhausted = t.percentLosses(u.f, rr.Attrition, rr.ExhaustSamePercent, "retreat attrition")
	}
	nations := []game.NationID{u.nation}
	for _, e := range enemies {
		nations = append(nations, e.nation)
	}
	t.emit(&RetreatedBeforeBattle{Nation: u.nation, Force: u.id, From: from, To: to_, Enemy: idsOf(enemies), SameHex: sameHex, BeyondMA: beyond,
		Losses: losses, Exhausted: exhausted, Tick: mv.tick}, rule, game.AtHex(from), to(nations...), nations...)
	mv.slowRetreat(u, from)
	t.checkMinimumAt(u.at, u.nation)
	t.checkMinimumAt(game.AtHex(from), u.nation)
	if u.dead {
		return true
	}
	for _, e := range enemies {
		mv.pursue(e, u)
	}
	mv.neighbours(u, enemies...)
	return true
}

// retreatHex picks the hex a force retreats into: a neighbour it may enter,
// free of hostile forces; preferring one not next to an attacking enemy, then
// the farthest from the enemies in hexes, then the one most directly away
// from them (distance between hex centres), then the cheapest, then the first
// in hex order.
func (mv *movement) retreatHex(u *unit, enemies []*unit) (game.Hex, int, bool) {
	t := mv.t
	from := u.at.Hex
	type cand struct {
		h       game.Hex
		cost    int
		exposed bool
		dist    int
		far     int
	}
	var best *cand
	for _, nb := range t.m.Neighbors(from) {
		cost, ok := StepCost(t.m, t.r, u.class, from, nb, false)
		if !ok || mv.landHostiles(nb, u.nation) {
			continue
		}
		c := cand{h: nb, cost: cost, dist: 1 << 30, far: 1 << 62}
		for _, e := range enemies {
			c.dist = min(c.dist, distance(nb, e.at.Hex))
			c.far = min(c.far, farness(nb, e.at.Hex))
		}
		for _, x := range t.m.Neighbors(nb) {
			for _, v := range mv.land.at(x) {
				if !v.dead && t.hostile(v.nation, u.nation) && v.f.Stance == game.Attack {
					c.exposed = true
				}
			}
		}
		better := best == nil
		if !better {
			switch {
			case c.exposed != best.exposed:
				better = !c.exposed
			case c.dist != best.dist:
				better = c.dist > best.dist
			case c.far != best.far:
				better = c.far > best.far
			case c.cost != best.cost:
				better = c.cost < best.cost
			default:
				better = c.h.Less(best.h)
			}
		}
		if better {
			cc := c
			best = &cc
		}
	}
	if best == nil {
		return game.Hex{}, 0, false
	}
	return best.h, best.cost, true
}

// pursue sends e after a retreating (or slowed) target with its remaining
// movement, if its standing orders say pursue.
func (mv *movement) pursue(e, target *unit) {
	t := mv.t
	if e.dead || e.fleet || !e.f.Standing.Pursue || !e.f.HasRole(game.General) || t.fi(e.id).engaged || target.dead {
		return
	}
	if e.at.Hex == target.at.Hex {
		return
	}
	path, _, ok := t.scratch.route(e.class, e.at.Hex, target.at.Hex)
	if !ok {
		return
	}
	e.route, e.costs, e.next = nil, nil, 0
	prev := e.at.Hex
	for _, h := range path {
		c, _ := StepCost(t.m, t.r, e.class, prev, h, false)
		e.route = append(e.route, game.AtHex(h))
		e.costs = append(e.costs, c)
		prev = h
	}
	e.spent = max(e.spent, mv.tick*e.ma/TicksPerTurn)
	e.notBefore = mv.tick
	e.moving, e.ordered, e.stopped, e.cutReason = true, true, "", ""
	t.emit(&Pursued{Force: e.id, Target: target.id, Toward: target.at.Hex, Tick: mv.tick},
		t.cite("Land Battles", "Retreat before Battle"), e.at, to(e.nation, target.nation), e.nation, target.nation)
}

// canSlow reports whether chaser c has the cavalry to slow target u: 2:1 over
// its cavalry, and a cavalry figure per 3 of its infantry and gun models. A
// target with no infantry or guns (cavalry, or leaders, alone) is not slowed:
// the cavalry are sent "to slow down enemy infantry and artillery".
func (mv *movement) canSlow(c, u *unit) bool {
	sr := mv.t.r.SlowingEnemy
	cc, foot := cavalry(c.f), infantryAndGuns(u.f)
	return cc > 0 && foot > 0 && cc >= sr.CavalryOdds*cavalry(u.f) && cc*sr.InfantryPerCavalry >= foot
}

// chasers returns the hostile forces in or next to hex h that send cavalry
// ahead (standing order slow, on attack, not in a battle), most cavalry first.
func (mv *movement) chasers(u *unit, h game.Hex, needPursue bool) []*unit {
	t := mv.t
	var out []*unit
	for _, x := range append([]game.Hex{h}, t.m.Neighbors(h)...) {
		for _, c := range mv.land.at(x) {
			if c.dead || !t.hostile(c.nation, u.nation) || !c.f.Standing.SlowEnemy || c.f.Stance != game.Attack ||
				t.fi(c.id).engaged || mv.slowed[[2]game.ForceID{c.id, u.id}] || (needPursue && !c.f.Standing.Pursue) {
				continue
			}
			if mv.canSlow(c, u) {
				out = append(out, c)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *unit) int {
		if d := cavalry(b.f) - cavalry(a.f); d != 0 {
			return d
		}
		return game.CompareForceIDs(a.id, b.id)
	})
	return out
}

// slowDeparture checks a force stepping away from chasing cavalry. If the
// chaser can slow it, it stops and must give battle — unless its own
// standing order would retreat from the chaser, in which case it refuses and
// goes on, losing 1 figure per chasing cavalry figure in excess of its own
// cavalry. It reports whether the force was stopped.
func (mv *movement) slowDeparture(u *unit) bool {
	t := mv.t
	from, dest := u.at.Hex, u.route[u.next].Hex
	for _, c := range mv.chasers(u, from, true) {
		if distance(dest, c.at.Hex) <= distance(from, c.at.Hex) {
			continue
		}
		mv.slowed[[2]game.ForceID{c.id, u.id}] = true
		if mv.wantsRetreat(u, mv.sidePV(mv.landStack(c.at.Hex, c.nation))) {
			mv.refuseSlowing(u, c)
			return u.dead
		}
		rule := t.cite("Land Battles", "Slowing the Enemy")
		t.emit(&CavalrySlowed{Nation: u.nation, ByNation: c.nation, Force: u.id, By: c.id, Cavalry: cavalry(c.f), EnemyCavalry: cavalry(u.f), EnemyFoot: infantryAndGuns(u.f), Tick: mv.tick},
			rule, u.at, to(u.nation, c.nation), u.nation, c.nation)
		mv.halt(u, stopSlowed)
		mv.pursue(c, u)
		return true
	}
	return false
}

// slowRetreat: chasing cavalry catch a force retreating before battle; it
// refuses to stop (it is retreating) and pays in figures.
func (mv *movement) slowRetreat(u *unit, from game.Hex) {
	for _, c := range mv.chasers(u, from, false) {
		mv.slowed[[2]game.ForceID{c.id, u.id}] = true
		mv.refuseSlowing(u, c)
		return
	}
}

func (mv *movement) refuseSlowing(u, c *unit) {
	t := mv.t
	kill := cavalry(c.f) - cavalry(u.f)
	losses := takeLosses([]*game.Force{u.f}, kill, func(a game.Arm) bool { return a.IsInfantry() || a == game.Gunners })
	u.f.Normalize()
	t.emit(&SlowingRefused{Nation: u.nation, ByNation: c.nation, Force: u.id, By: c.id, Cavalry: cavalry(c.f), EnemyCavalry: cavalry(u.f), Killed: lossTotal(losses), Losses: losses, Tick: mv.tick},
		t.cite("Land Battles", "Slowing the Enemy"), u.at, to(u.nation, c.nation), u.nation, c.nation)
	t.checkMinimumAt(u.at, u.nation)
}

// neighbours: a force that arrived (or retreated) scouts and is scouted by
// the hostile forces next to it; a force whose standing order says so
// retreats from an attacking enemy next door. A force that has just retreated
// from the enemies in settled does not retreat from them again until they
// move.
func (mv *movement) neighbours(u *unit, settled ...*unit) {
	t := mv.t
	h := u.at.Hex
	for _, nb := range t.m.Neighbors(h) {
		for _, v := range slices.Clone(mv.land.at(nb)) {
			if u.dead || u.at.Hex != h {
				return
			}
			if v.dead || !t.hostile(u.nation, v.nation) {
				continue
			}
			us, vs := mv.landStack(h, u.nation), mv.landStack(nb, v.nation)
			mv.scoutSides(us, vs)
			mv.scoutSides(vs, us)
			if u.f.Stance == game.Attack && !t.fi(v.id).engaged && mv.wantsRetreat(v, mv.sidePV(us)) {
				mv.retreat(v, attackers(us), false)
				continue
			}
			if v.f.Stance == game.Attack && !slices.Contains(settled, v) && !t.fi(u.id).engaged && mv.wantsRetreat(u, mv.sidePV(vs)) {
				mv.retreat(u, attackers(vs), false)
				return
			}
		}
	}
}

func attackers(us []*unit) []*unit {
	var out []*unit
	for _, u := range us {
		if u.f.Stance == game.Attack {
			out = append(out, u)
		}
	}
	return out
}

// scoutSides: every force of scouts' nation looks at every force of the
// screen, with the stacks' scouting points.
func (mv *movement) scoutSides(scouts, screen []*unit) {
	if len(scouts) == 0 || len(screen) == 0 {
		return
	}
	// Each nation of a bloc scouts with its own forces, each target
	// screened by its own nation's forces.
	for _, n := range unitNations(scouts) {
		sf := forcesOf(slices.DeleteFunc(slices.Clone(scouts), func(u *unit) bool { return u.nation != n }))
		for _, tn := range unitNations(screen) {
			tf := forcesOf(slices.DeleteFunc(slices.Clone(screen), func(u *unit) bool { return u.nation != tn }))
			for _, target := range tf {
				mv.t.scout(n, sf, target, tf, mv.tick)
			}
		}
	}
}

func lossTotal(ls []Loss) int {
	n := 0
	for _, l := range ls {
		n += l.Lost
	}
	return n
}

// farness is four times the squared distance between two hexes' centres, in
// integers: with hexes of circumradius 1, centres lie 1.5 apart per column
// and √3/2 apart per half row, so 4·d² = 9·Δcol² + 3·Δhalfrows². Integer
// arithmetic is exact everywhere; a float sum of products may be fused
// (FMA) on one machine and not on another, and the retreat hex must not
// depend on the machine.
func farness(a, b game.Hex) int {
	half := func(h game.Hex) int { return 2*(h.Row-1) + (1 - h.Col%2) }
	dc, dy := a.Col-b.Col, half(a)-half(b)
	return 9*dc*dc + 3*dy*dy
}

// unitNations lists the nations of units, in order of first appearance.
func unitNations(us []*unit) []game.NationID {
	var out []game.NationID
	for _, u := range us {
		if !slices.Contains(out, u.nation) {
			out = append(out, u.nation)
		}
	}
	return out
}
