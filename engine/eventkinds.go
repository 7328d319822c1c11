package engine

import (
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// The event kinds. Each embeds a Header (step, rule, place, nations,
// visibility); the fields below it are what a report, the referee or a later
// step needs. Visibility is decided where the event is made and documented on
// each kind.

// Loss is what one stack of a force lost (and, for retreats, how many of the
// survivors became exhausted). Exactly one of Arm and Gun is set.
type Loss struct {
	Force     game.ForceID `json:",omitempty"`
	Arm       game.Arm     `json:",omitzero"`
	Grade     game.Grade   `json:",omitzero"`
	Gun       game.GunKind `json:",omitzero"`
	Before    int
	Lost      int
	Exhausted int `json:",omitempty"`
}

// OrderIgnored: an order was not carried out; Reason says why. Visible to the
// nation that gave it.
type OrderIgnored struct {
	Header
	Nation game.NationID
	Line   int `json:",omitempty"`
	Order  string
	Force  game.ForceID `json:",omitempty"`
	Reason string
}

// ForceMoved: a land force's march this turn: the hexes entered in order, the
// MP used of its allowance, the tick it stopped moving, and why it stopped
// short ("" when it completed its orders). Visible to its owner; where it
// ends is public through View.
type ForceMoved struct {
	Header
	Force   game.ForceID
	From    game.Hex
	Path    []game.Hex `json:",omitempty"`
	MP      int
	MA      int
	Tick    int
	Stopped string `json:",omitempty"`
}

// MoveStopped: a moving force stopped before the end of its orders: at Tick,
// in its hex, not entering Next. Visible to its owner.
type MoveStopped struct {
	Header
	Force  game.ForceID
	Next   game.Hex `json:",omitzero"`
	Tick   int
	Reason string
}

// Contact: hostile land forces came together in a hex at Tick. Outcome is
// "battle" (a LandBattle follows in the battles step), "standoff"
// (both sides on defend: no battle, neither moves on), "walls" (the
// garrison of City stayed behind its walls: no field battle, the attackers
// halt and mask or besiege the city), "overrun" or "retreat". Visible to
// the nations involved.
type Contact struct {
	Header
	Forces  []game.ForceID
	Tick    int
	Outcome string
	City    string `json:",omitempty"`
}

// EngagedForce is one force in an engagement, as it stood when it joined.
type EngagedForce struct {
	Force game.Force
	// Joined is the tick the force entered the battle (its arrival, or the
	// contact for forces already in the hex).
	Joined int
	// From is the hex it marched in from (the approach vector); zero for a
	// force that stood in the hex.
	From             game.Hex `json:",omitzero"`
	Unsupplied       bool     `json:",omitempty"`
	ExhaustedFigures int      `json:",omitempty"`
}

// EngagementSide is one nation's side of an engagement.
type EngagementSide struct {
	Nation game.NationID
	// Stance is attack if any of the side's forces attacks.
	Stance           game.Stance
	Forces           []EngagedForce
	PV               int
	FightingFigures  int
	ScoutingPoints   int
	ExhaustedFigures int  `json:",omitempty"`
	Unsupplied       bool `json:",omitempty"`
}

// EngagementPending was the placeholder of a land battle before the battles
// step fought them (LandBattle); it is no longer emitted, and stays
// registered so that stored events still decode. It held everything it
// needs — the hex and its terrain and city, the time of the turn it began
// (Tick of TicksPerTurn; EndOfTurn when less than a battle's 1/6 move was
// left, "Battles fought at the end of the turn do not themselves cost an extra
// 1/6"), and each side's forces in full with stance, supply, exhaustion and
// scouting points. The forces stay in the hex. Referee only (the nations see
// the Contact).
type EngagementPending struct {
	Header
	Hex            game.Hex
	Terrain        game.Terrain
	City           string        `json:",omitempty"`
	CityController game.NationID `json:",omitempty"`
	Tick           int
	TicksLeft      int
	EndOfTurn      bool `json:",omitempty"`
	Sides          []EngagementSide
}

// Overrun: a force at 6:1 or more in point value (generals excluded) swept a
// smaller one away. The assault table gave the damage the overrun side
// inflicted first. Visible to the nations involved; each sees its own side's
// point value, and only the overrunners see their Losses by stack
// (EventsFor).
type Overrun struct {
	Header
	ByNation      game.NationID
	OverrunNation game.NationID
	By            []game.ForceID
	Overrun       []game.ForceID
	ByPV          int `json:",omitempty"`
	OverrunPV     int `json:",omitempty"`
	// Odds is 7 or more (no MP cost) or 6 (an extra 1/6 move: MPCost).
	Odds   int
	MPCost int `json:",omitempty"`
	Column int
	Die    int
	Result ruleset.AssaultResult
	// Damage is the figures the overrun defenders killed before being wiped
	// out: the result's percentage of their own strength.
	Damage int
	Losses []Loss `json:",omitempty"`
	// Generals are the overrun side's leaders, taken with it ("before they
	// are wiped out": a force wiped out loses its generals as prisoners).
	Generals []battle.GeneralFate `json:",omitempty"`
	Tick     int
}

// CavalrySlowed: cavalry sent ahead stopped a force trying to get away, which
// must now give battle. Visible to both nations; each sees only its own
// counts (Cavalry is the chaser's; EnemyCavalry and EnemyFoot the slowed
// force's).
type CavalrySlowed struct {
	Header
	Nation       game.NationID // the slowed force's
	ByNation     game.NationID
	Force        game.ForceID
	By           game.ForceID
	Cavalry      int `json:",omitempty"`
	EnemyCavalry int `json:",omitempty"`
	EnemyFoot    int `json:",omitempty"`
	Tick         int
}

// SlowingRefused: a force caught by cavalry went on all the same and lost 1
// figure per cavalry figure in excess of its own cavalry. Visible to both;
// Killed to both, each side's counts (and the Losses by stack) only to it.
type SlowingRefused struct {
	Header
	Nation       game.NationID // the force that refused
	ByNation     game.NationID
	Force        game.ForceID
	By           game.ForceID
	Cavalry      int `json:",omitempty"`
	EnemyCavalry int `json:",omitempty"`
	Killed       int
	Losses       []Loss `json:",omitempty"`
	Tick         int
}

// Filtered: Grenzers slipped past enemy forces that did not equal their
// scouting points, paying the hex's off-road cost. Visible to both; the
// Grenzers' nation sees GrenzerSP and ExtraMP, the others EnemySP.
type Filtered struct {
	Header
	Nation    game.NationID // the Grenzers'
	Force     game.ForceID
	Past      []game.ForceID
	GrenzerSP int `json:",omitempty"`
	EnemySP   int `json:",omitempty"`
	ExtraMP   int `json:",omitempty"`
	Tick      int
}

// RetreatedBeforeBattle: a force retreated one hex rather than face battle,
// by its standing order. Losses and Exhausted follow the edition's retreat
// rule. Visible to both sides; Losses, Exhausted and BeyondMA only to the
// retreating nation.
type RetreatedBeforeBattle struct {
	Header
	Nation game.NationID
	Force  game.ForceID
	From   game.Hex
	To     game.Hex
	Enemy  []game.ForceID
	// SameHex: the enemy was in the force's hex when it retreated.
	SameHex bool `json:",omitempty"`
	// BeyondMA: the retreat took the force past its movement allowance.
	BeyondMA  bool   `json:",omitempty"`
	Losses    []Loss `json:",omitempty"`
	Exhausted int    `json:",omitempty"`
	Tick      int
}

// RetreatBlocked: a force's standing order said retreat, but no hex was open
// to it; it stands. Visible to its owner.
type RetreatBlocked struct {
	Header
	Force  game.ForceID
	Reason string
	Tick   int
}

// Pursued: a force with the pursue order turned to follow a retreating enemy
// with its remaining movement. Visible to both.
type Pursued struct {
	Header
	Force  game.ForceID
	Target game.ForceID
	Toward game.Hex
	Tick   int
}

// Scouted: a nation's scouts looked at a foreign force from an adjacent hex
// (or the same hex) and learned what Learned shows, at Level. Visible to the
// scouting nation only, which sees ScreenSP (the screen's exact scouting
// points) only at the exact level.
type Scouted struct {
	Header
	Nation       game.NationID
	Scouts       []game.ForceID
	Target       game.ForceID
	TargetNation game.NationID
	ScoutSP      int
	ScreenSP     int `json:",omitempty"`
	Level        ruleset.ScoutingLevel
	LevelName    string
	Learned      ForeignForce
	Tick         int
}

// SupplyTraced: the start-of-turn supply trace of one force: supplied by a
// depot (Source "depot E-D1", MP the length of the line) or a city ("city
// Altburg"), or not, and why. Visible to its owner.
type SupplyTraced struct {
	Header
	Force    game.ForceID
	Supplied bool
	Source   string `json:",omitempty"`
	MP       int    `json:",omitempty"`
	Reason   string `json:",omitempty"`
}

// Attrition: losses by stack from being unsupplied this turn (Cause
// "supply"). Visible to the owner.
type Attrition struct {
	Header
	Force  game.ForceID
	Cause  string
	Losses []Loss
}

// ForceDisbanded: a force fell under a minimum force size and was killed by
// the local militia ("militia") or deserted ("desertion"), had nothing left
// in it ("empty"), or went down with the fleet carrying it ("fleet lost").
// Visible to its owner. LeaderNames name the Leaders lost with it (an
// admiral gone down with his fleet is named, not only counted).
type ForceDisbanded struct {
	Header
	Force       game.ForceID
	Reason      string
	Figures     int
	Guns        int      `json:",omitempty"`
	Leaders     int      `json:",omitempty"`
	LeaderNames []string `json:",omitempty"`
}

// leaderNames are the names of leaders lost with a force (nil for none).
func leaderNames(ls []game.Leader) []string {
	var out []string
	for _, l := range ls {
		name := l.Name
		if name == "" {
			name = l.ID
		}
		out = append(out, name)
	}
	return out
}

// CityCaptured: a nation took control of a city. Public.
type CityCaptured struct {
	Header
	City string
	From game.NationID `json:",omitempty"`
	By   game.NationID
	// Forces are the capturer's forces in the city; only the capturer is
	// told them (fog.go).
	Forces []game.ForceID `json:",omitempty"`
	// Recaptured: the city is loyal to the capturer, who only had to drive
	// the garrison out.
	Recaptured bool `json:",omitempty"`
}

// GarrisonKilled: a foreign city's garrison fell below the minimum and the
// townsfolk killed the rest; the city reverts to its loyalty. Public; Killed
// only to the garrison's nation.
type GarrisonKilled struct {
	Header
	City      string
	Nation    game.NationID
	Killed    int `json:",omitempty"`
	Forces    []game.ForceID
	RevertsTo game.NationID `json:",omitempty"`
	// Generals are the garrison's leaders, killed with it ("the townsfolk
	// kill off the remaining men"); only the garrison's nation is told
	// their names.
	Generals []battle.GeneralFate `json:",omitempty"`
}

// CityReverted: a foreign city left without any garrison reverts to its
// loyalty. Public.
type CityReverted struct {
	Header
	City string
	From game.NationID
	To   game.NationID `json:",omitempty"`
}

// SeaMoved: a fleet's voyage this turn. Visible to its owner.
type SeaMoved struct {
	Header
	Fleet   game.ForceID
	From    game.Place
	Path    []game.Place `json:",omitempty"`
	MP      int
	MA      int
	Tick    int
	Stopped string `json:",omitempty"`
}

// Embarked: a land force went aboard a fleet's transports. Visible to the
// owner.
type Embarked struct {
	Header
	Force    game.ForceID
	Fleet    game.ForceID
	Cargo    int
	Capacity int
}

// Debarked: a land force went ashore from its fleet. Visible to the owner.
type Debarked struct {
	Header
	Force game.ForceID
	Fleet game.ForceID
	Hex   game.Hex
}

// LandingRefused: a landing on a good-holding hex held by the enemy lacked
// 3:1 over the defenders' infantry, cavalry and gunners (each warship of the
// landing side counting as 50 infantry). Visible to both; Landing only to
// the landing nation, Defenders only to the defenders.
type LandingRefused struct {
	Header
	Nation    game.NationID // the landing force's
	Force     game.ForceID
	Fleet     game.ForceID
	Hex       game.Hex
	Landing   int `json:",omitempty"`
	Defenders int `json:",omitempty"`
	Odds      int
}

// SeaContact: hostile fleets met. Battle tells whether a sea battle follows
// (SeaEngagementPending). Visible to both.
type SeaContact struct {
	Header
	Fleets []game.ForceID
	Tick   int
	Battle bool
}

// SeaSide is one nation's side of a sea engagement.
type SeaSide struct {
	Nation     game.NationID
	Fleets     []game.Force
	SeekBattle bool
	Warships   int
	Transports int
}

// SeaEngagementPending: a sea battle for the sea-battle step. Referee only.
type SeaEngagementPending struct {
	Header
	Tick  int
	Sides []SeaSide
}

// ForceSplit: a new force was formed from part of another. Owner.
type ForceSplit struct {
	Header
	Force game.ForceID
	New   game.ForceID
}

// ForcesMerged: Force joined Into. Owner.
type ForcesMerged struct {
	Header
	Force game.ForceID
	Into  game.ForceID
}

// LeaderAssigned: a general or admiral changed force (To is a new force when
// he was detached alone). Owner.
type LeaderAssigned struct {
	Header
	Leader   string
	From     game.ForceID
	To       game.ForceID
	Detached bool `json:",omitempty"`
}

// StandingOrdersSet: a force's stance or standing orders changed. Owner.
// Fleet marks a fleet, whose order is to seek battle or avoid it
// (Standing.AvoidBattle; FLEET force SEEK/AVOID), not an army's stance.
type StandingOrdersSet struct {
	Header
	Force    game.ForceID
	Fleet    bool `json:",omitempty"`
	Stance   game.Stance
	Standing game.StandingOrders
}

// GarrisonSet: a force became the garrison of its city. Owner.
type GarrisonSet struct {
	Header
	Force game.ForceID
	City  string
}

// DepotGranted: a depot began (or stopped) supplying another nation. Visible
// to both nations.
type DepotGranted struct {
	Header
	Depot     string
	Nation    game.NationID
	Withdrawn bool `json:",omitempty"`
}

// SpecialRequested: a free-text special action for the referee. Visible to
// the nation.
type SpecialRequested struct {
	Header
	Nation game.NationID
	Line   int `json:",omitempty"`
	Text   string
}

// ExhaustionRecovered: exhausted figures rested a full turn in supply in a
// city and recovered. Owner.
type ExhaustionRecovered struct {
	Header
	Force   game.ForceID
	Figures int
}

// TurnEnded closes the turn. Public.
type TurnEnded struct {
	Header
	Turn    int
	Next    int
	YearEnd bool `json:",omitempty"`
}

// Kind implementations.
// Kind returns "OrderIgnored".
func (*OrderIgnored) Kind() string { return "OrderIgnored" }

// Kind returns "ForceMoved".
func (*ForceMoved) Kind() string { return "ForceMoved" }

// Kind returns "MoveStopped".
func (*MoveStopped) Kind() string { return "MoveStopped" }

// Kind returns "Contact".
func (*Contact) Kind() string { return "Contact" }

// Kind returns "EngagementPending".
func (*EngagementPending) Kind() string { return "EngagementPending" }

// Kind returns "Overrun".
func (*Overrun) Kind() string { return "Overrun" }

// Kind returns "CavalrySlowed".
func (*CavalrySlowed) Kind() string { return "CavalrySlowed" }

// Kind returns "SlowingRefused".
func (*SlowingRefused) Kind() string { return "SlowingRefused" }

// Kind returns "Filtered".
func (*Filtered) Kind() string { return "Filtered" }

// Kind returns "RetreatedBeforeBattle".
func (*RetreatedBeforeBattle) Kind() string { return "RetreatedBeforeBattle" }

// Kind returns "RetreatBlocked".
func (*RetreatBlocked) Kind() string { return "RetreatBlocked" }

// Kind returns "Pursued".
func (*Pursued) Kind() string { return "Pursued" }

// Kind returns "Scouted".
func (*Scouted) Kind() string { return "Scouted" }

// Kind returns "SupplyTraced".
func (*SupplyTraced) Kind() string { return "SupplyTraced" }

// Kind returns "Attrition".
func (*Attrition) Kind() string { return "Attrition" }

// Kind returns "ForceDisbanded".
func (*ForceDisbanded) Kind() string { return "ForceDisbanded" }

// Kind returns "CityCaptured".
func (*CityCaptured) Kind() string { return "CityCaptured" }

// Kind returns "GarrisonKilled".
func (*GarrisonKilled) Kind() string { return "GarrisonKilled" }

// Kind returns "CityReverted".
func (*CityReverted) Kind() string { return "CityReverted" }

// Kind returns "SeaMoved".
func (*SeaMoved) Kind() string { return "SeaMoved" }

// Kind returns "Embarked".
func (*Embarked) Kind() string { return "Embarked" }

// Kind returns "Debarked".
func (*Debarked) Kind() string { return "Debarked" }

// Kind returns "LandingRefused".
func (*LandingRefused) Kind() string { return "LandingRefused" }

// Kind returns "SeaContact".
func (*SeaContact) Kind() string { return "SeaContact" }

// Kind returns "SeaEngagementPending".
func (*SeaEngagementPending) Kind() string { return "SeaEngagementPending" }

// Kind returns "ForceSplit".
func (*ForceSplit) Kind() string { return "ForceSplit" }

// Kind returns "ForcesMerged".
func (*ForcesMerged) Kind() string { return "ForcesMerged" }

// Kind returns "LeaderAssigned".
func (*LeaderAssigned) Kind() string { return "LeaderAssigned" }

// Kind returns "StandingOrdersSet".
func (*StandingOrdersSet) Kind() string { return "StandingOrdersSet" }

// Kind returns "GarrisonSet".
func (*GarrisonSet) Kind() string { return "GarrisonSet" }

// Kind returns "DepotGranted".
func (*DepotGranted) Kind() string { return "DepotGranted" }

// Kind returns "SpecialRequested".
func (*SpecialRequested) Kind() string { return "SpecialRequested" }

// Kind returns "ExhaustionRecovered".
func (*ExhaustionRecovered) Kind() string { return "ExhaustionRecovered" }

// Kind returns "TurnEnded".
func (*TurnEnded) Kind() string { return "TurnEnded" }

func init() {
	for _, f := range []func() Event{
		func() Event { return new(OrderIgnored) },
		func() Event { return new(ForceMoved) },
		func() Event { return new(MoveStopped) },
		func() Event { return new(Contact) },
		func() Event { return new(EngagementPending) },
		func() Event { return new(Overrun) },
		func() Event { return new(CavalrySlowed) },
		func() Event { return new(SlowingRefused) },
		func() Event { return new(Filtered) },
		func() Event { return new(RetreatedBeforeBattle) },
		func() Event { return new(RetreatBlocked) },
		func() Event { return new(Pursued) },
		func() Event { return new(Scouted) },
		func() Event { return new(SupplyTraced) },
		func() Event { return new(Attrition) },
		func() Event { return new(ForceDisbanded) },
		func() Event { return new(CityCaptured) },
		func() Event { return new(GarrisonKilled) },
		func() Event { return new(CityReverted) },
		func() Event { return new(SeaMoved) },
		func() Event { return new(Embarked) },
		func() Event { return new(Debarked) },
		func() Event { return new(LandingRefused) },
		func() Event { return new(SeaContact) },
		func() Event { return new(SeaEngagementPending) },
		func() Event { return new(ForceSplit) },
		func() Event { return new(ForcesMerged) },
		func() Event { return new(LeaderAssigned) },
		func() Event { return new(StandingOrdersSet) },
		func() Event { return new(GarrisonSet) },
		func() Event { return new(DepotGranted) },
		func() Event { return new(SpecialRequested) },
		func() Event { return new(ExhaustionRecovered) },
		func() Event { return new(TurnEnded) },
	} {
		registerEvent(f)
	}
}
