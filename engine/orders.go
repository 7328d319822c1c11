package engine

import (
	"github.com/syw-pbem/pbem/game"
)

// Orders are one nation's orders for one turn, in the order the sheet gave
// them. The parser builds them from an order sheet; the checker and the engine
// read them. Orders for the year-end turn are the year-end kinds; orders for a
// monthly turn the monthly kinds.
type Orders struct {
	Nation game.NationID
	Turn   int
	List   []Order
}

// Order is one order. Each kind is its own type (one file per family of
// orders in this package); Line is the order sheet line it came from, so the
// engine's events can point back at it.
type Order interface {
	// Kind is the order's keyword on the sheet ("move", "stance" …).
	Kind() string
	// SourceLine is the sheet line number, 0 if none.
	SourceLine() int
}

// At is embedded in every order: the sheet line it was read from.
type At struct {
	Line int `json:",omitempty"`
}

// SourceLine returns the sheet line the order came from.
func (a At) SourceLine() int { return a.Line }

// ---- monthly turn: movement and stance ----

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

// ---- monthly turn: organisation ----

// Split forms a new force from part of an existing one in the same hex. The
// engine gives the new force the next ID of the nation, or NewID when the
// sheet names one that is free.
type Split struct {
	At
	Force   game.ForceID
	NewID   game.ForceID  `json:",omitempty"`
	Troops  []game.Troops `json:",omitempty"`
	Guns    []game.Guns   `json:",omitempty"`
	Ships   game.Ships    `json:",omitzero"`
	Leaders []string      `json:",omitempty"`
}

// Merge joins Force into Into; both must be in the same place at the time.
type Merge struct {
	At
	Force game.ForceID
	Into  game.ForceID
}

// AssignLeader moves a general or admiral into a force in the same place.
type AssignLeader struct {
	At
	Leader string
	To     game.ForceID
}

// DetachLeader takes a general or admiral out of his force as a force of his
// own (he then moves at the general's rate).
type DetachLeader struct {
	At
	Leader string
	NewID  game.ForceID `json:",omitempty"`
}

// Garrison makes a force the garrison of the city in its hex.
type Garrison struct {
	At
	Force game.ForceID
	City  string
}

// Fieldworks builds Inches of fieldworks in the force's hex (1" per infantry
// figure; paid 1 crown per 4").
type Fieldworks struct {
	At
	Force  game.ForceID
	Inches int
}

// ---- monthly turn: sieges ----

// Besiege lays siege to (or masks, when the force lacks the odds) a city.
type Besiege struct {
	At
	Force game.ForceID
	City  string
	// MaskOnly masks the city without trying to besiege it.
	MaskOnly bool `json:",omitempty"`
}

// Assault storms a besieged or masked city with Infantry figures of the force
// (0 = all its infantry).
type Assault struct {
	At
	Force    game.ForceID
	City     string
	Infantry int `json:",omitempty"`
}

// Bombard chooses what the force's heavy guns do before a city this turn:
// roll for breaches (the default) or fire at the defenders' guns.
type Bombard struct {
	At
	Force       game.ForceID
	City        string
	CounterFire bool `json:",omitempty"`
}

// ---- monthly turn: the sea ----

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

// GrantSupply makes a depot supply another nation's troops, or stop.
type GrantSupply struct {
	At
	Depot    string
	Nation   game.NationID
	Withdraw bool `json:",omitempty"`
}

// Special is a free-text special action for the referee to rule on.
type Special struct {
	At
	Text string
}

// ---- year-end ----

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

// Kind implementations.
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

// Kind returns "split".
func (Split) Kind() string { return "split" }

// Kind returns "merge".
func (Merge) Kind() string { return "merge" }

// Kind returns "assign".
func (AssignLeader) Kind() string { return "assign" }

// Kind returns "detach".
func (DetachLeader) Kind() string { return "detach" }

// Kind returns "garrison".
func (Garrison) Kind() string { return "garrison" }

// Kind returns "fieldworks".
func (Fieldworks) Kind() string { return "fieldworks" }

// Kind returns "besiege".
func (Besiege) Kind() string { return "besiege" }

// Kind returns "assault".
func (Assault) Kind() string { return "assault" }

// Kind returns "bombard".
func (Bombard) Kind() string { return "bombard" }

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

// Kind returns "supply".
func (GrantSupply) Kind() string { return "supply" }

// Kind returns "special".
func (Special) Kind() string { return "special" }

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
