package engine

import "github.com/syw-pbem/pbem/game"

// StateOfView returns the part of a game's state a nation can see, as a
// State: every city's public standing (controller, loyalty, siege, breaches)
// with the treasuries the view shows, the nation's own forces and depots,
// its temporary capitol, and the treaties in its view. Public reckonings
// written against a State — TaxesDue, PenaltiesDue, FundsAtFielding — give
// the order checker the same figures the engine will use, without the
// checker ever holding the whole state (fog of war).
func StateOfView(v *NationView) *State {
	s := &State{Turn: v.Turn, Calendar: v.Calendar}
	for _, c := range v.Cities {
		s.Cities = append(s.Cities, game.CityState{Name: c.Name, Controller: c.Controller, Loyalty: c.Loyalty,
			Siege: c.Siege, Breaches: c.Breaches, Treasury: c.Treasury})
	}
	for _, n := range v.Nations {
		ns := NationState{ID: n.ID, Eliminated: n.Eliminated}
		if n.ID == v.Nation {
			ns.NextForce, ns.TemporaryCapitol = v.NextForce, v.TemporaryCapitol
		}
		s.Nations = append(s.Nations, ns)
	}
	for i := range v.Own {
		s.Forces = append(s.Forces, v.Own[i].Clone())
	}
	for _, d := range v.Depots {
		if d.Nation == v.Nation {
			s.Depots = append(s.Depots, d)
		}
	}
	s.Treaties = append(s.Treaties, v.Treaties...)
	s.Normalize()
	return s
}
