package battle

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// The simulation's rules one at a time, each against the line of 001 (or
// of the campaign rules) it plays, on a field set up by hand.

// scriptDice throws the faces given for a purpose, in order, then 1s.
type scriptDice struct{ faces map[string][]int }

func (d *scriptDice) Roll(purpose string, sides int, subject string) int {
	if f := d.faces[purpose]; len(f) > 0 {
		d.faces[purpose] = f[1:]
		return min(f[0], sides)
	}
	return 1
}

// field1 sets up a one-slot field: an attacker's and a defender's unit
// facing each other gap inches apart on clear ground, each of the kind and
// grade given.
func field1(t *testing.T, r *ruleset.Ruleset, ak, dk game.Arm, ag, dg game.Grade, gap int) (*sim, *sunit, *sunit) {
	t.Helper()
	a := armySpec{nation: "eisenmark", stance: game.Attack, troops: []game.Troops{{Arm: ak, Grade: ag, Count: 12}}}
	d := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{{Arm: dk, Grade: dg, Count: 12}}}
	s := setupOf(r, game.Clear, a, d, &scriptDice{faces: map[string][]int{}})
	p := DefaultSimParams
	p.Ground = nil
	b := newSim(r, s, &scriptDice{faces: map[string][]int{}}, p)
	au, du := b.sides[0].units[0], b.sides[1].units[0]
	for _, u := range []*sunit{au, du} {
		ss := b.sides[u.side]
		if u.st == stSkirmish {
			ss.skirm = nil
		}
		for k := range ss.front {
			ss.front[k] = nil
		}
		u.st, u.slot, u.fwd = stFront, 1, 0
		ss.front[1] = u
	}
	au.fwd = b.p.SetupInches - gap
	return b, au, du
}

func withDice(b *sim, faces map[string][]int) { b.d = &scriptDice{faces: faces} }

// TestMeleeFactors: 001's melee table, the lines pbem once got wrong.
func TestMeleeFactors(t *testing.T) {
	r := ruleset.SYW1752()
	for _, c := range []struct {
		name  string
		arm   game.Arm
		grade game.Grade
		going game.Terrain
		want  int
	}{
		// "DRG or GRD +1": dragoons (medium cavalry), fresh +1, charging +1.
		{"dragoons", game.MediumCavalry, game.GradeC, game.Clear, 3},
		// "HC +2".
		{"cuirassiers", game.HeavyCavalry, game.GradeC, game.Clear, 4},
		// "DRG or GRD +1": grenadiers (grade A foot).
		{"grenadiers", game.LineInfantry, game.GradeA, game.Clear, 3},
		// "ART & Irregular LI in the open -2": Grenzers −2 in the open,
		// not also "Irregular LC/COI -1" (that line is irregular line foot
		// and horse).
		{"Grenzers in the open", game.IrregularLight, game.GradeD, game.Clear, 0},
		// "Irregular LI in Bad Going -1".
		{"Grenzers in bad going", game.IrregularLight, game.GradeD, game.Rough, 1},
		{"line infantry", game.LineInfantry, game.GradeC, game.Clear, 2},
	} {
		b, au, du := field1(t, r, c.arm, game.LineInfantry, c.grade, game.GradeC, 1)
		b.f.going = c.going
		if got := b.meleeMod(au, du, true, false); got != c.want {
			t.Errorf("%s charging: melee %+d, want %+d", c.name, got, c.want)
		}
	}
}

// TestChargeFactors: 001 6.1, "COI charging LI/ART in open +2", "LI
// charging COI in open -2", "CAV charging non-CAV +2".
func TestChargeFactors(t *testing.T) {
	r := ruleset.SYW1752()
	for _, c := range []struct {
		name   string
		a, d   game.Arm
		die    int
		routed bool
	}{
		// A fresh C light battalion: BMI 6. Line infantry +2 in the open:
		// a 4 routs it.
		{"line on light infantry", game.LineInfantry, game.LightInfantry, 4, true},
		{"line on light infantry, a 3", game.LineInfantry, game.LightInfantry, 3, false},
		// Light infantry −2 on line infantry: even a 6 does not.
		{"light on line infantry", game.LightInfantry, game.LineInfantry, 6, false},
		// Cavalry +2 on foot.
		{"dragoons on line infantry", game.MediumCavalry, game.LineInfantry, 4, true},
		{"line on line infantry, a 6", game.LineInfantry, game.LineInfantry, 6, true},
		{"line on line infantry, a 5", game.LineInfantry, game.LineInfantry, 5, false},
	} {
		b, au, du := field1(t, r, c.a, c.d, game.GradeC, game.GradeC, 1)
		withDice(b, map[string][]int{"charge test": {c.die}})
		if got := b.chargeTest(au, du, false); got != c.routed {
			t.Errorf("%s, die %d: routed %v, want %v", c.name, c.die, got, c.routed)
		}
	}
}

// TestBatteryMoraleIndex: a battery's morale index is its strength and
// grade like any unit's ("A units Basic Morale Index is its current
// strength + modifiers"): no −2 of pbem's own.
func TestBatteryMoraleIndex(t *testing.T) {
	r := ruleset.SYW1752()
	a := armySpec{nation: "eisenmark", stance: game.Attack, troops: []game.Troops{inf(game.GradeC, 12), {Arm: game.Gunners, Grade: game.GradeC, Count: 8}},
		guns: []game.Guns{{Kind: game.FieldGun, Count: 2}}}
	s := setupOf(r, game.Clear, a, army("fromande", game.Defend, game.GradeC, 12), newDice(1))
	b := newSim(r, s, newDice(1), DefaultSimParams)
	for _, u := range b.sides[0].units {
		if u.u.Kind == Battery {
			if got := b.bmi(u, false); got != u.sp {
				t.Errorf("battery of %d SP, grade C: morale index %d, want %d", u.sp, got, u.sp)
			}
			return
		}
	}
	t.Fatal("no battery")
}

// TestSkirmisherRanges: "LI ... short 0"- 6" ... long 6"- 9"": light
// infantry fire at −1 to 6", −2 to 9", not beyond (the 9–18" band is the
// guns').
func TestSkirmisherRanges(t *testing.T) {
	b, au, _ := field1(t, ruleset.SYW1752(), game.LightInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
	for _, c := range []struct {
		gap, mod int
		ok       bool
	}{{3, -1, true}, {6, -1, true}, {8, -2, true}, {9, -2, true}, {10, 0, false}, {15, 0, false}} {
		mod, ok := b.musketRange(au, c.gap)
		if ok != c.ok || ok && mod != c.mod {
			t.Errorf("light infantry at %d\": %+d, in range %v; want %+d, %v", c.gap, mod, ok, c.mod, c.ok)
		}
	}
}

// TestGeneralsAtRiskOnlyAttached: "Generals/ADC cannot usually be fired on
// or attacked while Unattached"; "If a unit suffers losses from Fire while
// General/ADC is Attached he rolls for Risk to General from Fire" (2d6 1–3
// dead).
func TestGeneralsAtRiskOnlyAttached(t *testing.T) {
	r := ruleset.SYW1752()
	b, au, du := field1(t, r, game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
	chief := b.sides[1].chief
	if chief == nil || chief.unit != nil {
		t.Fatal("the defender's commander should stand unattached at the start")
	}
	withDice(b, map[string][]int{"fire": {6, 6}, "risk to general": {1, 1}})
	b.shot(b.sides[0], au, du, 0, false)
	if chief.out {
		t.Fatal("an unattached commander was killed by fire on a unit of his line")
	}
	chief.unit = du
	withDice(b, map[string][]int{"fire": {6, 6}, "risk to general": {1, 1}})
	b.shot(b.sides[0], au, du, 0, false)
	if !chief.out || chief.fate != Killed {
		t.Errorf("the commander attached to a unit losing SP to fire rolled 2: fate %q, want killed", chief.fate)
	}
}

// TestShakenByGeneralsFall: "If a General is Killed/Incapacitated all units
// in his chain of command within 18" are shaken at end of bound"; those
// units count toward the army's break only if they fail their next rally
// (4+ carries on; a failure retires the unit, which counts until its next
// rally).
func TestShakenByGeneralsFall(t *testing.T) {
	r := ruleset.SYW1752()
	s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 240), army("fromande", game.Defend, game.GradeC, 240), newDice(1))
	b := newSim(r, s, newDice(1), DefaultSimParams)
	ss := b.sides[0]
	before := b.count(ss).Lost()
	chief := ss.chief
	b.generalOut(chief, Killed)
	b.endOfBound()
	var near, far []*sunit
	for _, u := range ss.front {
		if u == nil {
			continue
		}
		if abs(u.slot-chief.home) <= 3 {
			near = append(near, u)
		} else {
			far = append(far, u)
		}
	}
	if len(near) == 0 || len(far) == 0 {
		t.Fatalf("%d units within 18\" and %d beyond: the test needs both", len(near), len(far))
	}
	for _, u := range near {
		if !u.shaken || !u.provisonal {
			t.Errorf("unit %s %d slots from the commander: shaken %v, provisional %v; want shaken provisionally", u.sub, abs(u.slot-chief.home), u.shaken, u.provisonal)
		}
	}
	for _, u := range far {
		if u.shaken {
			t.Errorf("unit %s beyond 18\" of the commander was shaken", u.sub)
		}
	}
	if got := b.count(ss).Lost(); got != before {
		t.Errorf("the shaken about the fallen commander counted at once: lost %d, was %d", got, before)
	}
	// The next rally: the first passes (a 4), the others fail (1s: they
	// retire and lose a strength point).
	faces := []int{4}
	withDice(b, map[string][]int{"rally shaken unit": faces})
	b.rally(ss)
	failed := 0
	for _, u := range near[1:] {
		if u.retiring {
			failed++
		}
	}
	if near[0].shaken || near[0].retiring {
		t.Errorf("the unit that rallied on a 4 is still shaken or retiring")
	}
	if failed != len(near)-1 {
		t.Errorf("%d of %d units that failed their rally are counted as retiring", failed, len(near)-1)
	}
	if b.count(ss).Lost() <= before {
		t.Error("units that failed the rally after their commander fell do not count toward the break")
	}
}

// TestMeleeLoserProvisional: a melee lost by 1 leaves the loser "Shaken"
// and retiring 3"; like the shaken about a fallen general it counts toward
// the break only if it then fails its rally.
func TestMeleeLoserProvisional(t *testing.T) {
	b, au, du := field1(t, ruleset.SYW1752(), game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
	// Charge test fails (1); melee 2 + 2 (fresh, charging) = 4 against
	// 4 + 1 (fresh) = 5: the charger loses by 1.
	withDice(b, map[string][]int{"charge test": {1}, "melee": {2, 4}})
	b.charge(b.sides[0], b.sides[1], au, du, false)
	if !au.shaken || !au.provisonal {
		t.Fatalf("the charger lost by 1: shaken %v, provisional %v; want shaken provisionally", au.shaken, au.provisonal)
	}
	if c := b.count(b.sides[0]); c.Shaken != 0 {
		t.Errorf("the melee loser counted shaken at once (%d)", c.Shaken)
	}
}

// TestCoverBelongsToTheGround: fieldworks are a position's: the unit on it
// is "in Fortifications" (−3), the unit that leaves it is not, and the unit
// brought up into the slot is.
func TestCoverBelongsToTheGround(t *testing.T) {
	b, au, du := field1(t, ruleset.SYW1752(), game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
	b.f.g[1][1] = ground{cover: coverWorks, sp: 6}
	if b.coverOf(du) != coverWorks {
		t.Fatal("the unit on the works' position is not covered by them")
	}
	du.fwd = 2
	if b.coverOf(du) != coverNone {
		t.Error("a unit that stepped out in front of its works still has their cover")
	}
	du.fwd = 0
	ss := b.sides[1]
	b.retire(ss, du)
	fresh := &sunit{u: &Unit{ID: "F1.9", Nation: "fromande", Kind: Infantry, Arm: game.LineInfantry, Grade: game.GradeC, Figures: 12}, side: 1, maxSP: 6, sp: 6, st: stReserve}
	ss.units = append(ss.units, fresh)
	ss.reserve = []*sunit{fresh}
	b.fillFront(ss)
	if fresh.st != stFront || fresh.slot != 1 || b.coverOf(fresh) != coverWorks {
		t.Errorf("the unit brought up into the works' slot: state %d slot %d cover %d; want the works' cover", fresh.st, fresh.slot, b.coverOf(fresh))
	}
	_ = au
}

// TestFortificationMeleeResult: "If the losing unit has Charged a
// BUA/Fortification, or where the defender is immediately behind an
// obstacle the losing unit does not Rout but Retires 6" and is Shaken, but
// still loses 2 SP."
func TestFortificationMeleeResult(t *testing.T) {
	for _, g := range []ground{{cover: coverWorks, sp: 6}, {cover: coverSoft, obstacle: true}} {
		b, au, du := field1(t, ruleset.SYW1752(), game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
		b.f.g[1][1] = g
		// Melee 1 + 2 − 3 (or −2) against 6 + 1: lost by 3 or more.
		withDice(b, map[string][]int{"charge test": {1}, "melee": {1, 6}})
		fwd := b.p.SetupInches - 0
		b.charge(b.sides[0], b.sides[1], au, du, false)
		if au.st != stFront || !au.shaken || au.sp != au.maxSP-2 || au.fwd != fwd-6 {
			t.Errorf("charging %+v and losing by 3+: state %d shaken %v SP %d/%d fwd %d; want in line, shaken, 2 SP lost, 6\" back", g, au.st, au.shaken, au.sp, au.maxSP, au.fwd)
		}
	}
}

// TestCityFire: 1752 "Troops in the city are immune to hits if they did not
// fire out on their prior active turn. If they did fire they may be shot at
// as hard cover targets, but with losses cut a further 50%"; V4 "All
// targets in a city are hit on a 6(4-6) regardless of other factors" — a
// single D6, 6 for small arms, 4–6 for guns, and no other factor.
func TestCityFire(t *testing.T) {
	for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
		b, au, du := field1(t, r, game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
		b.f.g[1][1] = ground{cover: coverCity}
		fs := b.sides[0]
		switch r.LandBattles.MultiDay {
		case false:
			withDice(b, map[string][]int{"fire": {6, 6}})
			b.shot(fs, au, du, 0, false)
			if du.sp != du.maxSP || du.shaken {
				t.Errorf("1752: a garrison that held its fire was hit (SP %d) or shaken (%v)", du.sp, du.shaken)
			}
			du.firedOut = true
			// 12 + 1 − 2 = 11: one SP, kept on a 4–6.
			withDice(b, map[string][]int{"fire": {6, 6}, "losses in the city": {4}})
			b.shot(fs, au, du, 0, false)
			if du.sp != du.maxSP-1 {
				t.Errorf("1752: a garrison that fired out, hit for 1 SP kept on a 4: SP %d, want %d", du.sp, du.maxSP-1)
			}
		default:
			withDice(b, map[string][]int{"fire": {6, 6}, "fire at the city": {5}})
			b.shot(fs, au, du, 0, false)
			if du.sp != du.maxSP || du.shaken {
				t.Errorf("V4: a 5 hit (SP %d) or shook (%v) troops in the city", du.sp, du.shaken)
			}
			withDice(b, map[string][]int{"fire": {1, 1}, "fire at the city": {6}})
			b.shot(fs, au, du, 0, false)
			if du.sp != du.maxSP-1 || du.shaken {
				t.Errorf("V4: a 6 (with a fire score of 3) took SP %d/%d, shaken %v; want 1 SP and no morale test", du.sp, du.maxSP, du.shaken)
			}
		}
	}
}

// TestGarrisonChargingOut: the city's cover is its blocks'; a garrison unit
// that charges out of them is in the open.
func TestGarrisonChargingOut(t *testing.T) {
	b, au, du := field1(t, ruleset.SYW1752(), game.LineInfantry, game.LineInfantry, game.GradeC, game.GradeC, 1)
	b.f.g[0][1] = ground{cover: coverCity}
	au.fwd = 0
	if !b.inCity(au) {
		t.Fatal("the unit on the city's position is not in the city")
	}
	au.fwd = b.p.SetupInches - 2
	withDice(b, map[string][]int{"charge test": {1}, "melee": {3, 3}})
	b.charge(b.sides[0], b.sides[1], au, du, false)
	if b.inCity(au) || b.coverOf(au) != coverNone {
		t.Error("a unit that charged out of the city keeps its cover")
	}
}

// TestHitsAreFigures: the campaign's promotions count hits ("Each 4 hits
// (but not rout hits) earns 1 point"; V4 "1 promotion point per hit it
// inflicted"), and a hit on the campaign's table is a figure: the hits a
// side is credited with are the figures it killed (fire and melee; rout
// hits are not hits).
func TestHitsAreFigures(t *testing.T) {
	for _, m := range []Model{Simulation{}, LGG{}} {
		for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
			for seed := uint64(1); seed <= 40; seed++ {
				d := newDice(seed)
				s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 120), army("fromande", game.Defend, game.GradeC, 120), d)
				res := m.Fight(r, s, d)
				for i := range 2 {
					hits, killed := 0, 0
					for _, h := range res.Sides[i].Hits {
						hits += h.Hits
					}
					for _, c := range res.Sides[1-i].Losses {
						killed += c.Killed
					}
					if hits != killed {
						t.Errorf("%s %s seed %d: side %d credited with %d hits for %d enemy figures killed", m.Name(), r.ID, seed, i, hits, killed)
					}
				}
			}
		}
	}
}

// TestGunsTakenOnlyInPursuit: the campaign takes a beaten army's guns in
// the pursuit ("The loser also has a chance to lose gun models as follows
// (D6 score)"), not on the field: both models tell a battery overrun (001:
// "the Gun is deemed Captured by the Winner") but report no guns lost,
// unless the ruleset takes guns on the field (LandBattleRules.
// GunsTakenOnField).
func TestGunsTakenOnlyInPursuit(t *testing.T) {
	// The simulation: a battery that routs is overrun.
	for _, on := range []bool{false, true} {
		r := ruleset.SYW1752()
		r.LandBattles.GunsTakenOnField = on
		d := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{inf(game.GradeC, 12), {Arm: game.Gunners, Grade: game.GradeC, Count: 8}},
			guns: []game.Guns{{Kind: game.FieldGun, Count: 2}}}
		s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 24), d, newDice(1))
		b := newSim(r, s, newDice(1), DefaultSimParams)
		bt := b.sides[1].batt[0]
		b.rout(bt)
		b.res.Outcome, b.res.Winner, b.sides[1].broken = Decisive, 0, true
		b.finish()
		told := slices.ContainsFunc(b.res.Moments, func(m Moment) bool { return m.What == MGunsTaken && m.Side == 0 })
		if !told {
			t.Error("simulation: a battery routed, and no moment tells it was overrun")
		}
		if got := len(b.res.Sides[1].GunsLost); on != (got > 0) {
			t.Errorf("simulation, GunsTakenOnField %v: %d guns lost on the field reported", on, got)
		}
	}
	for _, m := range []Model{LGG{}} {
		for _, on := range []bool{false, true} {
			r := ruleset.SYW1752()
			r.LandBattles.GunsTakenOnField = on
			overrun, reported := 0, 0
			for seed := uint64(1); seed <= 100; seed++ {
				d := newDice(seed)
				a := army("eisenmark", game.Attack, game.GradeC, 240)
				s := setupOf(r, game.Clear, a, army("fromande", game.Defend, game.GradeC, 120), d)
				res := m.Fight(r, s, d)
				for _, mo := range res.Moments {
					if mo.What == MGunsTaken && mo.Side == 0 {
						overrun++
					}
				}
				reported += len(res.Sides[1].GunsLost)
			}
			switch {
			case overrun == 0:
				t.Errorf("%s: no battery overrun in 100 battles: the test proves nothing", m.Name())
			case !on && reported > 0:
				t.Errorf("%s: %d batteries reported lost on the field, though the campaign takes guns only in the pursuit", m.Name(), reported)
			case on && reported == 0:
				t.Errorf("%s, GunsTakenOnField: %d batteries overrun, none reported lost", m.Name(), overrun)
			}
		}
	}
}

// TestBatteryInTheLineIsCharged: a battery deployed in the enemy's line
// stands in an interval of it, no shelter from a charge: a unit with the
// battery directly to its front and within reach charges the guns, not the
// battalion beside them ("COI charging LI/ART in open +2"; 001's field
// column is for "Assault ... holding a bridge or BUA or Guns"), and a
// battery routed loses its guns ("When ART Routs the Crew run away & the
// Gun is deemed Captured").
func TestBatteryInTheLineIsCharged(t *testing.T) {
	r := ruleset.SYW1752()
	a := armySpec{nation: "eisenmark", stance: game.Attack, troops: []game.Troops{inf(game.GradeC, 12)}}
	d := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{inf(game.GradeC, 12), {Arm: game.Gunners, Grade: game.GradeC, Count: 8}},
		guns: []game.Guns{{Kind: game.FieldGun, Count: 2}}}
	s := setupOf(r, game.Clear, a, d, &scriptDice{faces: map[string][]int{}})
	p := DefaultSimParams
	p.Ground = nil
	b := newSim(r, s, &scriptDice{faces: map[string][]int{}}, p)
	b.turn = 1
	au := b.sides[0].front[slices.IndexFunc(b.sides[0].front, func(u *sunit) bool { return u != nil })]
	bt := b.sides[1].batt[0]
	if b.sides[1].front[bt.slot] == nil {
		t.Fatal("the battery does not stand in the line with a battalion")
	}
	// The attacker in the battery's slot, 2" from the enemy's line, moved
	// this bound.
	b.sides[0].front[au.slot] = nil
	au.slot, au.fwd, au.moved = bt.slot, b.p.SetupInches-2, true
	b.sides[0].front[au.slot] = au
	withDice(b, map[string][]int{"charge test": {6}})
	b.charges(b.sides[0], b.sides[1])
	if bt.st != stRouting || !bt.gunsTaken {
		t.Errorf("the battery in the charger's front was not charged and overrun: state %d, guns taken %v", bt.st, bt.gunsTaken)
	}
	if e := b.sides[1].front[bt.slot]; e == nil || e.st != stFront || e.shaken {
		t.Error("the battalion beside the battery was charged instead")
	}
}

// TestFlankChargeNeedsToWheel: "the target must be directly to the front
// of the Charging unit": a unit in an empty slot beside the enemy's line
// charges his flank only from level with it (the 1" every move keeps), and
// only in a bound it did not move — it wheels to face the flank first
// ("Wheeling: ... May then charge in a straight line"). Ahead of the
// enemy's line it sees his front corner, not his flank.
func TestFlankChargeNeedsToWheel(t *testing.T) {
	for _, c := range []struct {
		name  string
		gap   int
		moved bool
		want  bool
	}{
		{"level, stood the bound", 1, false, true},
		{"level, moved up this bound", 1, true, false},
		{"ahead of the enemy's line, in reach", 4, false, false},
	} {
		b, au, du := field1(t, ruleset.SYW1752(), game.MediumCavalry, game.LineInfantry, game.GradeC, game.GradeC, c.gap)
		// The charger in the next slot, its own front empty.
		b.sides[0].front[1] = nil
		au.slot = 2
		b.sides[0].front[2] = au
		au.moved = c.moved
		b.turn = 9
		withDice(b, map[string][]int{"test to charge": {1}, "charge test": {6}, "melee": {6, 1}})
		b.charges(b.sides[0], b.sides[1])
		if got := du.st != stFront || du.shaken || du.sp < du.maxSP; got != c.want {
			t.Errorf("%s: flank charged %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSmallArmyAttacks: an army of one or two units on attack goes in,
// though one volley on its first unit could break it ("usually enough time
// to decide the issue if an attacking force shows reasonable aggression"):
// the enemy it attacks loses men.
func TestSmallArmyAttacks(t *testing.T) {
	for _, n := range []int{12, 24} {
		killed := 0
		for seed := uint64(1); seed <= 20; seed++ {
			d := newDice(seed)
			a := armySpec{nation: "eisenmark", stance: game.Attack, troops: []game.Troops{inf(game.GradeC, n)}}
			df := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{inf(game.GradeC, n)}}
			res := Simulation{}.Fight(ruleset.SYW1752(), setupOf(ruleset.SYW1752(), game.Clear, a, df, d), d)
			for _, l := range res.Sides[1].Losses {
				killed += l.Killed
			}
		}
		if killed == 0 {
			t.Errorf("%d figures a side: in 20 battles the attacker never came to grips", n)
		}
	}
}

// TestTableBoundsTheLine: on 001's table ("the Peter Pig standard table of
// 5' x 3' (thus rendered 7.5' x 4.5')", 90 short inches) the line is no
// wider than 15 battalions; the rest of each army stands behind it and is
// brought up as gaps open ("Reserves. May be held at the rear in Field
// Column ready to be deployed when deemed necessary").
func TestTableBoundsTheLine(t *testing.T) {
	r := ruleset.SYW1752()
	d := newDice(1)
	s := setupOf(r, game.Clear, calArmy("eisenmark", game.Attack, game.GradeC, 1200), calArmy("fromande", game.Defend, game.GradeC, 1200), d)
	p := DefaultSimParams
	if b := newSim(r, s, d, p); b.f.width <= 15 {
		t.Fatalf("without a table the field is %d slots wide, want the armies' lines", b.f.width)
	}
	p.TableWidthInches = 90
	b := newSim(r, s, d, p)
	if b.f.width != 15 {
		t.Fatalf("on 001's table the field is %d slots wide, want 15", b.f.width)
	}
	for _, ss := range b.sides {
		if n := lineCount(ss); n != 15 || len(ss.reserve) < 80 {
			t.Errorf("side %d: %d in the line and %d behind it, want 15 and the rest", ss.idx, n, len(ss.reserve))
		}
	}
	ss := b.sides[1]
	gone := ss.front[7]
	b.leave(gone, stRouting)
	b.fillFront(ss)
	if u := ss.front[7]; u == nil || u == gone || u.st != stFront {
		t.Error("the reserve did not fill the gap in the line")
	}
}

// TestCounterCharge: 001 6.2, "Charged units which pass their Morale test
// may Counter-Charge if they have not Fired. Counter-Charging only
// available to INF & CAV in the open who are being Charged by an enemy unit
// to their front. The Counter-Charging unit is moved into contact with the
// Charging unit ½ way between their positions", and in melee
// "Charging/Counter Charging +1". Horse charging horse in the open meets a
// counter-charge: equal dice draw (both fresh, both charging); a unit that
// fired this bound, or one behind cover, receives the charge standing and
// loses by the charger's +1.
func TestCounterCharge(t *testing.T) {
	for _, c := range []struct {
		name    string
		fired   bool
		cover   cover
		counter bool
	}{
		{"in the open, not fired", false, coverNone, true},
		{"fired this bound", true, coverNone, false},
		{"at a wood's edge", false, coverSoft, false},
	} {
		b, au, du := field1(t, ruleset.SYW1752(), game.LightCavalry, game.LightCavalry, game.GradeC, game.GradeC, 4)
		du.firedOut = c.fired
		b.f.g[1][1].cover = c.cover
		withDice(b, map[string][]int{"charge test": {1}, "melee": {3, 3}})
		b.charge(b.sides[0], b.sides[1], au, du, false)
		// Both retire 3" after the melee (a draw, or lost by 1): from
		// half way, 2" ahead of its position, or from the position.
		want := -3
		if c.counter {
			want = 2 - 3
		}
		if du.fwd != want {
			t.Errorf("%s: the charged unit ended %d\" from its position, want %d\" (counter-charge %v)", c.name, du.fwd, want, c.counter)
		}
		if lost := du.shaken; lost == c.counter {
			t.Errorf("%s: the charged unit shaken %v; want a draw with the counter-charge, a lost melee without", c.name, lost)
		}
	}
}

// TestGunsSitedTogether: in a meeting engagement both sides site their
// batteries at once, each where the other's guns stood at deployment: the
// sites do not depend on which side is side 0.
func TestGunsSitedTogether(t *testing.T) {
	r := ruleset.SYW1752()
	slots := func(swap bool) ([]int, []int) {
		a := army("eisenmark", game.Attack, game.GradeC, 120)
		d := army("fromande", game.Attack, game.GradeC, 80)
		if swap {
			a, d = d, a
		}
		s := setupOf(r, game.Clear, a, d, &scriptDice{faces: map[string][]int{}})
		b := newSim(r, s, &scriptDice{faces: map[string][]int{}}, DefaultSimParams)
		var out [2][]int
		for i, ss := range b.sides {
			for _, u := range ss.batt {
				out[i] = append(out[i], u.slot)
			}
		}
		if swap {
			return out[1], out[0]
		}
		return out[0], out[1]
	}
	e0, f0 := slots(false)
	e1, f1 := slots(true)
	if !slices.Equal(e0, e1) || !slices.Equal(f0, f1) {
		t.Errorf("batteries sited differently by which side sites first: %v/%v against %v/%v", e0, f0, e1, f1)
	}
}

// TestEvade: 001 6.2, "Charged units of LI/LC/H.ART which pass their
// Morale test may Evade if they have not Fired. These units may evade
// 3"/6" directly away from the enemy unit attempting to charge them";
// "Move Charging unit into contact with defender if it stands, or its
// original position if it Routs/Evades out of Charge Reach". Hussars
// charged by cuirassiers (HC +2) step out of reach and no melee is fought;
// hussars charged by hussars (no worse off) counter-charge instead.
func TestEvade(t *testing.T) {
	for _, c := range []struct {
		name   string
		by     game.Arm
		evaded bool
	}{
		{"hussars charged by cuirassiers", game.HeavyCavalry, true},
		{"hussars charged by hussars", game.LightCavalry, false},
	} {
		b, au, du := field1(t, ruleset.SYW1752(), c.by, game.LightCavalry, game.GradeC, game.GradeC, 4)
		withDice(b, map[string][]int{"charge test": {1}, "melee": {3, 3}})
		start := au.fwd
		b.charge(b.sides[0], b.sides[1], au, du, false)
		if got := du.fwd == -6 && au.fwd == start && du.sp == du.maxSP && !du.shaken; got != c.evaded {
			t.Errorf("%s: evaded %v (charged unit at %d\", charger at %d\" from %d\"), want %v", c.name, got, du.fwd, au.fwd, start, c.evaded)
		}
	}
}
