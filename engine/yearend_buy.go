package engine

import (
	"fmt"
	"strconv"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// stepYearEndPurchases is "When you buy new troops you must place them in
// unbesieged, unmasked cities under your control. You do not have to field
// newly-bought troops" and the Cost Chart's buy column. Each BUY order, in
// nation order then sheet order, is checked (a city the nation controls,
// neither besieged nor masked; ships only in a port; no Grade A; Grenzlers
// only for a nation with the trait; a leader's name unused), then paid from
// the treasury — an order the treasury cannot pay is refused whole, and the
// next order is tried — then placed: troops, guns and generals join the
// nation's new land force in that city (one per city a year-end), ships and
// admirals its new fleet there, a depot stands in the city or, with Aboard,
// goes aboard the nation's fleet in that port if its transports have room.
func (t *turn) stepYearEndPurchases() {
	rule := t.cite("Collecting Taxes, Buying and Fielding Troops", "Cost Chart for Troops (Buy/Field)")
	levies := map[string]*game.Force{} // nation|city|land or fleet → the new force
	for _, no := range ordersOfKind[Buy](t) {
		n, o := no.nation, no.o.(Buy)
		what, cost, fleet, why := t.purchase(n, o)
		if why != "" {
			t.ignore(n, o, "", rule, why)
			continue
		}
		if !t.pay(n, cost, "buy", what+" in "+o.City, o.Line, rule) {
			t.ignore(n, o, "", rule, fmt.Sprintf("buying %s: %s", what, t.cannotPay(n, cost)))
			continue
		}
		mc, _ := t.m.City(o.City)
		ev := &UnitsBought{Nation: n, City: mc.Name, What: what, Cost: cost, Line: o.Line}
		w := o.What
		if w.Depot {
			ns, _ := t.s.Nation(n)
			num := max(ns.NextDepot, 1)
			id := fmt.Sprintf("%s-D%d", t.nationLetter(n), num)
			for t.hasDepot(id) {
				num++
				id = fmt.Sprintf("%s-D%d", t.nationLetter(n), num)
			}
			ns.NextDepot = num + 1
			t.s.Depots = append(t.s.Depots, game.Depot{ID: id, Nation: n, At: game.AtHex(mc.Hex), Aboard: w.Aboard})
			ev.Depot = id
		} else {
			key := string(n) + "|" + mc.Name + "|" + strconv.FormatBool(fleet)
			f := levies[key]
			if f == nil {
				id, _ := t.newForceID(n, "")
				f = &game.Force{ID: id, Nation: n, At: game.AtHex(mc.Hex), Since: t.number + 1}
				t.addForce(f)
				levies[key] = f
			}
			switch {
			case w.Troops != nil:
				f.Troops = append(f.Troops, game.Troops{Arm: w.Troops.Arm, Grade: w.Troops.Grade, Count: w.Troops.Count})
			case w.Gun != 0:
				f.Guns = append(f.Guns, game.Guns{Kind: w.Gun, Count: w.Count})
			case w.Leader != nil:
				f.Leaders = append(f.Leaders, *w.Leader)
			default:
				f.Ships.Warships += w.Warships
				f.Ships.Transports += w.Transports
			}
			f.Normalize()
			ev.Force = f.ID
		}
		t.emit(ev, rule, game.AtHex(mc.Hex), to(n), n)
	}
	t.compact()
}

func (t *turn) hasDepot(id string) bool {
	for _, d := range t.s.Depots {
		if d.ID == id {
			return true
		}
	}
	return false
}

// purchase checks a BUY order: what it buys in words, its cost, whether it
// goes to a fleet, or why it is refused.
func (t *turn) purchase(n game.NationID, o Buy) (what string, cost int, fleet bool, why string) {
	mc, ok := t.m.City(o.City)
	if !ok {
		return "", 0, false, fmt.Sprintf("there is no city %q", o.City)
	}
	cs, _ := t.s.City(mc.Name)
	switch {
	case cs == nil || cs.Controller != n:
		return "", 0, false, fmt.Sprintf("you do not control %s: \"When you buy new troops you must place them in unbesieged, unmasked cities under your control\"", mc.Name)
	case cs.Siege != game.NotBesieged:
		return "", 0, false, fmt.Sprintf("%s is %s: new troops are placed only in unbesieged, unmasked cities", mc.Name, cs.Siege)
	}
	c := t.r.Costs
	w := o.What
	switch {
	case w.Troops != nil:
		tr := w.Troops
		what = fmt.Sprintf("%d %s %s", tr.Count, tr.Grade, tr.Arm)
		if tr.Count <= 0 {
			return what, 0, false, "no figures named"
		}
		if tr.Grade == game.GradeA {
			return what, 0, false, "\"You cannot buy Grade A troops. You may only get them via field promotions after a battle\""
		}
		if tr.Arm == game.IrregularLight {
			if nat, ok := t.m.Nation(n); !ok || !nat.Traits.IrregularLight {
				return what, 0, false, "Grade D irregular light infantry (Grenzlers) may be bought only by a nation with that trait (\"Grenzlers, Unterreich only\")"
			}
		}
		bf, ok := c.Figure(tr.Arm, tr.Grade)
		if !ok || bf.Buy <= 0 {
			return what, 0, false, fmt.Sprintf("the Cost Chart has no Grade %s %s", tr.Grade, tr.Arm)
		}
		return what, bf.Buy * tr.Count, false, ""
	case w.Gun != 0:
		what = fmt.Sprintf("%d %s", w.Count, w.Gun)
		if w.Count <= 0 {
			return what, 0, false, "no guns named"
		}
		return what, c.Gun(w.Gun).Buy * w.Count, false, ""
	case w.Depot:
		if w.Aboard == "" {
			return "a depot", c.Depot.Buy, false, ""
		}
		what = "a depot aboard " + string(w.Aboard)
		f := t.force(w.Aboard)
		switch {
		case f == nil || f.Nation != n:
			return what, 0, false, fmt.Sprintf("you have no fleet %s", w.Aboard)
		case !mc.Port || f.At != game.AtHex(mc.Hex):
			return what, 0, false, fmt.Sprintf("%s does not lie in the port of %s: a depot goes \"in an unbesieged and unmasked city or on a transport in a port\"", f.ID, mc.Name)
		}
		if used, capacity := t.cargo(f); used+t.r.Cargo.Depot > capacity {
			return what, 0, false, fmt.Sprintf("%s carries %d of its %d cargo points: no room for a depot (%d)", f.ID, used, capacity, t.r.Cargo.Depot)
		}
		return what, c.Depot.Buy, false, ""
	case w.Warships > 0 || w.Transports > 0:
		what = fmt.Sprintf("%s, %s", english.Count(w.Warships, "warship"), english.Count(w.Transports, "transport"))
		if w.Warships < 0 || w.Transports < 0 {
			return what, 0, true, "a negative number of ships"
		}
		if !mc.Port {
			return what, 0, true, fmt.Sprintf("%s is not a port: ships are bought only in ports", mc.Name)
		}
		return what, w.Warships*c.Warship.Buy + w.Transports*c.Transport.Buy, true, ""
	case w.Leader != nil:
		l := w.Leader
		what = l.Role.String() + " " + l.ID
		if l.ID == "" || (l.Role != game.General && l.Role != game.Admiral) {
			return what, 0, false, "a leader needs a name and a role (general or admiral)"
		}
		for _, f := range t.live() {
			for _, x := range f.Leaders {
				if x.ID == l.ID {
					return what, 0, false, fmt.Sprintf("there is already a leader named %s", l.ID)
				}
			}
		}
		if l.Role == game.Admiral && !mc.Port {
			return what, 0, true, fmt.Sprintf("%s is not a port: admirals are placed in ports", mc.Name)
		}
		return what, c.Leader.Buy, l.Role == game.Admiral, ""
	}
	return "", 0, false, "nothing to buy named"
}
