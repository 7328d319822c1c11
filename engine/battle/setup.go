package battle

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Dice is where a model's randomness comes from: the engine passes its own
// seeded, recording dice (engine.Dice satisfies it). Roll throws one die of
// the given sides and returns 1..sides.
type Dice interface {
	Roll(purpose string, sides int, subject string) int
}

// Setup is everything a battle is fought from: the place, the two sides and
// the rules. Sides[0] and Sides[1] are the two blocs of allied nations; which
// is which carries no meaning (the engine puts the bloc with the first nation
// in name order first).
type Setup struct {
	Hex     game.Hex
	Terrain game.Terrain
	// City is the city in the hex ("" for none); CitySide is the side that
	// holds it (-1: neither, or no city). CityValue is its tax value.
	City      string `json:",omitempty"`
	CitySide  int
	CityValue int `json:",omitempty"`
	// Month is the calendar month of the turn (4 = April … 9 = September):
	// LGG's day length depends on the season.
	Month int `json:",omitempty"`
	// Days is how many days of battle the turn leaves room for (at least 1).
	Days  int
	Sides [2]Side
}

// Side is one bloc of allied nations.
type Side struct {
	Nations []game.NationID
	// Stance is attack if any of the side's forces attacks.
	Stance game.Stance
	Forces []game.ForceID
	// Commander is the senior general of the nation with most figures: the
	// general with most experience there (ties by ID). Nil when the side has
	// no general.
	Commander *Commander `json:",omitempty"`
	// Staff is every general on the side, the Commander first, then by
	// experience and ID: the commander and his brigadiers.
	Staff []Commander `json:",omitempty"`
	// Generals counts every general on the side.
	Generals int
	Units    []Unit
	// Fieldworks is the inches of works the side's forces built in the hex.
	Fieldworks int `json:",omitempty"`
	// ScoutingPoints of the whole side.
	ScoutingPoints int
	// Advantage is the setup advantage: 1752 from the scouting ratio (0 when
	// setting out 4 units at a time, 1 at 2, 2 at 1); V4 the operational
	// advantage points (only for a side on attack, at most 4). TerrainAdvantage
	// is the number of the side's front units the ground favours, given to the
	// side whose senior general has more experience.
	Advantage        int `json:",omitempty"`
	TerrainAdvantage int `json:",omitempty"`
}

// Commander is a side's senior general.
type Commander struct {
	Nation game.NationID
	Force  game.ForceID
	ID     string
	Name   string
	XP     int
	Genius bool `json:",omitempty"`
}

// Kind is a battle unit's type.
type Kind uint8

// The unit kinds.
const (
	Infantry  Kind = iota + 1 // line infantry battalion
	Light                     // regular light infantry
	Grenzers                  // irregular light infantry: always skirmish
	HeavyCav                  // cuirassiers
	MediumCav                 // dragoons
	LightCav                  // hussars
	Battery                   // 1–4 guns with their gunners
)

var kindNames = [...]string{"", "infantry", "light infantry", "Grenzers", "heavy cavalry", "medium cavalry", "light cavalry", "battery"}

// String names the kind as a narrative says it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if i > 0 && n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unit kind %q: expected one of %v", b, kindNames[1:])
}

// IsCavalry reports the mounted kinds.
func (k Kind) IsCavalry() bool { return k == HeavyCav || k == MediumCav || k == LightCav }

// IsFoot reports the infantry kinds.
func (k Kind) IsFoot() bool { return k == Infantry || k == Light || k == Grenzers }

// KindOf returns the unit kind figures of an arm form.
func KindOf(a game.Arm) Kind {
	switch a {
	case game.LineInfantry:
		return Infantry
	case game.LightInfantry:
		return Light
	case game.IrregularLight:
		return Grenzers
	case game.HeavyCavalry:
		return HeavyCav
	case game.MediumCavalry:
		return MediumCav
	case game.LightCavalry:
		return LightCav
	}
	return Battery
}

// Unit is one unit on the field: a battalion or regiment of up to 12 figures
// (more in V4 where a remainder is spread), or a battery of guns with their
// crews. Every unit comes from one stack of one force, so its losses go back
// to that stack.
type Unit struct {
	ID     string
	Nation game.NationID
	Force  game.ForceID
	Kind   Kind
	Arm    game.Arm
	Grade  game.Grade
	// Figures: troop figures (the gunners, for a battery).
	Figures int
	// Guns of a battery, all of one kind.
	Guns    int          `json:",omitempty"`
	GunKind game.GunKind `json:",omitzero"`
	// Tired: exhausted or unsupplied figures ("Exhausted figures suffer the
	// same morale and battle penalties as unsupplied figures, and if they are
	// brigaded into units with normal figures, the entire unit is treated as
	// exhausted"): -1 on shooting and morale, -1 in melee.
	Tired  bool `json:",omitempty"`
	Traits game.Traits
}

// MaxUnitsPerStack bounds the units one stack forms: beyond 128 units
// (1,536 figures of one arm and grade in one force, 512 guns of a kind) the
// units grow instead, so that the battle stays a few hundred units.
const MaxUnitsPerStack = 128

// FormUnits forms one force's units: each troop stack into 12-figure
// battalions or regiments with a remainder (V4: a remainder under half a unit
// spread over the others), exhausted figures apart from fresh ones (a player
// forming units keeps them apart, since a unit with any exhausted figure
// fights exhausted), and each kind of gun into batteries of 2–4 with 4
// gunners per gun, crews taken from the force's gunners best grade first.
// Gunners left without guns stay off the field.
func FormUnits(r *ruleset.Ruleset, f *game.Force, traits game.Traits) []Unit {
	lb := r.LandBattles
	size := max(lb.UnitSize, 1)
	var out []Unit
	n := 0
	add := func(u Unit) {
		n++
		u.ID = fmt.Sprintf("%s.%d", f.ID, n)
		u.Nation, u.Force, u.Traits = f.Nation, f.ID, traits
		out = append(out, u)
	}
	for _, tr := range f.Troops {
		if tr.Arm == game.Gunners || tr.Count <= 0 {
			continue
		}
		ex := min(tr.Exhausted, tr.Count)
		for _, part := range []struct {
			count int
			tired bool
		}{{tr.Count - ex, f.Unsupplied}, {ex, true}} {
			sz := size
			if part.count > size*MaxUnitsPerStack {
				// A very large stack forms bigger units so that a battle
				// stays a few hundred units whatever the army's size.
				sz = ceilDiv(part.count, MaxUnitsPerStack)
			}
			for _, c := range splitUnits(part.count, sz, lb.MergeRemainder) {
				add(Unit{Kind: KindOf(tr.Arm), Arm: tr.Arm, Grade: tr.Grade, Figures: c, Tired: part.tired})
			}
		}
	}
	// Crews, best grade first.
	type crew struct {
		grade game.Grade
		n     int
		tired int
	}
	var crews []crew
	for _, tr := range f.Troops {
		if tr.Arm == game.Gunners && tr.Count > 0 {
			crews = append(crews, crew{tr.Grade, tr.Count, tr.Exhausted})
		}
	}
	slices.SortStableFunc(crews, func(a, b crew) int { return int(a.grade) - int(b.grade) })
	per := max(lb.GunnersPerGun, 1)
	guns := slices.Clone(f.Guns)
	slices.SortStableFunc(guns, func(a, b game.Guns) int { return int(b.Kind) - int(a.Kind) })
	for _, g := range guns {
		hi := max(lb.BatteryMax, 1)
		if g.Count > hi*MaxUnitsPerStack {
			hi = ceilDiv(g.Count, MaxUnitsPerStack)
		}
		for _, b := range splitBatteries(g.Count, max(lb.BatteryMin, 1), hi) {
			left := b
			for left > 0 && len(crews) > 0 {
				c := &crews[0]
				take := min(left*per, c.n)
				ng := min(left, ceilDiv(take, per))
				tired := f.Unsupplied || c.tired > 0
				add(Unit{Kind: Battery, Arm: game.Gunners, Grade: c.grade, Figures: take, Guns: ng, GunKind: g.Kind, Tired: tired})
				c.n -= take
				c.tired = max(0, c.tired-take)
				left -= ng
				if c.n == 0 {
					crews = crews[1:]
				}
			}
		}
	}
	return out
}

// splitUnits divides n figures into units of size, the remainder a unit of
// its own, or (merge) spread over the full units when under half a unit.
func splitUnits(n, size int, merge bool) []int {
	if n <= 0 {
		return nil
	}
	full, rem := n/size, n%size
	var out []int
	for range full {
		out = append(out, size)
	}
	if rem == 0 {
		return out
	}
	if merge && full > 0 && rem*2 < size {
		for i := 0; rem > 0; i = (i + 1) % full {
			out[i]++
			rem--
		}
		return out
	}
	return append(out, rem)
}

// splitBatteries divides n guns into batteries of lo..hi guns, as even as
// possible; fewer than lo guns make one small battery.
func splitBatteries(n, lo, hi int) []int {
	if n <= 0 {
		return nil
	}
	k := ceilDiv(n, hi)
	out := make([]int, k)
	for i := range out {
		out[i] = n / k
		if i < n%k {
			out[i]++
		}
	}
	_ = lo
	return out
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// Figures counts a side's troop figures (gunners included).
func (s *Side) Figures() int {
	n := 0
	for _, u := range s.Units {
		n += u.Figures
	}
	return n
}

// Guns counts a side's gun models on the field.
func (s *Side) Guns() int {
	n := 0
	for _, u := range s.Units {
		n += u.Guns
	}
	return n
}

// Advantages fills each side's setup advantage and terrain advantage from the
// edition's rules: 1752 units set out 4/2/1 at a time by the scouting ratio;
// V4 operational-advantage points for a side on attack; in both the side
// whose senior general has more experience gets a terrain advantage (V4: "I
// will use a D6 roll to decide just how good it will be": half the die,
// rounded up, front units favoured; 1752: one unit per point of experience
// difference, at most 3).
func Advantages(r *ruleset.Ruleset, s *Setup, d Dice) {
	lb := r.LandBattles
	xp := func(i int) int {
		if c := s.Sides[i].Commander; c != nil {
			return c.XP
		}
		return -1
	}
	for i := range s.Sides {
		me, en := &s.Sides[i], &s.Sides[1-i]
		if lb.Setup.Base > 0 {
			switch lb.Setup.UnitsAtATime(me.ScoutingPoints, en.ScoutingPoints) {
			case lb.Setup.AtThreeToOne:
				me.Advantage = 2
			case lb.Setup.AtTwoToOne:
				me.Advantage = 1
			}
		}
		if lb.OperationalAdvantage.MaxShift > 0 && me.Stance == game.Attack {
			diff := max(0, xp(i)) - max(0, xp(1-i))
			p := lb.OperationalAdvantage.Points(diff, me.Generals, fighting(me), fighting(en), me.ScoutingPoints, en.ScoutingPoints)
			me.Advantage = min(max(p, 0), lb.OperationalAdvantage.MaxShift)
		}
	}
	for i := range s.Sides {
		diff := xp(i) - xp(1-i)
		if diff <= 0 || xp(1-i) < 0 && xp(i) <= 0 {
			continue
		}
		if lb.MultiDay {
			s.Sides[i].TerrainAdvantage = ceilDiv(d.Roll("terrain advantage", 6, s.Hex.String()), 2)
		} else {
			s.Sides[i].TerrainAdvantage = min(diff, 3)
		}
	}
}

func fighting(s *Side) int {
	n := 0
	for _, u := range s.Units {
		if u.Kind != Battery {
			n += u.Figures
		}
	}
	return n
}
