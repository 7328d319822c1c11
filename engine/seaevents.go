package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// The sea-battles step's events (seabattle.go).

// SeaBattleSide is one side of a sea battle: its fleets and warships before
// (sound and damaged) and after, and what it lost.
type SeaBattleSide struct {
	// Nation leads the side (the first by name); Allies fight with it.
	Nation          game.NationID
	Allies          []game.NationID `json:",omitempty"`
	Fleets          []game.ForceID
	Warships        int
	DamagedWarships int `json:",omitempty"`
	CP              int
	Admiral         string `json:",omitempty"`
	AdmiralXP       int    `json:",omitempty"`
	// Sunk, Captured and Damaged are this side's warships sunk, taken by
	// the enemy and damaged; TransportsCaptured its transports taken.
	Sunk               int `json:",omitempty"`
	Captured           int `json:",omitempty"`
	Damaged            int `json:",omitempty"`
	TransportsCaptured int `json:",omitempty"`
	WarshipsAfter      int
	DamagedAfter       int `json:",omitempty"`
}

// SeaBattle: a sea battle fought on the Sea Battle CRT. Visible to both
// sides (a battle shows each side the other's fleet).
type SeaBattle struct {
	Header
	Tick  int
	Sides []SeaBattleSide
	// Attacker is the larger side's nation.
	Attacker game.NationID
	// GaugeRolls are the two sides' weather-gauge totals (die plus the
	// admirals' experience difference); WeatherGauge the side that won it.
	GaugeRolls   []int
	WeatherGauge game.NationID `json:",omitempty"`
	Column       string
	Die          int
	Score        int
	Result       ruleset.SeaResult
	Winner       game.NationID `json:",omitempty"`
	// EscapedTo is where the loser's fleets went; zero when none of their
	// ships was left to escape.
	EscapedTo game.Place `json:",omitzero"`
	// Prisoners are the forces aboard captured transports, now aboard the
	// victor's fleet until it reaches a port of its own; their guns are the
	// victor's new force PrizeForce; depots aboard are the victor's.
	Prisoners      []game.ForceID `json:",omitempty"`
	GunsCaptured   []game.Guns    `json:",omitempty"`
	PrizeForce     game.ForceID   `json:",omitempty"`
	DepotsCaptured []string       `json:",omitempty"`
	// AdmiralXP names the admiral who gained a point of experience.
	AdmiralXP string `json:",omitempty"`
}

// Kind returns "SeaBattle".
func (*SeaBattle) Kind() string { return "SeaBattle" }

func init() {
	registerEvent(func() Event { return new(SeaBattle) })
}

func (e *SeaBattle) redactFor(n game.NationID) Event {
	c := *e
	c.Sides = make([]SeaBattleSide, len(e.Sides))
	for i, s := range e.Sides {
		if s.Nation != n && !slices.Contains(s.Allies, n) {
			s.Admiral = ""
		}
		c.Sides[i] = s
	}
	for _, s := range e.Sides {
		if s.Nation == e.Winner && s.Nation != n && !slices.Contains(s.Allies, n) {
			c.AdmiralXP = ""
		}
	}
	return &c
}
