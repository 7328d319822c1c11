package trossian

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// State is the Trossian game between two turns: everything the engine
// reads and writes. Its JSON is what the store keeps; every list is kept in
// a canonical order (Normalize), so the same game gives the same bytes.
type State struct {
	Game    string
	Ruleset string
	// Turn is the turn to be resolved next (Calendar places it).
	Turn     int
	Calendar Calendar
	Nations  []NationState
	// Provinces holds every province of the map with its controller, its
	// banked AP and any siege or pacification under way, sorted by ID.
	Provinces []ProvinceState
	Armies    []Army
	Navies    []Navy
	// Couriers are the couriers away from their King's seat; idle ones are
	// counted in NationState.Couriers.
	Couriers []Courier `json:",omitempty"`
	// Chance is every chance card rolled: the nation and the turn it falls
	// on ("the result indicating the game turn in which that nation is
	// subject to the results of a Chance Card").
	Chance []ChanceCard `json:",omitempty"`
	// Allies are pairs of kingdoms at peace, set by the referee's rulings;
	// every other pair is at war.
	Allies [][2]game.NationID `json:",omitempty"`
}

// NationState is a kingdom's changing state.
type NationState struct {
	ID      game.NationID
	Name    string
	Letter  string
	Capital string
	// Couriers are the couriers waiting at the King's seat.
	Couriers int
	// Census is the stands the kingdom owns in miniature ("no force can
	// march with more units than those detailed on the Nations Page").
	Census Stands
	// NextForce, NextNavy and NextCourier number the next army (N7), navy
	// (NF3) and courier (NC12).
	NextForce, NextNavy, NextCourier int
	// ChanceYear is the last year the kingdom's chance cards were rolled
	// for.
	ChanceYear int `json:",omitempty"`
	// Eliminated: the kingdom holds no city and no army.
	Eliminated bool `json:",omitempty"`
}

// ProvinceState is a province's changing state.
type ProvinceState struct {
	ID         string
	Controller game.NationID `json:",omitempty"`
	// Bank is the AP banked in a city ("AP not spent must be banked at a
	// player's controlled cities").
	Bank   int           `json:",omitempty"`
	Siege  *Siege        `json:",omitempty"`
	Pacify *Pacification `json:",omitempty"`
}

// Siege is a city under siege: by whom, how many full phases of it have
// passed of how many it needs, and whether it went through a winter.
type Siege struct {
	By       game.NationID
	Progress int
	Required int
	// Since is the first turn that counts (the turn after a siege begun
	// mid-phase).
	Since    int
	Wintered bool `json:",omitempty"`
}

// Pacification is a plain province being pacified: by whom and how many
// full phases have passed of how many it needs.
type Pacification struct {
	By       game.NationID
	Progress int
	Required int
	Since    int
}

// The standing tasks of an army.
const (
	TaskPacify  = "pacify"
	TaskBesiege = "besiege"
)

// Army is a land force: an army or a detachment, led by its HQ stands.
type Army struct {
	ID     game.ForceID
	Nation game.NationID
	// At is the province it stands in ("" while aboard a navy at sea).
	At string `json:",omitempty"`
	// Aboard is the navy carrying it.
	Aboard game.ForceID `json:",omitempty"`
	Stands Stands
	Stance game.Stance
	// March is the provinces it still has to march through, in order: its
	// standing march order, carried on phase after phase.
	March []string `json:",omitempty"`
	// Task is its standing task (TaskPacify, TaskBesiege) and TaskSince the
	// first phase that counts for it.
	Task      string `json:",omitempty"`
	TaskSince int    `json:",omitempty"`
	// RetreatTo is the province it retreats to if beaten, if safe.
	RetreatTo string `json:",omitempty"`
	// StillUntil: it may not move before turn StillUntil+1 (a victor, a
	// draw).
	StillUntil int `json:",omitempty"`
}

// HasHQ reports an army with an HQ stand.
func (a *Army) HasHQ() bool { return a.Stands.Count(HQ) > 0 }

// NavyPlace is where a navy is: in a port (Province only), off the coast of
// a province (Province and the Lane of that coast), or in a lane (Lane
// only).
type NavyPlace struct {
	Province string `json:",omitempty"`
	Lane     string `json:",omitempty"`
}

// InPort reports a navy in a port.
func (p NavyPlace) InPort() bool { return p.Province != "" && p.Lane == "" }

// AtSea reports a navy in a lane (not off a coast).
func (p NavyPlace) AtSea() bool { return p.Province == "" && p.Lane != "" }

// String names the place: "port Norhaven", "off Greyfell (W1)", "lane N2".
func (p NavyPlace) String() string {
	switch {
	case p.InPort():
		return "port " + p.Province
	case p.AtSea():
		return "lane " + p.Lane
	case p.Province != "":
		return "off " + p.Province + " (" + p.Lane + ")"
	}
	return "nowhere"
}

// Navy is "both transports and ships of war": one counter carrying up to
// 20AP of troops.
type Navy struct {
	ID     game.ForceID
	Nation game.NationID
	At     NavyPlace
}

// CourierPlace is where a courier is: a province (on horse) or a lane (by
// boat).
type CourierPlace struct {
	Province string `json:",omitempty"`
	Lane     string `json:",omitempty"`
}

// String names the place.
func (p CourierPlace) String() string {
	if p.Lane != "" {
		return "lane " + p.Lane
	}
	return p.Province
}

// Courier is a King's messenger on the road or at sea, carrying orders to
// a force ("the order is carried out when the courier arrives"), or riding
// home.
type Courier struct {
	ID     game.ForceID
	Nation game.NationID
	At     CourierPlace
	// Target is the force it carries orders to; Carries the orders.
	Target  game.ForceID `json:",omitempty"`
	Carries OrderList    `json:",omitempty"`
	// Via are the places the King told it to ride through first.
	Via []string `json:",omitempty"`
	// Returning: it delivered (or lost its target) and rides home.
	Returning bool `json:",omitempty"`
	Sent      int
}

// ChanceCard is one chance card due: the kingdom and the turn.
type ChanceCard struct {
	Nation game.NationID
	Turn   int
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a State always encodes: plain data and registered orders
	}
	var c State
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	return &c
}

// Normalize puts every list in canonical order.
func (s *State) Normalize() {
	slices.SortFunc(s.Nations, func(a, b NationState) int { return strings.Compare(string(a.ID), string(b.ID)) })
	slices.SortFunc(s.Provinces, func(a, b ProvinceState) int { return strings.Compare(a.ID, b.ID) })
	for i := range s.Armies {
		s.Armies[i].Stands = s.Armies[i].Stands.Normalize()
	}
	for i := range s.Nations {
		s.Nations[i].Census = s.Nations[i].Census.Normalize()
	}
	slices.SortFunc(s.Armies, func(a, b Army) int { return game.CompareForceIDs(a.ID, b.ID) })
	slices.SortFunc(s.Navies, func(a, b Navy) int { return game.CompareForceIDs(a.ID, b.ID) })
	slices.SortFunc(s.Couriers, func(a, b Courier) int { return game.CompareForceIDs(a.ID, b.ID) })
	slices.SortFunc(s.Chance, func(a, b ChanceCard) int {
		if c := strings.Compare(string(a.Nation), string(b.Nation)); c != 0 {
			return c
		}
		return a.Turn - b.Turn
	})
	for i := range s.Allies {
		if s.Allies[i][1] < s.Allies[i][0] {
			s.Allies[i][0], s.Allies[i][1] = s.Allies[i][1], s.Allies[i][0]
		}
	}
	slices.SortFunc(s.Allies, func(a, b [2]game.NationID) int {
		if c := strings.Compare(string(a[0]), string(b[0])); c != 0 {
			return c
		}
		return strings.Compare(string(a[1]), string(b[1]))
	})
	s.Allies = slices.Compact(s.Allies)
}

// Nation returns a kingdom's state.
func (s *State) Nation(n game.NationID) (*NationState, bool) {
	for i := range s.Nations {
		if s.Nations[i].ID == n {
			return &s.Nations[i], true
		}
	}
	return nil, false
}

// Province returns a province's state.
func (s *State) Province(id string) (*ProvinceState, bool) {
	i, ok := slices.BinarySearchFunc(s.Provinces, id, func(p ProvinceState, id string) int { return strings.Compare(p.ID, id) })
	if !ok {
		return nil, false
	}
	return &s.Provinces[i], true
}

// Controller returns who holds a province (Neutral: nobody).
func (s *State) Controller(id string) game.NationID {
	if p, ok := s.Province(id); ok {
		return p.Controller
	}
	return game.Neutral
}

// Army returns an army by ID.
func (s *State) Army(id game.ForceID) (*Army, bool) {
	for i := range s.Armies {
		if s.Armies[i].ID == id {
			return &s.Armies[i], true
		}
	}
	return nil, false
}

// Navy returns a navy by ID.
func (s *State) Navy(id game.ForceID) (*Navy, bool) {
	for i := range s.Navies {
		if s.Navies[i].ID == id {
			return &s.Navies[i], true
		}
	}
	return nil, false
}

// Hostile reports whether two kingdoms are at war: every pair not listed
// in Allies.
func (s *State) Hostile(a, b game.NationID) bool {
	if a == b || a == game.Neutral || b == game.Neutral {
		return false
	}
	if b < a {
		a, b = b, a
	}
	return !slices.Contains(s.Allies, [2]game.NationID{a, b})
}

// ArmiesAt returns the armies standing in a province (not aboard), in ID
// order.
func (s *State) ArmiesAt(p string) []*Army {
	var out []*Army
	for i := range s.Armies {
		if a := &s.Armies[i]; a.At == p && a.Aboard == "" {
			out = append(out, a)
		}
	}
	return out
}

// Aboard returns the armies a navy carries, in ID order.
func (s *State) Aboard(navy game.ForceID) []*Army {
	var out []*Army
	for i := range s.Armies {
		if a := &s.Armies[i]; a.Aboard == navy {
			out = append(out, a)
		}
	}
	return out
}

// NaviesInPort returns the navies in a port, in ID order.
func (s *State) NaviesInPort(p string) []*Navy {
	var out []*Navy
	for i := range s.Navies {
		if n := &s.Navies[i]; n.At.InPort() && n.At.Province == p {
			out = append(out, n)
		}
	}
	return out
}

// Label names the turn to be resolved next: "Turn 2, Mid Spring 1801".
func (s *State) Label() string { return s.Calendar.Label(s.Turn) }
