package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// State is the whole game between two turns: everything the engine needs to
// resolve the next turn besides the map, the ruleset, the orders and the seed.
// Every slice is kept in canonical order (Normalize) so that encoding a State
// gives the same bytes for the same game.
type State struct {
	Game    string
	Ruleset string
	// Turn is the turn the next orders are for (1 = the first month).
	Turn     int
	Calendar game.Calendar
	Nations  []NationState    // sorted by ID
	Cities   []game.CityState // sorted by name
	Forces   []game.Force     // sorted by game.CompareForceIDs
	Depots   []game.Depot     // sorted by ID
	Treaties []game.Treaty    // sorted by ID
	// Intel is what each nation learned by scouting during the last turn,
	// sorted by (Nation, Force). It is the only way a foreign force's contents
	// reach a nation's view.
	Intel []Sighting `json:",omitempty"`
	// Victory is set at the end of the game-year in which a nation reached
	// the victory tax base (yearend_victory.go).
	Victory *Victory `json:",omitempty"`
	// Sieges are the cities under siege or masked, sorted by city
	// (sieges.go).
	Sieges []SiegeState `json:",omitempty"`
}

// NationState is what changes about a nation.
type NationState struct {
	ID game.NationID
	// TemporaryCapitol is the city acting as treasury while the capitol is
	// lost ("" when none).
	TemporaryCapitol string `json:",omitempty"`
	// NextForce is the number of the nation's next new force ID.
	NextForce int
	// NextDepot is the number of the nation's next new depot ID.
	NextDepot int `json:",omitempty"`
	// Eliminated nations no longer give orders.
	Eliminated bool `json:",omitempty"`
}

// Sighting is one nation's knowledge of one foreign force, granted by a
// scouting event of the last turn: the level reached and the force's contents
// as seen then.
//
// Seen is what the scouts saw, at the level reached, at the moment they
// reached it (the Learned of the Scouted event that gave the level): the
// arms present, the approximate figures, or the exact troops, guns, ships and
// leaders. The View shows it instead of the force's contents after the rest
// of the turn, so a battle, attrition or split fought after the sighting does
// not reach the scouting nation through it. Seen is nil at LevelSize (nothing
// seen beyond general intelligence) and in states stored before snapshots
// were kept; such a Sighting shows the force's current contents at Level.
type Sighting struct {
	Nation game.NationID
	Force  game.ForceID
	Level  int
	Turn   int
	Seen   *Revealed `json:",omitempty"`
}

// Normalize sorts every list of the state into canonical order and normalises
// every force.
func (s *State) Normalize() {
	slices.SortFunc(s.Nations, func(a, b NationState) int { return cmpStr(string(a.ID), string(b.ID)) })
	slices.SortFunc(s.Cities, func(a, b game.CityState) int { return cmpStr(a.Name, b.Name) })
	for i := range s.Forces {
		s.Forces[i].Normalize()
	}
	slices.SortFunc(s.Forces, func(a, b game.Force) int { return game.CompareForceIDs(a.ID, b.ID) })
	slices.SortFunc(s.Depots, func(a, b game.Depot) int { return cmpStr(a.ID, b.ID) })
	slices.SortFunc(s.Treaties, func(a, b game.Treaty) int { return cmpStr(a.ID, b.ID) })
	slices.SortFunc(s.Intel, func(a, b Sighting) int {
		if c := cmpStr(string(a.Nation), string(b.Nation)); c != 0 {
			return c
		}
		return game.CompareForceIDs(a.Force, b.Force)
	})
	slices.SortFunc(s.Sieges, func(a, b SiegeState) int { return cmpStr(a.City, b.City) })
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Force returns the force with the given ID.
func (s *State) Force(id game.ForceID) (*game.Force, bool) {
	i, ok := slices.BinarySearchFunc(s.Forces, id, func(f game.Force, id game.ForceID) int {
		return game.CompareForceIDs(f.ID, id)
	})
	if !ok {
		return nil, false
	}
	return &s.Forces[i], true
}

// City returns a city's state by name.
func (s *State) City(name string) (*game.CityState, bool) {
	i, ok := slices.BinarySearchFunc(s.Cities, name, func(c game.CityState, n string) int { return cmpStr(c.Name, n) })
	if !ok {
		return nil, false
	}
	return &s.Cities[i], true
}

// Nation returns a nation's state.
func (s *State) Nation(id game.NationID) (*NationState, bool) {
	i, ok := slices.BinarySearchFunc(s.Nations, id, func(n NationState, id game.NationID) int {
		return cmpStr(string(n.ID), string(id))
	})
	if !ok {
		return nil, false
	}
	return &s.Nations[i], true
}

// ForcesOf returns the IDs of a nation's forces, in canonical order.
func (s *State) ForcesOf(n game.NationID) []game.ForceID {
	var out []game.ForceID
	for _, f := range s.Forces {
		if f.Nation == n {
			out = append(out, f.ID)
		}
	}
	return out
}

// Clone returns a deep copy of the state.
func (s *State) Clone() *State {
	c := *s
	c.Nations = slices.Clone(s.Nations)
	c.Cities = slices.Clone(s.Cities)
	c.Forces = make([]game.Force, len(s.Forces))
	for i, f := range s.Forces {
		c.Forces[i] = f.Clone()
	}
	c.Depots = slices.Clone(s.Depots)
	for i := range c.Depots {
		c.Depots[i].GrantedTo = slices.Clone(c.Depots[i].GrantedTo)
	}
	c.Treaties = slices.Clone(s.Treaties)
	for i := range c.Treaties {
		t := &c.Treaties[i]
		t.Parties = slices.Clone(t.Parties)
		t.Attested = slices.Clone(t.Attested)
		t.Penalties = slices.Clone(t.Penalties)
	}
	c.Intel = slices.Clone(s.Intel)
	for i := range c.Intel {
		if seen := c.Intel[i].Seen; seen != nil {
			cp := seen.Clone()
			c.Intel[i].Seen = &cp
		}
	}
	c.Sieges = slices.Clone(s.Sieges)
	for i := range c.Sieges {
		c.Sieges[i].Besiegers = slices.Clone(c.Sieges[i].Besiegers)
	}
	return &c
}
