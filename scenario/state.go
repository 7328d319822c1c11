package scenario

import (
	"fmt"
	"strconv"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// InitialState builds the state of turn 1 of a new game played under the
// rule edition rulesetID. It first checks the scenario against the edition:
// the map's tax bases (each nation's home cities must add up to the starting
// tax base) and the troop types (each must be on the cost chart).
//
// Every city starts controlled by and loyal to the nation whose home province
// it is in; neutral cities are unheld. Each nation's treasury lies in its
// capitol. Depots are numbered per nation in file order ("E-D1", "E-D2" …).
func (s *Scenario) InitialState(gameID, rulesetID string) (*engine.State, error) {
	rs, err := ruleset.ByID(rulesetID)
	if err != nil {
		return nil, err
	}
	if err := s.Check(rs); err != nil {
		return nil, err
	}
	st := &engine.State{Game: gameID, Ruleset: rs.ID, Turn: 1, Calendar: s.Calendar}
	treasury := map[string]int{}
	for _, n := range s.Nations {
		nat, _ := s.Map.Nation(n.ID)
		treasury[nat.Capitol] = n.Treasury
		ns := engine.NationState{ID: n.ID, NextForce: 1, NextDepot: len(n.Depots) + 1}
		for _, f := range n.Forces {
			if num := forceNumber(f.ID); num >= ns.NextForce {
				ns.NextForce = num + 1
			}
			st.Forces = append(st.Forces, f.Clone())
		}
		for i, city := range n.Depots {
			c, _ := s.Map.City(city)
			st.Depots = append(st.Depots, game.Depot{
				ID:     fmt.Sprintf("%s-D%d", nat.Letter, i+1),
				Nation: n.ID,
				At:     game.AtHex(c.Hex),
			})
		}
		st.Nations = append(st.Nations, ns)
	}
	for _, c := range s.Map.Cities {
		cs := game.CityState{Name: c.Name}
		if p, ok := s.Map.Province(c.Province); ok {
			cs.Controller, cs.Loyalty = p.Owner, p.Owner
		}
		if c.Capitol != game.Neutral {
			if n, ok := s.Map.Nation(c.Capitol); ok {
				cs.Treasury = treasury[n.Capitol]
			}
		}
		st.Cities = append(st.Cities, cs)
	}
	st.Normalize()
	return st, nil
}

// Check checks the scenario against a rule edition: the map's home tax bases
// and the troop types on the cost chart. Load has checked everything else.
func (s *Scenario) Check(rs *ruleset.Ruleset) error {
	var errs Errors
	opts := hexmap.ValidateOptions{TaxValue: rs.Taxes.Of, StartingTaxBase: rs.Taxes.StartingTaxBase}
	for _, p := range s.Map.Validate(opts) {
		errs = append(errs, &Error{File: s.MapFile, Line: p.Line, Msg: p.String()})
	}
	for _, n := range s.Nations {
		for _, f := range n.Forces {
			for _, t := range f.Troops {
				if _, ok := rs.Costs.Figure(t.Arm, t.Grade); !ok {
					errs = append(errs, &Error{File: s.File, Msg: fmt.Sprintf("force %s: %s are not on the %s cost chart", f.ID, t, rs.Name)})
				}
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func forceNumber(id game.ForceID) int {
	m := forceIDPattern.FindStringSubmatch(string(id))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[2])
	return n
}

// Strength is what a nation starts with, counted in the rules' own measures:
// point value (a figure's or gun's buy cost, ruleset.PointValues) and the
// crowns it would cost to field everything at the first year-end.
type Strength struct {
	Nation game.NationID
	// Infantry, Cavalry and Gunners count figures; Guns gun models.
	Infantry, Cavalry, Gunners, Guns int
	Generals, Admirals               int
	Warships, Transports             int
	Depots                           int
	// LandPV is the point value of troops and guns (generals excluded, as for
	// overruns); LeaderPV the generals and admirals at their buy cost; NavalPV
	// the ships at their buy cost; DepotPV the depots at theirs.
	LandPV, LeaderPV, NavalPV, DepotPV int
	Treasury                           int
	// Total is LandPV + LeaderPV + NavalPV + DepotPV + Treasury: what the
	// position would cost to buy, plus the crowns in hand.
	Total int
	// FieldCost is the year-end bill to keep it all (Cost Chart, field column).
	FieldCost int
}

// Strengths counts every nation's starting strength under a rule edition, in
// the scenario's nation order.
func (s *Scenario) Strengths(rs *ruleset.Ruleset) []Strength {
	c := rs.Costs
	var out []Strength
	for _, n := range s.Nations {
		st := Strength{Nation: n.ID, Treasury: n.Treasury, Depots: len(n.Depots)}
		for i := range n.Forces {
			f := &n.Forces[i]
			st.LandPV += rs.PointValues.Force(f, false)
			for _, t := range f.Troops {
				switch {
				case t.Arm == game.Gunners:
					st.Gunners += t.Count
				case t.Arm.IsCavalry():
					st.Cavalry += t.Count
				default:
					st.Infantry += t.Count
				}
				bf, _ := c.Figure(t.Arm, t.Grade)
				st.FieldCost += t.Count * bf.Field
			}
			for _, g := range f.Guns {
				st.Guns += g.Count
				st.FieldCost += g.Count * c.Gun(g.Kind).Field
			}
			for _, l := range f.Leaders {
				if l.Role == game.Admiral {
					st.Admirals++
				} else {
					st.Generals++
				}
			}
			st.Warships += f.Ships.AllWarships()
			st.Transports += f.Ships.AllTransports()
		}
		leaders := st.Generals + st.Admirals
		st.LeaderPV = leaders * c.Leader.Buy
		st.NavalPV = st.Warships*c.Warship.Buy + st.Transports*c.Transport.Buy
		st.DepotPV = st.Depots * c.Depot.Buy
		st.FieldCost += leaders*c.Leader.Field + st.Warships*c.Warship.Field + st.Transports*c.Transport.Field + st.Depots*c.Depot.Field
		st.Total = st.LandPV + st.LeaderPV + st.NavalPV + st.DepotPV + st.Treasury
		out = append(out, st)
	}
	return out
}
