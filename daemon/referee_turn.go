package daemon

import (
	"context"
	"fmt"

	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The turn (refcmd/turn.go). RESOLVE NOW closes the open turn's orders at
// the command's arrival (closing.go) and releases a turn held by the
// mail-outage guard (outage.go); the turn runner resolves it, or, from the
// CLI, the command does at once — by handing it to a running "pbem run"
// when one hears the doorbell (resolve_beside.go). PREVIEW resolves the open turn writing
// nothing (preview.go). STATUS answers with what "pbem status" prints
// (status.go). ROLLBACK and RERUN set turns aside and resolve one
// again (rollback.go): one of them a mail, and a RERUN not beside a BREACH
// or LIFT, since both write the treaty ledger (turnledger.go).

var resolveKind = refKind[refcmd.ResolveNow, resolvePlan]{
	turn: openTurn,
	decide: func(ctx context.Context, r *refRun, c refcmd.ResolveNow) (resolvePlan, error) {
		formatted := c.Format(r.v)
		return resolvePlan{turn: r.st.Turn, note: r.g.earlyScheduleNote(ctx, r.st.Turn, r.at),
			sub: store.Submission{GameID: r.g.ID(), Turn: r.st.Turn, Nation: "referee", Kind: KindResolveNow,
				MailID: r.mail.ID, RawText: formatted, CanonicalText: formatted, Valid: true, SubmittedAt: r.now}}, nil
	},
	write: func(ctx context.Context, tx *store.Tx, r *refRun, p resolvePlan) error {
		if _, _, err := tx.SaveSubmission(ctx, p.sub); err != nil {
			return err
		}
		return recordClose(ctx, tx, r.g.ID(), p.turn, turnClose{At: r.at, By: closedByReferee, Mail: r.mail.ID})
	},
	answer: func(r *refRun, p resolvePlan) string {
		return fmt.Sprintf("%s (TURN %d) will be resolved now, with the sheets that reached the server before its orders closed; "+
			"the reports follow. %s", r.g.labelOf(r.st, p.turn), p.turn, p.note)
	},
	atOnce: func(ctx context.Context, r *refRun, p resolvePlan) (string, error) {
		return r.g.resolveAtOnce(ctx, p.turn) // resolve_beside.go
	},
	cli: []string{"pbem resolve", "pbem referee"},
}

// resolvePlan is a RESOLVE NOW decided.
type resolvePlan struct {
	turn int
	note string // how the next deadline follows (deadlines.go)
	sub  store.Submission
}

var previewKind = refKind[refcmd.Preview, previewPlan]{
	turn: boundTurn,
	decide: func(ctx context.Context, r *refRun, _ refcmd.Preview) (previewPlan, error) {
		p, err := r.g.previewOf(ctx)
		if err != nil {
			return previewPlan{}, refusef("the turn cannot be resolved: %w", err)
		}
		return p, nil
	},
	write: writesNothing[previewPlan],
	answer: func(r *refRun, p previewPlan) string {
		if !r.byMail {
			return fmt.Sprintf("PREVIEW of %s: nothing was saved or sent.\n\n", p.label) + p.text
		}
		return fmt.Sprintf("the preview of %s follows in a separate mail; nothing was saved or sent to the players", r.g.labelOf(r.st, r.st.Turn))
	},
	tell: func(r *refRun, p previewPlan) []outbox.Message {
		if !r.byMail {
			return nil // the CLI prints it
		}
		text := fmt.Sprintf("PREVIEW of %s: the turn as it would be resolved with the sheets in force now,\n"+
			"and the dice it will have. Nothing was saved, and nothing was sent to the players.\n\n", p.label) + p.text
		return []outbox.Message{r.g.message(MailPreview, "referee", p.resolved, "preview."+r.key, []string{r.g.Config.Game.Referee},
			fmt.Sprintf("[%s] PREVIEW of %s", r.g.ID(), p.label), text, r.date)}
	},
	cli: []string{"pbem preview", "pbem referee"},
}

var statusKind = refKind[refcmd.Status, string]{
	decide: func(ctx context.Context, r *refRun, _ refcmd.Status) (string, error) {
		s, err := r.g.Status(ctx) // status.go: what "pbem status" prints
		if err != nil {
			return "", err
		}
		return s.Text(r.now), nil
	},
	write:  writesNothing[string],
	answer: func(_ *refRun, text string) string { return "the game as it stands:\n\n" + text },
	cli:    []string{"pbem referee"}, // "pbem status" prints the same text, reading the store only
}

var rollbackKind = refKind[refcmd.Rollback, rollbackPlan]{
	turn: boundTurn,
	decide: func(ctx context.Context, r *refRun, c refcmd.Rollback) (rollbackPlan, error) {
		if r.turnOp {
			return rollbackPlan{}, refusef("one RERUN or ROLLBACK a mail")
		}
		p, err := r.g.decideRollback(ctx, c.Turn)
		if err != nil {
			return rollbackPlan{}, refuse(err)
		}
		r.turnOp = true
		return p, nil
	},
	write: func(ctx context.Context, tx *store.Tx, r *refRun, p rollbackPlan) error {
		return r.g.writeRollback(ctx, tx, p)
	},
	answer: func(r *refRun, p rollbackPlan) string { return r.g.rollbackSentence(p) },
	cli:    []string{"pbem rollback", "pbem referee"},
}

var rerunKind = refKind[refcmd.Rerun, rerunDecision]{
	decide: func(ctx context.Context, r *refRun, c refcmd.Rerun) (rerunDecision, error) {
		if r.turnOp {
			return rerunDecision{}, refusef("one RERUN or ROLLBACK a mail")
		}
		plan, unchanged, err := r.g.decideRerunAny(ctx, c.Turn)
		if err != nil {
			return rerunDecision{}, refuse(err)
		}
		d := rerunDecision{sentence: r.g.rerunSentence(plan, unchanged, c.Turn)}
		if !unchanged {
			d.plan = &plan
			r.turnOp = true
		}
		return d, nil
	},
	write: func(ctx context.Context, tx *store.Tx, r *refRun, d rerunDecision) error {
		if d.plan == nil {
			return nil // the same result, byte for byte: nothing to write
		}
		return r.g.writeRerun(ctx, tx, *d.plan)
	},
	answer: func(_ *refRun, d rerunDecision) string { return d.sentence },
	recheck: func(r *refRun, d rerunDecision) error {
		if d.plan != nil && r.ledgerChanged() {
			return refusef("this mail also changes the treaty ledger (BREACH or LIFT); send the RERUN in a mail of its own")
		}
		return nil
	},
	cli: []string{"pbem rerun", "pbem referee"},
}

// rerunDecision is a RERUN decided: the plan to write (nil when the turn
// resolves to the same bytes) and the referee's sentence.
type rerunDecision struct {
	plan     *rerunPlan
	sentence string
}
