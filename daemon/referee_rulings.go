package daemon

import (
	"context"
	"fmt"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// The rulings (refcmd/rulings.go). APPROVE and DENY rule on a request on a
// nation's sheet in force for the turn open, named by its token: the
// ruling is stored as the engine's typed ruling (rulings.go) bound to the
// token and the requesting nation, and the nation is told in a sentence.
// BREACH and LIFT change the treaty ledger at once (treaty.go): the
// offender's yearly penalty begins or ends, and both parties are told.

var approveKind = refKind[refcmd.Approve, rulingPlan]{
	decide: func(ctx context.Context, r *refRun, c refcmd.Approve) (rulingPlan, error) {
		ruling, _ := refcmd.RulingOf(c)
		return r.decideRuling(ctx, c, c.Token, ruling, "")
	},
	write: writeRuling, answer: rulingAnswer, tell: rulingMail,
	cli: []string{"pbem referee"},
}

var denyKind = refKind[refcmd.Deny, rulingPlan]{
	decide: func(ctx context.Context, r *refRun, c refcmd.Deny) (rulingPlan, error) {
		return r.decideRuling(ctx, c, c.Token, engine.Ruling{}, c.Reason)
	},
	write: writeRuling, answer: rulingAnswer, tell: rulingMail,
	cli: []string{"pbem referee"},
}

// requestBook is what the run's rulings are decided against: the requests
// on the sheets in force, by token, and the tokens of requests withdrawn
// (sheet.go, openRequests).
type requestBook struct {
	open      map[string]store.Submission
	withdrawn map[string]string // token → the nation that withdrew it
}

// rulingPlan is an APPROVE or DENY decided.
type rulingPlan struct {
	req     store.Submission // the request ruled on
	denied  bool
	ruling  engine.Ruling // as the engine will apply it (a DENY: no effects)
	reason  string        // a DENY's reason, for the player
	command string        // the command as the answer prints it
	sub     store.Submission
}

// decideRuling decides a ruling on the request token: it must be on a
// sheet in force this turn.
func (r *refRun) decideRuling(ctx context.Context, c refcmd.Command, token string, ruling engine.Ruling, reason string) (rulingPlan, error) {
	if r.requests == nil {
		open, withdrawn, err := r.g.openRequests(ctx, r.st.Turn)
		if err != nil {
			return rulingPlan{}, err
		}
		r.requests = &requestBook{open: open, withdrawn: withdrawn}
	}
	req, ok := r.requests.open[token]
	if !ok {
		if n, gone := r.requests.withdrawn[token]; gone {
			return rulingPlan{}, refusef("%s withdrew request %s: the sheet in force no longer carries it", r.g.nationName(game.NationID(n)), token)
		}
		return rulingPlan{}, refusef("no request %s is open this turn (%s); check the token in the request mail", token, r.st.Calendar.Label(r.st.Turn))
	}
	// The ruling bound to the token and the requesting nation.
	ruling.Token, ruling.Nation = token, game.NationID(req.Nation)
	p := rulingPlan{req: req, denied: c.Verb() == "deny", ruling: ruling, reason: reason, command: c.Format(r.v)}
	sub, err := rulingSubmission(r.g.ID(), r.st.Turn, req.Nation, r.mail.ID, p.command, ruling, r.now)
	p.sub = sub
	return p, err
}

func writeRuling(ctx context.Context, tx *store.Tx, _ *refRun, p rulingPlan) error {
	_, _, err := tx.SaveSubmission(ctx, p.sub)
	return err
}

func rulingAnswer(r *refRun, p rulingPlan) string {
	return fmt.Sprintf("recorded for %s's request", r.g.nationName(game.NationID(p.req.Nation)))
}

// rulingMail tells the requesting nation. It is keyed by the run as well
// as the token: a referee who changes a ruling in a later mail has the
// player told again.
func rulingMail(r *refRun, p rulingPlan) []outbox.Message {
	verdict := "approved"
	if p.denied {
		verdict = "denied"
	}
	token := p.ruling.Token
	return []outbox.Message{r.g.message(MailRuling, p.req.Nation, r.st.Turn, token+"."+r.key,
		[]string{r.g.registered(game.NationID(p.req.Nation))},
		fmt.Sprintf("[%s] Your request %s was %s", r.g.ID(), token, verdict),
		templates.Must("ruling", map[string]any{"Verdict": verdict, "Token": token, "Text": p.req.RawText, "Ruling": p.command,
			"Sentence": reports.RulingSentence(r.g.Map, p.ruling, p.denied, p.reason)}), r.date)}
}

var breachKind = refKind[refcmd.Breach, treatyPlan]{
	decide: func(ctx context.Context, r *refRun, c refcmd.Breach) (treatyPlan, error) {
		return r.decideTreaty(ctx, c.Treaty, c.Offender, c.Aggrieved, false)
	},
	write: writeLedger, answer: treatyAnswer, tell: treatyMails,
	cli: []string{"pbem referee"},
}

var liftKind = refKind[refcmd.LiftBreach, treatyPlan]{
	decide: func(ctx context.Context, r *refRun, c refcmd.LiftBreach) (treatyPlan, error) {
		return r.decideTreaty(ctx, c.Treaty, c.Offender, c.Aggrieved, true)
	},
	write: writeLedger, answer: treatyAnswer, tell: treatyMails,
	cli: []string{"pbem referee"},
}

// ledgerWork is the treaty ledger as the run's BREACH and LIFT leave it:
// read at the first, changed by each in turn, and written once, by the
// last that changed it, if the stored ledger is still the one read
// (treaty.go; otherwise the commit fails and the mail is handled again).
type ledgerWork struct {
	was     ledger        // the stored ledger as read
	s       *engine.State // the turn open with the ledger's treaties, changed by the run
	changes int           // the run's commands that changed it
}

// treatyPlan is a BREACH or LIFT decided.
type treatyPlan struct {
	n    int // its number among the run's changes of the ledger
	lift bool
	msgs []outbox.Message
}

// decideTreaty carries out a BREACH (a LIFT) of treaty id on the run's
// ledger.
func (r *refRun) decideTreaty(ctx context.Context, id string, off, agg game.NationID, lift bool) (treatyPlan, error) {
	if r.ledger == nil {
		tl, err := readLedger(ctx, r.g.DB, r.g.ID())
		if err != nil {
			return treatyPlan{}, err
		}
		s := r.st.Clone()
		s.Treaties = tl.treaties
		s.Normalize()
		r.ledger = &ledgerWork{was: tl, s: s}
	}
	s := r.ledger.s
	var err error
	if lift {
		err = engine.EndPenalty(s, id, off, agg, engine.Referee)
	} else {
		err = engine.BreachTreaty(s, id, off, agg)
	}
	if err != nil {
		return treatyPlan{}, refuse(err)
	}
	r.ledger.changes++
	g := r.g
	tr, _ := engine.FindTreaty(s, id)
	data := map[string]any{"ID": tr.ID, "Title": tr.Title, "Offender": g.nationName(off), "Aggrieved": g.nationName(agg),
		"OffenderID": string(off), "AggrievedID": string(agg), "Penalty": g.Rules.Taxes.TreatyPenalty}
	name, subject, key := "treaty-breach", fmt.Sprintf("[%s] Treaty %s: %s found in breach", g.ID(), tr.ID, g.nationName(off)), tr.ID+".breach."+string(off)+"."+string(agg)
	if lift {
		name, subject, key = "treaty-lifted", fmt.Sprintf("[%s] Treaty %s: the penalty of %s is ended", g.ID(), tr.ID, g.nationName(off)), tr.ID+".lift."+string(off)+"."+string(agg)
	}
	key += "." + r.short
	p := treatyPlan{n: r.ledger.changes, lift: lift}
	for _, n := range []game.NationID{off, agg} {
		p.msgs = append(p.msgs, g.message(MailTreaty, string(n), r.st.Turn, key, []string{g.registered(n)}, subject, templates.Must(name, data), r.date))
	}
	return p, nil
}

// writeLedger saves the ledger the run leaves, once: with its last change.
func writeLedger(ctx context.Context, tx *store.Tx, r *refRun, p treatyPlan) error {
	if p.n != r.ledger.changes {
		return nil
	}
	return saveLedgerIfUnchanged(ctx, tx, r.g.ID(), r.ledger.was, r.ledger.s.Treaties)
}

func treatyAnswer(_ *refRun, p treatyPlan) string {
	if p.lift {
		return "recorded: no penalty is taken from now on; both parties told"
	}
	return "recorded: the penalty runs from this year-end; both parties told"
}

func treatyMails(_ *refRun, p treatyPlan) []outbox.Message { return p.msgs }

// ledgerChanged reports whether the run's commands change the treaty
// ledger (a RERUN beside them is refused: referee_turn.go).
func (r *refRun) ledgerChanged() bool { return r.ledger != nil && r.ledger.changes > 0 }
