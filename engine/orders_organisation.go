package engine

import (
	"fmt"
	"slices"

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
	{Keyword: "split", Section: "Land Movement", Turn: MonthlyTurn, Step: "organisation", Zero: Split{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID {
		t.split(n, o.(Split), t.cite("Land Movement", ""))
		return ""
	}, Legal: legalSplit,
		Subject: func(o Order) (game.ForceID, string) { return o.(Split).Force, "" }},
	{Keyword: "merge", Section: "Land Movement", Turn: MonthlyTurn, Step: "organisation", Zero: Merge{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID {
		t.merge(n, o.(Merge), t.cite("Land Movement", ""))
		return ""
	}, Legal: legalMerge,
		Subject: func(o Order) (game.ForceID, string) { return "", "" }},
	{Keyword: "assign", Section: "Land Movement", Turn: MonthlyTurn, Step: "organisation", Zero: AssignLeader{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID {
		t.assignLeader(n, o.(AssignLeader), t.cite("Land Movement", ""))
		return ""
	}, Legal: legalAssign, Subject: noSubject},
	{Keyword: "detach", Section: "Land Movement", Turn: MonthlyTurn, Step: "organisation", Zero: DetachLeader{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID {
		t.detachLeader(n, o.(DetachLeader), t.cite("Land Movement", ""))
		return ""
	}, Legal: legalDetach, Subject: noSubject},
	{Keyword: "garrison", Section: "Capturing and Controlling Cities and Provinces", Turn: MonthlyTurn, Step: "organisation", Zero: Garrison{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID { t.setGarrison(n, o.(Garrison)); return "" }, Legal: legalGarrison,
		Subject: func(o Order) (game.ForceID, string) { return o.(Garrison).Force, "" }},
	{Keyword: "supply", Section: "Supply", Turn: AnyTurn, Step: "organisation", YearEndStep: "transfers", Zero: GrantSupply{}, apply: func(t *turn, n game.NationID, o Order) game.ForceID { t.grantSupply(n, o.(GrantSupply)); return "" }, Legal: legalGrant, Subject: noSubject},
	{Keyword: "special", Section: "Introduction", Turn: AnyTurn, Step: "organisation", YearEndStep: "treaties", Zero: Special{}, apply: applySpecial, Legal: legalSpecial, Subject: noSubject},
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

// ---- carried out by the organisation step (organise.go) ----

func (t *turn) split(n game.NationID, o Split, rule string) {
	src := t.ownForce(n, o, o.Force, rule)
	if src == nil {
		return
	}
	// Check everything first: a split is carried out whole or not at all.
	for _, want := range o.Troops {
		have := 0
		for _, tr := range src.Troops {
			if tr.Arm == want.Arm && tr.Grade == want.Grade {
				have += tr.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has %d %s %s, cannot split off %d", src.ID, have, want.Grade, want.Arm, want.Count))
			return
		}
	}
	for _, want := range o.Guns {
		have := 0
		for _, g := range src.Guns {
			if g.Kind == want.Kind && g.Owner == want.Owner {
				have += g.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has %d %s, cannot split off %d", src.ID, have, want.Kind, want.Count))
			return
		}
	}
	sh, have := o.Ships, src.Ships
	if sh.Warships > have.Warships || sh.DamagedWarships > have.DamagedWarships || sh.Transports > have.Transports || sh.DamagedTransports > have.DamagedTransports ||
		sh.Warships < 0 || sh.DamagedWarships < 0 || sh.Transports < 0 || sh.DamagedTransports < 0 {
		t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has not the ships to split off", src.ID))
		return
	}
	for _, l := range o.Leaders {
		if !slices.ContainsFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l }) {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s is not with %s", l, src.ID))
			return
		}
	}
	if adrift(src) && sh.Total() == 0 {
		t.ignore(n, o, src.ID, t.cite("Sea Movement", ""), fmt.Sprintf("%s is at sea in %s: what is split off it must take ships", src.ID, src.At.Sea))
		return
	}
	id, err := t.newForceID(n, o.NewID)
	if err != nil {
		t.ignore(n, o, src.ID, rule, err.Error())
		return
	}
	nf := &game.Force{ID: id, Nation: n, At: src.At, Aboard: src.Aboard, Stance: src.Stance, Standing: src.Standing,
		Unsupplied: src.Unsupplied, Since: src.Since}
	for _, want := range o.Troops {
		left := want.Count
		for i := range src.Troops {
			tr := &src.Troops[i]
			if tr.Arm != want.Arm || tr.Grade != want.Grade || left == 0 {
				continue
			}
			k := min(left, tr.Count)
			// Exhausted figures go with the part in proportion.
			ex := tr.Exhausted * k / max(tr.Count, 1)
			tr.Count -= k
			tr.Exhausted -= ex
			left -= k
			nf.Troops = append(nf.Troops, game.Troops{Arm: tr.Arm, Grade: tr.Grade, Count: k, Exhausted: ex})
		}
	}
	for _, want := range o.Guns {
		left := want.Count
		for i := range src.Guns {
			g := &src.Guns[i]
			if g.Kind != want.Kind || g.Owner != want.Owner || left == 0 {
				continue
			}
			k := min(left, g.Count)
			g.Count -= k
			left -= k
			nf.Guns = append(nf.Guns, game.Guns{Kind: g.Kind, Owner: g.Owner, Count: k})
		}
	}
	src.Ships.Warships -= sh.Warships
	src.Ships.DamagedWarships -= sh.DamagedWarships
	src.Ships.Transports -= sh.Transports
	src.Ships.DamagedTransports -= sh.DamagedTransports
	nf.Ships = sh
	for _, l := range o.Leaders {
		i := slices.IndexFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l })
		nf.Leaders = append(nf.Leaders, src.Leaders[i])
		src.Leaders = slices.Delete(src.Leaders, i, i+1)
	}
	src.Normalize()
	nf.Normalize()
	t.addForce(nf)
	t.emit(&ForceSplit{Force: src.ID, New: nf.ID}, rule, src.At, to(n), n)
	if src.IsEmpty() {
		// Everything went to the new force, the passengers of a fleet too.
		t.reboard(src.ID, nf.ID)
		t.remove(src.ID)
	}
	t.checkMinimumAt(nf.At, n)
}

func (t *turn) merge(n game.NationID, o Merge, rule string) {
	f := t.ownForce(n, o, o.Force, rule)
	if f == nil {
		return
	}
	into := t.ownForce(n, o, o.Into, rule)
	if into == nil {
		return
	}
	if f == into || !samePlace(f, into) {
		t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s and %s are not in the same place", f.ID, into.ID))
		return
	}
	// Troops and guns go aboard by embarking, within the cargo limit; a
	// leader alone may join either.
	army := func(x *game.Force) bool { return x.Figures() > 0 || x.GunCount() > 0 }
	if f.IsFleet() != into.IsFleet() && (army(f) || army(into)) {
		t.ignore(n, o, f.ID, t.cite("Sea Movement", "Transports"), fmt.Sprintf("%s and %s are a fleet and a land force, which do not merge: embark the land force", f.ID, into.ID))
		return
	}
	into.Troops = append(into.Troops, f.Troops...)
	into.Guns = append(into.Guns, f.Guns...)
	into.Leaders = append(into.Leaders, f.Leaders...)
	into.Ships.Warships += f.Ships.Warships
	into.Ships.DamagedWarships += f.Ships.DamagedWarships
	into.Ships.Transports += f.Ships.Transports
	into.Ships.DamagedTransports += f.Ships.DamagedTransports
	into.Unsupplied = into.Unsupplied || f.Unsupplied
	into.Normalize()
	if f.IsFleet() {
		t.reboard(f.ID, into.ID)
	}
	t.remove(f.ID)
	t.emit(&ForcesMerged{Force: f.ID, Into: into.ID}, rule, into.At, to(n), n)
}

func (t *turn) assignLeader(n game.NationID, o AssignLeader, rule string) {
	src, i := t.leaderForce(n, o.Leader)
	if src == nil {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no general or admiral %q", o.Leader))
		return
	}
	dst := t.ownForce(n, o, o.To, rule)
	if dst == nil {
		return
	}
	if dst == src {
		t.ignore(n, o, dst.ID, rule, fmt.Sprintf("%s is already with %s", o.Leader, dst.ID))
		return
	}
	if !samePlace(src, dst) {
		t.ignore(n, o, dst.ID, rule, fmt.Sprintf("%s is not in the same place as %s", o.Leader, dst.ID))
		return
	}
	dst.Leaders = append(dst.Leaders, src.Leaders[i])
	src.Leaders = slices.Delete(src.Leaders, i, i+1)
	dst.Normalize()
	t.emit(&LeaderAssigned{Leader: o.Leader, From: src.ID, To: dst.ID}, rule, dst.At, to(n), n)
	if src.IsEmpty() {
		t.remove(src.ID)
	} else {
		t.checkMinimumAt(src.At, n)
	}
}

func (t *turn) detachLeader(n game.NationID, o DetachLeader, rule string) {
	src, i := t.leaderForce(n, o.Leader)
	if src == nil {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no general or admiral %q", o.Leader))
		return
	}
	if src.IsEmpty() || (len(src.Leaders) == 1 && src.Figures() == 0 && src.GunCount() == 0 && src.Ships.Total() == 0) {
		t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s is already alone", o.Leader))
		return
	}
	if adrift(src) {
		t.ignore(n, o, src.ID, t.cite("Sea Movement", ""), fmt.Sprintf("%s is at sea in %s with %s: he can leave it only in a port or good-holding hex", o.Leader, src.At.Sea, src.ID))
		return
	}
	id, err := t.newForceID(n, o.NewID)
	if err != nil {
		t.ignore(n, o, src.ID, rule, err.Error())
		return
	}
	nf := &game.Force{ID: id, Nation: n, At: src.At, Aboard: src.Aboard, Leaders: []game.Leader{src.Leaders[i]}, Since: src.Since}
	src.Leaders = slices.Delete(src.Leaders, i, i+1)
	src.Normalize()
	t.addForce(nf)
	t.emit(&LeaderAssigned{Leader: o.Leader, From: src.ID, To: nf.ID, Detached: true}, rule, src.At, to(n), n)
	t.checkMinimumAt(src.At, n)
}

func (t *turn) setGarrison(n game.NationID, o Garrison) {
	rule := t.cite("Capturing and Controlling Cities and Provinces", "")
	f := t.ownForce(n, o, o.Force, rule)
	if f == nil {
		return
	}
	c, ok := t.m.City(o.City)
	if !ok || f.At.Hex != c.Hex || f.Aboard != "" {
		t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s is not in the city %q", f.ID, o.City))
		return
	}
	f.Garrison = true
	t.emit(&GarrisonSet{Force: f.ID, City: c.Name}, rule, f.At, to(n), n)
}

func (t *turn) grantSupply(n game.NationID, o GrantSupply) {
	rule := t.cite("Supply", "")
	i := slices.IndexFunc(t.s.Depots, func(d game.Depot) bool { return d.ID == o.Depot })
	if i < 0 || t.s.Depots[i].Nation != n {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no depot %q", o.Depot))
		return
	}
	if _, ok := t.s.Nation(o.Nation); !ok || o.Nation == n {
		t.ignore(n, o, "", rule, fmt.Sprintf("%q is not another nation in the game", o.Nation))
		return
	}
	d := &t.s.Depots[i]
	has := slices.Contains(d.GrantedTo, o.Nation)
	switch {
	case o.Withdraw && has:
		d.GrantedTo = slices.DeleteFunc(d.GrantedTo, func(x game.NationID) bool { return x == o.Nation })
	case !o.Withdraw && !has:
		d.GrantedTo = append(d.GrantedTo, o.Nation)
		slices.Sort(d.GrantedTo)
	}
	place := d.At
	t.emit(&DepotGranted{Depot: d.ID, Nation: o.Nation, Withdrawn: o.Withdraw}, rule, place, to(n, o.Nation), n, o.Nation)
}

func applySpecial(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(Special)
	t.emit(&SpecialRequested{Nation: n, Line: x.Line, Text: x.Text}, t.cite("Introduction", ""), game.Place{}, to(n), n)
	return ""
}
