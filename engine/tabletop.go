package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TabletopBattle is a land battle's result from outside the engine: the
// referee fought it on the table (or a test enters it). It replaces the
// model's result for the battle in Hex whose first side (the bloc holding
// the first nation in name order) is Nations (any, when empty); the
// post-battle rules apply to it as to any other result: its losses, the
// guns its sides lost on the field (GunsLost: "deemed Captured by the
// Winner"), its generals' fates (killed and captured generals leave their
// forces) and its days of battle all go through battle.Aftermath and the
// LandBattle event exactly as a model's result does.
type TabletopBattle struct {
	Hex     game.Hex
	Nations []game.NationID `json:",omitempty"`
	Result  battle.Result
}

// TabletopRefused: a tabletop result did not fit the battle it named (a
// nation or force not on that side, an outcome without a winner, more days
// than the edition or the turn allows …); the model fought the battle
// instead. Referee only.
type TabletopRefused struct {
	Header
	Hex    game.Hex
	Reason string
}

// Kind returns "TabletopRefused".
func (*TabletopRefused) Kind() string { return "TabletopRefused" }

func init() { registerEvent(func() Event { return new(TabletopRefused) }) }

// BattleDaysRoom is the most days a land battle that began at tick (of
// TicksPerTurn) may last: 1 in an edition without multi-day battles; in V4
// no more than LandBattleRules.MaxDays and no more than the sixths of the
// turn left ("A day of battle is ... 1/6 of a map move"), and always at
// least 1 (a battle at the end of the turn is fought, and costs no move).
func BattleDaysRoom(r *ruleset.Ruleset, tick int) int {
	lb := r.LandBattles
	if !lb.MultiDay {
		return 1
	}
	day := TicksPerTurn / max(r.Overrun.BattleFraction, 1)
	n := max(1, (TicksPerTurn-tick)/max(day, 1))
	if lb.MaxDays > 0 {
		n = min(n, lb.MaxDays)
	}
	return n
}

// checkTabletop checks a tabletop result against its battle's setup
// (battle.Result.Validate) and the edition (days of battle), and names each
// general struck as the setup knows him (his force now, his name), so
// that a leader who changed forces this turn is taken from the right one.
// It may replace r's generals with a fresh slice; it never writes to the
// stored result.
func (t *turn) checkTabletop(s *battle.Setup, r *battle.Result) error {
	// The edition's bounds first: they say why more plainly than the
	// setup's room for days, which they also bound.
	lb := t.r.LandBattles
	switch {
	case r.Days > 1 && !lb.MultiDay:
		return fmt.Errorf("%d days of battle: this edition fights a battle in one day (multi-day battles are V4's)", r.Days)
	case lb.MaxDays > 0 && r.Days > lb.MaxDays:
		return fmt.Errorf("%d days of battle: a battle lasts at most %d days (LandBattleRules.MaxDays)", r.Days, lb.MaxDays)
	case (r.Withdrawn[0] || r.Withdrawn[1]) && !lb.MultiDay:
		return fmt.Errorf("a side withdrawn one hex for free: this edition has no free withdrawal (a repulsed attacker \"falls back to its starting positions\"; the withdrawal is V4's, Multi-Day Battles)")
	}
	if err := r.Validate(s); err != nil {
		return err
	}
	for i := range r.Sides {
		gs := slices.Clone(r.Sides[i].Generals)
		for k := range gs {
			for _, c := range s.Sides[i].Staff {
				if c.ID == gs[k].ID {
					gs[k].Nation, gs[k].Force, gs[k].Name = c.Nation, c.Force, c.Name
				}
			}
		}
		r.Sides[i].Generals = gs
	}
	return nil
}
