package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// The game's state between turns, as the daemon reads and writes it. Each
// kind has a table of its own in the store (store/migrate.go, migration 9),
// typed store methods, and one file of the daemon that decides on it; this
// file holds the accessors they share, in the engine's words:
//
//	kind                       store                               decided in
//	the treaty ledger          TreatyLedger, SaveTreatyLedger      treaty.go (mail), turnledger.go (turns)
//	the ledger of a turn       TurnTreatyLedger                    turnledger.go, archive.go
//	treaties mailed as public  TreatyMailed, MarkTreatyMailed      treaty.go
//	an early close             TurnClose, SetTurnClose             closing.go, sheet.go (RESOLVE NOW)
//	a reopened turn            TurnReopen, SetTurnReopen           rollback.go
//	a held turn                TurnHold, SetTurnHold               outage.go
//	battles on the table       TabletopBattle, MarkBattle…         tabletop.go
//	reminders sent             Reminded, MarkReminded              reminders.go
//	notices sent once          NoticeQueued, MarkNoticeQueued      intake.go, outage.go, logins.go
//	the run, the turn runner   LastRun, TurnRunner                 runstate.go
//	the intake's health        IntakeHealth                        intake.go
//	the dice key               DiceKey, EnsureDiceKey              turn.go
//	starting reports sent      StartReportsQueued                  startreports.go
//	a Message-ID's first mail  ClaimedBy, Claim                    mail.go
//	the console's acts         DeskActs, AddDeskAct                desk.go (migration 11)
//
// Deadlines (deadlines.go) and the request book — requests, rulings and the
// requests a new sheet carries over (special.go, rulings.go) — are
// submissions and deadline rows, typed from the start. Nothing of a report
// is stored: reports are rebuilt from the turns' states and events
// (reportmodel.go). The meta table keeps no game state (store/meta.go).

// ledger is the treaties as read; present is false while the game has no
// ledger (no treaty was ever sent: the state's own treaties stand). seen
// is what was read, as text: the engine's treaty functions change the
// treaties in place, and a commit compares what it reads with what its
// decision read; stored is what was read, in the store's words, which no
// one changes (a turn keeps it as the ledger it was resolved from).
type ledger struct {
	present  bool
	treaties []game.Treaty
	stored   []store.Treaty
	seen     string
}

// same reports whether two readings of the ledger found the same: what a
// commit checks against the reading its decision was made on.
func (l ledger) same(o ledger) bool { return l.present == o.present && l.seen == o.seen }

// ledgerReader is the store, or a transaction.
type ledgerReader interface {
	TreatyLedger(ctx context.Context, gameID string) ([]store.Treaty, bool, error)
}

// readLedger reads a game's treaty ledger.
func readLedger(ctx context.Context, r ledgerReader, gameID string) (ledger, error) {
	ts, ok, err := r.TreatyLedger(ctx, gameID)
	if err != nil || !ok {
		return ledger{}, err
	}
	return ledgerOf(ts)
}

// ledgerOf is a ledger read as ts.
func ledgerOf(ts []store.Treaty) (ledger, error) {
	seen, err := json.Marshal(ts)
	if err != nil {
		return ledger{}, err
	}
	return ledger{present: true, treaties: treatiesOf(ts), stored: ts, seen: string(seen)}, nil
}

// treatiesOf turns the store's treaties into the engine's.
func treatiesOf(ts []store.Treaty) []game.Treaty {
	nations := func(ss []string) []game.NationID {
		var out []game.NationID
		for _, s := range ss {
			out = append(out, game.NationID(s))
		}
		return out
	}
	var out []game.Treaty
	for _, t := range ts {
		gt := game.Treaty{ID: t.ID, Title: t.Title, Text: t.Text, Parties: nations(t.Parties), Attested: nations(t.Attested),
			Proposer: game.NationID(t.Proposer), Submitted: t.Submitted, Ratified: t.Ratified, Published: t.Published}
		for _, p := range t.Penalties {
			gt.Penalties = append(gt.Penalties, game.TreatyPenalty{Offender: game.NationID(p.Offender),
				Aggrieved: game.NationID(p.Aggrieved), Since: p.Since, Ended: p.Ended})
		}
		out = append(out, gt)
	}
	return out
}

// storeTreaties turns the engine's treaties into the store's.
func storeTreaties(ts []game.Treaty) []store.Treaty {
	names := func(ns []game.NationID) []string {
		var out []string
		for _, n := range ns {
			out = append(out, string(n))
		}
		return out
	}
	var out []store.Treaty
	for _, t := range ts {
		st := store.Treaty{ID: t.ID, Title: t.Title, Text: t.Text, Parties: names(t.Parties), Attested: names(t.Attested),
			Proposer: string(t.Proposer), Submitted: t.Submitted, Ratified: t.Ratified, Published: t.Published}
		for _, p := range t.Penalties {
			st.Penalties = append(st.Penalties, store.TreatyPenalty{Offender: string(p.Offender), Aggrieved: string(p.Aggrieved),
				Since: p.Since, Ended: p.Ended})
		}
		out = append(out, st)
	}
	return out
}

// saveLedgerIfUnchanged writes the new ledger if the stored one is still
// the one the mail was decided on.
func saveLedgerIfUnchanged(ctx context.Context, tx *store.Tx, gameID string, was ledger, ts []game.Treaty) error {
	now, err := readLedger(ctx, tx, gameID)
	if err != nil {
		return err
	}
	if !now.same(was) {
		return errLedgerMoved
	}
	return tx.SaveTreatyLedger(ctx, gameID, storeTreaties(ts))
}

// turnLedger reads the ledger turn was resolved from (store.TurnTreatyLedger).
func turnLedger(ctx context.Context, db *store.DB, gameID string, turn int) (ledger, error) {
	ts, ok, err := db.TurnTreatyLedger(ctx, gameID, turn)
	if err != nil || !ok {
		return ledger{}, err
	}
	return ledgerOf(ts)
}

// ledgerFor returns the ledger to resolve turn from, and the stored ledger
// as read now (for the commit's check).
func ledgerFor(ctx context.Context, db *store.DB, gameID string, turn, rerunOf int) (in, now ledger, err error) {
	if now, err = readLedger(ctx, db, gameID); err != nil {
		return ledger{}, ledger{}, err
	}
	if rerunOf > 0 {
		in, err = turnLedger(ctx, db, gameID, turn)
		return in, now, err
	}
	return now, now, nil
}

// ledgerOfTurn returns the ledger turn was resolved from (stored with it),
// or the ledger as it stands for a turn not resolved yet, or resolved with
// none: what an archive's re-resolution and a tabletop trial put into the
// state, as decideFrom does.
func ledgerOfTurn(ctx context.Context, db *store.DB, gameID string, turn int) (ledger, error) {
	was, err := turnLedger(ctx, db, gameID, turn)
	if err != nil || was.present {
		return was, err
	}
	return readLedger(ctx, db, gameID)
}

// closeReader is the store, or a transaction.
type closeReader interface {
	TurnClose(ctx context.Context, gameID string, turn int) (store.TurnClose, bool, error)
}

// earlyClose reads a turn's early close (RESOLVE NOW or the last FINAL);
// ok is false while none is recorded.
func (g *Game) earlyClose(ctx context.Context, r closeReader, turn int) (c turnClose, ok bool, err error) {
	return readClose(ctx, r, g.ID(), turn)
}

func readClose(ctx context.Context, r closeReader, gameID string, turn int) (c turnClose, ok bool, err error) {
	sc, ok, err := r.TurnClose(ctx, gameID, turn)
	if err != nil || !ok {
		return turnClose{}, false, err
	}
	return turnClose{At: sc.At, By: sc.By, Mail: sc.MailID, Referee: sc.Referee}, true, nil
}

// recordClose records an early close of turn inside tx, unless one is
// recorded already (the first close stands; a RESOLVE NOW after it marks
// it the referee's).
func recordClose(ctx context.Context, tx *store.Tx, gameID string, turn int, c turnClose) error {
	was, ok, err := readClose(ctx, tx, gameID, turn)
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
	return tx.SetTurnClose(ctx, gameID, turn, store.TurnClose{At: c.At.UTC(), By: c.By, MailID: c.Mail, Referee: referee || c.Referee})
}

// same reports whether two readings of a turn's early close found the same.
func (c turnClose) same(o turnClose) bool {
	return c.At.Equal(o.At) && c.By == o.By && c.Mail == o.Mail && c.Referee == o.Referee
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
func checkClose(ctx context.Context, tx *store.Tx, gameID string, c *closeCheck) error {
	if c == nil {
		return nil
	}
	now, closed, err := readClose(ctx, tx, gameID, c.turn)
	if err != nil {
		return err
	}
	if closed != c.closed || !now.same(c.seen) {
		return errTurnMoved
	}
	return nil
}

// markReopened records that turn was reopened at now, with the last
// submission of the turn before it.
func markReopened(ctx context.Context, tx *store.Tx, gameID string, turn int, now time.Time) error {
	subs, err := tx.Submissions(ctx, gameID, turn)
	if err != nil {
		return err
	}
	r := store.TurnReopen{At: now.UTC()}
	for _, s := range subs {
		r.LastSubmission = max(r.LastSubmission, s.ID)
	}
	// closing.go: a RESOLVE NOW or FINAL close from before no longer holds.
	if err := tx.ClearTurnClose(ctx, gameID, turn); err != nil {
		return err
	}
	return tx.SetTurnReopen(ctx, gameID, turn, r)
}

// reopenReader is the store, or a transaction.
type reopenReader interface {
	TurnReopen(ctx context.Context, gameID string, turn int) (store.TurnReopen, bool, error)
}

// reopenedLastSub returns, for a turn reopened by a rollback and not yet
// resolved again, the last submission of the turn before the reopening
// (RESOLVE NOW and FINAL marks up to it no longer count); 0 otherwise.
func reopenedLastSub(ctx context.Context, r reopenReader, gameID string, turn int) (int64, error) {
	o, ok, err := r.TurnReopen(ctx, gameID, turn)
	if err != nil || !ok {
		return 0, err
	}
	return o.LastSubmission, nil
}

// reopenedDeadline is the turn runner's hook: for a turn reopened by a
// rollback (and not resolved since) it drops a deadline that had passed
// before the rollback, so that only a RESOLVE NOW after it (markReopened
// cleared the early close of before) or a deadline set after it resolves
// the turn.
func reopenedDeadline(ctx context.Context, db *store.DB, gameID string, turn int, deadline time.Time) (time.Time, error) {
	o, ok, err := db.TurnReopen(ctx, gameID, turn)
	if err != nil || !ok || deadline.IsZero() {
		return deadline, err
	}
	if _, voided, err := db.LastVoided(ctx, gameID, turn); err != nil || !voided {
		return deadline, err // resolved since: the mark is history
	}
	if !deadline.After(o.At) {
		return time.Time{}, nil
	}
	return deadline, nil
}

// turnHold is a turn held by the guard: at which deadline, why, since when,
// and whether it was released once the mail worked again (after_outage:
// resolve).
type turnHold = store.TurnHold

// heldTurn reads a turn's hold; ok is false when it has none for this
// deadline (a deadline set since the hold makes it history).
func (g *Game) heldTurn(ctx context.Context, turn int, deadline time.Time) (h turnHold, ok bool, err error) {
	h, found, err := g.DB.TurnHold(ctx, g.ID(), turn)
	if err != nil || !found {
		return turnHold{}, false, err
	}
	return h, h.Deadline.Equal(deadline), nil
}

// archivedTurn returns the state stored with turn (the record in force),
// its events (none for the opening) and the record.
func archivedTurn(ctx context.Context, db *store.DB, gameID string, turn int) (*engine.State, []engine.Event, store.TurnRecord, error) {
	rec, err := db.Turn(ctx, gameID, turn)
	if err != nil {
		return nil, nil, store.TurnRecord{}, err
	}
	var st engine.State
	if err := json.Unmarshal(rec.State, &st); err != nil {
		return nil, nil, rec, fmt.Errorf("the stored state of turn %d is damaged: %w", turn, err)
	}
	var events []engine.Event
	if turn > 0 && len(rec.EventLog) > 0 {
		if events, err = engine.UnmarshalEvents(rec.EventLog); err != nil {
			return nil, nil, rec, fmt.Errorf("the stored events of turn %d are damaged: %w", turn, err)
		}
	}
	return &st, events, rec, nil
}
