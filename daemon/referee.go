package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/store"
)

// The referee's commands about the record and the mail, by mail and from
// the CLI alike: ROLLBACK (rollback.go), RESEND (a nation's report sent
// again, the same bytes under the same Message-ID), REQUEUE (every mail the
// outbox gave up on queued again) and RESET PASSWORD (a nation's password reset;
// the nation is told).

// MailPasswordReset is the outbox kind of the mail telling a nation that
// the referee reset its password.
const MailPasswordReset = "password-reset"

// refereeMoreCommand is handleReferee's hook for this file's commands and
// ROLLBACK. It returns the answer's line (without the command), mails to
// queue, and what to write in the mail's commit; ok is false for another
// command. rollback is the mail's rollback so far (one a mail; none beside
// a RERUN).
func (g *Game) refereeMoreCommand(ctx context.Context, m store.Mail, st *engine.State, c parser.RefereeCommand, formatted, sum string,
	rollback **rollbackPlan, rerun bool) (line string, msgs []outbox.Message, save func(context.Context, *store.Tx) error, ok bool) {
	switch x := c.(type) {
	case parser.Rollback:
		if *rollback != nil || rerun {
			return "REFUSED: one RERUN or ROLLBACK a mail", nil, nil, true
		}
		p, err := g.decideRollback(ctx, x.Turn)
		if err != nil {
			return "REFUSED: " + err.Error(), nil, nil, true
		}
		*rollback = &p
		return rollbackSentence(p), nil, nil, true
	case parser.Resend:
		row, label, err := g.reportRow(ctx, x.Nation, x.Turn)
		if err != nil {
			return "REFUSED: " + err.Error(), nil, nil, true
		}
		return fmt.Sprintf("%s's report of %s goes again, the same mail under its Message-ID %s", g.nationName(x.Nation), label, row.MessageID),
			nil, func(ctx context.Context, tx *store.Tx) error { return resendRow(ctx, tx, row.MessageID) }, true
	case parser.Requeue:
		failed, err := g.DB.MessagesInState(ctx, store.OutboxFailed)
		if err != nil {
			return "REFUSED: " + err.Error(), nil, nil, true
		}
		if len(failed) == 0 {
			return "no mail has failed: nothing to queue again", nil, nil, true
		}
		return fmt.Sprintf("%s queued again, each with its bytes and Message-ID", english.Count(len(failed), "failed mail")), nil,
			func(ctx context.Context, tx *store.Tx) error { return requeueRows(ctx, tx, failed) }, true
	case parser.TableBattle:
		sub := store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: "referee", Kind: KindTabletopAsk, MailID: m.ID,
			RawText: formatted, CanonicalText: formatted, ReceiptHash: x.Hex.String(), Valid: true, SubmittedAt: m.ReceivedAt.UTC()}
		return fmt.Sprintf("a battle at %s in %s is fought on your table: its sheet comes when the turn is due, and the turn waits for your RESULT",
				x.Hex, st.Calendar.Label(st.Turn)), nil, func(ctx context.Context, tx *store.Tx) error {
				_, _, err := tx.SaveSubmission(ctx, sub)
				return err
			}, true
	case parser.PasswordReset:
		save, msg, err := g.passwordReset(st, x.Nation, x.Password, sum, mailDate(m))
		if err != nil {
			return "REFUSED: " + err.Error(), nil, nil, true
		}
		return fmt.Sprintf("%s's password is reset from %s on; %s is told the new one", g.nationName(x.Nation),
			st.Calendar.Label(st.Turn), g.nationName(x.Nation)), []outbox.Message{msg}, save, true
	}
	return "", nil, nil, false
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
	label := st.Calendar.Label(rec.Turn)
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

// passwordReset works out a referee's password reset for nation n: what to
// write (the new hash, in force from the open turn on) and the mail telling
// the nation. key makes the mail's Message-ID (the referee's mail's hash).
func (g *Game) passwordReset(st *engine.State, n game.NationID, pw, key string, date time.Time) (func(context.Context, *store.Tx) error, outbox.Message, error) {
	to := g.registered(n)
	if to == "" {
		return nil, outbox.Message{}, fmt.Errorf("%s is not a nation of this game with an address", n)
	}
	if len([]rune(password.Normalize(pw))) < 4 {
		return nil, outbox.Message{}, errors.New("the new password is shorter than 4 characters")
	}
	h, err := password.Hash(pw)
	if err != nil {
		return nil, outbox.Message{}, err
	}
	turn := st.Turn
	save := func(ctx context.Context, tx *store.Tx) error {
		return tx.SchedulePasswordChange(ctx, g.ID(), string(n), h, turn)
	}
	text := fmt.Sprintf("The referee has reset %s's order-sheet password.\n\nFrom %s on, write on your sheets:\n\n  PASSWORD %s\n\n"+
		"The old password no longer works. You can choose your own with a PASSWORD CHANGE line on a sheet.\n",
		g.nationName(n), st.Calendar.Label(turn), pw)
	msg := g.message(MailPasswordReset, string(n), turn, key, []string{to},
		fmt.Sprintf("[%s] %s: your password was reset by the referee", g.ID(), g.nationName(n)), text, date)
	return save, msg, nil
}

// Resend queues a nation's report of a turn again (turn 0: the last
// resolved; nation "referee" for the referee's), the same bytes under the
// same Message-ID: what "pbem resend" runs.
func (g *Game) Resend(ctx context.Context, n game.NationID, turn int) (string, error) {
	row, label, err := g.reportRow(ctx, n, turn)
	if err != nil {
		return "", err
	}
	if err := g.DB.Update(ctx, func(tx *store.Tx) error { return resendRow(ctx, tx, row.MessageID) }); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s's report of %s is queued again under its Message-ID %s", n, label, row.MessageID), nil
}

// Requeue puts every failed mail back in the queue: what "pbem requeue"
// runs. It returns how many.
func (g *Game) Requeue(ctx context.Context) (int, error) {
	failed, err := g.DB.MessagesInState(ctx, store.OutboxFailed)
	if err != nil || len(failed) == 0 {
		return 0, err
	}
	return len(failed), g.DB.Update(ctx, func(tx *store.Tx) error { return requeueRows(ctx, tx, failed) })
}

// ResetPassword gives a nation a new password from the open turn on and
// queues the mail telling it: what "pbem password" runs.
func (g *Game) ResetPassword(ctx context.Context, n game.NationID, pw string) error {
	st, err := g.State(ctx)
	if err != nil {
		return err
	}
	key := "cli." + g.Now().UTC().Format("20060102T150405.000000000")
	save, msg, err := g.passwordReset(st, n, pw, key, g.Now())
	if err != nil {
		return err
	}
	return g.DB.Update(ctx, func(tx *store.Tx) error {
		if err := save(ctx, tx); err != nil {
			return err
		}
		return g.enqueue(ctx, tx, msg)
	})
}
