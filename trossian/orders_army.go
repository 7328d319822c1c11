package trossian

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Move marches an army along Path (each province bordering the one before)
// or to Dest by the shortest land route; the march is a standing order,
// carried on phase after phase until the army arrives, is stopped or is
// given another.
type Move struct {
	engine.At
	Force game.ForceID
	Path  []string `json:",omitempty"`
	Dest  string   `json:",omitempty"`
}

// SetStance sets an army's stance: ATTACK gives battle on meeting the
// enemy, DEFEND gives battle only when attacked.
type SetStance struct {
	engine.At
	Force  game.ForceID
	Stance game.Stance
}

// Hold stops an army: its march and its task are cancelled.
type Hold struct {
	engine.At
	Force game.ForceID
}

// Retreat names the province an army retreats to when beaten, if it is
// safe then ("Army defeated in the field retreats to an adjacent province
// for free").
type Retreat struct {
	engine.At
	Force game.ForceID
	To    string
}

// Detach splits stands off an army as a new army (its ID is the kingdom's
// next, set by the checker and the engine).
type Detach struct {
	engine.At
	Force  game.ForceID
	Stands Stands
	As     game.ForceID `json:",omitempty"`
}

// Merge joins an army to another in the same place.
type Merge struct {
	engine.At
	Force game.ForceID
	Into  game.ForceID
}

// Kind returns "move".
func (Move) Kind() string { return "move" }

// Kind returns "stance".
func (SetStance) Kind() string { return "stance" }

// Kind returns "hold".
func (Hold) Kind() string { return "hold" }

// Kind returns "retreat".
func (Retreat) Kind() string { return "retreat" }

// Kind returns "detach".
func (Detach) Kind() string { return "detach" }

// Kind returns "merge".
func (Merge) Kind() string { return "merge" }

const (
	secMovement = "004 Timing and Scale ¶Movement rates"
	secGenerals = "004 Timing and Scale ¶Generals and Detachments"
	secPost     = "004 Post Battle Sequence"
)

// armyOrderKinds: the orders of an army's march, stance and organisation.
var armyOrderKinds = []OrderKind{
	{Keyword: "move", Turn: PhaseTurn, Step: "organisation", Section: secMovement, Zero: Move{}, Legal: legalMove, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(Move).Force, "move") }, apply: applyMove},
	{Keyword: "stance", Turn: PhaseTurn, Step: "organisation", Section: "004 The Battles", Zero: SetStance{}, Legal: legalStance, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(SetStance).Force, "stance") }, apply: applyStance},
	{Keyword: "hold", Turn: PhaseTurn, Step: "organisation", Section: secMovement, Zero: Hold{}, Legal: legalHold, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(Hold).Force, "move") }, apply: applyHold},
	{Keyword: "retreat", Turn: PhaseTurn, Step: "organisation", Section: secPost, Zero: Retreat{}, Legal: legalRetreat, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(Retreat).Force, "retreat") }, apply: applyRetreat},
	{Keyword: "detach", Turn: PhaseTurn, Step: "organisation", Section: secGenerals, Zero: Detach{}, Legal: legalDetach, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return o.(Detach).Force, "" }, apply: applyDetach},
	{Keyword: "merge", Turn: PhaseTurn, Step: "organisation", Section: secGenerals, Zero: Merge{}, Legal: legalMerge, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return o.(Merge).Force, "" }, apply: applyMerge},
}

// legalMove: "Infantry and artillery move one province per phase …" — a
// march follows borders; an army aboard a navy at sea lands first.
func legalMove(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Move)
	a, r := needArmy(s, x.Force)
	if a == nil {
		return r
	}
	from := s.armyPlace(a)
	if a.Aboard != "" && from == "" {
		return refusal("at-sea", string(a.ID), "Land it first: NAVY "+string(a.Aboard)+" … LAND "+string(a.ID)+".",
			"%s is aboard %s at sea and cannot march", a.ID, a.Aboard)
	}
	if x.Dest != "" {
		if _, ok := s.Map.Province(x.Dest); !ok {
			return refusal("no-province", x.Dest, "Name a province of the map.", "no province %s on the map", x.Dest)
		}
		if x.Dest == from {
			return refusal("there-already", x.Dest, "Leave the order out, or write HOLD to stop a march.", "%s is in %s already", a.ID, from)
		}
		if _, ok := s.Map.LandDistances(from)[x.Dest]; !ok {
			return refusal("no-land-route", x.Dest, "Go by sea: NAVY orders EMBARK and LAND.", "%s cannot reach %s by land from %s", a.ID, x.Dest, from)
		}
		return nil
	}
	if len(x.Path) == 0 {
		return refusal("no-path", string(a.ID), "List the provinces of the march, or write MOVE "+string(a.ID)+" TO a province.", "a march for %s with no province", a.ID)
	}
	prev := from
	for _, p := range x.Path {
		if _, ok := s.Map.Province(p); !ok {
			return refusal("no-province", p, "Name provinces of the map.", "no province %s on the map", p)
		}
		if !s.Map.Bordering(prev, p) {
			return refusal("not-adjacent", p, fmt.Sprintf("Each province of the march must border the one before; %s borders %s.", prev, orList(s.Map.Neighbors(prev))),
				"%s does not border %s", p, prev)
		}
		prev = p
	}
	return nil
}

func orList(w []string) string {
	switch len(w) {
	case 0:
		return "nothing"
	case 1:
		return w[0]
	}
	out := ""
	for i, x := range w {
		switch {
		case i == 0:
		case i == len(w)-1:
			out += " or "
		default:
			out += ", "
		}
		out += x
	}
	return out
}

func legalStance(s *Situation, o engine.Order) *engine.Refusal {
	_, r := needArmy(s, o.(SetStance).Force)
	return r
}

func legalHold(s *Situation, o engine.Order) *engine.Refusal {
	_, r := needArmy(s, o.(Hold).Force)
	return r
}

// legalRetreat: "retreats to an adjacent province".
func legalRetreat(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Retreat)
	a, r := needArmy(s, x.Force)
	if a == nil {
		return r
	}
	if _, ok := s.Map.Province(x.To); !ok {
		return refusal("no-province", x.To, "Name a province of the map.", "no province %s on the map", x.To)
	}
	if from := s.armyPlace(a); !s.Map.Bordering(from, x.To) {
		return refusal("not-adjacent", x.To, fmt.Sprintf("A beaten army retreats one province: name one bordering %s (%s).", from, orList(s.Map.Neighbors(from))),
			"%s does not border %s, where %s stands", x.To, from, a.ID)
	}
	return nil
}

// legalDetach: "4AP: HQ (Required for every detachment)" — the stands are
// the army's, and both the detachment and what stays keep an HQ.
func legalDetach(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Detach)
	a, r := needArmy(s, x.Force)
	if a == nil {
		return r
	}
	if len(x.Stands) == 0 {
		return refusal("no-stands", string(a.ID), "List the stands to detach, e.g. DETACH "+string(a.ID)+" 1 hq, 2 line-infantry.", "a detachment from %s of no stands", a.ID)
	}
	rest, ok := a.Stands.Minus(x.Stands)
	if !ok {
		return refusal("not-enough", x.Stands.String(), "Detach only stands the army has.", "%s has %s, not %s", a.ID, a.Stands, x.Stands)
	}
	if rest.Total() == 0 {
		return refusal("whole-army", string(a.ID), "Move the army itself instead.", "the detachment would take the whole of %s", a.ID)
	}
	if s.Rules.Leaderless.DetachNeedsHQ {
		if x.Stands.Count(HQ) == 0 {
			return refusal("no-hq", x.Stands.String(), "Detach an hq with the troops.",
				"the detachment from %s has no HQ: \"4AP: HQ (Required for every detachment)\" (%s)", a.ID, secGenerals)
		}
		if rest.Count(HQ) == 0 {
			return refusal("no-hq-left", x.Stands.String(), "Keep an hq in the army, or move the whole army.",
				"%s would keep no HQ: \"HQ (Required for every detachment)\" (%s)", a.ID, secGenerals)
		}
	}
	return nil
}

// legalMerge: two armies of the kingdom in one place.
func legalMerge(s *Situation, o engine.Order) *engine.Refusal {
	x := o.(Merge)
	a, r := needArmy(s, x.Force)
	if a == nil {
		return r
	}
	b, r := needArmy(s, x.Into)
	if r != nil {
		return r
	}
	if b == nil {
		return refusal("no-force", string(x.Into), "Merge into one of your armies.", "you have no army %s", x.Into)
	}
	if a.ID == b.ID {
		return refusal("self", string(x.Into), "Name two armies.", "%s cannot merge into itself", a.ID)
	}
	if s.armyPlace(a) != s.armyPlace(b) || a.Aboard != b.Aboard {
		return refusal("apart", string(x.Into), "Bring them together first.", "%s and %s are not in the same place", a.ID, b.ID)
	}
	return nil
}

// ---- carrying the orders out ----

func applyMove(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(Move)
	a, _ := t.s.Army(x.Force)
	path := slices.Clone(x.Path)
	if x.Dest != "" {
		path = t.route(n, a.At, x.Dest)
	}
	a.March = path
	a.Task, a.TaskSince = "", 0
	t.startMarch(a, tick)
}

func applyStance(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(SetStance)
	a, _ := t.s.Army(x.Force)
	a.Stance = x.Stance
}

func applyHold(t *turn, n game.NationID, o engine.Order, tick int) {
	a, _ := t.s.Army(o.(Hold).Force)
	a.March, a.Task, a.TaskSince = nil, "", 0
	t.stopMarch(a)
}

func applyRetreat(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(Retreat)
	a, _ := t.s.Army(x.Force)
	a.RetreatTo = x.To
}

func applyDetach(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(Detach)
	a, _ := t.s.Army(x.Force)
	ns, _ := t.s.Nation(n)
	id := x.As
	if id == "" || t.forceIDTaken(id) {
		id = t.nextArmyID(ns)
	} else {
		ns.NextForce = max(ns.NextForce, forceNumber(id)+1)
	}
	rest, _ := a.Stands.Minus(x.Stands)
	a.Stands = rest
	d := Army{ID: id, Nation: n, At: a.At, Aboard: a.Aboard, Stands: x.Stands.Normalize(), Stance: a.Stance}
	t.s.Armies = append(t.s.Armies, d)
	t.emit(&Detached{Header: t.head(secGenerals, a.At, to(n), n), Army: x.Force, New: id, Stands: d.Stands, Left: rest})
	t.dirty = true
}

func applyMerge(t *turn, n game.NationID, o engine.Order, tick int) {
	x := o.(Merge)
	a, _ := t.s.Army(x.Force)
	b, _ := t.s.Army(x.Into)
	b.Stands = b.Stands.Plus(a.Stands)
	at := t.armyProvince(b)
	t.emit(&Merged{Header: t.head(secGenerals, at, to(n), n), Army: x.Force, Into: x.Into, Stands: b.Stands})
	t.removeArmy(a.ID)
}
