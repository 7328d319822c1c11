package battle

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// The outcomes of a battle.
const (
	// Decisive: one side's army morale broke; the other won.
	Decisive = "decisive"
	// Repulse: the side on attack failed to break the enemy within the day
	// (or the days) while its own morale held; the defender won.
	Repulse = "repulse"
	// BothRepulsed: both sides attacked and neither broke; nobody won.
	BothRepulsed = "both-repulsed"
	// Withdrew (V4 multi-day battles): after a day the attacker had failed
	// to break, the defender retired one hex, unbroken and unpursued. The
	// defender is the winner ("If a force has defend orders, it merely has
	// to avoid having its army morale broken"); the attacker, holding the
	// field, is "treated as the loser" (003:198, 202, 254).
	Withdrew = "withdrew"
)

// Result is what a battle produced, as data: which side won and how, each
// side's losses by force, arm and grade (killed, routed, surrounded), guns
// taken on the field, hits for promotions, generals lost, and the moments a
// narrative tells. A model makes one; a referee's tabletop result can be
// written as one (JSON) and goes through the same post-battle rules.
type Result struct {
	Model string
	// Outcome is Decisive, Repulse, BothRepulsed or Withdrew.
	Outcome string
	// Winner is the index of the side that won (-1: nobody).
	Winner int
	// Broken says whose army morale broke.
	Broken [2]bool
	// Withdrawn says which side took V4's free withdrawal of one hex after
	// a day no army broke ("The enemy may then retire one hex with no
	// pursuit losses suffered if it desires"; "If both sides were on
	// attack, each retires 9" and either may withdraw one hex for free",
	// 003:202): the defender of a Withdrew outcome, or either side of a
	// battle both attacked (BothRepulsed).
	Withdrawn [2]bool
	// Days fought; Turns is the tabletop turns of the last day; Bound is
	// which of that turn's two bounds the battle ended in when an army
	// broke (0: the day ran its course, or the model has no bounds).
	Days  int
	Turns int
	Bound int `json:",omitempty"`
	// Weather of the (first) day: "fair", "overcast" or "rain".
	Weather string `json:",omitempty"`
	Sides   [2]SideResult
	// Moments are what happened, in order; Turning indexes the turning point
	// (-1: none).
	Moments []Moment `json:",omitempty"`
	Turning int
}

// SideResult is one side's part of a result.
type SideResult struct {
	Losses   []Casualties  `json:",omitempty"`
	GunsLost []GunsLost    `json:",omitempty"`
	Hits     []Hits        `json:",omitempty"`
	Generals []GeneralFate `json:",omitempty"`
}

// Casualties are one stack's losses: Killed by fire and melee, Routed (rout
// hits and figures that routed off the table), Surrounded (figures that ended
// the battle unable to retreat; V4 captures them if their side lost), and
// HalfStrength (survivors of units reduced to half strength or less: 1752
// exhausts them). Force may be empty in a result entered by hand: the losses
// are then spread over the nation's forces holding that arm and grade.
type Casualties struct {
	Nation       game.NationID
	Force        game.ForceID `json:",omitempty"`
	Arm          game.Arm
	Grade        game.Grade
	Killed       int `json:",omitempty"`
	Routed       int `json:",omitempty"`
	Surrounded   int `json:",omitempty"`
	HalfStrength int `json:",omitempty"`
}

// GunsLost are gun models taken by the enemy on the field (a battery that
// routed: "the Gun is deemed Captured by the Winner").
type GunsLost struct {
	Nation game.NationID
	Force  game.ForceID `json:",omitempty"`
	Kind   game.GunKind
	Count  int
}

// Hits are the hits (not rout hits) one arm and grade of a nation inflicted
// on the enemy: the basis of field promotions.
type Hits struct {
	Nation game.NationID
	Arm    game.Arm
	Grade  game.Grade
	Hits   int
}

// The fates of a general.
const (
	Killed   = "killed"
	Captured = "captured"
	Wounded  = "wounded"
)

// GeneralFate is a general struck during the battle: killed, captured or
// wounded (Wounded twice is incapacitated for the day, and is still Wounded
// after it).
type GeneralFate struct {
	Nation game.NationID
	Force  game.ForceID
	ID     string
	Name   string
	Fate   string
}

// Moment is one thing that happened on the field worth telling: the
// cannonade opening, skirmishers engaging, a volley, a charge and its
// outcome, a melee, reserves committed, a general struck, a rally, an attack
// called off, an army's morale breaking, nightfall, a withdrawal. Side is the acting side; Kind and Target the
// unit kinds involved (0 when none); Outcome a word ("routed", "held", "won",
// "lost", "shaken", "killed", "wounded", "captured").
type Moment struct {
	Day     int
	Turn    int
	Side    int
	What    string
	Nation  game.NationID `json:",omitempty"`
	Kind    Kind          `json:",omitzero"`
	Grade   game.Grade    `json:",omitzero"`
	Target  Kind          `json:",omitzero"`
	Outcome string        `json:",omitempty"`
	// General is the general named in a "general" moment.
	General string `json:",omitempty"`
	// Count is, on a "break" moment, the army morale rule's count at the
	// break (nil on other moments).
	Count *ArmyBreak `json:",omitempty"`
	// Lost is the fraction, in percent, of the acting side's army the
	// morale rule counts as lost at that moment; EnemyLost the other's.
	Lost, EnemyLost int
}

// ArmyBreak is the army morale rule's count for the side whose army broke,
// at the moment it broke: "half or more of your army's figures excluding
// artillery [V4: infantry or cavalry figures] are eliminated, have routed
// off the table, or are in shaken status". Counted is the rule's base (the
// side's infantry and cavalry figures; gunners too when the ruleset's
// BreakCountsGunners says so, and then Gunners is set); Eliminated,
// Routed and Shaken are the counted figures in each state, which add up to
// what the rule counted as lost:
//   - Eliminated: figures of strength points lost to fire and melee, and
//     of units destroyed (the simulation); in LGG the strength points lost
//     by units still standing (killed and stragglers alike);
//   - Routed: figures of strength points lost as rout hits, and of units
//     routing or routed off the table (LGG: routed units whole, and units
//     gone at a day's end);
//   - Shaken: the remaining figures of shaken units (LGG has no shaken
//     status: 0).
//
// Day, Turn and Bound say when: the day of the battle (V4 multi-day) and
// the tabletop turn (1–16); Bound is which of the turn's two bounds
// (simulation), Round the LGG round (the turn is then how far through the
// day's actions it came, on the 16-turn day).
type ArmyBreak struct {
	Side       int
	Day, Turn  int
	Bound      int  `json:",omitempty"`
	Round      int  `json:",omitempty"`
	Counted    int  `json:",omitempty"`
	Gunners    bool `json:",omitempty"`
	Eliminated int  `json:",omitempty"`
	Routed     int  `json:",omitempty"`
	Shaken     int  `json:",omitempty"`
	// CommanderLost (simulation) is the fate (Killed, Captured, Wounded:
	// incapacitated) of the side's commander when he was lost since the
	// side last rallied: his loss shook the units about him ("If a General
	// is Killed/Incapacitated all units in his chain of command within 18″
	// are shaken"; SimParams.ChiefLossReach), which is often why an army
	// breaks with few casualties.
	CommanderLost string `json:",omitempty"`
}

// Lost is the figures the rule counted as lost.
func (a ArmyBreak) Lost() int { return a.Eliminated + a.Routed + a.Shaken }

// BreakCount returns the army morale count of the side whose army broke,
// from the result's "break" moment (nil: no army broke, or the result does
// not carry the count, as a referee's tabletop result may not).
func (r *Result) BreakCount() *ArmyBreak {
	for i := len(r.Moments) - 1; i >= 0; i-- {
		if m := r.Moments[i]; m.What == MBreak && m.Count != nil {
			return m.Count
		}
	}
	return nil
}

// The moments' What.
const (
	MCannonade = "cannonade"
	MSkirmish  = "skirmish"
	MAdvance   = "advance"
	MVolley    = "volley"
	MCharge    = "charge"
	MMelee     = "melee"
	MReserves  = "reserves"
	MGeneral   = "general"
	MRally     = "rally"
	MBreak     = "break"
	MNightfall = "nightfall"
	MWithdraw  = "withdraw"
	MCallOff   = "call-off"
	MGunsTaken = "guns-taken"
)

// Totals sums a side's losses: killed, routed, surrounded.
func (s *SideResult) Totals() (killed, routed, surrounded int) {
	for _, c := range s.Losses {
		killed += c.Killed
		routed += c.Routed
		surrounded += c.Surrounded
	}
	return
}

// Validate checks a result entered from outside (a referee's tabletop
// battle) against the setup it is for: the outcome and winner agree, every
// count is whole, and every nation and force named belongs to its side; no
// force loses more guns of a kind than it brought, every general struck
// fought on his side and his fate is Killed, Wounded or Captured, and the
// days fit the room the turn left (Setup.Days; the edition's own limit is
// the caller's, which holds the ruleset).
func (r *Result) Validate(s *Setup) error {
	var errs []error
	switch r.Outcome {
	case Decisive, Repulse, Withdrew:
		if r.Winner != 0 && r.Winner != 1 {
			errs = append(errs, fmt.Errorf("outcome %s needs Winner 0 or 1, got %d", r.Outcome, r.Winner))
		}
	case BothRepulsed:
		if r.Winner != -1 {
			errs = append(errs, fmt.Errorf("outcome %s needs Winner -1, got %d", r.Outcome, r.Winner))
		}
	default:
		errs = append(errs, fmt.Errorf("outcome %q: expected %s, %s, %s or %s", r.Outcome, Decisive, Repulse, BothRepulsed, Withdrew))
	}
	switch w := r.Withdrawn; {
	case w[0] && w[1]:
		errs = append(errs, fmt.Errorf("both sides withdrawn: expected at most one side to take the free withdrawal"))
	case (w[0] || w[1]) && r.Outcome != BothRepulsed && !(r.Outcome == Withdrew && r.Winner >= 0 && w[r.Winner]):
		errs = append(errs, fmt.Errorf("withdrawn %v with outcome %s and Winner %d: only the winner of %s or either side of %s withdraws for free",
			w, r.Outcome, r.Winner, Withdrew, BothRepulsed))
	}
	// Days: 0 is a result written before days were entered (one day).
	if room := max(1, s.Days); r.Days < 0 || r.Days > room {
		errs = append(errs, fmt.Errorf("%d days of battle: the turn leaves room for 1 to %d", r.Days, room))
	}
	if c := r.BreakCount(); c != nil {
		switch {
		case c.Side != 0 && c.Side != 1 || !r.Broken[c.Side] || r.Outcome != Decisive || r.Winner != 1-c.Side:
			errs = append(errs, fmt.Errorf("break count for side %d: that side's army must have broken (Broken, outcome %s and Winner %d), got Broken %v, outcome %s, Winner %d",
				c.Side, Decisive, 1-c.Side, r.Broken, r.Outcome, r.Winner))
		case c.Counted < 0 || c.Eliminated < 0 || c.Routed < 0 || c.Shaken < 0 || c.Lost() > c.Counted:
			errs = append(errs, fmt.Errorf("break count for side %d: %d eliminated, %d routed and %d shaken of %d counted: expected counts of 0 or more adding up to no more than those counted",
				c.Side, c.Eliminated, c.Routed, c.Shaken, c.Counted))
		}
	}
	for i := range r.Sides {
		sr := &r.Sides[i]
		in := func(n game.NationID, f game.ForceID) bool {
			ok := false
			for _, x := range s.Sides[i].Nations {
				ok = ok || x == n
			}
			if f != "" {
				found := false
				for _, x := range s.Sides[i].Forces {
					found = found || x == f
				}
				ok = ok && found
			}
			return ok
		}
		had := s.Sides[i].Figures()
		for _, c := range sr.Losses {
			if c.Killed < 0 || c.Routed < 0 || c.Surrounded < 0 || c.HalfStrength < 0 {
				errs = append(errs, fmt.Errorf("side %d: negative losses for %s %s %s", i, c.Nation, c.Grade, c.Arm))
			} else if c.Killed > had || c.Routed > had || c.Surrounded > had || c.HalfStrength > had || c.Killed+c.Routed+c.Surrounded > had {
				errs = append(errs, fmt.Errorf("side %d: %s %s %s lost %d killed, %d routed, %d surrounded: more than the side's %d figures",
					i, c.Nation, c.Grade, c.Arm, c.Killed, c.Routed, c.Surrounded, had))
			}
			if !in(c.Nation, c.Force) {
				errs = append(errs, fmt.Errorf("side %d: losses for %s %s, which is not on that side", i, c.Nation, c.Force))
			}
		}
		for _, g := range sr.GunsLost {
			had := 0
			for _, u := range s.Sides[i].Units {
				if u.Nation == g.Nation && (g.Force == "" || u.Force == g.Force) && u.GunKind == g.Kind {
					had += u.Guns
				}
			}
			switch {
			case !in(g.Nation, g.Force):
				errs = append(errs, fmt.Errorf("side %d: guns lost by %s %s, which is not on that side", i, g.Nation, g.Force))
			case g.Count < 0 || g.Count > had:
				errs = append(errs, fmt.Errorf("side %d: %d %s lost by %s %s: expected 0 to the %d it had on the field (guns with crews)", i, g.Count, g.Kind, g.Nation, g.Force, had))
			}
		}
		for _, g := range sr.Generals {
			onStaff := false
			for _, c := range s.Sides[i].Staff {
				onStaff = onStaff || c.ID == g.ID && c.Nation == g.Nation
			}
			switch {
			case g.Fate != Killed && g.Fate != Wounded && g.Fate != Captured:
				errs = append(errs, fmt.Errorf("side %d: general %s's fate %q: expected %s, %s or %s", i, g.ID, g.Fate, Killed, Wounded, Captured))
			case !onStaff:
				errs = append(errs, fmt.Errorf("side %d: general %s (%s) did not fight on that side", i, g.ID, g.Nation))
			}
		}
		for _, h := range sr.Hits {
			if h.Hits < 0 || h.Hits > 1_000_000 || !in(h.Nation, "") {
				errs = append(errs, fmt.Errorf("side %d: hits by %s: not on that side, or a negative count", i, h.Nation))
			}
		}
	}
	return errors.Join(errs...)
}

// MarshalResult writes a result as JSON (the form a referee's result is
// entered in).
func MarshalResult(r *Result) ([]byte, error) { return json.Marshal(r) }

// UnmarshalResult reads a result written by MarshalResult.
func UnmarshalResult(b []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("battle result: %w", err)
	}
	return &r, nil
}
