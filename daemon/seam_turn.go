package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/store"
)

// A turn of a game played through the seam (seam.go). Its inputs are read
// from the store as for SYW — the sheets in force (decoded with the
// campaign's codec), the referee's tabletop results and rulings (RULE,
// referee_rule.go), the turn's seed — and
// the campaign resolves it (campaign.Game.Resolve). A turn that meets a
// battle waits for the referee's table: the turn is resolved on trial
// (nothing saved) and each battle without a result gets its sheet mailed
// to the referee once (campaign.BattleSheet.Text, with the RESULT block to
// fill in); his RESULT is read by the campaign against that sheet
// (ReadResult) and stored as a tabletop submission keyed by the battle's
// place; the turn resolves when every battle has one. A campaign's battles
// are the referee's to fight: none is handed to a model after
// game.battle_wait_hours, since no campaign behind the seam has one.
//
// A nation without a sheet in force gives no orders (NMR): its forces
// stand, which is holding in place in every campaign behind the seam.

// campaignSheetsInForce is SheetsInForce for a game played through the seam.
func (g *Game) campaignSheetsInForce(ctx context.Context, turn int) ([]engine.Orders, error) {
	subs, err := g.DB.SubmissionsInForce(ctx, g.ID(), turn, KindOrders)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Orders, 0, len(subs))
	for _, s := range subs {
		if s.Ruleset != "" && s.Ruleset != g.rulesetID() {
			return nil, fmt.Errorf("the sheet in force for %s, turn %d, was checked under ruleset %s, but the game plays %s",
				s.Nation, turn, s.Ruleset, g.rulesetID())
		}
		o, err := g.seamOnly.DecodeOrders(s.Orders)
		if err != nil {
			return nil, fmt.Errorf("the stored orders of %s, turn %d (receipt %s), are damaged: %w", s.Nation, turn, s.ReceiptHash, err)
		}
		o.Nation, o.Turn = game.NationID(s.Nation), turn
		out = append(out, o)
	}
	return out, nil
}

// campaignResults are the referee's tabletop results stored for a turn, the
// last one per battle, in order of arrival.
func (g *Game) campaignResults(ctx context.Context, turn int) ([]json.RawMessage, error) {
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
	var out []json.RawMessage
	for i, s := range subs {
		if s.Kind == KindTabletop && s.Valid && last[s.ReceiptHash] == i {
			out = append(out, json.RawMessage(s.CanonicalText))
		}
	}
	return out, nil
}

// campaignInput reads the stored inputs of the turn whose state is from's:
// the input, the nations without orders.
func (g *Game) campaignInput(ctx context.Context, from store.TurnRecord) (campaign.TurnInput, []string, error) {
	cs, err := g.campaignStateOf(from)
	if err != nil {
		return campaign.TurnInput{}, nil, err
	}
	turn := cs.TurnNumber()
	orders, err := g.campaignSheetsInForce(ctx, turn)
	if err != nil {
		return campaign.TurnInput{}, nil, err
	}
	var nmr []string
	for _, n := range cs.Playing() {
		if !slices.ContainsFunc(orders, func(o engine.Orders) bool { return o.Nation == n }) {
			nmr = append(nmr, string(n))
		}
	}
	slices.SortFunc(orders, func(a, b engine.Orders) int { return strings.Compare(string(a.Nation), string(b.Nation)) })
	seed, err := g.turnSeed(ctx, turn)
	if err != nil {
		return campaign.TurnInput{}, nil, err
	}
	results, err := g.campaignResults(ctx, turn)
	if err != nil {
		return campaign.TurnInput{}, nil, err
	}
	rulings, err := g.campaignRulings(ctx, turn) // referee_rule.go
	if err != nil {
		return campaign.TurnInput{}, nil, err
	}
	return campaign.TurnInput{State: cs, Orders: orders, Rulings: rulings, Results: results, Seed: seed}, nmr, nil
}

// decideCampaign is decideFrom for a game played through the seam.
func (g *Game) decideCampaign(ctx context.Context, from, base store.TurnRecord, rerunOf int) (turnOutcome, error) {
	in, nmr, err := g.campaignInput(ctx, from)
	if err != nil {
		return turnOutcome{}, err
	}
	turn := in.State.TurnNumber()
	if rerunOf == 0 {
		if rerunOf, err = g.reopenedVersion(ctx, turn); err != nil {
			return turnOutcome{}, err
		}
	}
	out := turnOutcome{base: base, resolved: turn, label: in.State.TurnLabel(), rerunOf: rerunOf, nmr: nmr}
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return turnOutcome{}, err
	}
	for _, s := range subs {
		out.lastSub = max(out.lastSub, s.ID)
	}
	if out.ledgerIn, out.ledgerNow, err = ledgerFor(ctx, g.DB, g.ID(), turn, rerunOf); err != nil {
		return turnOutcome{}, err
	}
	res, err := g.seamOnly.Resolve(in)
	if err != nil {
		return turnOutcome{}, fmt.Errorf("resolving turn %d: %w", turn, err)
	}
	if res.State == nil {
		return turnOutcome{}, &battlesWaitingError{label: out.label, turn: turn, sheets: res.Awaiting}
	}
	stateJSON, err := res.State.MarshalJSON()
	if err != nil {
		return turnOutcome{}, err
	}
	eventLog, dice, rows, err := encodeResolved(res.Events, res.Rolls)
	if err != nil {
		return turnOutcome{}, err
	}
	out.events, out.nEvents = append(out.events, rows...), len(res.Events)
	streaks, err := g.nmrStreaks(ctx, turn, out.nmr)
	if err != nil {
		return turnOutcome{}, err
	}
	now := g.Now().UTC()
	out.rec = store.TurnRecord{GameID: g.ID(), Turn: turn, Status: store.TurnResolved, State: stateJSON, Seed: in.Seed,
		EventLog: eventLog, Dice: dice, ResolvedAt: now}
	next, scheduleNote, err := g.nextDeadline(ctx, turn, now)
	if err != nil {
		return turnOutcome{}, err
	}
	out.next = next
	if d, err := g.DB.TurnDeadline(ctx, g.ID(), turn+1); err == nil {
		out.next, scheduleNote = d.At, ""
	} else if !errors.Is(err, store.ErrNotFound) {
		return turnOutcome{}, err
	}
	out.scheduleNote = scheduleNote
	key := "report"
	if rerunOf > 0 {
		key = fmt.Sprintf("report.v%d", rerunOf+1)
	}
	sheets, err := g.sheetReceipts(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	tm := TurnMail{GameID: g.ID(), GameName: g.Config.Game.Name, Turn: turn, TurnLabel: out.label,
		State: g.standIn(res.State), CampaignState: res.State, Rerun: rerunOf > 0, NextTurn: turn + 1, NextLabel: res.State.TurnLabel(),
		NextDeadline: out.next, Zone: g.Zone, Rolls: res.Rolls, Sheets: sheets}
	rs := g.nationRecipients(tm, res.Events, out.nmr)
	if ref := g.Config.Game.Referee; ref != "" {
		m := tm
		m.Nation, m.NationName = engine.Referee, "Referee"
		m.Events = engine.EventsFor(res.Events, engine.Referee)
		m.NMRNations, m.NMRStreaks, m.ScheduleNote = out.nmr, streaks, scheduleNote
		rs = append(rs, recipient{tm: m, kind: MailRefereeReport, who: "referee", to: ref})
	}
	built, err := g.buildMails(rs)
	if err != nil {
		return turnOutcome{}, err
	}
	for i, r := range rs {
		msg := g.message(r.kind, r.who, turn, key, []string{r.to}, built[i].Subject, built[i].Text, now)
		msg.Attachments = built[i].Attachments
		out.msgs = append(out.msgs, msg)
	}
	return out, nil
}

// battlesWaitingError is decideCampaign's answer for a turn that waits
// for the referee's result of a battle: the turn, and the battles' sheets.
type battlesWaitingError struct {
	label  string
	turn   int
	sheets []campaign.BattleSheet
}

func (e *battlesWaitingError) Error() string {
	var keys []string
	for _, a := range e.sheets {
		keys = append(keys, a.Key)
	}
	return fmt.Sprintf("%s waits for the referee's result of the battle at %s: send the RESULT from its battle sheet first",
		e.label, strings.Join(keys, ", "))
}

// previewText is what PREVIEW shows of a turn waiting for battles: which
// ones, and their sheets, as the referee is (or will be) mailed them.
func (e *battlesWaitingError) previewText() string {
	var keys []string
	for _, a := range e.sheets {
		keys = append(keys, a.Key)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s cannot be resolved yet: it waits for the referee's result of the %s at %s, fought on the table. "+
		"It resolves when every battle has its RESULT; the battle %s.\n", e.label,
		english.Agree(len(keys), "battle", "battles"), strings.Join(keys, ", "), english.Agree(len(keys), "sheet follows", "sheets follow"))
	for _, sh := range e.sheets {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(sh.Text, "\n"))
	}
	return b.String()
}

// campaignTrial resolves the open turn on trial (nothing saved), with
// extra results besides the stored ones: the battles still waiting for
// the referee, and the state resolved from.
func (g *Game) campaignTrial(ctx context.Context, extra ...json.RawMessage) (*campaign.TurnOutput, campaign.State, error) {
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return nil, nil, err
	}
	in, _, err := g.campaignInput(ctx, rec)
	if err != nil {
		return nil, nil, err
	}
	in.Results = append(in.Results, extra...)
	out, err := g.seamOnly.Resolve(in)
	return out, in.State, err
}

// campaignTabletopWait is tabletopWait for a game played through the seam:
// it mails the sheet of each battle still without a result (once) and
// reports whether the turn must wait.
func (g *Game) campaignTabletopWait(ctx context.Context) (bool, error) {
	res, cs, err := g.campaignTrial(ctx)
	if err != nil {
		return false, err
	}
	if len(res.Awaiting) == 0 {
		return false, nil
	}
	turn, label, now := cs.TurnNumber(), cs.TurnLabel(), g.Now().UTC()
	for _, b := range res.Awaiting {
		tb, err := g.DB.TabletopBattle(ctx, g.ID(), turn, b.Key)
		if err != nil {
			return false, err
		}
		if !tb.SheetSent.IsZero() || g.Config.Game.Referee == "" {
			continue
		}
		msg := g.message(MailBattleSheet, "referee", turn, b.Key, []string{g.Config.Game.Referee},
			fmt.Sprintf("[%s] %s: battle at %s to fight on the table", g.ID(), label, b.Key), b.Text, now)
		if err := g.DB.Update(ctx, func(tx *store.Tx) error {
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
			return tx.MarkBattleSheetSent(ctx, g.ID(), turn, b.Key, now)
		}); err != nil {
			return false, err
		}
		g.Log.Info("battle sheet mailed to the referee; the turn waits for the result", "turn", turn, "battle", b.Key)
	}
	return true, nil
}

// campaignResultLines reads a referee's RESULT for a game played through
// the seam: the campaign reads it against the battles of the open turn;
// when it fits, the submission to store. A result sent again for a battle
// replaces the one recorded before (the last counts: campaignResults), so
// that after a ROLLBACK of the turn a corrected RESULT and a RERUN put it
// right. The lines are the answer.
func (g *Game) campaignResultLines(ctx context.Context, text string, mailID int64, now time.Time) ([]string, *store.Submission, error) {
	battles, cs, err := g.campaignBattles(ctx)
	if err != nil {
		return nil, nil, err
	}
	if len(battles) == 0 {
		return []string{fmt.Sprintf("No battle is fought in %s: nothing was recorded.", cs.TurnLabel())}, nil, nil
	}
	key, result, probs := g.seamOnly.ReadResult(text, battles)
	if len(probs) > 0 {
		var lines []string
		for _, d := range probs {
			line := "ERROR: " + d.Message
			if d.Line > 0 {
				line = fmt.Sprintf("line %d: %s", d.Line, line)
			}
			if d.Hint != "" {
				line = sentence(line) + " " + d.Hint
			}
			lines = append(lines, line)
		}
		return append(lines, "Nothing was recorded: correct the lines and send the RESULT again."), nil, nil
	}
	res, _, err := g.campaignTrial(ctx)
	if err != nil {
		return nil, nil, err
	}
	answered := true
	left := 0
	for _, a := range res.Awaiting {
		if a.Key == key {
			answered = false
		} else {
			left++
		}
	}
	raw := text
	if i := strings.Index(strings.ToUpper(raw), "RESULT"); i >= 0 {
		raw = raw[i:]
	}
	sub := store.Submission{GameID: g.ID(), Turn: cs.TurnNumber(), Nation: "referee", Kind: KindTabletop, MailID: mailID,
		RawText: raw, CanonicalText: string(result), ReceiptHash: key, Valid: true, SubmittedAt: now}
	head := fmt.Sprintf("The result of the battle at %s is recorded", key)
	if answered {
		head += " in place of the one recorded before"
	}
	tail := "the turn goes on now that every battle has its result."
	if left > 0 {
		tail = fmt.Sprintf("%d more %s to come before the turn goes on.", left, map[bool]string{true: "result", false: "results"}[left == 1])
	}
	return []string{head + "; " + tail}, &sub, nil
}

// campaignBattles resolves the open turn on trial without the referee's
// results: every battle the turn meets, each with its sheet, and the
// state it is resolved from.
func (g *Game) campaignBattles(ctx context.Context) ([]campaign.BattleSheet, campaign.State, error) {
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return nil, nil, err
	}
	in, _, err := g.campaignInput(ctx, rec)
	if err != nil {
		return nil, nil, err
	}
	in.Results = nil
	out, err := g.seamOnly.Resolve(in)
	if err != nil {
		return nil, nil, err
	}
	return out.Awaiting, in.State, nil
}

// handleCampaignResult answers a referee's RESULT mail for a game played
// through the seam.
func (g *Game) handleCampaignResult(ctx context.Context, m store.Mail, ex *inbox.Extracted, opened turnKey, st *engine.State) (outcome, error) {
	lines, sub, err := g.campaignResultLines(ctx, ex.Text, m.ID, g.Now().UTC())
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

// AwaitingBattles returns the battles of the open turn that wait for the
// referee's table, each with its sheet (for a game played through the
// seam; none for an SYW game, whose battle sheets tabletop.go mails). It
// resolves the turn on trial and saves nothing.
func (g *Game) AwaitingBattles(ctx context.Context) ([]campaign.BattleSheet, error) {
	if g.seamOnly == nil {
		return nil, nil
	}
	res, _, err := g.campaignTrial(ctx)
	if err != nil {
		return nil, err
	}
	return res.Awaiting, nil
}

// campaignTableBattles is tableBattles for a game played through the seam:
// the battles whose result is in, and those whose sheet went out and that
// still wait.
func (g *Game) campaignTableBattles(ctx context.Context, turn int) ([]BattleStatus, error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	var out []BattleStatus
	done := map[string]bool{}
	for _, s := range subs {
		if s.Kind == KindTabletop && s.Valid && !done[s.ReceiptHash] {
			done[s.ReceiptHash] = true
			out = append(out, BattleStatus{Hex: s.ReceiptHash, Result: true})
		}
	}
	// Before the game's dice key is made (pbem run, resolve, rerun) no turn
	// runner has tried the turn, so no battle's sheet has been mailed; and
	// the trial needs the dice. Status works before the first turn.
	if _, ok, err := g.DB.DiceKey(ctx, g.ID()); err != nil || !ok {
		return out, err
	}
	res, _, err := g.campaignTrial(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range res.Awaiting {
		tb, err := g.DB.TabletopBattle(ctx, g.ID(), turn, b.Key)
		if err != nil {
			return nil, err
		}
		if !tb.SheetSent.IsZero() {
			out = append(out, BattleStatus{Hex: b.Key, SheetSent: tb.SheetSent})
		}
	}
	return out, nil
}
