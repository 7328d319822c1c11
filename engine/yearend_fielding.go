package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// stepYearEndFielding is "You must then field any existing troops you want
// to keep. You may not field depots that are in besieged or masked cities,
// or that are carried on transports, but you may field other troop types."
// For each nation, in sheet order:
//
//  1. DISBAND orders take units out of a force (all of it when none are
//     listed); nothing is paid for them.
//  2. FIELD orders pay the Cost Chart's field column for a whole force (its
//     troops by arm and grade, Grade A infantry 3; its own guns, its ships
//     sound or damaged, its generals and admirals) or for a depot; FIELD ALL
//     fields every force not yet fielded in force order, then every depot.
//     An order the treasury cannot pay is refused whole (OrderIgnored) and
//     the next order is tried: crowns are spent in sheet order, fielding
//     before buying.
//  3. What the sheet forgot follows the ruleset's YearEnd.Unfielded: by
//     default fielded, in force order then depot order, while the treasury
//     can pay (UnitsFielded By "default"); strictly, disbanded.
//  4. Forces not fielded are disbanded (ForceDisbanded "not fielded"),
//     depots not fielded are lost (DepotLost), and so are depots that could
//     not be fielded. Guns a force carries for another nation are fielded by
//     their owner, who pays for them after its own orders; if it cannot,
//     they are disbanded.
func (t *turn) stepYearEndFielding() {
	rule := t.cite("Collecting Taxes, Buying and Fielding Troops", "")
	for _, no := range ordersOfKind[Disband](t) {
		t.disband(no.nation, no.o.(Disband), rule)
	}
	fielded := map[game.ForceID]bool{}
	depots := map[string]bool{}
	byNation := map[game.NationID][]yearEndOrder{}
	for _, no := range ordersOfKind[Field](t) {
		byNation[no.nation] = append(byNation[no.nation], no)
	}
	for _, n := range t.activeNations() {
		for _, no := range byNation[n] {
			o := no.o.(Field)
			switch {
			case o.All:
				for _, f := range t.live() {
					if f.Nation == n && !fielded[f.ID] {
						t.fieldForce(n, f, o, "all", fielded, rule)
					}
				}
				for _, d := range t.s.Depots {
					if d.Nation == n && !depots[d.ID] {
						t.fieldDepot(n, d.ID, o, "all", depots, rule)
					}
				}
			case o.Depot != "":
				t.fieldDepot(n, o.Depot, o, "order", depots, rule)
			default:
				f := t.ownForce(n, o, o.Force, rule)
				if f == nil {
					continue
				}
				if fielded[f.ID] {
					t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s is fielded already by an order above", f.ID))
					continue
				}
				t.fieldForce(n, f, o, "order", fielded, rule)
			}
		}
		if t.r.YearEnd.Unfielded == ruleset.UnfieldedKeep {
			for _, f := range t.live() {
				if f.Nation == n && !fielded[f.ID] {
					t.fieldForce(n, f, nil, "default", fielded, rule)
				}
			}
			for _, d := range t.s.Depots {
				if d.Nation == n && !depots[d.ID] && t.depotUnfieldable(&d) == "" {
					t.fieldDepot(n, d.ID, nil, "default", depots, rule)
				}
			}
		}
	}
	t.disbandUnfielded(fielded, rule)
	t.s.Depots = slices.DeleteFunc(t.s.Depots, func(d game.Depot) bool {
		if depots[d.ID] {
			return false
		}
		why := t.depotUnfieldable(&d)
		if why == "" {
			why = "not fielded at the year-end"
		}
		t.emit(&DepotLost{Depot: d.ID, Nation: d.Nation, Reason: why}, rule, d.At, to(d.Nation), d.Nation)
		return true
	})
	t.fieldForeignGuns(rule)
	t.compact()
}

// forceFieldCost is the crowns to field a force (FieldCost).
func (t *turn) forceFieldCost(f *game.Force) int { return FieldCost(t.r, f) }

// FieldCost is the crowns to field a force for another year, by the Cost
// Chart's field column: every figure, its own guns (guns it carries for
// another nation are their owner's to field), every ship sound or damaged,
// every leader. The order checker's running total uses the same function.
func FieldCost(r *ruleset.Ruleset, f *game.Force) int {
	c := r.Costs
	n := 0
	for _, tr := range f.Troops {
		bf, _ := c.Figure(tr.Arm, tr.Grade)
		n += bf.Field * tr.Count
	}
	for _, g := range f.Guns {
		if g.Owner == "" || g.Owner == f.Nation {
			n += c.Gun(g.Kind).Field * g.Count
		}
	}
	n += f.Ships.AllWarships()*c.Warship.Field + f.Ships.AllTransports()*c.Transport.Field
	n += len(f.Leaders) * c.Leader.Field
	return n
}

// fieldForce pays for a force; o is nil for the default.
func (t *turn) fieldForce(n game.NationID, f *game.Force, o Order, by string, fielded map[game.ForceID]bool, rule string) {
	cost := t.forceFieldCost(f)
	line := 0
	if o != nil {
		line = o.SourceLine()
	}
	if !t.pay(n, cost, "field", string(f.ID), line, rule) {
		if o != nil {
			t.ignore(n, o, f.ID, rule, fmt.Sprintf("fielding %s: %s", f.ID, t.cannotPay(n, cost)))
		}
		return
	}
	fielded[f.ID] = true
	t.emit(&UnitsFielded{Nation: n, Force: f.ID, Cost: cost, By: by}, rule, f.At, to(n), n)
}

// depotUnfieldable says why a depot cannot be fielded ("" if it can).
func (t *turn) depotUnfieldable(d *game.Depot) string { return DepotUnfieldable(t.m, t.s, d) }

// DepotUnfieldable says why a depot cannot be fielded ("" if it can): "You
// may not field depots that are in besieged or masked cities, or that are
// carried on transports". The order checker asks the same.
func DepotUnfieldable(m *hexmap.Map, s *State, d *game.Depot) string {
	if d.Aboard != "" {
		return "carried on a transport"
	}
	if mc, ok := m.CityAt(d.At.Hex); ok && !d.At.IsSea() {
		if cs, ok := s.City(mc.Name); ok && cs.Siege != game.NotBesieged {
			return fmt.Sprintf("in %s, which is %s", mc.Name, cs.Siege)
		}
	}
	return ""
}

func (t *turn) fieldDepot(n game.NationID, id string, o Order, by string, done map[string]bool, rule string) {
	i := slices.IndexFunc(t.s.Depots, func(d game.Depot) bool { return strings.EqualFold(d.ID, id) })
	line := 0
	if o != nil {
		line = o.SourceLine()
	}
	switch {
	case i < 0:
		if o != nil {
			t.ignore(n, o, "", rule, fmt.Sprintf("there is no depot %s", id))
		}
		return
	case t.s.Depots[i].Nation != n:
		if o != nil {
			t.ignore(n, o, "", rule, fmt.Sprintf("depot %s is not yours", id))
		}
		return
	case done[t.s.Depots[i].ID]:
		if o != nil && by == "order" {
			t.ignore(n, o, "", rule, fmt.Sprintf("depot %s is fielded already by an order above", id))
		}
		return
	}
	d := t.s.Depots[i]
	if why := t.depotUnfieldable(&d); why != "" {
		if o != nil {
			t.ignore(n, o, "", rule, fmt.Sprintf("depot %s is %s: \"You may not field depots that are in besieged or masked cities, or that are carried on transports\"", d.ID, why))
		}
		return
	}
	cost := t.r.Costs.Depot.Field
	if !t.pay(n, cost, "field", d.ID, line, rule) {
		if o != nil {
			t.ignore(n, o, "", rule, fmt.Sprintf("fielding %s: %s", d.ID, t.cannotPay(n, cost)))
		}
		return
	}
	done[d.ID] = true
	t.emit(&UnitsFielded{Nation: n, Depot: d.ID, Cost: cost, By: by}, rule, d.At, to(n), n)
}

// fieldForeignGuns makes the owners of guns carried in other nations'
// forces pay for them, or lose them.
func (t *turn) fieldForeignGuns(rule string) {
	for _, f := range t.live() {
		kept := f.Guns[:0]
		for _, g := range f.Guns {
			if g.Owner == "" || g.Owner == f.Nation {
				kept = append(kept, g)
				continue
			}
			cost := t.r.Costs.Gun(g.Kind).Field * g.Count
			what := fmt.Sprintf("%d %s in %s", g.Count, g.Kind, f.ID)
			if t.pay(g.Owner, cost, "field", what, 0, rule) {
				t.emit(&UnitsFielded{Nation: g.Owner, Force: f.ID, Cost: cost, By: "guns"}, rule, f.At, to(g.Owner), g.Owner)
				kept = append(kept, g)
				continue
			}
			t.emit(&ForceDisbanded{Force: f.ID, Reason: fmt.Sprintf("%s's %d %s not fielded: %s", g.Owner, g.Count, g.Kind, t.cannotPay(g.Owner, cost)), Guns: g.Count},
				rule, f.At, to(f.Nation, g.Owner), f.Nation, g.Owner)
		}
		f.Guns = kept
	}
}

// disband carries out a DISBAND order.
func (t *turn) disband(n game.NationID, o Disband, rule string) {
	f := t.ownForce(n, o, o.Force, rule)
	if f == nil {
		return
	}
	if len(o.Troops) == 0 && len(o.Guns) == 0 && o.Ships.Total() == 0 {
		t.emit(&ForceDisbanded{Force: f.ID, Reason: "disbanded by order", Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
			rule, f.At, to(n), n)
		t.remove(f.ID)
		return
	}
	if why := takeListedUnits(f, o.Troops, o.Guns, o.Ships); why != "" {
		t.ignore(n, o, f.ID, rule, why)
		return
	}
	figs, guns := 0, 0
	for _, tr := range o.Troops {
		figs += tr.Count
	}
	for _, g := range o.Guns {
		guns += g.Count
	}
	t.emit(&ForceDisbanded{Force: f.ID, Reason: "part disbanded by order", Figures: figs, Guns: guns}, rule, f.At, to(n), n)
	if f.IsEmpty() {
		t.remove(f.ID)
	}
}

// takeListedUnits takes troops, guns and ships out of a force, all or nothing, and
// says why not ("" when done).
func takeListedUnits(f *game.Force, troops []game.Troops, guns []game.Guns, ships game.Ships) string {
	for _, want := range troops {
		have := 0
		for _, tr := range f.Troops {
			if tr.Arm == want.Arm && tr.Grade == want.Grade {
				have += tr.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			return fmt.Sprintf("%s has %d %s %s, not %d", f.ID, have, want.Grade, want.Arm, want.Count)
		}
	}
	for _, want := range guns {
		have := 0
		for _, g := range f.Guns {
			if g.Kind == want.Kind && g.Owner == want.Owner {
				have += g.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			return fmt.Sprintf("%s has %d %s, not %d", f.ID, have, want.Kind, want.Count)
		}
	}
	h := f.Ships
	if ships.Warships < 0 || ships.DamagedWarships < 0 || ships.Transports < 0 || ships.DamagedTransports < 0 ||
		ships.Warships > h.Warships || ships.DamagedWarships > h.DamagedWarships || ships.Transports > h.Transports || ships.DamagedTransports > h.DamagedTransports {
		return fmt.Sprintf("%s has not those ships", f.ID)
	}
	// All there: take them as a ruling's REMOVE does (rulings.go).
	return takeUnits(f, Units{Troops: troops, Guns: guns, Ships: ships}, true)
}

// disbandUnfielded takes every force not fielded out of the game at once
// (and the forces aboard a fleet that goes), in one pass over the forces
// rather than one per force.
func (t *turn) disbandUnfielded(fielded map[game.ForceID]bool, rule string) {
	gone := map[game.ForceID]bool{}
	for _, f := range t.live() {
		if fielded[f.ID] {
			continue
		}
		t.emit(&ForceDisbanded{Force: f.ID, Reason: "not fielded at the year-end", Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
			rule, f.At, to(f.Nation), f.Nation)
		gone[f.ID] = true
	}
	for _, f := range t.forces {
		if f != nil && !gone[f.ID] && f.Aboard != "" && gone[f.Aboard] {
			t.emit(&ForceDisbanded{Force: f.ID, Reason: "fleet lost", Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
				t.cite("Sea Battles", ""), f.At, to(f.Nation), f.Nation)
			gone[f.ID] = true
		}
	}
	if len(gone) == 0 {
		return
	}
	for id := range gone {
		delete(t.byID, id)
		t.fi(id).removed = true
	}
	t.nextSort = true
	t.compact()
}
