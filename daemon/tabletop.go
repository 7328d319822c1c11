package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/store"
)

// Tabletop battles. With game.battles: table, a due turn stops at its land
// battles: the turn is resolved on trial (nothing saved), and for each land
// battle that has no result from the referee yet, the referee is mailed a
// battle sheet (the LandBattle event's setup: hex, terrain, city, weather,
// each side's nations, stance, commander and experience, fieldworks, city,
// setup and terrain advantages, supply; and each side's forces formed into
// units by battle.FormUnits, exhausted and unsupplied figures marked). The
// turn waits. The referee answers with a RESULT block (below), checked line
// by line like an order sheet and stored; the trial is run again with it
// (engine.Input.Battles), and an answer the engine refuses for that battle
// (TabletopRefused) is refused to the referee with the engine's reason.
// When every battle has its result the turn resolves with them. A battle
// left unanswered for game.battle_wait_hours is fought by the model, after
// the referee is told.
//
//	RESULT 0502
//	OUTCOME decisive          (decisive, repulse, both-repulsed, withdrew)
//	WINNER eisenmark          (a nation of the winning side; NONE for both-repulsed)
//	LOSSES E1 infantry C KILLED 4 ROUTED 2 SURROUNDED 0
//	HITS eisenmark infantry C 6
//	END

// Submission kinds: a stored tabletop result (CanonicalText: the
// engine.TabletopBattle JSON; ReceiptHash: the hex), and the referee's
// BATTLE hex TABLE (ReceiptHash: the hex).
const (
	KindTabletop    = "tabletop"
	KindTabletopAsk = "tabletop-ask"
)

// Outbox kinds of the tabletop mails.
const (
	MailBattleSheet = "battle-sheet" // a battle sheet to the referee
	MailBattleAuto  = "battle-auto"  // the model fights a battle left unanswered
)

func tabletopMetaKey(gameID, what string, turn int, hex game.Hex) string {
	return fmt.Sprintf("tabletop-%s:%s:%d:%s", what, gameID, turn, hex)
}

// tabletopResults returns the referee's results stored for a turn, the last
// one per hex, in hex order of arrival.
func (g *Game) tabletopResults(ctx context.Context, turn int) ([]engine.TabletopBattle, error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	last := map[string]int{}
	for i, s := range subs {
		if s.Kind == KindTabletop && s.Valid {
			last[s.ReceiptHash] = i
		}
	}
	var out []engine.TabletopBattle
	for i, s := range subs {
		if s.Kind != KindTabletop || !s.Valid || last[s.ReceiptHash] != i {
			continue
		}
		var tb engine.TabletopBattle
		if err := json.Unmarshal([]byte(s.CanonicalText), &tb); err != nil {
			return nil, fmt.Errorf("stored tabletop result %d: %w", s.ID, err)
		}
		out = append(out, tb)
	}
	return out, nil
}

// trialBattles resolves the open turn on trial with extra (besides the
// stored results) and returns its land battles and tabletop refusals.
func (g *Game) trialBattles(ctx context.Context, extra []engine.TabletopBattle) (*engine.State, []engine.LandBattle, []engine.TabletopRefused, error) {
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := g.decoded(rec)
	if err != nil {
		return nil, nil, nil, err
	}
	in, err := g.turnInput(ctx, st.Clone(), st.Turn)
	if err != nil {
		return nil, nil, nil, err
	}
	in.Battles = append(in.Battles, extra...)
	res, err := engine.Resolve(in)
	if err != nil {
		return nil, nil, nil, err
	}
	var lbs []engine.LandBattle
	var refused []engine.TabletopRefused
	for _, e := range res.Events {
		switch x := e.(type) {
		case *engine.LandBattle:
			lbs = append(lbs, *x)
		case *engine.TabletopRefused:
			refused = append(refused, *x)
		}
	}
	return st, lbs, refused, nil
}

// tabletopWait is turnDue's hook for a due turn in a game fought on the
// table: it mails the sheets of battles still without a result (once), has
// the model fight those left unanswered too long (telling the referee), and
// reports whether the turn must wait.
func (g *Game) tabletopWait(ctx context.Context) (bool, error) {
	all := g.Config.Game.Battles == "table"
	asked := map[string]bool{}
	if !all {
		rec, err := g.DB.LatestTurn(ctx, g.ID())
		if err != nil {
			return false, err
		}
		subs, err := g.DB.Submissions(ctx, g.ID(), rec.Turn+1)
		if err != nil {
			return false, err
		}
		for _, s := range subs {
			if s.Kind == KindTabletopAsk && s.Valid {
				asked[s.ReceiptHash] = true
			}
		}
		if len(asked) == 0 {
			return false, nil
		}
	}
	st, lbs, _, err := g.trialBattles(ctx, nil)
	if err != nil {
		return false, err
	}
	wait := false
	now := g.Now().UTC()
	for _, b := range lbs {
		if b.Model == "tabletop" || !all && !asked[b.Hex.String()] {
			continue
		}
		if _, auto, err := g.DB.GetMeta(ctx, tabletopMetaKey(g.ID(), "auto", st.Turn, b.Hex)); err != nil || auto {
			if err != nil {
				return false, err
			}
			continue
		}
		sentRaw, sent, err := g.DB.GetMeta(ctx, tabletopMetaKey(g.ID(), "sent", st.Turn, b.Hex))
		if err != nil {
			return false, err
		}
		label := st.Calendar.Label(st.Turn)
		if !sent {
			msg := g.message(MailBattleSheet, "referee", st.Turn, b.Hex.String(), []string{g.Config.Game.Referee},
				fmt.Sprintf("[%s] %s: battle at %s to fight on the table", g.ID(), label, b.Hex), g.battleSheet(st, b), now)
			if err := g.DB.Update(ctx, func(tx *store.Tx) error {
				if err := g.enqueue(ctx, tx, msg); err != nil {
					return err
				}
				return tx.SetMeta(ctx, tabletopMetaKey(g.ID(), "sent", st.Turn, b.Hex), now.Format(time.RFC3339Nano))
			}); err != nil {
				return false, err
			}
			g.Log.Info("battle sheet mailed to the referee; the turn waits for the result", "turn", st.Turn, "hex", b.Hex)
			wait = true
			continue
		}
		at, _ := time.Parse(time.RFC3339Nano, sentRaw)
		limit := time.Duration(g.Config.Game.BattleWaitHours) * time.Hour
		if limit <= 0 || now.Sub(at) < limit {
			wait = true
			continue
		}
		msg := g.message(MailBattleAuto, "referee", st.Turn, b.Hex.String(), []string{g.Config.Game.Referee},
			fmt.Sprintf("[%s] %s: the battle at %s is fought by the model", g.ID(), label, b.Hex),
			fmt.Sprintf("No result came for the battle at %s within %d hours of its sheet (game.battle_wait_hours).\n"+
				"The engine's model fights it, and the turn is resolved. To put your result in its place later: ROLLBACK %d,\n"+
				"send the RESULT, then RERUN %d.\n",
				b.Hex, g.Config.Game.BattleWaitHours, st.Turn, st.Turn), now)
		if err := g.DB.Update(ctx, func(tx *store.Tx) error {
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
			return tx.SetMeta(ctx, tabletopMetaKey(g.ID(), "auto", st.Turn, b.Hex), now.Format(time.RFC3339Nano))
		}); err != nil {
			return false, err
		}
		g.Log.Warn("no tabletop result in time; the model fights the battle", "turn", st.Turn, "hex", b.Hex)
	}
	return wait, nil
}

// battleSheet is the text of a battle's sheet for the referee.
func (g *Game) battleSheet(st *engine.State, b engine.LandBattle) string {
	var s strings.Builder
	fmt.Fprintf(&s, "Battle at %s (%s)", b.Hex, b.Terrain)
	if b.City != "" {
		fmt.Fprintf(&s, ", city of %s", b.City)
	}
	fmt.Fprintf(&s, ", %s, weather %s.\n", b.Date, b.Weather)
	for i, sd := range b.Sides {
		fmt.Fprintf(&s, "\nSide %d: %s, %s", i+1, joinNations(sd.Nations), sd.Stance)
		if sd.Commander != "" {
			fmt.Fprintf(&s, "; commander %s (%s), experience %d", sd.Commander, sd.CommanderNation, sd.CommanderXP)
			if sd.Genius {
				s.WriteString(", a genius")
			}
		}
		s.WriteString("\n")
		fmt.Fprintf(&s, "  fieldworks %d in, in the city %v, setup advantage %d, terrain advantage %d, unsupplied %v\n",
			sd.Fieldworks, sd.InCity, sd.Advantage, sd.TerrainAdvantage, sd.Unsupplied)
		for _, id := range sd.Forces {
			f, _ := st.Force(id)
			if f == nil {
				fmt.Fprintf(&s, "  %s (formed this turn: see the referee's report)\n", id)
				continue
			}
			fmt.Fprintf(&s, "  %s (%s)", f.ID, f.Nation)
			for _, l := range f.Leaders {
				fmt.Fprintf(&s, "; %s %s, experience %d", l.Role, l.Name, l.Experience)
			}
			if f.Unsupplied {
				s.WriteString("; UNSUPPLIED")
			}
			s.WriteString("\n")
			var traits game.Traits
			if nat, ok := g.Map.Nation(f.Nation); ok {
				traits = nat.Traits
			}
			for _, u := range battle.FormUnits(g.Rules, f, traits) {
				fmt.Fprintf(&s, "    unit %-10s %s %s, %d figures", u.ID, u.Arm, u.Grade, u.Figures)
				if u.Guns > 0 {
					fmt.Fprintf(&s, ", %d %s guns", u.Guns, u.GunKind)
				}
				if u.Tired {
					s.WriteString(", tired (exhausted or unsupplied)")
				}
				s.WriteString("\n")
			}
		}
	}
	fmt.Fprintf(&s, "\nFight it on the table, then reply with the result (docs/turns.md, \"Tabletop battles\"):\n\n"+
		"RESULT %s\nOUTCOME decisive\nWINNER %s\nLOSSES force arm grade KILLED n ROUTED n SURROUNDED n\nHITS nation arm grade n\nEND\n",
		b.Hex, firstNation(b.Sides[0].Nations))
	return s.String()
}

func joinNations(ns []game.NationID) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return strings.Join(out, ", ")
}

func firstNation(ns []game.NationID) game.NationID {
	if len(ns) == 0 {
		return ""
	}
	return ns[0]
}

// isResultMail reports whether a referee's mail is a tabletop RESULT.
func isResultMail(text string) bool {
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

// parseResult reads a RESULT block against the battle it names. Errors
// come by line.
func parseResult(text string, st *engine.State, lbs []engine.LandBattle) (engine.TabletopBattle, []string) {
	var tb engine.TabletopBattle
	var errs []string
	var lb *engine.LandBattle
	fail := func(n int, line, msg string) { errs = append(errs, fmt.Sprintf("line %d: %q: %s", n, line, msg)) }
	side := func(n game.NationID) int {
		for i, sd := range lb.Sides {
			for _, x := range sd.Nations {
				if x == n {
					return i
				}
			}
		}
		return -1
	}
	tb.Result.Winner = -2
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
		if lb == nil && kw != "RESULT" {
			continue
		}
		switch kw {
		case "RESULT":
			if len(f) != 2 {
				fail(n, line, "expected RESULT and the battle's hex, such as RESULT 0502")
				return tb, errs
			}
			h, err := game.ParseHex(f[1])
			if err == nil {
				for j := range lbs {
					if lbs[j].Hex == h {
						lb = &lbs[j]
					}
				}
			}
			if lb == nil {
				var open []string
				for _, b := range lbs {
					open = append(open, b.Hex.String())
				}
				fail(n, line, fmt.Sprintf("no battle at %s this turn; the battles are at %s", f[1], strings.Join(open, ", ")))
				return tb, errs
			}
			tb.Hex, tb.Nations = lb.Hex, lb.Sides[0].Nations
			tb.Result.Days, tb.Result.Turns, tb.Result.Model, tb.Result.Turning = 1, 1, "tabletop", -1
		case "OUTCOME":
			o := ""
			if len(f) == 2 {
				o = strings.ToLower(f[1])
			}
			switch o {
			case battle.Decisive, battle.Repulse, battle.BothRepulsed, battle.Withdrew:
				tb.Result.Outcome = o
			default:
				fail(n, line, "expected OUTCOME decisive, repulse, both-repulsed or withdrew")
			}
		case "WINNER":
			if len(f) != 2 {
				fail(n, line, "expected WINNER and a nation of the winning side, or NONE")
				continue
			}
			if strings.EqualFold(f[1], "NONE") {
				tb.Result.Winner = -1
				continue
			}
			if s := side(game.NationID(strings.ToLower(f[1]))); s >= 0 {
				tb.Result.Winner = s
			} else {
				fail(n, line, fmt.Sprintf("%s fought on neither side (%s; %s)", f[1], joinNations(lb.Sides[0].Nations), joinNations(lb.Sides[1].Nations)))
			}
		case "LOSSES":
			if len(f) < 4 || len(f)%2 != 0 {
				fail(n, line, "expected LOSSES force arm grade, then KILLED n, ROUTED n, SURROUNDED n or HALF n")
				continue
			}
			fo, _ := st.Force(game.ForceID(strings.ToUpper(f[1])))
			arm, aerr := game.ParseArm(f[2])
			grade, gerr := game.ParseGrade(f[3])
			switch {
			case fo == nil:
				fail(n, line, fmt.Sprintf("no force %s in the battle", f[1]))
				continue
			case aerr != nil:
				fail(n, line, aerr.Error())
				continue
			case gerr != nil:
				fail(n, line, gerr.Error())
				continue
			}
			s := side(fo.Nation)
			if s < 0 {
				fail(n, line, fmt.Sprintf("%s (%s) fought on neither side", fo.ID, fo.Nation))
				continue
			}
			c := battle.Casualties{Nation: fo.Nation, Force: fo.ID, Arm: arm, Grade: grade}
			for k := 4; k+1 < len(f); k += 2 {
				v, err := strconv.Atoi(f[k+1])
				if err != nil || v < 0 {
					fail(n, line, fmt.Sprintf("expected a number of figures after %s, read %q", f[k], f[k+1]))
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
					fail(n, line, fmt.Sprintf("expected KILLED, ROUTED, SURROUNDED or HALF, read %q", f[k]))
				}
			}
			tb.Result.Sides[s].Losses = append(tb.Result.Sides[s].Losses, c)
		case "HITS":
			if len(f) != 5 {
				fail(n, line, "expected HITS nation arm grade n")
				continue
			}
			nat := game.NationID(strings.ToLower(f[1]))
			arm, aerr := game.ParseArm(f[2])
			grade, gerr := game.ParseGrade(f[3])
			v, verr := strconv.Atoi(f[4])
			s := side(nat)
			switch {
			case s < 0:
				fail(n, line, fmt.Sprintf("%s fought on neither side", f[1]))
			case aerr != nil || gerr != nil || verr != nil || v < 0:
				fail(n, line, "expected HITS nation arm grade n, such as HITS eisenmark infantry C 6")
			default:
				tb.Result.Sides[s].Hits = append(tb.Result.Sides[s].Hits, battle.Hits{Nation: nat, Arm: arm, Grade: grade, Hits: v})
			}
		default:
			fail(n, line, "expected OUTCOME, WINNER, LOSSES, HITS or END")
		}
	}
	if lb == nil {
		return tb, append(errs, "no RESULT line: write RESULT and the battle's hex first")
	}
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

// tabletopResultLines checks a referee's RESULT mail and, when it fits the
// battle, returns the submission to store. The lines are the answer.
func (g *Game) tabletopResultLines(ctx context.Context, text string, mailID int64, now time.Time) ([]string, *store.Submission, error) {
	st, lbs, _, err := g.trialBattles(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	tb, errs := parseResult(text, st, lbs)
	if len(errs) > 0 {
		return append(errs, "Nothing was recorded: correct the lines and send the RESULT again."), nil, nil
	}
	_, _, refused, err := g.trialBattles(ctx, []engine.TabletopBattle{tb})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range refused {
		if r.Hex == tb.Hex {
			return []string{fmt.Sprintf("The result does not fit the battle at %s: %s. Nothing was recorded.", tb.Hex, r.Reason)}, nil, nil
		}
	}
	js, err := json.Marshal(tb)
	if err != nil {
		return nil, nil, err
	}
	// The text from the RESULT line on: the referee's PASSWORD line is not kept.
	raw := text
	if i := strings.Index(strings.ToUpper(raw), "RESULT"); i >= 0 {
		raw = raw[i:]
	}
	sub := store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: "referee", Kind: KindTabletop, MailID: mailID,
		RawText: raw, CanonicalText: string(js), ReceiptHash: tb.Hex.String(), Valid: true, SubmittedAt: now}
	return []string{fmt.Sprintf("The result of the battle at %s is recorded (%s); the turn goes on when every battle has its result.",
		tb.Hex, tb.Result.Outcome)}, &sub, nil
}

// handleResult answers a referee's RESULT mail (handleReferee's hook).
func (g *Game) handleResult(ctx context.Context, m store.Mail, ex *inbox.Extracted, opened turnKey, st *engine.State) (outcome, error) {
	now := g.Now().UTC()
	lines, sub, err := g.tabletopResultLines(ctx, ex.Text, m.ID, now)
	if err != nil {
		return outcome{}, err
	}
	out := outcome{status: store.MailAcknowledged, class: ClassReferee, opened: opened}
	out.msgs = append(out.msgs, g.reply(m, ex, []string{g.Config.Game.Referee}, MailRefereeOK, "referee", st.Turn,
		fmt.Sprintf("[%s] Battle result received", g.ID()), strings.Join(lines, "\n")+"\n"))
	if sub != nil {
		out.save = func(ctx context.Context, tx *store.Tx) error {
			_, _, err := tx.SaveSubmission(ctx, *sub)
			return err
		}
	}
	return out, nil
}
