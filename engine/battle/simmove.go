package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// The mover's first three phases (001 1.0–3.0): rally, complete routs and
// retirements, move.

// rally tests the mover's shaken and routing units ("Testing Shaken units
// Roll 1d6 per unit +1 if a Brigadier is with the unit, +2 if a Senior
// General": 4+ carries on, 2–3 retires a full move, 1 or less retires and
// loses 1 SP; "Testing Routing units": 5+ halts shaken, 2–4 routs on, 1 or
// less routs on and loses 1 SP). Unsupplied and exhausted units take −1
// ("-1 on shooting and morale die rolls"). A unit shaken provisionally (a
// general's fall, a lost melee) that fails is retiring: it counts toward
// the army's break until its next rally.
func (b *sim) rally(ss *simSide) {
	b.attachForRally(ss)
	failed := map[*sunit]bool{}
	for _, u := range ss.units {
		u.retiring = false
		switch {
		case u.st == stRouting:
			r := b.d6("rally routing unit", u.sub) + b.attachedBonus(u) - tired(u)
			switch {
			case r >= 5:
				u.st, u.shaken, u.provisonal, u.routed = stReserve, true, false, 0
				ss.reserve = append(ss.reserve, u)
				b.momentUnit(MRally, u, "rallied")
			case r <= 1:
				failed[u] = true
				b.loseSP(u, 1)
			default:
				failed[u] = true
			}
		case u.shaken && u.alive():
			r := b.d6("rally shaken unit", u.sub) + b.attachedBonus(u) - tired(u)
			if r >= 4 {
				u.shaken, u.provisonal = false, false
				continue
			}
			failed[u] = true
			prov := u.provisonal
			u.shaken, u.provisonal = false, false
			if r <= 1 {
				b.loseSP(u, 1)
			}
			if u.alive() {
				b.retire(ss, u)
				u.retiring = prov
			}
		}
	}
	b.afterRally(ss, failed)
}

func (u *sunit) alive() bool {
	return u.st != stDead && u.st != stOff && u.st != stSurrendered
}

// retire takes a unit out of the first line a full move to the rear: it
// stands behind the second line, steady ("After testing a unit is no longer
// Shaken") and may be brought up again.
func (b *sim) retire(ss *simSide, u *sunit) {
	switch u.st {
	case stFront:
		if ss.front[u.slot] == u {
			ss.front[u.slot] = nil
		}
	case stSkirmish:
		ss.skirm = slices.DeleteFunc(ss.skirm, func(x *sunit) bool { return x == u })
	case stBattery:
		// "When UL & forced to Retire it LU for no cost & moves full move
		// to the rear. Must About Face before UL": it stays a battery, a
		// move behind where it stood, limbered and facing the rear.
		u.fwd -= b.moveInches(u)
		b.limber(u, true)
		return
	default:
		return
	}
	u.st, u.fwd = stReserve, 0
	ss.reserve = append(ss.reserve, u)
}

// limber: a battery made to retire limbers up ("UL ART required to Retire
// must LU to do so which will prevent them firing the next move") and
// fires again only when it has deployed: "Changing formation including
// UL/LU takes a whole move stationary except Horse ART which takes ½
// move", and one that retired a full move facing away must first about
// face ("When LU a battery may About Face as a Formation Change, taking a
// full move"). Field and heavy guns need a move for each, horse guns one
// move for both; a retire in good order (3" after a melee) needs only the
// deploying.
func (b *sim) limber(u *sunit, aboutFace bool) {
	if u.u.Kind != Battery {
		return
	}
	n := 1
	if aboutFace && u.u.GunKind != game.LightGun {
		n = 2
	}
	u.limbered, u.limberedAt = n, b.seq
}

// deployGuns: the mover's limbered batteries spend their move changing
// formation (not the move of the retire that limbered them).
func (b *sim) deployGuns(ms *simSide) {
	for _, u := range ms.batt {
		if u.limbered > 0 && u.limberedAt != b.seq {
			u.limbered--
			u.moved = true
		}
	}
}

// routs completes the routs of both sides ("Moving Player Completes
// Routs/Retires for BOTH Sides"): every routing unit runs its rout move to
// the rear; one at its table edge is not removed but loses 1 SP each move
// ("Units at the edge are not removed. Lose 1 SP instead").
func (b *sim) routs(_ *simSide) {
	for _, ss := range b.sides {
		for _, u := range ss.units {
			if u.st != stRouting {
				continue
			}
			if u.routed >= b.p.TableDepthInches {
				b.loseSP(u, 1)
				continue
			}
			u.routed += routInches(u.u.Kind)
		}
	}
}

// move: the mover brings up its second line into the gaps of the first
// ("Passage of Lines"), a side on attack advances each unit of its first
// line a move toward the enemy ("cannot approach closer than 1" to any
// enemy"), a side on the defensive steps back onto its positions; after
// the first NoRetreatTurns turns ("no unit may do any voluntary retreat
// moves for the first 8 turns") an attack going badly is called off and
// its lines withdraw out of the enemy's reach (withdraw); the mover's
// limbered batteries spend the move deploying (deployGuns).
func (b *sim) move(ms, fs *simSide) {
	for _, u := range ms.units {
		u.moved, u.advanced = false, false
	}
	b.deployGuns(ms)
	b.fillFront(ms)
	lb := b.r.LandBattles
	// Calling the attack off: once voluntary retreats are allowed, an
	// attacker that has lost more than it has inflicted (the morale rule's
	// count) withdraws for the day rather than fight on to its own break.
	if ms.attack && !ms.calledOff && b.turn > lb.NoRetreatTurns && b.closed(ms) && b.pct(ms) > b.pct(fs) {
		ms.calledOff = true
		b.moment(Moment{What: MCallOff, Side: ms.idx, Nation: b.leadNation(ms)})
	}
	// The margin to the break: the commander sends no more of his line
	// into the enemy's musket range than could all be shaken by one volley
	// without breaking his army.
	room := b.room(ms, fs)
	// An attack must begin somewhere: with none of its line in the enemy's
	// musket range, a side on attack sends in its first unit even when one
	// volley on it could break its army (an army of one or two units) —
	// else it never attacks at all, where "an attacking force shows
	// reasonable aggression".
	first := !b.closed(ms)
	for _, k := range b.pointOfAttack(ms, fs) {
		u := ms.front[k]
		if u == nil || u.st != stFront {
			continue
		}
		e := b.objective(fs, k)
		switch {
		case ms.attack && ms.calledOff:
			b.withdraw(u, fs)
			ms.lineFwd[k] = u.fwd // the line has drawn back
			continue
		case ms.attack:
			g := b.p.SetupInches - u.fwd
			if e != nil {
				g = b.gap(u, e)
			}
			// A unit in the enemy's musket range closes to charge. One
			// that can reach charging distance this move goes in while the
			// margin to the break allows and the enemy is worth attacking;
			// one that can go in next move steps up to just out of musket
			// range; the rest wait out of the enemy guns' short range
			// ("cannot approach closer than 1"" to any enemy).
			safe, move := b.safeInches(), b.moveInches(u)
			to := g
			ready := e != nil && (b.exposure(u) < room || first) && b.worthAttacking(u, e)
			// Over slow going a line cannot cross the last of the
			// enemy's musket range in one move: it must stand in it once.
			slow := safe-move > b.chargeReach(u)
			switch {
			case g < safe:
				to = max(1, g-move)
			case ready && (g-move <= b.chargeReach(u) || slow && g-move < safe):
				to = max(1, g-move)
				room -= b.exposure(u)
				first = false
			case ready:
				to = max(safe, g-move)
			case g > b.waitInches():
				to = max(b.waitInches(), g-move)
			}
			if to < g {
				u.fwd += g - to
				u.moved, u.advanced = true, true
			}
		case u.fwd != 0:
			u.fwd, u.moved = 0, true
		}
		ms.lineFwd[k] = max(ms.lineFwd[k], u.fwd)
	}
	b.screen(ms, fs)
	if ms.attack && !ms.calledOff && !slices.ContainsFunc(b.res.Moments, func(m Moment) bool {
		return m.What == MAdvance && m.Side == ms.idx && m.Day == b.day
	}) && b.closed(ms) {
		b.moment(Moment{What: MAdvance, Side: ms.idx, Nation: b.leadNation(ms)})
	}
}

// withdraw: a unit of an attack called off retires ("About Face/Retire in
// good order, maintaining the same facing move normal speed less 3" foot,
// 6" mounted": its first move less the about face, then full moves), back
// past its starting
// position ("Repulse Result ... It falls back to its starting positions")
// until it is out of reach of the enemy's muskets and guns — a voluntary
// retreat, which the rules allow after the 8th turn, off the table if need
// be ("Retreating off-table: When forces meet on the tabletop no unit may
// do any voluntary retreat moves for the first 8 turns"). It stops at its
// table edge. Before, the line stood 7" from the enemy, in his guns' short
// range, for the rest of the day.
func (b *sim) withdraw(u *sunit, fs *simSide) {
	to := min(0, b.p.SetupInches-b.safeInches()-b.enemyFwd(fs))
	for _, bt := range fs.batt {
		if bt.st == stBattery && bt.sp > 0 {
			to = min(to, b.p.SetupInches-bt.fwd-b.longRange(bt)-1)
		}
	}
	to = max(to, -b.p.TableDepthInches)
	if u.fwd <= to {
		return
	}
	step := b.moveInches(u)
	if !u.facedAbout {
		// The first move faces about (or steps back facing), at the cost
		// of 3" (foot) or 6" (horse); then it marches to the rear.
		u.facedAbout = true
		if u.u.Kind.IsCavalry() {
			step -= 6
		} else {
			step -= 3
		}
	}
	u.fwd = max(to, u.fwd-max(step, 1))
	u.moved = true
}

// enemyFwd is how far the enemy's first line stands forward of its
// positions at most.
func (b *sim) enemyFwd(fs *simSide) int {
	f := 0
	for _, e := range fs.front {
		if e != nil && e.st == stFront {
			f = max(f, e.fwd)
		}
	}
	return f
}

// pointOfAttack orders the mover's slots for its advance: a side on
// attack strikes where the enemy stands on the most open ground (then the
// weakest enemy, then nearest the centre), and widens the attack from there
// slot by slot, so that its line goes in shoulder to shoulder — a unit that
// goes in alone draws the fire of the enemy beside it too ("Reduced Fire").
func (b *sim) pointOfAttack(ms, fs *simSide) []int {
	order := centreOut(len(ms.front))
	if !ms.attack {
		return order
	}
	key := func(k int) int {
		e := b.facing(fs, k)
		if e == nil || ms.front[k] == nil {
			return 1 << 20
		}
		s := b.bmi(e, false)
		if e.shaken {
			s -= 50
		}
		if b.atPosition(e) {
			s += b.f.g[e.side][k].strength() * 100
		}
		// Away from the enemy's guns: a battery met head on fires canister.
		for _, bt := range fs.batt {
			if bt.st == stBattery && bt.slot == k {
				s += 50
			}
		}
		return s
	}
	p := order[0]
	for _, k := range order {
		if key(k) < key(p) {
			p = k
		}
	}
	slices.SortStableFunc(order, func(a, c int) int { return abs(a-p) - abs(c-p) })
	return order
}

// worthAttacking: an attacker goes for an enemy on open ground, or one
// already shaken or spent; one in cover (a wood's edge, behind an obstacle,
// in buildings or works) it leaves to its guns until the first
// NoRetreatTurns turns are played ("no unit may do any voluntary retreat
// moves for the first 8 turns": a line sent against cover must stay).
func (b *sim) worthAttacking(u, e *sunit) bool {
	if !b.atPosition(e) || e.shaken || e.retiring || b.status(e) < 0 || b.turn > b.r.LandBattles.NoRetreatTurns {
		return true
	}
	g := b.f.g[e.side][e.slot]
	return !g.obstacle && g.cover == coverNone
}

// room is how many more figures a side may put into the enemy's musket
// range: its margin to the break ("half or more ... in shaken status")
// less the figures already in range and not yet counted lost.
func (b *sim) room(ms, fs *simSide) int {
	lb := b.r.LandBattles
	num, den := max(lb.BreakNum, 1), max(lb.BreakDen, 1)
	room := ceilDiv(ms.counted*num, den) - b.lost(ms) - 1
	for k, u := range ms.front {
		if u == nil || u.st != stFront {
			continue
		}
		if e := b.facing(fs, k); e != nil && b.gap(u, e) < b.safeInches() {
			room -= b.exposure(u)
		}
	}
	return room
}

// exposure is the figures of a unit that one volley could add to its
// army's morale count: all it has left, unless it is counted already.
func (b *sim) exposure(u *sunit) int {
	if u.shaken && !u.provisonal || u.retiring || u.u.Kind == Battery && !b.r.LandBattles.BreakCountsGunners {
		return 0
	}
	return u.u.Figures * u.sp / max(u.maxSP, 1)
}

// waitInches is where a line waits its turn to attack: out of the enemy
// guns' short range ("9"") and so out of canister.
func (b *sim) waitInches() int { return 10 }

// safeInches is the nearest a line stands to the enemy without being in
// his musket range: 7" (muskets reach 6").
func (b *sim) safeInches() int { return 7 }

// closed reports whether any of the side's first line is within musket
// range of the enemy.
func (b *sim) closed(ss *simSide) bool {
	en := b.sides[1-ss.idx]
	for k, u := range ss.front {
		if u != nil && u.st == stFront {
			if e := b.facing(en, k); e != nil && b.gap(u, e) <= 6 {
				return true
			}
		}
	}
	return false
}

// objective is what a unit in slot k goes for: the enemy's first-line unit
// facing it, else a battery there left bare, else the flank of the enemy's
// unit beside it (nil: none).
func (b *sim) objective(en *simSide, k int) *sunit {
	if e := b.facing(en, k); e != nil {
		return e
	}
	for _, bt := range en.batt {
		if bt.st == stBattery && bt.slot == k {
			return bt
		}
	}
	for _, j := range []int{k - 1, k + 1} {
		if e := b.facing(en, j); e != nil {
			return e
		}
	}
	return nil
}

// facing is the enemy's first-line unit in slot k (nil: none).
func (b *sim) facing(en *simSide, k int) *sunit {
	if k < 0 || k >= len(en.front) {
		return nil
	}
	if u := en.front[k]; u != nil && u.st == stFront {
		return u
	}
	return nil
}

// fillFront brings up units of the second line and reserve into the empty
// slots of the first, steady ones only: a side on attack brings them up a
// move behind where its line has got to. Light infantry that left the
// screen join too.
func (b *sim) fillFront(ss *simSide) {
	committed := false
	for k := range ss.front {
		if u := ss.front[k]; u != nil && u.st == stFront || !ss.held[k] {
			continue
		}
		ss.front[k] = nil
		idx := slices.IndexFunc(ss.reserve, func(u *sunit) bool { return u.st == stReserve && !u.shaken && u.sp > 0 })
		if idx < 0 {
			continue
		}
		u := ss.reserve[idx]
		ss.reserve = slices.Delete(ss.reserve, idx, idx+1)
		u.st, u.slot, u.moved = stFront, k, true
		u.fwd = max(0, ss.lineFwd[k]-b.p.SecondLineInches)
		ss.front[k] = u
		committed = true
	}
	ss.reserve = slices.DeleteFunc(ss.reserve, func(u *sunit) bool { return u.st != stReserve })
	if committed && !ss.usedRes && b.turn > 1 {
		ss.usedRes = true
		b.moment(Moment{What: MReserves, Side: ss.idx, Nation: b.leadNation(ss)})
	}
}

// screen moves the mover's skirmishers: they keep a move ahead of their
// line; when an enemy unit of the line comes within charge reach they fall
// back ("Charged units of LI ... may Evade"): light infantry behind the
// line (to be brought into it), Grenzers to the line's positions, where
// they go on skirmishing ("They must skirmish during battles").
func (b *sim) screen(ms, fs *simSide) {
	for _, u := range slices.Clone(ms.skirm) {
		if u.st != stSkirmish {
			continue
		}
		e := b.facing(fs, u.slot)
		if e != nil && b.gap(u, e) <= 3 && u.fwd > 0 {
			if u.u.Kind == Light {
				b.retire(ms, u)
				continue
			}
			u.fwd, u.moved = 0, true
			continue
		}
		if ms.attack && ms.calledOff {
			b.withdraw(u, fs)
			continue
		}
		if ms.attack {
			want := ms.lineFwd[u.slot] + b.p.SecondLineInches
			if e != nil {
				want = min(want, b.gap(u, e)+u.fwd-4)
			}
			if want > u.fwd {
				u.fwd = min(want, u.fwd+b.moveInches(u))
				u.moved, u.advanced = true, true
			}
		}
	}
}

// tired is the −1 of exhausted or unsupplied figures.
func tired(u *sunit) int {
	if u.u.Tired {
		return 1
	}
	return 0
}

// gradeMorale: Grenadiers (A) +2, Regulars (B) +1, C 0, Militia (D) −1.
func gradeMorale(g game.Grade) int {
	switch g {
	case game.GradeA:
		return 2
	case game.GradeB:
		return 1
	case game.GradeD:
		return -1
	}
	return 0
}

// bmi is a unit's Basic Morale Index: "its current strength + modifiers":
// grade, "Grenz, Frei-Korps -1", "General with Unit +1 or +2". Against
// fire it adds the nations' "+1 on fire tests".
func (b *sim) bmi(u *sunit, fireTest bool) int {
	m := u.sp + gradeMorale(u.u.Grade) + b.attachedBonus(u)
	if u.u.Kind == Grenzers {
		m--
	}
	if fireTest {
		t := u.u.Traits
		switch {
		case t.StationaryFireBonus && u.u.Kind.IsFoot() && !u.advanced:
			m++
		case t.AdvanceFireBonus && u.u.Kind.IsFoot() && u.advanced:
			m++
		case t.CavalryAdvanceBonus && u.u.Kind.IsCavalry() && u.advanced:
			m++
		}
	}
	return m
}

// status: +1 fresh (0–1 markers of 6), −1 spent (4–5), 0 worn.
func (b *sim) status(u *sunit) int {
	lost := (u.maxSP - u.sp) * 6 / max(u.maxSP, 1)
	switch {
	case lost < 2:
		return 1
	case lost >= 4:
		return -1
	}
	return 0
}
