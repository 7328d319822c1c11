package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
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

// closeReader is the store, or a transaction.
type closeReader interface {
	TurnClose(ctx context.Context, gameID string, turn int) (store.TurnClose, bool, error)
}

// earlyClose reads a turn's early close (RESOLVE NOW or the last FINAL);
// ok is false while none is recorded.
func (g *Game) earlyClose(ctx context.Context, r closeReader, turn int) (c turnClose, ok bool, err error) {
	sc, ok, err := r.TurnClose(ctx, g.ID(), turn)
	if err != nil || !ok {
		return turnClose{}, false, err
	}
	return turnClose{At: sc.At, By: sc.By, Mail: sc.MailID, Referee: sc.Referee}, true, nil
}

// closeTurn records an early close of turn inside tx, unless one is
// recorded already (the first close stands; a RESOLVE NOW after it marks
// it the referee's).
func (g *Game) closeTurn(ctx context.Context, tx *store.Tx, turn int, c turnClose) error {
	was, ok, err := g.earlyClose(ctx, tx, turn)
	if err != nil {
		return err
	}
	referee := c.By == closedByReferee
	if ok {
		if !referee || was.Referee {
			return nil
		}
		c = was
	}
	return tx.SetTurnClose(ctx, g.ID(), turn, store.TurnClose{At: c.At.UTC(), By: c.By, MailID: c.Mail, Referee: referee || c.Referee})
}

// same reports whether two readings of a turn's early close found the same.
func (c turnClose) same(o turnClose) bool {
	return c.At.Equal(o.At) && c.By == o.By && c.Mail == o.Mail && c.Referee == o.Referee
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
	if lastSub, err := g.reopenedLastSub(ctx, tx, turn); err != nil {
		return err
	} else if lastSub > 0 {
		subs = slices.DeleteFunc(subs, func(s store.Submission) bool { return s.Kind == KindFinal && s.ID <= lastSub })
	}
	if !allFinal(subs, playing) {
		return nil
	}
	return g.closeTurn(ctx, tx, turn, turnClose{At: m.ReceivedAt, By: closedByFinal, Mail: m.ID})
}

// closeCheck is what a mail's decision saw of its turn's early close; its
// commit checks that it still holds (errTurnMoved otherwise), so that a
// sheet decided before a RESOLVE NOW or the last FINAL was committed is not
// saved as on time when it arrived after it.
type closeCheck struct {
	turn   int
	seen   turnClose // the close seen
	closed bool      // false: none was
}

// checkClose returns errTurnMoved when the turn's early close is no longer
// what the decision saw (the zero check checks nothing).
func (g *Game) checkClose(ctx context.Context, tx *store.Tx, c *closeCheck) error {
	if c == nil {
		return nil
	}
	now, closed, err := g.earlyClose(ctx, tx, c.turn)
	if err != nil {
		return err
	}
	if closed != c.closed || !now.same(c.seen) {
		return errTurnMoved
	}
	return nil
}

// intakeWatch is the turn runner's view of the intake of this process:
// whether there is one, and when it last listed the mailbox with every mail
// found stored and handled (inbox.Options.OnPolled).
type intakeWatch struct {
	mu       sync.Mutex
	attached bool
	listed   time.Time
	pollNow  func()
}

// attachIntake tells the game that an intake of this process reads its
// mailbox (nil: no longer): the turn runner then waits for it at a
// deadline.
func (g *Game) attachIntake(pollNow func()) {
	g.watch.mu.Lock()
	defer g.watch.mu.Unlock()
	g.watch.attached, g.watch.pollNow = pollNow != nil, pollNow
}

// notePolled records a listing of the mailbox whose mail is all stored and
// handled, and wakes the turn runner.
func (g *Game) notePolled(listedAt time.Time) {
	g.watch.mu.Lock()
	if listedAt.After(g.watch.listed) {
		g.watch.listed = listedAt
	}
	g.watch.mu.Unlock()
	g.WakeTurns()
}

// caughtUp reports whether every mail that reached the server before at
// has been taken in: the intake of this process listed the mailbox at or
// after it (true when no intake runs here: "pbem resolve", tests). When it
// has not, the intake is asked to poll now.
func (g *Game) caughtUp(at time.Time) bool {
	g.watch.mu.Lock()
	attached, listed, poll := g.watch.attached, g.watch.listed, g.watch.pollNow
	g.watch.mu.Unlock()
	if !attached || !listed.Before(at) {
		return true
	}
	if poll != nil && !g.Now().Before(at) {
		poll()
	}
	return false
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

// MailClock is the outbox kind of the notice that the mail server's clock
// is off from this machine's.
const MailClock = "clock"

// noteSkew is the intake's OnSkew hook: the server's clock is off from this
// machine's by skew (> 0: ahead), as a mail stamped internal and fetched at
// fetched showed. Sheets are judged by the server's stamp, so a wrong clock
// moves every deadline for the players: the referee is told, by the log and
// by mail, once a day for each size of the difference (rounded to 5
// minutes).
func (g *Game) noteSkew(skew time.Duration, internal, fetched time.Time) {
	ctx := context.Background()
	how := "ahead of"
	if skew < 0 {
		how = "behind"
	}
	size := skew.Abs().Round(time.Second)
	bucket := (skew.Abs() + 150*time.Second) / (5 * time.Minute)
	key := fmt.Sprintf("%s:%d:%s", how, bucket, fetched.UTC().Format("2006-01-02"))
	g.Log.Error("the mail server's clock differs from this machine's", "how", how, "by", size, "internaldate", internal, "fetched", fetched)
	if told, err := g.DB.NoticeQueued(ctx, g.ID(), store.NoticeClock, key); err != nil || told {
		return
	}
	st, err := g.State(ctx)
	if err != nil {
		return
	}
	text := fmt.Sprintf("The game's mail server stamps mail about %s %s this machine's clock: a mail it stamped %s\n"+
		"was fetched by pbem at %s%s.\n\n"+
		"pbem judges every sheet by the time the server received it, so a clock that far off moves every\n"+
		"deadline for the players by as much. Check the time on both (pbem's machine and, with an external\n"+
		"provider, the provider's stamps in a received mail's headers) and set the wrong one right (NTP).\n"+
		"(Also possible: the server showed that mail over IMAP late, or someone moved an old mail into the inbox.)\n",
		size, how, g.showTime(internal), g.showTime(fetched),
		map[bool]string{true: "", false: ", and it was not there when pbem had looked at the mailbox before"}[skew > 0])
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if ref := g.Config.Game.Referee; ref != "" {
			msg := g.message(MailClock, "referee", st.Turn, key, []string{ref},
				fmt.Sprintf("[%s] The mail server's clock is %s %s pbem's", g.ID(), size, how), text, g.Now())
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.MarkNoticeQueued(ctx, g.ID(), store.NoticeClock, key, g.Now())
	})
	if err != nil {
		g.Log.Error("could not queue the clock notice to the referee", "err", err)
	}
}
