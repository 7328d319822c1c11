package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Embark puts a land force (and its depot, if Depot is set) aboard a fleet's
// transports in the same port or good-holding hex.
type Embark struct {
	At
	Force game.ForceID
	Fleet game.ForceID
}

// Sail moves a fleet along a path of sea areas, ports and good-holding hexes.
type Sail struct {
	At
	Fleet game.ForceID
	Path  []game.Place
}

// Debark puts an embarked land force ashore in the port or good-holding hex
// its fleet lies in, or, from a sea area, in Hex (a coastal landing).
type Debark struct {
	At
	Force game.ForceID
	Hex   game.Hex `json:",omitzero"`
}

// FleetStance sets whether a fleet seeks or avoids battle.
type FleetStance struct {
	At
	Fleet game.ForceID
	Avoid bool
}

// Repair repairs a fleet's damaged ships in port (one full turn; paid per the
// Cost Chart).
type Repair struct {
	At
	Fleet game.ForceID
}

// Kind returns "embark".
func (Embark) Kind() string { return "embark" }

// Kind returns "sail".
func (Sail) Kind() string { return "sail" }

// Kind returns "debark".
func (Debark) Kind() string { return "debark" }

// Kind returns "fleet-stance".
func (FleetStance) Kind() string { return "fleet-stance" }

// Kind returns "repair".
func (Repair) Kind() string { return "repair" }

// seaOrderKinds: embarking, voyages, landings, fleet stance and repairs.
// Embark, Sail and Debark are carried out by the movement step (sea.go, on
// the movement clock), FLEET by the organisation step; repairs are filed for
// the sea-battles step ("damaged ships must be repaired in a port").
var seaOrderKinds = []OrderKind{
	{Keyword: "embark", Section: "Sea Movement", Para: "Transports", Turn: MonthlyTurn, Step: "movement", Zero: Embark{}, Legal: legalEmbark, Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Embark).Force, "embark") }},
	{Keyword: "sail", Section: "Sea Movement", Turn: MonthlyTurn, Step: "movement", Zero: Sail{}, Legal: legalFleet(func(o Order) game.ForceID { return o.(Sail).Fleet }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Sail).Fleet, "sail") }},
	{Keyword: "debark", Section: "Sea Movement", Para: "Coastal Landings", Turn: MonthlyTurn, Step: "movement", Zero: Debark{}, Legal: legalDebark, Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Debark).Force, "debark") }},
	{Keyword: "fleet-stance", Section: "Sea Battles", Turn: MonthlyTurn, Step: "organisation", Zero: FleetStance{}, apply: applyFleetStance, Legal: legalFleet(func(o Order) game.ForceID { return o.(FleetStance).Fleet }), Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(FleetStance).Fleet, "fleet-stance") }},
	{Keyword: "repair", Section: "Sea Battles", Turn: MonthlyTurn, Step: "repairs", Zero: Repair{}, Legal: legalRepair, Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Repair).Fleet, "repair") }},
}

// legalEmbark: a land force ashore boards a fleet with transports ("Each
// transport can carry 50 cargo points").
func legalEmbark(s *Situation, o Order) *Refusal {
	x := o.(Embark)
	f, fl := s.Own(x.Force), s.Own(x.Fleet)
	if r := NeedLand(f); r != nil {
		return r
	}
	if r := NeedFleet(fl); r != nil {
		return r
	}
	if f != nil && f.Aboard != "" {
		return &Refusal{Code: "aboard", Read: string(f.ID), Reason: fmt.Sprintf("%s is not a land force ashore", f.ID),
			Message: fmt.Sprintf("%s is already aboard %s", f.ID, f.Aboard), Hint: "Leave the order out."}
	}
	if fl != nil && fl.Ships.AllTransports() == 0 {
		return &Refusal{Code: "no-transports", Read: string(fl.ID), Reason: fmt.Sprintf("%s has no transports", fl.ID),
			Message: fmt.Sprintf("%s has no transports, and only transports carry troops", fl.ID), Hint: "Embark on a fleet with transports."}
	}
	return nil
}

// Passage is where a force or fleet stands at the start of the turn and
// where its orders of the turn bring it: the last place of its march or
// voyage within its movement allowance (Start when it does not move).
type Passage struct {
	Start, End game.Place
}

// EmbarkMeeting is where and when a land force boards a fleet this turn,
// the one rule the engine carries EMBARK out by and the order checker
// checks it by (from the marches and voyages its sheet plans). "There is
// no cost to embark or debark troops" (Sea Movement), and troops board in
// a port or good-holding hex where the fleet lies: where both stand at the
// start of the turn — aboard before either moves (atStart) — or where both
// are once this turn's orders are carried out — the fleet sailed to the
// force, the force marched to the fleet, or both went to the same place —
// boarding when the later of the two arrives (docs/rules-notes.md
// §Embarking where the fleet lies).
func EmbarkMeeting(m *hexmap.Map, forceID, fleetID game.ForceID, force, fleet Passage) (where game.Hex, atStart bool, r *Refusal) {
	switch {
	case !force.Start.IsSea() && force.Start == fleet.Start:
		where, atStart = force.Start.Hex, true
	case !force.End.IsSea() && force.End == fleet.End:
		where = force.End.Hex
	default:
		label := func(p game.Place) string { return placeLabel(m, p) }
		return game.Hex{}, false, &Refusal{Code: "not-together", Read: string(fleetID),
			Reason: fmt.Sprintf("%s is not in the port or good-holding hex of %s: %s is at %s and %s at %s, and their orders do not bring them together",
				forceID, fleetID, forceID, label(force.End), fleetID, label(fleet.End)),
			Message: fmt.Sprintf("%s is at %s and %s at %s, and no move of this sheet brings them together: troops embark where the fleet lies, at the start of the turn or where both end their moves",
				forceID, label(force.Start), fleetID, label(fleet.Start)),
			Hint: "Bring the force and the fleet to the same port or good-holding hex."}
	}
	if !Anchorage(m, where) {
		return game.Hex{}, false, &Refusal{Code: "no-anchorage", Read: where.String(),
			Reason:  fmt.Sprintf("%s is neither a port nor a good-holding hex", where),
			Message: fmt.Sprintf("%s is neither a port nor a good-holding hex: troops embark only there (The Map)", m.HexLabel(where)),
			Hint:    "Embark in a port, or in a good-holding hex."}
	}
	return where, atStart, nil
}

// legalDebark: an embarked land force lands in a port or a good-holding hex
// (Coastal Landings: "Troops may land … in a good-holding hex"); whether the
// landing carries against defenders (CoastalLandingHolds) is decided when
// the fleet comes to rest.
func legalDebark(s *Situation, o Order) *Refusal {
	x := o.(Debark)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	if f.Aboard == "" {
		return &Refusal{Code: "not-aboard", Read: string(f.ID), Reason: fmt.Sprintf("%s is not aboard a fleet", f.ID),
			Hint: fmt.Sprintf("EMBARK %s on a fleet first.", f.ID)}
	}
	if x.Hex.IsZero() {
		return nil
	}
	if !s.Map.InBounds(x.Hex) {
		return &Refusal{Code: "off-map", Read: x.Hex.String(), Reason: fmt.Sprintf("hex %s is not on the map", x.Hex), Hint: "Check the hex number."}
	}
	if !Anchorage(s.Map, x.Hex) {
		return &Refusal{Code: "no-anchorage", Read: x.Hex.String(), Reason: fmt.Sprintf("%s is neither a port nor a good-holding hex", x.Hex),
			Message: fmt.Sprintf("%s is neither a port nor a good-holding hex: troops land only there (The Map: Good holding)", s.Map.HexLabel(x.Hex)),
			Hint:    "Land in a port or a good-holding hex."}
	}
	return nil
}

// Anchorage reports a port or good-holding hex: where fleets lie and troops
// embark and land.
func Anchorage(m *hexmap.Map, h game.Hex) bool {
	if c, ok := m.CityAt(h); ok && c.Port {
		return true
	}
	return m.IsGoodHolding(h)
}

// CoastalLandingHolds is the Coastal Landings rule: a landing on a hex held
// by defenders (their infantry, cavalry and gunners) carries only at the
// ruleset's odds (3:1), each warship of the landing side in the hex counting
// as WarshipAsInfantry (50) infantry. It returns the landing side's strength
// too.
func CoastalLandingHolds(rules *ruleset.Ruleset, landingFigures, warships, defenders int) (strength int, ok bool) {
	sm := rules.SeaMovement
	strength = landingFigures + warships*sm.WarshipAsInfantry
	return strength, defenders == 0 || strength >= sm.CoastalLandingOdds*defenders
}

// legalRepair: "Damaged ships … must be repaired in a port."
func legalRepair(s *Situation, o Order) *Refusal {
	x := o.(Repair)
	f := s.Own(x.Fleet)
	if r := NeedFleet(f); r != nil || f == nil {
		return r
	}
	if c, ok := s.Map.CityAt(f.At.Hex); f.At.IsSea() || !ok || !c.Port {
		return &Refusal{Code: "not-in-port", Read: string(f.ID), Reason: fmt.Sprintf("%s is at %s, not in a port", f.ID, placeLabel(s.Map, f.At)),
			Message: fmt.Sprintf("%s is at %s, not in a port: damaged ships \"must be repaired in a port\" (Sea Battles)", f.ID, placeLabel(s.Map, f.At)),
			Hint:    "Sail into a port you hold, and repair next turn."}
	}
	return nil
}

// ---- carried out by the organisation step (organise.go) ----

func applyFleetStance(t *turn, n game.NationID, o Order) game.ForceID {
	x := o.(FleetStance)
	f := t.ownForce(n, x, x.Fleet, t.cite("Sea Battles", ""))
	if f == nil {
		return ""
	}
	if !f.IsFleet() {
		t.ignore(n, x, f.ID, t.cite("Sea Battles", ""), fmt.Sprintf("%s is not a fleet", f.ID))
		return ""
	}
	f.Standing.AvoidBattle = x.Avoid
	return f.ID
}

// The sea orders of the movement step (Embark, Sail, Debark) are carried out
// on the movement clock: sea.go.
