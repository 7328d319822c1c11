package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// LGG is La Grande Guerre's big-battle resolution adapted to the campaign:
// the campaign's battalions grouped into LGG's divisions (four infantry
// battalions, three cavalry regiments or two batteries to a unit, one
// strength point each), command dice by the commander's experience, rounds
// of actions until the season's day length is played, d10 combat totals,
// artillery bombardment, rally and recovery, and the campaign's own army
// morale rule and post-battle rules in place of LGG's pursuit. See
// docs/battles.md for what was adapted and why.
type LGG struct{}

// Name returns "lgg".
func (LGG) Name() string { return ruleset.BattleLGG }

// LGGParams are the adaptation's numbers (docs/battles.md).
type LGGParams struct {
	// InfantryPerUnit, CavalryPerUnit, BatteriesPerUnit: campaign units to
	// an LGG unit (LGG's 4 SP infantry, 3 SP cavalry, 1 SP artillery).
	InfantryPerUnit, CavalryPerUnit, BatteriesPerUnit int
	// KilledPerHit is the share (in percent) of a lost strength point's
	// figures that are killed; the rest straggled (routed).
	KilledPerHit int
	// Approach: increments of movement from the setup zones to contact
	// (the zones are 18″ apart: one 18″ cavalry increment, two 12″
	// infantry increments).
	InfantryApproach, CavalryApproach int
	// MaxUnits: a side of more LGG units forms bigger ones (LGG's armies
	// are a dozen or so divisions); 0 for no limit.
	MaxUnits int
}

// DefaultLGGParams are the values docs/battles.md explains.
var DefaultLGGParams = LGGParams{InfantryPerUnit: 4, CavalryPerUnit: 3, BatteriesPerUnit: 2, KilledPerHit: 35, InfantryApproach: 2, CavalryApproach: 1, MaxUnits: 16}

// cv is a unit type's Combat Values: attacking and defending, against foot
// or artillery and against cavalry. Line infantry's are LGG's own (4/4,
// 1/4); the others are graded from it (our copy of LGG lacks its table).
type cv struct{ atkFoot, defFoot, atkCav, defCav int }

var lggCV = map[Kind]cv{
	Infantry:  {4, 4, 1, 4},
	Light:     {3, 3, 1, 3},
	Grenzers:  {2, 2, 1, 2},
	HeavyCav:  {5, 2, 5, 4},
	MediumCav: {4, 2, 4, 3},
	LightCav:  {3, 1, 3, 3},
	Battery:   {0, 3, 0, 3},
}

type lunit struct {
	parts    []*Unit
	side     int
	kind     Kind
	grade    game.Grade
	maxSP    int
	sp       int
	hitsLost int // SP lost (killed + stragglers) not recovered
	routed   bool
	rallyOK  bool
	gone     bool // eliminated at the end of the day
	approach int  // increments still to march before contact
	figures  int
	guns     int
	taken    bool
	tired    bool
	sub      string
}

type lside struct {
	idx     int
	side    *Side
	units   []*lunit
	attack  bool
	skill   int // 0 poor, 1 average, 2 good, 3 great
	counted int
	hits    map[hitKey]int
	chief   bool
	broken  bool
}

type lgg struct {
	r      *ruleset.Ruleset
	p      LGGParams
	s      *Setup
	d      Dice
	sides  [2]*lside
	res    *Result
	day    int
	round  int
	played int
	length int
}

// Fight plays the battle with DefaultLGGParams.
func (LGG) Fight(r *ruleset.Ruleset, s *Setup, d Dice) *Result {
	return FightLGG(r, s, d, DefaultLGGParams)
}

// FightLGG plays the battle with the given parameters.
func FightLGG(r *ruleset.Ruleset, s *Setup, d Dice, p LGGParams) *Result {
	b := &lgg{r: r, p: p, s: s, d: d, res: &Result{Model: ruleset.BattleLGG, Winner: -1, Turning: -1}}
	b.res.Weather = rollWeather(d, s)
	// LGG is played with armies of a dozen or so divisions ("A good base is
	// 400 points ... a typical Napoleonic army of about 60,000 men"): when
	// the larger side would field more than MaxUnits, both sides form
	// bigger units alike, so that a unit stays worth the same on either.
	scale := 1
	for b.p.MaxUnits > 0 && max(len(b.group(0, scale)), len(b.group(1, scale))) > b.p.MaxUnits {
		scale++
	}
	for i := range s.Sides {
		b.sides[i] = b.form(i, scale)
	}
	days := max(1, s.Days)
	if !r.LandBattles.MultiDay {
		days = 1
	}
	for b.day = 1; b.day <= days; b.day++ {
		b.res.Days = b.day
		if b.fightDay() {
			break
		}
		att := b.attacker()
		b.moment(Moment{What: MNightfall, Side: max(0, att)})
		b.endOfDay()
		if !r.LandBattles.MultiDay || att == -1 || b.day == days {
			break
		}
		if !b.res.afterDay(att, b.intact) {
			if w := b.res.withdrawnSide(); w >= 0 {
				b.moment(Moment{What: MWithdraw, Side: w})
			}
			break
		}
	}
	b.res.undecided(b.attacker())
	b.finish()
	return b.res
}

// attacker returns the side on attack, -2 when both attack, -1 when none.
func (b *lgg) attacker() int { return attackingSide(b.sides[0].attack, b.sides[1].attack) }

// form groups a side's campaign units into LGG units: consecutive units of
// one force, kind, grade and tiredness, four battalions (three regiments,
// two batteries) to a unit.
func (b *lgg) form(i, scale int) *lside {
	sd := &b.s.Sides[i]
	ls := &lside{idx: i, side: sd, attack: sd.Stance == game.Attack, hits: map[hitKey]int{}}
	switch c := sd.Commander; {
	case c == nil:
		ls.skill = 0
	case c.XP >= b.r.LandBattles.GeniusXP && b.r.LandBattles.GeniusXP > 0:
		ls.skill = 3
	case c.XP >= 1:
		ls.skill = 2
	default:
		ls.skill = 1
	}
	ls.chief = sd.Commander != nil
	ls.units = b.group(i, scale)
	for _, u := range ls.units {
		// "An infantry unit has 4SPs, a cavalry unit has 3SPs, and an
		// artillery unit has 1SP."
		u.maxSP = ceilDiv(len(u.parts), scale)
		switch {
		case u.kind.IsCavalry():
			u.maxSP = ceilDiv(len(u.parts), scale)
		case u.kind == Battery:
			u.maxSP = 1
		}
		u.sp = u.maxSP
		u.approach = b.p.InfantryApproach
		if u.kind.IsCavalry() {
			u.approach = b.p.CavalryApproach
		}
		if !ls.attack {
			u.approach = 0
		}
		if b.r.LandBattles.BreakCountsGunners || u.kind != Battery {
			ls.counted += u.figures
		}
	}
	// The setup advantage: a side that saw the enemy deploy closes faster.
	if sd.Advantage > 0 && ls.attack {
		for _, u := range ls.units {
			u.approach = max(0, u.approach-1)
		}
	}
	return ls
}

// group forms a side's LGG units: consecutive campaign units of one force,
// kind, grade and tiredness, scale times InfantryPerUnit battalions
// (CavalryPerUnit regiments, BatteriesPerUnit batteries) to a unit.
func (b *lgg) group(i, scale int) []*lunit {
	sd := &b.s.Sides[i]
	var out []*lunit
	var cur *lunit
	for k := range sd.Units {
		u := &sd.Units[k]
		if u.Figures == 0 {
			continue
		}
		per := b.p.InfantryPerUnit
		switch {
		case u.Kind.IsCavalry():
			per = b.p.CavalryPerUnit
		case u.Kind == Battery:
			per = b.p.BatteriesPerUnit
		}
		if cur == nil || cur.kind != u.Kind || cur.grade != u.Grade || cur.tired != u.Tired || cur.parts[0].Force != u.Force || len(cur.parts) >= per*scale {
			cur = &lunit{side: i, kind: u.Kind, grade: u.Grade, tired: u.Tired, sub: u.ID}
			out = append(out, cur)
		}
		cur.parts = append(cur.parts, u)
		cur.figures += u.Figures
		cur.guns += u.Guns
	}
	return out
}

func (b *lgg) morale(u *lunit) int {
	m := map[game.Grade]int{game.GradeA: 8, game.GradeB: 7, game.GradeC: 6, game.GradeD: 4}[u.grade]
	if u.kind == Grenzers {
		m = 4
	}
	if u.tired {
		m--
	}
	return m
}

func (b *lgg) d10(purpose, sub string) int { return b.d.Roll(purpose, 10, sub) }
func (b *lgg) d6(purpose, sub string) int  { return b.d.Roll(purpose, 6, sub) }

// command rolls a side's command dice: Poor d10, Average 2d6, Good
// d10+d6, Great 2d10.
func (b *lgg) command(ls *lside) int {
	sub := b.s.Hex.String()
	switch ls.skill {
	case 0:
		return b.d10("command dice", sub)
	case 1:
		return b.d6("command dice", sub) + b.d6("command dice", sub)
	case 2:
		return b.d10("command dice", sub) + b.d6("command dice", sub)
	}
	return b.d10("command dice", sub) + b.d10("command dice", sub)
}

func dayLength(month int) int {
	switch {
	case month >= 4 && month <= 5:
		return 100
	case month >= 6 && month <= 8:
		return 140
	case month >= 9 && month <= 10:
		return 120
	}
	return 80
}

// fightDay plays rounds until the day's length in actions is played; it
// reports whether an army broke.
func (b *lgg) fightDay() bool {
	length := dayLength(b.s.Month)
	b.length, b.played = length, 0
	first := -1
	for b.round = 1; b.played < length; b.round++ {
		c0, c1 := b.command(b.sides[0]), b.command(b.sides[1])
		order := [2]int{0, 1}
		switch {
		case c1 > c0, c1 == c0 && first == 1:
			order = [2]int{1, 0}
		}
		first = order[0]
		// An army of more than eight units acts through wing commanders:
		// its command roll counts once per eight units standing.
		acts := [2]int{c0 * wings(b.sides[0]), c1 * wings(b.sides[1])}
		for _, i := range order {
			b.act(b.sides[i], b.sides[1-i], acts[i])
		}
		b.played += c0 + c1
		switch b.res.Weather {
		case "rain":
			b.played += 2
		case "overcast":
			b.played++
		}
		b.res.Turns = b.round
		for _, i := range order {
			if b.checkBreak(1 - i) {
				return true
			}
		}
	}
	return false
}

// act spends a side's actions: rally the routed within reach, bombard,
// march on, attack (a side on attack with everything it has in contact, a
// defender against weakened enemies), recover hits in the rear.
func (b *lgg) act(me, en *lside, actions int) {
	for _, u := range me.units {
		if actions <= 0 {
			return
		}
		if u.routed && u.rallyOK && !u.gone && !u.taken {
			actions--
			if b.d10("rally", u.sub) <= b.morale(u) {
				u.routed = false
				u.sp = 1
				b.moment(Moment{What: MRally, Side: me.idx, Nation: u.parts[0].Nation, Kind: u.kind, Grade: u.grade, Outcome: "rallied"})
			}
		}
	}
	for _, u := range me.units {
		if actions <= 0 {
			return
		}
		if u.kind != Battery || u.routed || u.gone || b.rough() {
			continue
		}
		t := b.gunTarget(en)
		if t == nil {
			continue
		}
		actions--
		b.bombard(me, u, t)
	}
	for _, u := range me.units {
		if actions <= 0 {
			return
		}
		if u.routed || u.gone || u.kind == Battery || u.approach == 0 {
			continue
		}
		// One increment per activation: no attrition check for the
		// increment itself (8.3 checks only increments beyond the first),
		// but one for moving through Rough terrain (8.4 f: "moves through
		// Rough terrain, it must take an attrition check").
		actions--
		u.approach--
		if b.rough() {
			b.attrition(u)
		}
		if u.approach == 0 && !slices.ContainsFunc(b.res.Moments, func(m Moment) bool { return m.What == MAdvance && m.Side == me.idx && m.Day == b.day }) {
			b.moment(Moment{What: MAdvance, Side: me.idx, Nation: u.parts[0].Nation})
		}
	}
	ready := func(u *lunit) bool {
		return !u.routed && !u.gone && u.kind != Battery && u.approach == 0 && !(u.kind == HeavyCav && b.rough())
	}
	used := map[*lunit]bool{}
	for _, u := range me.units {
		if actions < 1 {
			break
		}
		if !ready(u) || used[u] {
			continue
		}
		t := b.target(en, u)
		if t == nil {
			continue
		}
		if !me.attack && t.sp*2 > t.maxSP {
			continue
		}
		used[u] = true
		actions-- // move to contact; the combat is resolved at the round's end
		// A side with more units standing than the enemy brings a second
		// unit against the same defender (LGG's 2–1 attack, its most).
		var p *lunit
		if standing(me) > standing(en) && actions > 0 {
			for _, x := range me.units {
				if x != u && ready(x) && !used[x] {
					p = x
					break
				}
			}
			if p != nil {
				used[p] = true
				actions--
			}
		}
		b.attack(me, en, u, p, t)
	}
	for _, u := range me.units {
		if actions <= 0 {
			return
		}
		// Recovery only more than 6″ from the enemy: units still marching
		// up, or everyone before the enemy has come on.
		far := u.approach > 0 || !en.attack && !me.attack || en.attack && !engaged(en)
		if !u.routed && !u.gone && u.sp < u.maxSP && u.kind != Battery && far {
			actions--
			if b.d10("recovery", u.sub) <= b.morale(u) {
				u.sp++
				u.hitsLost = max(0, u.hitsLost-1)
			}
		}
	}
}

// target picks the enemy unit a unit engages: the weakest standing enemy
// unit of the kind it would rather fight (none in the city's blocks: no
// assault during a field battle).
func (b *lgg) target(en *lside, u *lunit) *lunit {
	var best *lunit
	for _, t := range en.units {
		if t.routed || t.gone || (b.s.CitySide == en.idx && t.inCity(b)) && u.kind != Battery {
			continue
		}
		if best == nil || t.sp < best.sp || t.sp == best.sp && t.kind == Battery && best.kind != Battery {
			best = t
		}
	}
	return best
}

// inCity: the city's blocks hold the holder's first infantry units up to
// the city's capacity (ruleset.CityOnTable.Holds).
func (u *lunit) inCity(b *lgg) bool {
	if b.s.CitySide != u.side || !u.kind.IsFoot() {
		return false
	}
	left := b.r.LandBattles.City.Holds(b.s.CityValue)
	for _, x := range b.sides[u.side].units {
		if !x.kind.IsFoot() {
			continue
		}
		if x.figures > left {
			return false
		}
		left -= x.figures
		if x == u {
			return true
		}
	}
	return false
}

// rough: the hex is rough or wooded: LGG's Rough ("Dense forest, swamp,
// marshland, rocky terrain. This terrain is impassable to artillery,
// vehicles, and heavy cavalry"): guns cannot be brought into action and
// heavy cavalry cannot attack.
func (b *lgg) rough() bool { return b.s.Terrain == game.Rough || b.s.Terrain == game.Woods }

// gunTarget is what a battery fires at: "It must fire on the closest enemy
// infantry or cavalry unit within its frontal perspective. (Potential
// artillery targets may be ignored, if they are closer). If two units are
// equidistant, it may choose": an enemy in contact before one still
// marching up, infantry and cavalry only, the weakest of the nearest.
func (b *lgg) gunTarget(en *lside) *lunit {
	var best *lunit
	for _, t := range en.units {
		if t.routed || t.gone || t.kind == Battery || t.inCity(b) {
			continue
		}
		switch {
		case best == nil, t.approach < best.approach, t.approach == best.approach && t.sp < best.sp:
			best = t
		}
	}
	return best
}

// bombard is an artillery unit's fire: d10 + FP against the target's d10
// (+2 cavalry, +4 artillery, +2 soft cover, +4 hard): higher, one hit;
// double, two. FP: "a 12-pdr heavy unit has FP=2": heavy and field guns
// (the foot batteries) 2, light (horse) guns 1.
func (b *lgg) bombard(me *lside, u, t *lunit) {
	fp := 2
	if u.parts[0].GunKind == game.LightGun {
		fp = 1
	}
	if b.res.Weather == "rain" {
		fp--
	}
	f := max(1, b.d10("bombard", u.sub)+fp)
	def := b.d10("bombard: target", t.sub)
	switch {
	case t.kind.IsCavalry():
		def += 2
	case t.kind == Battery:
		def += 4
	}
	def += b.cover(t, false)
	def = max(1, def)
	if !slices.ContainsFunc(b.res.Moments, func(m Moment) bool { return m.What == MCannonade && m.Side == me.idx }) {
		b.moment(Moment{What: MCannonade, Side: me.idx, Nation: u.parts[0].Nation, Kind: Battery, Grade: u.grade, Target: t.kind})
	}
	switch {
	case f >= 2*def:
		b.hit(me, u, t, 2, false)
	case f > def:
		b.hit(me, u, t, 1, false)
	}
}

// cover is a defender's protection: the city's blocks +4 (hard cover),
// fieldworks +2 (as many of a defender's infantry units as the works'
// length shelters), broken or wooded ground +2 for a defender standing in
// it (soft cover) — 13.0's "+2 Soft cover +4 Hard cover", against fire and
// in combat alike.
func (b *lgg) cover(t *lunit, combat bool) int {
	ls := b.sides[t.side]
	switch {
	case t.inCity(b):
		return 4
	case !ls.attack && b.inWorks(t):
		return 2
	case !ls.attack && b.rough() && !combat:
		return 2
	}
	return 0
}

// attrition is LGG's attrition check (8.3): a d10 at or under the unit's
// morale, or it takes a hit.
func (b *lgg) attrition(u *lunit) {
	if b.d10("attrition check", u.sub) > b.morale(u) {
		b.hit(nil, nil, u, 1, false)
	}
}

// inWorks: the works' length shelters the defender's first foot units,
// FieldworksInchesPerUnit inches for each battalion of an LGG unit (24" of
// V4's works shelter one division; 1752's inch per figure most of a line).
func (b *lgg) inWorks(t *lunit) bool {
	ls := b.sides[t.side]
	per := b.r.LandBattles.FieldworksInchesPerUnit * b.p.InfantryPerUnit
	if !t.kind.IsFoot() || per <= 0 {
		return false
	}
	left := (ls.side.Fieldworks + per/2) / per
	for _, u := range ls.units {
		if !u.kind.IsFoot() || u.inCity(b) {
			continue
		}
		if left <= 0 {
			return false
		}
		if u == t {
			return true
		}
		left--
	}
	return false
}

// attack resolves one combat: the attackers' CVs + d10 + modifiers against
// the defender's; the loser takes hits and falls back, a defender beaten
// two to one routs.
// engaged reports a side on attack with units in contact.
func engaged(ls *lside) bool {
	for _, u := range ls.units {
		if !u.routed && !u.gone && u.kind != Battery && u.approach == 0 {
			return true
		}
	}
	return false
}

func wings(ls *lside) int { return max(1, ceilDiv(standing(ls), 8)) }

func standing(ls *lside) int {
	n := 0
	for _, u := range ls.units {
		if !u.routed && !u.gone && u.kind != Battery {
			n++
		}
	}
	return n
}

// attackValue is a unit's CV in an attack on t, scaled by its strength.
func attackValue(u, t *lunit) int {
	c := lggCV[u.kind]
	a := c.atkFoot
	if t.kind.IsCavalry() {
		a = c.atkCav
	}
	return ceilDiv(a*u.sp, max(u.maxSP, 1)) + gradeMod(u)
}

func (b *lgg) attack(me, en *lside, u, p, t *lunit) {
	tc := lggCV[t.kind]
	dv := tc.defFoot
	if u.kind.IsCavalry() {
		dv = tc.defCav
	}
	dv = ceilDiv(dv*t.sp, max(t.maxSP, 1))
	a := attackValue(u, t)
	if p != nil {
		a += attackValue(p, t)
	}
	a += b.d10("combat", u.sub)
	dv += gradeMod(t) + b.d10("combat", t.sub) + b.cover(t, true)
	if p != nil && p.sp > u.sp {
		u = p // the attacker takes a hit on the stronger unit
	}
	if me.skill == 3 {
		a++
	}
	if en.skill == 3 {
		dv++
	}
	if me.side.TerrainAdvantage > 0 {
		a++
	}
	if en.side.TerrainAdvantage > 0 {
		dv++
	}
	a, dv = max(a, 1), max(dv, 1)
	switch {
	case dv >= 2*a:
		b.hit(en, t, u, 2, true)
		b.moment(Moment{What: MMelee, Side: me.idx, Nation: u.parts[0].Nation, Kind: u.kind, Grade: u.grade, Target: t.kind, Outcome: "lost"})
	case dv >= a:
		b.hit(en, t, u, 1, true)
	case a >= 2*dv:
		what, outcome := MMelee, "won and routed them"
		if u.kind.IsCavalry() {
			what, outcome = MCharge, "routed"
		}
		b.moment(Moment{What: what, Side: me.idx, Nation: u.parts[0].Nation, Kind: u.kind, Grade: u.grade, Target: t.kind, Outcome: outcome})
		b.hit(me, u, t, 1, true)
		if !t.routed {
			b.rout(t, true)
		}
	default:
		b.hit(me, u, t, 1, true)
	}
}

func gradeMod(u *lunit) int {
	m := 0
	switch u.grade {
	case game.GradeA:
		m += 2
	case game.GradeB:
		m++
	case game.GradeD:
		m--
	}
	if u.tired {
		m--
	}
	return m
}

// hit takes n SP off a unit; at none it routs.
func (b *lgg) hit(by *lside, from, t *lunit, n int, combat bool) {
	n = min(n, t.sp)
	if n <= 0 {
		return
	}
	t.sp -= n
	t.hitsLost += n
	if from != nil && by != nil {
		// A campaign hit is a figure: the figures of the lost strength
		// points that were killed.
		by.hits[hitKey{from.parts[0].Nation, from.parts[0].Arm, from.grade}] += n * max(1, t.figures/max(t.maxSP, 1)) * b.p.KilledPerHit / 100
	}
	if t.sp <= 0 {
		b.rout(t, combat)
	}
}

// rout sends a unit off: within the commander's radius (all of the line in
// fair weather, three quarters overcast, half in rain) it may be rallied.
func (b *lgg) rout(t *lunit, combat bool) {
	t.routed = true
	ls := b.sides[t.side]
	idx := slices.Index(ls.units, t)
	reach := len(ls.units)
	switch b.res.Weather {
	case "overcast":
		reach = reach * 3 / 4
	case "rain":
		reach = reach / 2
	}
	t.rallyOK = ls.chief && idx < max(reach, 1)
	if t.kind == Battery && combat {
		t.taken = true
		b.moment(Moment{What: MGunsTaken, Side: 1 - t.side, Nation: t.parts[0].Nation, Kind: Battery})
	}
}
