package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/refcmd"
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
//	GENERAL Saxe KILLED TURN 9   (id or name; KILLED, WOUNDED, CAPTURED; TURN n [DAY n]: when, for the narrative)
//	GUNS F1 field-gun LOST 2     (guns of the losing side taken on the field; the winner takes them)
//	DAYS 2                       (V4 only: the days the battle lasted; 1 when left out)
//	END
//
// tabletop_result.go reads it.

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

// tabletopResults returns the referee's results stored for a turn, the last
// one per hex, in hex order of arrival (campaignResults, decoded).
func (g *Game) tabletopResults(ctx context.Context, turn int) ([]engine.TabletopBattle, error) {
	raws, err := g.campaignResults(ctx, turn)
	if err != nil {
		return nil, err
	}
	var out []engine.TabletopBattle
	for i, raw := range raws {
		var tb engine.TabletopBattle
		if err := json.Unmarshal(raw, &tb); err != nil {
			return nil, fmt.Errorf("the stored tabletop result %d of turn %d: %w", i+1, turn, err)
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
	if g.seamOnly != nil {
		return g.campaignTabletopWait(ctx) // seam_turn.go
	}
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
		tb, err := g.DB.TabletopBattle(ctx, g.ID(), st.Turn, b.Hex.String())
		if err != nil {
			return false, err
		}
		if !tb.ToModel.IsZero() {
			continue
		}
		label := st.Calendar.Label(st.Turn)
		if tb.SheetSent.IsZero() {
			msg := g.message(MailBattleSheet, "referee", st.Turn, b.Hex.String(), []string{g.Config.Game.Referee},
				fmt.Sprintf("[%s] %s: battle at %s to fight on the table", g.ID(), label, b.Hex), g.battleSheet(st, b), now)
			if err := g.DB.Update(ctx, func(tx *store.Tx) error {
				if err := g.enqueue(ctx, tx, msg); err != nil {
					return err
				}
				return tx.MarkBattleSheetSent(ctx, g.ID(), st.Turn, b.Hex.String(), now)
			}); err != nil {
				return false, err
			}
			g.Log.Info("battle sheet mailed to the referee; the turn waits for the result", "turn", st.Turn, "hex", b.Hex)
			wait = true
			continue
		}
		limit := time.Duration(g.Config.Game.BattleWaitHours) * time.Hour
		if limit <= 0 || now.Sub(tb.SheetSent) < limit {
			wait = true
			continue
		}
		msg := g.message(MailBattleAuto, "referee", st.Turn, b.Hex.String(), []string{g.Config.Game.Referee},
			fmt.Sprintf("[%s] %s: the battle at %s is fought by the model", g.ID(), label, b.Hex),
			fmt.Sprintf("No result came for the battle at %s within %s of its sheet (game.battle_wait_hours).\n"+
				"The engine's model fights it, and the turn is resolved. To put your result in its place later: ROLLBACK %d,\n"+
				"send the RESULT, then RERUN %d.\n",
				b.Hex, english.Count(g.Config.Game.BattleWaitHours, "hour"), st.Turn, st.Turn), now)
		if err := g.DB.Update(ctx, func(tx *store.Tx) error {
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
			return tx.MarkBattleToModel(ctx, g.ID(), st.Turn, b.Hex.String(), now)
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
				fmt.Fprintf(&s, "; %s %s", l.Role, l.Name)
				if l.ID != l.Name {
					fmt.Fprintf(&s, " (id %s)", l.ID)
				}
				fmt.Fprintf(&s, ", experience %d", l.Experience)
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
				fmt.Fprintf(&s, "    unit %-10s %s %s, %s", u.ID, u.Arm, u.Grade, english.Count(u.Figures, "figure"))
				if u.Guns > 0 {
					fmt.Fprintf(&s, ", %d %s %s", u.Guns, u.GunKind, english.Noun(u.Guns, "gun"))
				}
				if u.Tired {
					s.WriteString(", tired (exhausted or unsupplied)")
				}
				s.WriteString("\n")
			}
		}
	}
	fmt.Fprintf(&s, "\nFight it on the table, then reply with the result (docs/turns.md, \"Tabletop battles\"):\n\n"+
		"RESULT %s\nOUTCOME decisive\nWINNER %s\nLOSSES force arm grade KILLED n ROUTED n SURROUNDED n\nHITS nation arm grade n\n"+
		"GENERAL id-or-name KILLED TURN n\nGUNS force gun-kind LOST n\n", b.Hex, firstNation(b.Sides[0].Nations))
	multi := g.Rules.LandBattles.MultiDay
	if multi {
		s.WriteString("DAYS n\n")
	}
	s.WriteString("END\n\n" +
		"One LOSSES line per force, arm and grade that lost figures; one HITS line per arm and grade that hit the enemy.\n" +
		"GENERAL: one line per general struck, KILLED, WOUNDED or CAPTURED (killed and captured generals leave their\n" +
		"forces); TURN n, the tabletop turn (DAY n too in a battle of several days), lets the narratives tell it.\n" +
		"GUNS: the guns of a force on the losing side taken on the field; the winner takes them, into his senior\n" +
		"general's force. The gun kind may be left out when the force has guns of one kind.\n")
	if multi {
		fmt.Fprintf(&s, "DAYS: the days the battle lasted, 1 to %d (%s: one day of battle is 1/6 of a move); 1 when left out.\n",
			engine.BattleDaysRoom(g.Rules, b.Tick), g.Rules.Name)
	}
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

// tabletopResultLines checks a referee's RESULT mail and, when it fits the
// battle, returns the submission to store. The lines are the answer.
func (g *Game) tabletopResultLines(ctx context.Context, text string, mailID int64, now time.Time) ([]string, *store.Submission, error) {
	st, lbs, _, err := g.trialBattles(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	tb, errs := refcmd.ParseResult(text, st, lbs, g.Rules)
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
