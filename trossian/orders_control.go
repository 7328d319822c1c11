package trossian

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Pacify sets an army to pacify the plain province it stands in: "To take
// control of a province, 20AP worth of troops must spend a full phase …
// pacifying the populace." The task stands until the province is taken,
// the army moves or is given HOLD.
type Pacify struct {
	engine.At
	Force game.ForceID
}

// Besiege sets an army to besiege the town or port it stands in ("Every
// city possesses a garrison of troops that will defend the city").
type Besiege struct {
	engine.At
	Force game.ForceID
}

// Kind returns "pacify".
func (Pacify) Kind() string { return "pacify" }

// Kind returns "besiege".
func (Besiege) Kind() string { return "besiege" }

const secSiege = "004 Siege Works"

// controlOrderKinds: taking provinces and cities.
var controlOrderKinds = []OrderKind{
	{Keyword: "besiege", Turn: PhaseTurn, Step: "organisation", Section: secSiege, Zero: Besiege{}, Legal: legalBesiege, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(Besiege).Force, "task") }, apply: applyTask},
	{Keyword: "pacify", Turn: PhaseTurn, Step: "organisation", Section: secSiege, Zero: Pacify{}, Legal: legalPacify, Once: true, ByCourier: true,
		Subject: func(o engine.Order) (game.ForceID, string) { return subjectForce(o.(Pacify).Force, "task") }, apply: applyTask},
}

// legalPacify: a plain province the kingdom does not hold; towns and ports
// are besieged.
func legalPacify(s *Situation, o engine.Order) *engine.Refusal {
	a, r := needArmy(s, o.(Pacify).Force)
	if a == nil {
		return r
	}
	return legalTask(s, a, false)
}

// legalBesiege: a town or port the kingdom does not hold.
func legalBesiege(s *Situation, o engine.Order) *engine.Refusal {
	a, r := needArmy(s, o.(Besiege).Force)
	if a == nil {
		return r
	}
	return legalTask(s, a, true)
}

// legalTask judges the task where the army will be: at the end of its
// march if it has one (MOVE then BESIEGE: besiege on arrival), else where
// it stands.
func legalTask(s *Situation, a *Army, city bool) *engine.Refusal {
	at := s.armyPlace(a)
	if len(a.March) > 0 {
		at = a.March[len(a.March)-1]
	} else if a.Aboard != "" {
		return refusal("aboard", string(a.ID), "Land it first.", "%s is aboard %s", a.ID, a.Aboard)
	}
	p, _ := s.Map.Province(at)
	if p == nil {
		return refusal("nowhere", string(a.ID), "", "%s stands in no province", a.ID)
	}
	if s.Province(at).Controller == s.Nation {
		return refusal("own", at, "Pacify or besiege a province another kingdom holds, or an unclaimed one.", "%s is yours already", at)
	}
	switch {
	case city && !p.Kind.IsCity():
		return refusal("not-city", at, "Write PACIFY "+string(a.ID)+": open country is pacified.", "%s is open country, not a town or port: there is no garrison to besiege", at)
	case !city && p.Kind.IsCity():
		return refusal("city", at, "Write BESIEGE "+string(a.ID)+": \"Every city possesses a garrison of troops that will defend the city\".", "%s is a %s: its garrison must be besieged", at, p.Kind)
	}
	return nil
}

// applyTask sets the army's task. Given at the seat (tick 0) to an army
// that does not march, the phase counts; delivered by a courier during the
// phase, or to an army on the march (it takes up the task on arrival), the
// first full phase in place is the first that counts (movement.go moves
// TaskSince on at each step).
func applyTask(t *turn, n game.NationID, o engine.Order, tick int) {
	a, _ := t.s.Army(SubjectOf(o))
	a.Task = TaskPacify
	if o.Kind() == "besiege" {
		a.Task = TaskBesiege
	}
	a.TaskSince = t.s.Turn
	if tick > 0 || len(a.March) > 0 {
		a.TaskSince = t.s.Turn + 1
	}
}
