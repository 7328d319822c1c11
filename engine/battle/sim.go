package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Simulation is the default battle model: the SYW tabletop rules (001)
// played without a table. See the package comment and docs/battles.md.
type Simulation struct{}

// Name returns "simulation".
func (Simulation) Name() string { return ruleset.BattleSimulation }

// SimParams are the simulation's tunable numbers that the rulebooks do not
// give (the tabletop rules measure in inches; the simulation counts bands and
// slots). docs/battles.md says why each has its value.
type SimParams struct {
	// FiguresPerSP: campaign figures per tabletop strength point (a
	// 12-figure battalion has 6 SP: its six markers before it is gone).
	FiguresPerSP int
	// Flank is how many line slots wider than the smaller side's line the
	// field is: the larger side's overlap on each wing.
	Flank int
	// StartBand: the lines start at long range (18" apart).
	StartBand int
	// CityFiguresPer100: the city's blocks hold 24 figures each, four
	// blocks per 100 crowns of tax value (V4's 8" × 8" for a 100 city).
	CityFiguresPer100 int
	// RouteOffAfter: a unit still routing after this many rally tests has
	// left the table.
	RouteOffAfter int
	// FireMoraleBase is added to a unit's morale index when it tests
	// against fire: on the table only part of a line is under full fire at
	// once; the simulation fires every unit every bound, so each test counts
	// for less.
	FireMoraleBase int
	// SpreadPerBound: the lines do not meet all at once; from the centre the
	// fighting at close range spreads this many slots each way per bound
	// (0: the whole line at once).
	SpreadPerBound int
	// CallOffLoss, CallOffMargin: after the 8th turn a side on attack that
	// has lost CallOffLoss percent of its army (the morale rule's count) and
	// CallOffMargin points more than the enemy calls the attack off.
	CallOffLoss, CallOffMargin int
	// BrigadierReach, CommanderReach: how many slots either side of his
	// unit a general's rally bonus reaches (a genius doubles it).
	BrigadierReach, CommanderReach int
	// ChiefLossReach: how many slots either side of the commander's unit
	// are shaken when he is lost (001: "all units in his chain of command
	// within 18″ are shaken"; a battalion's frontage is 6″, so 3); 0 shakes
	// the whole line. A brigadier lost shakes the units next to him, his
	// brigade.
	ChiefLossReach int
}

// DefaultSimParams are the values docs/battles.md explains.
var DefaultSimParams = SimParams{FiguresPerSP: 2, Flank: 1, StartBand: bandLong, CityFiguresPer100: 96, RouteOffAfter: 2, FireMoraleBase: 4, SpreadPerBound: 1, CallOffLoss: 25, CallOffMargin: 10, BrigadierReach: 1, CommanderReach: 2, ChiefLossReach: 3}

// The range bands between the lines: long (18–27″: only guns reach),
// medium (9–18″: guns and skirmishers), close (within 6″: muskets,
// canister, charges).
const (
	bandClose = iota
	bandMedium
	bandLong
)

type state uint8

const (
	stLine state = iota
	stReserve
	stSkirmish
	stRouting
	stOff
	stDead
	stSurrendered
)

type cover uint8

const (
	coverNone     cover = iota
	coverSoft           // woods and broken ground: −1 to fire at it
	coverObstacle       // the terrain advantage: a wall, a stream, a slope
	coverWorks
	coverCity
)

type sunit struct {
	u          *Unit
	side       int
	maxSP, sp  int
	casSP      int // SP lost to fire and melee hits
	routSP     int // SP lost as rout hits
	st         state
	shaken     bool
	routTests  int
	advanced   bool
	cover      cover
	gunsTaken  bool
	halfMarked bool
	slot       int
	sub        string
}

type general struct {
	c       Commander
	unit    *sunit
	wounds  int
	out     bool
	fate    string
	isChief bool
}

type simSide struct {
	idx       int
	side      *Side
	units     []*sunit
	line      []*sunit // by slot; nil = empty slot
	batt      []*sunit
	skirm     []*sunit
	reserve   []*sunit
	gens      []*general
	chief     *general
	counted   int // figures the morale rule counts
	broken    bool
	hits      map[hitKey]int
	attack    bool
	usedRes   bool
	calledOff bool
	genius    bool
	terrainN  int
	// chiefLost is the fate of the last commander lost, and chiefLostAt
	// the bound (sim.seq) he was lost in.
	chiefLost   string
	chiefLostAt int
}

type hitKey struct {
	n game.NationID
	a game.Arm
	g game.Grade
}

type sim struct {
	r       *ruleset.Ruleset
	p       SimParams
	s       *Setup
	d       Dice
	sides   [2]*simSide
	band    int
	day     int
	turn    int
	weather string
	res     *Result
	lastGap int
	// front: how far from the centre close fighting has spread (slots).
	front int
	// bound is the turn's bound being played (1 or 2); seq counts the
	// bounds of the battle.
	bound, seq int
}

// engaged reports whether a line slot is in the close fight yet.
func (b *sim) engaged(ss *simSide, slot int) bool {
	if b.p.SpreadPerBound <= 0 {
		return true
	}
	c := len(ss.line) / 2
	return abs(slot-c) <= b.front
}

// Fight plays the battle with DefaultSimParams.
func (m Simulation) Fight(r *ruleset.Ruleset, s *Setup, d Dice) *Result {
	return FightSim(r, s, d, DefaultSimParams)
}

// FightSim plays the battle with the given parameters.
func FightSim(r *ruleset.Ruleset, s *Setup, d Dice, p SimParams) *Result {
	b := &sim{r: r, p: p, s: s, d: d, res: &Result{Model: ruleset.BattleSimulation, Winner: -1, Turning: -1}}
	b.weather = rollWeather(d, s)
	b.res.Weather = b.weather
	for i := range s.Sides {
		b.sides[i] = b.deploy(i)
	}
	b.assignCover()
	b.matchups()
	b.placeGenerals()
	days := max(1, s.Days)
	if !r.LandBattles.MultiDay {
		days = 1
	}
	for b.day = 1; b.day <= days; b.day++ {
		b.res.Days = b.day
		if b.day > 1 {
			b.night()
		}
		if b.fightDay() {
			break
		}
		// Nobody broke: nightfall.
		att := b.attackers()
		b.moment(Moment{What: MNightfall, Side: max(0, att)})
		if !r.LandBattles.MultiDay || att < 0 || b.day == days {
			break
		}
		// V4: the attacker goes on next day only while it is no weaker than
		// the enemy; the defender retires free when it is less than half as
		// strong as the attacker.
		ai, di := b.intact(att), b.intact(1-att)
		if di*2 < ai {
			b.res.Outcome, b.res.Winner = Withdrew, 1-att
			b.moment(Moment{What: MWithdraw, Side: 1 - att})
			b.finish()
			return b.res
		}
		if ai < di {
			break
		}
	}
	b.res.undecided(b.attackers())
	b.finish()
	return b.res
}

// attackers returns the side on attack, -2 when both attack, -1 when none.
func (b *sim) attackers() int { return attackingSide(b.sides[0].attack, b.sides[1].attack) }

func rollWeather(d Dice, s *Setup) string {
	switch d.Roll("weather of the day", 6, s.Hex.String()) {
	case 1:
		return "rain"
	case 2:
		return "overcast"
	}
	return "fair"
}

// deploy forms a side: skirmishers (Grenzers always, light infantry at the
// start) ahead, batteries along the line, cavalry on the wings and infantry
// in the centre, the rest in reserve (deployLine decides the width).
func (b *sim) deploy(i int) *simSide {
	sd := &b.s.Sides[i]
	ss := &simSide{idx: i, side: sd, hits: map[hitKey]int{}, attack: sd.Stance == game.Attack}
	for k := range sd.Units {
		u := &sd.Units[k]
		fps := max(b.p.FiguresPerSP, 1)
		su := &sunit{u: u, side: i, sub: u.ID}
		su.maxSP = min(6, ceilDiv(u.Figures, fps))
		if u.Kind == Battery && u.Figures == 0 {
			continue
		}
		su.sp = su.maxSP
		ss.units = append(ss.units, su)
		if b.r.LandBattles.BreakCountsGunners || u.Kind != Battery {
			ss.counted += u.Figures
		}
	}
	if c := sd.Commander; c != nil {
		ss.genius = c.XP >= b.r.LandBattles.GeniusXP && b.r.LandBattles.GeniusXP > 0
	}
	ss.terrainN = sd.TerrainAdvantage
	return ss
}

// assignCover fills each side's line and gives cover: the city's blocks to
// the holder's infantry, fieldworks to a defender's infantry, soft cover on
// broken ground and for the terrain advantage.
func (b *sim) assignCover() {
	var mains [2][]*sunit
	for i, ss := range b.sides {
		for _, u := range ss.units {
			switch {
			case u.u.Kind == Battery:
				ss.batt = append(ss.batt, u)
			case u.u.Kind == Grenzers || u.u.Kind == Light:
				u.st = stSkirmish
				ss.skirm = append(ss.skirm, u)
			default:
				mains[i] = append(mains[i], u)
			}
		}
		if len(mains[i]) == 0 {
			// Only skirmishers and guns: the light troops must stand in line.
			for _, u := range ss.skirm {
				if u.u.Kind == Light {
					u.st = stLine
					mains[i] = append(mains[i], u)
				}
			}
			ss.skirm = slices.DeleteFunc(ss.skirm, func(u *sunit) bool { return u.st == stLine })
		}
		if len(mains[i]) == 0 {
			for _, u := range ss.skirm {
				u.st = stLine
				mains[i] = append(mains[i], u)
			}
			ss.skirm = nil
		}
	}
	width := min(len(mains[0]), len(mains[1])) + 2*b.p.Flank
	for i, ss := range b.sides {
		// Strongest first, cavalry split to the wings.
		m := mains[i]
		slices.SortStableFunc(m, func(a, c *sunit) int { return strength(c) - strength(a) })
		var cav, foot []*sunit
		for _, u := range m {
			if u.u.Kind.IsCavalry() {
				cav = append(cav, u)
			} else {
				foot = append(foot, u)
			}
		}
		n := min(width, len(m))
		// Take cavalry in proportion to its share of the army.
		nc := len(cav) * n / max(len(m), 1)
		if nc == 0 && len(cav) > 0 && len(foot) < n {
			nc = min(len(cav), n-len(foot))
		}
		nf := min(len(foot), n-nc)
		nc = min(len(cav), n-nf)
		var line []*sunit
		left, right := cav[:nc/2], cav[nc/2:nc]
		line = append(line, left...)
		line = append(line, foot[:nf]...)
		line = append(line, right...)
		// Centre the narrower line on the field.
		off := (width - len(line)) / 2
		ss.line = make([]*sunit, width)
		for k, u := range line {
			u.st, u.slot = stLine, off+k
			ss.line[off+k] = u
		}
		ss.reserve = append(append(ss.reserve, foot[nf:]...), cav[nc:]...)
		for _, u := range ss.reserve {
			u.st = stReserve
		}
		for k, u := range ss.batt {
			u.st, u.slot = stLine, off+(k*max(len(line), 1))/max(len(ss.batt), 1)
			if len(line) > 0 {
				u.slot = min(u.slot, off+len(line)-1)
			}
		}
	}
	rough := b.s.Terrain == game.Rough || b.s.Terrain == game.Woods
	for i, ss := range b.sides {
		cityLeft := 0
		if b.s.CitySide == i && b.s.City != "" {
			cityLeft = b.s.CityValue * b.p.CityFiguresPer100 / 100
		}
		works := 0
		if !ss.attack && b.r.LandBattles.FieldworksInchesPerUnit > 0 {
			works = ss.side.Fieldworks / b.r.LandBattles.FieldworksInchesPerUnit
		}
		terrain := ss.terrainN
		// Cover goes to the centre of the line outwards.
		order := centreOut(len(ss.line))
		for _, k := range order {
			u := ss.line[k]
			if u == nil {
				continue
			}
			switch {
			case u.u.Kind.IsFoot() && cityLeft >= u.u.Figures:
				u.cover = coverCity
				cityLeft -= u.u.Figures
			case u.u.Kind.IsFoot() && works > 0:
				u.cover = coverWorks
				works--
			case terrain > 0:
				u.cover = coverObstacle
				terrain--
			case rough && !ss.attack:
				// The defender holds the woods' edge; the attacker comes
				// through them.
				u.cover = coverSoft
			}
		}
	}
}

func centreOut(n int) []int {
	out := make([]int, 0, n)
	c := n / 2
	for d := 0; len(out) < n; d++ {
		if c-d >= 0 && (d == 0 || true) {
			if c-d < n {
				out = append(out, c-d)
			}
		}
		if d > 0 && c+d < n {
			out = append(out, c+d)
		}
		if c-d < 0 && c+d >= n {
			break
		}
	}
	return out
}

// strength orders units for deployment and matchups: morale index at full
// strength, cavalry and grade first.
func strength(u *sunit) int {
	s := u.sp*2 + gradeMorale(u.u.Grade)*3
	if u.u.Kind == HeavyCav {
		s += 3
	}
	if u.u.Tired {
		s -= 3
	}
	return s
}

// matchups: a side with a setup advantage places after seeing the enemy:
// for each point of advantage its strongest line unit goes opposite the
// enemy's weakest.
func (b *sim) matchups() {
	for i, ss := range b.sides {
		adv := ss.side.Advantage
		if adv <= 0 {
			continue
		}
		en := b.sides[1-i]
		var weak []int
		for k, u := range en.line {
			if u != nil && u.cover != coverCity {
				weak = append(weak, k)
			}
		}
		slices.SortStableFunc(weak, func(a, c int) int { return strength(en.line[a]) - strength(en.line[c]) })
		var mine []int
		for k, u := range ss.line {
			if u != nil {
				mine = append(mine, k)
			}
		}
		slices.SortStableFunc(mine, func(a, c int) int { return strength(ss.line[c]) - strength(ss.line[a]) })
		used := map[int]bool{}
		for j := 0; j < adv && j < len(weak) && j < len(mine); j++ {
			src := -1
			for _, k := range mine {
				if !used[k] {
					src = k
					break
				}
			}
			if src < 0 {
				break
			}
			dst := weak[j]
			used[dst] = true
			ss.line[src], ss.line[dst] = ss.line[dst], ss.line[src]
			for _, k := range []int{src, dst} {
				if u := ss.line[k]; u != nil {
					u.slot = k
				}
			}
			used[src] = true
		}
	}
}

// placeGenerals attaches the commander to the centre of the line and spreads
// the brigadiers along it.
func (b *sim) placeGenerals() {
	for _, ss := range b.sides {
		for k, c := range ss.side.Staff {
			g := &general{c: c, isChief: k == 0}
			ss.gens = append(ss.gens, g)
			if k == 0 {
				ss.chief = g
			}
		}
		b.attachGenerals(ss)
	}
}

func (b *sim) attachGenerals(ss *simSide) {
	var line []*sunit
	for _, u := range ss.line {
		if u != nil && u.st == stLine {
			line = append(line, u)
		}
	}
	if len(line) == 0 {
		return
	}
	live := 0
	for _, g := range ss.gens {
		if g.out {
			continue
		}
		if g == ss.chief {
			// The commander steadies the weakest unit of the line.
			w := line[len(line)/2]
			for _, u := range line {
				if b.bmi(u, false) < b.bmi(w, false) {
					w = u
				}
			}
			g.unit = w
			continue
		}
		live++
		g.unit = line[(live*len(line))/(len(ss.gens)+1)%len(line)]
	}
}

// tired is the −1 on morale die rolls of exhausted or unsupplied figures.
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

// bmi is a unit's Basic Morale Index: current strength + grade, −1
// Grenzers, +1/+2 for an attached brigadier/commander (doubled for a
// genius); fireTest adds the fire-test base and the national fire-test
// bonuses. (Tiredness counts on the rally die, not here.)
func (b *sim) bmi(u *sunit, fireTest bool) int {
	m := u.sp + gradeMorale(u.u.Grade)
	if u.u.Kind == Grenzers {
		m--
	}
	if u.u.Kind == Battery {
		m -= 2
	}
	ss := b.sides[u.side]
	for _, g := range ss.gens {
		if g.out || g.unit != u {
			continue
		}
		if g == ss.chief {
			m += 2 * b.geniusMul(ss)
		} else {
			m++
		}
	}
	if fireTest {
		m += b.p.FireMoraleBase
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

func (b *sim) geniusMul(ss *simSide) int {
	if ss.genius && ss.chief != nil && !ss.chief.out {
		return 2
	}
	return 1
}

func (b *sim) status(u *sunit) int {
	lost := (u.maxSP - u.sp) * 6 / max(u.maxSP, 1)
	switch {
	case lost < 2:
		return 1 // fresh
	case lost >= 4:
		return -1 // spent
	}
	return 0
}

func (b *sim) d6(purpose, sub string) int { return b.d.Roll(purpose, 6, sub) }

// fightDay plays one day's tabletop turns; it reports whether an army broke.
func (b *sim) fightDay() bool {
	first := 0
	switch b.attackers() {
	case 1:
		first = 1
	case -2:
		a0, a1 := b.sides[0].side.Advantage, b.sides[1].side.Advantage
		switch {
		case a1 > a0:
			first = 1
		case a0 == a1:
			first = b.d6("who moves first", b.s.Hex.String()) % 2
		}
	}
	b.band, b.front = b.p.StartBand, -1
	for _, ss := range b.sides {
		ss.calledOff = false
	}
	if b.attackers() == -2 && b.band > bandMedium {
		b.band = bandMedium // a meeting engagement: the lines start closer
	}
	turns := max(b.r.LandBattles.TableTurns, 1)
	for b.turn = 1; b.turn <= turns; b.turn++ {
		b.res.Turns = b.turn
		for k := range 2 {
			mover := (first + k) % 2
			b.bound = k + 1
			b.seq++
			b.playBound(mover)
			if b.checkBreak(1 - mover) {
				return true
			}
		}
	}
	return false
}

// playBound is one side's move and the other's fire, in the tabletop order:
// rally, reserves and advance, the enemy's fire and the mover's morale,
// charges and melee.
func (b *sim) playBound(mover int) {
	ms, fs := b.sides[mover], b.sides[1-mover]
	b.rally(ms)
	b.commitReserves(ms)
	b.attachGenerals(ms)
	// After the first 8 turns ("no unit may do any voluntary retreat moves
	// for the first 8 turns") an attack that is going badly is called off:
	// the attacker draws back out of musket range for the rest of the day.
	if ms.attack && !ms.calledOff && b.band == bandClose && b.turn > b.r.LandBattles.NoRetreatTurns {
		if mine, theirs := b.pct(ms), b.pct(fs); mine >= b.p.CallOffLoss && mine >= theirs+b.p.CallOffMargin {
			ms.calledOff = true
			if !fs.attack {
				b.band = bandMedium
			}
			b.moment(Moment{What: MCallOff, Side: mover, Nation: b.leadNation(ms)})
		}
	}
	advancing := ms.attack && !ms.calledOff && b.band > bandClose
	for _, u := range ms.units {
		u.advanced = false
	}
	if advancing {
		b.band--
		for _, u := range ms.units {
			if u.st == stLine || u.st == stSkirmish {
				u.advanced = true
			}
		}
		if b.band == bandClose {
			b.moment(Moment{What: MAdvance, Side: mover, Nation: b.leadNation(ms)})
		}
	}
	if b.band == bandClose {
		b.front += b.p.SpreadPerBound
	}
	b.fire(fs, ms)
	if b.band == bandClose {
		b.charges(ms, fs)
	}
}

// rally tests the mover's shaken and routing units (1d6, +1 for a brigadier
// within reach, +2 for the commander — doubled for a genius).
func (b *sim) rally(ss *simSide) {
	for _, u := range ss.units {
		switch {
		case u.st == stRouting:
			r := b.d6("rally routing unit", u.sub) + b.rallyBonus(ss, u) - tired(u)
			switch {
			case r >= 5:
				u.st, u.shaken, u.routTests = stReserve, true, 0
				ss.reserve = append(ss.reserve, u)
				b.momentUnit(MRally, u, "rallied")
			case r <= 1:
				b.loseSP(u, 1, true)
				u.routTests++
			default:
				u.routTests++
			}
			if u.st == stRouting && u.routTests >= b.p.RouteOffAfter {
				u.st = stOff
			}
		case u.shaken && u.st != stDead && u.st != stOff:
			r := b.d6("rally shaken unit", u.sub) + b.rallyBonus(ss, u) - tired(u)
			switch {
			case r >= 4:
				u.shaken = false
			case r <= 1:
				b.loseSP(u, 1, true)
				b.retire(ss, u)
			default:
				b.retire(ss, u)
			}
		}
	}
}

// retire takes a shaken line unit back into the reserve (it is no longer
// shaken there: "After testing a unit is no longer Shaken").
func (b *sim) retire(ss *simSide, u *sunit) {
	u.shaken = false
	if u.st == stLine && u.u.Kind != Battery {
		ss.line[u.slot] = nil
		u.st = stReserve
		ss.reserve = append(ss.reserve, u)
	}
}

func (b *sim) rallyBonus(ss *simSide, u *sunit) int {
	best := 0
	for _, g := range ss.gens {
		if g.out || g.unit == nil {
			continue
		}
		reach, bonus := b.p.BrigadierReach, 1
		if g == ss.chief {
			reach, bonus = b.p.CommanderReach*b.geniusMul(ss), 2*b.geniusMul(ss)
		}
		d := g.unit.slot - u.slot
		if d < 0 {
			d = -d
		}
		if u.st != stLine {
			d = 0 // the reserve stands behind the commander's centre
			if g != ss.chief {
				continue
			}
		}
		if d <= reach {
			best = max(best, bonus)
		}
	}
	return best
}

// commitReserves fills empty slots of the line from the reserve, steady
// units first.
func (b *sim) commitReserves(ss *simSide) {
	committed := false
	for k := range ss.line {
		if u := ss.line[k]; u != nil && u.st == stLine {
			continue
		}
		ss.line[k] = nil
		idx := -1
		for j, u := range ss.reserve {
			if u.st == stReserve && !u.shaken && u.sp > 0 {
				idx = j
				break
			}
		}
		if idx < 0 {
			continue
		}
		// Only fill slots that face an enemy or flank one.
		u := ss.reserve[idx]
		ss.reserve = slices.Delete(ss.reserve, idx, idx+1)
		u.st, u.slot = stLine, k
		ss.line[k] = u
		committed = true
	}
	ss.reserve = slices.DeleteFunc(ss.reserve, func(u *sunit) bool { return u.st != stReserve })
	// Light infantry leave the screen to fill the line once it is engaged.
	if b.band == bandClose {
		for k := range ss.line {
			if ss.line[k] != nil {
				continue
			}
			for j, u := range ss.skirm {
				if u.u.Kind == Light && u.st == stSkirmish && !u.shaken {
					u.st, u.slot = stLine, k
					ss.line[k] = u
					ss.skirm = slices.Delete(ss.skirm, j, j+1)
					committed = true
					break
				}
			}
		}
	}
	if committed && !ss.usedRes && b.turn > 1 {
		ss.usedRes = true
		b.moment(Moment{What: MReserves, Side: ss.idx, Nation: b.leadNation(ss)})
	}
}

// target returns the enemy line unit facing slot k, or the nearest one (a
// flank), and whether it is taken in the flank.
func (b *sim) target(en *simSide, k int) (*sunit, bool) {
	if k >= 0 && k < len(en.line) {
		if u := en.line[k]; u != nil && u.st == stLine {
			return u, false
		}
	}
	for d := 1; d < len(en.line); d++ {
		for _, j := range []int{k - d, k + d} {
			if j >= 0 && j < len(en.line) {
				if u := en.line[j]; u != nil && u.st == stLine {
					return u, true
				}
			}
		}
	}
	return nil, false
}

// fire: the firing side's batteries, skirmishers and (at close range) line
// infantry shoot; each shot is 2d6 + factors, 7–11 one SP, 12+ two, and the
// target tests morale on the same score.
func (b *sim) fire(fs, ts *simSide) {
	first := true
	for _, u := range fs.batt {
		if u.st != stLine || u.sp <= 0 || u.shaken && b.band == bandLong {
			continue
		}
		mod := 0
		switch b.band {
		case bandLong:
			if u.u.GunKind == game.LightGun {
				continue
			}
			mod = -2
		case bandMedium:
			mod = -1
		case bandClose:
			mod = 1 // canister
		}
		if u.u.GunKind == game.HeavyGun && b.band != bandClose {
			mod++
		}
		tgt, _ := b.target(ts, u.slot)
		if tgt == nil {
			continue
		}
		shots := min(ceilDiv(u.u.Guns, 2), 2)
		for range shots {
			if tgt.st != stLine {
				break
			}
			b.shot(fs, u, tgt, mod, true)
		}
		if first && b.band != bandClose {
			first = false
			b.momentOnce(MCannonade, fs, u, tgt)
		}
	}
	for _, u := range fs.skirm {
		if u.st != stSkirmish || b.band == bandLong {
			continue
		}
		mod := -2
		if b.band == bandClose {
			mod = -1
		}
		var tgt *sunit
		for _, e := range ts.skirm {
			if e.st == stSkirmish {
				tgt = e
				break
			}
		}
		if tgt == nil {
			tgt, _ = b.target(ts, len(ts.line)/2)
		}
		if tgt == nil {
			continue
		}
		b.shot(fs, u, tgt, mod, false)
		b.momentOnce(MSkirmish, fs, u, tgt)
	}
	if b.band != bandClose {
		return
	}
	for _, u := range fs.line {
		if u == nil || u.st != stLine || !u.u.Kind.IsFoot() || u.sp <= 0 || !b.engaged(fs, u.slot) {
			continue
		}
		tgt, _ := b.target(ts, u.slot)
		if tgt == nil {
			continue
		}
		mod := 0
		if u.u.Kind == Light || u.u.Kind == Grenzers {
			mod = -1
		}
		b.shot(fs, u, tgt, mod, false)
		b.momentOnce(MVolley, fs, u, tgt)
	}
}

// shot is one fire test.
func (b *sim) shot(fs *simSide, u, tgt *sunit, mod int, guns bool) {
	score := b.d6("fire", u.sub) + b.d6("fire", u.sub) + mod
	switch b.status(u) {
	case 1:
		score++
	case -1:
		score--
	}
	if u.shaken {
		score--
	}
	switch u.u.Grade {
	case game.GradeA:
		score++
	case game.GradeD:
		score--
	}
	if u.u.Tired {
		score--
	}
	if b.weather == "rain" && !guns {
		score--
	}
	switch tgt.cover {
	case coverSoft, coverObstacle:
		score--
	case coverWorks:
		score -= 3
	case coverCity:
		score -= 2 // hard cover (001: "Target in BUA/hard cover -2")
	}
	sp := 0
	switch {
	case score >= 12:
		sp = 2
	case score >= 7:
		sp = 1
	}
	if sp > 0 && tgt.cover == coverCity {
		// 1752: "losses cut a further 50%"; V4: "All targets in a city are
		// hit on a 6(4-6)" (a 6 for muskets, 4–6 for guns).
		need := 4
		if b.r.LandBattles.MultiDay && !guns {
			need = 6
		}
		if b.d6("hit in the city", tgt.sub) < need {
			sp = 0
		}
	}
	if sp > 0 {
		b.riskFire(tgt)
		b.hit(fs, u, tgt, sp)
	}
	if tgt.st != stLine && tgt.st != stSkirmish {
		return
	}
	if score > b.bmi(tgt, true) && !tgt.shaken {
		tgt.shaken = true
		// Eisenmark: a unit that loses a fire test against steady
		// Eisenmark musketry suffers one extra rout hit.
		if !guns && u.u.Traits.VolleyRoutHit && u.u.Kind.IsFoot() && !u.shaken {
			b.loseSP(tgt, 1, true)
		}
	}
}

// hit takes sp SP off the target as casualties and credits the firer's arm
// and grade with the hits.
func (b *sim) hit(fs *simSide, by, tgt *sunit, sp int) {
	sp = min(sp, tgt.sp)
	if sp <= 0 {
		return
	}
	fs.hits[hitKey{by.u.Nation, by.u.Arm, by.u.Grade}] += sp
	tgt.casSP += sp
	b.afterLoss(tgt, sp)
}

func (b *sim) loseSP(u *sunit, sp int, rout bool) {
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

// leave takes a unit out of the line (routing, dead, surrendered).
func (b *sim) leave(u *sunit, st state) {
	ss := b.sides[u.side]
	if u.st == stLine && u.u.Kind != Battery && u.slot < len(ss.line) && ss.line[u.slot] == u {
		ss.line[u.slot] = nil
	}
	if u.st == stSkirmish {
		ss.skirm = slices.DeleteFunc(ss.skirm, func(x *sunit) bool { return x == u })
	}
	u.st = st
	u.shaken = false
	for _, g := range ss.gens {
		if g.unit == u && !g.out {
			g.unit = nil
		}
	}
}

// charges: at close range the mover's steady line units charge the unit
// facing them (or a battery left bare, or a flank): a side on attack with
// every unit, a defender only against shaken or spent enemies. The charged
// unit tests against its morale index (1d6 + factors ≥ BMI: it routs);
// otherwise melee.
func (b *sim) charges(ms, ds *simSide) {
	for _, u := range slices.Clone(ms.line) {
		if u == nil || u.st != stLine || u.shaken || u.u.Kind == Battery || u.u.Kind == Grenzers || !b.engaged(ms, u.slot) {
			continue
		}
		tgt, flank := b.target(ds, u.slot)
		bare := false
		if t := ds.line[min(u.slot, len(ds.line)-1)]; (t == nil || t.st != stLine) && u.slot < len(ds.line) {
			for _, bt := range ds.batt {
				if bt.st == stLine && bt.slot == u.slot {
					tgt, flank, bare = bt, false, true
				}
			}
		}
		if tgt == nil {
			continue
		}
		weak := tgt.shaken || b.status(tgt) < 0 || bare || flank
		if (!ms.attack || ms.calledOff) && !weak {
			continue
		}
		// A side on attack throws in a unit when its target is weakened,
		// when it is the stronger, or when the day is running out.
		late := b.turn > b.r.LandBattles.NoRetreatTurns
		if ms.attack && !weak && !late && strength(u) < strength(tgt) && !(u.u.Kind.IsCavalry() && !tgt.u.Kind.IsCavalry()) {
			continue
		}
		if tgt.cover == coverCity {
			continue // no assault on a city during a field battle
		}
		b.charge(ms, ds, u, tgt, flank)
	}
}

func (b *sim) charge(ms, ds *simSide, u, tgt *sunit, flank bool) {
	cav, tcav := u.u.Kind.IsCavalry(), tgt.u.Kind.IsCavalry()
	rough := b.s.Terrain == game.Rough || b.s.Terrain == game.Woods
	m := 0
	if tgt.shaken {
		m++
	}
	if flank || tgt.u.Kind == Battery {
		m++
	}
	if cav && !tcav {
		m += 2
	}
	if !cav && tcav {
		m -= 2
	}
	switch tgt.cover {
	case coverObstacle:
		m -= 2
	case coverWorks:
		m -= 3
	}
	if rough && cav {
		m-- // charging in woods
	}
	score := b.d6("charge test", u.sub) + m
	u.advanced = true
	if score >= b.bmi(tgt, false) {
		b.moment(Moment{What: MCharge, Side: ms.idx, Nation: u.u.Nation, Kind: u.u.Kind, Grade: u.u.Grade, Target: tgt.u.Kind, Outcome: "routed"})
		b.riskMelee(tgt, true)
		b.loseSP(tgt, 1, true)
		b.rout(tgt)
		return
	}
	// Melee.
	mine := b.d6("melee", u.sub) + b.meleeMod(u, true, flank, tgt, rough)
	theirs := b.d6("melee", tgt.sub) + b.meleeMod(tgt, false, false, u, rough)
	if flank {
		theirs--
	}
	diff := mine - theirs
	win, lose := u, tgt
	if diff < 0 {
		win, lose, diff = tgt, u, -diff
	}
	ws, ls := b.sides[win.side], b.sides[lose.side]
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
	switch {
	case diff == 1:
		lose.shaken = true
		b.retire(ls, lose)
	case diff == 2:
		b.riskMelee(lose, false)
		b.hit(ws, win, lose, 1)
		if lose.st == stLine {
			lose.shaken = true
			b.retire(ls, lose)
		}
	case diff >= 3:
		b.riskMelee(lose, true)
		b.hit(ws, win, lose, 2)
		b.rout(lose)
	}
}

func (b *sim) meleeMod(u *sunit, charging, flank bool, enemy *sunit, rough bool) int {
	m := 0
	switch b.status(u) {
	case 1:
		m++
	case -1:
		m--
	}
	k := u.u.Kind
	if k == HeavyCav {
		m += 2
	}
	if u.u.Grade == game.GradeA && k != Battery {
		m++
	}
	if k == Grenzers || (k == LightCav && u.u.Grade == game.GradeD) {
		m--
	}
	if k == Battery || (k == Grenzers && !rough) {
		m -= 2
	}
	if k == Grenzers && rough {
		m--
	}
	if u.u.Tired {
		m--
	}
	if charging {
		m++
		if rough {
			m--
		}
		switch enemy.cover {
		case coverWorks:
			if k.IsCavalry() {
				m -= 6
			} else {
				m -= 3
			}
		case coverObstacle:
			if k.IsCavalry() {
				m -= 4
			} else {
				m -= 2
			}
		}
	}
	return m
}

// rout sends a unit running; a battery's guns are taken.
func (b *sim) rout(u *sunit) {
	if u.st == stDead {
		return
	}
	if u.u.Kind == Battery {
		u.gunsTaken = true
		b.moment(Moment{What: MGunsTaken, Side: 1 - u.side, Nation: u.u.Nation, Kind: Battery})
	}
	b.leave(u, stRouting)
	u.routTests = 0
}

// riskFire: a general with a unit that suffers losses from fire throws 2d6:
// 2–3 dead, 4–5 lightly wounded (twice: incapacitated), 6+ unhurt.
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

// riskMelee: with a unit that routs from melee, 2d6: 1–3 dead, 4 captured,
// 5–6 wounded; with one that only suffers losses, 1–3 dead, 4–5 wounded.
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

// generalOut: a general killed, captured or incapacitated shakes "all units
// in his chain of command within 18″": for the commander the units within
// ChiefLossReach slots of his (the whole line when 0, or when he was with
// none), for a brigadier the units next to him; the next general takes
// command.
func (b *sim) generalOut(g *general, fate string) {
	i := b.sideOf(g)
	ss := b.sides[i]
	at := g.unit
	g.out, g.fate, g.unit = true, fate, nil
	b.moment(Moment{What: MGeneral, Side: i, General: g.c.Name, Nation: g.c.Nation, Outcome: fate})
	for _, u := range ss.line {
		if u == nil || u.st != stLine {
			continue
		}
		reach := 1
		if g == ss.chief {
			reach = b.p.ChiefLossReach
		}
		if at == nil || reach <= 0 || abs(u.slot-at.slot) <= reach {
			u.shaken = true
		}
	}
	if g == ss.chief {
		ss.chiefLost, ss.chiefLostAt = fate, b.seq
		ss.chief = nil
		for _, x := range ss.gens {
			if !x.out {
				ss.chief = x
				break
			}
		}
		ss.genius = ss.chief != nil && ss.chief.c.XP >= b.r.LandBattles.GeniusXP && b.r.LandBattles.GeniusXP > 0
	}
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

// lost is the figures the morale rule counts as lost: eliminated, routed off
// or routing, or in shaken status.
func (b *sim) lost(ss *simSide) int { return b.count(ss).Lost() }

// count is the army morale rule's count for a side (ArmyBreak): a unit
// eliminated, routing, routed off, surrendered or shaken counts whole, any
// other the figures of the strength points it lost. A unit still routing
// on the table counts with the routed ("in flight": it is at least
// shaken).
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
		case u.shaken:
			c.Shaken += rest
		}
	}
	return c
}

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

// checkBreak applies the edition's army morale rule to a side.
func (b *sim) checkBreak(i int) bool {
	ss := b.sides[i]
	lb := b.r.LandBattles
	num, den := max(lb.BreakNum, 1), max(lb.BreakDen, 1)
	if b.lost(ss)*den < ss.counted*num && ss.counted > 0 {
		b.trackTurning()
		return false
	}
	ss.broken = true
	b.res.Broken[i] = true
	b.res.Outcome, b.res.Winner = Decisive, 1-i
	c := b.count(ss)
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

// night (V4 multi-day): units regroup; the routing and the shaken come
// back; the lines part to long range.
func (b *sim) night() {
	for _, ss := range b.sides {
		ss.chiefLost = ""
		for _, u := range ss.units {
			if u.st == stRouting {
				u.st = stReserve
				ss.reserve = append(ss.reserve, u)
			}
			u.shaken = false
		}
		b.commitReserves(ss)
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

// finish turns the field into the result: surrender of the beaten side's
// routing units where the winner overlaps its line (001's surrender test:
// 4+ foot, 5+ mounted), losses by stack, guns taken, hits, generals.
func (b *sim) finish() {
	res := b.res
	if res.Turning < -1 {
		res.Turning = -2 - res.Turning
		// The first notable moment from there on.
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
				if u.st != stRouting {
					continue
				}
				need := 4
				if u.u.Kind.IsCavalry() {
					need = 5
				}
				if b.d6("surrender", u.sub) >= need {
					u.st = stSurrendered
				}
			}
		}
	}
	fps := max(b.p.FiguresPerSP, 1)
	_ = fps
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
			routed := figs * u.routSP / max(u.maxSP, 1)
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
			if u.gunsTaken && u.u.Guns > 0 {
				sr.GunsLost = append(sr.GunsLost, GunsLost{Nation: u.u.Nation, Force: u.u.Force, Kind: u.u.GunKind, Count: u.u.Guns})
			}
		}
		for _, k := range order {
			if c := agg[k]; c.Killed+c.Routed+c.Surrounded+c.HalfStrength > 0 {
				sr.Losses = append(sr.Losses, *c)
			}
		}
		for _, k := range sortedHitKeys(ss.hits) {
			sr.Hits = append(sr.Hits, Hits{Nation: k.n, Arm: k.a, Grade: k.g, Hits: ss.hits[k]})
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
	for _, u := range ss.line {
		if u != nil && u.st == stLine {
			n++
		}
	}
	return n
}
