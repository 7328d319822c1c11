package battle

import "slices"

// Generals (001 "Generals"): "there is no point in attaching Generals to
// units except to stop them Retiring or Routing or inspire them to charge",
// and "Generals/ADC cannot usually be fired on or attacked while
// Unattached". A general stands behind the line, unattached; he attaches to
// a unit only to rally it (and, failing, goes back with it: "A General who
// fails to Rally a unit ... Retires/Routs with them that move") or to lead a
// stationary unit's charge, and he is at risk only while attached.

// placeGenerals gives each side its staff: the commander behind the centre
// of the line, the brigadiers spread along it.
func (b *sim) placeGenerals() {
	for _, ss := range b.sides {
		n := len(ss.side.Staff)
		for k, c := range ss.side.Staff {
			g := &general{c: c, isChief: k == 0, home: b.f.width / 2}
			if k > 0 {
				g.home = min(b.f.width-1, (k*b.f.width)/n)
			}
			ss.gens = append(ss.gens, g)
			if k == 0 {
				ss.chief = g
			}
		}
	}
}

// where is the slot a general stands at: his unit's, or his own.
func (g *general) where() int {
	if g.unit != nil {
		return g.unit.slot
	}
	return g.home
}

func (b *sim) geniusMul(ss *simSide) int {
	if ss.genius && ss.chief != nil && !ss.chief.out {
		return 2
	}
	return 1
}

// bonus is what a general with a unit adds to its morale index and its
// rally die: "+1 if a Brigadier is with the unit, +2 if a Senior General",
// a genius's doubled ("bonuses for attaching him to a unit double").
func (b *sim) bonus(ss *simSide, g *general) int {
	if g == ss.chief {
		return 2 * b.geniusMul(ss)
	}
	return 1
}

// attachedBonus is the bonus of the generals attached to u.
func (b *sim) attachedBonus(u *sunit) int {
	ss := b.sides[u.side]
	best := 0
	for _, g := range ss.gens {
		if !g.out && g.unit == u {
			best = max(best, b.bonus(ss, g))
		}
	}
	return best
}

// reach is how many slots a general rides to a unit in a phase: his
// command radius (12", doubled for a genius's commander).
func (b *sim) reach(ss *simSide, g *general) int {
	r := b.p.CommandInches / max(b.p.FrontageInches, 1)
	if g == ss.chief {
		r *= b.geniusMul(ss)
	}
	return r
}

// attachForRally: each general not held by a failed rally rides to the
// unit in his reach that most needs him — a routing unit before a shaken
// one, the bigger first — and attaches to it for its test.
func (b *sim) attachForRally(ss *simSide) {
	taken := make([]*sunit, 0, len(ss.gens))
	for _, g := range ss.gens {
		if g.out {
			continue
		}
		// Gone back with a unit that failed to rally: he tries again while
		// it still routs or is shaken, and detaches otherwise.
		if g.keep && g.unit != nil && (g.unit.st == stRouting || g.unit.shaken) {
			taken = append(taken, g.unit)
			continue
		}
		g.unit, g.keep = nil, false
	}
	for _, g := range ss.gens {
		if g.out || g.unit != nil {
			continue
		}
		var best *sunit
		for _, u := range ss.units {
			if !(u.st == stRouting || u.shaken && u.st != stDead && u.st != stOff && u.st != stSurrendered) || slices.Contains(taken, u) {
				continue
			}
			if abs(u.slot-g.where()) > b.reach(ss, g) {
				continue
			}
			if best == nil || need(u) > need(best) {
				best = u
			}
		}
		if best != nil {
			g.unit = best
			taken = append(taken, best)
		}
	}
}

// need ranks a unit for a general's attention: a routing unit before a
// shaken one, then its figures.
func need(u *sunit) int {
	n := u.u.Figures
	if u.st == stRouting {
		n += 1 << 20
	}
	return n
}

// afterRally: a general whose unit passed its test detaches; one whose
// unit failed goes back with it and stays attached through the next bound
// ("Next move he may choose to attempt to Rally again or Detach").
func (b *sim) afterRally(ss *simSide, failed map[*sunit]bool) {
	for _, g := range ss.gens {
		if g.out || g.unit == nil {
			continue
		}
		if failed[g.unit] {
			g.keep = true
			continue
		}
		g.unit, g.keep = nil, false
	}
}

// leadCharge: a free brigadier in reach attaches to a stationary unit
// about to test whether it may charge ("inspire them to charge": "General
// with Unit +1 or +2" to its morale index); he stays with it through the
// melee. The commander keeps to steadying troops: he leads no charge.
func (b *sim) leadCharge(ss *simSide, u *sunit) {
	for _, g := range ss.gens {
		if g.out || g.unit != nil || g == ss.chief || abs(u.slot-g.where()) > b.reach(ss, g) {
			continue
		}
		g.unit, g.keep = u, true
		return
	}
}

// detachLeaders frees the generals at the end of their side's bound, but for
// those gone back with a unit that failed to rally.
func (b *sim) detachLeaders(ss *simSide) {
	for _, g := range ss.gens {
		if !g.out && g.unit != nil && g.unit.st != stRouting && g.unit.st != stReserve {
			g.unit, g.keep = nil, false
		}
	}
}

// riskFire: "If a general is with any unit that suffers losses from fire
// throw 2d6: 1-3 Dead, 4,5 LW ½ speed, 6+ no effect. A 2nd LW =
// Incapacitated & removed."
func (b *sim) riskFire(u *sunit) {
	for _, g := range b.sides[u.side].gens {
		if g.out || g.unit != u {
			continue
		}
		r := b.d6("risk to general", g.c.ID) + b.d6("risk to general", g.c.ID)
		switch {
		case r <= 3:
			b.generalOut(g, Killed)
		case r <= 5:
			b.wound(g)
		}
	}
}

// riskMelee: "If a General is with any unit that Routs from Melee: 1-3
// Dead, 4 Captured, 5,6 LW ½ speed, 7+ No effect. In any other cases if the
// General is with any unit that suffers losses from Melee: 1-3 Dead, 4,5 LW
// ½ speed, 6+ no effect".
func (b *sim) riskMelee(u *sunit, routed bool) {
	for _, g := range b.sides[u.side].gens {
		if g.out || g.unit != u {
			continue
		}
		r := b.d6("risk to general", g.c.ID) + b.d6("risk to general", g.c.ID)
		switch {
		case r <= 3:
			b.generalOut(g, Killed)
		case routed && r == 4:
			b.generalOut(g, Captured)
		case r <= 5 || routed && r <= 6:
			b.wound(g)
		}
	}
}

// surrenderWith: a general attached to a unit that surrenders is taken
// with it ("He will Surrender with the unit").
func (b *sim) surrenderWith(u *sunit) {
	for _, g := range b.sides[u.side].gens {
		if !g.out && g.unit == u {
			b.generalOut(g, Captured)
		}
	}
}

func (b *sim) wound(g *general) {
	g.wounds++
	if g.fate == "" {
		g.fate = Wounded
	}
	if g.wounds >= 2 {
		b.generalOut(g, Wounded)
		return
	}
	b.moment(Moment{What: MGeneral, Side: b.sideOf(g), General: g.c.Name, Nation: g.c.Nation, Outcome: Wounded})
}

// generalOut: a general killed, captured or incapacitated leaves the field;
// the next general takes command. The units of his command about him are
// shaken at the end of the bound (endOfBound).
func (b *sim) generalOut(g *general, fate string) {
	i := b.sideOf(g)
	ss := b.sides[i]
	g.home = g.where()
	g.out, g.fate, g.unit, g.lostAt = true, fate, nil, b.seq
	b.moment(Moment{What: MGeneral, Side: i, General: g.c.Name, Nation: g.c.Nation, Outcome: fate})
	if g == ss.chief {
		ss.chiefLost, ss.chiefLostAt = fate, b.seq
		ss.chief = nil
		for _, x := range ss.gens {
			if !x.out {
				ss.chief = x
				x.isChief = true
				break
			}
		}
		ss.genius = ss.chief != nil && b.r.LandBattles.GeniusXP > 0 && ss.chief.c.XP >= b.r.LandBattles.GeniusXP
	}
}

// endOfBound: "If a General is Killed/Incapacitated all units in his chain
// of command within 18" are shaken at end of bound." The commander's chain
// is every unit; a brigadier's, the units nearer him than any other
// brigadier. The shake is provisional: it counts toward the army's break
// only if the unit fails its next rally.
func (b *sim) endOfBound() {
	reach := b.p.ChiefLossInches / max(b.p.FrontageInches, 1)
	for _, ss := range b.sides {
		for _, g := range ss.gens {
			if !g.out || g.lostAt != b.seq {
				continue
			}
			for _, u := range ss.front {
				if u == nil || u.st != stFront || abs(u.slot-g.home) > reach || !b.inChain(ss, g, u) {
					continue
				}
				if !u.shaken {
					u.shaken, u.provisonal = true, true
				}
			}
		}
		b.detachLeaders(ss)
	}
}

// inChain: the commander commands every unit; a brigadier the units nearer
// his place than any other brigadier's.
func (b *sim) inChain(ss *simSide, g *general, u *sunit) bool {
	if g.isChief {
		return true
	}
	d := abs(u.slot - g.home)
	for _, x := range ss.gens[1:] {
		if x != g && abs(u.slot-x.home) < d {
			return false
		}
	}
	return true
}

func (b *sim) sideOf(g *general) int {
	for i, ss := range b.sides {
		if slices.Contains(ss.gens, g) {
			return i
		}
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
