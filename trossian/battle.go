package trossian

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// Battles. "Battles shall be played out on tabletop via Rod Humble's 2 by 2
// Napoleonics": the engine finds the battle, hands the referee its sheet
// (BattleSheet: the province, each side's kingdoms — "Allied forces can
// march and arrive to battle at the same time" — and their armies' stands)
// and takes his result back as data (BattleResult: the winner or a draw,
// and for each army the stands destroyed during the game and routed off the
// table; the rest remained). A battle without a result holds the turn
// (Result.Awaiting). The post-battle sequence then dices for every unit by
// its fate and its side's outcome (ruleset PostBattleTable), retreats the
// beaten, and keeps the victor still for a phase.

// BattleResult is the referee's tabletop result for the battle in a
// province.
type BattleResult struct {
	Province string
	// Outcome is "win" or "draw"; Winner a kingdom of the winning side.
	Outcome string
	Winner  game.NationID `json:",omitempty"`
	// Units are the stands destroyed during the game and routed off the
	// table, by army and type; every other stand remained on the table.
	Units []UnitFate `json:",omitempty"`
}

// UnitFate is what befell some stands of one type of one army on the
// table.
type UnitFate struct {
	Army      game.ForceID
	Type      UnitType
	Guard     bool `json:",omitempty"`
	Destroyed int  `json:",omitempty"`
	Routed    int  `json:",omitempty"`
}

// battle is a battle found by the movement step.
type battle struct {
	province string
	tick     int
}

const (
	purposePostBattle = "post-battle: "
	secBattles        = "004 The Battles"
)

// Check reports what is wrong with a result for a battle sheet (nil: it
// fits): the outcome, the winner on a side, each army on the sheet, each
// type in that army, no more stands destroyed and routed than it brought.
func (r BattleResult) Check(sh BattleSheet) error {
	var all []game.NationID
	armies := map[game.ForceID]Stands{}
	for _, s := range sh.Sides {
		all = append(all, s.Nations...)
		for _, a := range s.Armies {
			armies[a.Army] = a.Stands
		}
	}
	switch r.Outcome {
	case "win":
		if !slices.Contains(all, r.Winner) {
			return fmt.Errorf("the winner %q fought no side of the battle in %s: expected one of %v", r.Winner, sh.Province, all)
		}
	case "draw":
		if r.Winner != "" {
			return fmt.Errorf("a draw has no winner (read %s)", r.Winner)
		}
	default:
		return fmt.Errorf("outcome %q: expected win or draw", r.Outcome)
	}
	seen := map[string]bool{}
	for _, u := range r.Units {
		st, ok := armies[u.Army]
		if !ok {
			return fmt.Errorf("%s did not fight in %s", u.Army, sh.Province)
		}
		key := fmt.Sprintf("%s %s %v", u.Army, u.Type, u.Guard)
		if seen[key] {
			return fmt.Errorf("%s %s is given twice", u.Army, Stand{Type: u.Type, Guard: u.Guard}.Label())
		}
		seen[key] = true
		have := st.Of(u.Type, u.Guard)
		if u.Destroyed < 0 || u.Routed < 0 {
			return fmt.Errorf("%s %s: negative counts", u.Army, u.Type)
		}
		if u.Destroyed+u.Routed > have {
			return fmt.Errorf("%s had %d %s, not %d destroyed and %d routed", u.Army, have, Stand{Type: u.Type, Guard: u.Guard}.Label(), u.Destroyed, u.Routed)
		}
	}
	return nil
}

// sheetFor makes the battle sheet of a province as it stands.
func (t *turn) sheetFor(p string) BattleSheet {
	pr, _ := t.m.Province(p)
	sh := BattleSheet{Province: p, Controller: t.s.Controller(p), Turn: t.s.Turn, Label: t.s.Calendar.Label(t.s.Turn)}
	if pr != nil {
		sh.Kind = pr.Kind.String()
	}
	for _, bloc := range t.blocs(t.s.ArmiesAt(p)) {
		side := BattleSide{Nations: bloc}
		for _, a := range t.s.ArmiesAt(p) {
			if slices.Contains(bloc, a.Nation) {
				side.Armies = append(side.Armies, BattleArmy{Army: a.ID, Nation: a.Nation, Stands: a.Stands, Stance: a.Stance})
			}
		}
		sh.Sides = append(sh.Sides, side)
	}
	return sh
}

// blocs groups the kingdoms of armies into sides: kingdoms at peace with
// each other fight together. Each side is sorted; sides by first kingdom.
func (t *turn) blocs(armies []*Army) [][]game.NationID {
	var ns []game.NationID
	for _, a := range armies {
		ns = append(ns, a.Nation)
	}
	ns = nations(ns...)
	var out [][]game.NationID
	for _, n := range ns {
		placed := false
		for i := range out {
			friends := true
			for _, m := range out[i] {
				friends = friends && !t.s.Hostile(n, m)
			}
			if friends {
				out[i] = append(out[i], n)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []game.NationID{n})
		}
	}
	return out
}

// stepBattles applies every battle's result, in province order; a battle
// without one (or with one that does not fit) waits.
func (t *turn) stepBattles() {
	slices.SortFunc(t.battles, func(a, b *battle) int { return strings.Compare(a.province, b.province) })
	for _, b := range t.battles {
		sh := t.sheetFor(b.province)
		if len(sh.Sides) < 2 {
			continue
		}
		var res *BattleResult
		for i := range t.in.Battles {
			if t.in.Battles[i].Province == b.province {
				res = &t.in.Battles[i]
			}
		}
		var all []game.NationID
		for _, s := range sh.Sides {
			all = append(all, s.Nations...)
		}
		if res == nil {
			t.awaiting = append(t.awaiting, sh)
			t.emit(&BattleAwaiting{Header: t.head(secBattles, b.province, refereeOnly(), all...), Sheet: sh})
			continue
		}
		if err := res.Check(sh); err != nil {
			t.awaiting = append(t.awaiting, sh)
			t.emit(&ResultRefused{Header: t.head(secBattles, b.province, refereeOnly(), all...), Province: b.province, Reason: err.Error()})
			t.emit(&BattleAwaiting{Header: t.head(secBattles, b.province, refereeOnly(), all...), Sheet: sh})
			continue
		}
		t.applyResult(sh, *res)
	}
}

// applyResult runs the post-battle sequence.
func (t *turn) applyResult(sh BattleSheet, res BattleResult) {
	p := sh.Province
	t.fought[p] = true
	e := &BattleFought{Province: p, Outcome: res.Outcome}
	var all []game.NationID
	for _, side := range sh.Sides {
		all = append(all, side.Nations...)
		outcome := "draw"
		if res.Outcome == "win" {
			outcome = "loss"
			if slices.Contains(side.Nations, res.Winner) {
				outcome = "win"
				e.Winners = side.Nations
			}
		}
		sa := SideAftermath{Nations: side.Nations, Outcome: outcome}
		for _, ba := range side.Armies {
			a, ok := t.s.Army(ba.Army)
			if !ok {
				continue
			}
			sa.Armies = append(sa.Armies, a.ID)
			sa.Before = sa.Before.Plus(a.Stands)
			rolls, lost := t.postBattleDice(a, outcome, res)
			sa.Rolls = append(sa.Rolls, rolls...)
			sa.Lost = sa.Lost.Plus(lost)
			t.loseStands(a, lost)
		}
		e.Sides = append(e.Sides, sa)
	}
	e.Header = t.head(secPost, p, to(all...), all...)
	t.emit(e)
	for _, sa := range e.Sides {
		for _, id := range sa.Armies {
			a, ok := t.s.Army(id)
			if !ok {
				continue
			}
			a.March = nil
			if sa.Outcome != "win" {
				a.Task, a.TaskSince = "", 0
			}
			switch sa.Outcome {
			case "win":
				// "The winning army remains in the province where the battle
				// was fought"; "must spend one full phase stationary".
				a.StillUntil = t.s.Turn + t.r.Battles.VictorStands
			case "loss":
				t.retreat(a, p, all)
			case "draw":
				// "Both armies must retreat one province and cannot move in
				// the following phase."
				if t.retreat(a, p, all) {
					a.StillUntil = t.s.Turn + t.r.Battles.DrawStands
				}
			}
		}
	}
}

// postBattleDice throws an army's dice: one for each unit destroyed during
// the game, remaining on the table (when its outcome's list has that line)
// and routed off it.
func (t *turn) postBattleDice(a *Army, outcome string, res BattleResult) ([]FateRoll, Stands) {
	rows := t.r.PostBattle.Rows(outcome)
	var rolls []FateRoll
	var lost Stands
	for _, st := range a.Stands {
		var destroyed, routed int
		for _, u := range res.Units {
			if u.Army == a.ID && u.Type == st.Type && u.Guard == st.Guard {
				destroyed, routed = u.Destroyed, u.Routed
			}
		}
		remained := st.Count - destroyed - routed
		for _, f := range []struct {
			fate string
			n    int
			row  FateRow
		}{{"destroyed", destroyed, rows.Destroyed}, {"remained", remained, rows.Remained}, {"routed", routed, rows.Routed}} {
			if f.row.EliminatedOn <= 0 {
				continue
			}
			for i := 0; i < f.n; i++ {
				die := t.dice.Roll(purposePostBattle+f.fate, 6, string(a.ID))
				mod := t.r.PostBattle.Modifier(outcome, f.row, st)
				fr := FateRoll{Army: a.ID, Type: st.Type, Guard: st.Guard, Fate: f.fate, Die: die, Modifier: mod, Eliminated: die+mod <= f.row.EliminatedOn}
				rolls = append(rolls, fr)
				if fr.Eliminated {
					lost = append(lost, Stand{Type: st.Type, Guard: st.Guard, Count: 1})
				}
			}
		}
	}
	return rolls, lost.Normalize()
}

// loseStands removes stands from an army; an army left with nothing is
// destroyed, one that lost its last HQ is marked for the leaderless step.
func (t *turn) loseStands(a *Army, lost Stands) {
	if len(lost) == 0 {
		return
	}
	hadHQ := a.HasHQ()
	rest, _ := a.Stands.Minus(lost)
	a.Stands = rest
	if rest.Total() == 0 {
		at := t.armyProvince(a)
		t.emit(&Destroyed{Header: t.head(secPost, at, to(a.Nation), a.Nation), Army: a.ID, Nation: a.Nation, At: at, Reason: "every stand eliminated"})
		t.removeArmy(a.ID)
		return
	}
	if hadHQ && !a.HasHQ() {
		t.lostHQ[a.ID] = true
	}
}

// retreat moves a beaten army one province "for free": to its RETREAT
// province if safe, else the safe neighbour it holds, then an ally's or
// unclaimed, then an enemy's open country, nearest its King's seat, then by
// name. "If the army has no safe line of retreat, it is destroyed as a
// fighting force." It reports whether the army survives.
func (t *turn) retreat(a *Army, from string, involved []game.NationID) bool {
	to_, ok := t.retreatTarget(a, from)
	if !ok {
		t.emit(&Destroyed{Header: t.head(secPost, from, to(involved...), involved...), Army: a.ID, Nation: a.Nation, At: from, Stands: a.Stands,
			Reason: "no safe line of retreat (\"it is destroyed as a fighting force\")"})
		t.removeArmy(a.ID)
		return false
	}
	a.At = to_
	t.moved[a.ID] = true
	t.emit(&Retreated{Header: t.head(secPost, from, to(involved...), involved...), Army: a.ID, Nation: a.Nation, From: from, To: to_})
	return true
}

func (t *turn) retreatTarget(a *Army, from string) (string, bool) {
	safe := func(p string) bool {
		if t.hostileArmyIn(a.Nation, p) {
			return false
		}
		pr, _ := t.m.Province(p)
		c := t.s.Controller(p)
		return !(pr != nil && pr.Kind.IsCity() && c != game.Neutral && t.s.Hostile(a.Nation, c))
	}
	if a.RetreatTo != "" && t.m.Bordering(from, a.RetreatTo) && safe(a.RetreatTo) {
		return a.RetreatTo, true
	}
	seat := t.seat(a.Nation)
	dist := t.m.LandDistances(seat)
	class := func(p string) int {
		switch c := t.s.Controller(p); {
		case c == a.Nation:
			return 0
		case c != game.Neutral && !t.s.Hostile(a.Nation, c):
			return 1
		case c == game.Neutral:
			return 2
		}
		return 3
	}
	best := ""
	for _, p := range t.m.Neighbors(from) {
		if !safe(p) {
			continue
		}
		if best == "" || class(p) < class(best) || class(p) == class(best) && distOr(dist, p) < distOr(dist, best) {
			best = p
		}
	}
	return best, best != ""
}

func distOr(d map[string]int, p string) int {
	if v, ok := d[p]; ok {
		return v
	}
	return 1 << 20
}
