package battle

import "github.com/syw-pbem/pbem/game"

// Fire (001 4.0–5.0): the firing player's units fire at the mover's units in
// range and arc, 2d6 + factors, "7-11 target unit loses 1 SP, 12+ target
// unit loses 2 SP"; "The same, modified result is used to check the target
// units Morale": the mover's unit is shaken when the score exceeds its
// morale index.

// fire: every unit of fs that has a target of ts in range fires once
// ("Firing Player's units may fire at enemy units": one 2d6 a unit). A
// battery is one unit whatever its guns: the campaign forms its units at
// the start of a battle ("infantry battalions and cavalry regiments must be
// 12 figures strong, guns must start with 4 gunners per model and 2-4 guns
// per battery"), and 001's ART unit is one ("ART units are made up of 2 gun
// bases & 2 limber bases"); its guns are its strength (4 gunners a gun),
// not more fire rolls (SimParams.GunsPerRoll 0; a referee may read a gun
// model as one of 001's gun bases instead). A battery limbered — retiring, or not yet deployed
// again — does not fire.
func (b *sim) fire(fs, ts *simSide) {
	for _, u := range fs.units {
		u.firedOut = false
	}
	for _, u := range fs.batt {
		if u.st != stBattery || u.sp <= 0 || u.limbered > 0 {
			continue
		}
		rolls := 1
		if n := b.p.GunsPerRoll; n > 0 {
			rolls = max(1, ceilDiv(u.u.Guns, n))
		}
		for range rolls {
			if !b.fireOne(fs, ts, u, MCannonade) {
				break
			}
		}
	}
	for _, u := range fs.skirm {
		if u.st == stSkirmish {
			b.fireOne(fs, ts, u, MSkirmish)
		}
	}
	for _, u := range fs.front {
		if u == nil || u.st != stFront || !u.u.Kind.IsFoot() || u.sp <= 0 {
			continue
		}
		// 1752: troops in the city hold their fire, and are immune to hits,
		// while their side stands on the defensive.
		if b.inCity(u) && !b.r.LandBattles.MultiDay && !fs.attack {
			continue
		}
		b.fireOne(fs, ts, u, MVolley)
	}
}

// fireOne fires u at its target, if it has one in range, and tells the
// first of its kind each day (a cannonade only at range); it reports
// whether it fired.
func (b *sim) fireOne(fs, ts *simSide, u *sunit, what string) bool {
	tgt, g, reduced := b.targetOf(u, ts)
	if tgt == nil {
		return false
	}
	guns := u.u.Kind == Battery
	var mod int
	var ok bool
	if guns {
		mod, ok = b.gunRange(u, g)
	} else {
		mod, ok = b.musketRange(u, g)
	}
	if !ok {
		return false
	}
	if reduced {
		mod-- // "Reduced Fire -1"
	}
	b.shot(fs, u, tgt, mod, guns)
	if !guns || g > 9 {
		b.momentOnce(what, fs, u, tgt)
	}
	return true
}

// targetOf picks what a unit fires at: the nearest of the enemy's units in
// its own slot (first line, skirmishers, a battery), for guns else the
// nearest in a slot beside it. Batteries stand in the intervals of
// the line and fire through them ("Needs gap of 2 bases to fire through"),
// so their own line does not mask them.
func (b *sim) targetOf(u *sunit, ts *simSide) (*sunit, int, bool) {
	var best *sunit
	bestGap, bestReduced := 1<<30, false
	consider := func(t *sunit, reduced bool) {
		if t == nil || t.sp <= 0 {
			return
		}
		g := b.gap(u, t)
		if g < bestGap || g == bestGap && bestReduced && !reduced {
			best, bestGap, bestReduced = t, g, reduced
		}
	}
	for _, k := range []int{u.slot, u.slot - 1, u.slot + 1} {
		if k < 0 || k >= b.f.width {
			continue
		}
		// Muskets fire straight ahead ("For Muskets, draw a line
		// perpendicular from the centre of the firing unit"): a slot
		// beside is out of their arc and range. Guns' arc ("Art 30o
		// either side of centre of unit 45o cannister") takes in the
		// slots beside at 6" and more.
		if k != u.slot && (u.u.Kind != Battery || b.gapTo(u, ts, k) < b.p.FrontageInches) {
			continue
		}
		reduced := false
		consider(b.facing(ts, k), reduced)
		for _, s := range ts.skirm {
			if s.st == stSkirmish && s.slot == k {
				consider(s, reduced)
			}
		}
		for _, s := range ts.batt {
			if s.st == stBattery && s.slot == k {
				consider(s, reduced)
			}
		}
		if best != nil && bestGap <= 27 && !bestReduced {
			break
		}
	}
	return best, bestGap, bestReduced
}

// gapTo is the distance from u to the enemy's first line in slot k (its
// position when the slot is empty).
func (b *sim) gapTo(u *sunit, ts *simSide, k int) int {
	if e := b.facing(ts, k); e != nil {
		return b.gap(u, e)
	}
	return b.p.SetupInches - u.fwd
}

// musketRange: line infantry "0"- 6""; light infantry short "0"- 6"" (−1),
// long "6"- 9"" (−2, "LI long range"). In a wooded hex the defender holds
// the wood's edge and fires out of it, and is fired at, at full range
// ("Only units directly on the edge of a Wood & firing out can fire & be
// fired at using full range").
func (b *sim) musketRange(u *sunit, g int) (int, bool) {
	light := u.u.Kind == Light || u.u.Kind == Grenzers
	switch {
	case light && g <= 6:
		return -1, true
	case light:
		return -2, g <= 9
	}
	return 0, g <= 6
}

// gunRange: field guns canister "0"- 6"" (+1 "only used when no Friendly
// units in arc of fire, otherwise Ball at +0"), short "0"- 9"", medium
// "9"-18"" (−1), long "18"-27"" (−2); light (horse) guns 4", 6", 15", 24";
// heavy guns as field guns (001 has no range row of their own).
func (b *sim) gunRange(u *sunit, g int) (int, bool) {
	can, short, med, long := 6, 9, 18, b.longRange(u)
	if u.u.GunKind == game.LightGun {
		can, short, med = 4, 6, 15
	}
	switch {
	case g > long:
		return 0, false
	case g <= can && !b.friendsAhead(u):
		return 1, true
	case g <= short:
		return 0, true
	case g <= med:
		return -1, true
	}
	return -2, true
}

// longRange is the farthest a battery reaches ("Long 18"-27"" field
// guns, "18"- 24"" horse guns).
func (b *sim) longRange(u *sunit) int {
	if u.u.GunKind == game.LightGun {
		return 24
	}
	return 27
}

// friendsAhead: a friendly unit stands in the battery's arc.
func (b *sim) friendsAhead(u *sunit) bool {
	for _, k := range []int{u.slot - 1, u.slot, u.slot + 1} {
		if k >= 0 && k < b.f.width {
			if f := b.sides[u.side].front[k]; f != nil && f.st == stFront && f.fwd > u.fwd {
				return true
			}
		}
	}
	return false
}

// shot is one fire test.
func (b *sim) shot(fs *simSide, u, tgt *sunit, mod int, guns bool) {
	u.firedOut = true
	score := b.d6("fire", u.sub) + b.d6("fire", u.sub) + mod
	score += b.status(u) // "Fresh +1", "Spent -1"
	if u.shaken {
		score-- // "Shaken -1"
	}
	switch u.u.Grade {
	case game.GradeA:
		score++ // "GRD +1"
	case game.GradeD:
		score-- // "MIL -1"
	}
	score -= tired(u) // unsupplied or exhausted: "-1 on shooting"
	cov := b.coverOf(tgt)
	switch cov {
	case coverSoft:
		score-- // "Target in Woods/soft cover -1"
	case coverHard:
		score -= 2 // "Target in BUA/hard cover -2"
	case coverWorks:
		score -= 3 // "Target in Fortifications -3"
	}
	sp := 0
	switch {
	case score >= 12:
		sp = 2
	case score >= 7:
		sp = 1
	}
	// "ART ball or HWZ shell can damage buildings/works by reducing their
	// SP whether troops are in them or not. Use the same 2d6 ... Don't use
	// the modifier for cover when working out for the building damage".
	if guns && (cov == coverWorks || cov == coverHard) {
		raw := score
		if cov == coverWorks {
			raw += 3
		} else {
			raw += 2
		}
		g := &b.f.g[tgt.side][tgt.slot]
		switch {
		case raw >= 12:
			g.sp -= 2
		case raw >= 7:
			g.sp--
		}
		if g.sp <= 0 {
			*g = ground{}
		}
	}
	test := true
	// The city's rules are for every target in it: its foot in the blocks
	// and its guns on the walls ("The defender may place any artillery in
	// the city on the walls", 1752; "one gun in each perimeter town block",
	// V4).
	if cov == coverCity && (tgt.u.Kind.IsFoot() || tgt.u.Kind == Battery) {
		sp, test, score = b.cityHits(u, tgt, score, guns)
	}
	if sp > 0 {
		b.riskFire(tgt)
		b.hit(fs, u, tgt, sp)
	}
	if !test || tgt.st != stFront && tgt.st != stSkirmish && tgt.st != stBattery {
		return
	}
	if score > b.bmi(tgt, true) && !tgt.shaken {
		tgt.shaken, tgt.provisonal = true, false
		// Eisenmark: "If a unit loses a fire test when hit by steady
		// Eisenmark musketry, it suffers 1 extra rout hit."
		if !guns && u.u.Traits.VolleyRoutHit && u.u.Kind.IsFoot() && !u.shaken {
			b.loseSP(tgt, 1)
		}
	}
}

// cityHits is fire at troops in a city, by the edition's rule. 1752:
// "Troops in the city are immune to hits if they did not fire out on their
// prior active turn. If they did fire they may be shot at as hard cover
// targets, but with losses cut a further 50%": hard cover (−2) on the fire
// table, then each point of loss stands on a D6 of 4–6. V4: "All targets
// in a city are hit on a 6(4-6) regardless of other factors": one D6, a 6
// for small arms and 4–6 for guns, takes 1 SP, and no other factor — nor
// the fire table's morale test — applies.
func (b *sim) cityHits(u, tgt *sunit, score int, guns bool) (sp int, test bool, _ int) {
	if b.r.LandBattles.MultiDay {
		need := 6
		if guns {
			need = 4
		}
		if b.d6("fire at the city", u.sub) >= need {
			return 1, false, score
		}
		return 0, false, score
	}
	if !tgt.firedOut {
		return 0, false, score
	}
	score -= 2
	switch {
	case score >= 12:
		sp = 2
	case score >= 7:
		sp = 1
	}
	kept := 0
	for range sp {
		if b.d6("losses in the city", tgt.sub) >= 4 {
			kept++
		}
	}
	return kept, true, score
}

// hit takes sp SP off the target as casualties and credits the firer's arm
// and grade with the figures killed: a campaign "hit" is a figure.
func (b *sim) hit(fs *simSide, by, tgt *sunit, sp int) {
	sp = min(sp, tgt.sp)
	if sp <= 0 {
		return
	}
	tgt.casSP += sp
	killed := tgt.u.Figures * tgt.casSP / max(tgt.maxSP, 1)
	fs.hits[hitKey{by.u.Nation, by.u.Arm, by.u.Grade}] += killed - tgt.killed
	tgt.killed = killed
	b.afterLoss(tgt, sp)
}

// loseSP takes sp SP off a unit as rout hits.
func (b *sim) loseSP(u *sunit, sp int) {
	sp = min(sp, u.sp)
	if sp <= 0 {
		return
	}
	u.routSP += sp
	b.afterLoss(u, sp)
}

func (b *sim) afterLoss(u *sunit, sp int) {
	u.sp -= sp
	if u.sp*2 <= u.maxSP {
		u.halfMarked = true
	}
	if u.sp <= 0 {
		b.leave(u, stDead)
	}
}

// leave takes a unit out of the fight (routing, destroyed, surrendered).
func (b *sim) leave(u *sunit, st state) {
	ss := b.sides[u.side]
	switch u.st {
	case stFront:
		if ss.front[u.slot] == u {
			ss.front[u.slot] = nil
		}
	case stSkirmish:
		for k, x := range ss.skirm {
			if x == u {
				ss.skirm = append(ss.skirm[:k], ss.skirm[k+1:]...)
				break
			}
		}
	case stBattery:
		for k, x := range ss.batt {
			if x == u {
				ss.batt = append(ss.batt[:k], ss.batt[k+1:]...)
				break
			}
		}
	}
	u.st = st
	u.shaken, u.provisonal, u.retiring = false, false, false
}

// rout sends a unit running ("Routing units move directly away"); a
// routed battery's crew runs and its guns stand abandoned ("When ART Routs
// the Crew run away & the Gun is deemed Captured by the Winner").
func (b *sim) rout(u *sunit) {
	if !u.alive() || u.st == stRouting {
		return
	}
	if u.u.Kind == Battery {
		u.gunsTaken = true
		b.moment(Moment{What: MGunsTaken, Side: 1 - u.side, Nation: u.u.Nation, Kind: Battery})
	}
	b.leave(u, stRouting)
	u.routed, u.routTests = 0, 0
}
