package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The game's mail (refcmd/mail.go). RESEND puts a nation's report of a
// turn back in the queue, the same bytes under the same Message-ID (a
// reader who still has it sees one message); REQUEUE puts back every mail
// the outbox gave up on, each unchanged.

var resendKind = refKind[refcmd.Resend, resendPlan]{
	decide: func(ctx context.Context, r *refRun, c refcmd.Resend) (resendPlan, error) {
		row, label, err := r.g.reportRow(ctx, c.Nation, c.Turn)
		if err != nil {
			return resendPlan{}, refuse(err)
		}
		return resendPlan{nation: c.Nation, label: label, messageID: row.MessageID}, nil
	},
	write: func(ctx context.Context, tx *store.Tx, _ *refRun, p resendPlan) error {
		return resendRow(ctx, tx, p.messageID)
	},
	answer: func(r *refRun, p resendPlan) string {
		return fmt.Sprintf("%s's report of %s goes again, the same mail under its Message-ID %s", r.g.nationName(p.nation), p.label, p.messageID)
	},
	cli: []string{"pbem resend", "pbem referee"},
}

// resendPlan is a RESEND decided: the report's outbox row.
type resendPlan struct {
	nation    game.NationID
	label     string // the turn's label
	messageID string
}

var requeueKind = refKind[refcmd.Requeue, []store.OutboxMessage]{
	decide: func(ctx context.Context, r *refRun, _ refcmd.Requeue) ([]store.OutboxMessage, error) {
		failed, err := r.g.DB.MessagesInState(ctx, store.OutboxFailed)
		if err != nil {
			return nil, refuse(err)
		}
		return failed, nil
	},
	write: func(ctx context.Context, tx *store.Tx, _ *refRun, failed []store.OutboxMessage) error {
		return requeueRows(ctx, tx, failed)
	},
	answer: func(_ *refRun, failed []store.OutboxMessage) string {
		if len(failed) == 0 {
			return "no mail has failed: nothing to queue again"
		}
		return fmt.Sprintf("%s queued again, each with its bytes and Message-ID", english.Count(len(failed), "failed mail"))
	},
	cli: []string{"pbem requeue", "pbem referee"},
}

// reportRow finds the outbox row of a nation's report of a turn (turn 0:
// the last resolved), for the version of the turn in force.
func (g *Game) reportRow(ctx context.Context, n game.NationID, turn int) (store.OutboxMessage, string, error) {
	var rec store.TurnRecord
	var err error
	if turn <= 0 {
		rec, err = g.DB.LatestTurn(ctx, g.ID())
	} else {
		rec, err = g.DB.Turn(ctx, g.ID(), turn)
	}
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Status != store.TurnResolved {
		if turn <= 0 {
			return store.OutboxMessage{}, "", errors.New("no turn has been resolved yet")
		}
		return store.OutboxMessage{}, "", fmt.Errorf("turn %d has not been resolved (or was rolled back)", turn)
	}
	if err != nil {
		return store.OutboxMessage{}, "", err
	}
	st, err := g.decoded(rec)
	if err != nil {
		return store.OutboxMessage{}, "", err
	}
	label := g.labelOf(st, rec.Turn)
	kind, nation, to := MailReport, string(n), g.registered(n)
	if n == engine.Referee || n == "referee" {
		kind, nation, to = MailRefereeReport, "referee", g.Config.Game.Referee
	}
	if to == "" {
		return store.OutboxMessage{}, "", fmt.Errorf("%s has no registered address", n)
	}
	key := "report"
	if rec.Version > 1 {
		key = "report.v" + strconv.Itoa(rec.Version)
	}
	msg := g.message(kind, nation, rec.Turn, key, []string{to}, "", "", g.Now())
	id := msg.ID()
	row, err := g.DB.OutboxByMessageID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.OutboxMessage{}, "", fmt.Errorf("no report of %s to %s was queued", label, n)
	}
	return row, label, err
}

// resendRow puts a sent (or failed) row back in the queue; a row still
// pending or sending is going out already, which is what was asked.
func resendRow(ctx context.Context, tx *store.Tx, messageID string) error {
	row, err := tx.OutboxByMessageID(ctx, messageID)
	if err != nil {
		return err
	}
	if row.State == store.OutboxPending || row.State == store.OutboxSending {
		return nil
	}
	return tx.Resend(ctx, row.ID, row.CreatedAt)
}

// requeueRows puts the failed rows back in the queue (a row that is no
// longer failed is left as it is).
func requeueRows(ctx context.Context, tx *store.Tx, rows []store.OutboxMessage) error {
	for _, r := range rows {
		if err := tx.Requeue(ctx, r.ID, r.CreatedAt); err != nil && !errors.Is(err, store.ErrWrongState) {
			return err
		}
	}
	return nil
}
