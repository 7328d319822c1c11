package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The Trossian event kinds. Each embeds engine.Header (step, rule, place,
// nations, visibility) and is registered with engine.RegisterEvent, so
// that engine.UnmarshalEvents, engine.EventsFor and the reports read them
// as they read the SYW kinds. The place of an event is a province or lane:
// Header.Place is left zero (it is a hex place) and each kind names its
// province or lane in its own fields. Visibility is decided where the
// event is made and documented on each kind; the kinds that carry numbers
// not every viewer may see implement engine.Redacter.

// Detached: stands split off an army as a new army. The owner.
type Detached struct {
	engine.Header
	Army   game.ForceID
	New    game.ForceID
	Stands Stands
	Left   Stands
}

// Merged: an army joined another. The owner.
type Merged struct {
	engine.Header
	Army, Into game.ForceID
	Stands     Stands
}

// Marched: an army's march this phase: the provinces entered, its
// allowance (speed, with the road bonus when the whole move was along
// roads), and why it stopped short. The owner.
type Marched struct {
	engine.Header
	Army      game.ForceID
	From      string
	Path      []string `json:",omitempty"`
	Allowance int
	Road      bool   `json:",omitempty"`
	Stopped   string `json:",omitempty"`
}

// Halted: an army did not enter Next at Tick, and why. The owner.
type Halted struct {
	engine.Header
	Army   game.ForceID
	At     string
	Next   string `json:",omitempty"`
	Tick   int
	Reason string
}

// Met: hostile armies came together in a province. Outcome is "battle"
// (a battle to be fought) or "standoff" (both on DEFEND). The nations
// involved.
type Met struct {
	engine.Header
	Province string
	Tick     int
	Armies   []game.ForceID
	Outcome  string
}

// BattleSide is one side of a Trossian battle: its kingdoms (allies
// "arrive to battle at the same time") and their armies as they stood.
type BattleSide struct {
	Nations []game.NationID
	Armies  []BattleArmy
}

// BattleArmy is one army on the battle sheet.
type BattleArmy struct {
	Army   game.ForceID
	Nation game.NationID
	Stands Stands
	Stance game.Stance
}

// BattleSheet is a battle to be fought on the tabletop: "Battles shall be
// played out on tabletop via Rod Humble's 2 by 2 Napoleonics". The
// referee fights it and answers with a BattleResult for its province.
type BattleSheet struct {
	Province string
	Kind     string
	// Controller holds the province; Turn and Label say when.
	Controller game.NationID `json:",omitempty"`
	Turn       int
	Label      string
	Sides      []BattleSide
}

// BattleAwaiting: a battle waits for the referee's tabletop result; the
// turn is not resolved until every battle has one. The referee.
type BattleAwaiting struct {
	engine.Header
	Sheet BattleSheet
}

// ResultRefused: a tabletop result did not fit its battle; the battle
// still waits. The referee.
type ResultRefused struct {
	engine.Header
	Province string
	Reason   string
}

// FateRoll is one unit's post-battle die: its fate on the table, the die,
// the modifier and whether it was eliminated.
type FateRoll struct {
	Army       game.ForceID
	Type       UnitType
	Guard      bool `json:",omitempty"`
	Fate       string
	Die        int
	Modifier   int  `json:",omitempty"`
	Eliminated bool `json:",omitempty"`
}

// SideAftermath is one side after the post-battle sequence.
type SideAftermath struct {
	Nations []game.NationID
	Outcome string // "win", "loss" or "draw"
	Armies  []game.ForceID
	Before  Stands
	Rolls   []FateRoll `json:",omitempty"`
	Lost    Stands     `json:",omitempty"`
}

// BattleFought: a tabletop result applied by the post-battle sequence. The
// nations of every side; each sees its own side's dice and losses, of the
// enemy the armies and the outcome (RedactFor).
type BattleFought struct {
	engine.Header
	Province string
	Outcome  string          // "win" or "draw"
	Winners  []game.NationID `json:",omitempty"`
	Sides    []SideAftermath
}

// RedactFor removes the other sides' dice and losses.
func (e *BattleFought) RedactFor(n game.NationID) engine.Event {
	c := *e
	c.Sides = slices.Clone(e.Sides)
	for i := range c.Sides {
		if !slices.Contains(c.Sides[i].Nations, n) {
			c.Sides[i].Rolls, c.Sides[i].Lost, c.Sides[i].Before = nil, nil, nil
		}
	}
	return &c
}

// Retreated: a beaten army (or both armies of a draw) retreated one
// province, "for free". The nations of the battle.
type Retreated struct {
	engine.Header
	Army     game.ForceID
	Nation   game.NationID
	From, To string
}

// Destroyed: an army left the game — "no safe line of retreat", every
// stand eliminated, lost with its navy. The nations involved.
type Destroyed struct {
	engine.Header
	Army   game.ForceID
	Nation game.NationID
	At     string `json:",omitempty"`
	Stands Stands `json:",omitempty"`
	Reason string
}

// Leaderless: an army lost its last HQ and hunkers down, or marches for the
// nearest home city. The owner.
type Leaderless struct {
	engine.Header
	Army   game.ForceID
	At     string
	Action string
	Toward string `json:",omitempty"`
}

// NavyMoved: a navy's actions this phase, the places it passed and where
// it stopped. The owner.
type NavyMoved struct {
	engine.Header
	Navy    game.ForceID
	From    NavyPlace
	Path    []NavyPlace `json:",omitempty"`
	Actions int
	Stopped string `json:",omitempty"`
}

// Shipped: an army went aboard a navy or ashore (Reason: "a port
// besieged" for the automatic landing). The owner.
type Shipped struct {
	engine.Header
	Army     game.ForceID
	Navy     game.ForceID
	Landed   bool   `json:",omitempty"`
	Province string `json:",omitempty"`
	Load     int
	Actions  int    `json:",omitempty"`
	Reason   string `json:",omitempty"`
}

// SeaClash: navies met in one sea space: "A simple d6 will be rolled for
// each navy". The nations involved.
type SeaClash struct {
	engine.Header
	Place    NavyPlace
	Tick     int
	Navies   []game.ForceID
	Dice     []int
	Winner   game.ForceID
	Losers   []game.ForceID
	Retreats []SeaRetreat   `json:",omitempty"`
	Lost     []game.ForceID `json:",omitempty"`
	Rolls    []FateRoll     `json:",omitempty"`
}

// SeaRetreat is a beaten navy's retreat: "The losing navy will retreat one
// sea lane".
type SeaRetreat struct {
	Navy game.ForceID
	To   string
}

// NavyLost: a navy and everything aboard were lost: in a frozen lane in
// Late Autumn ("presumed lost at sea with all hands"), or beaten with no
// lane to retreat to. Public.
type NavyLost struct {
	engine.Header
	Navy   game.ForceID
	Nation game.NationID
	Place  NavyPlace
	Armies []game.ForceID `json:",omitempty"`
	Reason string
}

// NavyCaptured: "Navies in port when a port province is conquered will be
// captured by the conquering army." Public.
type NavyCaptured struct {
	engine.Header
	Navy     game.ForceID
	From, By game.NationID
	Port     string
	New      game.ForceID
}

// NavyWintered: a navy at sea went home for the winter ("the navy returns
// to port for the winter"). The owner.
type NavyWintered struct {
	engine.Header
	Navy     game.ForceID
	From, To NavyPlace
	Reason   string `json:",omitempty"`
}

// CourierSent: a courier left the King's seat for a force. The owner.
type CourierSent struct {
	engine.Header
	Courier game.ForceID
	To      game.ForceID
	From    string
	Orders  int
}

// CourierRode: where a courier rode this phase, and whether it delivered.
// The owner.
type CourierRode struct {
	engine.Header
	Courier   game.ForceID
	Path      []CourierPlace `json:",omitempty"`
	Delivered bool           `json:",omitempty"`
	Returning bool           `json:",omitempty"`
	Home      bool           `json:",omitempty"`
}

// Delivered: a courier reached its force at Tick, and the orders it
// carried were carried out (or refused, by OrderIgnored). The owner.
type Delivered struct {
	engine.Header
	Courier game.ForceID
	To      game.ForceID
	At      CourierPlace
	Tick    int
	Orders  []string
}

// Intercepted: a courier failed to pass through an enemy province or
// enemy-held lane: "1: Captured! … 2-5: Killed and messages lost. 6:
// Captured! False messages/plans …". The referee sees it whole; the
// sender only that the courier is lost; the captor, on a capture, the
// orders taken (on false plans the referee rules what he is given).
type Intercepted struct {
	engine.Header
	Courier game.ForceID
	Nation  game.NationID
	At      CourierPlace
	Tick    int
	Die     int
	Fate    string // "captured", "killed", "false-plans"
	FateDie int
	Captor  game.NationID `json:",omitempty"`
	Carried OrderList     `json:",omitempty"`
}

// RedactFor: the sender learns the courier is lost, not how; the captor
// what he took.
func (e *Intercepted) RedactFor(n game.NationID) engine.Event {
	c := *e
	if n == e.Nation {
		c.Fate, c.Captor, c.Die, c.FateDie = "lost", "", 0, 0
		return &c
	}
	c.Die, c.FateDie = 0, 0
	return &c
}

// ControlChanged: a province changed hands — pacified, a city taken by
// siege, or by the referee. Bank is the AP captured with a city (to the
// two kingdoms only). Public.
type ControlChanged struct {
	engine.Header
	Province string
	From, To game.NationID
	How      string
	Bank     int `json:",omitempty"`
}

// RedactFor shows the captured bank to the two kingdoms only.
func (e *ControlChanged) RedactFor(n game.NationID) engine.Event {
	if n == e.From || n == e.To {
		return e
	}
	c := *e
	c.Bank = 0
	return &c
}

// SiegeChanged: a siege began, went on a phase, stalled (a port not
// blockaded), or was broken. Public.
type SiegeChanged struct {
	engine.Header
	Province string
	By       game.NationID
	Status   string // "begun", "progress", "stalled", "broken", "wintered"
	Progress int
	Required int
	Reason   string `json:",omitempty"`
}

// PacifyChanged: a pacification began, went on a phase, or was ruined.
// Public.
type PacifyChanged struct {
	engine.Header
	Province string
	By       game.NationID
	Status   string // "begun", "progress", "ruined"
	Progress int
	Required int
	Reason   string `json:",omitempty"`
}

// ProvinceIncome is what one province paid.
type ProvinceIncome struct {
	Province string
	AP       int
	Besieged bool `json:",omitempty"`
}

// IncomeCollected: a kingdom's AP after the Late Autumn, by province; the
// pool is what it may spend this winter, besieged cities' income stays in
// their banks. The owner.
type IncomeCollected struct {
	engine.Header
	Nation    game.NationID
	Provinces []ProvinceIncome
	Income    int
	Banked    int
	Pool      int
}

// Recruited: stands, navies and messengers bought and placed. The owner.
type Recruited struct {
	engine.Header
	Nation     game.NationID
	At         string
	Army       game.ForceID   `json:",omitempty"`
	Stands     Stands         `json:",omitempty"`
	Navies     []game.ForceID `json:",omitempty"`
	Messengers int            `json:",omitempty"`
	Cost       int
	From       string // "pool" or the besieged city that paid
	Left       int
}

// APBanked: AP placed in a city for the year; Lost: AP with no city to lie
// in. The owner.
type APBanked struct {
	engine.Header
	Nation game.NationID
	City   string `json:",omitempty"`
	AP     int
	Bank   int
	Lost   bool `json:",omitempty"`
}

// ChanceRolled: the referee's d10 for a kingdom's chance cards of a year.
// The referee.
type ChanceRolled struct {
	engine.Header
	Nation game.NationID
	Year   int
	Dice   []int
	Turns  []int
}

// ChanceDue: a kingdom's chance card falls on this turn; its effect is the
// referee's ruling. The referee and the kingdom.
type ChanceDue struct {
	engine.Header
	Nation game.NationID
	Turn   int
	Label  string
}

// RulingDone: a referee's ruling applied (or, with Refused, not). The
// referee and the kingdoms it names.
type RulingDone struct {
	engine.Header
	Token   string `json:",omitempty"`
	Effect  Effect
	Refused string `json:",omitempty"`
}

// Told: a message from the referee to a kingdom (false plans, a chance
// card's text). The kingdom.
type Told struct {
	engine.Header
	Nation game.NationID
	Text   string
}

// PhaseEnded: the turn ended; Next is the turn now open. Public.
type PhaseEnded struct {
	engine.Header
	Turn  int
	Next  int
	Label string
}

// Kind methods.

// Kind returns "Detached".
func (*Detached) Kind() string { return "Detached" }

// Kind returns "Merged".
func (*Merged) Kind() string { return "Merged" }

// Kind returns "Marched".
func (*Marched) Kind() string { return "Marched" }

// Kind returns "Halted".
func (*Halted) Kind() string { return "Halted" }

// Kind returns "Met".
func (*Met) Kind() string { return "Met" }

// Kind returns "BattleAwaiting".
func (*BattleAwaiting) Kind() string { return "BattleAwaiting" }

// Kind returns "ResultRefused".
func (*ResultRefused) Kind() string { return "ResultRefused" }

// Kind returns "BattleFought".
func (*BattleFought) Kind() string { return "BattleFought" }

// Kind returns "Retreated".
func (*Retreated) Kind() string { return "Retreated" }

// Kind returns "Destroyed".
func (*Destroyed) Kind() string { return "Destroyed" }

// Kind returns "Leaderless".
func (*Leaderless) Kind() string { return "Leaderless" }

// Kind returns "NavyMoved".
func (*NavyMoved) Kind() string { return "NavyMoved" }

// Kind returns "Shipped".
func (*Shipped) Kind() string { return "Shipped" }

// Kind returns "SeaClash".
func (*SeaClash) Kind() string { return "SeaClash" }

// Kind returns "NavyLost".
func (*NavyLost) Kind() string { return "NavyLost" }

// Kind returns "NavyCaptured".
func (*NavyCaptured) Kind() string { return "NavyCaptured" }

// Kind returns "NavyWintered".
func (*NavyWintered) Kind() string { return "NavyWintered" }

// Kind returns "CourierSent".
func (*CourierSent) Kind() string { return "CourierSent" }

// Kind returns "CourierRode".
func (*CourierRode) Kind() string { return "CourierRode" }

// Kind returns "Delivered".
func (*Delivered) Kind() string { return "Delivered" }

// Kind returns "Intercepted".
func (*Intercepted) Kind() string { return "Intercepted" }

// Kind returns "ControlChanged".
func (*ControlChanged) Kind() string { return "ControlChanged" }

// Kind returns "SiegeChanged".
func (*SiegeChanged) Kind() string { return "SiegeChanged" }

// Kind returns "PacifyChanged".
func (*PacifyChanged) Kind() string { return "PacifyChanged" }

// Kind returns "IncomeCollected".
func (*IncomeCollected) Kind() string { return "IncomeCollected" }

// Kind returns "Recruited".
func (*Recruited) Kind() string { return "Recruited" }

// Kind returns "APBanked".
func (*APBanked) Kind() string { return "APBanked" }

// Kind returns "ChanceRolled".
func (*ChanceRolled) Kind() string { return "ChanceRolled" }

// Kind returns "ChanceDue".
func (*ChanceDue) Kind() string { return "ChanceDue" }

// Kind returns "RulingDone".
func (*RulingDone) Kind() string { return "RulingDone" }

// Kind returns "Told".
func (*Told) Kind() string { return "Told" }

// Kind returns "PhaseEnded".
func (*PhaseEnded) Kind() string { return "PhaseEnded" }

// EventKinds lists the Trossian event kinds, sorted.
func EventKinds() []string {
	out := make([]string, len(eventMakers))
	for i, f := range eventMakers {
		out[i] = f().Kind()
	}
	slices.Sort(out)
	return out
}

var eventMakers = []func() engine.Event{
	func() engine.Event { return new(Detached) }, func() engine.Event { return new(Merged) },
	func() engine.Event { return new(Marched) }, func() engine.Event { return new(Halted) },
	func() engine.Event { return new(Met) }, func() engine.Event { return new(BattleAwaiting) },
	func() engine.Event { return new(ResultRefused) }, func() engine.Event { return new(BattleFought) },
	func() engine.Event { return new(Retreated) }, func() engine.Event { return new(Destroyed) },
	func() engine.Event { return new(Leaderless) }, func() engine.Event { return new(NavyMoved) },
	func() engine.Event { return new(Shipped) }, func() engine.Event { return new(SeaClash) },
	func() engine.Event { return new(NavyLost) }, func() engine.Event { return new(NavyCaptured) },
	func() engine.Event { return new(NavyWintered) }, func() engine.Event { return new(CourierSent) },
	func() engine.Event { return new(CourierRode) }, func() engine.Event { return new(Delivered) },
	func() engine.Event { return new(Intercepted) }, func() engine.Event { return new(ControlChanged) },
	func() engine.Event { return new(SiegeChanged) }, func() engine.Event { return new(PacifyChanged) },
	func() engine.Event { return new(IncomeCollected) }, func() engine.Event { return new(Recruited) },
	func() engine.Event { return new(APBanked) }, func() engine.Event { return new(ChanceRolled) },
	func() engine.Event { return new(ChanceDue) }, func() engine.Event { return new(RulingDone) },
	func() engine.Event { return new(Told) }, func() engine.Event { return new(PhaseEnded) },
}

func init() {
	for _, f := range eventMakers {
		engine.RegisterEvent(f)
	}
}

// Visibility helpers.
func public() engine.Visibility { return engine.Visibility{Public: true} }

func to(ns ...game.NationID) engine.Visibility { return engine.Visibility{To: nations(ns...)} }

func refereeOnly() engine.Visibility { return engine.Visibility{} }

// nations returns a sorted, de-duplicated list without Neutral.
func nations(ns ...game.NationID) []game.NationID {
	out := make([]game.NationID, 0, len(ns))
	for _, n := range ns {
		if n != game.Neutral {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
