package game

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ForceID names a force in orders and reports: the nation's letter and a
// number ("E2"). IDs are never reused within a game.
type ForceID string

// CompareForceIDs orders force IDs by letter, then number, so E2 sorts before
// E10.
func CompareForceIDs(a, b ForceID) int {
	pa, na := splitForceID(a)
	pb, nb := splitForceID(b)
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

func splitForceID(id ForceID) (string, int) {
	s := string(id)
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, 0
	}
	return s[:i], n
}

// Stance is a land force's declared intention on meeting the enemy, or a
// fleet's.
type Stance uint8

// The stances. Land forces ATTACK or DEFEND; fleets SEEK battle or AVOID it.
const (
	Defend Stance = iota // the zero value: a force without orders defends
	Attack
)

// String returns "attack" or "defend".
func (s Stance) String() string {
	if s == Attack {
		return "attack"
	}
	return "defend"
}

// MarshalText writes the stance keyword.
func (s Stance) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "attack" or "defend".
func (s *Stance) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "attack":
		*s = Attack
	case "defend", "":
		*s = Defend
	default:
		return fmt.Errorf("stance %q: expected attack or defend", b)
	}
	return nil
}

// Force is a set of units under one order: an army, a detachment, a lone
// general, or a fleet. Land forces hold troops, guns and generals; fleets hold
// ships and admirals. An army embarked on transports keeps its own identity and
// names its fleet in Aboard; its Place follows the fleet.
type Force struct {
	ID     ForceID
	Nation NationID
	At     Place
	// Aboard is the fleet carrying this land force, if it is embarked.
	Aboard  ForceID  `json:",omitempty"`
	Troops  []Troops `json:",omitempty"`
	Guns    []Guns   `json:",omitempty"`
	Ships   Ships    `json:",omitzero"`
	Leaders []Leader `json:",omitempty"`
	// Stance is the force's standing attack/defend declaration.
	Stance Stance
	// Standing are the force's standing orders on meeting the enemy.
	Standing StandingOrders `json:",omitzero"`
	// Unsupplied is the result of this turn's supply trace.
	Unsupplied bool `json:",omitempty"`
	// Garrison marks the force as the garrison of the city in its hex.
	Garrison bool `json:",omitempty"`
	// Fieldworks is the inches of fieldworks built and paid for in its hex.
	Fieldworks int `json:",omitempty"`
	// Since is the turn the force has stood in its hex since (for fieldworks,
	// breaching guns "present for the entire previous turn", exhaustion
	// recovery). 0 means unknown.
	Since int `json:",omitempty"`
}

// StandingOrders say what a force does when it meets the enemy. They persist
// from turn to turn until changed.
type StandingOrders struct {
	// RetreatBelow, when non-zero, retreats the force one hex before battle if
	// the enemy's strength exceeds RetreatBelow times its own (a ratio such as
	// 1.5 for "retreat if outnumbered 3:2"). A negative value retreats always.
	RetreatBelow float64 `json:",omitempty"`
	// Pursue: follow a retreating enemy with the remaining movement.
	Pursue bool `json:",omitempty"`
	// Continue: after a battle won or an overrun, go on along the ordered path
	// (otherwise stop in the hex).
	Continue bool `json:",omitempty"`
	// SlowEnemy: send cavalry ahead to slow a fleeing enemy one hex away.
	SlowEnemy bool `json:",omitempty"`
	// AvoidBattle (fleets): avoid a sea battle where possible.
	AvoidBattle bool `json:",omitempty"`
}

// IsFleet reports whether the force is a fleet (holds ships).
func (f *Force) IsFleet() bool { return f.Ships.Total() > 0 }

// Figures counts the force's troop figures (infantry, cavalry and gunners).
func (f *Force) Figures() int {
	n := 0
	for _, t := range f.Troops {
		n += t.Count
	}
	return n
}

// CountArms counts the figures whose arm satisfies keep.
func (f *Force) CountArms(keep func(Arm) bool) int {
	n := 0
	for _, t := range f.Troops {
		if keep(t.Arm) {
			n += t.Count
		}
	}
	return n
}

// FightingFigures counts infantry and cavalry figures: the figures that
// capture and hold cities, besiege and block supply.
func (f *Force) FightingFigures() int { return f.CountArms(Arm.IsFighting) }

// GunCount counts gun models of every kind.
func (f *Force) GunCount() int {
	n := 0
	for _, g := range f.Guns {
		n += g.Count
	}
	return n
}

// HasRole reports whether a general (or admiral) is with the force.
func (f *Force) HasRole(r LeaderRole) bool {
	for _, l := range f.Leaders {
		if l.Role == r {
			return true
		}
	}
	return false
}

// IsEmpty reports a force with nothing left in it.
func (f *Force) IsEmpty() bool {
	return f.Figures() == 0 && f.GunCount() == 0 && f.Ships.Total() == 0 && len(f.Leaders) == 0
}

// Normalize puts the force's stacks in canonical order and merges identical
// stacks, dropping empty ones: grade-then-arm for troops, kind-then-owner for
// guns, ID for leaders. Every code path that changes a force ends with it.
func (f *Force) Normalize() {
	slices.SortStableFunc(f.Troops, func(a, b Troops) int {
		if c := cmp.Compare(a.Arm, b.Arm); c != 0 {
			return c
		}
		return cmp.Compare(a.Grade, b.Grade)
	})
	out := f.Troops[:0]
	for _, t := range f.Troops {
		if t.Count <= 0 {
			continue
		}
		if t.Exhausted > t.Count {
			t.Exhausted = t.Count
		}
		if n := len(out); n > 0 && out[n-1].Arm == t.Arm && out[n-1].Grade == t.Grade {
			out[n-1].Count += t.Count
			out[n-1].Exhausted += t.Exhausted
			continue
		}
		out = append(out, t)
	}
	f.Troops = out
	if len(f.Troops) == 0 {
		f.Troops = nil
	}
	slices.SortStableFunc(f.Guns, func(a, b Guns) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return cmp.Compare(a.Owner, b.Owner)
	})
	guns := f.Guns[:0]
	for _, g := range f.Guns {
		if g.Count <= 0 {
			continue
		}
		if n := len(guns); n > 0 && guns[n-1].Kind == g.Kind && guns[n-1].Owner == g.Owner {
			guns[n-1].Count += g.Count
			continue
		}
		guns = append(guns, g)
	}
	f.Guns = guns
	if len(f.Guns) == 0 {
		f.Guns = nil
	}
	slices.SortStableFunc(f.Leaders, func(a, b Leader) int { return cmp.Compare(a.ID, b.ID) })
	if len(f.Leaders) == 0 {
		f.Leaders = nil
	}
}

// Clone returns a deep copy of the force.
func (f Force) Clone() Force {
	f.Troops = slices.Clone(f.Troops)
	f.Guns = slices.Clone(f.Guns)
	f.Leaders = slices.Clone(f.Leaders)
	return f
}

// Depot is an immobile supply depot: in a city, or aboard a transport fleet in
// a port. It supplies its nation's forces, and the nations it grants supply to.
type Depot struct {
	ID     string // "E-D1"
	Nation NationID
	At     Place
	// Aboard is the fleet carrying the depot, if any.
	Aboard ForceID `json:",omitempty"`
	// GrantedTo lists other nations the depot supplies, sorted.
	GrantedTo []NationID `json:",omitempty"`
}

// SiegeStatus is a city's state under attack.
type SiegeStatus uint8

// The siege statuses of the rules' "Sieges" section.
const (
	NotBesieged SiegeStatus = iota
	Masked
	Besieged
)

// String returns "", "masked" or "besieged".
func (s SiegeStatus) String() string {
	switch s {
	case Masked:
		return "masked"
	case Besieged:
		return "besieged"
	}
	return "free"
}

// MarshalText writes the status keyword.
func (s SiegeStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status keyword.
func (s *SiegeStatus) UnmarshalText(b []byte) error {
	switch string(b) {
	case "masked":
		*s = Masked
	case "besieged":
		*s = Besieged
	case "free", "":
		*s = NotBesieged
	default:
		return fmt.Errorf("siege status %q: expected free, masked or besieged", b)
	}
	return nil
}

// CityState is what changes about a city during the game. The city's fixed
// description (hex, port, river, province, tax value) is on the map.
type CityState struct {
	Name string
	// Controller is the nation holding the city now (Neutral if none).
	Controller NationID `json:",omitempty"`
	// Loyalty is the nation the city is loyal to (Neutral if none). Home
	// cities are loyal to their nation for ever; a neutral province's cities
	// turn loyal at the year-end to a nation that held all of them.
	Loyalty  NationID    `json:",omitempty"`
	Siege    SiegeStatus `json:",omitzero"`
	Breaches int         `json:",omitempty"`
	// Treasury is the crowns stored in the city when it is a capitol or a
	// temporary capitol.
	Treasury int `json:",omitempty"`
}

// Treaty is a public treaty: published once every party has attested it.
type Treaty struct {
	ID       string // "T3"
	Title    string
	Parties  []NationID
	Text     string
	Attested []NationID `json:",omitempty"`
	// Proposer is the party that sent the text; Submitted the turn whose
	// orders were being collected when it arrived.
	Proposer  NationID `json:",omitempty"`
	Submitted int      `json:",omitempty"`
	// Ratified is the turn during which the last party attested (0 while
	// attestations are awaited): the treaty is published when that turn is
	// resolved, at the start of the next one.
	Ratified int `json:",omitempty"`
	// Published is the turn it was published at; 0 while awaiting attestations.
	Published int `json:",omitempty"`
	// Penalties lists nations found in breach and still paying the yearly
	// 200-point penalty, with the nation aggrieved.
	Penalties []TreatyPenalty `json:",omitempty"`
}

// TreatyPenalty is a breach declared by the referee: Offender pays the yearly
// penalty until Aggrieved agrees to end it.
type TreatyPenalty struct {
	Offender  NationID
	Aggrieved NationID
	Since     int
	// Ended is the turn during which the aggrieved party ended the penalty
	// (0 while it runs).
	Ended int `json:",omitempty"`
}
