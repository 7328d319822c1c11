package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The deadline (refcmd/deadline.go): DEADLINE SET and EXTEND move the
// stored deadline of the turn open (deadlines.go) at once. Each is judged
// against the deadline the run's earlier ones left and against the
// command's arrival, so that a retry of the mail decides the same; the
// last one that takes effect writes the deadline and tells every nation
// still in the game.

var deadlineExtendKind = refKind[refcmd.DeadlineExtend, deadlinePlan]{
	turn: openTurn,
	decide: func(ctx context.Context, r *refRun, c refcmd.DeadlineExtend) (deadlinePlan, error) {
		return r.decideDeadline(ctx, c, func(cur time.Time) (time.Time, error) {
			if cur.IsZero() {
				return time.Time{}, errors.New("this turn has no deadline to extend; set one with DEADLINE SET 2026-03-06 18:00")
			}
			return r.g.extendDeadline(cur, c.By), nil
		})
	},
	write: writeDeadline, answer: deadlineAnswer, tell: deadlineNotices,
	cli: []string{"pbem referee"},
}

var deadlineSetKind = refKind[refcmd.DeadlineSet, deadlinePlan]{
	turn: openTurn,
	decide: func(ctx context.Context, r *refRun, c refcmd.DeadlineSet) (deadlinePlan, error) {
		return r.decideDeadline(ctx, c, func(time.Time) (time.Time, error) { return c.At, nil })
	},
	write: writeDeadline, answer: deadlineAnswer, tell: deadlineNotices,
	cli: []string{"pbem referee"},
}

// deadlineWork is the open turn's deadline as the run's DEADLINE commands
// leave it: read at the first.
type deadlineWork struct {
	at      time.Time // zero: none
	changes int       // the run's commands that moved it
}

// deadlinePlan is a DEADLINE command decided.
type deadlinePlan struct {
	was, next time.Time
	n         int // its number among the run's changes of the deadline
	sub       store.Submission
}

// decideDeadline works out a DEADLINE command: next gives the new deadline
// from the one in force (zero: none), or why there is none. A new deadline
// already past is refused.
func (r *refRun) decideDeadline(ctx context.Context, c refcmd.Command, next func(cur time.Time) (time.Time, error)) (deadlinePlan, error) {
	if r.deadline == nil {
		cur, err := r.g.turnDeadline(ctx, r.st.Turn)
		if err != nil {
			return deadlinePlan{}, err
		}
		r.deadline = &deadlineWork{at: cur}
	}
	p := deadlinePlan{was: r.deadline.at}
	at, err := next(p.was)
	if err != nil {
		return deadlinePlan{}, refuse(err)
	}
	if !at.After(r.at) { // judged against the arrival, so a retry decides the same
		return deadlinePlan{}, refusef("%s is already past; to resolve the turn now write RESOLVE NOW", r.g.showTime(at))
	}
	p.next = at.In(r.g.Zone)
	r.deadline.at = p.next
	r.deadline.changes++
	p.n = r.deadline.changes
	formatted := c.Format(r.v)
	p.sub = store.Submission{GameID: r.g.ID(), Turn: r.st.Turn, Nation: "referee", Kind: KindReferee,
		MailID: r.mail.ID, RawText: formatted, CanonicalText: formatted, Valid: true, SubmittedAt: r.now}
	return p, nil
}

// writeDeadline records the command, and, for the run's last change, the
// turn's new deadline.
func writeDeadline(ctx context.Context, tx *store.Tx, r *refRun, p deadlinePlan) error {
	if _, _, err := tx.SaveSubmission(ctx, p.sub); err != nil {
		return err
	}
	if p.n != r.deadline.changes {
		return nil
	}
	return tx.SetDeadline(ctx, r.g.ID(), r.st.Turn, p.next, r.mail.ID)
}

func deadlineAnswer(r *refRun, p deadlinePlan) string {
	was := "it had none"
	if !p.was.IsZero() {
		was = "was " + r.g.showTime(p.was)
	}
	return fmt.Sprintf("the deadline of %s is now %s (%s)", r.g.labelOf(r.st, r.st.Turn), r.g.showTime(p.next), was)
}

// deadlineNotices tells every nation still in the game the new deadline at
// once, not only with its next acknowledgment: once a run, with its last
// change.
func deadlineNotices(r *refRun, p deadlinePlan) []outbox.Message {
	if p.n != r.deadline.changes {
		return nil
	}
	g, st := r.g, r.st
	var msgs []outbox.Message
	for _, ns := range st.Nations {
		if ns.Eliminated {
			continue
		}
		to := g.registered(ns.ID)
		if to == "" {
			continue
		}
		text := fmt.Sprintf("The referee has moved the deadline for %s.\n\nOrders are now due by %s.\n\nA sheet you have sent stays in force; you may still send a new one until then.\n",
			g.labelOf(st, st.Turn), g.showTime(p.next))
		msgs = append(msgs, g.message(MailNotice, string(ns.ID), st.Turn,
			fmt.Sprintf("deadline.%d.%d", st.Turn, p.next.Unix()), []string{to},
			fmt.Sprintf("[%s] %s: new deadline %s", g.ID(), g.labelOf(st, st.Turn), g.showTime(p.next)), text, r.now))
	}
	return msgs
}
