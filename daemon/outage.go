package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// The mail-outage guard. A turn must not be resolved while its mail cannot
// come in or go out: a sheet sent to a server that was down bounced or
// waited at the sender's provider and reached the game late, and answers
// and reports pile up unsent. (Mail that reached the server while only
// pbem could not read it counts by its arrival: inbox/arrival.go.) So the
// intake's health is recorded (from its log: "connected" is up,
// "reconnecting" is down; the last outage is kept with its start and end),
// and the outbox records its own (outbox.Health: what failed, not what is
// merely queued), both in the store, where "pbem status" reads them too.
// When a turn's orders close at its deadline the turn is held when
//
//   - the intake of this run cannot reach the mailbox now,
//   - it could not for outageMin or more within game.outage_hours before the
//     deadline, or
//   - every attempt of this run's outbox to send has failed for
//     outboxStuckAfter or more,
//
// and the hold is recorded (store.TurnHold). A held turn waits
// for the referee — RESOLVE NOW (which the referee may send in reply to the
// notice: it is bound to the held turn, bind.go), or a new deadline — even
// once the mail works again, unless game.after_outage is "resolve": then it
// is resolved as soon as the cause is gone and the mail that reached the
// server before the deadline is in. The referee is told by the log (error
// level) and by mail (queued: it goes when the outbox works again), once per
// turn and cause, and once more when the mail works again, saying which of
// the two happens.

const (
	outageMin        = 5 * time.Minute  // a shorter blip of the intake is not an outage
	outboxStuckAfter = 15 * time.Minute // mail due this long and not sent: the outbox is stuck
)

// MailOutage is the outbox kind of the notice that a turn waits for the mail.
const MailOutage = "outage"

// outboxFailing says since when every attempt of this run's outbox to send
// has failed, and the last failure (zero: it works, or has not tried yet).
// What is merely queued is not failing: a reminder queued for later, or a
// burst of reports under the provider's pace, holds nothing.
func (g *Game) outboxFailing(ctx context.Context) (since time.Time, last string, err error) {
	h, ok, err := outbox.ReadHealth(ctx, g.DB)
	if err != nil || !ok || h.OK || h.Run != g.run.ID() || g.run.ID() == "" {
		return time.Time{}, "", err
	}
	return h.Since, h.LastError, nil
}

// outageCause says why the mail cannot be trusted for a turn whose deadline
// it is ("" when it can).
func (g *Game) outageCause(ctx context.Context, deadline time.Time) (string, error) {
	window := time.Duration(g.Config.Game.OutageHours) * time.Hour
	h, err := g.IntakeHealth(ctx)
	if err != nil {
		return "", err
	}
	switch {
	case h.Known && !h.Up && h.Run == g.run.ID():
		return fmt.Sprintf("pbem cannot read the game's mailbox since %s (%s)", g.showTime(h.Since), h.LastError), nil
	case !h.OutageFrom.IsZero() && !h.OutageTo.IsZero() && h.OutageTo.Sub(h.OutageFrom) >= outageMin && !deadline.IsZero() &&
		h.OutageTo.After(deadline.Add(-window)) && h.OutageFrom.Before(deadline):
		return fmt.Sprintf("pbem could not read the game's mailbox from %s to %s, within %s before the deadline: "+
			"players' mail may have bounced or been held up", g.showTime(h.OutageFrom), g.showTime(h.OutageTo), english.Count(g.Config.Game.OutageHours, "hour")), nil
	}
	since, last, err := g.outboxFailing(ctx)
	if err != nil || since.IsZero() || g.Now().Sub(since) < outboxStuckAfter {
		return "", err
	}
	return fmt.Sprintf("every attempt to send mail has failed since %s (the last: %s; see pbem status)", g.showTime(since), last), nil
}

// outageHold is the turn runner's hook for a turn whose orders closed at
// its deadline: it returns why the turn must wait ("" if it need not),
// records the hold and tells the referee.
func (g *Game) outageHold(ctx context.Context, turn int, deadline time.Time) (string, error) {
	if g.Config.Game.OutageHours <= 0 {
		return "", nil
	}
	cause, err := g.outageCause(ctx, deadline)
	if err != nil {
		return "", err
	}
	held, ok, err := g.heldTurn(ctx, turn, deadline)
	if err != nil {
		return "", err
	}
	switch {
	case cause != "":
		if !ok || held.Released {
			if err := g.DB.SetTurnHold(ctx, g.ID(), turn, turnHold{Deadline: deadline, Why: cause, At: g.Now().UTC()}); err != nil {
				return "", err
			}
		}
		g.tellOutage(ctx, turn, deadline, cause)
		return cause, nil
	case !ok || held.Released:
		return "", nil
	case g.Config.Game.AfterOutage == config.AfterOutageResolve:
		held.Released = true
		if err := g.DB.SetTurnHold(ctx, g.ID(), turn, held); err != nil {
			return "", err
		}
		g.tellMailBack(ctx, turn, deadline, held, true)
		return "", nil
	}
	g.tellMailBack(ctx, turn, deadline, held, false)
	return fmt.Sprintf("held since %s: %s. The mail works again; the turn waits for the referee (RESOLVE NOW, or a new deadline)",
		g.showTime(held.At), held.Why), nil
}

// tellMailBack tells the referee, once per hold, that the mail works again
// and what the held turn does now: resolve (game.after_outage: resolve), or
// wait for the referee.
func (g *Game) tellMailBack(ctx context.Context, turn int, deadline time.Time, held turnHold, resolving bool) {
	what := "it still waits for you: reply to this mail with RESOLVE NOW to resolve it as it stands, or give players " +
		"time with DEADLINE EXTEND 1d (game.after_outage: wait)"
	if resolving {
		what = "it is resolved now, with the sheets that reached the server before the deadline (game.after_outage: resolve)"
	}
	g.tellOutage(ctx, turn, deadline, fmt.Sprintf("the mail works again. It was held since %s (%s); %s", g.showTime(held.At), held.Why, what))
}

// tellOutage tells the referee about a held turn: in the log and by mail,
// once per turn, deadline and text. The mail is about the turn, so the
// referee's RESOLVE NOW or DEADLINE sent in reply to it acts on this turn
// and no other (bind.go).
func (g *Game) tellOutage(ctx context.Context, turn int, deadline time.Time, why string) {
	sum := sha256.Sum256([]byte(deadline.UTC().Format(time.RFC3339) + "\x00" + why))
	key := hex.EncodeToString(sum[:8])
	if told, err := g.DB.NoticeQueued(ctx, g.ID(), store.NoticeOutage, key); err != nil || told {
		return
	}
	g.Log.Error("the turn is held: the mail is not working, or was not", "turn", turn, "deadline", deadline, "why", why)
	st, err := g.State(ctx)
	if err != nil {
		return
	}
	label := g.labelOf(st, turn)
	subject := fmt.Sprintf("[%s] %s waits: the mail is not working", g.ID(), label)
	text := fmt.Sprintf("%s is due (deadline %s) but waits: %s.\n\n"+
		"Once the mail works again, either move the deadline so that players can send their sheets\n"+
		"(DEADLINE EXTEND 1d), or resolve the turn as it stands (RESOLVE NOW). Reply to this mail\n"+
		"with your command (and your PASSWORD line): a command in reply to it acts on %s only,\n"+
		"never on a later turn; or write TURN %d above it.\n\n\"pbem status\" shows the intake's and the outbox's health.\n",
		label, g.showTime(deadline), why, label, turn)
	if strings.HasPrefix(why, "the mail works again") {
		subject = fmt.Sprintf("[%s] %s: the mail works again", g.ID(), label)
		text = fmt.Sprintf("%s (deadline %s): %s.\n\nA command in reply to this mail (with your PASSWORD line) acts on %s only; "+
			"or write TURN %d above it.\n", label, g.showTime(deadline), why, label, turn)
	}
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if ref := g.Config.Game.Referee; ref != "" {
			msg := g.message(MailOutage, "referee", turn, key, []string{ref}, subject, text, g.Now())
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.MarkNoticeQueued(ctx, g.ID(), store.NoticeOutage, key, g.Now())
	})
	if err != nil {
		g.Log.Error("could not queue the outage notice to the referee", "err", err)
	}
}
