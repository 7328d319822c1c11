package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/schedule"
	"github.com/syw-pbem/pbem/store"
)

// Deadlines are stored per turn (store.Deadline). A turn's deadline is set
// from the config's schedule when the turn opens — when the game is created,
// when the turn before it is committed, or, for a game stored by an older
// pbem, at the first start — and changed afterwards only by the referee's
// DEADLINE SET and DEADLINE EXTEND. Everything that shows or uses the
// deadline (acknowledgments, the late check, the turn runner) reads the
// stored one; a config edited in mid-turn changes the next turns, never the
// one open.

// deadlineLayout is how a deadline is shown to people.
const deadlineLayout = "Monday 2 January 2006, 15:04 MST"

// scheduled returns the schedule's deadline for the turn after one whose
// scheduled deadline was prev (zero: the game's start), opening at opened:
// the first deadline of the schedule after prev that is also after opened
// (a turn resolved late, after an extension, does not open with a deadline
// already past). false when the schedule has none.
func (g *Game) scheduled(prev, opened time.Time) (time.Time, bool) {
	base := prev
	if base.IsZero() {
		base = opened
	}
	next, ok := g.Config.Game.Deadline.Next(base, g.Zone)
	for i := 0; ok && !next.After(opened) && i < 10000; i++ {
		next, ok = g.Config.Game.Deadline.Next(next, g.Zone)
	}
	return next, ok && next.After(opened)
}

// openDeadline stores the schedule's deadline for turn, which opens at
// opened, unless it has one already; prevTurn's stored deadline (if any)
// is where the schedule continues from.
func (g *Game) openDeadline(ctx context.Context, tx *store.Tx, turn int, opened time.Time) error {
	var prev time.Time
	if d, err := tx.TurnDeadline(ctx, g.ID(), turn-1); err == nil {
		prev = d.Scheduled
		if prev.IsZero() {
			prev = d.At
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	at, ok := g.scheduled(prev, opened)
	if !ok {
		return nil
	}
	_, err := tx.OpenDeadline(ctx, g.ID(), turn, at)
	return err
}

// ensureDeadline gives the turn now open its deadline from the schedule if
// it has none (a game stored by a pbem that did not store deadlines), unless
// the game is over. The daemon calls it at start.
func (g *Game) ensureDeadline(ctx context.Context) error {
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return err
	}
	st, err := g.decoded(rec)
	if err != nil || g.gameOver(st) != nil {
		return err // gameover.go: the game is over, no turn opens
	}
	if _, err := g.DB.TurnDeadline(ctx, g.ID(), st.Turn); err == nil || !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return g.DB.Update(ctx, func(tx *store.Tx) error { return g.openDeadline(ctx, tx, st.Turn, rec.ResolvedAt) })
}

// TurnDeadline returns the stored deadline of a turn in the game's zone:
// the one set when the turn opened, or the referee's DEADLINE since; zero
// when it has none.
func (g *Game) TurnDeadline(ctx context.Context, turn int) (time.Time, error) {
	return g.turnDeadline(ctx, turn)
}

// turnDeadline returns the stored deadline of a turn, zero when it has none.
func (g *Game) turnDeadline(ctx context.Context, turn int) (time.Time, error) {
	d, err := g.DB.TurnDeadline(ctx, g.ID(), turn)
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return d.At.In(g.Zone), nil
}

// extendDeadline moves a deadline later: whole days keep the wall-clock time
// across a daylight-saving change (DEADLINE EXTEND 2d from Friday 18:00 is
// Sunday 18:00 whatever the clocks did), and hours and minutes are added
// as elapsed time.
func (g *Game) extendDeadline(cur time.Time, by time.Duration) time.Time {
	days := int(by / (24 * time.Hour))
	rest := by - time.Duration(days)*24*time.Hour
	w := cur.In(g.Zone)
	return schedule.At(w.Year(), w.Month(), w.Day()+days, w.Hour(), w.Minute(), w.Second(), g.Zone).Add(rest)
}

// showTime prints an instant in the game's zone for people.
func (g *Game) showTime(t time.Time) string { return t.In(g.Zone).Format(deadlineLayout) }

// showDay prints the day of t in the game's zone: "Friday 27 November 2026".
func (g *Game) showDay(t time.Time) string { return t.In(g.Zone).Format("Monday 2 January 2006") }

// nextDeadline is the deadline the turn after turn opens with when turn is
// resolved at resolved, and, when turn was resolved before its deadline
// (RESOLVE NOW, or every nation FINAL), a sentence for the referee on how
// game.after_early_resolve set it ("" otherwise). keep-schedule continues
// the schedule from turn's scheduled deadline; shift counts from the
// resolution. zero: the schedule gives none.
func (g *Game) nextDeadline(ctx context.Context, turn int, resolved time.Time) (time.Time, string, error) {
	var prev, inForce time.Time
	if d, err := g.DB.TurnDeadline(ctx, g.ID(), turn); err == nil {
		prev, inForce = d.Scheduled, d.At
		if prev.IsZero() {
			prev = d.At
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return time.Time{}, "", err
	}
	keep, okKeep := g.scheduled(prev, resolved)
	if inForce.IsZero() || !resolved.Before(inForce) {
		if !okKeep {
			keep = time.Time{}
		}
		return keep, "", nil
	}
	shift, okShift := g.scheduled(resolved, resolved)
	show := func(t time.Time, ok bool) string {
		if !ok {
			return "none (the schedule gives no more)"
		}
		return g.showTime(t)
	}
	if g.Config.Game.AfterEarlyResolve == config.AfterEarlyShift {
		if !okShift {
			shift = time.Time{}
		}
		return shift, fmt.Sprintf("The turn was resolved before its deadline (%s): the next deadline, %s, is counted from the day "+
			"it was resolved, %s (game.after_early_resolve: shift; keep-schedule would have given %s).",
			g.showTime(inForce), show(shift, okShift), g.showDay(resolved), show(keep, okKeep)), nil
	}
	if !okKeep {
		keep = time.Time{}
	}
	return keep, fmt.Sprintf("The turn was resolved before its deadline (%s): the next deadline, %s, follows the schedule "+
		"(game.after_early_resolve: keep-schedule; shift, counting from the day it was resolved, %s, would have given %s).",
		g.showTime(inForce), show(keep, okKeep), g.showDay(resolved), show(shift, okShift)), nil
}

// earlyScheduleNote is nextDeadline's sentence for a turn resolved now, for
// the answer to RESOLVE NOW ("" if there is none to say).
func (g *Game) earlyScheduleNote(ctx context.Context, turn int, at time.Time) string {
	_, note, err := g.nextDeadline(ctx, turn, at)
	if err != nil {
		return ""
	}
	return note
}
