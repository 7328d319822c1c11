package game

import (
	"fmt"
	"strings"
)

// Grade is a troop quality grade, A (best) to D. Grade A cannot be bought;
// troops earn it by field promotion.
type Grade uint8

// The grades, best first.
const (
	GradeA Grade = iota + 1
	GradeB
	GradeC
	GradeD
)

// Grades lists the grades best first.
var Grades = []Grade{GradeA, GradeB, GradeC, GradeD}

// String returns "A" … "D".
func (g Grade) String() string {
	if g >= GradeA && g <= GradeD {
		return string(rune('A' + g - 1))
	}
	return fmt.Sprintf("Grade(%d)", uint8(g))
}

// ParseGrade reads "A" … "D" (any case).
func ParseGrade(s string) (Grade, error) {
	if len(s) == 1 {
		c := s[0] | 0x20
		if c >= 'a' && c <= 'd' {
			return Grade(c-'a') + GradeA, nil
		}
	}
	return 0, fmt.Errorf("grade %q: expected A, B, C or D", s)
}

// MarshalText writes the grade letter.
func (g Grade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a grade letter.
func (g *Grade) UnmarshalText(b []byte) error {
	x, err := ParseGrade(string(b))
	*g = x
	return err
}

// Arm is a kind of troop figure: the arms of service of the cost chart.
type Arm uint8

// The arms. Gunners serve the guns and are counted, bought and fielded like
// infantry; guns themselves are GunKind.
const (
	LineInfantry   Arm = iota + 1 // line infantry, grades A–D
	LightInfantry                 // regular light infantry (skirmishers), grades A–D
	IrregularLight                // irregular light infantry, Grenzlers: Grade D only
	HeavyCavalry                  // cuirassiers and the like
	MediumCavalry                 // dragoons
	LightCavalry                  // hussars: the scouts and pursuers
	Gunners                       // artillery crews
)

// Arms lists every arm in canonical order.
var Arms = []Arm{LineInfantry, LightInfantry, IrregularLight, HeavyCavalry, MediumCavalry, LightCavalry, Gunners}

var armNames = map[Arm]string{
	LineInfantry:   "infantry",
	LightInfantry:  "light-infantry",
	IrregularLight: "grenzer",
	HeavyCavalry:   "heavy-cavalry",
	MediumCavalry:  "medium-cavalry",
	LightCavalry:   "light-cavalry",
	Gunners:        "gunners",
}

// String returns the arm's order-sheet keyword ("light-cavalry").
func (a Arm) String() string {
	if n, ok := armNames[a]; ok {
		return n
	}
	return fmt.Sprintf("Arm(%d)", uint8(a))
}

// Keyword returns the arm's order-sheet keyword as it agrees with a count
// of n figures: "1 B gunner" but "15 C gunners" (the order checker reads
// both); the other keywords name the arm, not the figures, and stay as
// they are ("1 C infantry").
func (a Arm) Keyword(n int) string {
	if a == Gunners && n == 1 {
		return "gunner"
	}
	return a.String()
}

// ParseArm reads an arm keyword as String writes it (any case).
func ParseArm(s string) (Arm, error) {
	s = strings.ToLower(s)
	for _, a := range Arms {
		if armNames[a] == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("arm %q: expected one of infantry, light-infantry, grenzer, heavy-cavalry, medium-cavalry, light-cavalry, gunners", s)
}

// MarshalText writes the arm keyword.
func (a Arm) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an arm keyword.
func (a *Arm) UnmarshalText(b []byte) error {
	x, err := ParseArm(string(b))
	*a = x
	return err
}

// IsInfantry reports line, light and irregular light infantry.
func (a Arm) IsInfantry() bool {
	return a == LineInfantry || a == LightInfantry || a == IrregularLight
}

// IsCavalry reports heavy, medium and light cavalry.
func (a Arm) IsCavalry() bool {
	return a == HeavyCavalry || a == MediumCavalry || a == LightCavalry
}

// IsFighting reports infantry and cavalry: the figures that capture, garrison,
// besiege and block supply.
func (a Arm) IsFighting() bool { return a.IsInfantry() || a.IsCavalry() }

// Troops is a stack of identical figures in a force: Count figures of one arm
// and grade, of which Exhausted are exhausted (after a retreat, a battle or a
// failed assault; they recover by resting a full turn in supply in a city).
type Troops struct {
	Arm       Arm
	Grade     Grade
	Count     int
	Exhausted int `json:",omitempty"`
}

// String prints the stack the way orders and reports write it: "24 C infantry".
func (t Troops) String() string { return fmt.Sprintf("%d %s %s", t.Count, t.Grade, t.Arm) }

// GunKind is a gun model's weight.
type GunKind uint8

// The gun kinds.
const (
	LightGun GunKind = iota + 1
	FieldGun
	HeavyGun
)

// GunKinds lists the gun kinds, lightest first.
var GunKinds = []GunKind{LightGun, FieldGun, HeavyGun}

var gunNames = map[GunKind]string{LightGun: "light-gun", FieldGun: "field-gun", HeavyGun: "heavy-gun"}

// String returns the order-sheet keyword ("field-gun").
func (g GunKind) String() string {
	if n, ok := gunNames[g]; ok {
		return n
	}
	return fmt.Sprintf("GunKind(%d)", uint8(g))
}

// ParseGunKind reads a gun keyword as String writes it (any case).
func ParseGunKind(s string) (GunKind, error) {
	s = strings.ToLower(s)
	for _, g := range GunKinds {
		if gunNames[g] == s {
			return g, nil
		}
	}
	return 0, fmt.Errorf("gun %q: expected light-gun, field-gun or heavy-gun", s)
}

// MarshalText writes the gun keyword.
func (g GunKind) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a gun keyword.
func (g *GunKind) UnmarshalText(b []byte) error {
	x, err := ParseGunKind(string(b))
	*g = x
	return err
}

// Guns is a stack of gun models of one kind. Owner is set only when the guns
// belong to another nation than the force's ("Your generals may move guns (but
// not gunners) belonging to another player").
type Guns struct {
	Kind  GunKind
	Count int
	Owner NationID `json:",omitempty"`
}

// Ships counts a force's vessels by kind and repair.
type Ships struct {
	Warships          int `json:",omitempty"`
	DamagedWarships   int `json:",omitempty"`
	Transports        int `json:",omitempty"`
	DamagedTransports int `json:",omitempty"`
}

// Total is the number of vessels, sound and damaged.
func (s Ships) Total() int {
	return s.Warships + s.DamagedWarships + s.Transports + s.DamagedTransports
}

// AllWarships counts sound and damaged warships.
func (s Ships) AllWarships() int { return s.Warships + s.DamagedWarships }

// AllTransports counts sound and damaged transports.
func (s Ships) AllTransports() int { return s.Transports + s.DamagedTransports }

// LeaderRole tells generals (who command land forces) from admirals (fleets).
type LeaderRole uint8

// The leader roles.
const (
	General LeaderRole = iota + 1
	Admiral
)

// String returns "general" or "admiral".
func (r LeaderRole) String() string {
	switch r {
	case General:
		return "general"
	case Admiral:
		return "admiral"
	}
	return fmt.Sprintf("LeaderRole(%d)", uint8(r))
}

// MarshalText writes the role keyword.
func (r LeaderRole) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "general" or "admiral".
func (r *LeaderRole) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "general":
		*r = General
	case "admiral":
		*r = Admiral
	default:
		return fmt.Errorf("leader role %q: expected general or admiral", b)
	}
	return nil
}

// Leader is a named general or admiral. Experience points come from victories;
// at 3 or more a general is a military genius.
type Leader struct {
	ID         string // unique in the game, used in orders: "Keith"
	Name       string // as printed: "Field Marshal James Keith"
	Role       LeaderRole
	Experience int `json:",omitempty"`
}
