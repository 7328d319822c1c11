package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// Purchase names what is bought at the year-end.
type Purchase struct {
	// Exactly one of these groups is set.
	Troops     *game.Troops `json:",omitempty"`
	Gun        game.GunKind `json:",omitzero"`
	Depot      bool         `json:",omitempty"`
	Warships   int          `json:",omitempty"`
	Transports int          `json:",omitempty"`
	Leader     *game.Leader `json:",omitempty"`
	Count      int          `json:",omitempty"` // guns
	// Aboard is, for a depot, the nation's fleet in the port that carries
	// it ("on a transport in a port at the start of the game-year").
	Aboard game.ForceID `json:",omitempty"`
}

// Buy buys units which appear in City (an unbesieged, unmasked city the
// nation controls; ships in a port).
type Buy struct {
	At
	What Purchase
	City string
}

// Field keeps a force's existing units for another year (pays the field cost);
// All fields every force the nation has; Depot fields one depot (by ID).
type Field struct {
	At
	Force game.ForceID `json:",omitempty"`
	All   bool         `json:",omitempty"`
	Depot string       `json:",omitempty"`
}

// Disband dismisses units of a force (all of it when nothing is listed).
type Disband struct {
	At
	Force  game.ForceID
	Troops []game.Troops `json:",omitempty"`
	Guns   []game.Guns   `json:",omitempty"`
	Ships  game.Ships    `json:",omitzero"`
}

// Transfer gives ships, depots, guns, generals or admirals to another nation
// at the start of a game-year (infantry, cavalry and gunners cannot be).
type Transfer struct {
	At
	To     game.NationID
	Force  game.ForceID `json:",omitempty"` // ships or guns from this force
	Guns   []game.Guns  `json:",omitempty"`
	Ships  game.Ships   `json:",omitzero"`
	Depot  string       `json:",omitempty"`
	Leader string       `json:",omitempty"`
}

// MoveTreasury transfers crowns from a captured capitol's treasury (held by
// this nation) to this nation or another.
type MoveTreasury struct {
	At
	From   string // the captured capitol
	To     game.NationID
	Amount int
}

// TemporaryCapitol designates a controlled city as the treasury for new taxes
// while the real capitol is lost.
type TemporaryCapitol struct {
	At
	City string
}

// Kind returns "buy".
func (Buy) Kind() string { return "buy" }

// Kind returns "field".
func (Field) Kind() string { return "field" }

// Kind returns "disband".
func (Disband) Kind() string { return "disband" }

// Kind returns "transfer".
func (Transfer) Kind() string { return "transfer" }

// Kind returns "treasury".
func (MoveTreasury) Kind() string { return "treasury" }

// Kind returns "temporary-capitol".
func (TemporaryCapitol) Kind() string { return "temporary-capitol" }

// yearEndOrderKinds: the game-year's orders ("Collecting Taxes, Buying and
// Fielding Troops", "Transferring Forces", "Your Capitol City"), each filed
// for its year-end step (pipeline.go). Until the game-year issue fills those
// steps each order is checked and then reported "not carried out yet".
var yearEndOrderKinds = []OrderKind{
	{Keyword: "buy", Section: "Collecting Taxes, Buying and Fielding Troops", Turn: YearEndTurn, Step: "purchases", Zero: Buy{}, Legal: legalBuy, Subject: noSubject},
	{Keyword: "field", Section: "Collecting Taxes, Buying and Fielding Troops", Turn: YearEndTurn, Step: "fielding", Zero: Field{}, Legal: legalField,
		Subject: func(o Order) (game.ForceID, string) { return o.(Field).Force, "" }},
	{Keyword: "disband", Section: "Collecting Taxes, Buying and Fielding Troops", Turn: YearEndTurn, Step: "fielding", Zero: Disband{}, Legal: legalDisband,
		Subject: func(o Order) (game.ForceID, string) { return o.(Disband).Force, "" }},
	{Keyword: "transfer", Section: "Collecting Taxes, Buying and Fielding Troops", Para: "Transferring Forces", Turn: YearEndTurn, Step: "transfers", Zero: Transfer{}, Legal: legalTransfer,
		Subject: func(o Order) (game.ForceID, string) { return o.(Transfer).Force, "" }},
	{Keyword: "treasury", Section: "Your Capitol City", Turn: YearEndTurn, Step: "taxes", Zero: MoveTreasury{}, Legal: legalMoveTreasury, Subject: noSubject},
	{Keyword: "temporary-capitol", Section: "Your Capitol City", Turn: YearEndTurn, Step: "taxes", Zero: TemporaryCapitol{}, Legal: legalTemporaryCapitol, Subject: noSubject},
}

// legalBuy: "When you buy new troops you must place them in unbesieged,
// unmasked cities under your control"; the Cost Chart ("You cannot buy Grade
// A troops"; Grenzlers for Unterreich only); ships in ports.
func legalBuy(s *Situation, o Order) *Refusal {
	x := o.(Buy)
	c, ok := s.Map.City(x.City)
	if !ok {
		return &Refusal{Code: "no-city", Read: x.City, Reason: fmt.Sprintf("there is no city %q", x.City), Hint: "Name the city as it is printed on the map."}
	}
	cs := s.City(c.Name)
	if cs.Controller != s.Nation {
		return &Refusal{Code: "not-controlled", Read: c.Name,
			Reason: fmt.Sprintf("you do not control %s: \"When you buy new troops you must place them in unbesieged, unmasked cities under your control\"", c.Name),
			Hint:   "Place the purchase in a city you hold."}
	}
	if cs.Siege != game.NotBesieged {
		return &Refusal{Code: "besieged", Read: c.Name, Reason: fmt.Sprintf("%s is %s: new troops are placed only in unbesieged, unmasked cities", c.Name, cs.Siege),
			Hint: "Place the purchase in another city you hold."}
	}
	w := x.What
	switch {
	case w.Troops != nil:
		t := w.Troops
		what := fmt.Sprintf("%d %s %s", t.Count, t.Grade, t.Arm)
		if t.Grade == game.GradeA {
			return &Refusal{Code: "grade-a", Read: what, Reason: "\"You cannot buy Grade A troops. You may only get them via field promotions after a battle\"",
				Hint: "Buy Grade B, C or D."}
		}
		if t.Arm == game.IrregularLight {
			if n, ok := s.Map.Nation(s.Nation); !ok || !n.Traits.IrregularLight {
				name := string(s.Nation)
				if ok {
					name = n.Name
				}
				return &Refusal{Code: "grenzers", Read: what,
					Reason: fmt.Sprintf("%s may not buy Grenzlers: Grade D irregular light infantry is for nations with that trait (Cost Chart: \"Grenzlers, Unterreich only\")", name),
					Hint:   "Buy light-infantry instead."}
			}
		}
		if bf, ok := s.Rules.Costs.Figure(t.Arm, t.Grade); !ok || bf.Buy == 0 {
			return &Refusal{Code: "not-for-sale", Read: what, Reason: fmt.Sprintf("the Cost Chart has no Grade %s %s", t.Grade, t.Arm),
				Hint: "Grenzlers are Grade D only; other troops Grade B, C or D."}
		}
	case w.Warships > 0 || w.Transports > 0:
		if !c.Port {
			return &Refusal{Code: "not-a-port", Read: c.Name, Reason: fmt.Sprintf("%s is not a port: ships are bought only in ports", c.Name),
				Hint: "Place ships in a port you hold."}
		}
	}
	return nil
}

// legalField: a FIELD order keeps all, one force or one depot; "You may not
// field depots that are in besieged or masked cities, or that are carried on
// transports" is decided with the depot (the order checker warns).
func legalField(s *Situation, o Order) *Refusal {
	x := o.(Field)
	n := 0
	for _, set := range []bool{x.All, x.Force != "", x.Depot != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return &Refusal{Code: "what", Reason: "a FIELD order keeps ALL, one force or one DEPOT", Hint: "Write FIELD ALL, FIELD force or FIELD DEPOT depot."}
	}
	return nil
}

// legalDisband: what is disbanded must be in the force.
func legalDisband(s *Situation, o Order) *Refusal {
	x := o.(Disband)
	f := s.Own(x.Force)
	if f == nil {
		return nil
	}
	if why := takeUnits(f, Units{Troops: x.Troops, Guns: x.Guns, Ships: x.Ships}, false); why != "" {
		return &Refusal{Code: "not-held", Read: string(f.ID), Reason: why, Hint: "List only what the force holds."}
	}
	return nil
}

// legalTransfer: "You may transfer ownership of ships, depots, guns (but not
// gunners), admirals, and generals to another player"; only one's own guns.
func legalTransfer(s *Situation, o Order) *Refusal {
	x := o.(Transfer)
	if x.To == s.Nation {
		return &Refusal{Code: "own-nation", Read: string(x.To), Reason: "that is your own nation", Hint: "Name another nation."}
	}
	for _, g := range x.Guns {
		if g.Owner != "" && g.Owner != s.Nation {
			return &Refusal{Code: "not-own-guns", Read: string(g.Owner), Reason: fmt.Sprintf("those guns belong to %s, not to you", g.Owner),
				Hint: "Transfer only your own guns."}
		}
	}
	return nil
}

// legalMoveTreasury: "Your Capitol City": "At the end of the year, however,
// you may transfer unspent crowns from a captured capitol to yourself or to
// another player." Only crowns in a captured treasury move: a city the
// nation holds that is not its own treasury (a captured capitol, or a
// captured temporary capitol: docs/rules-notes.md §Treasuries), at most
// what lies there.
func legalMoveTreasury(s *Situation, o Order) *Refusal {
	x := o.(MoveTreasury)
	c, ok := s.Map.City(x.From)
	if !ok {
		return &Refusal{Code: "no-city", Read: x.From, Reason: fmt.Sprintf("there is no city %q", x.From), Hint: "Name a captured capitol."}
	}
	cs := s.City(c.Name)
	if cs.Controller != s.Nation {
		return &Refusal{Code: "not-captured", Read: c.Name, Reason: fmt.Sprintf("you have not captured %s", c.Name),
			Hint: "Only the nation holding a captured capitol moves its crowns."}
	}
	if c.Capitol == s.Nation || s.Treasury == c.Name {
		return &Refusal{Code: "not-captured-capitol", Read: c.Name,
			Reason: fmt.Sprintf("%s is your own treasury, not a captured one: only crowns in a captured capitol can be moved (\"Your Capitol City\")", c.Name),
			Hint:   "Name a captured capitol."}
	}
	if cs.Treasury == 0 {
		return &Refusal{Code: "not-captured-capitol", Read: c.Name,
			Reason: fmt.Sprintf("%s holds no treasury: only crowns in a captured capitol can be moved (\"Your Capitol City\")", c.Name),
			Hint:   "Name a captured capitol."}
	}
	if x.Amount <= 0 {
		return &Refusal{Code: "no-crowns", Read: fmt.Sprint(x.Amount), Reason: "no crowns named", Hint: "Name how many crowns to move."}
	}
	if x.Amount > cs.Treasury {
		return &Refusal{Code: "too-much", Read: fmt.Sprint(x.Amount), Reason: fmt.Sprintf("the treasury in %s holds %s, not %d", c.Name, english.Count(cs.Treasury, "crown"), x.Amount),
			Hint: fmt.Sprintf("Move at most %d.", cs.Treasury)}
	}
	return nil
}

// legalTemporaryCapitol: "If your capitol is captured … you may designate
// another city that you control as a temporary capitol."
func legalTemporaryCapitol(s *Situation, o Order) *Refusal {
	x := o.(TemporaryCapitol)
	c, ok := s.Map.City(x.City)
	if !ok {
		return &Refusal{Code: "no-city", Read: x.City, Reason: fmt.Sprintf("there is no city %q", x.City), Hint: "Name a city you hold."}
	}
	if n, ok := s.Map.Nation(s.Nation); ok {
		if s.City(n.Capitol).Controller == s.Nation {
			return &Refusal{Code: "capitol-held", Read: c.Name,
				Reason: fmt.Sprintf("you hold your capitol %s: a temporary capitol is named only while it is lost", n.Capitol), Hint: "Leave the order out."}
		}
	}
	if s.City(c.Name).Controller != s.Nation {
		return &Refusal{Code: "not-controlled", Read: c.Name,
			Reason: fmt.Sprintf("you do not control %s: \"you may designate another city that you control as a temporary capitol\"", c.Name),
			Hint:   "Name a city you hold."}
	}
	return nil
}
