package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The referee's commands about the open turn — RESOLVE NOW, DEADLINE SET
// and EXTEND, PREVIEW, ROLLBACK — mean the turn the referee was looking at
// when he wrote them, which need not be the turn open when the mail is
// handled: a turn may be resolved in between (at its deadline, by the mail
// coming back after an outage), and a RESOLVE NOW meant for it must never
// resolve the next one with nobody's orders. So a referee mail is bound to
// a turn, when it says which:
//
//  1. a TURN line in the mail (TURN 3);
//  2. else the pbem mail it replies to (In-Reply-To, then References from
//     the last): pbem's own outbox row of that Message-ID carries its turn;
//     a reply to a turn's report means the turn the report opened (the
//     next one);
//  3. else, when the mail reached the server before the open turn was
//     opened (the turn before it was resolved after the mail came in, by
//     more than bindMargin), the turn before.
//
// A bound command for another turn than the open one is refused with why,
// and nothing is done; an unbound one acts on the open turn, and the
// answer names it.

// bindMargin is how much earlier than the open turn's opening a mail must
// have reached the server to be taken as written about the turn before:
// the server stamps to the second, and its clock is not this machine's.
const bindMargin = 10 * time.Second

// bound is the turn a referee mail's turn commands mean.
type bound struct {
	turn int    // 0: unbound
	how  string // how it was found, for the answer
	cli  bool   // bound by the CLI's --turn
}

// reportKinds are the mails about a turn just resolved: a command in reply
// to one means the turn it opened.
var reportKinds = []string{MailReport, MailRefereeReport, MailStartReport, MailVictory}

// boundTurn works out the turn a referee mail's commands mean.
func (g *Game) boundTurn(ctx context.Context, m store.Mail, rs *refcmd.Sheet, ex *inbox.Extracted, st *engine.State) (bound, error) {
	if rs.Turn > 0 {
		return bound{turn: rs.Turn, how: fmt.Sprintf("the TURN line (line %d) names it", rs.TurnLine)}, nil
	}
	ids := slices.Clone(ex.InReplyTo)
	for i := len(ex.References) - 1; i >= 0; i-- {
		ids = append(ids, ex.References[i])
	}
	for _, id := range ids {
		id = "<" + strings.Trim(strings.TrimSpace(id), "<>") + ">"
		row, err := g.DB.OutboxByMessageID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return bound{}, err
		}
		t, ok := outbox.MessageIDTurn(row.MessageID)
		if !ok || row.GameID != g.ID() {
			continue
		}
		if slices.Contains(reportKinds, row.Kind) {
			t++
		}
		if t < 1 {
			continue
		}
		return bound{turn: t, how: fmt.Sprintf("it replies to pbem's mail %s about turn %d", row.MessageID, t)}, nil
	}
	// A mail that reached the server before the open turn opened was
	// written about the turn before it (a turn reopened by a rollback is
	// left alone: its reopening is not a resolution).
	rec, err := g.DB.LatestTurnHead(ctx, g.ID())
	if err != nil {
		return bound{}, err
	}
	if rec.Status == store.TurnResolved && st.Turn > 1 && m.ReceivedAt.Add(bindMargin).Before(rec.ResolvedAt) {
		if _, voided, err := g.DB.LastVoided(ctx, g.ID(), st.Turn); err != nil || voided {
			return bound{}, err
		}
		return bound{turn: st.Turn - 1, how: fmt.Sprintf("it reached the server at %s, before %s was resolved (%s)",
			g.showTime(m.ReceivedAt), g.labelOf(st, st.Turn-1), g.showTime(rec.ResolvedAt))}, nil
	}
	return bound{}, nil
}

// boundRefusal says why a turn command of a mail bound to b cannot act on
// the open turn ("" when it can).
func (g *Game) boundRefusal(ctx context.Context, b bound, st *engine.State) string {
	if b.turn == 0 || b.turn == st.Turn {
		return ""
	}
	if b.cli {
		return fmt.Sprintf("turn %d is not open (it was resolved, or is not yet open): %s (TURN %d) is; nothing was done",
			b.turn, g.labelOf(st, st.Turn), st.Turn)
	}
	open := fmt.Sprintf("%s (TURN %d) is open", g.labelOf(st, st.Turn), st.Turn)
	if d, err := g.turnDeadline(ctx, st.Turn); err == nil && !d.IsZero() {
		open += ", deadline " + g.showTime(d)
	}
	if b.turn > st.Turn {
		return fmt.Sprintf("this mail is about turn %d (%s), which is not open yet; %s. Nothing was done", b.turn, b.how, open)
	}
	when := ""
	if rec, err := g.DB.Turn(ctx, g.ID(), b.turn); err == nil && rec.Status == store.TurnResolved {
		when = " at " + g.showTime(rec.ResolvedAt)
	}
	return fmt.Sprintf("this mail is about %s (%s), which was resolved%s, before the mail was handled. Nothing was done, "+
		"and nothing was applied to the turn open now: %s. To act on it, send the command again with the line TURN %d "+
		"(or in reply to a mail about it)", g.labelOf(st, b.turn), b.how, when, open, st.Turn)
}

// boundNote is the answer's word on the turn the commands acted on.
func (g *Game) boundNote(b bound, st *engine.State) string {
	if b.turn == 0 {
		return fmt.Sprintf("Turn commands act on the turn open when this mail was handled: %s (TURN %d). To bind a command "+
			"to a turn, write TURN n above it, or reply to pbem's mail about that turn.", g.labelOf(st, st.Turn), st.Turn)
	}
	return fmt.Sprintf("Turn commands of this mail are about %s (TURN %d): %s.", g.labelOf(st, b.turn), b.turn, b.how)
}
