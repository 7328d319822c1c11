package battle

import "github.com/syw-pbem/pbem/game"

// LGG's day's end and result: the commander's casualty check, the
// campaign's army morale count, end-of-day recovery, moments, losses.

// riskGeneral: "The army commander is not a unit. He does not block fire,
// may not be a target ... if the commander is penetrated by an enemy unit of
// any type, he must take a casualty check ... If the result is "1" then the
// commander has been killed or captured". He keeps behind his line, out of
// the way of an enemy taking a unit's ground ("one attacking unit ... must
// occupy the ground held by the defender"); he is run over only when his
// army breaks and the enemy's light cavalry pursues ("If, however, the
// winning side has a greater number of light cavalry SPs on the board, then
// he will pursue"): one casualty check then.
func (b *lgg) riskGeneral(ls *lside) {
	if !ls.chief || lightSP(b.sides[1-ls.idx]) <= lightSP(ls) {
		return
	}
	c := ls.side.Commander
	if b.d10("commander casualty check", c.ID) != 1 {
		return
	}
	ls.chief = false
	ls.skill = max(0, ls.skill-1)
	b.res.Sides[ls.idx].Generals = append(b.res.Sides[ls.idx].Generals, GeneralFate{Nation: c.Nation, Force: c.Force, ID: c.ID, Name: c.Name, Fate: Killed})
	b.moment(Moment{What: MGeneral, Side: ls.idx, General: c.Name, Nation: c.Nation, Outcome: Killed})
}

// lightSP is a side's light cavalry strength standing on the field.
func lightSP(ls *lside) int {
	n := 0
	for _, u := range ls.units {
		if u.kind == LightCav && !u.routed && !u.gone {
			n += u.sp
		}
	}
	return n
}

// lost is the figures the campaign's morale rule counts as lost: routed
// units whole, and the strength points lost by the others.
func (b *lgg) lost(ls *lside) int { return b.count(ls).Lost() }

// count is the campaign's army morale count for a side (ArmyBreak): units
// routed or gone whole (Routed), the strength points lost by the others
// (Eliminated). LGG has no shaken status.
func (b *lgg) count(ls *lside) ArmyBreak {
	c := ArmyBreak{Side: ls.idx, Counted: ls.counted, Gunners: b.r.LandBattles.BreakCountsGunners}
	for _, u := range ls.units {
		if !b.r.LandBattles.BreakCountsGunners && u.kind == Battery {
			continue
		}
		if u.routed || u.gone {
			c.Routed += u.figures
			continue
		}
		c.Eliminated += u.figures * (u.maxSP - u.sp) / max(u.maxSP, 1)
	}
	return c
}

func (b *lgg) intact(i int) int { return b.sides[i].counted - b.lost(b.sides[i]) }

func (b *lgg) pct(ls *lside) int {
	if ls.counted == 0 {
		return 100
	}
	return 100 * b.lost(ls) / ls.counted
}

func (b *lgg) checkBreak(i int) bool {
	ls := b.sides[i]
	lb := b.r.LandBattles
	num, den := max(lb.BreakNum, 1), max(lb.BreakDen, 1)
	if ls.counted > 0 && b.lost(ls)*den < ls.counted*num {
		return false
	}
	ls.broken = true
	b.res.Broken[i] = true
	b.res.Outcome, b.res.Winner = Decisive, 1-i
	c := b.count(ls)
	b.riskGeneral(ls)
	b.moment(Moment{What: MBreak, Side: i, Count: &c})
	if b.res.Turning < 0 {
		for k := len(b.res.Moments) - 2; k >= 0; k-- {
			if notable(b.res.Moments[k].What) && b.res.Moments[k].Side == 1-i {
				b.res.Turning = k
				break
			}
		}
	}
	return true
}

// endOfDay: a free recovery for every unit with hits, then a free rally
// for every routed unit (+2 on the roll for the non-rallyable): a routed
// unit that fails is gone.
func (b *lgg) endOfDay() {
	for _, ls := range b.sides {
		for _, u := range ls.units {
			if u.gone || u.routed || u.sp >= u.maxSP || u.kind == Battery {
				continue
			}
			if b.d10("end of day recovery", u.sub) <= b.morale(u) {
				u.sp++
				u.hitsLost = max(0, u.hitsLost-1)
			}
		}
		for _, u := range ls.units {
			if !u.routed || u.gone {
				continue
			}
			// A battery whose guns the enemy overran has nothing to rally
			// with: "Routed artillery loses its guns".
			if u.taken {
				u.gone = true
				continue
			}
			pen := 0
			if !u.rallyOK {
				pen = 2
			}
			if b.d10("end of day rally", u.sub)+pen <= b.morale(u) {
				u.routed, u.sp = false, 1
			} else {
				u.gone = true
			}
		}
	}
}

func (b *lgg) moment(m Moment) {
	if len(b.res.Moments) >= 60 && m.What != MBreak && m.What != MNightfall && m.What != MGeneral {
		return
	}
	// The moment's tabletop turn: how far through the day's actions it
	// came, on the 16-turn day the narrative tells time by.
	m.Day, m.Turn = b.day, min(16, 1+b.played*16/max(b.length, 1))
	if m.Count != nil {
		m.Count.Day, m.Count.Turn, m.Count.Round = m.Day, m.Turn, b.round
	}
	m.Lost, m.EnemyLost = b.pct(b.sides[m.Side]), b.pct(b.sides[1-m.Side])
	if m.Nation == "" {
		if c := b.sides[m.Side].side.Commander; c != nil {
			m.Nation = c.Nation
		}
	}
	b.res.Moments = append(b.res.Moments, m)
}

// finish spreads each LGG unit's lost strength back over the campaign
// units it was formed from: KilledPerHit percent of a lost strength point's
// figures killed, the rest routed; a unit routed at the end of a lost
// battle, or gone at the end of a day, routed whole.
func (b *lgg) finish() {
	for i, ls := range b.sides {
		sr := &b.res.Sides[i]
		type key struct {
			f game.ForceID
			a game.Arm
			g game.Grade
		}
		agg := map[key]*Casualties{}
		var order []key
		for _, u := range ls.units {
			perSP := u.figures / max(u.maxSP, 1)
			for _, p := range u.parts {
				k := key{p.Force, p.Arm, p.Grade}
				c := agg[k]
				if c == nil {
					c = &Casualties{Nation: p.Nation, Force: p.Force, Arm: p.Arm, Grade: p.Grade}
					agg[k] = c
					order = append(order, k)
				}
				share := p.Figures * u.hitsLost * perSP / max(u.figures, 1)
				share = min(share, p.Figures)
				killed := share * b.p.KilledPerHit / 100
				routed := share - killed
				left := p.Figures - share
				if u.gone || (u.routed && ls.broken) {
					routed += left
				} else if u.sp*2 <= u.maxSP && u.maxSP > 1 {
					c.HalfStrength += left
				}
				c.Killed += killed
				c.Routed += routed
				if u.taken && p.Guns > 0 && b.r.LandBattles.GunsTakenOnField {
					sr.GunsLost = append(sr.GunsLost, GunsLost{Nation: p.Nation, Force: p.Force, Kind: p.GunKind, Count: p.Guns})
				}
			}
		}
		for _, k := range order {
			if c := agg[k]; c.Killed+c.Routed+c.Surrounded+c.HalfStrength > 0 {
				sr.Losses = append(sr.Losses, *c)
			}
		}
	}
	// A campaign hit is a figure killed: each side's hits, counted by arm
	// and grade as its strikes fell, come to the enemy figures killed in
	// the end (strength recovered or rallied was stragglers, not hits).
	for i, ls := range b.sides {
		killed := 0
		for _, c := range b.res.Sides[1-i].Losses {
			killed += c.Killed
		}
		keys := sortedHitKeys(ls.hits)
		total := 0
		for _, k := range keys {
			total += ls.hits[k]
		}
		share := make([]int, len(keys))
		given := 0
		for j, k := range keys {
			if total > 0 {
				share[j] = ls.hits[k] * killed / total
			}
			given += share[j]
		}
		for j := 0; given < killed && total > 0; j = (j + 1) % len(keys) {
			if ls.hits[keys[j]] > 0 {
				share[j]++
				given++
			}
		}
		for j, k := range keys {
			if share[j] > 0 {
				b.res.Sides[i].Hits = append(b.res.Sides[i].Hits, Hits{Nation: k.n, Arm: k.a, Grade: k.g, Hits: share[j]})
			}
		}
	}
}
