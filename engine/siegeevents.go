package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// The sieges step's events (sieges.go). Each is visible to the nations
// before the city and in it; the numbers of one side are fogged for the
// other (redactFor).

// SiegeStatusChanged: a city became besieged or masked, changed from one to
// the other, or was freed; Reason says why a city with attackers before it
// is neither. The figures are each side's infantry and cavalry.
type SiegeStatusChanged struct {
	Header
	City            string
	Status          game.SiegeStatus
	Previous        game.SiegeStatus
	Besiegers       []game.NationID `json:",omitempty"`
	Holder          game.NationID   `json:",omitempty"`
	AttackerFigures int             `json:",omitempty"`
	DefenderFigures int             `json:",omitempty"`
	Reason          string          `json:",omitempty"`
}

// SiegeLosses: one side's siege losses of the turn (Due figures owed, Losses
// taken). Visible to that side only.
type SiegeLosses struct {
	Header
	City     string
	Attacker bool
	Due      int
	Losses   []Loss `json:",omitempty"`
}

// CounterBattery: one side's heavy guns firing at the other's pieces: the
// dice, the gunners' grade, the hits and the guns and crewmen destroyed.
type CounterBattery struct {
	Header
	City     string
	Attacker bool
	// By are the firing side's nations.
	By        []game.NationID
	Dice      []int      `json:",omitempty"`
	Gunners   game.Grade `json:",omitzero"`
	Hits      int
	Destroyed []Loss `json:",omitempty"`
	Crew      int    `json:",omitempty"`
}

// Breach: the attackers' heavy guns that stood before the city the whole
// turn roll to breach its walls: one die each, Breaches after (at most 5).
type Breach struct {
	Header
	City string
	// Attackers are the nations whose guns rolled.
	Attackers []game.NationID
	Guns      int            `json:",omitempty"`
	Forces    []game.ForceID `json:",omitempty"`
	Dice      []int          `json:",omitempty"`
	Before    int
	Breaches  int
}

// Surrender: the roll after the walls were first breached; if Surrendered,
// the garrison (Figures in the forces Garrison) left the game and Captured
// says what the attackers took.
type Surrender struct {
	Header
	City string
	// Attackers are the besieging nations.
	Attackers   []game.NationID
	Die         int
	Breaches    int
	Need        int
	Surrendered bool
	Garrison    []game.ForceID `json:",omitempty"`
	Figures     int            `json:",omitempty"`
	Captured    *Captured      `json:",omitempty"`
}

// Captured is what a surrendered or stormed garrison left: its guns and the
// depots in the city, given to the force By.
type Captured struct {
	By     game.ForceID `json:",omitempty"`
	Guns   []game.Guns  `json:",omitempty"`
	Depots []string     `json:",omitempty"`
	// Generals are the garrison's leaders, taken prisoner with it ("If the
	// garrison surrenders it is removed from play"; a stormed garrison is
	// "wiped out").
	Generals []battle.GeneralFate `json:",omitempty"`
}

// seenBy is what nation n is told of a garrison's capture: the names of
// the generals taken only when they were its own (the captors count them;
// an enemy's leaders are named only from approximate scouting).
func (c *Captured) seenBy(n game.NationID) *Captured {
	if c == nil || len(c.Generals) == 0 {
		return c
	}
	x := *c
	x.Generals = nil
	for _, g := range c.Generals {
		if g.Nation != n {
			g = battle.GeneralFate{Nation: g.Nation, Fate: g.Fate}
		}
		x.Generals = append(x.Generals, g)
	}
	return &x
}

// WallsRepaired: a city that spent a full turn neither besieged nor masked
// repaired its breaches. Public.
type WallsRepaired struct {
	Header
	City     string
	Breaches int
}

// AssaultResolved: an assault on the assault table. PVs, losses and the
// garrison's forces are fogged for the other side.
type AssaultResolved struct {
	Header
	City       string
	Nation     game.NationID
	Force      game.ForceID
	Infantry   int
	AttackerPV int
	DefenderPV int
	Column     string
	Die        int
	Breaches   int
	Score      int
	Result     ruleset.AssaultResult
	Outcome    string
	// Defenders are the garrison's forces.
	Defenders         []game.ForceID `json:",omitempty"`
	AttackerLosses    []Loss         `json:",omitempty"`
	DefenderLosses    []Loss         `json:",omitempty"`
	DefendersWipedOut bool           `json:",omitempty"`
	Captured          *Captured      `json:",omitempty"`
	// Exhausted are the assaulting figures exhausted by a failed assault
	// (1752).
	Exhausted int `json:",omitempty"`
	// EndOfTurn: the assault is made at the sieges step, after movement,
	// so it costs no extra 1/6 of a move.
	EndOfTurn bool
}

// Kind returns "SiegeStatusChanged".
func (*SiegeStatusChanged) Kind() string { return "SiegeStatusChanged" }

// Kind returns "SiegeLosses".
func (*SiegeLosses) Kind() string { return "SiegeLosses" }

// Kind returns "CounterBattery".
func (*CounterBattery) Kind() string { return "CounterBattery" }

// Kind returns "Breach".
func (*Breach) Kind() string { return "Breach" }

// Kind returns "Surrender".
func (*Surrender) Kind() string { return "Surrender" }

// Kind returns "WallsRepaired".
func (*WallsRepaired) Kind() string { return "WallsRepaired" }

// Kind returns "AssaultResolved".
func (*AssaultResolved) Kind() string { return "AssaultResolved" }

func (e *SiegeStatusChanged) redactFor(n game.NationID) Event {
	c := *e
	if slices.Contains(e.Besiegers, n) {
		c.DefenderFigures = 0
	} else {
		c.AttackerFigures = 0
	}
	return &c
}

func (e *AssaultResolved) redactFor(n game.NationID) Event {
	c := *e
	c.Captured = e.Captured.seenBy(n)
	if n == e.Nation {
		c.DefenderPV, c.DefenderLosses, c.Defenders = 0, nil, nil
	} else {
		// The garrison saw the storm: how many came over the walls it
		// knows roughly (ruleset.Approximate), as a battle's enemy figures are
		// rounded below exact scouting — fog rounds, it never says 0.
		c.AttackerPV, c.AttackerLosses, c.Exhausted, c.Infantry = 0, nil, 0, ruleset.Approximate(e.Infantry)
	}
	return &c
}

func (e *CounterBattery) redactFor(n game.NationID) Event {
	c := *e
	if slices.Contains(e.By, n) {
		c.Destroyed, c.Crew = nil, 0
	} else {
		c.Dice, c.Gunners = nil, 0
	}
	return &c
}

func (e *Breach) redactFor(n game.NationID) Event {
	c := *e
	if !slices.Contains(e.Attackers, n) {
		c.Guns, c.Forces, c.Dice = 0, nil, nil
	}
	return &c
}

func (e *Surrender) redactFor(n game.NationID) Event {
	c := *e
	c.Captured = e.Captured.seenBy(n)
	if slices.Contains(e.Attackers, n) {
		c.Figures = 0
	}
	return &c
}

func init() {
	for _, f := range []func() Event{
		func() Event { return new(SiegeStatusChanged) },
		func() Event { return new(SiegeLosses) },
		func() Event { return new(CounterBattery) },
		func() Event { return new(Breach) },
		func() Event { return new(Surrender) },
		func() Event { return new(WallsRepaired) },
		func() Event { return new(AssaultResolved) },
	} {
		registerEvent(f)
	}
}
