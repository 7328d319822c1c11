package battle

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// The simulation's guns, and the withdrawal of an attack called off, each
// against the line of 001 (or of the campaign rules) it plays.

// countDice throws 6s and counts the rolls of each purpose.
type countDice map[string]int

func (d countDice) Roll(purpose string, sides int, subject string) int {
	d[purpose]++
	return min(6, sides)
}

// gunField is a one-slot field with a battery of the defender's, guns of
// the kind and number given, facing an attacker's battalion gap inches
// away.
func gunField(t *testing.T, r *ruleset.Ruleset, kind game.GunKind, guns, gap int) (*sim, *sunit, *sunit) {
	t.Helper()
	a := armySpec{nation: "eisenmark", stance: game.Attack, troops: []game.Troops{inf(game.GradeC, 12)}}
	d := armySpec{nation: "fromande", stance: game.Defend, troops: []game.Troops{{Arm: game.Gunners, Grade: game.GradeC, Count: 4 * guns}},
		guns: []game.Guns{{Kind: kind, Count: guns}}}
	s := setupOf(r, game.Clear, a, d, &scriptDice{faces: map[string][]int{}})
	p := DefaultSimParams
	p.Ground = nil
	b := newSim(r, s, &scriptDice{faces: map[string][]int{}}, p)
	au := b.sides[0].units[0]
	bt := b.sides[1].batt[0]
	for k := range b.sides[0].front {
		b.sides[0].front[k] = nil
	}
	au.st, au.slot, au.fwd = stFront, bt.slot, b.p.SetupInches-gap
	b.sides[0].front[bt.slot] = au
	b.sides[1].gens = nil // no general to steady the guns
	b.turn = 1
	return b, au, bt
}

// TestBatteryFiresOnce: "Firing Player's units may fire at enemy units",
// one 2d6 a unit; the campaign's battery of 2–4 guns is one unit ("guns
// must start with 4 gunners per model and 2-4 guns per battery"), as 001's
// ART unit is ("2 gun bases & 2 limber bases"). A battery of four guns
// fires once, as one of two does; before, it fired twice.
func TestBatteryFiresOnce(t *testing.T) {
	for _, guns := range []int{2, 3, 4} {
		b, _, bt := gunField(t, ruleset.SYW1752(), game.FieldGun, guns, 12)
		if bt.u.Guns != guns {
			t.Fatalf("a battery of %d guns formed, want %d", bt.u.Guns, guns)
		}
		d := countDice{}
		b.d = d
		b.fire(b.sides[1], b.sides[0])
		if d["fire"] != 2 {
			t.Errorf("a battery of %d guns threw %d fire dice in a fire phase, want 2 (one 2d6)", guns, d["fire"])
		}
		// A referee who reads a gun model as a gun base: a roll per two
		// guns.
		b.p.GunsPerRoll = 2
		d = countDice{}
		b.d = d
		b.fire(b.sides[1], b.sides[0])
		if want := 2 * ceilDiv(guns, 2); d["fire"] != want {
			t.Errorf("GunsPerRoll 2: a battery of %d guns threw %d fire dice, want %d", guns, d["fire"], want)
		}
	}
}

// TestBatteryLimbersToRetire: "UL ART required to Retire must LU to do so
// which will prevent them firing the next move"; "When UL & forced to
// Retire it LU for no cost & moves full move to the rear. Must About Face
// before UL"; "When LU a battery may About Face as a Formation Change,
// taking a full move"; "Changing formation including UL/LU takes a whole
// move stationary except Horse ART which takes ½ move". A shaken battery
// that fails its rally goes a move back and is silent until it has about
// faced and deployed: two of its moves for field guns, one for horse guns.
// One that retires 3" from a melee ("ART must LU") needs only to deploy,
// and charged while limbered it is "LU ART" (+1 to the charge test, −1 in
// the melee). Before, it stayed on its position and fired on.
func TestBatteryLimbersToRetire(t *testing.T) {
	for _, c := range []struct {
		kind   game.GunKind
		back   int
		silent int // own moves spent deploying again
	}{{game.FieldGun, 6, 2}, {game.HeavyGun, 3, 2}, {game.LightGun, 12, 1}} {
		b, _, bt := gunField(t, ruleset.SYW1752(), c.kind, 2, 12)
		ds, as := b.sides[1], b.sides[0]
		bt.shaken = true
		b.seq = 1
		withDice(b, map[string][]int{"rally shaken unit": {2}})
		b.rally(ds)
		if bt.st != stBattery || bt.fwd != -c.back || bt.limbered != c.silent {
			t.Fatalf("%v guns failing the rally: state %d, %d\" forward, %d moves to deploy; want a battery %d\" back, %d", c.kind, bt.st, bt.fwd, bt.limbered, c.back, c.silent)
		}
		b.move(ds, as) // the retire was this bound's move
		for k := 0; k <= c.silent; k++ {
			d := countDice{}
			b.d = d
			b.fire(ds, as)
			if fired := d["fire"] > 0; fired != (k == c.silent) {
				t.Errorf("%v guns, %d moves after the retire: fired %v", c.kind, k, fired)
			}
			b.seq += 2
			b.move(ds, as)
		}
	}
	b, au, bt := gunField(t, ruleset.SYW1752(), game.FieldGun, 2, 12)
	b.fallBack(bt, 3)
	if bt.limbered != 1 || bt.fwd != -3 {
		t.Errorf("a battery retiring 3\" from a melee: %d moves to deploy, %d\" forward; want 1, -3", bt.limbered, bt.fwd)
	}
	// Fresh +1, "ART ... in the open -2", "Attacked in flank or LU ART -1".
	if got, want := b.meleeMod(bt, au, false, false), b.status(bt)-2-1; got != want {
		t.Errorf("limbered battery in melee: %+d, want %+d (\"Attacked in flank or LU ART -1\")", got, want)
	}
	// Charge test against the limbered battery: +1 for "LU ART" (and +2
	// "COI charging LI/ART in open"): a 1 + 3 reaches a morale index of 4.
	withDice(b, map[string][]int{"charge test": {1}})
	if !b.chargeTest(au, bt, false) {
		t.Errorf("charge test 1 +3 against a limbered battery of morale index %d failed", b.bmi(bt, false))
	}
}

// TestCityGuns: the cities' fire rules are for the guns on the walls as for
// the foot in the blocks ("The defender may place any artillery in the
// city on the walls", 1752; "All targets in a city are hit on a 6(4-6)
// regardless of other factors", V4). Before, a battery on the city's front
// was fired at as in the open.
func TestCityGuns(t *testing.T) {
	for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
		b, au, bt := gunField(t, r, game.FieldGun, 2, 6)
		b.f.g[1][bt.slot] = ground{cover: coverCity}
		fs := b.sides[0]
		bt.firedOut = true
		switch r.LandBattles.MultiDay {
		case false:
			// 12 + 1 (fresh) − 2 (hard cover) = 11: one SP, lost on a 1–3.
			withDice(b, map[string][]int{"fire": {6, 6}, "losses in the city": {3}})
			b.shot(fs, au, bt, 0, false)
			if bt.sp != bt.maxSP {
				t.Errorf("1752: guns on the walls lost SP %d/%d to a hit cut on a 3", bt.sp, bt.maxSP)
			}
		default:
			withDice(b, map[string][]int{"fire": {6, 6}, "fire at the city": {5}})
			b.shot(fs, au, bt, 0, false)
			if bt.sp != bt.maxSP || bt.shaken {
				t.Errorf("V4: small arms' 5 hit (SP %d/%d) or shook (%v) the guns on the walls", bt.sp, bt.maxSP, bt.shaken)
			}
		}
	}
}

// TestCalledOffAttackWithdraws: after the 8th turn "voluntary retreat
// moves" are allowed ("Retreating off-table: When forces meet on the
// tabletop no unit may do any voluntary retreat moves for the first 8
// turns"), and a repulsed attacker "falls back to its starting positions".
// A line whose attack is called off about faces ("About Face/Retire in good
// order ... move normal speed less 3" foot") and marches back past its
// starting position until the enemy's guns no longer reach it (field guns
// "18"-27""), at most to its table edge. Before, it stood 7" from the
// enemy, in his guns' short range, for the rest of the day.
func TestCalledOffAttackWithdraws(t *testing.T) {
	b, au, _ := gunField(t, ruleset.SYW1752(), game.FieldGun, 2, 1)
	as, ds := b.sides[0], b.sides[1]
	as.calledOff = true
	b.turn = 9
	var got []int
	for range 6 {
		b.move(as, ds)
		got = append(got, au.fwd)
	}
	// 17" forward (1" from the guns): 3", then 6" a move, to 28" from the
	// battery: 10" behind its own position.
	if want := []int{14, 8, 2, -4, -10, -10}; !slices.Equal(got, want) {
		t.Errorf("a battalion withdrawing from 1\" off the enemy's guns stood at %v\" forward, want %v", got, want)
	}
	if g := b.gap(au, ds.batt[0]); g <= b.longRange(ds.batt[0]) {
		t.Errorf("withdrawn %d\" from the enemy's field guns, within their reach", g)
	}
}
