package sheet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// The checker's passes follow the engine (trossian/pipeline.go): the orders
// for forces at the King's seat in sheet order (organisation, tick 0),
// each leaving the shadow as the engine will; then the orders for forces
// away from the seat, each bound to the courier sent to its force (or to a
// force standing with it); then the couriers, one idle courier each; in
// winter the purchases in sheet order against the funds, then the banking.

// courierStmt is a courier statement and the orders bound to it.
type courierStmt struct {
	idx int // into stmts
	x   trossian.SendCourier
	at  trossian.CourierPlace
}

func (c *checker) run(stmts []Statement) {
	accepted := map[int]engine.Order{}
	annot := map[int]string{}
	var couriers []*courierStmt
	var deferred []int
	var buys, banks []int
	for i, st := range stmts {
		o := st.Order
		k, _ := trossian.KindOf(o.Kind())
		if !k.Given(c.winter) {
			when := "in a campaign phase (Early Spring to Late Autumn)"
			if k.Turn == trossian.WinterTurn {
				when = "in winter quarters"
			}
			c.errorAt(st, "", fmt.Sprintf("%s orders are given %s; these orders are for %s", strings.ToUpper(k.Keyword), when, c.r.TurnLabel),
				"Give it on the sheet of the right turn, or leave it out.")
			continue
		}
		if !c.first(st, k) {
			continue
		}
		switch {
		case k.Keyword == "courier":
			x := o.(trossian.SendCourier)
			at, ok := c.sit.TargetPlace(x.To)
			if !ok {
				c.errorAt(st, string(x.To), fmt.Sprintf("you have no army or navy %s", x.To), "Send couriers to your own forces, named as on your report.")
				continue
			}
			couriers = append(couriers, &courierStmt{idx: i, x: x, at: at})
		case k.ByCourier:
			// A force not known yet may be made by a detachment a courier
			// carries: it is judged with the orders away from the seat.
			f := trossian.SubjectOf(o)
			at, ok := c.sit.TargetPlace(f)
			if !ok || at.Province != c.seat || c.seat == "" {
				deferred = append(deferred, i)
				continue
			}
			if o, a, ok := c.legal(st, o); ok {
				accepted[i], annot[i] = o, a
			}
		case k.Keyword == "buy":
			buys = append(buys, i)
		case k.Keyword == "bank":
			banks = append(banks, i)
		}
	}
	for _, i := range deferred {
		st := stmts[i]
		f := trossian.SubjectOf(st.Order)
		at, ok := c.sit.TargetPlace(f)
		if !ok {
			c.errorAt(st, string(f), fmt.Sprintf("you have no army or navy %s", f), "Name your force by its ID as printed on your report.")
			continue
		}
		var to *courierStmt
		for _, cs := range couriers {
			if cs.x.To == f || to == nil && cs.at == at {
				to = cs
			}
		}
		if to == nil {
			c.errorAt(st, string(f), fmt.Sprintf("%s is at %s, away from your King's seat %s: its orders go by courier (\"shall direct their generals via messages sent by couriers\")", f, at, seatName(c.seat)),
				fmt.Sprintf("Add a line COURIER TO %s: the orders for %s on this sheet ride with it.", f, f))
			continue
		}
		if o, _, ok := c.legal(st, st.Order); ok {
			to.x.Carries = append(to.x.Carries, o)
		}
	}
	for _, cs := range couriers {
		st := stmts[cs.idx]
		k, _ := trossian.KindOf("courier")
		if r := k.Legal(c.sit, cs.x); r != nil {
			c.refused(st, r)
			continue
		}
		ns := &c.shadow.Nations[0]
		cs.x.ID = game.ForceID(fmt.Sprintf("%sC%d", ns.Letter, max(ns.NextCourier, 1)))
		ns.NextCourier = max(ns.NextCourier, 1) + 1
		ns.Couriers--
		accepted[cs.idx] = cs.x
		annot[cs.idx] = fmt.Sprintf("courier %s rides from %s with %s", cs.x.ID, c.seat, plural(len(cs.x.Carries), "1 order", fmt.Sprintf("%d orders", len(cs.x.Carries))))
	}
	c.winterOrders(stmts, buys, banks, accepted, annot)
	for i, st := range stmts {
		o, ok := accepted[i]
		if !ok {
			continue
		}
		st.Order = o
		if a := annot[i]; a != "" {
			c.r.Annotations[len(c.r.Accepted)] = a
		}
		c.r.Accepted = append(c.r.Accepted, st)
		c.r.Orders.List = append(c.r.Orders.List, o)
	}
}

func seatName(s string) string {
	if s == "" {
		return "(none: your King holds no city)"
	}
	return s
}

// first keeps the first order of a once-a-turn kind for a force.
func (c *checker) first(st Statement, k trossian.OrderKind) bool {
	if !k.Once {
		return true
	}
	_, key := k.Subject(st.Order)
	if key == "" {
		return true
	}
	if line, dup := c.once[key]; dup {
		c.errorAt(st, string(trossian.SubjectOf(st.Order)), fmt.Sprintf("a second %s order for %s: the first, on line %d, counts", k.Keyword, trossian.SubjectOf(st.Order), line),
			"Give one such order for a force each turn.")
		return false
	}
	c.once[key] = st.Line
	return true
}

// legal runs the order's legality check against the shadow and, when it
// passes, leaves the shadow as the order will; it returns the order (IDs
// foretold) and what the reply says of it.
func (c *checker) legal(st Statement, o engine.Order) (engine.Order, string, bool) {
	k, _ := trossian.KindOf(o.Kind())
	if r := k.Legal(c.sit, o); r != nil {
		c.refused(st, r)
		return nil, "", false
	}
	o, annot := c.shadowOf(o)
	return o, annot, true
}

// refused reports a legality refusal.
func (c *checker) refused(st Statement, r *engine.Refusal) {
	c.errorAt(st, r.Read, r.Text(), r.Hint)
}

func (c *checker) errorAt(st Statement, read, msg, hint string) {
	d := parser.Diagnostic{Line: st.Line, Severity: parser.Error, Source: st.Source, Read: read, Message: msg, Hint: hint}
	if st.EndLine > st.Line {
		d.EndLine = st.EndLine
	}
	c.r.Diagnostics = append(c.r.Diagnostics, d)
}

// shadowOf leaves the shadow as an accepted order will: a march planned,
// a task set, a detachment made (its ID foretold), a merge done.
func (c *checker) shadowOf(o engine.Order) (engine.Order, string) {
	s := c.shadow
	switch x := o.(type) {
	case trossian.Move:
		a, _ := s.Army(x.Force)
		path := x.Path
		annot := ""
		if x.Dest != "" {
			path = trossian.Route(c.ctx.Map, a.At, x.Dest, func(p string) bool {
				pr, _ := c.ctx.Map.Province(p)
				ctl := s.Controller(p)
				return pr != nil && pr.Kind.IsCity() && ctl != "" && s.Hostile(c.nation, ctl)
			})
			annot = "by " + strings.Join(path, " ")
		}
		a.March, a.Task = slices.Clone(path), ""
		speed := c.ctx.Rules.Speeds.Of(a.Stands)
		if a.StillUntil >= s.Turn {
			annot = strings.TrimSpace(annot + "; it must stand still this phase and marches next")
		} else if len(path) > speed+c.ctx.Rules.Speeds.RoadBonus {
			annot = strings.TrimSpace(annot + fmt.Sprintf("; %d provinces: several phases", len(path)))
		}
		return o, strings.TrimPrefix(annot, "; ")
	case trossian.Hold:
		a, _ := s.Army(x.Force)
		a.March, a.Task = nil, ""
	case trossian.SetStance:
		a, _ := s.Army(x.Force)
		a.Stance = x.Stance
	case trossian.Pacify, trossian.Besiege:
		a, _ := s.Army(trossian.SubjectOf(o))
		a.Task = trossian.TaskPacify
		if o.Kind() == "besiege" {
			a.Task = trossian.TaskBesiege
		}
	case trossian.Detach:
		a, _ := s.Army(x.Force)
		ns := &s.Nations[0]
		note := ""
		if x.As != "" && c.taken(x.As) {
			note = " (" + string(x.As) + " is taken)"
		}
		if x.As == "" || c.taken(x.As) {
			x.As = game.ForceID(fmt.Sprintf("%s%d", ns.Letter, max(ns.NextForce, 1)))
		}
		for c.taken(x.As) {
			ns.NextForce = max(ns.NextForce, 1) + 1
			x.As = game.ForceID(fmt.Sprintf("%s%d", ns.Letter, ns.NextForce))
		}
		ns.NextForce = max(ns.NextForce, 1) + 1
		rest, _ := a.Stands.Minus(x.Stands)
		a.Stands = rest
		s.Armies = append(s.Armies, trossian.Army{ID: x.As, Nation: c.nation, At: a.At, Aboard: a.Aboard, Stands: x.Stands, Stance: a.Stance})
		c.created[x.As] = true
		return x, "new army " + string(x.As) + note
	case trossian.Merge:
		a, _ := s.Army(x.Force)
		b, _ := s.Army(x.Into)
		b.Stands = b.Stands.Plus(a.Stands)
		s.Armies = slices.DeleteFunc(s.Armies, func(y trossian.Army) bool { return y.ID == x.Force })
	}
	return o, ""
}

func (c *checker) taken(id game.ForceID) bool {
	_, a := c.shadow.Army(id)
	_, n := c.shadow.Navy(id)
	return a || n
}

// winterOrders checks the purchases against the winter's funds in sheet
// order, then the banking against what is left: the engine's order.
func (c *checker) winterOrders(stmts []Statement, buys, banks []int, accepted map[int]engine.Order, annot map[int]string) {
	if len(buys)+len(banks) == 0 {
		return
	}
	pool, besieged := trossian.WinterFunds(c.ctx.Map, c.ctx.Rules, c.shadow, c.nation)
	for _, i := range buys {
		st := stmts[i]
		x := st.Order.(trossian.Buy)
		if _, _, ok := c.legal(st, x); !ok {
			continue
		}
		cost, _ := x.Cost(c.ctx.Rules)
		if left, ok := besieged[x.City]; ok {
			if cost > left {
				c.errorAt(st, x.City, fmt.Sprintf("%s is besieged: its %d AP may only be spent in it, and this costs %d", x.City, left, cost),
					"Buy less there: \"those AP may only be spent to recruit forces in that city\".")
				continue
			}
			besieged[x.City] = left - cost
			accepted[i], annot[i] = x, fmt.Sprintf("%d AP from %s's own bank, %d left there", cost, x.City, left-cost)
		} else {
			if cost > pool {
				c.errorAt(st, fmt.Sprint(cost), fmt.Sprintf("this costs %d AP and %d are left to spend this winter", cost, pool),
					"Buy less: a purchase your treasury cannot pay is refused whole.")
				continue
			}
			pool -= cost
			accepted[i], annot[i] = x, fmt.Sprintf("%d AP, %d left to spend", cost, pool)
		}
		// The recruits count against the census for the next purchase.
		c.shadow.Armies = append(c.shadow.Armies, trossian.Army{ID: game.ForceID(fmt.Sprintf("#new%d", i)), Nation: c.nation, At: x.City, Stands: x.Stands})
	}
	for _, i := range banks {
		st := stmts[i]
		x := st.Order.(trossian.Bank)
		if _, _, ok := c.legal(st, x); !ok {
			continue
		}
		if x.AP > pool {
			c.errorAt(st, fmt.Sprint(x.AP), fmt.Sprintf("%d AP are left to bank after your purchases, not %d", pool, x.AP), "Bank at most what is left; the rest lies at your King's seat.")
			continue
		}
		pool -= x.AP
		accepted[i], annot[i] = x, fmt.Sprintf("%d AP left for %s", pool, seatName(c.seat))
	}
}
