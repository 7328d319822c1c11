package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// The referee's commands: their language is package refcmd; what each
// does is its entry in refereeKinds, in the file of its family —
// referee_rulings.go (APPROVE, DENY, BREACH, LIFT), referee_deadline.go
// (DEADLINE SET, EXTEND), referee_turn.go (RESOLVE NOW, PREVIEW, STATUS,
// ROLLBACK, RERUN), referee_mail.go (RESEND, REQUEUE), referee_passwords.go (RESET
// PASSWORD), referee_table.go (BATTLE hex TABLE), referee_rule.go (RULE,
// a ruling in a campaign played through the seam). An entry (refKind) gives
// its command
//
//   - decide: reads what the command needs — the store, the turn open, what
//     the run's earlier commands decided (refRun) — and works out what it
//     will do, or refuses it (a refusal: told to the referee with why). It
//     writes nothing. Any other error is a failure: the mail is handled
//     again later, the CLI exits with it;
//   - write: carries the decision out inside the run's one transaction —
//     for a mail its commit (mail.go: a crash leaves all of a mail's
//     commands done or none);
//   - answer: its line in the referee's answer ("line 4: APPROVE R1a2b3c —
//     recorded for Eisenmark's request"), or what the CLI prints;
//   - tell (if any): the mails it sends besides the answer — the player told
//     of a ruling, the parties of a breach;
//   - recheck (if any): refuses it once the whole run is decided, for what a
//     later command of the run did (a RERUN beside a BREACH);
//   - atOnce (if any): what the CLI does after the commit, where no turn
//     runner will (RESOLVE NOW resolves the turn there and then);
//   - turn: whether it acts on the open turn (bound to the mail's TURN
//     line, bind.go; refused after the victory);
//   - cli: the pbem commands that run it ("pbem referee FILE" runs any), or
//     noCLI: why none does.
//
// A referee's mail (handleReferee) and the CLI (RunReferee, RunRefereeText)
// run the same
// entries through a refRun — every command decided in order, then finish:
// the rechecks, the answer lines, the mails, one write — so the two cannot
// drift. TestRefereeRegistry fails while a kind of refcmd has no entry, or
// an entry lacks a step, a CLI or the reason it has none. To add a command:
// docs/DEVELOPING.md, "Adding a referee command".

// refereeKinds is the registry: one entry for every kind of refcmd.Kinds.
var refereeKinds = []refereeEntry{
	approveKind, denyKind, breachKind, liftKind, // referee_rulings.go
	deadlineExtendKind, deadlineSetKind, // referee_deadline.go
	resolveKind, rerunKind, previewKind, rollbackKind, statusKind, // referee_turn.go
	resendKind, requeueKind, // referee_mail.go
	passwordResetKind, // referee_passwords.go
	tableBattleKind,   // referee_table.go
	ruleKind,          // referee_rule.go
}

// turnUse is how a command depends on the turn open.
type turnUse int

const (
	anyTurn   turnUse = iota // it names its turn, or needs none
	boundTurn                // it acts on the open turn: refused when the run is bound to another (bind.go)
	openTurn                 // boundTurn, and refused after the victory: no turn is open then (gameover.go)
)

// refKind is the entry of one command kind C whose decision is a P. decide,
// write and answer are required; the rest are nil when the command has none.
type refKind[C refcmd.Command, P any] struct {
	turn    turnUse
	decide  func(ctx context.Context, r *refRun, c C) (P, error)
	write   func(ctx context.Context, tx *store.Tx, r *refRun, p P) error
	answer  func(r *refRun, p P) string
	tell    func(r *refRun, p P) []outbox.Message
	recheck func(r *refRun, p P) error
	atOnce  func(ctx context.Context, r *refRun, p P) (string, error)
	cli     []string // the pbem commands that run it
	noCLI   string   // why no pbem command runs it
}

// refereeEntry is an entry as the run sees it, its types hidden.
type refereeEntry interface {
	verb() string
	about() refAbout
	act(ctx context.Context, r *refRun, c refcmd.Command) (refAct, error)
}

// refAbout is what an entry has, for the run and TestRefereeRegistry.
type refAbout struct {
	turn                  turnUse
	decide, write, answer bool
	cli                   []string
	noCLI                 string
}

// refAct is a command decided: its steps bound to its decision.
type refAct struct {
	answer  func() string
	write   func(context.Context, *store.Tx) error
	tell    func() []outbox.Message
	recheck func() error
	atOnce  func(context.Context) (string, error)
}

func (k refKind[C, P]) verb() string { var c C; return c.Verb() }

func (k refKind[C, P]) about() refAbout {
	return refAbout{turn: k.turn, decide: k.decide != nil, write: k.write != nil, answer: k.answer != nil, cli: k.cli, noCLI: k.noCLI}
}

// act runs decide and binds the other steps to its decision.
func (k refKind[C, P]) act(ctx context.Context, r *refRun, c refcmd.Command) (refAct, error) {
	p, err := k.decide(ctx, r, c.(C))
	if err != nil {
		return refAct{}, err
	}
	a := refAct{
		answer: func() string { return k.answer(r, p) },
		write:  func(ctx context.Context, tx *store.Tx) error { return k.write(ctx, tx, r, p) },
	}
	if k.tell != nil {
		a.tell = func() []outbox.Message { return k.tell(r, p) }
	}
	if k.recheck != nil {
		a.recheck = func() error { return k.recheck(r, p) }
	}
	if k.atOnce != nil {
		a.atOnce = func(ctx context.Context) (string, error) { return k.atOnce(ctx, r, p) }
	}
	return a, nil
}

// RefereeCLI returns, for each referee command's verb, the pbem commands
// that run it through its entry of the registry (cmd/pbem's
// TestRefereeCommandsHaveTheirCLI checks they exist).
func RefereeCLI() map[string][]string {
	out := map[string][]string{}
	for _, k := range refereeKinds {
		out[k.verb()] = slices.Clone(k.about().cli)
	}
	return out
}

// writesNothing is the write step of a command that changes nothing stored
// (PREVIEW: that is its point).
func writesNothing[P any](context.Context, *store.Tx, *refRun, P) error { return nil }

// refereeEntryOf returns the entry of a verb.
func refereeEntryOf(verb string) (refereeEntry, bool) {
	for _, k := range refereeKinds {
		if k.verb() == verb {
			return k, true
		}
	}
	return nil, false
}

// refusal is a command refused: the referee is told why, nothing of it is
// done, and nothing is retried. It wraps the reason (errors.Is
// ErrNotResolved, errors.As *GameOverError).
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// refuse refuses a command for err.
func refuse(err error) error { return refusal{err} }

// refusef refuses a command with a message.
func refusef(format string, args ...any) error { return refusal{fmt.Errorf(format, args...)} }

// refRun is one run of referee commands — a mail's, or one from the CLI —
// and what every command of it is decided against.
type refRun struct {
	g      *Game
	st     *engine.State // the turn open when the run was decided
	v      *parser.Vocabulary
	mail   store.Mail // the referee's mail; zero from the CLI
	byMail bool
	key    string    // tells the run's mails apart (Message-IDs): the mail's hash, or "cli." and the time
	short  string    // 12 characters of it
	at     time.Time // when the commands came: the mail's arrival at the server, the CLI's clock
	date   time.Time // the date of pbem's mails about them
	now    time.Time // when they were decided: the submissions' time
	bound  bound     // the turn the commands about the open turn mean (bind.go)

	// What the run's earlier commands decided, which later ones read.
	turnCommands bool          // a command about the open turn was given: the answer names its turn
	turnOp       bool          // a RERUN or ROLLBACK will be written: one a mail
	requests     *requestBook  // referee_rulings.go: the requests that may be ruled on
	ledger       *ledgerWork   // referee_rulings.go: the treaty ledger as BREACH and LIFT leave it
	deadline     *deadlineWork // referee_deadline.go: the open turn's deadline as DEADLINE leaves it

	done []refDone
}

// refDone is one command of the run, decided: refused, or its act.
type refDone struct {
	c       refcmd.Command
	act     refAct
	refused error
}

// newRun starts a run on the turn open, st.
func (g *Game) newRun(st *engine.State, now time.Time) *refRun {
	return &refRun{g: g, st: st, v: parser.NewVocabulary(g.Map, st), now: now.UTC()}
}

// do decides one command: the entry's turn checks, then its decide step.
func (r *refRun) do(ctx context.Context, c refcmd.Command) error {
	k, ok := refereeEntryOf(c.Verb())
	if !ok {
		return fmt.Errorf("the referee command %s has no entry in the registry (daemon/referee.go)", c.Verb())
	}
	d := refDone{c: c}
	d.refused = r.turnRefusal(ctx, k.about().turn)
	if d.refused == nil {
		d.refused = r.g.seamRefusal(c.Verb()) // seam.go: what a campaign without the SYW features cannot do
	}
	if d.refused == nil {
		var err error
		if d.act, err = k.act(ctx, r, c); err != nil && !errors.As(err, new(refusal)) {
			return err
		}
		d.refused = err
	}
	r.done = append(r.done, d)
	return nil
}

// turnRefusal refuses a command about the open turn after the victory, or
// when the run is bound to another turn.
func (r *refRun) turnRefusal(ctx context.Context, use turnUse) error {
	if use == openTurn {
		if over := r.g.errGameOver(r.st); over != nil {
			return refuse(over)
		}
	}
	if use != anyTurn {
		r.turnCommands = true
		if why := r.g.boundRefusal(ctx, r.bound, r.st); why != "" {
			return refusef("%s", why)
		}
	}
	return nil
}

// finish ends the run: each command's recheck, then the answer lines (and
// the word on the turn, and the mail's reading errors diags), the mails the
// commands send, and their writes as one.
func (r *refRun) finish(diags []parser.Diagnostic) (lines []string, msgs []outbox.Message, save func(context.Context, *store.Tx) error) {
	var writes []func(context.Context, *store.Tx) error
	for i := range r.done {
		if d := &r.done[i]; d.refused == nil && d.act.recheck != nil {
			d.refused = d.act.recheck()
		}
	}
	for _, d := range r.done {
		head := fmt.Sprintf("line %d: %s — ", d.c.SourceLine(), d.c.Format(r.v))
		if d.refused != nil {
			lines = append(lines, head+"REFUSED: "+d.refused.Error())
			continue
		}
		lines = append(lines, head+d.act.answer())
		if d.act.tell != nil {
			msgs = append(msgs, d.act.tell()...)
		}
		writes = append(writes, d.act.write)
	}
	if r.turnCommands && r.byMail {
		lines = append(lines, r.g.boundNote(r.bound, r.st))
	}
	for _, d := range diags {
		line := "ERROR: " + d.Message
		if d.Line > 0 {
			line = fmt.Sprintf("line %d: %s", d.Line, line)
		}
		if d.Hint != "" {
			line = sentence(line) + " " + d.Hint
		}
		lines = append(lines, line)
	}
	return lines, msgs, func(ctx context.Context, tx *store.Tx) error {
		for _, w := range writes {
			if err := w(ctx, tx); err != nil {
				return err
			}
		}
		return nil
	}
}

// handleReferee answers a mail from the referee: its commands, each run
// through its entry of the registry, answered line by line and written in
// the mail's one commit; or a battle's RESULT (tabletop.go).
func (g *Game) handleReferee(ctx context.Context, m store.Mail, ex *inbox.Extracted) (outcome, error) {
	opened, err := g.openedKey(ctx)
	if err != nil {
		return outcome{}, err
	}
	st, err := g.State(ctx)
	if err != nil {
		return outcome{}, err
	}
	sh := refcmd.Parse(ex.Text, parser.NewVocabulary(g.Map, st), g.Zone)
	if out, refused := g.refereeRefusal(m, ex, sh, st); refused { // refereeauth.go: the referee's password
		return out, nil
	}
	if refcmd.IsResult(ex.Text) { // tabletop.go: a battle's result from the table
		if g.seamOnly != nil {
			return g.handleCampaignResult(ctx, m, ex, opened, st) // seam_turn.go
		}
		return g.handleResult(ctx, m, ex, opened, st)
	}
	if sh.Game != "" && sh.Game != g.ID() {
		sh.Diagnostics = append(sh.Diagnostics, parser.Diagnostic{Severity: parser.Error,
			Message: fmt.Sprintf("this mail is for game %q, but this is game %q: nothing was done", sh.Game, g.ID())})
		sh.Commands = nil
	}
	r := g.newRun(st, g.Now())
	r.mail, r.byMail, r.key, r.at, r.date = m, true, store.SHA256Hex(m.Raw), m.ReceivedAt, mailDate(m)
	r.short = r.key[:12]
	if r.bound, err = g.boundTurn(ctx, m, sh, ex, st); err != nil { // bind.go: the turn the commands mean
		return outcome{}, err
	}
	for _, c := range sh.Commands {
		if err := r.do(ctx, c); err != nil {
			return outcome{}, err
		}
	}
	lines, msgs, save := r.finish(sh.Diagnostics)
	msgs = append(msgs, g.reply(m, ex, []string{g.Config.Game.Referee}, MailRefereeOK, "referee", st.Turn,
		fmt.Sprintf("[%s] Referee commands received", g.ID()), templates.Must("referee-ack", map[string]any{"Lines": lines})))
	return outcome{status: store.MailAcknowledged, class: ClassReferee, opened: opened, msgs: msgs, save: save}, nil
}

// RunReferee runs one referee command as the referee's mail would, through
// the same entry of the registry: decided, then written in one transaction
// with the mails it sends (decided again if a turn was resolved in
// between), and, where the command needs it, carried out at once (RESOLVE
// NOW resolves the turn: no turn runner runs beside the CLI). It returns
// the answer; a command refused is an error saying why (errors.Is
// ErrNotResolved for a turn not resolved, errors.As *GameOverError after
// the victory). turn binds a command about the open turn as a mail's TURN
// line does: refused when another turn is open (0: the turn open). What
// the pbem commands rollback, rerun, resolve, preview, resend, requeue and
// password run.
func (g *Game) RunReferee(ctx context.Context, c refcmd.Command, turn int) (string, error) {
	b := bound{}
	if turn > 0 {
		b = bound{turn: turn, how: fmt.Sprintf("--turn %d names it", turn), cli: true}
	}
	r, _, err := g.runCLI(ctx, []refcmd.Command{c}, b, nil)
	if err != nil {
		return "", err
	}
	d := r.done[0]
	switch {
	case d.refused != nil:
		return "", d.refused
	case d.act.atOnce != nil:
		return d.act.atOnce(ctx)
	}
	return d.act.answer(), nil
}

// RunRefereeText runs referee commands written as in a mail
// (docs/referee.md) — what "pbem referee" runs: each through its entry of
// the registry, all written in one transaction, answered line by line as
// the mail would be (the PASSWORD line is not needed: whoever runs pbem on
// the game's store is the referee). A RESULT form is checked and recorded
// as by mail. ok is false when a line had an error or a command was
// refused.
func (g *Game) RunRefereeText(ctx context.Context, text string) (lines []string, ok bool, err error) {
	return g.runRefereeText(ctx, text, true)
}

// runRefereeText is RunRefereeText; without atOnce the commands are
// carried out as a mail's are, leaving the rest to the turn runner (which
// runCLI wakes): what the console of "pbem run" does (desk.go).
func (g *Game) runRefereeText(ctx context.Context, text string, atOnce bool) (lines []string, ok bool, err error) {
	st, err := g.State(ctx)
	if err != nil {
		return nil, false, err
	}
	if refcmd.IsResult(text) { // tabletop.go
		resultLines := g.tabletopResultLines
		if g.seamOnly != nil {
			resultLines = g.campaignResultLines // seam_turn.go
		}
		lines, sub, err := resultLines(ctx, text, 0, g.Now().UTC())
		if err != nil || sub == nil {
			return lines, false, err
		}
		return lines, true, g.DB.Update(ctx, func(tx *store.Tx) error { _, _, err := tx.SaveSubmission(ctx, *sub); return err })
	}
	sh := refcmd.Parse(text, parser.NewVocabulary(g.Map, st), g.Zone)
	if sh.Game != "" && sh.Game != g.ID() {
		return []string{fmt.Sprintf("ERROR: these commands are for game %q, but this is game %q: nothing was done", sh.Game, g.ID())}, false, nil
	}
	b := bound{}
	if sh.Turn > 0 {
		b = bound{turn: sh.Turn, how: fmt.Sprintf("the TURN line (line %d) names it", sh.TurnLine), cli: true}
	}
	r, lines, err := g.runCLI(ctx, sh.Commands, b, sh.Diagnostics)
	if err != nil {
		return nil, false, err
	}
	ok = len(sh.Diagnostics) == 0
	for _, d := range r.done {
		if d.refused != nil {
			ok = false
		} else if d.act.atOnce != nil && atOnce {
			line, err := d.act.atOnce(ctx)
			if err != nil { // a second RESOLVE NOW finds its turn resolved
				line, ok = fmt.Sprintf("line %d: %s — %v", d.c.SourceLine(), d.c.Format(r.v), err), false
			}
			lines = append(lines, line)
		}
	}
	return lines, ok, nil
}

// runCLI decides commands from the CLI as a run bound to b and commits them
// in one transaction, deciding again once if the turn open changed
// meanwhile; it returns the run and its answer lines.
func (g *Game) runCLI(ctx context.Context, cmds []refcmd.Command, b bound, diags []parser.Diagnostic) (*refRun, []string, error) {
	if err := g.ensureSeedKey(ctx); err != nil { // a game stored by an older pbem has none until "pbem run"
		return nil, nil, err
	}
	r, lines, err := g.runCLIOnce(ctx, cmds, b, diags)
	if errors.Is(err, errTurnMoved) {
		r, lines, err = g.runCLIOnce(ctx, cmds, b, diags)
	}
	return r, lines, err
}

func (g *Game) runCLIOnce(ctx context.Context, cmds []refcmd.Command, b bound, diags []parser.Diagnostic) (*refRun, []string, error) {
	opened, err := g.openedKey(ctx)
	if err != nil {
		return nil, nil, err
	}
	st, err := g.State(ctx)
	if err != nil {
		return nil, nil, err
	}
	now := g.Now()
	r := g.newRun(st, now)
	r.key, r.at, r.date, r.bound = "cli."+now.UTC().Format("20060102T150405.000000000"), now, now, b
	r.short = store.SHA256Hex([]byte(r.key))[:12]
	for _, c := range cmds {
		if err := r.do(ctx, c); err != nil {
			return nil, nil, err
		}
	}
	lines, msgs, save := r.finish(diags)
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if err := g.checkOpened(ctx, tx, opened); err != nil {
			return err
		}
		if err := save(ctx, tx); err != nil {
			return err
		}
		for _, msg := range msgs {
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	g.WakeTurns() // a turn runner of this process, if any, looks at once
	return r, lines, nil
}
