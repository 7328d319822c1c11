package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// Move marches a land force along Path (each hex adjacent to the one before,
// the first adjacent to the force's hex), or, when Path is empty, to Dest by
// the cheapest legal route the engine finds at the start of the turn.
type Move struct {
	At
	Force game.ForceID
	Path  []game.Hex `json:",omitempty"`
	Dest  game.Hex   `json:",omitzero"`
}

// SetStance declares ATTACK or DEFEND for a land force.
type SetStance struct {
	At
	Force  game.ForceID
	Stance game.Stance
}

// Retreat sets the force's standing order to retreat one hex before battle:
// Always, or when the enemy's strength is at least Odds times its own (e.g.
// 1.5 for "3:2"). Never clears it.
type Retreat struct {
	At
	Force  game.ForceID
	Always bool    `json:",omitempty"`
	Never  bool    `json:",omitempty"`
	Odds   float64 `json:",omitempty"`
}

// Pursue sets whether the force pursues a retreating enemy.
type Pursue struct {
	At
	Force game.ForceID
	On    bool
}

// OnContact sets whether the force continues along its path after winning or
// overrunning (Continue) or stops in the hex where it met the enemy.
type OnContact struct {
	At
	Force    game.ForceID
	Continue bool
}

// SlowEnemy sets whether the force sends its cavalry ahead to slow an enemy
// one hex away (Slowing the Enemy).
type SlowEnemy struct {
	At
	Force game.ForceID
	On    bool
}

// Kind returns "move".
func (Move) Kind() string { return "move" }

// Kind returns "stance".
func (SetStance) Kind() string { return "stance" }

// Kind returns "retreat".
func (Retreat) Kind() string { return "retreat" }

// Kind returns "pursue".
func (Pursue) Kind() string { return "pursue" }

// Kind returns "on-contact".
func (OnContact) Kind() string { return "on-contact" }

// Kind returns "slow".
func (SlowEnemy) Kind() string { return "slow" }

// landOrderKinds: a land force's march and its standing orders. Move is
// carried out by the movement step (movement.go), the standing orders by the
// organisation step (organise.go).
var landOrderKinds = []OrderKind{
	{Keyword: "move", Section: "Land Movement", Turn: MonthlyTurn, Step: "movement", Zero: Move{}, Legal: legalMove, Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Move).Force, "move") }},
	{Keyword: "stance", Section: "Land Battles", Para: "Attack and Defend", Turn: MonthlyTurn, Step: "organisation", Zero: SetStance{}, apply: applyStance, Legal: legalLand(func(o Order) game.ForceID { return o.(SetStance).Force }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(SetStance).Force, "stance") }},
	{Keyword: "retreat", Section: "Land Battles", Para: "Retreat before Battle", Turn: MonthlyTurn, Step: "organisation", Zero: Retreat{}, apply: applyRetreat, Legal: legalLand(func(o Order) game.ForceID { return o.(Retreat).Force }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Retreat).Force, "retreat") }},
	{Keyword: "pursue", Section: "Land Battles", Para: "Retreat before Battle", Turn: MonthlyTurn, Step: "organisation", Zero: Pursue{}, apply: applyPursue, Legal: legalLand(func(o Order) game.ForceID { return o.(Pursue).Force }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Pursue).Force, "pursue") }},
	{Keyword: "on-contact", Section: "Land Battles", Para: "Force Sizes and Overrun Attacks", Turn: MonthlyTurn, Step: "organisation", Zero: OnContact{}, apply: applyOnContact, Legal: legalLand(func(o Order) game.ForceID { return o.(OnContact).Force }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(OnContact).Force, "on-contact") }},
	{Keyword: "slow", Section: "Land Battles", Para: "Slowing the Enemy", Turn: MonthlyTurn, Step: "organisation", Zero: SlowEnemy{}, apply: applySlow, Legal: legalLand(func(o Order) game.ForceID { return o.(SlowEnemy).Force }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(SlowEnemy).Force, "slow") }},
}

// legalLand is the legality of orders for land forces only: standing
// orders ("Each side must declare attack or defend", Land Battles; fleets
// have FLEET SEEK/AVOID), sieges and fieldworks.
func legalLand(force func(Order) game.ForceID) func(*Situation, Order) *Refusal {
	return func(s *Situation, o Order) *Refusal { return NeedLand(s.Own(force(o))) }
}

// legalFleet is the legality of orders for fleets only.
func legalFleet(fleet func(Order) game.ForceID) func(*Situation, Order) *Refusal {
	return func(s *Situation, o Order) *Refusal { return NeedFleet(s.Own(fleet(o))) }
}

// legalMove is the Land Movement rules a march must meet before it starts:
// a land force, ashore, with a general ("A land force must have a general
// with it in order to move").
func legalMove(s *Situation, o Order) *Refusal {
	m := o.(Move)
	f := s.Own(m.Force)
	if f == nil {
		return nil
	}
	if r := NeedLand(f); r != nil {
		r.Reason = fmt.Sprintf("%s is a fleet: fleets sail", f.ID)
		return r
	}
	if f.Aboard != "" {
		return &Refusal{Code: "aboard", Read: string(f.ID),
			Reason:  fmt.Sprintf("%s is aboard %s: debark it first", f.ID, f.Aboard),
			Message: fmt.Sprintf("%s is aboard %s: it comes ashore with DEBARK, not MOVE", f.ID, f.Aboard),
			Hint:    fmt.Sprintf("Write DEBARK %s (AT a hex, from a sea area).", f.ID)}
	}
	if f.At.IsSea() || f.At.Hex.IsZero() {
		return &Refusal{Code: "not-on-land", Read: string(f.ID), Reason: fmt.Sprintf("%s is not on land", f.ID),
			Hint: "Write to the referee: the force has no place on the map."}
	}
	if !f.HasRole(game.General) {
		return &Refusal{Code: "no-general", Read: string(f.ID),
			Reason:  "a land force must have a general with it in order to move",
			Message: fmt.Sprintf("%s has no general: \"A land force must have a general with it in order to move\" (Land Movement)", f.ID),
			Hint:    fmt.Sprintf("ASSIGN a general to %s, or MERGE it into a force that has one.", f.ID)}
	}
	return nil
}

// ---- carried out by the organisation step (organise.go) ----

func applyStance(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(SetStance)
	if f := t.ownForce(n, x, x.Force, t.cite("Land Battles", "Attack and Defend")); f != nil {
		f.Stance = x.Stance
		return f.ID
	}
	return ""
}

func applyRetreat(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(Retreat)
	f := t.ownForce(n, x, x.Force, t.cite("Land Battles", "Retreat before Battle"))
	if f == nil {
		return ""
	}
	switch {
	case x.Never:
		f.Standing.RetreatBelow = 0
	case x.Always:
		f.Standing.RetreatBelow = -1
	case x.Odds > 0:
		f.Standing.RetreatBelow = x.Odds
	default:
		t.ignore(n, x, f.ID, t.cite("Land Battles", "Retreat before Battle"), "expected always, never or odds such as 3:2")
		return ""
	}
	return f.ID
}

func applyPursue(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(Pursue)
	if f := t.ownForce(n, x, x.Force, t.cite("Land Battles", "Retreat before Battle")); f != nil {
		f.Standing.Pursue = x.On
		return f.ID
	}
	return ""
}

func applyOnContact(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(OnContact)
	if f := t.ownForce(n, x, x.Force, t.cite("Land Battles", "Force Sizes and Overrun Attacks")); f != nil {
		f.Standing.Continue = x.Continue
		return f.ID
	}
	return ""
}

func applySlow(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(SlowEnemy)
	if f := t.ownForce(n, x, x.Force, t.cite("Land Battles", "Slowing the Enemy")); f != nil {
		f.Standing.SlowEnemy = x.On
		return f.ID
	}
	return ""
}
