package engine

import "github.com/syw-pbem/pbem/game"

// The year-end's event kinds. Every crown that enters or leaves a treasury
// does so by a TreasuryChanged event whose Why says why; the other kinds
// say what was collected, fielded, bought, transferred or published.

// TreasuryChanged: crowns entered (Change > 0) or left (Change < 0) the
// treasury lying in City. Why is one of "taxes", "field", "buy",
// "treaty penalty", "treasury moved", "capitol regained"; Line is the sheet
// line of the order that spent them (0 if none). Visible to the nation.
type TreasuryChanged struct {
	Header
	Nation game.NationID
	City   string
	Before int
	Change int
	After  int
	Why    string
	Line   int `json:",omitempty"`
	// What is what was paid for ("12 B heavy-cavalry", "E2", "T1 breached
	// against fromande") or where the crowns came from.
	What string `json:",omitempty"`
}

// CityTax is one city's part of a nation's taxes.
type CityTax struct {
	City string
	// Value is the city's tax value (100/200/300/400); Paid what it paid.
	Value int
	Paid  int
	// Why says why Paid differs from Value: "besieged", "masked", "foreign",
	// "masked, foreign" ("" for full taxes).
	Why string `json:",omitempty"`
}

// TaxesCollected: a nation's taxes for the year, city by city, before the
// capitol's 3/4. Gross is the sum of the cities' Paid; Collected is what
// reached the treasury (3/4 of Gross, rounded down, while CapitolLost).
// Visible to the nation.
type TaxesCollected struct {
	Header
	Nation      game.NationID
	Treasury    string
	Cities      []CityTax `json:",omitempty"`
	Gross       int
	CapitolLost bool `json:",omitempty"`
	Collected   int
}

// CapitolDesignated: a nation that has lost its capitol named City its
// temporary capitol (By "order"), or the engine named one for it because it
// had none it held (By "default"), or the real capitol was regained and the
// temporary one dropped (By "regained", City the real capitol). Visible to
// the nation.
type CapitolDesignated struct {
	Header
	Nation game.NationID
	City   string
	By     string
}

// ProvinceLoyal: the cities of a province that is no nation's home turned
// loyal to Nation, which held all of them at the end of the game-year.
// Before is the nation they were loyal to ("" for neutral). Public.
type ProvinceLoyal struct {
	Header
	Province string
	Nation   game.NationID
	Before   game.NationID `json:",omitempty"`
	Cities   []string
}

// UnitsFielded: a nation kept a force or a depot for another year, for Cost
// crowns. By is "order" (a FIELD order), "all" (FIELD ALL), or "default"
// (ruleset YearEnd.Unfielded keep). Visible to the nation.
type UnitsFielded struct {
	Header
	Nation game.NationID
	Force  game.ForceID `json:",omitempty"`
	Depot  string       `json:",omitempty"`
	Cost   int
	By     string
}

// DepotLost: a depot was not fielded at the year-end and is gone; Reason
// says why. Visible to the nation.
type DepotLost struct {
	Header
	Depot  string
	Nation game.NationID
	Reason string
}

// UnitsBought: a purchase placed in City: troops, guns or leaders in the
// land force Force, ships or admirals in the fleet Force, or a depot.
// Visible to the nation.
type UnitsBought struct {
	Header
	Nation game.NationID
	City   string
	What   string
	Cost   int
	Force  game.ForceID `json:",omitempty"`
	Depot  string       `json:",omitempty"`
	Line   int          `json:",omitempty"`
}

// UnitsTransferred: ownership of ships, guns, a depot or a leader passed
// from one nation to another at the start of the game-year. NewForce is the
// receiving nation's new force holding them (none for a depot). Visible to
// both nations.
type UnitsTransferred struct {
	Header
	From     game.NationID
	To       game.NationID
	What     string
	Force    game.ForceID `json:",omitempty"`
	NewForce game.ForceID `json:",omitempty"`
	Depot    string       `json:",omitempty"`
	Line     int          `json:",omitempty"`
}

// NationTaxBase is a nation's tax base at the end of a game-year.
type NationTaxBase struct {
	Nation  game.NationID
	TaxBase int
}

// TaxBasesCounted: every nation's tax base at the end of the game-year, the
// measure of victory. Public.
type TaxBasesCounted struct {
	Header
	Year  int
	Bases []NationTaxBase
}

// Victory is the end of the game: the nations that won, and the year.
type Victory struct {
	Year int
	// Winners are the winning nations, sorted; more than one only for a
	// shared tie (ruleset YearEnd.VictoryTie).
	Winners []game.NationID
	// Contenders are the nations at or above the victory tax base, largest
	// first.
	Contenders []NationTaxBase
	Tie        bool `json:",omitempty"`
}

// VictoryDeclared: one or more nations ended the game-year with the victory
// tax base. Winners is empty when a tie is played on. Public.
type VictoryDeclared struct {
	Header
	Victory
}

// TreatyPublished: a public treaty every party has attested is published to
// all. Public.
type TreatyPublished struct {
	Header
	Treaty  string
	Title   string
	Parties []game.NationID
	Text    string
	// Ratified is the turn during which the last party attested.
	Ratified int
}

// TreatyBreachAnnounced: the referee found Offender in breach of a public
// treaty against Aggrieved (Ended false), or the aggrieved party ended the
// penalty (Ended true). Public.
type TreatyBreachAnnounced struct {
	Header
	Treaty    string
	Offender  game.NationID
	Aggrieved game.NationID
	Ended     bool `json:",omitempty"`
}

// Kind returns "TreasuryChanged".
func (*TreasuryChanged) Kind() string { return "TreasuryChanged" }

// Kind returns "TaxesCollected".
func (*TaxesCollected) Kind() string { return "TaxesCollected" }

// Kind returns "CapitolDesignated".
func (*CapitolDesignated) Kind() string { return "CapitolDesignated" }

// Kind returns "ProvinceLoyal".
func (*ProvinceLoyal) Kind() string { return "ProvinceLoyal" }

// Kind returns "UnitsFielded".
func (*UnitsFielded) Kind() string { return "UnitsFielded" }

// Kind returns "DepotLost".
func (*DepotLost) Kind() string { return "DepotLost" }

// Kind returns "UnitsBought".
func (*UnitsBought) Kind() string { return "UnitsBought" }

// Kind returns "UnitsTransferred".
func (*UnitsTransferred) Kind() string { return "UnitsTransferred" }

// Kind returns "TaxBasesCounted".
func (*TaxBasesCounted) Kind() string { return "TaxBasesCounted" }

// Kind returns "VictoryDeclared".
func (*VictoryDeclared) Kind() string { return "VictoryDeclared" }

// Kind returns "TreatyPublished".
func (*TreatyPublished) Kind() string { return "TreatyPublished" }

// Kind returns "TreatyBreachAnnounced".
func (*TreatyBreachAnnounced) Kind() string { return "TreatyBreachAnnounced" }

func init() {
	for _, f := range []func() Event{
		func() Event { return new(TreasuryChanged) },
		func() Event { return new(TaxesCollected) },
		func() Event { return new(CapitolDesignated) },
		func() Event { return new(ProvinceLoyal) },
		func() Event { return new(UnitsFielded) },
		func() Event { return new(DepotLost) },
		func() Event { return new(UnitsBought) },
		func() Event { return new(UnitsTransferred) },
		func() Event { return new(TaxBasesCounted) },
		func() Event { return new(VictoryDeclared) },
		func() Event { return new(TreatyPublished) },
		func() Event { return new(TreatyBreachAnnounced) },
	} {
		registerEvent(f)
	}
}
