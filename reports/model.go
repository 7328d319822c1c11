package reports

import (
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// SchemaVersion names the JSON layout of Model (docs/reports.md). It changes
// when a field changes meaning or is removed; new fields may be added
// without changing it.
const SchemaVersion = "pbem-report/1"

// Model is one nation's report for one turn: everything the PDF, the mail
// body and the JSON attachment show, and nothing else. It is built only from
// engine.View and engine.EventsFor for the nation (Build), so whatever is in
// it the nation may know. Its JSON form is the attachment players' tools
// read; every list is in a fixed order, so the same game gives the same
// bytes.
type Model struct {
	Schema string
	// Game is the game's ID ("syw"); GameName its title.
	Game     string
	GameName string `json:",omitempty"`
	// Ruleset is the edition the game is played under ("syw-1752").
	Ruleset string
	Nation  game.NationID
	// NationName is printed ("Eisenmark"); Letter prefixes its force IDs.
	NationName string
	Letter     string `json:",omitempty"`
	// Turn is the turn the NEXT ORDERS are for, TurnLabel its name ("Turn
	// 2, May 1752") — not the turn this report tells of. ResolvedTurn is
	// the turn this report tells of (the turn just resolved: 1 in the
	// report mailed after Turn 1), Resolved its name ("Turn 1, April
	// 1752"); both are empty in the starting report, which tells of the
	// opening position. Every page, title and file name of a report is
	// labelled with the turn resolved (Label).
	Turn         int
	TurnLabel    string
	Resolved     string `json:",omitempty"`
	ResolvedTurn int    `json:",omitempty"`
	Starting     bool   `json:",omitempty"`
	YearEnd      bool   `json:",omitempty"`
	// Deadline is when the next orders are due, printed in the game's zone
	// ("Sunday 3 May 2026, 20:00 CEST"); empty when none is set.
	Deadline string `json:",omitempty"`
	// Summary is the month in a few sentences: battles, cities taken or
	// lost, treaties, rulings.
	Summary []string `json:",omitempty"`
	// Treasury is the crowns the nation holds, by city, and the ledger.
	Treasury Treasury
	// Forces are the nation's land forces, Fleets its fleets.
	Forces []OwnForce `json:",omitempty"`
	Fleets []OwnForce `json:",omitempty"`
	Depots []Depot    `json:",omitempty"`
	// Foreign is every foreign force as the nation sees it now: its place
	// and size class, and what scouting this turn revealed. ID is set only
	// when an event of the turn named the force to the nation.
	Foreign []Foreign `json:",omitempty"`
	// LastSeen is older intelligence: foreign forces scouted on an earlier
	// turn and not scouted since, where and as they were seen.
	LastSeen []Foreign `json:",omitempty"`
	// Scouting is what each contact of the turn revealed.
	Scouting []Scouting `json:",omitempty"`
	// Battles are the battles, overruns, retreats, sea contacts and sieges
	// the nation took part in, as narratives.
	Battles []Narrative `json:",omitempty"`
	// Movements are the month's news of the nation's own forces: marches,
	// voyages, supply, attrition, orders not carried out.
	Movements []string `json:",omitempty"`
	// Cities are every city's public state (controller, loyalty, siege).
	Cities []City `json:",omitempty"`
	// Treaties are the published treaties and the nation's own pending ones.
	Treaties []Treaty `json:",omitempty"`
	// Rulings are the referee's rulings that concern the nation.
	Rulings []string `json:",omitempty"`
	// Nations are the nations in the game, eliminated ones marked.
	Nations []NationLine `json:",omitempty"`
	// Template is the order sheet for the next turn, pre-filled; the checker
	// accepts it as it is.
	Template string
}

// Treasury is the nation's money.
type Treasury struct {
	// Total is the crowns in all the nation's treasuries.
	Total int
	// Cities are the treasuries by city (the capitol, a temporary capitol).
	Cities []CityMoney `json:",omitempty"`
	// Ledger is the turn's income and spending, line by line (the year-end
	// taxes by city, fielding, purchases, penalties). Empty in a month
	// without money events.
	Ledger []LedgerLine `json:",omitempty"`
}

// CityMoney is a treasury held in a city.
type CityMoney struct {
	City   string
	Crowns int
}

// LedgerLine is one entry of the treasury ledger: Crowns is positive for
// income, negative for spending.
type LedgerLine struct {
	What   string
	City   string `json:",omitempty"`
	Crowns int
	// Why explains the amount ("full: held all year", "half: besieged").
	Why string `json:",omitempty"`
}

// OwnForce is one of the nation's forces or fleets in full.
type OwnForce struct {
	ID     game.ForceID
	Nation game.NationID
	// At is the hex ("0812") or sea area ("S2"); Where prints it with the
	// city's name when there is one ("0812 (Konigsfeld)").
	At    game.Place
	Where string
	// Aboard is the fleet carrying the force.
	Aboard  game.ForceID  `json:",omitempty"`
	Troops  []game.Troops `json:",omitempty"`
	Guns    []game.Guns   `json:",omitempty"`
	Ships   *game.Ships   `json:",omitempty"`
	Leaders []game.Leader `json:",omitempty"`
	// Figures counts troop figures; Exhausted those exhausted.
	Figures   int
	Exhausted int `json:",omitempty"`
	// Size is the size class foreign nations see.
	Size   ruleset.SizeClass
	Stance string
	// Standing prints the standing orders ("retreat at 2:1, pursue").
	Standing string `json:",omitempty"`
	// MP is the movement allowance next turn.
	MP int
	// Supply is the month's supply trace ("depot E-D1, 3 MP", "unsupplied:
	// no depot within reach"); empty when no trace was made (the start).
	Supply string `json:",omitempty"`
	// SupplyAt is where the supplying depot or city stands (the map draws
	// the supply line to it).
	SupplyAt   *game.Place `json:",omitempty"`
	Unsupplied bool        `json:",omitempty"`
	Garrison   bool        `json:",omitempty"`
	Fieldworks int         `json:",omitempty"`
	// Cargo (fleets) lists the forces aboard, and the cargo points used of
	// the transports' capacity.
	Cargo         []game.ForceID `json:",omitempty"`
	CargoPoints   int            `json:",omitempty"`
	CargoCapacity int            `json:",omitempty"`
}

// Depot is one of the nation's depots, or one granted to it.
type Depot struct {
	ID        string
	Nation    game.NationID
	Where     string
	Aboard    game.ForceID    `json:",omitempty"`
	GrantedTo []game.NationID `json:",omitempty"`
}

// Foreign is a foreign force as the nation knows it.
type Foreign struct {
	// ID is empty unless an event named the force to the nation.
	ID     game.ForceID `json:",omitempty"`
	Nation game.NationID
	At     game.Place
	Where  string
	// Size is the land troops' class, Ships the fleet's.
	Size  ruleset.SizeClass `json:",omitempty"`
	Ships ruleset.SizeClass `json:",omitempty"`
	// Level is the scouting level reached ("size", "arms", "approximate",
	// "exact"); the fields after it are filled as that level reveals them.
	Level       string        `json:",omitempty"`
	Arms        []string      `json:",omitempty"`
	HasGeneral  bool          `json:",omitempty"`
	Approx      []string      `json:",omitempty"`
	ShipCounts  *game.Ships   `json:",omitempty"`
	LeaderNames []string      `json:",omitempty"`
	Troops      []game.Troops `json:",omitempty"`
	Guns        []game.Guns   `json:",omitempty"`
	Leaders     []game.Leader `json:",omitempty"`
	Unsupplied  bool          `json:",omitempty"`
	// SeenTurn and Seen (a turn label) date last-seen intelligence; Age is
	// how many turns old it is.
	SeenTurn int    `json:",omitempty"`
	Seen     string `json:",omitempty"`
	Age      int    `json:",omitempty"`
}

// Scouting is one contact's result.
type Scouting struct {
	Scouts []game.ForceID
	// Target is the force looked at; Of its nation.
	Target game.ForceID
	Of     game.NationID
	Where  string
	Level  string
	// Learned says what the level showed, in words.
	Learned string
}

// Narrative is one battle, siege, overrun or encounter told for the nation:
// a title and paragraphs.
type Narrative struct {
	Title string
	Where string `json:",omitempty"`
	Text  []string
}

// City is a city's public state.
type City struct {
	Name       string
	Hex        game.Hex
	Controller game.NationID `json:",omitempty"`
	Loyalty    game.NationID `json:",omitempty"`
	Siege      string        `json:",omitempty"`
}

// Treaty is a treaty as the nation may read it.
type Treaty struct {
	ID        string
	Title     string
	Parties   []game.NationID
	Text      string
	Published string          `json:",omitempty"` // the turn label; empty while awaiting attestations
	Attested  []game.NationID `json:",omitempty"`
}

// NationLine is a nation in the game.
type NationLine struct {
	ID         game.NationID
	Name       string
	Eliminated bool `json:",omitempty"`
}
