package daemon

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// The answers to mail that is not a sheet to check: from strangers, forged,
// unreadable, or that broke pbem. Each goes to a registered address (the
// one exception, the answer to an unknown sender, holds no game data).

// answerUnknownSender answers a mail from an address registered for no
// nation. The answer names no game and no nation, and goes once per address:
// a forged From (spam does that) makes pbem write to a stranger once at
// most. If the mail holds a sheet naming a nation, that nation's registered
// address is told of every such mail (each attempt at its password is
// news to it), and whether the sheet carried the nation's password.
func (g *Game) answerUnknownSender(ctx context.Context, m store.Mail, ex *inbox.Extracted) (outcome, error) {
	out := outcome{status: store.MailAcknowledged, class: ClassUnknownSender}
	if ex.From != "" {
		msg := g.reply(m, ex, []string{ex.From}, MailHelp, "", -1, "Your mail was not read", templates.Must("unknown-sender", nil))
		msg.Game, msg.From.Name, msg.Key = "", "", "unknown-sender:"+ex.From
		out.msgs = append(out.msgs, msg)
	}
	_, sheet := findSheet(ex, nil)
	n := sheet.Header.NationID
	if n == "" && sheet.Header.Nation != "" {
		if id := game.NationID(strings.ToLower(sheet.Header.Nation)); g.registered(id) != "" {
			n = id
		}
	}
	if to := g.registered(n); to != "" {
		carried := false
		if sheet.Header.Password != "" {
			st, err := g.State(ctx)
			if err != nil {
				return outcome{}, err
			}
			if carried, err = g.verifyPassword(ctx, n, st.Turn, sheet.Header.Password); err != nil {
				return outcome{}, err
			}
		}
		if carried {
			g.Log.Warn("a stranger's sheet carried a nation's password", "mail", m.ID, "nation", n, "from", ex.From)
		}
		out.msgs = append(out.msgs, g.message(MailNotice, string(n), -1, "unregistered:"+store.SHA256Hex(m.Raw), []string{to},
			fmt.Sprintf("[%s] A sheet for %s came from an unregistered address", g.ID(), g.nationName(n)),
			templates.Must("unregistered-notice", map[string]any{"Nation": g.nationName(n), "From": ex.From, "Password": carried}), mailDate(m)))
	}
	if notice := g.refereeNotice(m, ex); notice != nil {
		out.msgs = append(out.msgs, *notice)
	}
	return out, nil
}

// answerSpoof records a mail that failed sender authentication and tells the
// registered owner(s) of its From address(es) — never the sender's Reply-To.
func (g *Game) answerSpoof(m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) outcome {
	out := outcome{status: store.MailAcknowledged, class: ClassSpoof, note: string(auth.Verdict)}
	for _, o := range g.ownersOf(ex.FromAddresses) {
		out.msgs = append(out.msgs, g.message(MailNotice, o.nation, -1, store.SHA256Hex(m.Raw), []string{o.address},
			fmt.Sprintf("[%s] A mail in your name was refused", g.ID()),
			templates.Must("spoof-notice", map[string]any{"Reason": auth.Reason}), mailDate(m)))
	}
	return out
}

// answerNoSheet answers a registered sender whose mail holds no sheet with a
// short help text.
func (g *Game) answerNoSheet(m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult, st *engine.State) outcome {
	n := auth.Nations[0]
	text := templates.Must("no-sheet", map[string]any{"Game": g.ID(), "Nation": n, "Turn": st.Turn})
	return outcome{status: store.MailAcknowledged, class: ClassNoSheet, msgs: []outbox.Message{
		g.reply(m, ex, []string{g.registered(game.NationID(n))}, MailHelp, n, -1, fmt.Sprintf("[%s] No order sheet found", g.ID()), text)}}
}

// answerWrongNation answers a sheet that names a nation its sender is not
// registered for, or names none when the sender writes for several.
func (g *Game) answerWrongNation(m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult, sh *parser.Sheet) outcome {
	text := templates.Must("wrong-nation", map[string]any{"Named": sh.Header.Nation, "From": ex.From,
		"Registered": g.nationNames(auth.Nations)})
	n := auth.Nations[0]
	return outcome{status: store.MailAcknowledged, class: ClassRefused, note: "wrong nation", msgs: []outbox.Message{
		g.reply(m, ex, []string{g.registered(game.NationID(n))}, MailAck, n, -1, fmt.Sprintf("[%s] Sheet refused: wrong nation", g.ID()), text)}}
}

// answerUnreadable quarantines a mail that could not be read and, when its
// sender is registered, tells them why.
func (g *Game) answerUnreadable(m store.Mail, ex *inbox.Extracted, why error) outcome {
	out := outcome{status: store.MailQuarantined, class: ClassUnreadable, note: why.Error()}
	if ex == nil || !inbox.Authenticate(ex, m.Raw, m.Arrival, PolicyFor(g.Config)).OK() {
		return out
	}
	for _, o := range g.ownersOf([]string{ex.From}) {
		out.msgs = append(out.msgs, g.reply(m, ex, []string{o.address}, MailHelp, o.nation, -1,
			fmt.Sprintf("[%s] Your mail could not be read", g.ID()),
			templates.Must("unreadable", map[string]any{"Why": why.Error()})))
	}
	return out
}

// internalError is the outcome of a mail whose handling panicked: it is
// quarantined for the referee, who is told which mail it was and what went
// wrong, and the registered owner of its From address is told that nothing
// on it was done (without the detail, which is pbem's business). The From
// address is the intake's quick reading, not an authenticated one, so the
// answer goes only to a registered address and holds no game data.
func (g *Game) internalError(m store.Mail, p any) outcome {
	detail := clip(fmt.Sprint(p), 1000)
	out := outcome{status: store.MailQuarantined, class: ClassInternal, note: "internal error: " + detail}
	key := "internal." + store.SHA256Hex(m.Raw)
	thread := func(msg outbox.Message) outbox.Message {
		if m.MessageID != "" {
			msg.InReplyTo, msg.References = m.MessageID, []string{m.MessageID}
		}
		return msg
	}
	for _, o := range g.ownersOf([]string{m.From}) {
		if o.nation == "referee" {
			continue // told below, with the detail
		}
		out.msgs = append(out.msgs, thread(g.message(MailHelp, o.nation, -1, key, []string{o.address},
			fmt.Sprintf("[%s] Your mail could not be handled", g.ID()), templates.Must("internal-error", nil), mailDate(m))))
	}
	if ref := g.Config.Game.Referee; ref != "" {
		out.msgs = append(out.msgs, g.message(MailNotice, "referee", -1, key, []string{ref},
			fmt.Sprintf("[%s] Mail %d quarantined after an internal error", g.ID(), m.ID),
			templates.Must("internal-error-referee", map[string]any{"ID": m.ID, "From": m.From,
				"Received": m.ReceivedAt.In(g.Zone).Format("2 January 2006, 15:04 MST"), "Detail": detail}), mailDate(m)))
	}
	return out
}

// clip cuts s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
