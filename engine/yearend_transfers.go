package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// stepYearEndTransfers is "Transferring Forces": "You may transfer
// ownership of ships, depots, guns (but not gunners), admirals, and generals
// to another player at the start of a game-year but not during the year.
// Infantry, gunners, and cavalry are not transferable." Each TRANSFER order,
// in nation order then sheet order, after fielding and buying:
//
//   - guns or ships out of one of the nation's forces become a new force of
//     the receiving nation in the same place (transports that carry a force
//     or a depot cannot be given away; the passengers would change hands);
//   - a general or admiral leaves his force as a new force of the receiving
//     nation of his own;
//   - a depot changes owner where it stands (and keeps its ID).
//
// Troops are not in a TRANSFER order's grammar; the checker refuses them on
// the sheet. Orders on monthly turns are refused by the orders step.
func (t *turn) stepYearEndTransfers() {
	rule := t.cite("Transferring Forces and Moving another Player's Forces", "")
	for _, no := range ordersOfKind[Transfer](t) {
		t.transfer(no.nation, no.o.(Transfer), rule)
	}
	t.compact()
}

func (t *turn) transfer(n game.NationID, o Transfer, rule string) {
	if ns, ok := t.s.Nation(o.To); !ok || ns.Eliminated || o.To == n {
		t.ignore(n, o, o.Force, rule, fmt.Sprintf("%q is not another nation in the game", o.To))
		return
	}
	ev := &UnitsTransferred{From: n, To: o.To, Line: o.Line}
	switch {
	case o.Depot != "":
		i := slices.IndexFunc(t.s.Depots, func(d game.Depot) bool { return strings.EqualFold(d.ID, o.Depot) })
		if i < 0 || t.s.Depots[i].Nation != n {
			t.ignore(n, o, "", rule, fmt.Sprintf("you have no depot %s", o.Depot))
			return
		}
		d := &t.s.Depots[i]
		d.Nation = o.To
		d.GrantedTo = slices.DeleteFunc(d.GrantedTo, func(x game.NationID) bool { return x == o.To })
		ev.Depot, ev.What = d.ID, "depot "+d.ID
		t.emit(ev, rule, d.At, to(n, o.To), n, o.To)
	case o.Leader != "":
		f, i := t.leaderForce(n, o.Leader)
		if f == nil {
			t.ignore(n, o, "", rule, fmt.Sprintf("you have no general or admiral %s", o.Leader))
			return
		}
		l := f.Leaders[i]
		nf := t.receive(o.To, f)
		nf.Leaders = []game.Leader{l}
		f.Leaders = slices.Delete(f.Leaders, i, i+1)
		ev.What, ev.Force, ev.NewForce = l.Role.String()+" "+l.ID, f.ID, nf.ID
		t.emit(ev, rule, f.At, to(n, o.To), n, o.To)
		if f.IsEmpty() {
			t.remove(f.ID)
		}
	default:
		f := t.ownForce(n, o, o.Force, rule)
		if f == nil {
			return
		}
		if len(o.Guns) == 0 && o.Ships.Total() == 0 {
			t.ignore(n, o, f.ID, rule, "nothing to transfer named: ships, depots, guns (not gunners), generals and admirals may be transferred; infantry, gunners and cavalry may not")
			return
		}
		if o.Ships.AllTransports() > 0 && t.carries(f.ID) {
			t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s carries troops or a depot: transports are given away empty", f.ID))
			return
		}
		guns := slices.Clone(o.Guns)
		for i := range guns {
			if guns[i].Owner == n {
				guns[i].Owner = ""
			}
			if guns[i].Owner != "" {
				t.ignore(n, o, f.ID, rule, fmt.Sprintf("those guns belong to %s, not to you", guns[i].Owner))
				return
			}
		}
		if why := takeListedUnits(f, nil, guns, o.Ships); why != "" {
			t.ignore(n, o, f.ID, rule, why)
			return
		}
		nf := t.receive(o.To, f)
		nf.Guns = guns
		nf.Ships = o.Ships
		nf.Normalize()
		ev.What = strings.Join(describeUnits(guns, o.Ships), ", ")
		ev.Force, ev.NewForce = f.ID, nf.ID
		t.emit(ev, rule, f.At, to(n, o.To), n, o.To)
		if f.IsEmpty() {
			t.remove(f.ID)
		}
	}
}

// receive makes the receiving nation's new force beside f.
func (t *turn) receive(to game.NationID, f *game.Force) *game.Force {
	id, _ := t.newForceID(to, "")
	nf := &game.Force{ID: id, Nation: to, At: f.At, Since: t.number + 1}
	if f.IsFleet() {
		nf.Aboard = ""
	} else {
		nf.Aboard = f.Aboard
	}
	t.addForce(nf)
	return nf
}

// carries reports a fleet with a force or a depot aboard.
func (t *turn) carries(fleet game.ForceID) bool {
	for _, f := range t.live() {
		if f.Aboard == fleet {
			return true
		}
	}
	return slices.ContainsFunc(t.s.Depots, func(d game.Depot) bool { return d.Aboard == fleet })
}

func describeUnits(guns []game.Guns, sh game.Ships) []string {
	var out []string
	for _, g := range guns {
		out = append(out, fmt.Sprintf("%d %s", g.Count, g.Kind))
	}
	for _, x := range []struct {
		n int
		w string
	}{{sh.Warships, "warships"}, {sh.DamagedWarships, "damaged warships"}, {sh.Transports, "transports"}, {sh.DamagedTransports, "damaged transports"}} {
		if x.n > 0 {
			out = append(out, fmt.Sprintf("%d %s", x.n, x.w))
		}
	}
	return out
}
