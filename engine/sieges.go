package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
)

// The sieges step: the rules' "Sieges" section, city by city in name order,
// after the land battles of the turn.
//
//  1. Who sits before the city: the nations that gave a Besiege order for it
//     this turn, and those already besieging it (State.Sieges) that still
//     have land forces in its hex. Their land forces there are the
//     attackers; the land forces of the city's holder and of its friends
//     there are the defenders.
//  2. Its status: besieged with 3:1 in infantry and cavalry figures (and 100
//     of them before a city not loyal to the attackers), masked otherwise
//     (or when the order says MASK); a port needs a warship of the attackers
//     in a sea area it opens on, or nothing happens. A city nobody defends
//     is not besieged: the attackers take it at the captures step if they
//     may.
//  3. Assaults, in sheet order (one a nation a city: the orders step keeps
//     the first), on the assault table.
//  4. Siege losses each way; V4's overcrowding.
//  5. Counter-battery fire each way, then breaches from the attackers' heavy
//     guns that stood the whole turn before the city and fought no field
//     battle; the first breach's surrender roll.
//  6. Walls repaired in cities that spent a full turn free.
//
// Timing (docs/rules-notes.md §Sieges): the rules roll breaches "at the
// start of the turn" for guns present "the entire previous turn"; pbem rolls
// them at the end of the turn for guns present the whole of it, after the
// turn's assaults, which is the same sequence.

// SiegeState is a city under siege or masked: who sits before it and since
// when. The city's status and breaches are in its game.CityState.
type SiegeState struct {
	City string
	// Besiegers are the nations sitting before the city, sorted.
	Besiegers []game.NationID
	// Since is the turn the siege or masking began.
	Since int
}

// siegeOrders returns the turn's Besiege, Assault and Bombard orders, in
// nation then sheet order: those filed for the sieges step that pass their
// kind's legality check.
func (t *turn) siegeOrders() []nationOrder {
	return t.legalOrdersFor("sieges", "besiege", "assault", "bombard")
}

// siegeCity is the working state of one city in the step.
type siegeCity struct {
	name      string
	hex       game.Hex
	port      bool
	tax       int
	cs        *game.CityState
	prev      game.SiegeStatus
	besiegers []game.NationID
	mask      bool
	assaults  []nationOrder
	counter   map[game.ForceID]bool // forces whose heavy guns fire at the defenders' guns
	since     int
	// under: the city was besieged or masked at some time in this step.
	under bool
}

func (t *turn) stepSieges() {
	rule := t.cite("Sieges", "")
	cities := map[string]*siegeCity{}
	get := func(name string) *siegeCity {
		if sc := cities[name]; sc != nil {
			return sc
		}
		c, ok := t.m.City(name)
		if !ok {
			return nil
		}
		cs := t.cityState(c.Name)
		sc := &siegeCity{name: c.Name, hex: c.Hex, port: c.Port, tax: t.r.Taxes.Of(c.Port, c.River), cs: cs, prev: cs.Siege,
			counter: map[game.ForceID]bool{}, since: t.number}
		cities[c.Name] = sc
		return sc
	}
	for _, sg := range t.s.Sieges {
		if sc := get(sg.City); sc != nil {
			sc.besiegers = slices.Clone(sg.Besiegers)
			sc.since = sg.Since
		}
	}
	for _, no := range t.siegeOrders() {
		var force game.ForceID
		var city string
		switch o := no.o.(type) {
		case Besiege:
			force, city = o.Force, o.City
		case Assault:
			force, city = o.Force, o.City
		case Bombard:
			force, city = o.Force, o.City
		}
		f := t.ownForce(no.nation, no.o, force, rule)
		if f == nil {
			continue
		}
		c, ok := t.m.City(city)
		if !ok {
			t.ignore(no.nation, no.o, force, rule, fmt.Sprintf("there is no city %q", city))
			continue
		}
		switch {
		case f.IsFleet() || f.Aboard != "" || f.At != game.AtHex(c.Hex):
			t.ignore(no.nation, no.o, force, rule, fmt.Sprintf("%s is not in %s's hex %s at the end of its move", force, c.Name, c.Hex))
			continue
		case !t.hostileCity(no.nation, t.cityState(c.Name)):
			t.ignore(no.nation, no.o, force, rule, fmt.Sprintf("%s is held by %s, not by an enemy", c.Name, nationOrNobody(t.cityState(c.Name).Controller)))
			continue
		}
		sc := get(c.Name)
		switch o := no.o.(type) {
		case Besiege:
			if !slices.Contains(sc.besiegers, no.nation) {
				sc.besiegers = append(sc.besiegers, no.nation)
			}
			sc.mask = sc.mask || o.MaskOnly
		case Assault:
			sc.assaults = append(sc.assaults, no)
		case Bombard:
			sc.counter[f.ID] = o.CounterFire
		}
	}
	t.wallsMask(get)
	var names []string
	for n := range cities {
		names = append(names, n)
	}
	slices.Sort(names)
	var next []SiegeState
	for _, n := range names {
		sc := cities[n]
		if st, ok := t.resolveSiege(sc); ok {
			next = append(next, st)
		}
	}
	t.s.Sieges = next
	t.repairWalls(cities)
}

// wallsMask: a garrison stayed behind its walls against an attack this turn
// (contact.go, LandBattleRules.NoBattleBehindWalls), and no battle was
// fought in the hex: "If the attackers do not meet the siege limits but the
// defenders will not come out and fight, the city is "masked"". Each
// attacking nation that still has a land force on attack orders before the
// city sits before it as if it had ordered BESIEGE: the city is besieged if
// the attackers meet the siege limits, masked otherwise.
func (t *turn) wallsMask(get func(string) *siegeCity) {
	hexes := make([]game.Hex, 0, len(t.walled))
	for h := range t.walled {
		hexes = append(hexes, h)
	}
	slices.SortFunc(hexes, game.Hex.Compare)
	for _, h := range hexes {
		if slices.ContainsFunc(t.engs, func(e *engagement) bool { return e.hex == h }) {
			continue
		}
		c, ok := t.m.CityAt(h)
		if !ok {
			continue
		}
		var sc *siegeCity
		for _, n := range t.walled[h] {
			if !t.hostileCity(n, t.cityState(c.Name)) {
				continue
			}
			attacking := slices.ContainsFunc(t.forcesAt(game.AtHex(h)), func(f *game.Force) bool {
				return f.Nation == n && !f.IsFleet() && f.Aboard == "" && f.Stance == game.Attack
			})
			if !attacking {
				continue
			}
			if sc == nil {
				sc = get(c.Name)
			}
			if sc != nil && !slices.Contains(sc.besiegers, n) {
				sc.besiegers = append(sc.besiegers, n)
			}
		}
	}
}

// hostileCity reports whether nation n may besiege or assault a city: one
// held by an enemy, or by nobody.
func (t *turn) hostileCity(n game.NationID, cs *game.CityState) bool {
	return cs.Controller == game.Neutral || t.hostile(n, cs.Controller)
}

func nationOrNobody(n game.NationID) string {
	if n == game.Neutral {
		return "nobody"
	}
	return string(n)
}

// siegeSides returns the attackers (land forces of the besieging nations and
// the nations assaulting) and defenders (land forces of the holder and its
// friends, hostile to the attackers) in the city's hex.
func (t *turn) siegeSides(sc *siegeCity, nations []game.NationID) (att, def []*game.Force) {
	for _, f := range t.forcesAt(game.AtHex(sc.hex)) {
		if f.IsFleet() || f.Aboard != "" {
			continue
		}
		switch {
		case slices.Contains(nations, f.Nation):
			att = append(att, f)
		case len(nations) > 0 && t.hostile(f.Nation, nations[0]) &&
			(f.Nation == sc.cs.Controller || sc.cs.Controller != game.Neutral && !t.hostile(f.Nation, sc.cs.Controller)):
			def = append(def, f)
		}
	}
	return att, def
}

// besiegingNations keeps the nations that may sit before the city together:
// the first (in name order) and those not hostile to it, each hostile to the
// holder and with land forces in the hex.
func (t *turn) besiegingNations(sc *siegeCity, extra []game.NationID) []game.NationID {
	all := slices.Clone(sc.besiegers)
	for _, n := range extra {
		if !slices.Contains(all, n) {
			all = append(all, n)
		}
	}
	slices.Sort(all)
	var out []game.NationID
	for _, n := range all {
		if !t.hostileCity(n, sc.cs) {
			continue
		}
		if len(out) > 0 && t.hostile(n, out[0]) {
			continue
		}
		present := slices.ContainsFunc(t.forcesAt(game.AtHex(sc.hex)), func(f *game.Force) bool {
			return f.Nation == n && !f.IsFleet() && f.Aboard == ""
		})
		if present {
			out = append(out, n)
		}
	}
	return out
}

func sumArms(fs []*game.Force, keep func(game.Arm) bool) int {
	n := 0
	for _, f := range fs {
		n += f.CountArms(keep)
	}
	return n
}

func figuresOf(fs []*game.Force) int {
	n := 0
	for _, f := range fs {
		n += f.Figures()
	}
	return n
}

func gunsOf(fs []*game.Force, k game.GunKind) int {
	n := 0
	for _, f := range fs {
		for _, g := range f.Guns {
			if g.Kind == k {
				n += g.Count
			}
		}
	}
	return n
}

// warshipOff reports whether one of the nations has a warship in a sea area
// the port opens on, or in the port itself.
func (t *turn) warshipOff(sc *siegeCity, nations []game.NationID) bool {
	places := []game.Place{game.AtHex(sc.hex)}
	for _, s := range t.m.SeasTouching(sc.hex) {
		places = append(places, game.AtSea(s))
	}
	for _, p := range places {
		for _, f := range t.forcesAt(p) {
			if f.Ships.AllWarships() > 0 && slices.Contains(nations, f.Nation) {
				return true
			}
		}
	}
	return false
}

// resolveSiege runs one city through the step and returns its siege state
// for the next turn (ok false when it is no longer besieged or masked).
func (t *turn) resolveSiege(sc *siegeCity) (SiegeState, bool) {
	var assaulting []game.NationID
	for _, no := range sc.assaults {
		assaulting = append(assaulting, no.nation)
	}
	nations := t.besiegingNations(sc, assaulting)
	att, def := t.siegeSides(sc, nations)
	place := game.AtHex(sc.hex)
	involved := append(slices.Clone(nations), sc.cs.Controller)
	for _, f := range def {
		involved = append(involved, f.Nation)
	}
	// The siege proper: only the nations that besiege (not those that only
	// assault) make the city besieged or masked.
	siegers := slices.DeleteFunc(slices.Clone(nations), func(n game.NationID) bool { return !slices.Contains(sc.besiegers, n) })
	status, reason := t.siegeStatus(sc, siegers, att, def)
	if status != sc.cs.Siege || (status != game.NotBesieged && sc.prev == game.NotBesieged) || reason != "" && (sc.prev != game.NotBesieged || len(siegers) > 0) {
		ev := &SiegeStatusChanged{City: sc.name, Status: status, Previous: sc.prev, Besiegers: sortedNations(siegers...), Holder: sc.cs.Controller,
			AttackerFigures: sumArms(att, game.Arm.IsFighting), DefenderFigures: sumArms(def, game.Arm.IsFighting), Reason: reason}
		t.emit(ev, t.cite("Sieges", statusPara(status)), place, to(involved...), involved...)
	}
	sc.cs.Siege = status
	sc.under = status != game.NotBesieged
	for _, no := range sc.assaults {
		att, def = t.siegeSides(sc, nations)
		t.assault(sc, no, att, def)
	}
	att, def = t.siegeSides(sc, siegers)
	if status == game.NotBesieged || sc.cs.Siege == game.NotBesieged {
		// Not besieged, or an assault carried the walls (overrunCity).
		return SiegeState{}, false
	}
	if len(def) == 0 {
		// Nobody defends the city, and the besiegers are too few to take
		// it (siegeStatus): it stays masked while they sit before it —
		// "the city is masked" and "loses its supply value" and half its
		// taxes — with no garrison to lose or to shoot
		// (docs/rules-notes.md §Sieges, a mask on an undefended city).
		return SiegeState{City: sc.name, Besiegers: sortedNations(siegers...), Since: sc.since}, true
	}
	t.siegeLosses(sc, att, def)
	t.overcrowding(sc, def)
	t.counterBattery(sc, att, def)
	t.breaches(sc, att, def)
	if t.liveCount(def) == 0 {
		sc.cs.Siege = game.NotBesieged
		return SiegeState{}, false
	}
	return SiegeState{City: sc.name, Besiegers: sortedNations(siegers...), Since: sc.since}, true
}

func statusPara(s game.SiegeStatus) string {
	if s == game.Masked {
		return "Masked Cities"
	}
	return "Besieged Cities"
}

func (t *turn) liveCount(fs []*game.Force) int {
	n := 0
	for _, f := range fs {
		if t.force(f.ID) == f {
			n++
		}
	}
	return n
}

// siegeStatus decides besieged, masked or neither, with the reason when
// neither although attackers sit before the city.
func (t *turn) siegeStatus(sc *siegeCity, siegers []game.NationID, att, def []*game.Force) (game.SiegeStatus, string) {
	if len(siegers) == 0 {
		return game.NotBesieged, "no besieger is left before the city"
	}
	sr := t.r.Siege
	a := 0
	loyal := false
	for _, f := range att {
		if slices.Contains(siegers, f.Nation) {
			a += f.FightingFigures()
			loyal = loyal || sc.cs.Loyalty == f.Nation
		}
	}
	d := sumArms(def, game.Arm.IsFighting)
	if len(def) == 0 {
		if loyal && a > 0 || a >= t.r.Capture.CaptureFigures {
			return game.NotBesieged, "nobody defends the city: the attackers take it"
		}
	}
	if sc.port && !t.warshipOff(sc, siegers) {
		return game.NotBesieged, fmt.Sprintf("%s is a port and the besiegers have no warship in its sea area", sc.name)
	}
	if !sc.mask && a >= sr.BesiegeOdds*d && (loyal || a >= sr.ForeignMinimum) {
		return game.Besieged, ""
	}
	return game.Masked, ""
}

// randomLosses kills n figures among the forces' troops, "distributed
// randomly among the defending troop types": each stack loses its whole
// share of the n in proportion to its size, and each figure left over from
// the fractions goes to a stack drawn by a die over the figures still
// standing (docs/rules-notes.md §Siege losses). The dice are few (fewer than
// the stacks) whatever n is.
func (t *turn) randomLosses(fs []*game.Force, n int, purpose, subject string) []Loss {
	type stack struct {
		f *game.Force
		i int
	}
	var stacks []stack
	var counts []int
	total := 0
	for _, f := range fs {
		for i, tr := range f.Troops {
			if tr.Count > 0 {
				stacks = append(stacks, stack{f, i})
				counts = append(counts, tr.Count)
				total += tr.Count
			}
		}
	}
	lost := make([]int, len(stacks))
	if n >= total {
		copy(lost, counts)
	} else if n > 0 {
		given := 0
		for k, c := range counts {
			lost[k] = n * c / total
			given += lost[k]
		}
		for ; given < n; given++ {
			left := total - given
			r := t.dice.Roll(purpose, left, subject)
			for k, c := range counts {
				if r <= c-lost[k] {
					lost[k]++
					break
				}
				r -= c - lost[k]
			}
		}
	}
	var out []Loss
	for k, s := range stacks {
		if lost[k] == 0 {
			continue
		}
		tr := &s.f.Troops[s.i]
		out = append(out, Loss{Force: s.f.ID, Arm: tr.Arm, Grade: tr.Grade, Before: tr.Count, Lost: lost[k]})
		tr.Count -= lost[k]
		tr.Exhausted = min(tr.Exhausted, tr.Count)
	}
	for _, f := range fs {
		f.Normalize()
	}
	return out
}

// siegeLosses: "The defenders suffer 2/1 figures lost per turn per
// heavy/field gun the attackers possess … The attackers suffer 3/2
// casualties per turn for each heavy/field gun the defenders possess. The
// defenders also suffer 1 casualty per turn for each 50 figures of infantry
// the attackers possess. The attackers also suffer 1 casualty for each 10
// [V4: 25] figures of infantry the defenders possess."
func (t *turn) siegeLosses(sc *siegeCity, att, def []*game.Force) {
	sr := t.r.Siege
	toDef := sr.DefenderLossPerHeavyGun*gunsOf(att, game.HeavyGun) + sr.DefenderLossPerFieldGun*gunsOf(att, game.FieldGun)
	if sr.DefenderLossPerAttackerInfantry > 0 {
		toDef += sumArms(att, game.Arm.IsInfantry) / sr.DefenderLossPerAttackerInfantry
	}
	toAtt := sr.AttackerLossPerHeavyGun*gunsOf(def, game.HeavyGun) + sr.AttackerLossPerFieldGun*gunsOf(def, game.FieldGun)
	if sr.AttackerLossPerDefenderInfantry > 0 {
		toAtt += sumArms(def, game.Arm.IsInfantry) / sr.AttackerLossPerDefenderInfantry
	}
	rule := t.cite("Sieges", "Siege Losses")
	for _, side := range []struct {
		fs       []*game.Force
		n        int
		attacker bool
	}{{def, toDef, false}, {att, toAtt, true}} {
		if side.n == 0 || len(side.fs) == 0 {
			continue
		}
		losses := t.randomLosses(side.fs, side.n, "siege losses", sc.name)
		nations := forceNations(side.fs)
		t.emit(&SiegeLosses{City: sc.name, Attacker: side.attacker, Due: side.n, Losses: losses}, rule, game.AtHex(sc.hex), to(nations...), nations...)
	}
}

func forceNations(fs []*game.Force) []game.NationID {
	var out []game.NationID
	for _, f := range fs {
		out = append(out, f.Nation)
	}
	return sortedNations(out...)
}

// overcrowding (V4): "a city with too many men crowded inside suffers 15%
// attrition each turn until the garrison size drops to the healthy limit" of
// 50 figures (gunners included) per 100 crowns of tax value. The loss is 15%
// of the garrison, never taking it below the limit.
func (t *turn) overcrowding(sc *siegeCity, def []*game.Force) {
	sr := t.r.Siege
	if sr.HealthyGarrisonPer100 == 0 {
		return
	}
	def = t.alive(def)
	limit := sr.HealthyGarrisonPer100 * sc.tax / 100
	figs := figuresOf(def)
	if figs <= limit {
		return
	}
	n := min(t.dice.PercentOf(t.r, figs, sr.OvercrowdingAttrition, "overcrowding", sc.name), figs-limit)
	if n <= 0 {
		return
	}
	losses := takeLosses(def, n, func(game.Arm) bool { return true })
	for _, f := range def {
		f.Normalize()
	}
	nations := forceNations(def)
	t.emit(&Attrition{Force: def[0].ID, Cause: fmt.Sprintf("overcrowding in %s: %d figures, healthy limit %d", sc.name, figs, limit), Losses: losses},
		t.cite("Sieges", "Healthy Garrison Size"), game.AtHex(sc.hex), to(nations...), nations...)
}

func (t *turn) alive(fs []*game.Force) []*game.Force {
	return slices.DeleteFunc(slices.Clone(fs), func(f *game.Force) bool { return t.force(f.ID) != f })
}

// gunnerGrade is the grade of most of the gunners among the forces (the
// better on a tie), GradeC when there are none.
func gunnerGrade(fs []*game.Force) game.Grade {
	count := map[game.Grade]int{}
	for _, f := range fs {
		for _, tr := range f.Troops {
			if tr.Arm == game.Gunners {
				count[tr.Grade] += tr.Count
			}
		}
	}
	best, n := game.GradeC, 0
	for _, g := range game.Grades {
		if count[g] > n {
			best, n = g, count[g]
		}
	}
	return best
}

// destroyGun takes one gun of the first kind found among kinds from the
// forces (first force in ID order that has one) with its crew.
func (t *turn) destroyGun(fs []*game.Force, kinds []game.GunKind) (game.ForceID, game.GunKind, int, int, bool) {
	for _, k := range kinds {
		for _, f := range fs {
			for i := range f.Guns {
				if f.Guns[i].Kind != k || f.Guns[i].Count == 0 {
					continue
				}
				before := f.Guns[i].Count
				f.Guns[i].Count--
				killed := 0
				for j := range f.Troops {
					tr := &f.Troops[j]
					if tr.Arm != game.Gunners {
						continue
					}
					k := min(tr.Count, t.r.Siege.CrewPerGun-killed)
					tr.Count -= k
					tr.Exhausted = min(tr.Exhausted, tr.Count)
					killed += k
				}
				f.Normalize()
				return f.ID, k, before, killed, true
			}
		}
	}
	return "", 0, 0, 0, false
}

// counterBattery: "the defenders may fire their heavy guns at the enemy's
// pieces. Each turn roll one die per heavy gun: On a 6 an enemy heavy [V4:
// heavy or field] gun is destroyed, along with 4 crewmen. The attackers may
// choose to fire likewise at the defending guns instead of rolling to cause
// a breach. Roll one die per turn per 2 heavy gun models". The defenders
// always fire; the attackers whose Bombard order says so. Both sides' dice
// are thrown before either side's hits are taken.
func (t *turn) counterBattery(sc *siegeCity, att, def []*game.Force) {
	sr := t.r.Siege
	kinds := []game.GunKind{game.HeavyGun}
	if sr.CounterBatteryHitsFieldGuns {
		kinds = append(kinds, game.FieldGun)
	}
	var firing []*game.Force
	for _, f := range att {
		if sc.counter[f.ID] {
			firing = append(firing, f)
		}
	}
	rule := t.cite("Sieges", "Targeting Enemy Artillery")
	type volley struct {
		by, at   []*game.Force
		dice     int
		attacker bool
	}
	volleys := []volley{{def, att, gunsOf(def, game.HeavyGun), false}}
	if len(firing) > 0 && sr.AttackerGunsPerDie > 0 {
		volleys = append(volleys, volley{firing, def, gunsOf(firing, game.HeavyGun) / sr.AttackerGunsPerDie, true})
	}
	var hits []int
	var rolls [][]int
	for _, v := range volleys {
		g := gunnerGrade(v.by)
		h := 0
		var rs []int
		targets := 0
		for _, k := range kinds {
			targets += gunsOf(v.at, k)
		}
		for range v.dice {
			if h >= targets {
				break // every gun it could hit is hit: no more dice
			}
			d := t.dice.Roll("counter-battery", 6, sc.name)
			rs = append(rs, d)
			if sr.CounterBatteryHits(d, g) {
				h++
			}
		}
		hits = append(hits, h)
		rolls = append(rolls, rs)
	}
	for i, v := range volleys {
		if v.dice == 0 {
			continue
		}
		ev := &CounterBattery{City: sc.name, Attacker: v.attacker, By: forceNations(v.by), Dice: rolls[i], Gunners: gunnerGrade(v.by), Hits: hits[i]}
		for range hits[i] {
			id, k, before, crew, ok := t.destroyGun(v.at, kinds)
			if !ok {
				break
			}
			if j := len(ev.Destroyed) - 1; j >= 0 && ev.Destroyed[j].Force == id && ev.Destroyed[j].Gun == k {
				ev.Destroyed[j].Lost++
			} else {
				ev.Destroyed = append(ev.Destroyed, Loss{Force: id, Gun: k, Before: before, Lost: 1})
			}
			ev.Crew += crew
		}
		nations := append(forceNations(v.by), forceNations(v.at)...)
		t.emit(ev, rule, game.AtHex(sc.hex), to(nations...), nations...)
	}
}

// breaches: "The attackers roll at the start of the turn for each heavy gun
// model that was present for the entire previous turn and not used in a
// field battle on the previous turn: 4-6 = breach made. The first time the
// walls are breached, the defenders may surrender (they must be besieged to
// surrender) … The maximum breaches is 5."
func (t *turn) breaches(sc *siegeCity, att, def []*game.Force) {
	sr := t.r.Siege
	guns := 0
	var ids []game.ForceID
	for _, f := range t.alive(att) {
		fi := t.fi(f.ID)
		if sc.counter[f.ID] || fi.moved || fi.engaged || fi.start != f.At || (f.Since != 0 && f.Since > t.number) {
			continue
		}
		if n := gunsOf([]*game.Force{f}, game.HeavyGun); n > 0 {
			guns += n
			ids = append(ids, f.ID)
		}
	}
	if guns == 0 {
		return
	}
	before := sc.cs.Breaches
	ev := &Breach{City: sc.name, Attackers: forceNations(att), Guns: guns, Forces: ids, Before: before}
	for range guns {
		if sc.cs.Breaches >= sr.MaxBreaches {
			break // the walls can take no more breaches: no more dice
		}
		d := t.dice.Roll("breach", 6, sc.name)
		ev.Dice = append(ev.Dice, d)
		if d >= sr.BreachOn && sc.cs.Breaches < sr.MaxBreaches {
			sc.cs.Breaches++
		}
	}
	ev.Breaches = sc.cs.Breaches
	nations := append(forceNations(att), forceNations(def)...)
	t.emit(ev, t.cite("Sieges", "Breaching the Walls"), game.AtHex(sc.hex), to(nations...), nations...)
	if before > 0 || sc.cs.Breaches == 0 || sc.cs.Siege != game.Besieged {
		return
	}
	d := t.dice.Roll("surrender", 6, sc.name)
	sv := &Surrender{City: sc.name, Attackers: forceNations(att), Die: d, Breaches: sc.cs.Breaches, Need: sr.SurrenderNeed(sc.cs.Breaches)}
	sv.Surrendered = sr.Surrenders(d, sc.cs.Breaches)
	if sv.Surrendered {
		sv.Garrison = idsOfForces(t.alive(def))
		sv.Figures = figuresOf(t.alive(def))
		sv.Captured = t.captureGarrison(sc, att, def)
	}
	t.emit(sv, t.cite("Sieges", "Breaching the Walls"), game.AtHex(sc.hex), to(nations...), nations...)
}

func idsOfForces(fs []*game.Force) []game.ForceID {
	out := make([]game.ForceID, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// captureGarrison removes a surrendered or stormed garrison from play and
// gives its guns and the depots in the city to the largest attacking force
// ("In an allied army, the largest force decides how to split them up":
// pbem gives them all to that force's nation; the referee may split them).
func (t *turn) captureGarrison(sc *siegeCity, att, def []*game.Force) *Captured {
	att, def = t.alive(att), t.alive(def)
	var largest *game.Force
	for _, f := range att {
		if largest == nil || f.Figures() > largest.Figures() {
			largest = f
		}
	}
	c := &Captured{}
	if largest != nil {
		c.By = largest.ID
	}
	losers := forceNations(def)
	c.Generals = leadersLost(def, battle.Captured)
	for _, f := range def {
		for _, g := range f.Guns {
			if g.Count == 0 || largest == nil {
				continue
			}
			c.Guns = append(c.Guns, game.Guns{Kind: g.Kind, Count: g.Count})
			largest.Guns = append(largest.Guns, game.Guns{Kind: g.Kind, Count: g.Count})
		}
		t.remove(f.ID)
	}
	if largest != nil {
		largest.Normalize()
		for i := range t.s.Depots {
			d := &t.s.Depots[i]
			if d.Aboard == "" && d.At == game.AtHex(sc.hex) && slices.Contains(losers, d.Nation) {
				d.Nation = largest.Nation
				d.GrantedTo = nil
				c.Depots = append(c.Depots, d.ID)
			}
		}
	}
	sc.cs.Siege = game.NotBesieged
	return c
}

// repairWalls: "If a city spends a full turn not besieged and not masked,
// the intrinsic defenders repair all breaches": a city neither besieged nor
// masked at the end of the last turn nor at the end of this one.
func (t *turn) repairWalls(cities map[string]*siegeCity) {
	for i := range t.s.Cities {
		cs := &t.s.Cities[i]
		if cs.Breaches == 0 || cs.Siege != game.NotBesieged {
			continue
		}
		if sc := cities[cs.Name]; sc != nil && (sc.prev != game.NotBesieged || sc.under) {
			continue
		}
		c, ok := t.m.City(cs.Name)
		if !ok {
			continue
		}
		t.emit(&WallsRepaired{City: cs.Name, Breaches: cs.Breaches}, t.cite("Sieges", "Breaching the Walls"), game.AtHex(c.Hex), public(), cs.Controller)
		cs.Breaches = 0
	}
}
