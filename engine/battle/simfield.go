package battle

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// The field: the positions of each side's line, slot by slot, and what the
// ground gives a unit standing on its position. Cover belongs to the
// ground, not to a unit: the unit that steps into a slot's position takes
// its cover, the unit that leaves it (advancing, charging out, retiring
// behind it) leaves the cover there.

// cover is a position's protection against fire (001's fire factors).
type cover uint8

const (
	coverNone  cover = iota
	coverSoft        // "Target in Woods/soft cover -1"
	coverHard        // "Target in BUA/hard cover -2"
	coverWorks       // "Target in Fortifications -3"
	coverCity        // the city's walls (the editions' own rules)
)

// ground is one position of a side's line.
type ground struct {
	cover cover
	// sp is what is left of works or buildings ("Timber Fieldwork/4 bases
	// 6", "Stone BUA 8"): artillery batters them down, and at none the
	// cover is gone.
	sp int
	// obstacle: the position stands behind an obstacle (the terrain
	// advantage: a wall, a stream, a hedge): "Defender behind obstacle/BUA
	// -2" to the charge test, "Charging over obstacle -2/-4" in melee, and
	// the charger that loses "does not Rout but Retires 6"".
	obstacle bool
}

// field is the battlefield: its width in slots and the ground of each
// side's positions.
type field struct {
	width int
	g     [2][]ground
	// going is the ground between the lines (the hex's terrain): woods
	// shorten the ranges and slow the advance, rough ground slows it.
	going game.Terrain
}

// form makes a side's units from the setup.
func (b *sim) form(i int) *simSide {
	sd := &b.s.Sides[i]
	ss := &simSide{idx: i, side: sd, hits: map[hitKey]int{}, attack: sd.Stance == game.Attack}
	fps := max(b.p.FiguresPerSP, 1)
	for k := range sd.Units {
		u := &sd.Units[k]
		if u.Figures <= 0 || u.Kind == Battery && u.Guns == 0 {
			continue
		}
		su := &sunit{u: u, side: i, sub: u.ID}
		su.maxSP = max(1, min(6, ceilDiv(u.Figures, fps)))
		su.sp = su.maxSP
		ss.units = append(ss.units, su)
		if b.r.LandBattles.BreakCountsGunners || u.Kind != Battery {
			ss.counted += u.Figures
		}
	}
	if c := sd.Commander; c != nil {
		ss.genius = b.r.LandBattles.GeniusXP > 0 && c.XP >= b.r.LandBattles.GeniusXP
	}
	return ss
}

// deploy draws up both sides: skirmishers (Grenzers always, light infantry
// until the lines close) ahead, batteries along the line, the first line of
// main units (cavalry on the wings, infantry in the centre, strongest
// first) and behind it the second line and reserve; then the ground of each
// side's positions.
func (b *sim) deploy() {
	var mains [2][]*sunit
	for i, ss := range b.sides {
		for _, u := range ss.units {
			switch {
			case u.u.Kind == Battery:
				u.st = stBattery
				ss.batt = append(ss.batt, u)
			case u.u.Kind == Grenzers || u.u.Kind == Light:
				u.st = stSkirmish
				ss.skirm = append(ss.skirm, u)
			default:
				mains[i] = append(mains[i], u)
			}
		}
		// An army of light troops alone forms its line of them.
		for _, k := range []Kind{Light, Grenzers} {
			if len(mains[i]) > 0 {
				break
			}
			for _, u := range ss.skirm {
				if u.u.Kind == k {
					mains[i] = append(mains[i], u)
				}
			}
			ss.skirm = slices.DeleteFunc(ss.skirm, func(u *sunit) bool { return u.u.Kind == k })
		}
	}
	lines := max(b.p.Lines, 1)
	firsts := [2]int{}
	for i := range mains {
		firsts[i] = ceilDiv(len(mains[i]), lines)
		// A garrison that the city holds whole stands behind its walls:
		// its first line is the city's front, the rest within the city.
		if b.s.CitySide == i && b.s.City != "" && figuresOf(mains[i]) <= b.r.LandBattles.City.Holds(b.s.CityValue) {
			firsts[i] = min(firsts[i], ceilDiv(b.r.LandBattles.City.FrontInches(b.s.CityValue), max(b.p.FrontageInches, 1)))
		}
	}
	width := max(1, min(firsts[0], firsts[1])+2*b.p.Flank)
	if t := b.p.TableWidthInches / max(b.p.FrontageInches, 1); t > 0 {
		width = min(width, t)
	}
	b.f = &field{width: width, going: b.s.Terrain}
	for i, ss := range b.sides {
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
		// The first line fills the field, but for the second line: at
		// most 1/Lines of the side's main units (a larger side overlaps the
		// smaller's wings with its own first line's surplus).
		n := min(width, firsts[i])
		// Cavalry in proportion to its share of the army, on the wings.
		nc := len(cav) * n / max(len(m), 1)
		if nc == 0 && len(cav) > 0 && len(foot) < n {
			nc = min(len(cav), n-len(foot))
		}
		nf := min(len(foot), n-nc)
		nc = min(len(cav), n-nf)
		var line []*sunit
		line = append(line, cav[:nc/2]...)
		line = append(line, foot[:nf]...)
		line = append(line, cav[nc/2:nc]...)
		off := (width - len(line)) / 2
		ss.front = make([]*sunit, width)
		ss.lineFwd = make([]int, width)
		ss.held = make([]bool, width)
		for k, u := range line {
			u.st, u.slot = stFront, off+k
			ss.front[off+k] = u
			ss.held[off+k] = true
		}
		ss.reserve = append(append(ss.reserve, foot[nf:]...), cav[nc:]...)
		for _, u := range ss.reserve {
			u.st = stReserve
		}
		span := max(len(line), 1)
		for k, u := range ss.batt {
			u.slot = min(off+(k*span+span/2)/max(len(ss.batt), 1), width-1)
		}
		for k, u := range ss.skirm {
			u.slot = min(off+(k*span+span/2)/max(len(ss.skirm), 1), width-1)
			u.fwd = b.p.SecondLineInches // the screen stands a move ahead
		}
	}
	b.matchups()
	b.groundOf()
	b.siteGuns()
}

// siteGuns: a side on attack sites its batteries where it means to strike
// (the enemy's most open positions, away from his guns), to prepare the
// attack ("Art 30o either side of centre"); a defender's stand along its
// line. When both attack, both site their guns at once, each seeing where
// the other's stood at deployment (001's setup is "taking turns" unit by
// unit, not one side's whole artillery after the other's).
func (b *sim) siteGuns() {
	var sites [2][]int
	for i, ss := range b.sides {
		if !ss.attack || len(ss.batt) == 0 {
			continue
		}
		// Every third slot from the point outwards: a battery's arc takes
		// in the slot beside it on either hand.
		for _, k := range b.pointOfAttack(ss, b.sides[1-i]) {
			if !slices.ContainsFunc(sites[i], func(x int) bool { return abs(x-k) < 3 }) {
				sites[i] = append(sites[i], k)
			}
		}
	}
	for i, ss := range b.sides {
		if len(sites[i]) == 0 {
			continue
		}
		for k, u := range ss.batt {
			u.slot = sites[i][k%len(sites[i])]
		}
	}
}

// groundOf gives each side's positions their ground. A side on the
// defensive chose its position on the hex's ground ("If you are on defense:
// I will first send you the hex map and ask you to sketch your desired setup
// zone"; "the referee will decide the terrain for the battlefield"): the
// field is laid in GroundSectors sections of the front, each rolled on the
// hex terrain's ground table (SimParams.Ground). Then the city's blocks go
// to the side holding it (V4's city sizes), a defender's fieldworks
// (FieldworksInchesPerUnit inches a slot) on its most open positions, and
// the terrain advantage (an obstacle before as many positions as it is
// worth) likewise.
func (b *sim) groundOf() {
	w := b.f.width
	lb := b.r.LandBattles
	for i, ss := range b.sides {
		g := make([]ground, w)
		if !ss.attack {
			n := max(1, min(b.p.GroundSectors, w))
			table := b.p.Ground[b.s.Terrain]
			for sec := range n {
				f := groundOpen
				if len(table) == 6 {
					f = table[b.d6("the field", b.s.Hex.String())-1]
				}
				for k := sec * w / n; k < (sec+1)*w/n; k++ {
					g[k] = f.ground()
				}
			}
		}
		order := centreOut(w)
		if b.s.CitySide == i && b.s.City != "" {
			n := ceilDiv(b.r.LandBattles.City.FrontInches(b.s.CityValue), max(b.p.FrontageInches, 1))
			for _, k := range order[:min(n, w)] {
				g[k] = ground{cover: coverCity}
			}
		}
		// The most open positions first.
		open := slices.Clone(order)
		slices.SortStableFunc(open, func(a, c int) int { return g[a].strength() - g[c].strength() })
		works := 0
		if !ss.attack && lb.FieldworksInchesPerUnit > 0 {
			works = ss.side.Fieldworks / lb.FieldworksInchesPerUnit
		}
		for _, k := range open {
			if works == 0 {
				break
			}
			if g[k].cover != coverCity && g[k].cover != coverHard {
				g[k].cover, g[k].sp = coverWorks, 6
				works--
			}
		}
		adv := ss.side.TerrainAdvantage
		for _, k := range open {
			if adv == 0 {
				break
			}
			if g[k].cover != coverCity && !g[k].obstacle {
				g[k].obstacle = true
				if g[k].cover == coverNone {
					g[k].cover = coverSoft
				}
				adv--
			}
		}
		b.f.g[i] = g
	}
}

// feature is what a section of the field holds for the side standing on
// it (001's terrain): open ground; soft cover (a wood's edge, an orchard,
// broken ground: "Target in Woods/soft cover -1"); an obstacle before the
// line (a stream, a wall, a sunken road: soft cover, "Defender behind
// obstacle/BUA -2", "Charging over obstacle -2/-4"); a village ("Target in
// BUA/hard cover -2", "Charging BUA -2", for foot only).
type feature uint8

const (
	groundOpen feature = iota
	groundSoft
	groundObstacle
	groundVillage
)

func (f feature) ground() ground {
	switch f {
	case groundSoft:
		return ground{cover: coverSoft}
	case groundObstacle:
		return ground{cover: coverSoft, obstacle: true}
	case groundVillage:
		return ground{cover: coverHard, sp: 8}
	}
	return ground{}
}

// strength orders positions from the most open.
func (g ground) strength() int {
	s := int(g.cover) * 2
	if g.obstacle {
		s++
	}
	return s
}

func figuresOf(us []*sunit) int {
	n := 0
	for _, u := range us {
		n += u.u.Figures
	}
	return n
}

func centreOut(n int) []int {
	out := make([]int, 0, n)
	c := n / 2
	for d := 0; len(out) < n; d++ {
		if c-d >= 0 {
			out = append(out, c-d)
		}
		if d > 0 && c+d < n {
			out = append(out, c+d)
		}
	}
	return out
}

// strength orders units for deployment and matchups: morale index at full
// strength, heavy cavalry and grade first.
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

// matchups: a side with a setup advantage places after seeing the enemy
// deploy: for each point of advantage its strongest first-line unit goes
// opposite the enemy's weakest.
func (b *sim) matchups() {
	for i, ss := range b.sides {
		adv := ss.side.Advantage
		if adv <= 0 {
			continue
		}
		en := b.sides[1-i]
		var weak []int
		for k, u := range en.front {
			if u != nil {
				weak = append(weak, k)
			}
		}
		slices.SortStableFunc(weak, func(a, c int) int { return strength(en.front[a]) - strength(en.front[c]) })
		var mine []int
		for k, u := range ss.front {
			if u != nil {
				mine = append(mine, k)
			}
		}
		slices.SortStableFunc(mine, func(a, c int) int { return strength(ss.front[c]) - strength(ss.front[a]) })
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
			used[src], used[dst] = true, true
			ss.front[src], ss.front[dst] = ss.front[dst], ss.front[src]
			for _, k := range []int{src, dst} {
				if u := ss.front[k]; u != nil {
					u.slot = k
				}
			}
		}
	}
}

// coverOf is the cover a unit has against fire: its position's, while it
// stands on it.
func (b *sim) coverOf(u *sunit) cover {
	if b.atPosition(u) {
		return b.f.g[u.side][u.slot].cover
	}
	return coverNone
}

// woods: the hex is wooded — the going is slow and a charge into a
// position at the wood's edge is "Charging uphill or in Woods".
func (b *sim) woods() bool { return b.f.going == game.Woods }

// atPosition: a unit of the line (or a battery) standing on its side's
// position in its slot.
func (b *sim) atPosition(u *sunit) bool {
	return (u.st == stFront || u.st == stBattery) && u.fwd == 0 && u.slot >= 0 && u.slot < b.f.width
}

// inCity: a foot unit standing in the city's blocks.
func (b *sim) inCity(u *sunit) bool {
	return u.u.Kind.IsFoot() && b.atPosition(u) && b.f.g[u.side][u.slot].cover == coverCity
}

// gap is the distance between the two sides' units in a slot.
func (b *sim) gap(a, c *sunit) int {
	return b.p.SetupInches - a.fwd - c.fwd
}

// moveInches is a unit's move in line (001's movement table), slowed by the
// going: rough ground 2/3 foot and horse, 1/3 guns; woods 2/3 line foot, 1/2
// horse, 2/3 guns; light infantry move freely in both.
func (b *sim) moveInches(u *sunit) int {
	k := u.u.Kind
	m := 6
	switch k {
	case Light, Grenzers:
		m = 9
	case LightCav:
		m = 15
	case MediumCav:
		m = 12
	case HeavyCav:
		m = 9
	case Battery:
		switch u.u.GunKind {
		case game.HeavyGun:
			m = 3
		case game.LightGun:
			m = 12
		}
	}
	switch b.f.going {
	case game.Rough:
		switch {
		case k == Battery:
			m = m / 3
		case k != Light && k != Grenzers:
			m = m * 2 / 3
		}
	case game.Woods:
		switch {
		case k.IsCavalry():
			m = m / 2
		case k == Infantry || k == Battery:
			m = m * 2 / 3
		}
	}
	return max(m, 1)
}

// routInches is a unit's rout move (001's movement table).
func routInches(k Kind) int {
	switch k {
	case Light, Grenzers, HeavyCav:
		return 15
	case LightCav:
		return 21
	case MediumCav:
		return 18
	}
	return 12
}
