package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// ROLLBACK and RERUN of any turn. The store never deletes a turn: a
// rollback sets the records of the turns it undoes aside as voided (kept
// for the record; store.LatestTurn and store.Turn skip them), so the game
// is back where it stood before turn n, and turn n is open again with its
// stored sheets and rulings. A reopened turn is held: it is not resolved at
// a deadline that had passed at the rollback, nor by a RESOLVE NOW or FINAL
// marks given before it, but by the referee's RESOLVE NOW or RERUN after it,
// a deadline set after it, or its own deadline if that was still to come at
// the rollback (reopenedDeadline); the answer says which (reopenedWhen).
//
// Resolving a reopened turn compares the result with the voided record: the
// same state, events and dice restore that record (un-voided), so nothing
// new is saved or sent and the reports already sent stand with their
// Message-IDs; a different result is saved as the next version and every
// nation and the referee get corrected reports under new Message-IDs.
//
// RERUN n of a turn already resolved resolves it again from the state
// before it: unchanged, nothing is written; changed, the turns after it are
// voided as by a rollback, turn n's new result saved, and turn n+1 open
// again (held as above).

// rollbackPlan is what a ROLLBACK writes.
type rollbackPlan struct {
	turn   int                // the turn open again
	latest store.TurnRecord   // the latest record when it was decided
	void   []store.TurnRecord // the records set aside, turn n first
	label  string             // turn n's label
	// deadline is turn n's deadline in force (zero: none), and now when
	// the rollback was decided: a deadline still to come then resolves the
	// reopened turn (reopenedDeadline), one passed does not.
	deadline, now time.Time
}

// ErrNotResolved is what Rollback and Rerun return (errors.Is) when the turn
// named has not been resolved: the caller named a wrong turn, a usage error
// ("pbem rollback 5" with turn 4 open exits 2), not a failure.
var ErrNotResolved = errors.New("the turn has not been resolved")

// notResolvedError says which turn, and which turns could be named.
type notResolvedError struct{ msg string }

func (e notResolvedError) Error() string      { return e.msg }
func (notResolvedError) Is(target error) bool { return target == ErrNotResolved }

func notResolved(format string, args ...any) error {
	return notResolvedError{fmt.Sprintf(format, args...)}
}

// decideRollback works out a rollback to before turn n, writing nothing.
func (g *Game) decideRollback(ctx context.Context, n int) (rollbackPlan, error) {
	latest, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return rollbackPlan{}, err
	}
	st, err := g.decoded(latest)
	if err != nil {
		return rollbackPlan{}, err
	}
	if latest.Status != store.TurnResolved {
		return rollbackPlan{}, notResolved("no turn has been resolved yet (%s is open for orders): there is nothing to roll back", g.labelOf(st, st.Turn))
	}
	if n < 1 || n > latest.Turn {
		return rollbackPlan{}, notResolved("turn %d has not been resolved (%s is open for orders): the turns that can be rolled back are 1 to %d",
			n, g.labelOf(st, st.Turn), latest.Turn)
	}
	p := rollbackPlan{turn: n, latest: latest, label: g.labelOf(st, n), now: g.Now()}
	if p.deadline, err = g.turnDeadline(ctx, n); err != nil {
		return rollbackPlan{}, err
	}
	for t := n; t <= latest.Turn; t++ {
		rec, err := g.DB.Turn(ctx, g.ID(), t)
		if err != nil {
			return rollbackPlan{}, err
		}
		p.void = append(p.void, rec)
	}
	return p, nil
}

// writeRollback carries out a rollback inside tx, unless the game moved on
// since it was decided (errTurnChanged).
func (g *Game) writeRollback(ctx context.Context, tx *store.Tx, p rollbackPlan) error {
	if err := g.setAside(ctx, tx, p.latest, p.void); err != nil {
		return err
	}
	return markReopened(ctx, tx, g.ID(), p.turn, g.Now())
}

// Rollback sets turn n and every later turn aside (voided, kept for the
// record) and opens turn n again: what "pbem rollback" runs (the ROLLBACK
// entry, referee_turn.go). It returns the sentence the referee reads.
func (g *Game) Rollback(ctx context.Context, n int) (string, error) {
	line, err := g.RunReferee(ctx, refcmd.Rollback{Turn: n}, 0)
	if err == nil {
		g.Log.Info("rolled back", "game", g.ID(), "open", n)
	}
	return line, err
}

// rollbackSentence is the answer to a rollback: what was set aside, and
// when the reopened turn is resolved — as the turn runner will
// (reopenedDeadline): at its deadline if that is still to come, else only
// on the referee's word or a deadline set from now on.
func (g *Game) rollbackSentence(p rollbackPlan) string {
	return fmt.Sprintf("%s is open again: %s set aside (kept for the record). Its stored sheets and rulings "+
		"stand; %s. Resolved to the same result, the reports already sent stand and nothing new is sent",
		p.label, english.Count(len(p.void), "turn record"), g.reopenedWhen(p.turn, p.deadline, p.now))
}

// reopenedWhen says when a turn reopened at now, whose deadline in force is
// deadline (zero: none), is resolved, as the turn runner will see it
// (reopenedDeadline).
func (g *Game) reopenedWhen(turn int, deadline, now time.Time) string {
	switch {
	case deadline.IsZero():
		return fmt.Sprintf("it has no deadline: it is resolved on RESOLVE NOW or RERUN %d, or at a deadline set from now on (DEADLINE SET/EXTEND)", turn)
	case deadline.After(now):
		return fmt.Sprintf("it is resolved at its deadline, %s, unless RESOLVE NOW or RERUN %d resolves it sooner or DEADLINE SET/EXTEND moves it",
			g.showTime(deadline), turn)
	}
	return fmt.Sprintf("its deadline, %s, has passed and does not resolve it: it is held until RESOLVE NOW or RERUN %d, or a deadline set from now on (DEADLINE SET/EXTEND)",
		g.showTime(deadline), turn)
}

// rerunPlan is what a RERUN writes.
type rerunPlan struct {
	out    turnOutcome
	latest store.TurnRecord   // the latest record when it was decided
	void   []store.TurnRecord // the later turns' records it sets aside
	same   bool               // the result is the voided record's, byte for byte: it is restored
	// nextDeadline is the deadline turn n+1 opens again with when later
	// turns are set aside, and now when the rerun was decided.
	nextDeadline, now time.Time
}

// decideRerunAny works out RERUN n, writing nothing: n is a resolved turn,
// or the turn open again after a rollback. unchanged is set when n is
// resolved and its result is the same, byte for byte (nothing to write).
func (g *Game) decideRerunAny(ctx context.Context, n int) (p rerunPlan, unchanged bool, err error) {
	latest, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return rerunPlan{}, false, err
	}
	st, err := g.decoded(latest)
	if err != nil {
		return rerunPlan{}, false, err
	}
	p.latest = latest
	if n == latest.Turn+1 {
		if err := g.errGameOver(st); err != nil {
			return rerunPlan{}, false, err // gameover.go: the turn after the victory is never resolved
		}
		voided, ok, err := g.DB.LastVoided(ctx, g.ID(), n)
		if err != nil {
			return rerunPlan{}, false, err
		}
		if !ok {
			return rerunPlan{}, false, fmt.Errorf("turn %d (%s) has not been resolved yet: write RESOLVE NOW", n, g.labelOf(st, n))
		}
		if p.out, err = g.decideFrom(ctx, latest, latest, voided.Version); err != nil {
			return rerunPlan{}, false, err
		}
		p.same = sameResult(p.out.rec, voided)
		return p, false, nil
	}
	if n < 1 || n > latest.Turn || latest.Status != store.TurnResolved {
		return rerunPlan{}, false, notResolved("turn %d has not been resolved: the turns that can be run again are 1 to %d", n, latest.Turn)
	}
	cur, err := g.DB.Turn(ctx, g.ID(), n)
	if err != nil {
		return rerunPlan{}, false, err
	}
	from, err := g.DB.Turn(ctx, g.ID(), n-1)
	if err != nil {
		return rerunPlan{}, false, err
	}
	if p.out, err = g.decideFrom(ctx, from, cur, cur.Version); err != nil {
		return rerunPlan{}, false, err
	}
	if sameResult(p.out.rec, cur) {
		return p, true, nil
	}
	for t := n + 1; t <= latest.Turn; t++ {
		rec, err := g.DB.Turn(ctx, g.ID(), t)
		if err != nil {
			return rerunPlan{}, false, err
		}
		p.void = append(p.void, rec)
	}
	if len(p.void) > 0 {
		// Turn n+1 opens again with the deadline it had (OpenDeadline
		// keeps it), or the schedule's if it had none.
		p.now = g.Now()
		if p.nextDeadline, err = g.turnDeadline(ctx, n+1); err != nil {
			return rerunPlan{}, false, err
		}
		if p.nextDeadline.IsZero() {
			p.nextDeadline = p.out.next
		}
	}
	return p, false, nil
}

// sameResult reports whether a resolution gives a record's bytes.
func sameResult(a, b store.TurnRecord) bool {
	return bytes.Equal(a.State, b.State) && bytes.Equal(a.EventLog, b.EventLog) && bytes.Equal(a.Dice, b.Dice)
}

// writeRerun carries out a rerun inside tx: the later turns set aside, then
// the turn written as the turn runner writes it (writeTurn, which restores
// a voided record the rerun gives again).
func (g *Game) writeRerun(ctx context.Context, tx *store.Tx, p rerunPlan) error {
	if err := g.setAside(ctx, tx, p.latest, p.void); err != nil {
		return err
	}
	return g.writeTurn(ctx, tx, p.out)
}

// restoreVoided is writeTurn's hook. When the turn resolved has a voided
// record and the new result is that record's, byte for byte, it restores
// the record instead of writing a new version (done: nothing more to write,
// nothing to send: the reports sent stand). In every case, a next turn that
// was set aside is marked reopened.
func (g *Game) restoreVoided(ctx context.Context, tx *store.Tx, out turnOutcome) (done bool, err error) {
	if _, ok, err := tx.LastVoided(ctx, g.ID(), out.resolved+1); err != nil {
		return false, err
	} else if ok {
		if err := markReopened(ctx, tx, g.ID(), out.resolved+1, g.Now()); err != nil {
			return false, err
		}
	}
	if out.rerunOf == 0 {
		return false, nil
	}
	old, err := tx.TurnVersion(ctx, g.ID(), out.resolved, out.rerunOf)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil || old.Status != store.TurnVoided || !sameResult(out.rec, old) {
		return false, err
	}
	return true, tx.SetTurnStatus(ctx, g.ID(), out.resolved, out.rerunOf, store.TurnResolved)
}

// reopenedVersion is decideFrom's hook: the version of the voided record of
// a turn open again after a rollback (0 if none), which its resolution
// corrects.
func (g *Game) reopenedVersion(ctx context.Context, turn int) (int, error) {
	rec, ok, err := g.DB.LastVoided(ctx, g.ID(), turn)
	if err != nil || !ok {
		return 0, err
	}
	return rec.Version, nil
}

// rerunSentence is the referee's answer to RERUN n decided as p
// (unchanged: the same bytes).
func (g *Game) rerunSentence(p rerunPlan, unchanged bool, n int) string {
	switch {
	case unchanged:
		return fmt.Sprintf("%s resolves to the same result, byte for byte: nothing was changed or sent", p.out.label)
	case p.same:
		return fmt.Sprintf("%s resolves to the same result as before the rollback, byte for byte: that result is restored, "+
			"and the reports already sent stand (nothing new is sent)", p.out.label)
	}
	s := fmt.Sprintf("%s resolved again with a different result: the earlier one is voided (kept for the record) and "+
		"corrected reports go to every nation", p.out.label)
	if len(p.void) > 0 {
		s += fmt.Sprintf("; the %s %s set aside and turn %d is open again (its sheets stand; %s)",
			english.Count(len(p.void), "later turn"), english.Agree(len(p.void), "is", "are"), n+1, g.reopenedWhen(n+1, p.nextDeadline, p.now))
	}
	return s
}

// Rerun runs turn n again: what "pbem rerun" runs (the RERUN entry,
// referee_turn.go). It returns the sentence the referee reads.
func (g *Game) Rerun(ctx context.Context, n int) (string, error) {
	return g.RunReferee(ctx, refcmd.Rerun{Turn: n}, 0)
}

// setAside voids the turn records void inside tx, unless the latest turn is
// no longer latest, the one the plan was decided on (errTurnChanged): what
// a rollback and a rerun both do first.
func (g *Game) setAside(ctx context.Context, tx *store.Tx, latest store.TurnRecord, void []store.TurnRecord) error {
	cur, err := tx.LatestTurn(ctx, g.ID())
	if err != nil {
		return err
	}
	if cur.Turn != latest.Turn || cur.Version != latest.Version {
		return errTurnChanged
	}
	for _, rec := range void {
		if err := tx.SetTurnStatus(ctx, g.ID(), rec.Turn, rec.Version, store.TurnVoided); err != nil {
			return err
		}
	}
	return nil
}
