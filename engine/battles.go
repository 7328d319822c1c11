package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// stepBattles fights the land battles movement found (rules "Land
// Battles"), hex by hex in map order:
//
//  1. fieldworks ordered this turn are built by forces whose infantry stood
//     in the hex 1/6 of a move before the battle (each edition's limit);
//  2. each engagement becomes a battle.Setup: the two blocs of allied
//     nations as two sides, their forces formed into units, the hex's
//     terrain and city, fieldworks, the senior general (of the side's
//     nation with most figures) and his staff, supply and exhaustion, the
//     nations' traits and the setup advantage;
//  3. the ruleset's model (Ruleset.Battle) fights it with the turn's dice;
//  4. battle.Aftermath applies the post-battle rules to the forces;
//  5. the beaten side retreats one hex (fightBattle), fieldworks end, and a
//     LandBattle event records it all.
func (t *turn) stepBattles() {
	t.buildFieldworks()
	slices.SortStableFunc(t.engs, func(a, b *engagement) int {
		if c := a.hex.Compare(b.hex); c != 0 {
			return c
		}
		if c := slices.Compare(a.a, b.a); c != 0 {
			return c
		}
		return slices.Compare(a.b, b.b)
	})
	model, err := battle.ByName(t.r.Battle)
	if err != nil {
		model = battle.Simulation{}
	}
	for _, e := range t.engs {
		t.fightBattle(model, e)
	}
	// "Fieldworks only last for the length of the battle ... not from one
	// campaign move to the next" (V4): works dug this turn served this
	// turn's battles, and are gone.
	for _, f := range t.live() {
		f.Fieldworks = 0
	}
}

// buildFieldworks carries out this turn's Fieldworks orders: a force with
// infantry that has stood in its hex for 1/6 of a move (it did not move
// this turn, or arrived at least 1/6 of the turn before its battle) builds
// up to the edition's limit ("1\" per infantry figure"; V4 "1 4\" section
// per 4 infantry figures, up to 6 sections"), at 1 crown per 4\".
func (t *turn) buildFieldworks() {
	rule := t.cite("Land Battles", "Fieldworks")
	for _, no := range t.legalOrdersFor("battles", "fieldworks") {
		o := no.o.(Fieldworks)
		f := t.force(o.Force)
		if f == nil || f.Nation != no.nation || !isLandUnit(f) {
			continue
		}
		inf := f.CountArms(game.Arm.IsInfantry)
		limit := t.r.Fieldworks.Limit(inf)
		fi := t.fi(f.ID)
		if inf == 0 || o.Inches <= 0 {
			t.ignore(no.nation, o, f.ID, rule, "only infantry build fieldworks, and this force has none")
			continue
		}
		if fi.start != f.At {
			t.ignore(no.nation, o, f.ID, rule, "the force's infantry was not in the hex for 1/6 of a move before it could dig")
			continue
		}
		inches := min(o.Inches, limit)
		cost := ceilDiv(inches, 4) * max(t.r.Costs.FieldworksPer4Inches, 1)
		// "You must also pay for them according to the rates in the Cost
		// Chart": from the treasury, like any other crown spent.
		what := fmt.Sprintf("%d\" of fieldworks for %s", inches, f.ID)
		if !t.pay(no.nation, cost, "fieldworks", what, o.Line, rule) {
			held := t.treasuryHeld(no.nation)
			t.ignore(no.nation, o, f.ID, rule, fmt.Sprintf("%s cost %s and %s", what, english.Count(cost, "crown"), held))
			continue
		}
		f.Fieldworks = inches
		t.emit(&FieldworksBuilt{Force: f.ID, Inches: inches, Asked: o.Inches, Limit: limit, Cost: cost},
			rule, f.At, to(f.Nation), f.Nation)
	}
}

// FieldworksBuilt: a force dug fieldworks in its hex for a battle. Cost is
// in crowns (1 per 4", rounded up). Owner.
type FieldworksBuilt struct {
	Header
	Force  game.ForceID
	Inches int
	Asked  int
	Limit  int
	Cost   int
}

// Kind returns "FieldworksBuilt".
func (*FieldworksBuilt) Kind() string { return "FieldworksBuilt" }

func init() { registerEvent(func() Event { return new(FieldworksBuilt) }) }

// fightBattle sets up, fights and concludes one engagement.
func (t *turn) fightBattle(model battle.Model, e *engagement) {
	var forces [2][]*game.Force
	var from [2][]game.Hex
	blocs := [2][]game.NationID{e.a, e.b}
	for _, m := range e.members {
		f := t.force(m.id)
		if f == nil || !isLandUnit(f) || f.At != game.AtHex(e.hex) {
			continue
		}
		for i, b := range blocs {
			if slices.Contains(b, f.Nation) {
				forces[i] = append(forces[i], f)
				from[i] = append(from[i], m.from)
			}
		}
	}
	for i := range forces {
		if len(forces[i]) == 0 || fightingOrGuns(forces[i]) == 0 {
			return
		}
	}
	s := t.battleSetup(e, blocs, forces)
	name := model.Name()
	var res *battle.Result
	for _, tb := range t.tabled {
		if tb.Hex != e.hex || (len(tb.Nations) > 0 && !slices.Equal(tb.Nations, blocs[0])) {
			continue
		}
		r := tb.Result
		if err := t.checkTabletop(s, &r); err != nil {
			t.emit(&TabletopRefused{Hex: e.hex, Reason: err.Error()}, t.cite("Land Battles", "Attack and Defend"), game.AtHex(e.hex), refereeOnly())
			continue
		}
		res, name = &r, "tabletop"
		break
	}
	if res == nil {
		res = model.Fight(t.r, s, t.dice)
	}
	t.concludeBattle(e, s, res, forces, from, name)
}

func fightingOrGuns(fs []*game.Force) int {
	n := 0
	for _, f := range fs {
		n += f.Figures() + f.GunCount()
	}
	return n
}

// battleSetup builds the battle's setup from the engagement.
func (t *turn) battleSetup(e *engagement, blocs [2][]game.NationID, forces [2][]*game.Force) *battle.Setup {
	// The days the turn and the edition leave room for (V4: at most
	// MaxDays), the same bound a tabletop result is held to.
	s := &battle.Setup{Hex: e.hex, Terrain: t.m.TerrainAt(e.hex), CitySide: -1, Days: BattleDaysRoom(t.r, e.tick)}
	if d := t.s.Calendar.Date(t.number); d.Month > 0 {
		s.Month = t.s.Calendar.FirstMonth + d.Month - 1
	}
	if c, ok := t.m.CityAt(e.hex); ok {
		s.City = c.Name
		s.CityValue = t.r.Taxes.Of(c.Port, c.River)
		ctl := t.cityState(c.Name).Controller
		for i, b := range blocs {
			if slices.Contains(b, ctl) {
				s.CitySide = i
			}
		}
	}
	for i := range 2 {
		sd := &s.Sides[i]
		sd.Nations = slices.Clone(blocs[i])
		figs := map[game.NationID]int{}
		for _, f := range forces[i] {
			sd.Forces = append(sd.Forces, f.ID)
			if f.Stance == game.Attack {
				sd.Stance = game.Attack
			}
			sd.Fieldworks += f.Fieldworks
			sd.ScoutingPoints += t.r.ScoutingPoints.Of(f)
			figs[f.Nation] += f.Figures()
			var traits game.Traits
			if nat, ok := t.m.Nation(f.Nation); ok {
				traits = nat.Traits
			}
			sd.Units = append(sd.Units, battle.FormUnits(t.r, f, traits)...)
		}
		// The senior general of the nation with most figures leads.
		lead := sd.Nations[0]
		for _, n := range sd.Nations {
			if figs[n] > figs[lead] {
				lead = n
			}
		}
		for _, f := range forces[i] {
			for _, l := range f.Leaders {
				if l.Role != game.General {
					continue
				}
				sd.Staff = append(sd.Staff, battle.Commander{Nation: f.Nation, Force: f.ID, ID: l.ID, Name: l.Name, XP: l.Experience,
					Genius: t.r.LandBattles.GeniusXP > 0 && l.Experience >= t.r.LandBattles.GeniusXP})
			}
		}
		slices.SortStableFunc(sd.Staff, func(a, b battle.Commander) int {
			if (a.Nation == lead) != (b.Nation == lead) {
				if a.Nation == lead {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(b.XP, a.XP); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
		sd.Generals = len(sd.Staff)
		if len(sd.Staff) > 0 {
			sd.Commander = &sd.Staff[0]
		}
	}
	battle.Advantages(t.r, s, t.dice)
	return s
}

// concludeBattle applies the post-battle rules, retreats the beaten side
// and records the battle.
func (t *turn) concludeBattle(e *engagement, s *battle.Setup, res *battle.Result, forces [2][]*game.Force, from [2][]game.Hex, model string) {
	var before [2]BattleSide
	for i := range 2 {
		before[i] = t.battleSideBefore(s, i, forces[i])
	}
	af := battle.Aftermath(t.r, s, res, forces, t.dice)
	ev := &LandBattle{Hex: e.hex, Terrain: s.Terrain, City: s.City, Date: t.s.Calendar.Label(t.number), Weather: res.Weather, Model: model,
		Tick: e.tick, Outcome: res.Outcome, Winner: res.Winner, Days: res.Days, Turns: res.Turns, Bound: res.Bound, Moments: res.Moments, Turning: res.Turning, Pursued: af.Pursued}
	day := TicksPerTurn / max(t.r.Overrun.BattleFraction, 1)
	ev.EndOfTurn = TicksPerTurn-e.tick < day
	if !ev.EndOfTurn {
		ev.MPFraction = max(t.r.Overrun.BattleFraction, 1)
	}
	var nations []game.NationID
	for i := range 2 {
		bs := before[i]
		as := af.Sides[i]
		bs.Role = af.Roles[i]
		bs.Killed, bs.Routed, bs.Captured, bs.Regained, bs.PursuitLost, bs.Exhausted = as.Killed, as.Routed, as.Captured, as.Regained, as.PursuitLost, as.Exhausted
		bs.Lost = as.Killed + as.Routed + as.Captured - as.Regained + as.PursuitLost
		bs.Stacks, bs.GunChanges, bs.GunsTaken, bs.Promotions, bs.Experience, bs.Generals = as.Stacks, as.GunsLost, as.GunsTaken, as.Promotions, as.Experience, as.Generals
		for _, g := range as.GunsLost {
			bs.GunsLost += g.Count
		}
		bs.PursuitLight, bs.PursuitHeavy = as.PursuitLight, as.PursuitHeavy
		ev.Sides[i] = bs
		nations = append(nations, s.Sides[i].Nations...)
		for _, f := range forces[i] {
			f.Normalize()
			f.Fieldworks = 0
		}
	}
	// What each nation saw of the other side.
	for i := range 2 {
		for _, n := range s.Sides[i].Nations {
			lv := ruleset.LevelExact
			for _, f := range forces[1-i] {
				got := ruleset.LevelSize
				if x := t.seen[intelKey{n, f.ID}]; x != nil {
					got = ruleset.ScoutingLevel(x.Level)
				}
				lv = min(lv, got)
			}
			ev.Seen = append(ev.Seen, BattleSight{Nation: n, Level: lv})
		}
	}
	if af.Retreat >= 0 {
		ev.Retreats = t.battleRetreat(e.hex, forces[af.Retreat], from[af.Retreat], af.Roles[af.Retreat] == "loser" && !af.Free && t.r.LandBattles.SurroundedCaptured)
		for _, r := range ev.Retreats {
			if r.Captured {
				ev.Sides[af.Retreat].Captured += r.Figures
				ev.Sides[af.Retreat].Lost += r.Figures
				ev.Sides[af.Retreat].Generals = append(ev.Sides[af.Retreat].Generals, r.Generals...)
			}
		}
	}
	t.emit(ev, t.cite("Land Battles", "Attack and Defend"), game.AtHex(e.hex), to(nations...), nations...)
	for i := range 2 {
		for _, f := range forces[i] {
			if t.force(f.ID) != nil {
				t.checkMinimumAt(f.At, f.Nation)
			}
		}
	}
}

func (t *turn) battleSideBefore(s *battle.Setup, i int, forces []*game.Force) BattleSide {
	sd := &s.Sides[i]
	bs := BattleSide{Nations: sd.Nations, Stance: sd.Stance, Forces: sd.Forces, Fieldworks: sd.Fieldworks, Advantage: sd.Advantage,
		TerrainAdvantage: sd.TerrainAdvantage, InCity: s.CitySide == i, Units: len(sd.Units)}
	if c := sd.Commander; c != nil {
		bs.Commander, bs.CommanderNation, bs.CommanderXP, bs.Genius = c.Name, c.Nation, c.XP, c.Genius
	}
	fighting := 0
	for _, a := range game.Arms {
		n := 0
		for _, f := range forces {
			n += f.CountArms(func(x game.Arm) bool { return x == a })
		}
		if n > 0 {
			bs.Arms = append(bs.Arms, ArmCount{Arm: a, Figures: n})
		}
		bs.Figures += n
		if a.IsFighting() {
			fighting += n
		}
	}
	for _, f := range forces {
		bs.Guns += f.GunCount()
		bs.Unsupplied = bs.Unsupplied || f.Unsupplied
	}
	bs.Size = t.r.SizeClasses.Troops(fighting)
	return bs
}

// battleRetreat moves each force of the beaten side one hex: back the way
// it came if it can, else to a neighbour holding a city its nation
// controls, else the first open neighbour in map order; never into a hex
// held by a hostile force. A force with nowhere to go stays (Blocked) —
// unless capture is set (V4, a losing side: "Losing-side figures that end
// the battle surrounded such that they could not do a retreat move are
// captured and removed from the game"), when it is captured whole, its
// guns and generals with it.
func (t *turn) battleRetreat(h game.Hex, losers []*game.Force, from []game.Hex, capture bool) []BattleRetreat {
	var out []BattleRetreat
	hostileAt := func(x game.Hex, n game.NationID) bool {
		return slices.ContainsFunc(t.forcesAt(game.AtHex(x)), func(f *game.Force) bool {
			return isLandUnit(f) && t.hostile(f.Nation, n)
		})
	}
	for k, f := range losers {
		if t.force(f.ID) == nil || f.IsEmpty() {
			continue
		}
		class := ruleset.ClassOf(f)
		var best game.Hex
		bestScore := -1
		for _, nb := range t.m.Neighbors(h) {
			if _, ok := StepCost(t.m, t.r, class, h, nb, false); !ok || hostileAt(nb, f.Nation) {
				continue
			}
			score := 0
			if nb == from[k] {
				score += 1 << 20
			}
			if c, ok := t.m.CityAt(nb); ok && t.cityState(c.Name).Controller == f.Nation {
				score += 1 << 19
			}
			if score > bestScore || (score == bestScore && nb.Less(best)) {
				best, bestScore = nb, score
			}
		}
		if bestScore < 0 {
			br := BattleRetreat{Force: f.ID, Blocked: true}
			if capture {
				br.Captured, br.Figures = true, f.Figures()
				br.Generals = leadersLost([]*game.Force{f}, battle.Captured)
				t.remove(f.ID)
			}
			out = append(out, br)
			continue
		}
		t.setAt(f, game.AtHex(best))
		f.Since = t.number + 1
		out = append(out, BattleRetreat{Force: f.ID, To: best})
	}
	return out
}
