package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Charges and melee (001 6.0–7.0).

// chargeReach is how close an enemy must be to be charged: "3" INF 6" CAV
// (modified for terrain)" — over broken or wooded going by the movement
// table's fractions: line infantry 2/3, horse 2/3 (1/2 in woods).
func (b *sim) chargeReach(u *sunit) int {
	r := 3
	if u.u.Kind.IsCavalry() {
		r = 6
	}
	if b.woods() || b.f.going == game.Rough {
		if u.u.Kind.IsCavalry() {
			r = r * 2 / 3
			if b.woods() {
				r = 3
			}
		} else if u.u.Kind == Infantry {
			r = 2
		}
	}
	return r
}

// charges: the mover's steady first-line foot and horse charge the enemy
// facing them within charge reach ("the target must be directly to the
// front"), a battery left bare, or the flank of the nearest enemy when
// their own front is empty. A side on attack charges a weakened enemy
// (shaken, spent, a flank, a bare battery), with horse against foot, with
// a unit no weaker than its target, and with everything once the first
// NoRetreatTurns turns are played; a side on the defensive only a weakened
// enemy, and never out of a covered position. Nobody charges troops in a
// city ("The attacker may not launch an assault on a city during a field
// battle"), and horse do not charge into buildings or works. A unit that
// did not move this bound must first pass its test to charge ("If score
// EXCEEDS unit's Basic Morale Index, it may not change formation, nor
// charge"), which a brigadier may attach to inspire.
func (b *sim) charges(ms, fs *simSide) {
	late := b.turn > b.r.LandBattles.NoRetreatTurns
	for _, u := range slices.Clone(ms.front) {
		if u == nil || u.st != stFront || u.shaken || u.u.Kind == Battery || u.u.Kind == Grenzers {
			continue
		}
		if ms.attack && ms.calledOff {
			continue
		}
		tgt, flank := b.facing(fs, u.slot), false
		// A battery deployed in the enemy's line stands in an interval of
		// it, directly to the charger's front as much as the battalion
		// beside it: 001 gives it no shelter ("COI charging LI/ART in open
		// +2", "CAV charging non-CAV +2", "ART ... in the open -2" in
		// melee; "When ART Routs the Crew run away & the Gun is deemed
		// Captured"), and a charger within reach of one goes for it.
		for _, bt := range fs.batt {
			if bt.st == stBattery && bt.slot == u.slot && bt.sp > 0 && b.gap(u, bt) <= b.chargeReach(u) &&
				(tgt == nil || !b.inCity(bt)) {
				tgt = bt
			}
		}
		if tgt == nil {
			for _, k := range []int{u.slot - 1, u.slot + 1} {
				if t := b.facing(fs, k); t != nil {
					tgt, flank = t, true
					break
				}
			}
		}
		if tgt == nil || b.gap(u, tgt) > b.chargeReach(u) || b.inCity(tgt) {
			continue
		}
		// A flank is charged by a unit that stood level with the enemy's
		// line (no more than the 1" every move keeps from the enemy) at the
		// start of the bound and did not move in it: "the target must be
		// directly to the front of the Charging unit", so it must wheel to
		// face the flank first ("Wheeling: one flank remains stationary
		// while the other wheels at full speed. May then charge in a
		// straight line") — a unit ahead of the enemy's line in an empty
		// slot sees his front corner, not his flank.
		if flank && (u.moved || b.gap(u, tgt) > 1) {
			continue
		}
		tc := b.coverOf(tgt)
		if u.u.Kind.IsCavalry() && b.atPosition(tgt) && (tc == coverHard || tc == coverWorks) {
			continue
		}
		weak := tgt.shaken || tgt.retiring || b.status(tgt) < 0 || tgt.u.Kind == Battery || flank
		switch {
		case !ms.attack:
			// A side on the defensive "merely has to avoid having its army
			// morale broken": it leaves its positions only to finish an
			// attacker that is spent or taken in the flank.
			if !(b.status(tgt) < 0 || flank || tgt.u.Kind == Battery) || b.atPosition(u) && b.f.g[u.side][u.slot].cover != coverNone {
				continue
			}
		case weak, late, u.u.Kind.IsCavalry() && !tgt.u.Kind.IsCavalry(), strength(u) >= strength(tgt):
		default:
			continue
		}
		if !u.moved {
			if b.bmi(u, false) < 6 {
				b.leadCharge(ms, u)
			}
			if b.d6("test to charge", u.sub) > b.bmi(u, false) {
				continue
			}
		}
		b.charge(ms, fs, u, tgt, flank)
	}
}

// open: the ground a charge crosses is open (no woods, no cover at the
// target's position).
func (b *sim) open(tgt *sunit) bool {
	return b.f.going == game.Clear && (!b.atPosition(tgt) || b.f.g[tgt.side][tgt.slot].cover == coverNone)
}

// chargeTest is the charger's die against the charged unit's morale index
// (001 6.1: "If the modified score EQUALS OR EXCEEDS the Charged units BMI
// it will Rout immediately & lose 1 SP").
func (b *sim) chargeTest(u, tgt *sunit, flank bool) bool {
	cav, tcav := u.u.Kind.IsCavalry(), tgt.u.Kind.IsCavalry()
	m := 0
	if tgt.shaken {
		m++ // "Defender Shaken +1"
	}
	if flank || tgt.limbered > 0 {
		m++ // "Charging in the Flank/LU ART +1"
	}
	open := b.open(tgt)
	switch {
	case u.u.Kind == Infantry && (tgt.u.Kind == Light || tgt.u.Kind == Grenzers || tgt.u.Kind == Battery) && open:
		m += 2 // "COI charging LI/ART in open +2"
	case (u.u.Kind == Light || u.u.Kind == Grenzers) && tgt.u.Kind == Infantry && open:
		m -= 2 // "LI charging COI in open -2"
	}
	if cav && !tcav {
		m += 2 // "CAV charging non-CAV +2"
	}
	if !cav && tcav {
		m -= 2 // "Non-CAV charging CAV -2"
	}
	if b.atPosition(tgt) {
		g := b.f.g[tgt.side][tgt.slot]
		switch {
		case g.cover == coverWorks:
			m -= 3 // "Defender In Fortification -3"
		case g.obstacle || g.cover == coverHard:
			m -= 2 // "Defender behind obstacle/ BUA -2"
		}
	}
	return b.d6("charge test", u.sub)+m >= b.bmi(tgt, false)
}

func (b *sim) charge(ms, fs *simSide, u, tgt *sunit, flank bool) {
	g := max(0, b.gap(u, tgt))
	fortified := false
	if b.atPosition(tgt) {
		gr := b.f.g[tgt.side][tgt.slot]
		fortified = gr.obstacle || gr.cover == coverHard || gr.cover == coverWorks
	}
	u.fwd += g
	u.advanced = true
	line := ms.lineFwd[u.slot]
	ms.lineFwd[u.slot] = max(line, u.fwd)
	if b.chargeTest(u, tgt, flank) {
		b.moment(Moment{What: MCharge, Side: ms.idx, Nation: u.u.Nation, Kind: u.u.Kind, Grade: u.u.Grade, Target: tgt.u.Kind, Outcome: "routed"})
		b.riskMelee(tgt, true)
		b.loseSP(tgt, 1)
		b.rout(tgt)
		return
	}
	if e := b.evades(u, tgt, g, flank); e > 0 {
		// "These units may evade 3"/6" directly away from the enemy unit
		// attempting to charge them"; "Move Charging unit into contact
		// with defender if it stands, or its original position if it
		// Routs/Evades out of Charge Reach."
		tgt.fwd -= e
		u.fwd -= g
		ms.lineFwd[u.slot] = line
		return
	}
	counter := b.counterCharges(tgt, flank)
	if counter {
		// "The Counter-Charging unit is moved into contact with the
		// Charging unit ½ way between their positions."
		u.fwd -= g / 2
		tgt.fwd += g / 2
		fs.lineFwd[tgt.slot] = max(fs.lineFwd[tgt.slot], tgt.fwd)
	}
	mine := b.d6("melee", u.sub) + b.meleeMod(u, tgt, true, false)
	theirs := b.d6("melee", tgt.sub) + b.meleeMod(tgt, u, counter, flank)
	diff := mine - theirs
	win, lose := u, tgt
	if diff < 0 {
		win, lose, diff = tgt, u, -diff
	}
	ws := b.sides[win.side]
	if diff >= 2 {
		res := "won"
		if win == tgt {
			res = "lost"
		}
		if diff >= 3 {
			res += " and routed them"
		}
		b.moment(Moment{What: MMelee, Side: ms.idx, Nation: u.u.Nation, Kind: u.u.Kind, Grade: u.u.Grade, Target: tgt.u.Kind, Outcome: res})
	}
	// "A unit defending a BUA does not Retire unless 2 difference."
	holds := func(x *sunit) bool { return x == tgt && b.atPosition(x) && b.f.g[x.side][x.slot].cover == coverHard }
	switch {
	case diff == 0:
		for _, x := range []*sunit{u, tgt} {
			if !holds(x) {
				b.fallBack(x, 3)
			}
		}
	case diff == 1:
		lose.shaken, lose.provisonal = true, !lose.shaken || lose.provisonal
		for _, x := range []*sunit{u, tgt} {
			if !holds(x) {
				b.fallBack(x, 3)
			}
		}
	case diff == 2:
		b.riskMelee(lose, false)
		b.hit(ws, win, lose, 1)
		if lose.alive() && lose.st != stRouting {
			lose.shaken, lose.provisonal = true, !lose.shaken || lose.provisonal
			b.fallBack(lose, 3)
		}
	default:
		// "If the losing unit has Charged a BUA/Fortification, or where the
		// defender is immediately behind an obstacle the losing unit does
		// not Rout but Retires 6" and is Shaken, but still loses 2 SP."
		if lose == u && fortified {
			b.riskMelee(lose, false)
			b.hit(ws, win, lose, 2)
			if lose.alive() {
				lose.shaken, lose.provisonal = true, !lose.shaken || lose.provisonal
				b.fallBack(lose, 6)
			}
			return
		}
		b.riskMelee(lose, true)
		b.hit(ws, win, lose, 2)
		b.rout(lose)
	}
}

// counterCharges: the charged unit that passed the charge test meets the
// charger half way (001 6.2: "Charged units which pass their Morale test
// may Counter-Charge if they have not Fired. Counter-Charging only
// available to INF & CAV in the open who are being Charged by an enemy
// unit to their front"), for the melee's "Charging/Counter Charging +1".
// Line infantry and horse of the first line do, unshaken (a shaken unit
// may not charge), when nothing shelters them where they stand (a unit
// behind cover or works keeps it: "in the open"). Light infantry and
// light horse may evade instead (evades).
func (b *sim) counterCharges(tgt *sunit, flank bool) bool {
	k := tgt.u.Kind
	return !flank && tgt.st == stFront && !tgt.shaken && !tgt.firedOut && tgt.sp > 0 &&
		(k == Infantry || k.IsCavalry()) && b.open(tgt) && !b.inCity(tgt)
}

// evades is how far the charged unit evades (0: it stands): 001 6.2,
// "Charged units of LI/LC/H.ART which pass their Morale test may Evade if
// they have not Fired. These units may evade 3"/6" directly away from the
// enemy unit attempting to charge them". Light infantry and light horse of
// the first line, unshaken and not under cover (the position is worth
// more than the evade), evade when the melee's factors are against them,
// counter-charging or not (001 leaves the choice to the player: one who
// expects to lose it steps away), and the evade takes them out of the
// charger's reach — else they would be caught "evading -2". The
// simulation's batteries do not evade.
func (b *sim) evades(charger, tgt *sunit, gap int, flank bool) int {
	k := tgt.u.Kind
	if k != Light && k != LightCav || tgt.st != stFront || tgt.shaken || tgt.firedOut || flank || b.coverOf(tgt) != coverNone {
		return 0
	}
	e := 3
	if k.IsCavalry() {
		e = 6
	}
	if gap+e <= b.chargeReach(charger) || b.meleeMod(tgt, charger, b.counterCharges(tgt, false), false) >= b.meleeMod(charger, tgt, true, false) {
		return 0
	}
	return e
}

// fallBack retires a unit the inches given from where it stands.
// A battery limbers to do so ("Equal All units involved will Retire 3" in
// good order ART must LU").
func (b *sim) fallBack(u *sunit, inches int) {
	if u.alive() && u.st != stRouting {
		u.fwd -= inches
		b.limber(u, false)
	}
}

// meleeMod is 001's melee table for a unit against enemy.
func (b *sim) meleeMod(u, enemy *sunit, charging, flanked bool) int {
	k := u.u.Kind
	m := b.status(u) // "Fresh +1", "Spent -1"
	switch {
	case k == HeavyCav:
		m += 2 // "HC +2"
	case k == MediumCav:
		m++ // "DRG or GRD +1": dragoons
	case k == LightCav && u.u.Grade == game.GradeD:
		m-- // "Irregular LC/COI -1"
	case k == Infantry && u.u.Grade == game.GradeA:
		m++ // "DRG or GRD +1": grenadiers
	case k == Battery:
		m -= 2 // "ART ... in the open -2"
	case k == Grenzers && b.f.going == game.Clear:
		m -= 2 // "Irregular LI in the open -2"
	case k == Grenzers:
		m-- // "Irregular LI in Bad Going -1"
	}
	m -= tired(u) // "-1 combat point"
	if flanked || u.limbered > 0 {
		m-- // "Attacked in flank or LU ART -1"
	}
	if b.overlapped(u) {
		m-- // "Both flanks overlapped -1"
	}
	if charging {
		m++ // "Charging/Counter Charging +1"
		if b.woods() && b.atPosition(enemy) && b.f.g[enemy.side][enemy.slot].cover == coverSoft {
			m-- // "Charging uphill or in Woods -1": into the wood's edge
		}
		if b.atPosition(enemy) {
			g := b.f.g[enemy.side][enemy.slot]
			cav := k.IsCavalry()
			switch {
			case g.cover == coverWorks && cav:
				m -= 6 // "Charging a fortification -3 / -6"
			case g.cover == coverWorks:
				m -= 3
			case g.cover == coverHard:
				m -= 2 // "Charging BUA -2"
			case g.obstacle && cav:
				m -= 4 // "Charging over obstacle -2 / -4"
			case g.obstacle:
				m -= 2
			}
		}
	}
	return m
}

// overlapped: the unit's slots on both sides are empty of its own line and
// held by the enemy's.
func (b *sim) overlapped(u *sunit) bool {
	if u.st != stFront {
		return false
	}
	own, en := b.sides[u.side], b.sides[1-u.side]
	for _, k := range []int{u.slot - 1, u.slot + 1} {
		if k < 0 || k >= b.f.width || own.front[k] != nil || b.facing(en, k) == nil {
			return false
		}
	}
	return true
}
