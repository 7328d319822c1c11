package gamecheck

import (
	"fmt"
	"slices"
	"sync"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
)

// Battle is one land battle of a played game, with what a referee reads
// it by.
type Battle struct {
	Setup Setup
	Turn  string
	// Holds is how many infantry and cavalry the blocks of the battle's
	// city hold (ruleset.CityOnTable.Holds; 0: no city).
	Holds int
	*engine.LandBattle
}

func (b Battle) String() string {
	return fmt.Sprintf("%s; %s; battle at %s", b.Setup, b.Turn, b.Hex)
}

// Battles are the land battles a turn fought.
func Battles(t *Turn) []Battle {
	var out []Battle
	for _, e := range t.Events {
		if lb, ok := e.(*engine.LandBattle); ok {
			b := Battle{Setup: t.Setup, Turn: t.Before.Calendar.Label(t.Before.Turn), LandBattle: lb}
			if c, ok := t.Map.City(lb.City); ok && lb.City != "" {
				b.Holds = t.Rules.LandBattles.City.Holds(t.Rules.Taxes.Of(c.Port, c.River))
			}
			out = append(out, b)
		}
	}
	return out
}

// Fighting is a side's infantry and cavalry on the field.
func Fighting(s engine.BattleSide) int {
	n := 0
	for _, a := range s.Arms {
		if a.Arm.IsFighting() {
			n += a.Figures
		}
	}
	return n
}

// lostInBattle is what a side lost on the field: killed, routed, captured.
func lostInBattle(s engine.BattleSide) int { return s.Killed + s.Routed + s.Captured }

// Read reads a battle as a referee would sign it, and returns what is
// wrong with it:
//
//   - no field battle against a garrison behind its walls: a side in its
//     city on defend orders whose infantry and cavalry its blocks hold
//     "will not come out and fight" (the city is masked or besieged
//     instead, LandBattleRules.NoBattleBehindWalls);
//   - no army of twice the enemy's strength breaks after losing fewer than
//     it inflicted, unless its commander fell while attached to a unit (a
//     general is at risk only then: "Generals/ADC cannot usually be fired on
//     or attacked while Unattached") and the units about him were shaken —
//     the break's count (battle.ArmyBreak.CommanderLost) says so.
func (b Battle) Read() []string {
	var out []string
	for i, s := range b.Sides {
		if s.InCity && s.Stance != game.Attack && Fighting(s) <= b.Holds && b.Sides[1-i].Stance == game.Attack {
			out = append(out, fmt.Sprintf("a field battle against the garrison of %s (%d figures, within what its walls hold) on defend", b.City, Fighting(s)))
		}
	}
	if b.Outcome != battle.Decisive || b.Winner < 0 {
		return out
	}
	w, l := b.Sides[b.Winner], b.Sides[1-b.Winner]
	if Fighting(l) < 2*Fighting(w) || lostInBattle(l) >= lostInBattle(w) {
		return out
	}
	for _, m := range b.Moments {
		if m.What == battle.MBreak && m.Count != nil && m.Count.Side == 1-b.Winner && m.Count.CommanderLost != "" {
			return out
		}
	}
	return append(out, fmt.Sprintf("%s's army of %d broke against %d after losing %d to the enemy's %d, its commander unhurt",
		l.CommanderNation, Fighting(l), Fighting(w), lostInBattle(l), lostInBattle(w)))
}

// BattleCounts are a set of battles counted as the issue asks: field
// battles, repulses (and double repulses), V4 withdrawals, and battles of
// more than one day.
type BattleCounts struct {
	Battles, Repulses, Withdrawals, MultiDay int
}

// Count adds a battle.
func (c *BattleCounts) Count(b Battle) {
	c.Battles++
	switch b.Outcome {
	case battle.Repulse, battle.BothRepulsed:
		c.Repulses++
	case battle.Withdrew:
		c.Withdrawals++
	}
	if b.Days > 1 {
		c.MultiDay++
	}
}

// demoBattles keeps the battles of the demo games TestGameInvariants
// played, by setup, so that the battle test reads them without playing
// the games again.
var demoBattles = struct {
	sync.Mutex
	by map[Setup][]Battle
}{by: map[Setup][]Battle{}}

func keepBattles(s Setup, bs []Battle) {
	demoBattles.Lock()
	defer demoBattles.Unlock()
	demoBattles.by[s] = append(demoBattles.by[s], bs...)
}

// playedBattles returns the battles of the setups kept, and the setups
// not played yet.
func playedBattles(setups []Setup) (map[Setup][]Battle, []Setup) {
	demoBattles.Lock()
	defer demoBattles.Unlock()
	got := map[Setup][]Battle{}
	var missing []Setup
	for _, s := range setups {
		if bs, ok := demoBattles.by[s]; ok {
			got[s] = slices.Clone(bs)
		} else {
			missing = append(missing, s)
		}
	}
	return got, missing
}
