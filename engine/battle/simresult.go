package battle

import "github.com/syw-pbem/pbem/game"

// The army's morale, the moments a narrative tells and the result.

// count is the army morale rule's count for a side (ArmyBreak): "half or
// more of your army's figures ... are eliminated, have routed off the
// table, or are in shaken status". A unit destroyed counts whole as
// eliminated; one routing, routed off or surrendered whole as routed (a
// routing unit that halts is "Shaken", so routing is at least that); a
// unit shaken by fire or a charge, or retiring after failing the rally that
// followed a general's fall or a lost melee, whole as shaken; any other
// unit the figures of the strength it lost.
func (b *sim) count(ss *simSide) ArmyBreak {
	c := ArmyBreak{Side: ss.idx, Counted: ss.counted, Gunners: b.r.LandBattles.BreakCountsGunners}
	for _, u := range ss.units {
		if !b.r.LandBattles.BreakCountsGunners && u.u.Kind == Battery {
			continue
		}
		figs, maxSP := u.u.Figures, max(u.maxSP, 1)
		spent := figs * (u.maxSP - u.sp) / maxSP
		routed := min(figs*u.routSP/maxSP, spent)
		c.Eliminated += spent - routed
		c.Routed += routed
		rest := figs - spent
		switch {
		case u.st == stDead:
			c.Eliminated += rest
		case u.st == stOff || u.st == stRouting || u.st == stSurrendered:
			c.Routed += rest
		case u.shaken && !u.provisonal || u.retiring:
			c.Shaken += rest
		}
	}
	return c
}

// lost is the figures the morale rule counts as lost.
func (b *sim) lost(ss *simSide) int { return b.count(ss).Lost() }

func (b *sim) pct(ss *simSide) int {
	if ss.counted == 0 {
		return 100
	}
	return 100 * b.lost(ss) / ss.counted
}

// intact is the figures not counted as lost.
func (b *sim) intact(i int) int {
	ss := b.sides[i]
	return ss.counted - b.lost(ss)
}

// checkBreak applies the edition's army morale rule to a side at the end of
// its passive turn.
func (b *sim) checkBreak(i int) bool {
	ss := b.sides[i]
	lb := b.r.LandBattles
	num, den := max(lb.BreakNum, 1), max(lb.BreakDen, 1)
	c := b.count(ss)
	if c.Lost()*den < ss.counted*num && ss.counted > 0 {
		b.trackTurning()
		return false
	}
	ss.broken = true
	b.res.Broken[i] = true
	b.res.Outcome, b.res.Winner = Decisive, 1-i
	c.Day, c.Turn, c.Bound = b.day, b.turn, b.bound
	// The commander lost since the side last rallied (its own bound, the
	// one before this) shook the units about him: part of why it broke.
	if ss.chiefLost != "" && ss.chiefLostAt >= b.seq-1 {
		c.CommanderLost = ss.chiefLost
	}
	b.moment(Moment{What: MBreak, Side: i, Nation: b.leadNation(ss), Count: &c})
	return true
}

// trackTurning remembers when the balance of loss last changed hands: the
// turning point is the first notable moment after it.
func (b *sim) trackTurning() {
	gap := b.pct(b.sides[0]) - b.pct(b.sides[1])
	sign := 0
	switch {
	case gap > 5:
		sign = 1
	case gap < -5:
		sign = -1
	}
	if sign != 0 && sign != b.lastGap {
		b.lastGap = sign
		b.res.Turning = -2 - len(b.res.Moments) // marks "from here on"
	}
}

func (b *sim) leadNation(ss *simSide) game.NationID {
	if c := ss.side.Commander; c != nil {
		return c.Nation
	}
	if len(ss.side.Nations) > 0 {
		return ss.side.Nations[0]
	}
	return ""
}

func (b *sim) moment(m Moment) {
	if len(b.res.Moments) >= 60 && m.What != MBreak && m.What != MNightfall && m.What != MWithdraw && m.What != MGeneral {
		return
	}
	m.Day, m.Turn = b.day, b.turn
	m.Lost, m.EnemyLost = b.pct(b.sides[m.Side]), b.pct(b.sides[1-m.Side])
	b.res.Moments = append(b.res.Moments, m)
}

func (b *sim) momentUnit(what string, u *sunit, outcome string) {
	if what == MRally && len(b.res.Moments) > 40 {
		return
	}
	b.moment(Moment{What: what, Side: u.side, Nation: u.u.Nation, Kind: u.u.Kind, Grade: u.u.Grade, Outcome: outcome})
}

// momentOnce records the first moment of a kind for a side each day.
func (b *sim) momentOnce(what string, fs *simSide, u, tgt *sunit) {
	for _, m := range b.res.Moments {
		if m.What == what && m.Side == fs.idx && m.Day == b.day {
			return
		}
	}
	b.moment(Moment{What: what, Side: fs.idx, Nation: u.u.Nation, Kind: u.u.Kind, Grade: u.u.Grade, Target: tgt.u.Kind})
}

// finish turns the field into the result: the beaten side's routing units
// may surrender where the winner's first line is the longer ("Already
// Routing units within 6" of any enemy unit and cannot move": 4+ foot, 5+
// mounted; their generals with them), losses by stack (SP lost to fire and
// melee are killed figures, to rout hits routed ones; units routed off,
// destroyed or still routing in a beaten army routed whole), guns taken
// when the ruleset takes them on the field, hits, generals.
func (b *sim) finish() {
	res := b.res
	if res.Turning < -1 {
		res.Turning = -2 - res.Turning
		for res.Turning < len(res.Moments) && !notable(res.Moments[res.Turning].What) {
			res.Turning++
		}
		if res.Turning >= len(res.Moments) {
			res.Turning = -1
		}
	}
	if res.Outcome == Decisive && res.Winner >= 0 {
		w, l := b.sides[res.Winner], b.sides[1-res.Winner]
		if lineCount(w) > lineCount(l) {
			for _, u := range l.units {
				// Routing units that have not yet run from the enemy's
				// reach: routed this bound, still within 6".
				if u.st != stRouting || u.routed > 0 {
					continue
				}
				need := 4
				if u.u.Kind.IsCavalry() {
					need = 5
				}
				if b.d6("surrender", u.sub) >= need {
					b.surrenderWith(u)
					u.st = stSurrendered
				}
			}
		}
	}
	takeGuns := b.r.LandBattles.GunsTakenOnField
	for i, ss := range b.sides {
		sr := &res.Sides[i]
		type key struct {
			f game.ForceID
			a game.Arm
			g game.Grade
		}
		agg := map[key]*Casualties{}
		var order []key
		for _, u := range ss.units {
			k := key{u.u.Force, u.u.Arm, u.u.Grade}
			c := agg[k]
			if c == nil {
				c = &Casualties{Nation: u.u.Nation, Force: u.u.Force, Arm: u.u.Arm, Grade: u.u.Grade}
				agg[k] = c
				order = append(order, k)
			}
			figs := u.u.Figures
			killed := figs * u.casSP / max(u.maxSP, 1)
			routed := min(figs*u.routSP/max(u.maxSP, 1), figs-killed)
			left := figs - killed - routed
			switch u.st {
			case stOff, stDead:
				routed += left
			case stSurrendered:
				c.Surrounded += left
			case stRouting:
				if ss.broken {
					routed += left
				}
			default:
				if u.halfMarked {
					c.HalfStrength += left
				}
			}
			c.Killed += killed
			c.Routed += routed
			if takeGuns && u.gunsTaken && u.u.Guns > 0 {
				sr.GunsLost = append(sr.GunsLost, GunsLost{Nation: u.u.Nation, Force: u.u.Force, Kind: u.u.GunKind, Count: u.u.Guns})
			}
		}
		for _, k := range order {
			if c := agg[k]; c.Killed+c.Routed+c.Surrounded+c.HalfStrength > 0 {
				sr.Losses = append(sr.Losses, *c)
			}
		}
		for _, k := range sortedHitKeys(ss.hits) {
			if ss.hits[k] > 0 {
				sr.Hits = append(sr.Hits, Hits{Nation: k.n, Arm: k.a, Grade: k.g, Hits: ss.hits[k]})
			}
		}
		for _, g := range ss.gens {
			if g.fate != "" {
				sr.Generals = append(sr.Generals, GeneralFate{Nation: g.c.Nation, Force: g.c.Force, ID: g.c.ID, Name: g.c.Name, Fate: g.fate})
			}
		}
	}
}

func notable(what string) bool {
	switch what {
	case MCharge, MMelee, MGeneral, MGunsTaken, MReserves, MBreak, MWithdraw, MCallOff:
		return true
	}
	return false
}

func lineCount(ss *simSide) int {
	n := 0
	for _, u := range ss.front {
		if u != nil && u.st == stFront {
			n++
		}
	}
	return n
}
