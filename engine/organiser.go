package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Organiser carries out one nation's organisation orders — stances and
// standing orders, SPLIT, MERGE, ASSIGN, DETACH, GARRISON, depot grants,
// SPECIAL — one at a time, by the organisation step's own rule (organise):
// the same legality check, the same effect, the same new force IDs, the
// same minimum force sizes after a split or a leader's leaving. The
// engine's organisation step runs every nation's sheet through organise;
// the order checker runs a sheet's organisation lines through an Organiser
// over the nation's own view (StateOfView), so that what it tells a player
// of its forces after each line is what the engine will make of them: one
// rule, two callers.
//
// Apply says what an order did (Organised); Forces and State are the
// nation's forces and the state after the orders so far — what the later
// lines of a sheet are checked against, and where a forecast of the turn
// goes on from (ResolveSteps with State and the sheet's later orders).
type Organiser struct {
	t       *turn
	nation  game.NationID
	changed map[game.ForceID]bool
}

// NewOrganiser begins the organisation step of nation n on a copy of st
// (st is not changed): the whole state for the engine's own uses, the
// nation's view as a State (StateOfView) for the checker's.
func NewOrganiser(m *hexmap.Map, rules *ruleset.Ruleset, st *State, n game.NationID) *Organiser {
	t := newTurn(Input{Map: m, Rules: rules, State: st})
	t.step = "organisation"
	return &Organiser{t: t, nation: n, changed: map[game.ForceID]bool{}}
}

// Organised is what one organisation order did.
type Organised struct {
	// Events are the events the order made, as the organisation step makes
	// them: ForceSplit, ForcesMerged, LeaderAssigned, GarrisonSet,
	// DepotGranted, SpecialRequested, ForceDisbanded, or OrderIgnored.
	Events []Event
	// Refused is why the order was not carried out ("" when it was): the
	// reason its OrderIgnored event gives. A refused order changed nothing.
	Refused string
	// New are the forces the order formed (a split, a leader detached);
	// Gone the forces it took out of the game — merged away, emptied by a
	// split or a leader's leaving, or disbanded under the minimum force
	// sizes (Disbanded says which and why). Both in force order.
	New, Gone []game.ForceID
	Disbanded []ForceDisbanded
}

// Apply carries out one organisation order of the nation, as the
// organisation step does, and says what it did. An order of a kind the
// organisation step does not carry out on this turn is refused.
func (o *Organiser) Apply(order Order) Organised {
	t := o.t
	order = orderValue(order)
	if k, ok := KindOf(order.Kind()); !ok || k.StepFor(t.yearEnd) != "organisation" {
		return Organised{Refused: fmt.Sprintf("%s is not an order of the organisation step", strings.ToUpper(order.Kind()))}
	}
	before := o.ids()
	known := make(map[game.ForceID]bool, len(t.info))
	for id := range t.info {
		known[id] = true
	}
	first := len(t.events)
	t.organise(o.nation, order, o.changed)
	out := Organised{Events: slices.Clone(t.events[first:])}
	for _, e := range out.Events {
		switch x := e.(type) {
		case *OrderIgnored:
			if out.Refused == "" {
				out.Refused = x.Reason
			}
		case *ForceDisbanded:
			out.Disbanded = append(out.Disbanded, *x)
		}
	}
	// New: every force the order formed, kept or lost at once; Gone:
	// every force of the nation's it took out of the game.
	for id := range t.info {
		if !known[id] {
			out.New = append(out.New, id)
		}
	}
	slices.SortFunc(out.New, game.CompareForceIDs)
	after := o.ids()
	for _, id := range slices.Concat(before, out.New) {
		if !slices.Contains(after, id) && !slices.Contains(out.Gone, id) {
			out.Gone = append(out.Gone, id)
		}
	}
	slices.SortFunc(out.Gone, game.CompareForceIDs)
	return out
}

// ids are the nation's live forces' IDs, in force order.
func (o *Organiser) ids() []game.ForceID {
	var out []game.ForceID
	for _, f := range o.t.live() {
		if f.Nation == o.nation {
			out = append(out, f.ID)
		}
	}
	return out
}

// Forces returns the nation's forces as the orders so far leave them, in
// force order. They are the organiser's own: the caller reads them, and
// clones what it means to change.
func (o *Organiser) Forces() []*game.Force {
	var out []*game.Force
	for _, f := range o.t.live() {
		if f.Nation == o.nation {
			out = append(out, f)
		}
	}
	return out
}

// State returns the state as the orders so far leave it (a copy,
// normalised): the forces after the organisation step, for a forecast to
// go on from.
func (o *Organiser) State() *State { return o.t.snapshot() }

// snapshot is the working state as it stands between steps: a copy, its
// forces the live ones, normalised; the turn number is not advanced.
func (t *turn) snapshot() *State {
	s := t.s.Clone()
	s.Forces = make([]game.Force, 0, len(t.forces))
	for _, f := range t.live() {
		s.Forces = append(s.Forces, f.Clone())
	}
	s.Normalize()
	return s
}
