package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// The sea-battles step: the rules' "Sea Battles" section. The movement step
// found the battles (sea.go seaContact: hostile fleets in one sea area or
// good-holding hex, one side with warships seeking battle or in a
// good-holding hex, never in a port) and stopped the fleets. Here each is
// fought, in place then nation order:
//
//  1. Combat points: 4 a sound warship, 2 a damaged one; the larger side is
//     the attacker (side a on a tie: at 1:1 the table is the same both
//     ways).
//  2. The weather gauge: each side rolls a D6, the side whose senior
//     admiral has more experience adding the difference; the higher total
//     has the gauge (a tie: nobody), worth one pip on the CRT die.
//  3. The CRT: AL (the attacker loses), EX, DL (the defender loses).
//  4. A win: the victor sinks 1 warship per 6 of its own and captures 1 per
//     3 (damaged), the loser sinks 1 per 12 and damages 1 per 6; fractions
//     are rolled (a D6 for a sixth, and so on); the victor's sound
//     warships then take 2 transports each, with their cargo (guns and
//     depots the victor's, troops its prisoners until it reaches a port of
//     its own); the loser's fleets escape into a port of their own in the
//     sea area, else one sea area downwind, half of their warships
//     damaged. An exchange: each side sinks 1 per 12 and damages 1 per 6 of
//     its own. Two fleets never sink each other whole.
//  5. The winner's senior admiral gains 1 experience for an "L" victory at
//     3:2 or less (in an allied fleet, the admiral of the nation with most
//     warships, a tie rolled).
//
// Repairs (Repair orders) and prisoners landed in a friendly port are done
// here too, after the battles.

// seaSide is one side of a sea battle while it is fought.
type seaSide struct {
	nations []game.NationID // sorted; the first is the side's lead in events
	fleets  []*game.Force
}

func (s *seaSide) lead() game.NationID { return s.nations[0] }

func (s *seaSide) warships() (sound, damaged int) {
	for _, f := range s.fleets {
		sound += f.Ships.Warships
		damaged += f.Ships.DamagedWarships
	}
	return
}

func (s *seaSide) all() int { a, b := s.warships(); return a + b }

func (t *turn) seaCP(s *seaSide) int {
	c := t.r.SeaBattle
	a, b := s.warships()
	return a*c.WarshipCP + b*c.DamagedWarshipCP
}

// fraction returns n/per, the fraction rolled: 7 warships "per 6" give 1,
// and 1 more on a D6 of 1.
func (t *turn) fraction(n, per int, purpose, subject string) int {
	if per <= 0 || n <= 0 {
		return 0
	}
	whole, rem := n/per, n%per
	if rem > 0 && t.dice.Roll(purpose, per, subject) <= rem {
		whole++
	}
	return whole
}

// seniorAdmiral returns the most experienced admiral of the fleets (the
// first in order on a tie), or nil.
func seniorAdmiral(fs []*game.Force) *game.Leader {
	var best *game.Leader
	for _, f := range fs {
		for i := range f.Leaders {
			l := &f.Leaders[i]
			if l.Role == game.Admiral && (best == nil || l.Experience > best.Experience) {
				best = l
			}
		}
	}
	return best
}

func xpOf(l *game.Leader) int {
	if l == nil {
		return 0
	}
	return l.Experience
}

func (t *turn) stepSeaBattles() {
	// The battles at one place: the engagements the movement step found
	// there, pair by pair, fought as one battle of two sides, allies
	// together.
	var places []game.Place
	byPlace := map[game.Place][]*seaEngagement{}
	for _, e := range t.seaEngs {
		if _, ok := byPlace[e.place]; !ok {
			places = append(places, e.place)
		}
		byPlace[e.place] = append(byPlace[e.place], e)
	}
	slices.SortFunc(places, func(a, b game.Place) int { return cmpStr(a.String(), b.String()) })
	for _, p := range places {
		t.seaBattle(p, byPlace[p])
	}
	t.landPrisoners()
}

// seaSides splits the nations of a place's engagements into two sides: the
// first nation by name and its friends, against the nations hostile to it
// (friends of the first of those). Nations fitting neither stay out.
func (t *turn) seaSides(engs []*seaEngagement) [2][]game.NationID {
	var all []game.NationID
	for _, e := range engs {
		for _, n := range []game.NationID{e.a, e.b} {
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	slices.Sort(all)
	var sides [2][]game.NationID
	for _, n := range all {
		switch {
		case len(sides[0]) == 0 || !t.hostile(n, sides[0][0]) && !slices.ContainsFunc(sides[1], func(m game.NationID) bool { return !t.hostile(n, m) }):
			sides[0] = append(sides[0], n)
		case len(sides[1]) == 0 || !t.hostile(n, sides[1][0]):
			sides[1] = append(sides[1], n)
		}
	}
	return sides
}

// seaBattle fights the battle at one place.
func (t *turn) seaBattle(place game.Place, engs []*seaEngagement) {
	crt := t.r.SeaBattle
	subject := place.String()
	nations := t.seaSides(engs)
	sides := [2]*seaSide{{nations: nations[0]}, {nations: nations[1]}}
	tick := TicksPerTurn
	var members []game.ForceID
	for _, e := range engs {
		tick = min(tick, e.tick)
		for _, id := range e.members {
			if !slices.Contains(members, id) {
				members = append(members, id)
			}
		}
	}
	slices.SortFunc(members, game.CompareForceIDs)
	for _, id := range members {
		f := t.force(id)
		if f == nil || !f.IsFleet() || f.At != place {
			continue
		}
		for _, s := range sides {
			if slices.Contains(s.nations, f.Nation) {
				s.fleets = append(s.fleets, f)
			}
		}
	}
	if len(sides[0].fleets) == 0 || len(sides[1].fleets) == 0 || sides[0].all()+sides[1].all() == 0 {
		return
	}
	involved := append(slices.Clone(nations[0]), nations[1]...)
	ev := &SeaBattle{Tick: tick}
	for _, s := range sides {
		a, b := s.warships()
		ev.Sides = append(ev.Sides, SeaBattleSide{Nation: s.lead(), Allies: s.nations[1:], Fleets: idsOfForces(s.fleets), Warships: a, DamagedWarships: b, CP: t.seaCP(s),
			Admiral: leaderName(seniorAdmiral(s.fleets)), AdmiralXP: xpOf(seniorAdmiral(s.fleets))})
	}
	att, def := 0, 1
	if t.seaCP(sides[1]) > t.seaCP(sides[0]) {
		att, def = 1, 0
	}
	ev.Attacker = sides[att].lead()
	// The weather gauge.
	diff := xpOf(seniorAdmiral(sides[0].fleets)) - xpOf(seniorAdmiral(sides[1].fleets))
	g0 := t.dice.Roll("weather gauge", 6, subject) + max(diff, 0)
	g1 := t.dice.Roll("weather gauge", 6, subject) + max(-diff, 0)
	ev.GaugeRolls = []int{g0, g1}
	pips := 0
	switch {
	case g0 > g1:
		ev.WeatherGauge = sides[0].lead()
	case g1 > g0:
		ev.WeatherGauge = sides[1].lead()
	}
	if ev.WeatherGauge == sides[att].lead() {
		pips = crt.WeatherGaugePips
	} else if ev.WeatherGauge != "" {
		pips = -crt.WeatherGaugePips
	}
	col := crt.Column(t.seaCP(sides[att]), t.seaCP(sides[def]))
	ev.Column = fmt.Sprintf("%d:%d", crt.Columns[col].Num, crt.Columns[col].Den)
	ev.Die = t.dice.Roll("sea battle", 6, subject)
	ev.Score = ev.Die + pips
	ev.Result = crt.Result(ev.Score, col)
	switch ev.Result {
	case ruleset.EX:
		t.seaExchange(sides, ev, subject)
	default:
		win, lose := att, def
		if ev.Result == ruleset.AL {
			win, lose = def, att
		}
		ev.Winner = sides[win].lead()
		// The admiral is chosen on the warships the fleets brought to
		// the battle, before prizes change them.
		var admiral *game.Leader
		if ev.Result == ruleset.AL || col <= crt.Column(crt.AdmiralXPMaxOdds.Num, crt.AdmiralXPMaxOdds.Den) {
			admiral = t.admiralForXP(sides[win], subject)
		}
		t.seaWin(sides[win], sides[lose], place, ev, subject)
		if admiral != nil {
			admiral.Experience++
			ev.AdmiralXP = admiral.Name
		}
	}
	for i, s := range sides {
		a, b := s.warships()
		ev.Sides[i].WarshipsAfter, ev.Sides[i].DamagedAfter = a, b
	}
	// Fleets left with no ships are gone, and what they carried with them.
	for _, s := range sides {
		for _, f := range s.fleets {
			if t.force(f.ID) == f && f.Ships.Total() == 0 {
				t.emit(&ForceDisbanded{Force: f.ID, Reason: "fleet lost", Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)}, t.cite("Sea Battles", ""), f.At, to(f.Nation), f.Nation)
				t.remove(f.ID)
			}
		}
	}
	t.emit(ev, t.cite("Sea Battles", "Sea Battle CRT"), place, to(involved...), involved...)
}

func leaderName(l *game.Leader) string {
	if l == nil {
		return ""
	}
	return l.Name
}

// admiralForXP: "The senior admiral in the fleet gets the experience. In an
// allied fleet, the admiral with the largest number of warships gets the
// experience. If this is a tie, roll for it." One nation's fleets: its
// senior admiral; allied nations' fleets: the senior admiral of the nation
// with most warships, a tie rolled.
func (t *turn) admiralForXP(s *seaSide, subject string) *game.Leader {
	byNation := map[game.NationID][]*game.Force{}
	var nations []game.NationID
	for _, f := range s.fleets {
		if _, ok := byNation[f.Nation]; !ok {
			nations = append(nations, f.Nation)
		}
		byNation[f.Nation] = append(byNation[f.Nation], f)
	}
	slices.Sort(nations)
	var best []game.NationID
	most := -1
	for _, n := range nations {
		w := 0
		for _, f := range byNation[n] {
			w += f.Ships.AllWarships()
		}
		switch {
		case w > most:
			best, most = []game.NationID{n}, w
		case w == most:
			best = append(best, n)
		}
	}
	if len(best) == 0 {
		return nil
	}
	n := best[0]
	if len(best) > 1 {
		n = best[t.dice.Roll("admiral's experience", len(best), subject)-1]
	}
	return seniorAdmiral(byNation[n])
}

// takeWarships removes k warships from a side, sound ones first, fleet by
// fleet in order, and returns how many of each were taken.
func takeWarships(s *seaSide, k int) (sound, damaged int) {
	for _, f := range s.fleets {
		for k > 0 && f.Ships.Warships > 0 {
			f.Ships.Warships--
			sound++
			k--
		}
	}
	for _, f := range s.fleets {
		for k > 0 && f.Ships.DamagedWarships > 0 {
			f.Ships.DamagedWarships--
			damaged++
			k--
		}
	}
	return
}

// damageWarships turns k sound warships of a side into damaged ones.
func damageWarships(s *seaSide, k int) int {
	n := 0
	for _, f := range s.fleets {
		for k > 0 && f.Ships.Warships > 0 {
			f.Ships.Warships--
			f.Ships.DamagedWarships++
			n++
			k--
		}
	}
	return n
}

// flagship is the side's fleet with most warships (the first on a tie):
// where prizes go.
func flagship(s *seaSide) *game.Force {
	var best *game.Force
	for _, f := range s.fleets {
		if best == nil || f.Ships.AllWarships() > best.Ships.AllWarships() {
			best = f
		}
	}
	return best
}

func (t *turn) seaExchange(sides [2]*seaSide, ev *SeaBattle, subject string) {
	crt := t.r.SeaBattle
	w := [2]int{sides[0].all(), sides[1].all()}
	sink := [2]int{}
	dmg := [2]int{}
	for i := range 2 {
		sink[1-i] = t.fraction(w[i], crt.ExchangeSinksPer, "sea battle: warships sunk", subject)
		dmg[1-i] = t.fraction(w[i], crt.ExchangeDamagesPer, "sea battle: warships damaged", subject)
	}
	// "two entire forces do not sink one another": the larger keeps one.
	if sink[0] >= w[0] && sink[1] >= w[1] {
		big := 0
		if w[1] > w[0] {
			big = 1
		}
		sink[big] = max(0, w[big]-1)
	}
	for i, s := range sides {
		a, b := takeWarships(s, min(sink[i], w[i]))
		ev.Sides[i].Sunk = a + b
		ev.Sides[i].Damaged = damageWarships(s, dmg[i])
	}
}

// seaWin applies a victory (Win/Lose).
func (t *turn) seaWin(win, lose *seaSide, place game.Place, ev *SeaBattle, subject string) {
	crt := t.r.SeaBattle
	wi, li := 0, 1
	if ev.Sides[1].Nation == win.lead() {
		wi, li = 1, 0
	}
	wv, wl := win.all(), lose.all()
	sinkL := t.fraction(wv, crt.VictorSinksPer, "sea battle: warships sunk", subject)
	capL := t.fraction(wv, crt.VictorCapturesPer, "sea battle: warships captured", subject)
	sinkW := t.fraction(wl, crt.LoserSinksPer, "sea battle: warships sunk", subject)
	dmgW := t.fraction(wl, crt.LoserDamagesPer, "sea battle: warships damaged", subject)
	// No mutual annihilation: the victor keeps a warship.
	if wv > 0 && sinkW >= wv {
		sinkW = wv - 1
	}
	a, b := takeWarships(lose, min(sinkL, wl))
	ev.Sides[li].Sunk = a + b
	a, b = takeWarships(lose, min(capL, lose.all()))
	ev.Sides[li].Captured = a + b
	prize := flagship(win)
	prize.Ships.DamagedWarships += a + b
	a, b = takeWarships(win, min(sinkW, wv))
	ev.Sides[wi].Sunk = a + b
	ev.Sides[wi].Damaged = damageWarships(win, dmgW)
	// Transports: 2 for each of the victor's remaining undamaged ships.
	sound, _ := win.warships()
	want := crt.TransportsPerSoundShip * sound
	for _, f := range lose.fleets {
		if want == 0 {
			break
		}
		took := 0
		for want > 0 && f.Ships.Transports+f.Ships.DamagedTransports > 0 {
			if f.Ships.Transports > 0 {
				f.Ships.Transports--
				prize.Ships.Transports++
			} else {
				f.Ships.DamagedTransports--
				prize.Ships.DamagedTransports++
			}
			took++
			want--
		}
		if took > 0 {
			ev.Sides[li].TransportsCaptured += took
			t.captureCargo(f, prize, ev)
		}
	}
	// The rest escapes, half its warships damaged. EscapedTo records
	// where, only for a fleet with ships left to escape: a fleet wholly
	// sunk or taken escaped nowhere.
	for _, f := range lose.fleets {
		dest := t.escapeTo(place, f.Nation)
		if f.Ships.Total() > 0 && (f.Nation == lose.lead() || ev.EscapedTo.IsZero()) {
			ev.EscapedTo = dest
		}
		w := f.Ships.AllWarships()
		need := t.fraction(w*crt.EscapeDamagedNum, crt.EscapeDamagedDen, "sea battle: escaping warships damaged", subject)
		for f.Ships.DamagedWarships < need && f.Ships.Warships > 0 {
			f.Ships.Warships--
			f.Ships.DamagedWarships++
			ev.Sides[li].Damaged++
		}
		if dest != place && f.Ships.Total() > 0 {
			for _, x := range t.aboard(f) {
				t.setAt(x, dest)
			}
			t.setAt(f, dest)
		}
	}
}

// captureCargo moves the cargo a fleet can no longer carry to the captor:
// the forces aboard that no longer fit (in order, the last ones first), their
// guns to a new force of the captor's aboard its fleet, their troops
// prisoners aboard it; depots the captor's ("If captured transports are
// carrying troops they leave the game except for guns and depots, which the
// winner may then use").
func (t *turn) captureCargo(from, prize *game.Force, ev *SeaBattle) {
	c := t.r.Cargo
	room := c.Capacity * from.Ships.AllTransports()
	used := 0
	cargo := t.aboard(from)
	var lost []*game.Force
	for _, x := range cargo {
		need := c.PointsOf(x)
		if used+need <= room {
			used += need
			continue
		}
		lost = append(lost, x)
	}
	for i := range t.s.Depots {
		d := &t.s.Depots[i]
		if d.Aboard != from.ID {
			continue
		}
		if used+c.Depot <= room {
			used += c.Depot
			continue
		}
		d.Aboard, d.Nation, d.GrantedTo = prize.ID, prize.Nation, nil
		ev.DepotsCaptured = append(ev.DepotsCaptured, d.ID)
	}
	for _, x := range lost {
		if len(x.Guns) > 0 {
			id, err := t.newForceID(prize.Nation, "")
			if err == nil {
				nf := &game.Force{ID: id, Nation: prize.Nation, At: prize.At, Aboard: prize.ID, Guns: x.Guns, Since: t.number}
				x.Guns = nil
				t.addForce(nf)
				ev.GunsCaptured = append(ev.GunsCaptured, nf.Guns...)
				ev.PrizeForce = nf.ID
			}
		}
		x.Aboard = prize.ID
		x.Garrison = false
		ev.Prisoners = append(ev.Prisoners, x.ID)
		if x.IsEmpty() {
			t.remove(x.ID)
		}
	}
}

// escapeTo is where a beaten fleet goes: a port of its nation opening on the
// sea area, else one sea area downwind, else it stays. A fleet beaten in a
// good-holding hex goes out into the sea area first.
func (t *turn) escapeTo(p game.Place, n game.NationID) game.Place {
	seas := []game.SeaID{p.Sea}
	if !p.IsSea() {
		seas = t.m.SeasTouching(p.Hex)
	}
	for _, s := range seas {
		for _, c := range t.m.Cities {
			if !c.Port || t.cityState(c.Name).Controller != n {
				continue
			}
			if slices.Contains(t.m.SeasTouching(c.Hex), s) {
				return game.AtHex(c.Hex)
			}
		}
	}
	for _, s := range seas {
		nb := slices.Clone(t.m.AdjacentSeas(s))
		slices.Sort(nb)
		for _, x := range nb {
			if kind, marked := t.m.WindBetween(s, x); marked && kind == hexmap.WithWind {
				return game.AtSea(x)
			}
		}
	}
	if !p.IsSea() && len(seas) > 0 {
		return game.AtSea(seas[0])
	}
	return p
}

// landPrisoners: "Troops aboard transports disappear once the transports
// carrying them enter a friendly port." Prisoners aboard a fleet of another
// nation that lies in a port its nation holds leave the game.
func (t *turn) landPrisoners() {
	for _, f := range t.live() {
		if f.Aboard == "" {
			continue
		}
		fl := t.force(f.Aboard)
		if fl == nil || fl.Nation == f.Nation || fl.At.IsSea() {
			continue
		}
		c, ok := t.m.CityAt(fl.At.Hex)
		if !ok || !c.Port || t.cityState(c.Name).Controller != fl.Nation {
			continue
		}
		t.emit(&ForceDisbanded{Force: f.ID, Reason: "prisoners landed in " + c.Name, Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
			t.cite("Sea Battles", ""), fl.At, to(f.Nation, fl.Nation), f.Nation, fl.Nation)
		t.remove(f.ID)
	}
}

// fleetsEscapeCapturedPort: "ships in ports are immune to attack. If the
// fleet's port is captured it may escape to sea." The fleets of nations
// hostile to the captor in the port put out into the first sea area it
// opens on (by ID), with what they carry.
func (t *turn) fleetsEscapeCapturedPort(c *hexmap.City, captor game.NationID) {
	if !c.Port {
		return
	}
	seas := slices.Clone(t.m.SeasTouching(c.Hex))
	if len(seas) == 0 {
		return
	}
	slices.Sort(seas)
	dest := game.AtSea(seas[0])
	for _, f := range slices.Clone(t.forcesAt(game.AtHex(c.Hex))) {
		if !f.IsFleet() || !t.hostile(f.Nation, captor) {
			continue
		}
		for _, x := range t.aboard(f) {
			t.setAt(x, dest)
		}
		t.setAt(f, dest)
		t.emit(&SeaMoved{Fleet: f.ID, From: game.AtHex(c.Hex), Path: []game.Place{dest}, Stopped: "escaped to sea: " + c.Name + " was captured"},
			t.cite("Sea Battles", ""), dest, to(f.Nation), f.Nation)
	}
}
