package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// Split forms a new force from part of an existing one in the same hex. The
// engine gives the new force the next ID of the nation, or NewID when the
// sheet names one that is free.
type Split struct {
	At
	Force   game.ForceID
	NewID   game.ForceID  `json:",omitempty"`
	Troops  []game.Troops `json:",omitempty"`
	Guns    []game.Guns   `json:",omitempty"`
	Ships   game.Ships    `json:",omitzero"`
	Leaders []string      `json:",omitempty"`
}

// Merge joins Force into Into; both must be in the same place at the time.
type Merge struct {
	At
	Force game.ForceID
	Into  game.ForceID
}

// AssignLeader moves a general or admiral into a force in the same place.
type AssignLeader struct {
	At
	Leader string
	To     game.ForceID
}

// DetachLeader takes a general or admiral out of his force as a force of his
// own (he then moves at the general's rate).
type DetachLeader struct {
	At
	Leader string
	NewID  game.ForceID `json:",omitempty"`
}

// Garrison makes a force the garrison of the city in its hex.
type Garrison struct {
	At
	Force game.ForceID
	City  string
}

// GrantSupply makes a depot supply another nation's troops, or stop.
type GrantSupply struct {
	At
	Depot    string
	Nation   game.NationID
	Withdraw bool `json:",omitempty"`
}

// Special is a free-text special action for the referee to rule on.
type Special struct {
	At
	Text string
}

// Kind returns "split".
func (Split) Kind() string { return "split" }

// Kind returns "merge".
func (Merge) Kind() string { return "merge" }

// Kind returns "assign".
func (AssignLeader) Kind() string { return "assign" }

// Kind returns "detach".
func (DetachLeader) Kind() string { return "detach" }

// Kind returns "garrison".
func (Garrison) Kind() string { return "garrison" }

// Kind returns "supply".
func (GrantSupply) Kind() string { return "supply" }

// Kind returns "special".
func (Special) Kind() string { return "special" }

// organisationOrderKinds: forming, joining and commanding forces, garrisons,
// depot grants and special actions, carried out by the organisation step at
// the start of the turn (organise.go). At the year-end, depot grants and
// special actions are filed for the transfers and treaties steps.
var organisationOrderKinds = []OrderKind{
	{Keyword: "split", Turn: MonthlyTurn, Step: "organisation", Zero: Split{}, Legal: legalSplit,
		Subject: func(o Order) (game.ForceID, string) { return o.(Split).Force, "" }},
	{Keyword: "merge", Turn: MonthlyTurn, Step: "organisation", Zero: Merge{}, Legal: legalMerge,
		Subject: func(o Order) (game.ForceID, string) { return "", "" }},
	{Keyword: "assign", Turn: MonthlyTurn, Step: "organisation", Zero: AssignLeader{}, Legal: legalAssign, Subject: noSubject},
	{Keyword: "detach", Turn: MonthlyTurn, Step: "organisation", Zero: DetachLeader{}, Legal: legalDetach, Subject: noSubject},
	{Keyword: "garrison", Turn: MonthlyTurn, Step: "organisation", Zero: Garrison{}, Legal: legalGarrison,
		Subject: func(o Order) (game.ForceID, string) { return o.(Garrison).Force, "" }},
	{Keyword: "supply", Turn: AnyTurn, Step: "organisation", YearEndStep: "transfers", Zero: GrantSupply{}, Legal: legalGrant, Subject: noSubject},
	{Keyword: "special", Turn: AnyTurn, Step: "organisation", YearEndStep: "treaties", Zero: Special{}, Legal: legalSpecial, Subject: noSubject},
}

// legalSplit: "Troops are moved according to force"; a fleet at sea may only
// split off ships (what leaves it must float).
func legalSplit(s *Situation, o Order) *Refusal {
	x := o.(Split)
	f := s.Own(x.Force)
	if f != nil && f.At.IsSea() && f.Aboard == "" && x.Ships.Total() == 0 {
		return &Refusal{Code: "adrift", Read: string(f.ID), Reason: fmt.Sprintf("%s is at sea in %s: what is split off it must take ships", f.ID, f.At.Sea),
			Hint: "Split in a port or good-holding hex, or take ships with the new force."}
	}
	return nil
}

// legalMerge: forces merge into another force; a fleet and a land force with
// troops do not merge (the land force embarks).
func legalMerge(s *Situation, o Order) *Refusal {
	x := o.(Merge)
	f, into := s.Own(x.Force), s.Own(x.Into)
	if f == nil || into == nil {
		return nil
	}
	if f.ID == into.ID {
		return &Refusal{Code: "self", Read: string(x.Into), Reason: fmt.Sprintf("%s and %s are not in the same place", f.ID, into.ID),
			Message: "a force cannot merge into itself", Hint: "Name two different forces."}
	}
	army := func(x *game.Force) bool { return x.Figures() > 0 || x.GunCount() > 0 }
	if f.IsFleet() != into.IsFleet() && (army(f) || army(into)) {
		return &Refusal{Code: "fleet-and-land", Read: string(x.Into),
			Reason:  fmt.Sprintf("%s and %s are a fleet and a land force, which do not merge: embark the land force", f.ID, into.ID),
			Message: fmt.Sprintf("%s and %s are a fleet and a land force, which do not merge", f.ID, into.ID),
			Hint:    "Put a land force aboard a fleet with EMBARK."}
	}
	if f.At != into.At || f.Aboard != into.Aboard {
		return &Refusal{Code: "not-same-place", Read: string(x.Into), Reason: fmt.Sprintf("%s and %s are not in the same place", f.ID, into.ID),
			Message: fmt.Sprintf("%s is at %s and %s at %s: forces merge only in the same place, at the start of the turn",
				f.ID, placeLabel(s.Map, f.At), into.ID, placeLabel(s.Map, into.At)),
			Hint: "Bring them together first; merge them next turn."}
	}
	return nil
}

// legalAssign: a leader joins another force in the same place.
func legalAssign(s *Situation, o Order) *Refusal {
	x := o.(AssignLeader)
	src, _ := s.leaderForce(x.Leader)
	dst := s.Own(x.To)
	if src == nil || dst == nil {
		return nil
	}
	if src.ID == dst.ID {
		return &Refusal{Code: "already-with", Read: x.Leader, Reason: fmt.Sprintf("%s is already with %s", x.Leader, dst.ID), Hint: "Leave the order out."}
	}
	if src.At != dst.At || src.Aboard != dst.Aboard {
		return &Refusal{Code: "not-same-place", Read: string(x.To), Reason: fmt.Sprintf("%s is not in the same place as %s", x.Leader, dst.ID),
			Message: fmt.Sprintf("%s is with %s at %s, and %s is at %s: a leader joins a force in the same place, at the start of the turn",
				x.Leader, src.ID, placeLabel(s.Map, src.At), dst.ID, placeLabel(s.Map, dst.At)), Hint: "Move them together first."}
	}
	return nil
}

// legalDetach: a leader leaves a force that holds more than him, not at sea.
func legalDetach(s *Situation, o Order) *Refusal {
	x := o.(DetachLeader)
	src, _ := s.leaderForce(x.Leader)
	if src == nil {
		return nil
	}
	if len(src.Leaders) == 1 && src.Figures() == 0 && src.GunCount() == 0 && src.Ships.Total() == 0 {
		return &Refusal{Code: "alone", Read: x.Leader, Reason: fmt.Sprintf("%s is already alone", x.Leader),
			Message: fmt.Sprintf("%s is already alone in %s", x.Leader, src.ID), Hint: "Leave the order out."}
	}
	if src.At.IsSea() && src.Aboard == "" {
		return &Refusal{Code: "adrift", Read: x.Leader,
			Reason: fmt.Sprintf("%s is at sea in %s with %s: he can leave it only in a port or good-holding hex", x.Leader, src.At.Sea, src.ID),
			Hint:   "Detach him when the fleet lies in a port or good-holding hex."}
	}
	return nil
}

// legalGarrison: a land force in the city's hex at the start of the turn.
func legalGarrison(s *Situation, o Order) *Refusal {
	x := o.(Garrison)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	c, ok := s.Map.City(x.City)
	if ok && (f.At.Hex != c.Hex || f.Aboard != "" || f.At.IsSea()) {
		return &Refusal{Code: "not-in-city", Read: c.Name, Reason: fmt.Sprintf("%s is not in the city %q", f.ID, x.City),
			Message: fmt.Sprintf("%s is at %s, not in %s (%s): a garrison is set at the start of the turn, before movement",
				f.ID, placeLabel(s.Map, f.At), c.Name, c.Hex), Hint: "Garrison the city on the turn after the force arrives."}
	}
	return nil
}

// legalGrant: a depot supplies another nation's troops.
func legalGrant(s *Situation, o Order) *Refusal {
	x := o.(GrantSupply)
	if x.Nation == s.Nation {
		return &Refusal{Code: "own-nation", Read: string(x.Nation), Reason: fmt.Sprintf("%q is not another nation in the game", x.Nation),
			Message: "that is your own nation", Hint: "Name another nation."}
	}
	return nil
}

// legalSpecial: a special action says what it asks for.
func legalSpecial(s *Situation, o Order) *Refusal {
	if o.(Special).Text == "" {
		return &Refusal{Code: "empty", Reason: "the special action is empty", Message: "the text is empty",
			Hint: "Write what you ask for between the quotes."}
	}
	return nil
}
