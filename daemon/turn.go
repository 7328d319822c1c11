package daemon

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/reports/reportmail"
	"github.com/syw-pbem/pbem/store"
)

// The turn runner: the daemon's third loop, beside the intake and the
// outbox. It is shaped like HandleMail: decideTurn works out the whole turn
// without writing anything, and commitTurn writes it in one transaction —
// the resolved turn (state, events, dice), one outbox row per nation and one
// for the referee, and the next turn's deadline from the schedule. A crash
// before that commit leaves nothing, and the turn is decided again from the
// same stored inputs with the same seed, giving the same result; after it
// the turn is resolved and the next one open, and the outbox sends the
// reports (each under a Message-ID made from game, turn, nation and kind,
// so a resend after a crash carries the same one).
//
// A turn is due at its stored deadline, or at once when the referee's
// RESOLVE NOW for it has been recorded. It waits while mail received is
// not yet handled (a sheet that came in time must count), and none is due
// once a victory has ended the game (gameover.go). Nations without a
// sheet in force at the deadline (NMR, "no moves received") hold in place:
// each of their land forces gets a DEFEND stance and nothing else, and the
// nation's report and the referee's summary say so.

// KindResolveNow is the submission kind of the referee's RESOLVE NOW: the
// turn it was given in is due at once.
const KindResolveNow = "resolve-now"

// Outbox kinds of the turn runner's mails.
const (
	MailReport        = "report"         // a nation's turn report
	MailRefereeReport = "referee-report" // the referee's summary of a resolved turn
)

// TurnMail is what a nation's (or the referee's) mail about a resolved
// turn is built from.
type TurnMail struct {
	GameID, GameName string
	Nation           game.NationID // engine.Referee for the referee's summary
	NationName       string
	Turn             int    // the turn resolved
	TurnLabel        string // "Turn 1, April 1757"
	Events           []engine.Event
	Rerun            bool           // the turn was resolved again (RERUN): this mail corrects the earlier one
	NMR              bool           // the nation had no orders in force: its forces held on defend
	NMRNations       []string       // for the referee: the nations that had none
	NMRStreaks       map[string]int // for the referee: the nations without orders for NMRAlert or more turns in a row, and how many
	State            *engine.State  // the whole state after the turn: a nation's mail shows only its engine.View
	NextTurn         int
	NextLabel        string
	NextDeadline     time.Time // zero: none scheduled
	Zone             *time.Location
	// CampaignState is the whole state after the turn as its campaign
	// keeps it (campaign.State), for a game played through the seam, whose
	// State is only the stand-in the scheduling reads (seam.go); nil for
	// an SYW game.
	CampaignState campaign.State
	// Starting: the mail is the starting report of the opening position
	// (no turn resolved; Events empty).
	Starting bool
	// Rolls are every die of the turn (the referee's report shows them).
	Rolls []engine.Roll
	// Rulings are the turn's rulings as the reports print them (a nation's
	// report shows the public ones and those naming it).
	Rulings []reports.Ruling
	// Sheets are the order sheets in force for the turn, with receipts and
	// times (the referee's report).
	Sheets []reports.SheetReceipt
	// Previous is the nation's report model of the turn before, as JSON
	// (the report's JSON attachment), rebuilt from the archive
	// (reportmodel.go); nil for none.
	Previous []byte
	// GameOver is the victory sentence when this turn ended the game
	// (gameover.go): no next turn opens. "" while the game goes on.
	GameOver string
	// ScheduleNote, for the referee, says how the next deadline was set
	// after a turn resolved before its deadline (game.after_early_resolve);
	// "" otherwise.
	ScheduleNote string
}

// TurnMailer builds one recipient's mail about a resolved turn, or a
// starting report. The daemon's default is Game.ReportMail (the PDF
// reports); PlainTurnMail sends the events as plain text only.
type TurnMailer func(TurnMail) (Mailed, error)

// turnOutcome is what decideTurn worked out, for commitTurn to write.
type turnOutcome struct {
	base     store.TurnRecord // the turn record the decision started from
	lastSub  int64            // the last submission of the turn seen
	rec      store.TurnRecord // the resolved turn
	events   []store.Event
	msgs     []outbox.Message
	next     time.Time // the next turn's deadline; zero for none
	nmr      []string
	nEvents  int
	resolved int    // the turn resolved
	label    string // its label, "Turn 1, April 1752"
	rerunOf  int    // the version of the turn's record a rerun voids; 0 for none
	// ledgerIn is the treaty ledger the turn was resolved from; ledgerNow
	// the stored ledger as read when the turn was decided (the commit
	// checks it has not changed since). treaties are the resolved state's,
	// saved back as the ledger.
	ledgerIn  ledger
	ledgerNow ledger
	treaties  []game.Treaty
	// scheduleNote says how the next deadline was set after an early
	// resolution (deadlines.go); "" otherwise.
	scheduleNote string
}

// errTurnChanged aborts a turn commit whose inputs changed after it was
// decided: the loop decides again.
var errTurnChanged = errors.New("the turn's inputs changed while it was being resolved")

// ensureSeedKey gives the game a secret dice key if it has none: 32 random
// bytes, stored once. Each turn's seed is made from it and the turn number
// (turnSeed), so the same turn always gets the same dice, and nobody who
// knows the game's id can work them out in advance.
// A game not created yet gets its key when it is (Start).
func (g *Game) ensureSeedKey(ctx context.Context) error {
	err := g.DB.EnsureDiceKey(ctx, g.ID(), func() (string, error) {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		return hex.EncodeToString(b[:]), nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// turnSeed returns the dice seed of a turn.
func (g *Game) turnSeed(ctx context.Context, turn int) (uint64, error) {
	key, ok, err := g.DB.DiceKey(ctx, g.ID())
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("game %s has no dice key yet (pbem run, resolve and rerun make one)", g.ID())
	}
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(turn)))
	return binary.BigEndian.Uint64(sum[:8]), nil
}

// WakeTurns tells the turn runner to look again at once (a RESOLVE NOW or
// a DEADLINE command was recorded).
func (g *Game) WakeTurns() {
	select {
	case g.turnWake <- struct{}{}:
	default:
	}
}

// turnLook is what one look of the turn runner found: whether the turn now
// open is due, when to look again (zero: no sooner than turnLookEvery), and
// the runner's state for "pbem status" (runstate.go).
type turnLook struct {
	due   bool
	at    time.Time
	turn  int
	state string
	why   string
}

// turnDue reports whether the turn now open is due, and when it will be if
// not (zero: no deadline).
func (g *Game) turnDue(ctx context.Context) (due bool, at time.Time, err error) {
	l, err := g.lookTurn(ctx)
	return l.due, l.at, err
}

// lookTurn decides whether the turn now open is due: its orders have closed
// (closing.go: the deadline, the referee's RESOLVE NOW, or every nation
// FINAL), the mail-outage guard does not hold it (outage.go), no battle
// waits for the referee's table (tabletop.go), and every mail that reached
// the server before the close has been taken in and handled.
func (g *Game) lookTurn(ctx context.Context) (turnLook, error) {
	st, deadline, err := g.current(ctx)
	if err != nil {
		return turnLook{}, err
	}
	l := turnLook{turn: st.Turn}
	if g.gameOver(st) != nil {
		l.state = runnerOver
		return l, nil // gameover.go: nothing is resolved after the victory
	}
	if _, err := g.DB.TurnDeadline(ctx, g.ID(), st.Turn); errors.Is(err, store.ErrNotFound) {
		deadline = time.Time{} // the schedule's guess in current is for show only
	} else if err != nil {
		return turnLook{}, err
	}
	// rollback.go: a turn reopened by a rollback waits for the referee.
	if deadline, err = reopenedDeadline(ctx, g.DB, g.ID(), st.Turn, deadline); err != nil {
		return turnLook{}, err
	}
	early, closed, err := g.earlyClose(ctx, g.DB, st.Turn)
	if err != nil {
		return turnLook{}, err
	}
	cl, ok := cutoff(deadline, early, closed)
	now := g.Now()
	switch {
	case !ok:
		l.state = runnerNoDeadline
		return l, nil
	case !closed && now.Before(deadline):
		l.state, l.at = runnerOpen, deadline
		return l, nil
	}
	if !closed || !early.Referee { // outage.go: the mail-outage guard, until the referee's RESOLVE NOW
		why, err := g.outageHold(ctx, st.Turn, deadline)
		if err != nil {
			return turnLook{}, err
		}
		if why != "" {
			l.state, l.why = runnerHeld, why
			return l, nil
		}
	}
	if wait, err := g.tabletopWait(ctx); err != nil || wait { // tabletop.go: battles fought on the table
		l.state = runnerTable
		return l, err
	}
	// Every mail that reached the server before the close must be in: at
	// a deadline the intake lists the mailbox once more; mail stored and
	// not yet handled that came before the close is handled first.
	if cl.By == closedByDeadline {
		if settled := cl.At.Add(g.arrivalGrace()); !g.caughtUp(settled) {
			l.state, l.why = runnerCatchingUp, "taking in the mail that reached the server before the deadline"
			l.at = settled
			if soon := now.Add(time.Second); l.at.Before(soon) {
				l.at = soon
			}
			return l, nil
		}
	}
	waiting, err := g.mailBefore(ctx, cl)
	if err != nil {
		return turnLook{}, err
	}
	if waiting {
		l.state, l.why = runnerCatchingUp, "handling the mail that reached the server before "+g.closeSentence(cl)
		l.at = now.Add(time.Second)
		return l, nil
	}
	l.due, l.state = true, runnerResolving
	return l, nil
}

// holdOrders are an NMR nation's orders: every land force of the nation on
// DEFEND, and nothing else, so that each holds in place.
func holdOrders(st *engine.State, n game.NationID, turn int) engine.Orders {
	o := engine.Orders{Nation: n, Turn: turn}
	for i := range st.Forces {
		f := &st.Forces[i]
		if f.Nation == n && !f.IsFleet() {
			o.List = append(o.List, engine.SetStance{Force: f.ID, Stance: game.Defend})
		}
	}
	return o
}

// ResolveTurn resolves the turn now open, due or not: decideTurn, then
// commitTurn. It is what the turn runner calls when the turn is due, and
// what "pbem resolve" calls; the reports it queues go out with the outbox
// ("pbem run").
func (g *Game) ResolveTurn(ctx context.Context) error {
	_, err := g.resolveTurn(ctx, 0)
	return err
}

// ResolveOpen resolves the turn now open, as "pbem resolve" does, and
// returns the sentence saying which turn it resolved and what comes next.
// With want > 0 it resolves only turn want: another turn open is an error
// and nothing is done.
func (g *Game) ResolveOpen(ctx context.Context, want int) (string, error) {
	out, err := g.resolveTurn(ctx, want)
	if errors.Is(err, errTurnChanged) {
		// A "pbem run" beside this command saw the turn due (RESOLVE NOW
		// was committed first) and resolved it meanwhile: the referee's
		// wish is done, by the other process.
		if rec, lerr := g.DB.LatestTurn(ctx, g.ID()); lerr == nil && rec.Turn >= out.resolved && out.resolved > 0 {
			return fmt.Sprintf("TURN %d was resolved meanwhile by the running \"pbem run\", which sends its reports", out.resolved), nil
		}
	}
	if err != nil {
		return "", err
	}
	line := fmt.Sprintf("%s (TURN %d) resolved; the reports are queued and go out with \"pbem run\" (within seconds if it is running)",
		out.label, out.resolved)
	if !out.next.IsZero() {
		line += fmt.Sprintf(". TURN %d opens with the deadline %s", out.resolved+1, g.showTime(out.next))
	}
	if out.scheduleNote != "" {
		line += ". " + out.scheduleNote
	}
	return line, nil
}

// resolveTurn is ResolveTurn, bound to turn want when it is not 0.
func (g *Game) resolveTurn(ctx context.Context, want int) (turnOutcome, error) {
	if err := g.ensureSeedKey(ctx); err != nil {
		return turnOutcome{}, err
	}
	out, err := g.decideTurn(ctx)
	if err != nil {
		return turnOutcome{}, err
	}
	if want > 0 && out.resolved != want {
		st, _ := g.State(ctx)
		label := fmt.Sprintf("TURN %d", out.resolved)
		if st != nil {
			label = fmt.Sprintf("%s (TURN %d)", g.labelOf(st, out.resolved), out.resolved)
		}
		return turnOutcome{}, fmt.Errorf("turn %d is not open (it was resolved, or is not yet open): %s is; nothing was done", want, label)
	}
	if err := g.commitTurn(ctx, out); err != nil {
		return out, err // out.resolved: which turn was tried (ResolveOpen)
	}
	g.Log.Info("turn resolved", "game", g.ID(), "turn", out.resolved, "events", out.nEvents, "nmr", out.nmr,
		"next_deadline", out.next)
	if _, err := g.purgeRawMail(ctx); err != nil {
		g.Log.Warn("clearing raw mail of resolved turns failed; will try again", "err", err)
	}
	// Treaties that became public during the turn are mailed to every
	// nation (each once; the daemon's start tries again after a failure).
	if err := g.PublishTreaties(ctx); err != nil {
		g.Log.Error("publishing treaties", "err", err)
	}
	return out, nil
}

// decideTurn reads the turn's stored inputs, resolves it with the engine and
// builds everything commitTurn writes. It writes nothing.
func (g *Game) decideTurn(ctx context.Context) (turnOutcome, error) {
	base, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return turnOutcome{}, err
	}
	st, err := g.decoded(base)
	if err != nil {
		return turnOutcome{}, err
	}
	if err := g.errGameOver(st); err != nil {
		return turnOutcome{}, err // gameover.go
	}
	return g.decideFrom(ctx, base, base, 0)
}

// decideFrom resolves the turn whose input state is from's, checking at
// commit that base is still the latest turn record. rerunOf is the version
// of the turn's record a rerun replaces (0 for a first resolution).
func (g *Game) decideFrom(ctx context.Context, from, base store.TurnRecord, rerunOf int) (turnOutcome, error) {
	if g.seamOnly != nil {
		return g.decideCampaign(ctx, from, base, rerunOf) // seam_turn.go
	}
	st, err := g.decoded(from)
	if err != nil {
		return turnOutcome{}, err
	}
	turn := st.Turn
	if rerunOf == 0 { // rollback.go: a turn open again corrects its voided record
		if rerunOf, err = g.reopenedVersion(ctx, turn); err != nil {
			return turnOutcome{}, err
		}
	}
	out := turnOutcome{base: base, resolved: turn, label: st.Calendar.Label(turn), rerunOf: rerunOf}
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return turnOutcome{}, err
	}
	for _, s := range subs {
		out.lastSub = max(out.lastSub, s.ID)
	}
	orders, err := g.SheetsInForce(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	has := map[game.NationID]bool{}
	for _, o := range orders {
		has[o.Nation] = true
	}
	for _, ns := range st.Nations {
		if !ns.Eliminated && !has[ns.ID] {
			out.nmr = append(out.nmr, string(ns.ID))
			orders = append(orders, holdOrders(st, ns.ID, turn))
		}
	}
	slices.SortFunc(orders, func(a, b engine.Orders) int { return cmp.Compare(a.Nation, b.Nation) })
	seed, err := g.turnSeed(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	// The treaty ledger goes into the state, so that the engine publishes
	// the treaties attested during the turn and charges the penalties at
	// the year-end (a rerun takes the ledger the turn was first resolved
	// from); the approved rulings are applied by the engine's rulings step.
	if out.ledgerIn, out.ledgerNow, err = ledgerFor(ctx, g.DB, g.ID(), turn, rerunOf); err != nil {
		return turnOutcome{}, err
	}
	if out.ledgerIn.present {
		st.Treaties = out.ledgerIn.treaties
		st.Normalize()
	}
	rulings, err := g.Rulings(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	battles, err := g.tabletopResults(ctx, turn) // tabletop.go: the referee's table results
	if err != nil {
		return turnOutcome{}, err
	}
	res, err := engine.Resolve(engine.Input{Map: g.Map, Rules: g.Rules, State: st, Orders: orders, Seed: seed, Rulings: rulings, Battles: battles})
	if err != nil {
		return turnOutcome{}, fmt.Errorf("resolving turn %d: %w", turn, err)
	}
	stateJSON, err := json.Marshal(res.State)
	if err != nil {
		return turnOutcome{}, err
	}
	eventLog, dice, rows, err := encodeResolved(res.Events, res.Rolls)
	if err != nil {
		return turnOutcome{}, err
	}
	out.events, out.nEvents = append(out.events, rows...), len(res.Events)
	out.treaties = res.State.Treaties
	streaks, err := g.nmrStreaks(ctx, turn, out.nmr)
	if err != nil {
		return turnOutcome{}, err
	}
	now := g.Now().UTC()
	out.rec = store.TurnRecord{GameID: g.ID(), Turn: turn, Status: store.TurnResolved, State: stateJSON, Seed: seed,
		EventLog: eventLog, Dice: dice, ResolvedAt: now}

	// The next turn's deadline continues the schedule from this turn's;
	// a turn that ends the game opens none (gameover.go).
	over := g.gameOver(res.State) != nil
	// deadlines.go: game.after_early_resolve for a turn resolved early.
	next, scheduleNote, err := g.nextDeadline(ctx, turn, now)
	if err != nil {
		return turnOutcome{}, err
	}
	out.next = next
	if d, err := g.DB.TurnDeadline(ctx, g.ID(), turn+1); err == nil {
		out.next, scheduleNote = d.At, "" // a rerun: the next turn is open already
	} else if !errors.Is(err, store.ErrNotFound) {
		return turnOutcome{}, err
	}
	out.scheduleNote = scheduleNote
	if over {
		out.next = time.Time{}
	}
	key := "report"
	if rerunOf > 0 {
		key = fmt.Sprintf("report.v%d", rerunOf+1)
	}

	rulingTexts, err := g.reportRulings(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	sheets, err := g.sheetReceipts(ctx, turn)
	if err != nil {
		return turnOutcome{}, err
	}
	tm := TurnMail{GameID: g.ID(), GameName: g.Config.Game.Name, Turn: turn, TurnLabel: st.Calendar.Label(turn),
		State: res.State, Rerun: rerunOf > 0, NextTurn: turn + 1, NextLabel: res.State.Calendar.Label(turn + 1), NextDeadline: out.next, Zone: g.Zone,
		Rolls: res.Rolls, Rulings: rulingTexts, Sheets: sheets}
	if over {
		tm.GameOver = g.victorySentence(res.State, res.State.Victory)
	}
	rs := g.nationRecipients(tm, res.Events, out.nmr)
	// reportmodel.go: what each report carries from the ones before it,
	// rebuilt from the archive.
	var ns []game.NationID
	for _, r := range rs {
		ns = append(ns, r.tm.Nation)
	}
	prevs, err := g.previousReports(ctx, turn, ns)
	if err != nil {
		return turnOutcome{}, err
	}
	for i := range rs {
		rs[i].tm.Previous = prevs[i]
	}
	if ref := g.Config.Game.Referee; ref != "" {
		m := tm
		m.Nation, m.NationName = engine.Referee, "Referee"
		m.Events = engine.EventsFor(res.Events, engine.Referee)
		m.NMRNations = out.nmr
		m.NMRStreaks = streaks
		m.ScheduleNote = scheduleNote
		rs = append(rs, recipient{tm: m, kind: MailRefereeReport, who: "referee", to: ref})
	}
	built, err := g.buildMails(rs)
	if err != nil {
		return turnOutcome{}, err
	}
	var cuts []reportmail.Cut
	for i, r := range rs {
		b := built[i]
		msg := g.message(r.kind, r.who, turn, key, []string{r.to}, b.Subject, b.Text, now)
		msg.Attachments = b.Attachments
		out.msgs = append(out.msgs, msg)
		if b.Cut != nil {
			cuts = append(cuts, *b.Cut)
		}
	}
	if ref := g.Config.Game.Referee; ref != "" {
		if n, ok := reportmail.CutNotice(g.ID(), turn, cuts, reportmail.Options{Tag: g.ID()}); ok {
			out.msgs = append(out.msgs, g.message(MailNotice, "referee", turn, key+".cut", []string{ref}, n.Subject, n.Text, now))
		}
	}
	out.msgs = append(out.msgs, g.victoryMails(res.Events, turn, now)...)
	return out, nil
}

// commitTurn writes a decided turn in one transaction, unless the game moved
// on (another resolution committed: nothing to do) or the turn's inputs
// changed since it was decided (errTurnChanged: decide again).
func (g *Game) commitTurn(ctx context.Context, out turnOutcome) error {
	return g.DB.Update(ctx, func(tx *store.Tx) error { return g.writeTurn(ctx, tx, out) })
}

// writeTurn is commitTurn's transaction: it checks that the game is where
// the decision found it, voids the record a rerun replaces, and writes the
// turn, its mails and the next deadline.
func (g *Game) writeTurn(ctx context.Context, tx *store.Tx, out turnOutcome) error {
	cur, err := tx.LatestTurn(ctx, g.ID())
	if err != nil {
		return err
	}
	if cur.Turn != out.base.Turn || cur.Version != out.base.Version {
		return errTurnChanged
	}
	subs, err := tx.Submissions(ctx, g.ID(), out.resolved)
	if err != nil {
		return err
	}
	for _, s := range subs {
		if s.ID > out.lastSub {
			return errTurnChanged
		}
	}
	if done, err := g.restoreVoided(ctx, tx, out); done || err != nil {
		return err // rollback.go: the same result as a voided record restores it
	}
	if out.rerunOf > 0 {
		if err := tx.SetTurnStatus(ctx, g.ID(), out.resolved, out.rerunOf, store.TurnVoided); err != nil {
			return err
		}
	}
	if err := g.commitLedger(ctx, tx, out); err != nil {
		return err
	}
	if _, err := tx.CommitTurn(ctx, out.rec, out.events, nil); err != nil {
		return err
	}
	for _, m := range out.msgs {
		if err := g.enqueue(ctx, tx, m); err != nil {
			return err
		}
	}
	if !out.next.IsZero() {
		if _, err := tx.OpenDeadline(ctx, g.ID(), out.resolved+1, out.next); err != nil {
			return err
		}
	}
	if g.beforeTurnCommit != nil {
		return g.beforeTurnCommit(out.resolved)
	}
	return nil
}

// turnRetry is how long the turn runner waits after a failure, and the
// longest it sleeps between looks.
const (
	turnRetry     = 30 * time.Second
	turnLookEvery = time.Minute
)

// runTurns is the turn runner's loop: it resolves the open turn when it is
// due, and otherwise sleeps until its deadline (at most turnLookEvery) or
// until woken (WakeTurns). It returns when ctx ends.
func (d *Daemon) runTurns(ctx context.Context) error {
	g := d.Game
	for {
		wait := turnLookEvery
		n := g.looksBegun.Add(1)
		look, err := g.lookTurn(ctx)
		due, at := look.due, look.at
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			g.Log.Error("the turn runner cannot read the game; will try again", "err", err)
			wait = turnRetry
		case due:
			g.noteRunner(ctx, look.turn, runnerResolving, "")
			err := g.ResolveTurn(ctx)
			switch {
			case errors.Is(err, errTurnChanged):
				continue
			case ctx.Err() != nil:
				return nil // stopping: the turn is resolved at the next start
			case isPanic(err):
				// A bug, not a passing fault: trying again every turnRetry
				// would panic again. The daemon stops with it (a host holds
				// the game and tells its referee; hosted.go).
				g.noteRunner(ctx, look.turn, runnerFailing, err.Error())
				return err
			case err != nil:
				g.Log.Error("resolving the turn failed; will try again", "err", err, "retry_in", turnRetry)
				g.noteRunner(ctx, look.turn, runnerFailing, err.Error())
				g.turnFailed(ctx, err)
				if d.Outbox != nil {
					d.Outbox.Wake()
				}
				wait = turnRetry
			default:
				if d.Outbox != nil {
					d.Outbox.Wake()
				}
				continue
			}
		case !at.IsZero():
			wait = min(wait, max(at.Sub(g.Now()), 0))
		}
		if err == nil && !due {
			g.noteRunner(ctx, look.turn, look.state, look.why)
		}
		if !due && ctx.Err() == nil {
			remindAt, err := g.remind(ctx)
			switch {
			case err != nil:
				g.Log.Error("queueing the deadline reminders failed; will try again", "err", err)
				wait = min(wait, turnRetry)
			case !remindAt.IsZero():
				wait = min(wait, max(remindAt.Sub(g.Now()), 0))
			default:
				if d.Outbox != nil {
					d.Outbox.Wake()
				}
			}
		}
		g.looksDone.Store(n)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-g.turnWake:
		case <-t.C:
		}
		t.Stop()
	}
}

// turnFailed tells the referee, by mail, that the turn could not be
// resolved and why: once per turn and distinct error, however often the
// runner tries again.
func (g *Game) turnFailed(ctx context.Context, cause error) {
	ref := g.Config.Game.Referee
	st, err := g.State(ctx)
	if ref == "" || err != nil {
		return
	}
	sum := sha256.Sum256([]byte(cause.Error()))
	label := g.labelOf(st, st.Turn)
	msg := g.message(MailNotice, "referee", st.Turn, "turn-failed."+hex.EncodeToString(sum[:6]), []string{ref},
		fmt.Sprintf("[%s] %s could not be resolved", g.ID(), label),
		fmt.Sprintf("%s is due but could not be resolved:\n\n  %s\n\npbem tries again every %v; nothing of the turn has been saved or sent.\n",
			label, cause, turnRetry), g.Now())
	if err := g.DB.Update(ctx, func(tx *store.Tx) error { return g.enqueue(ctx, tx, msg) }); err != nil {
		g.Log.Error("could not queue the notice to the referee", "err", err)
	}
}

// turnKey names one turn record: what a mail's decision was checked
// against.
type turnKey struct{ turn, version int }

// errTurnMoved aborts the commit of a mail decided against a turn that has
// been resolved since: HandleMail decides again.
var errTurnMoved = errors.New("the turn was resolved while the mail was being handled")

// openedKey returns the key of the latest turn record. A handler reads it
// before it reads the state, so that a turn resolved in between is caught
// by checkOpened.
func (g *Game) openedKey(ctx context.Context) (turnKey, error) {
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return turnKey{}, err
	}
	return turnKey{rec.Turn, rec.Version}, nil
}

// checkOpened returns errTurnMoved when the latest turn record is no longer
// k (the zero key checks nothing).
func (g *Game) checkOpened(ctx context.Context, tx *store.Tx, k turnKey) error {
	if k == (turnKey{}) {
		return nil
	}
	rec, err := tx.LatestTurn(ctx, g.ID())
	if err != nil {
		return err
	}
	if (turnKey{rec.Turn, rec.Version}) != k {
		return errTurnMoved
	}
	return nil
}

// nmrStreaks returns, for each nation of nmr (without orders this turn)
// that has now had none for game.nmr_alert_turns turns in a row or more,
// how many turns in a row that is.
func (g *Game) nmrStreaks(ctx context.Context, turn int, nmr []string) (map[string]int, error) {
	alert := g.Config.Game.NMRAlertTurns
	if alert <= 0 || len(nmr) == 0 {
		return nil, nil
	}
	out := map[string]int{}
	streak := map[string]int{}
	open := map[string]bool{}
	for _, n := range nmr {
		streak[n], open[n] = 1, true
	}
	for t := turn - 1; t >= 1 && len(open) > 0; t-- {
		subs, err := g.DB.SubmissionsInForce(ctx, g.ID(), t, KindOrders)
		if err != nil {
			return nil, err
		}
		for _, s := range subs {
			delete(open, s.Nation)
		}
		for n := range open {
			streak[n]++
		}
	}
	for n, k := range streak {
		if k >= alert {
			out[n] = k
		}
	}
	return out, nil
}
