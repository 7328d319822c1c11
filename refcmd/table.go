package refcmd

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
)

// The referee's table. BATTLE hex TABLE asks for a battle of the turn to be
// fought on the referee's table in a game whose battles the model fights
// otherwise (with game.battles: table, every battle is); the daemon mails
// the battle's sheet when the turn is due, and the referee answers with a
// RESULT mail (docs/turns.md, "Tabletop battles"):
//
//	RESULT 0502
//	OUTCOME decisive          (decisive, repulse, both-repulsed, withdrew)
//	WINNER eisenmark          (a nation of the winning side; NONE for both-repulsed)
//	LOSSES E1 infantry C KILLED 4 ROUTED 2 SURROUNDED 0
//	HITS eisenmark infantry C 6
//	GENERAL Saxe KILLED TURN 9   (id or name; KILLED, WOUNDED, CAPTURED; TURN n [DAY n]: when, for the narrative)
//	GUNS F1 field-gun LOST 2     (guns of the losing side taken on the field; the winner takes them)
//	DAYS 2                       (V4 only: the days the battle lasted; 1 when left out)
//	END
//
// ParseResult reads it line by line against the battle it names; the lines
// whose meaning depends on others (GENERAL ... TURN with DAYS, GUNS with
// WINNER) are gathered in a resultLater and checked and applied at the end,
// each error still under its own line. The result is a battle.Result of the
// same shape as a model's: the engine applies it through the same
// post-battle rules.

// TableBattle asks for the battle in Hex this turn to be fought on the
// referee's table (in a game whose battles are otherwise fought by the
// model).
type TableBattle struct {
	Line int
	Hex  game.Hex
}

// tableKinds are this family's kinds.
var tableKinds = []Kind{
	{Verb: "battle", Keyword: "BATTLE", Family: "table", Zero: TableBattle{}, Parse: parseTableBattle, Example: "BATTLE 0502 TABLE"},
}

// BATTLE hex TABLE
func parseTableBattle(r *parser.Reader, at Reading) Command {
	it := r.Next()
	h, err := game.ParseHex(it.Val)
	if it.Type != parser.TokenNumber || err != nil {
		r.Expected(it, "the battle's hex, such as 0502", "Write BATTLE hex TABLE.")
	}
	r.Keyword("Write BATTLE hex TABLE.", "TABLE")
	return TableBattle{Line: at.Line, Hex: h}
}

// Verb returns "battle".
func (TableBattle) Verb() string { return "battle" }

// SourceLine returns the mail line the TableBattle command was read from.
func (c TableBattle) SourceLine() int { return c.Line }

// Format prints "BATTLE hex TABLE".
func (c TableBattle) Format(*parser.Vocabulary) string { return "BATTLE " + c.Hex.String() + " TABLE" }

// IsResult reports whether a referee's mail is a tabletop RESULT: its
// first line, after the referee's PASSWORD line and the GAME line, begins
// with RESULT.
func IsResult(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(strings.TrimLeft(l, "> "))
		if len(f) == 0 {
			continue
		}
		if strings.EqualFold(f[0], "PASSWORD") || strings.EqualFold(f[0], "GAME") {
			continue // the referee's password line, the game line
		}
		return strings.EqualFold(f[0], "RESULT")
	}
	return false
}

// ParseResult reads a RESULT block against the battle it names, among the
// turn's land battles lbs, in the edition r. It returns the result, or the
// errors: each "line n: "the line": what is wrong", and those that need
// every line to see.
func ParseResult(text string, st *engine.State, lbs []engine.LandBattle, r *ruleset.Ruleset) (engine.TabletopBattle, []string) {
	rr := &resultReader{st: st, lbs: lbs, r: r}
	rr.tb.Result.Winner = -2
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		line := strings.TrimSpace(strings.TrimLeft(raw, "> "))
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(line, "#") {
			continue
		}
		kw := strings.ToUpper(f[0])
		if kw == "END" {
			break
		}
		if rr.lb == nil && kw != "RESULT" {
			continue
		}
		if kw == "RESULT" {
			if msg := rr.readResult(f); msg != "" {
				return rr.tb, append(rr.errs, fmt.Sprintf("line %d: %q: %s", n, line, msg))
			}
			continue
		}
		read := resultLines[kw]
		if read == nil {
			read = func(*resultReader, []string, int) []string {
				return []string{"expected OUTCOME, WINNER, LOSSES, HITS, GENERAL, GUNS, DAYS or END"}
			}
		}
		for _, msg := range read(rr, f, n) {
			rr.errs = append(rr.errs, fmt.Sprintf("line %d: %q: %s", n, line, msg))
		}
	}
	return rr.finish()
}

// resultReader is a RESULT block being read: the battle it names (lb, nil
// before the RESULT line), the result so far, the errors by line.
type resultReader struct {
	st    *engine.State
	lbs   []engine.LandBattle
	r     *ruleset.Ruleset
	lb    *engine.LandBattle
	tb    engine.TabletopBattle
	later resultLater
	errs  []string
}

// resultLines are the readers of the lines after RESULT, by keyword: each
// returns what is wrong with its line (nothing when it is right).
var resultLines = map[string]func(rr *resultReader, f []string, n int) []string{
	"OUTCOME": func(rr *resultReader, f []string, _ int) []string { return one(rr.readOutcome(f)) },
	"WINNER":  func(rr *resultReader, f []string, _ int) []string { return one(rr.readWinner(f)) },
	"LOSSES":  func(rr *resultReader, f []string, _ int) []string { return rr.readLosses(f) },
	"HITS":    func(rr *resultReader, f []string, _ int) []string { return one(rr.readHits(f)) },
	"GENERAL": func(rr *resultReader, f []string, n int) []string {
		return one(rr.later.readGeneral(f, n, rr.st, rr.lb, rr.side))
	},
	"GUNS": func(rr *resultReader, f []string, n int) []string {
		return one(rr.later.readGuns(f, n, rr.st, rr.lb, rr.side))
	},
	"DAYS": func(rr *resultReader, f []string, n int) []string { return one(rr.later.readDays(f, n, rr.r, rr.lb)) },
}

// one is a message as a list: none for "".
func one(msg string) []string {
	if msg == "" {
		return nil
	}
	return []string{msg}
}

// side is the side of the battle a nation fought on (-1: neither).
func (rr *resultReader) side(n game.NationID) int {
	for i, sd := range rr.lb.Sides {
		for _, x := range sd.Nations {
			if x == n {
				return i
			}
		}
	}
	return -1
}

// readResult reads RESULT hex: the battle the block is about. An error
// ends the reading.
func (rr *resultReader) readResult(f []string) string {
	if len(f) != 2 {
		return "expected RESULT and the battle's hex, such as RESULT 0502"
	}
	h, err := game.ParseHex(f[1])
	if err == nil {
		for j := range rr.lbs {
			if rr.lbs[j].Hex == h {
				rr.lb = &rr.lbs[j]
			}
		}
	}
	if rr.lb == nil {
		var open []string
		for _, b := range rr.lbs {
			open = append(open, b.Hex.String())
		}
		return fmt.Sprintf("no battle at %s this turn; the battles are at %s", f[1], strings.Join(open, ", "))
	}
	rr.tb.Hex, rr.tb.Nations = rr.lb.Hex, rr.lb.Sides[0].Nations
	rr.tb.Result.Days, rr.tb.Result.Turns, rr.tb.Result.Model, rr.tb.Result.Turning = 1, 1, "tabletop", -1
	return ""
}

// readOutcome reads OUTCOME decisive|repulse|both-repulsed|withdrew.
func (rr *resultReader) readOutcome(f []string) string {
	o := ""
	if len(f) == 2 {
		o = strings.ToLower(f[1])
	}
	switch o {
	case battle.Decisive, battle.Repulse, battle.BothRepulsed, battle.Withdrew:
		rr.tb.Result.Outcome = o
		return ""
	}
	return "expected OUTCOME decisive, repulse, both-repulsed or withdrew"
}

// readWinner reads WINNER nation|NONE.
func (rr *resultReader) readWinner(f []string) string {
	if len(f) != 2 {
		return "expected WINNER and a nation of the winning side, or NONE"
	}
	if strings.EqualFold(f[1], "NONE") {
		rr.tb.Result.Winner = -1
		return ""
	}
	if s := rr.side(game.NationID(strings.ToLower(f[1]))); s >= 0 {
		rr.tb.Result.Winner = s
		return ""
	}
	lb := rr.lb
	return fmt.Sprintf("%s fought on neither side (%s; %s)", f[1], joinNations(lb.Sides[0].Nations), joinNations(lb.Sides[1].Nations))
}

// readLosses reads LOSSES force arm grade, then KILLED n, ROUTED n,
// SURROUNDED n or HALF n.
func (rr *resultReader) readLosses(f []string) (msgs []string) {
	if len(f) < 4 || len(f)%2 != 0 {
		return one("expected LOSSES force arm grade, then KILLED n, ROUTED n, SURROUNDED n or HALF n")
	}
	fo, _ := rr.st.Force(game.ForceID(strings.ToUpper(f[1])))
	arm, aerr := game.ParseArm(f[2])
	grade, gerr := game.ParseGrade(f[3])
	switch {
	case fo == nil:
		return one(fmt.Sprintf("no force %s in the battle", f[1]))
	case aerr != nil:
		return one(aerr.Error())
	case gerr != nil:
		return one(gerr.Error())
	}
	s := rr.side(fo.Nation)
	if s < 0 {
		return one(fmt.Sprintf("%s (%s) fought on neither side", fo.ID, fo.Nation))
	}
	c := battle.Casualties{Nation: fo.Nation, Force: fo.ID, Arm: arm, Grade: grade}
	for k := 4; k+1 < len(f); k += 2 {
		v, err := strconv.Atoi(f[k+1])
		if err != nil || v < 0 {
			msgs = append(msgs, fmt.Sprintf("expected a number of figures after %s, read %q", f[k], f[k+1]))
			break
		}
		switch strings.ToUpper(f[k]) {
		case "KILLED":
			c.Killed = v
		case "ROUTED":
			c.Routed = v
		case "SURROUNDED":
			c.Surrounded = v
		case "HALF":
			c.HalfStrength = v
		default:
			msgs = append(msgs, fmt.Sprintf("expected KILLED, ROUTED, SURROUNDED or HALF, read %q", f[k]))
		}
	}
	rr.tb.Result.Sides[s].Losses = append(rr.tb.Result.Sides[s].Losses, c)
	return msgs
}

// readHits reads HITS nation arm grade n.
func (rr *resultReader) readHits(f []string) string {
	if len(f) != 5 {
		return "expected HITS nation arm grade n"
	}
	nat := game.NationID(strings.ToLower(f[1]))
	arm, aerr := game.ParseArm(f[2])
	grade, gerr := game.ParseGrade(f[3])
	v, verr := strconv.Atoi(f[4])
	s := rr.side(nat)
	switch {
	case s < 0:
		return fmt.Sprintf("%s fought on neither side", f[1])
	case aerr != nil || gerr != nil || verr != nil || v < 0:
		return "expected HITS nation arm grade n, such as HITS eisenmark infantry C 6"
	}
	rr.tb.Result.Sides[s].Hits = append(rr.tb.Result.Sides[s].Hits, battle.Hits{Nation: nat, Arm: arm, Grade: grade, Hits: v})
	return ""
}

// finish checks what needs every line: a RESULT line, the GENERAL, GUNS
// and DAYS lines together, an OUTCOME and a WINNER.
func (rr *resultReader) finish() (engine.TabletopBattle, []string) {
	tb, errs := rr.tb, rr.errs
	if rr.lb == nil {
		return tb, append(errs, "no RESULT line: write RESULT and the battle's hex first")
	}
	errs = append(errs, rr.later.apply(&tb.Result)...)
	if tb.Result.Outcome == "" {
		errs = append(errs, "no OUTCOME line")
	}
	if tb.Result.Winner == -2 {
		errs = append(errs, "no WINNER line")
	}
	if tb.Result.Outcome != "" && tb.Result.Winner >= -1 {
		tb.Result.Broken[0] = tb.Result.Outcome == battle.Decisive && tb.Result.Winner == 1
		tb.Result.Broken[1] = tb.Result.Outcome == battle.Decisive && tb.Result.Winner == 0
	}
	return tb, errs
}

// resultLater holds the GENERAL, GUNS and DAYS lines read, applied to the
// result once every line is in.
type resultLater struct {
	generals []generalLine
	guns     []gunsLine
	days     int // 0: no DAYS line (one day)
	daysLine int
}

type generalLine struct {
	line, side int
	fate       battle.GeneralFate
	turn, day  int // 0: not given
}

type gunsLine struct {
	line, side int
	lost       battle.GunsLost
}

// fates maps the GENERAL line's words to the fates.
var fates = map[string]string{"KILLED": battle.Killed, "WOUNDED": battle.Wounded, "CAPTURED": battle.Captured}

// battleGeneral is a general of a force in the battle.
type battleGeneral struct {
	side   int
	nation game.NationID
	force  game.ForceID
	leader game.Leader
}

// battleGenerals lists the generals of the battle's forces, side by side
// in the battle's force order.
func battleGenerals(st *engine.State, lb *engine.LandBattle) []battleGeneral {
	var out []battleGeneral
	for s, sd := range lb.Sides {
		for _, id := range sd.Forces {
			f, _ := st.Force(id)
			if f == nil {
				continue
			}
			for _, l := range f.Leaders {
				if l.Role == game.General {
					out = append(out, battleGeneral{side: s, nation: f.Nation, force: f.ID, leader: l})
				}
			}
		}
	}
	return out
}

// readGeneral reads GENERAL who KILLED|WOUNDED|CAPTURED [TURN n] [DAY n]: who is
// the general's id (as in orders), his name as printed, or the id of a
// force with one general.
func (rl *resultLater) readGeneral(f []string, n int, st *engine.State, lb *engine.LandBattle, side func(game.NationID) int) string {
	const want = "expected GENERAL, the general's id or name, then KILLED, WOUNDED or CAPTURED (and, for the narrative, TURN n: the tabletop turn), such as GENERAL Keith KILLED TURN 7"
	k := slices.IndexFunc(f, func(w string) bool { return fates[strings.ToUpper(w)] != "" })
	if k < 2 {
		return want
	}
	who := strings.Join(f[1:k], " ")
	gens := battleGenerals(st, lb)
	var found []battleGeneral
	for _, match := range []func(battleGeneral) bool{
		func(g battleGeneral) bool { return strings.EqualFold(g.leader.ID, who) },
		func(g battleGeneral) bool { return strings.EqualFold(g.leader.Name, who) },
		func(g battleGeneral) bool { return strings.EqualFold(string(g.force), who) },
	} {
		for _, g := range gens {
			if match(g) {
				found = append(found, g)
			}
		}
		if len(found) > 0 {
			break
		}
	}
	switch {
	case len(gens) == 0:
		return fmt.Sprintf("no general %q: no force in this battle has a general", who)
	case len(found) == 0:
		var names []string
		for _, g := range gens {
			names = append(names, fmt.Sprintf("%s (%s, %s)", g.leader.ID, g.leader.Name, g.force))
		}
		return fmt.Sprintf("no general %q in this battle; its generals are %s: write one's id or name", who, strings.Join(names, "; "))
	case len(found) > 1:
		return fmt.Sprintf("%q names %d generals (%s has more than one): write the general's id instead", who, len(found), found[0].force)
	}
	g := found[0]
	if side(g.nation) < 0 {
		return fmt.Sprintf("%s (%s) fought on neither side", g.leader.ID, g.nation)
	}
	for _, o := range rl.generals {
		if o.fate.ID == g.leader.ID {
			return fmt.Sprintf("%s's fate is already given on line %d: give each general's fate once, the worst that befell him", g.leader.ID, o.line)
		}
	}
	gl := generalLine{line: n, side: g.side, fate: battle.GeneralFate{Nation: g.nation, Force: g.force, ID: g.leader.ID, Name: g.leader.Name,
		Fate: fates[strings.ToUpper(f[k])]}}
	rest := f[k+1:]
	for len(rest) > 0 {
		w := strings.ToUpper(rest[0])
		if (w != "TURN" && w != "DAY") || len(rest) < 2 {
			return fmt.Sprintf("expected TURN n or DAY n after the fate, read %q", strings.Join(rest, " "))
		}
		v, err := strconv.Atoi(rest[1])
		switch {
		case w == "TURN" && (err != nil || v < 1 || v > 16):
			return fmt.Sprintf("expected the tabletop turn he was struck, 1 to 16, after TURN, read %q", rest[1])
		case w == "TURN":
			gl.turn = v
		case err != nil || v < 1:
			return fmt.Sprintf("expected the day of battle he was struck, 1 or more, after DAY, read %q", rest[1])
		default:
			gl.day = v
		}
		rest = rest[2:]
	}
	if gl.day > 0 && gl.turn == 0 {
		return "DAY without TURN: write the tabletop turn too, such as TURN 7 DAY 2"
	}
	rl.generals = append(rl.generals, gl)
	return ""
}

// readGuns reads GUNS force [kind] LOST n: guns of the force taken on the
// field. The kind may be left out when the force has guns of one kind.
func (rl *resultLater) readGuns(f []string, n int, st *engine.State, lb *engine.LandBattle, side func(game.NationID) int) string {
	const want = "expected GUNS force [gun kind] LOST n, such as GUNS F1 field-gun LOST 2"
	if len(f) == 4 || len(f) == 5 {
		if strings.EqualFold(f[len(f)-2], "CAPTURED") {
			return fmt.Sprintf("write the guns the force lost, GUNS %s LOST %s: the rules give them to the winner (\"deemed Captured by the Winner\"), into his senior general's force", f[1], f[len(f)-1])
		}
	}
	if (len(f) != 4 && len(f) != 5) || !strings.EqualFold(f[len(f)-2], "LOST") {
		return want
	}
	id := game.ForceID(strings.ToUpper(f[1]))
	fo, _ := st.Force(id)
	s := -1
	if fo != nil {
		for i, sd := range lb.Sides {
			if slices.Contains(sd.Forces, id) {
				s = i
			}
		}
	}
	if s < 0 || side(fo.Nation) != s {
		return fmt.Sprintf("no force %s in the battle", f[1])
	}
	had := map[game.GunKind]int{}
	var kinds []string
	for _, g := range fo.Guns {
		if g.Count > 0 && had[g.Kind] == 0 {
			kinds = append(kinds, g.Kind.String())
		}
		had[g.Kind] += g.Count
	}
	var kind game.GunKind
	if len(f) == 5 {
		k, err := game.ParseGunKind(f[2])
		if err != nil {
			return err.Error()
		}
		kind = k
	} else {
		switch len(kinds) {
		case 0:
			return fmt.Sprintf("%s brought no guns to the battle", fo.ID)
		case 1:
			kind, _ = game.ParseGunKind(kinds[0])
		default:
			return fmt.Sprintf("%s has %s: name the kind, such as GUNS %s %s LOST 1", fo.ID, strings.Join(kinds, " and "), fo.ID, kinds[0])
		}
	}
	v, err := strconv.Atoi(f[len(f)-1])
	if err != nil || v < 1 || v > had[kind] {
		return fmt.Sprintf("expected the %s models %s lost, 1 to %d, read %q", kind, fo.ID, had[kind], f[len(f)-1])
	}
	for _, o := range rl.guns {
		if o.lost.Force == fo.ID && o.lost.Kind == kind {
			return fmt.Sprintf("%s's %s lost are already given on line %d: give them once, in all", fo.ID, kind, o.line)
		}
	}
	rl.guns = append(rl.guns, gunsLine{line: n, side: s, lost: battle.GunsLost{Nation: fo.Nation, Force: fo.ID, Kind: kind, Count: v}})
	return ""
}

// readDays reads DAYS n (V4): the days the battle lasted, each 1/6 of a move.
func (rl *resultLater) readDays(f []string, n int, r *ruleset.Ruleset, lb *engine.LandBattle) string {
	if !r.LandBattles.MultiDay {
		return fmt.Sprintf("this game plays %s, where a battle is fought in one day (multi-day battles are V4's): leave the DAYS line out", r.Name)
	}
	room := engine.BattleDaysRoom(r, lb.Tick)
	if len(f) != 2 {
		return fmt.Sprintf("expected DAYS and the days the battle lasted, 1 to %d, such as DAYS 2", room)
	}
	v, err := strconv.Atoi(f[1])
	switch {
	case rl.daysLine > 0:
		return fmt.Sprintf("the days are already given on line %d", rl.daysLine)
	case err != nil || v < 1:
		return fmt.Sprintf("expected DAYS and the days the battle lasted, 1 to %d, read %q", room, f[1])
	case v > room:
		return fmt.Sprintf("this battle may last 1 to %d days (at most %d in %s, and one day is 1/6 of a move: the turn had %d sixths left when it began)",
			room, r.LandBattles.MaxDays, r.Name, (engine.TicksPerTurn-lb.Tick)*max(r.Overrun.BattleFraction, 1)/engine.TicksPerTurn)
	}
	rl.days, rl.daysLine = v, n
	return ""
}

// apply puts the gathered lines into the result, with the errors that
// needed every line to see.
func (rl *resultLater) apply(res *battle.Result) []string {
	var errs []string
	if rl.days > 0 {
		res.Days = rl.days
	}
	for _, g := range rl.guns {
		if res.Winner == g.side {
			errs = append(errs, fmt.Sprintf("line %d: %s's side won the battle, and a winner recovers its own overrun guns: leave the line out", g.line, g.lost.Force))
			continue
		}
		res.Sides[g.side].GunsLost = append(res.Sides[g.side].GunsLost, g.lost)
	}
	var moments []battle.Moment
	for _, g := range rl.generals {
		day := g.day
		if day == 0 {
			day = max(1, res.Days)
		}
		if day > max(1, res.Days) {
			errs = append(errs, fmt.Sprintf("line %d: DAY %d, but the battle lasted %s: correct the DAY or the DAYS line", g.line, day, english.Count(max(1, res.Days), "day")))
			continue
		}
		res.Sides[g.side].Generals = append(res.Sides[g.side].Generals, g.fate)
		if g.turn > 0 {
			moments = append(moments, battle.Moment{Day: day, Turn: g.turn, Side: g.side, What: battle.MGeneral, Nation: g.fate.Nation,
				General: g.fate.Name, Outcome: g.fate.Fate})
		}
	}
	slices.SortStableFunc(moments, func(a, b battle.Moment) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Turn, b.Turn))
	})
	res.Moments = append(res.Moments, moments...)
	return errs
}

// joinNations lists nation IDs with commas.
func joinNations(ns []game.NationID) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return strings.Join(out, ", ")
}
