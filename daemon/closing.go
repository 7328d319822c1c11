package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/store"
)

// When a turn's orders close. A sheet counts if it reached the game's mail
// server (store.Mail.ReceivedAt: the server's stamp, inbox/arrival.go)
// before the turn's orders closed, and is late otherwise, whenever pbem
// handles it. The orders close at the earliest of
//
//   - the turn's deadline (stored, deadlines.go);
//   - the arrival of the referee's RESOLVE NOW for the turn;
//   - the arrival of the sheet that made every nation's sheet in force
//     FINAL.
//
// The two early closes are written, once, in the commit of the mail that
// made them (store.TurnClose), so every mail handled after it —
// even one already being checked, whose commit then finds the close changed
// and decides again — judges against it. That is what bounds RESOLVE NOW
// and the last FINAL: sheets streaming in after them are late, as after a
// deadline, and change nothing the turn runner reads, so the turn resolves
// within one decision whatever keeps arriving (issue 21).
//
// The turn runner resolves a closed turn once it has every mail that
// reached the server before the close: at a deadline it asks the intake to
// poll and waits for a listing begun at least the arrival grace
// (mail.imap.arrival_grace, for a provider that shows new mail late) after
// the deadline, then for every stored mail that arrived before the close to
// be handled; mail that arrived after it does not hold the turn. An early
// close is a mail the intake has listed, and mail is listed and handled in
// the order it reached the server, so nothing before it is still on the
// server.

// How a turn's orders closed.
const (
	closedByDeadline = "deadline"
	closedByReferee  = store.ClosedByReferee
	closedByFinal    = store.ClosedByFinal
)

// turnClose is when a turn's orders closed, and what closed them.
type turnClose struct {
	At   time.Time // sheets that reached the server after it are late
	By   string    // closedByDeadline, closedByReferee or closedByFinal
	Mail int64     // the mail that closed the turn early (0 for the deadline)
	// Referee is set once the referee's RESOLVE NOW for the turn is in,
	// whatever closed it first: the mail-outage guard then holds it no
	// longer (he has looked).
	Referee bool
}

// cutoff is when the orders of a turn with this deadline (zero: none) and
// this early close close: the earlier of the two. ok is false while
// neither is known.
func cutoff(deadline time.Time, early turnClose, closed bool) (turnClose, bool) {
	switch {
	case closed && (deadline.IsZero() || early.At.Before(deadline)):
		return early, true
	case !deadline.IsZero():
		return turnClose{At: deadline, By: closedByDeadline}, true
	}
	return turnClose{}, false
}

// after reports whether mail m came after the close c: for a close by a
// mail (RESOLVE NOW, the last FINAL), stored after that mail — the intake
// stores mail in the order the server took it, which the server's stamps,
// to the second, cannot tell within a second; for the deadline, stamped
// after it.
func (c turnClose) after(m store.Mail) bool {
	if c.Mail != 0 {
		return m.ID > c.Mail
	}
	return m.ReceivedAt.After(c.At)
}

// closeSentence says, for people, what closed the orders: "the deadline
// (Monday 8 June 2026, 18:00 BST)", "the referee's RESOLVE NOW (…)".
func (g *Game) closeSentence(c turnClose) string {
	switch c.By {
	case closedByReferee:
		return fmt.Sprintf("the referee closed the turn with RESOLVE NOW (%s)", g.showTime(c.At))
	case closedByFinal:
		return fmt.Sprintf("every nation had sent final orders (%s)", g.showTime(c.At))
	}
	return fmt.Sprintf("the deadline (%s)", g.showTime(c.At))
}

// closeIfAllFinal is the commit of a FINAL sheet's hook: when, with this
// sheet saved, every nation still playing (playing) has a sheet in force
// marked final, the turn's orders close at the sheet's arrival.
func (g *Game) closeIfAllFinal(ctx context.Context, tx *store.Tx, turn int, playing []string, m store.Mail) error {
	inForce, err := tx.SubmissionsInForce(ctx, g.ID(), turn, KindOrders)
	if err != nil {
		return err
	}
	finals, err := tx.SubmissionsOf(ctx, g.ID(), turn, "", KindFinal)
	if err != nil {
		return err
	}
	subs := append(inForce, finals...)
	if lastSub, err := reopenedLastSub(ctx, tx, g.ID(), turn); err != nil {
		return err
	} else if lastSub > 0 {
		subs = slices.DeleteFunc(subs, func(s store.Submission) bool { return s.Kind == KindFinal && s.ID <= lastSub })
	}
	if !allFinal(subs, playing) {
		return nil
	}
	return recordClose(ctx, tx, g.ID(), turn, turnClose{At: m.ReceivedAt, By: closedByFinal, Mail: m.ID})
}

// arrivalGrace is how long after a deadline the intake must list the
// mailbox before the turn is resolved: a provider may show a mail over IMAP
// some seconds after it stamped it (mail.imap.arrival_grace; none for the
// embedded server, which shows a mail as it stores it).
func (g *Game) arrivalGrace() time.Duration {
	if g.Config.Mail.Mode == config.ModeEmbedded {
		return 0
	}
	return g.Config.Mail.IMAP.ArrivalGrace
}

// mailBefore reports whether a mail that came before the close c (see
// turnClose.after) is stored and not yet handled, or any mail of the
// referee's is: his command may be about this turn (a RESOLVE NOW that came
// in while the turn was held must not find it resolved and be refused).
func (g *Game) mailBefore(ctx context.Context, c turnClose) (bool, error) {
	waiting, err := g.DB.MailHeadsByStatus(ctx, store.MailStored)
	if err != nil {
		return false, err
	}
	ref := g.Config.Game.Referee
	for _, m := range waiting {
		if !c.after(m) || (ref != "" && strings.EqualFold(strings.TrimSpace(m.From), ref)) {
			return true, nil
		}
	}
	return false, nil
}
