package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
)

// Fog of war. View is the one function that decides what a kingdom may
// know of the state: its own forces, couriers, census and banks in full;
// every province's controller and any siege or pacification (public: the
// countryside talks); and of foreign armies and navies only those in or
// next to what it watches — the provinces it holds, where its armies stand
// and their neighbours, the lanes of its coasts and its navies' and theirs
// — by place and size class. Foreign couriers, banks and chance cards are
// never shown. engine.EventsFor fogs the events; reports and the checker
// read only these two.

// NationView is what one kingdom sees.
type NationView struct {
	Nation game.NationID
	Letter string
	// NextForce, NextNavy and NextCourier are the numbers the kingdom's
	// next army, navy and courier will take (the checker foretells IDs).
	NextForce, NextNavy, NextCourier int
	Turn                             int
	Label                            string
	Phase                            Phase
	// Seat is where the King is; IdleCouriers the couriers waiting there.
	Seat         string
	IdleCouriers int
	Census       Stands
	Armies       []Army
	Navies       []Navy
	Couriers     []Courier `json:",omitempty"`
	Provinces    []ProvinceState
	Foreign      []ForeignForce `json:",omitempty"`
	// Chance are the turns of the kingdom's chance cards that have come.
	Chance []int           `json:",omitempty"`
	Allies []game.NationID `json:",omitempty"`
	// Funds is the pool the coming winter's purchases will spend, and
	// Besieged the AP of each besieged city (winter.go WinterFunds).
	Funds    int            `json:",omitempty"`
	Besieged map[string]int `json:",omitempty"`
}

// ForeignForce is a foreign army or navy as a kingdom sees it.
type ForeignForce struct {
	ID     game.ForceID
	Nation game.NationID
	Navy   bool      `json:",omitempty"`
	At     string    `json:",omitempty"`
	Place  NavyPlace `json:",omitzero"`
	Size   string    `json:",omitempty"`
}

// View returns what kingdom n sees of the state.
func View(m *areamap.Map, r *Rules, s *State, n game.NationID) *NationView {
	v := &NationView{Nation: n, Turn: s.Turn, Label: s.Label(), Phase: s.Calendar.PhaseOf(s.Turn), Seat: seatOf(m, s, n)}
	if ns, ok := s.Nation(n); ok {
		v.IdleCouriers, v.Census, v.Letter = ns.Couriers, ns.Census, ns.Letter
		v.NextForce, v.NextNavy, v.NextCourier = ns.NextForce, ns.NextNavy, ns.NextCourier
	}
	watchP := map[string]bool{}
	watchL := map[string]bool{}
	for _, a := range s.Armies {
		if a.Nation == n {
			v.Armies = append(v.Armies, a)
			if a.At != "" {
				watchP[a.At] = true
				for _, q := range m.Neighbors(a.At) {
					watchP[q] = true
				}
			}
		}
	}
	for _, x := range s.Navies {
		if x.Nation == n {
			v.Navies = append(v.Navies, x)
			if x.At.Lane != "" {
				watchL[x.At.Lane] = true
				for _, l := range m.LaneNeighbors(x.At.Lane) {
					watchL[l] = true
				}
			}
			if x.At.Province != "" {
				watchP[x.At.Province] = true
			}
		}
	}
	for _, c := range s.Couriers {
		if c.Nation == n {
			v.Couriers = append(v.Couriers, c)
		}
	}
	for _, p := range s.Provinces {
		c := p
		if c.Controller != n {
			c.Bank = 0
		} else {
			watchP[p.ID] = true
			for _, l := range m.Coast(p.ID) {
				watchL[l] = true
			}
		}
		v.Provinces = append(v.Provinces, c)
	}
	for _, a := range s.Armies {
		if a.Nation == n || a.Aboard != "" || !watchP[a.At] {
			continue
		}
		v.Foreign = append(v.Foreign, ForeignForce{ID: a.ID, Nation: a.Nation, At: a.At, Size: r.Intel.SizeOf(a.Stands.Total())})
	}
	for _, x := range s.Navies {
		if x.Nation == n {
			continue
		}
		seen := x.At.Province != "" && watchP[x.At.Province] || x.At.Lane != "" && watchL[x.At.Lane]
		if seen {
			v.Foreign = append(v.Foreign, ForeignForce{ID: x.ID, Nation: x.Nation, Navy: true, Place: x.At})
		}
	}
	for _, c := range s.Chance {
		if c.Nation == n && c.Turn <= s.Turn {
			v.Chance = append(v.Chance, c.Turn)
		}
	}
	for _, p := range s.Allies {
		switch n {
		case p[0]:
			v.Allies = append(v.Allies, p[1])
		case p[1]:
			v.Allies = append(v.Allies, p[0])
		}
	}
	slices.Sort(v.Allies)
	if v.Phase == Winter {
		v.Funds, v.Besieged = WinterFunds(m, r, s, n)
	}
	return v
}

// StateOfView rebuilds the part of a state a view holds — the kingdom's
// own forces, couriers and counters, the provinces as it sees them, the
// foreign forces it sees as empty shells — for the checker, whose legality
// checks ask the same questions of it as the engine's of the real state.
func StateOfView(m *areamap.Map, r *Rules, v *NationView, calendar Calendar) *State {
	s := &State{Turn: v.Turn, Calendar: calendar, Ruleset: r.ID}
	ns := NationState{ID: v.Nation, Letter: v.Letter, Capital: m.Capital(v.Nation), Couriers: v.IdleCouriers, Census: v.Census,
		NextForce: v.NextForce, NextNavy: v.NextNavy, NextCourier: v.NextCourier}
	if k, ok := m.Kingdom(v.Nation); ok {
		ns.Name = k.Name
	}
	s.Nations = []NationState{ns}
	s.Provinces = slices.Clone(v.Provinces)
	s.Armies = slices.Clone(v.Armies)
	s.Navies = slices.Clone(v.Navies)
	s.Couriers = slices.Clone(v.Couriers)
	for _, f := range v.Foreign {
		if f.Navy {
			s.Navies = append(s.Navies, Navy{ID: f.ID, Nation: f.Nation, At: f.Place})
		} else {
			s.Armies = append(s.Armies, Army{ID: f.ID, Nation: f.Nation, At: f.At})
		}
	}
	for _, a := range v.Allies {
		s.Allies = append(s.Allies, [2]game.NationID{v.Nation, a})
	}
	s.Normalize()
	return s
}

// SituationOf returns the Situation of the view's kingdom over a state
// (the engine's own, or StateOfView's): what the checker's legality checks
// read, answering only about the kingdom's own forces.
func SituationOf(m *areamap.Map, r *Rules, s *State, n game.NationID) *Situation {
	t := &turn{m: m, r: r, s: s, phase: s.Calendar.PhaseOf(s.Turn)}
	return t.situation(n)
}
