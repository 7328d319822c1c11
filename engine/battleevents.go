package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// LandBattle: a land battle was fought, and the post-battle rules applied.
// It carries what a narrative needs: where and when, the weather of the day,
// who fought under whom with what, how the lines met and the turning point
// (Moments, Turning), the outcome, each side's losses, regained figures,
// pursuit, guns, promotions and experience, and where the beaten army went.
// Visible to every nation of both sides; each sees the enemy side only as
// far as its own scouting of the enemy's forces went (Seen; EventsFor): at
// the exact level in full, at the approximate level the figures rounded
// and the commander's name, at the arms level the arms alone, below that
// only the size class.
type LandBattle struct {
	Header
	Hex     game.Hex
	Terrain game.Terrain
	City    string `json:",omitempty"`
	Date    string `json:",omitempty"`
	Weather string `json:",omitempty"`
	Model   string
	Tick    int
	// EndOfTurn: fought with less than 1/6 of the turn left, so it costs no
	// extra movement ("Battles fought at the end of the turn do not
	// themselves cost an extra 1/6 of a move").
	EndOfTurn bool `json:",omitempty"`
	// MPCost is the share of a move the day of battle cost (1/6, rounded up
	// per force by the caller's movement class; 0 at the end of the turn).
	MPFraction int `json:",omitempty"`
	Outcome    string
	Winner     int
	// Days fought (V4 multi-day battles: more than one); Turns is the
	// tabletop turns of the last day (16 when the day ran its course); Bound
	// is which of that turn's two bounds the battle ended in when an army
	// broke (0: the day ran its course, or a model or a referee's result
	// without bounds).
	Days    int
	Turns   int
	Bound   int `json:",omitempty"`
	Sides   [2]BattleSide
	Moments []battle.Moment `json:",omitempty"`
	Turning int
	// Retreats: where each force of the retreating side went.
	Retreats []BattleRetreat `json:",omitempty"`
	// Pursued: the winner's cavalry pursued.
	Pursued bool `json:",omitempty"`
	// Seen is each nation's scouting level on the other side's forces at
	// the time of battle (referee only; EventsFor uses it and removes it).
	Seen []BattleSight `json:",omitempty"`
}

// BattleSight is one nation's scouting level on the enemy side.
type BattleSight struct {
	Nation game.NationID
	Level  ruleset.ScoutingLevel
}

// BattleSide is one side of a land battle, before and after.
type BattleSide struct {
	Nations []game.NationID
	Stance  game.Stance
	Forces  []game.ForceID
	// Commander is the senior general's name, with his nation, experience
	// and genius before the battle (Experience says what he gained).
	Commander       string        `json:",omitempty"`
	CommanderNation game.NationID `json:",omitempty"`
	CommanderXP     int           `json:",omitempty"`
	Genius          bool          `json:",omitempty"`
	// Size is the side's public size class ("small", "large", "huge").
	Size ruleset.SizeClass `json:",omitempty"`
	// Figures and Guns on the field; Arms the figures by arm.
	Figures          int        `json:",omitempty"`
	Guns             int        `json:",omitempty"`
	Arms             []ArmCount `json:",omitempty"`
	Units            int        `json:",omitempty"`
	Fieldworks       int        `json:",omitempty"`
	InCity           bool       `json:",omitempty"`
	Advantage        int        `json:",omitempty"`
	TerrainAdvantage int        `json:",omitempty"`
	Unsupplied       bool       `json:",omitempty"`
	// Role: "winner" or "loser" as the regaining rules treated the side.
	Role string
	// Losses: Killed and Routed in the battle, Captured (V4 surrounded),
	// Regained afterwards, PursuitLost, GunsLost; Lost is the net loss of
	// figures.
	Killed, Routed, Captured, Regained, PursuitLost, GunsLost, Lost int                  `json:",omitempty"`
	Exhausted                                                       int                  `json:",omitempty"`
	Stacks                                                          []battle.StackChange `json:",omitempty"`
	GunChanges                                                      []battle.GunChange   `json:",omitempty"`
	GunsTaken                                                       []battle.GunChange   `json:",omitempty"`
	PursuitLight, PursuitHeavy                                      int                  `json:",omitempty"`
	Promotions                                                      []battle.Promotion   `json:",omitempty"`
	Experience                                                      *battle.XPGain       `json:",omitempty"`
	Generals                                                        []battle.GeneralFate `json:",omitempty"`
	// Level is, in a nation's copy, what it saw of this side: -1 for its
	// own side (everything).
	Level ruleset.ScoutingLevel `json:",omitempty"`
}

// leadersLost are the fates of the leaders of forces that leave the game
// with them: overrun or a garrison stormed ("wiped out": taken prisoner),
// a surrendered garrison or a beaten V4 force that could not retreat
// (captured), a garrison killed by the townsfolk (killed).
func leadersLost(fs []*game.Force, fate string) []battle.GeneralFate {
	var out []battle.GeneralFate
	for _, f := range fs {
		for _, l := range f.Leaders {
			out = append(out, battle.GeneralFate{Nation: f.Nation, Force: f.ID, ID: l.ID, Name: l.Name, Fate: fate})
		}
	}
	return out
}

// unnamed are generals' fates without their names (and forces), for a
// nation that did not scout them: it learns how many were taken or killed,
// not who (the fog of war names an enemy's leaders from the approximate
// level of scouting).
func unnamed(gs []battle.GeneralFate) []battle.GeneralFate {
	if len(gs) == 0 {
		return nil
	}
	out := make([]battle.GeneralFate, len(gs))
	for i, g := range gs {
		out[i] = battle.GeneralFate{Nation: g.Nation, Fate: g.Fate}
	}
	return out
}

// ArmCount is figures of one arm.
type ArmCount struct {
	Arm     game.Arm
	Figures int `json:",omitempty"`
}

// BattleRetreat is a force of the beaten side leaving the hex (Blocked: no
// hex was open to it, and it stays).
type BattleRetreat struct {
	Force   game.ForceID
	To      game.Hex `json:",omitzero"`
	Blocked bool     `json:",omitempty"`
	// Captured (V4): the force was beaten and could not retreat: its
	// figures (Figures, guns and generals with them) are captured and
	// removed ("Losing-side figures that end the battle surrounded such
	// that they could not do a retreat move are captured").
	Captured bool `json:",omitempty"`
	Figures  int  `json:",omitempty"`
	// Generals are the leaders captured with it.
	Generals []battle.GeneralFate `json:",omitempty"`
}

// Kind returns "LandBattle".
func (*LandBattle) Kind() string { return "LandBattle" }

func init() { registerEvent(func() Event { return new(LandBattle) }) }

// SideOf returns the index of the side nation n fought on (-1: neither).
func (e *LandBattle) SideOf(n game.NationID) int {
	for i, s := range e.Sides {
		if slices.Contains(s.Nations, n) {
			return i
		}
	}
	return -1
}

func (e *LandBattle) redactFor(n game.NationID) Event {
	c := *e
	c.Seen = nil
	mine := e.SideOf(n)
	if mine < 0 {
		return &c
	}
	en := 1 - mine
	level := ruleset.LevelSize
	for _, s := range e.Seen {
		if s.Nation == n {
			level = s.Level
		}
	}
	c.Sides[mine].Level = -1
	s := e.Sides[en]
	s.Level = level
	// Below the exact level the counts are estimates (ruleset.Approximate:
	// 0 for "a few" — an arm is listed only when present, and guns go with
	// their gunners).
	q := ruleset.Approximate
	if level < ruleset.LevelExact {
		s.Stacks, s.Promotions, s.Experience, s.GunsTaken = nil, nil, nil, nil
		s.CommanderXP, s.Genius, s.Advantage, s.TerrainAdvantage, s.Unsupplied, s.Exhausted, s.Fieldworks = 0, false, 0, 0, false, 0, 0
		s.Units, s.GunChanges = 0, nil
		s.Figures, s.Guns = q(s.Figures), q(s.Guns)
		s.Killed, s.Routed, s.Captured, s.Regained, s.PursuitLost, s.Lost = q(s.Killed), q(s.Routed), q(s.Captured), 0, 0, q(s.Lost)
		s.GunsLost = 0
		s.PursuitLight, s.PursuitHeavy = 0, 0
		arms := make([]ArmCount, len(s.Arms))
		for k, a := range s.Arms {
			arms[k] = ArmCount{Arm: a.Arm, Figures: q(a.Figures)}
		}
		s.Arms = arms
	}
	if level < ruleset.LevelApprox {
		s.Commander, s.CommanderNation = "", ""
		s.Figures, s.Guns, s.Killed, s.Routed, s.Captured, s.Lost = 0, 0, 0, 0, 0, 0
		s.Generals = nil
		for k := range s.Arms {
			s.Arms[k].Figures = 0
		}
	}
	if level < ruleset.LevelArms {
		s.Arms = nil
	}
	c.Sides[en] = s
	// The enemy's generals taken with a force that could not retreat are
	// named from the approximate level, as the side's other generals.
	if level < ruleset.LevelApprox && len(e.Retreats) > 0 {
		c.Retreats = make([]BattleRetreat, len(e.Retreats))
		for k, r := range e.Retreats {
			if slices.Contains(e.Sides[en].Forces, r.Force) {
				r.Generals = nil
			}
			c.Retreats[k] = r
		}
	}
	// The own side's pursuing cavalry counts are its own; the enemy's
	// pursuit figures are hidden above.
	c.Moments = make([]battle.Moment, len(e.Moments))
	for k, m := range e.Moments {
		if m.Side == en {
			if level < ruleset.LevelArms {
				m.Kind = 0
			}
			if level < ruleset.LevelExact {
				m.Grade = 0
			}
			if level < ruleset.LevelApprox {
				m.General = ""
			}
		} else if level < ruleset.LevelArms {
			m.Target = 0
		}
		if level < ruleset.LevelApprox {
			if m.Side == en {
				m.Lost = 0
			} else {
				m.EnemyLost = 0
			}
		}
		// The enemy's army morale count at its break: its figures only
		// from exact scouting, its commander's fate from the approximate
		// level (when the nation can name him).
		if m.Count != nil && m.Count.Side == en && level < ruleset.LevelExact {
			bc := battle.ArmyBreak{Side: m.Count.Side, Day: m.Count.Day, Turn: m.Count.Turn, Bound: m.Count.Bound, Round: m.Count.Round, Gunners: m.Count.Gunners}
			if level >= ruleset.LevelApprox {
				bc.CommanderLost = m.Count.CommanderLost
			}
			m.Count = &bc
		}
		c.Moments[k] = m
	}
	return &c
}
