package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// Classifications recorded on each mail row: what the daemon made of it.
const (
	ClassOrders        = "orders"         // an order sheet (treaties, requests, password changes ride on sheets)
	ClassReferee       = "referee"        // commands from the referee
	ClassRefused       = "refused"        // a sheet refused whole (wrong password, turn, game or nation)
	ClassNoSheet       = "no-sheet"       // from a registered sender but no sheet in it: answered with help
	ClassUnknownSender = "unknown-sender" // not registered: answered without game data
	ClassSpoof         = "spoof"          // two From headers, DKIM required and missing, …
	ClassAutomatic     = "automatic"      // auto-reply, bounce, loop: never answered
	ClassUnreadable    = "unreadable"     // too large, too deep, too slow, broken: answered if the sender is known
	ClassDuplicate     = "duplicate"      // the same Message-ID from the same sender was handled already
	ClassLate          = "late"           // a sheet that arrived after the deadline: answered, not counted
)

// Submission kinds written to the store.
const (
	KindOrders   = "orders"
	KindTreaty   = "treaty"
	KindAttest   = "attest"
	KindRequest  = "request"
	KindPassword = "password"
	KindRuling   = "ruling"
	KindReferee  = "referee"
)

// Outbox kinds of the mails the daemon sends.
const (
	MailAck       = "ack"
	MailHelp      = "help"
	MailNotice    = "notice"
	MailRequest   = "request"
	MailRuling    = "ruling"
	MailRefereeOK = "referee-ack"
)

// HandleMail is the intake's handler: it reads one stored mail, decides what
// it is and who sent it, checks it, and records the result with the answer to
// send — all in one transaction, which also marks the mail acknowledged. It
// is idempotent: a mail already past MailStored is left alone, and a repeat
// after a crash produces the same answer with the same Message-ID, which the
// outbox stores once.
func (g *Game) HandleMail(ctx context.Context, m store.Mail) (err error) {
	// The row passed in may be stale (a retry after a crash): go by the
	// store's current status.
	cur, err := g.DB.Mail(ctx, m.ID)
	if err != nil {
		return err
	}
	if cur.Status != store.MailStored {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			g.Log.Error("panic while handling a mail", "mail", m.ID, "panic", r)
			err = g.answerUnreadable(ctx, m, nil, fmt.Errorf("internal error while reading your mail"))
		}
	}()
	ex, xerr := inbox.Extract(m.Raw, inbox.Limits{OwnAddresses: []string{g.Config.Mail.Address}})
	if xerr != nil {
		g.Log.Warn("mail refused by extraction", "mail", m.ID, "from", m.From, "err", xerr)
		return g.answerUnreadable(ctx, m, ex, xerr)
	}
	if auto, why := ex.IsAutomatic(); auto {
		g.Log.Info("automatic mail not answered", "mail", m.ID, "from", m.From, "why", why)
		return g.DB.SetMailStatus(ctx, m.ID, store.MailIgnored, ClassAutomatic, why)
	}
	auth := inbox.Authenticate(ex, m.Raw, inbox.PolicyFromConfig(g.Config))
	if dup, err := g.isDuplicate(ctx, ex, m); err != nil {
		return err
	} else if dup {
		return g.DB.SetMailStatus(ctx, m.ID, store.MailIgnored, ClassDuplicate, "same Message-ID handled before")
	}
	switch {
	case auth.Verdict == inbox.UnknownSender:
		return g.answerUnknownSender(ctx, m, ex)
	case !auth.OK():
		g.Log.Warn("mail refused by sender authentication", "mail", m.ID, "verdict", auth.Verdict, "reason", auth.Reason)
		return g.answerSpoof(ctx, m, ex, auth)
	case auth.Referee && len(auth.Nations) == 0:
		return g.handleReferee(ctx, m, ex)
	}
	return g.handleSheet(ctx, m, ex, auth)
}

// isDuplicate reports a mail whose Message-ID from the same sender was
// handled already (a resend rewritten by a relay: new bytes, same mail), and
// records this one's Message-ID otherwise.
func (g *Game) isDuplicate(ctx context.Context, ex *inbox.Extracted, m store.Mail) (bool, error) {
	if ex.MessageID == "" || ex.From == "" {
		return false, nil
	}
	key := "mail-id:" + ex.From + ":" + ex.MessageID
	v, ok, err := g.DB.GetMeta(ctx, key)
	if err != nil {
		return false, err
	}
	if ok && v != fmt.Sprint(m.ID) {
		return true, nil
	}
	if !ok {
		return false, g.DB.SetMeta(ctx, key, fmt.Sprint(m.ID))
	}
	return false, nil
}

// handleSheet checks an order sheet from an authenticated nation address.
func (g *Game) handleSheet(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) error {
	st, err := g.State(ctx)
	if err != nil {
		return err
	}
	text, sheet := findSheet(ex, g.vocab(st))
	if !sheet.Header.Found {
		return g.answerNoSheet(ctx, m, ex, auth)
	}
	nation := pickNation(auth.Nations, sheet.Header.NationID)
	if nation == "" {
		// The sheet names a nation this address is not registered for.
		return g.answerWrongNation(ctx, m, ex, auth, sheet)
	}
	prev, err := g.DB.LatestSubmission(ctx, g.ID(), st.Turn, string(nation), KindOrders)
	replaces := err == nil && prev.Valid
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	deadline, _ := g.Deadline(ctx)
	var pwFailed bool
	report := parser.Check(text, parser.CheckContext{
		Map: g.Map, Rules: g.Rules, State: st, Game: g.ID(), Nation: nation, Turn: st.Turn,
		Deadline: deadline, Zone: g.Zone, Replaces: replaces,
		VerifyPassword: func(n game.NationID, pw string) bool {
			ok := g.VerifyPassword(ctx, n, st.Turn, pw)
			pwFailed = !ok
			return ok
		},
	})
	class := ClassOrders
	if report.Refused {
		class = ClassRefused
	}
	// A sheet that arrived after the deadline does not count: the turn's
	// orders are closed even if the turn has not been resolved yet. The
	// arrival time is the intake's, stored with the mail, so a retry decides
	// the same way.
	late := !report.Refused && !deadline.IsZero() && m.ReceivedAt.After(deadline)
	if late {
		class = ClassLate
	}
	if pwFailed {
		g.Log.Warn("order sheet with a wrong password", "mail", m.ID, "nation", nation, "from", ex.From)
	}
	reply := report.Text()
	if late {
		reply = templates.Must("late", map[string]any{
			"Deadline": deadline.In(g.Zone).Format("Monday 2 January 2006, 15:04 MST"),
			"Turn":     st.Calendar.Label(st.Turn), "Next": st.Turn + 1}) + reply
	}
	if pwFailed {
		reply = templates.Must("wrong-password", map[string]any{"Nation": g.nationName(nation), "From": ex.From}) + reply
	}
	subject := fmt.Sprintf("[%s] %s: %s", g.ID(), g.nationName(nation), ackSubject(report, late))
	ack, err := g.answer(m, ex, []string{g.registered(nation)}, MailAck, string(nation), st.Turn, subject, reply)
	if err != nil {
		return err
	}
	now := g.Now().UTC()
	return g.DB.Update(ctx, func(tx *store.Tx) error {
		if !report.Refused && !late {
			if err := g.saveSheet(ctx, tx, m, st.Turn, nation, text, report, now); err != nil {
				return err
			}
			for _, req := range report.Requests {
				fwd, err := g.forwardRequest(m, st, nation, req)
				if err != nil {
					return err
				}
				if err := enqueue(ctx, tx, fwd); err != nil {
					return err
				}
			}
		}
		if err := enqueue(ctx, tx, ack); err != nil {
			return err
		}
		return tx.SetMailStatus(ctx, m.ID, store.MailAcknowledged, class, "")
	})
}

// saveSheet records the accepted orders and each treaty, attestation, request
// and password change of a sheet.
func (g *Game) saveSheet(ctx context.Context, tx *store.Tx, m store.Mail, turn int, nation game.NationID, raw string, r *parser.Report, now time.Time) error {
	sub := store.Submission{GameID: g.ID(), Turn: turn, Nation: string(nation), MailID: m.ID, SubmittedAt: now}
	orders := sub
	orders.Kind, orders.RawText, orders.CanonicalText, orders.ReceiptHash, orders.Valid = KindOrders, raw, r.Canonical(), r.Receipt, true
	if _, _, err := tx.SaveSubmission(ctx, orders); err != nil {
		return err
	}
	for _, t := range r.Treaties {
		s := sub
		s.Kind, s.RawText, s.CanonicalText, s.Valid = KindTreaty, t.Text, t.Title, true
		if _, _, err := tx.SaveSubmission(ctx, s); err != nil {
			return err
		}
	}
	for _, a := range r.Attestations {
		s := sub
		s.Kind, s.CanonicalText, s.Valid = KindAttest, a.Treaty, true
		if _, _, err := tx.SaveSubmission(ctx, s); err != nil {
			return err
		}
	}
	for _, q := range r.Requests {
		s := sub
		s.Kind, s.RawText, s.CanonicalText, s.ReceiptHash, s.Valid = KindRequest, q.Text, q.Text, q.Token, true
		if _, _, err := tx.SaveSubmission(ctx, s); err != nil {
			return err
		}
	}
	if r.PasswordChange != nil {
		h, err := password.Hash(r.PasswordChange.New)
		if err != nil {
			return err
		}
		if err := tx.SchedulePasswordChange(ctx, g.ID(), string(nation), h, turn+1); err != nil {
			return err
		}
	}
	return nil
}

// forwardRequest builds the mail asking the referee to rule on a request.
func (g *Game) forwardRequest(m store.Mail, st *engine.State, nation game.NationID, req parser.Request) (outbox.Message, error) {
	turn := st.Turn
	text := templates.Must("request", map[string]any{"Nation": g.nationName(nation), "Turn": st.Calendar.Label(turn),
		"Text": req.Text, "Token": req.Token})
	msg := g.message(MailRequest, string(nation), turn, req.Token,
		[]string{g.Config.Game.Referee}, fmt.Sprintf("[%s] Request %s from %s", g.ID(), req.Token, g.nationName(nation)), text, m.ReceivedAt)
	return msg, nil
}

// handleReferee reads the referee's commands. Rulings must name the token of
// a request of the turn now open; the other commands are recorded for the
// turn runner and acknowledged.
func (g *Game) handleReferee(ctx context.Context, m store.Mail, ex *inbox.Extracted) error {
	st, err := g.State(ctx)
	if err != nil {
		return err
	}
	v := g.vocab(st)
	rs := parser.ParseRefereeCommands(ex.Text, v, g.Zone)
	if rs.Game != "" && rs.Game != g.ID() {
		rs.Diagnostics = append(rs.Diagnostics, parser.Diagnostic{Severity: parser.Error,
			Message: fmt.Sprintf("this mail is for game %q, but this is game %q: nothing was done", rs.Game, g.ID())})
		rs.Commands = nil
	}
	requests, err := g.DB.Submissions(ctx, g.ID(), st.Turn)
	if err != nil {
		return err
	}
	byToken := map[string]store.Submission{}
	for _, s := range requests {
		if s.Kind == KindRequest {
			byToken[s.ReceiptHash] = s
		}
	}
	var lines []string
	var rulings []store.Submission
	var notices []outbox.Message
	now := g.Now().UTC()
	for _, c := range rs.Commands {
		formatted := parser.FormatRefereeCommand(c, v)
		token := ""
		switch x := c.(type) {
		case parser.Approve:
			token = x.Token
		case parser.Deny:
			token = x.Token
		}
		if token == "" {
			lines = append(lines, fmt.Sprintf("line %d: %s — recorded; the turn runner carries it out", c.SourceLine(), formatted))
			rulings = append(rulings, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: "referee", Kind: KindReferee,
				MailID: m.ID, RawText: formatted, CanonicalText: formatted, Valid: true, SubmittedAt: now})
			continue
		}
		req, ok := byToken[token]
		if !ok {
			lines = append(lines, fmt.Sprintf("line %d: %s — REFUSED: no request %s is open this turn (%s); check the token in the request mail",
				c.SourceLine(), formatted, token, st.Calendar.Label(st.Turn)))
			continue
		}
		lines = append(lines, fmt.Sprintf("line %d: %s — recorded for %s's request", c.SourceLine(), formatted, g.nationName(game.NationID(req.Nation))))
		rulings = append(rulings, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: req.Nation, Kind: KindRuling,
			MailID: m.ID, RawText: formatted, CanonicalText: formatted, ReceiptHash: token, Valid: true, SubmittedAt: now})
		verdict := "approved"
		if _, deny := c.(parser.Deny); deny {
			verdict = "denied"
		}
		notices = append(notices, g.message(MailRuling, req.Nation, st.Turn, token, []string{g.registered(game.NationID(req.Nation))},
			fmt.Sprintf("[%s] Your request %s was %s", g.ID(), token, verdict),
			templates.Must("ruling", map[string]any{"Verdict": verdict, "Token": token, "Text": req.RawText, "Ruling": formatted}), m.ReceivedAt))
	}
	for _, d := range rs.Diagnostics {
		line := fmt.Sprintf("line %d: ERROR: %s", d.Line, d.Message)
		if d.Hint != "" {
			line += " " + d.Hint
		}
		lines = append(lines, line)
	}
	ack := g.reply(m, ex, []string{g.Config.Game.Referee}, MailRefereeOK, "referee", st.Turn,
		fmt.Sprintf("[%s] Referee commands received", g.ID()), templates.Must("referee-ack", map[string]any{"Lines": lines}))
	return g.DB.Update(ctx, func(tx *store.Tx) error {
		for _, s := range rulings {
			if _, _, err := tx.SaveSubmission(ctx, s); err != nil {
				return err
			}
		}
		for _, n := range append(notices, ack) {
			if err := enqueue(ctx, tx, n); err != nil {
				return err
			}
		}
		return tx.SetMailStatus(ctx, m.ID, store.MailAcknowledged, ClassReferee, "")
	})
}

// answerUnknownSender answers a mail from an address registered for no
// nation. The answer holds no game data, and names no nation; if the mail
// holds a sheet naming a nation, that nation's registered address is told.
func (g *Game) answerUnknownSender(ctx context.Context, m store.Mail, ex *inbox.Extracted) error {
	var msgs []outbox.Message
	if ex.From != "" {
		msgs = append(msgs, g.reply(m, ex, []string{ex.From}, MailHelp, "", -1,
			"Your mail was not read", templates.Must("unknown-sender", nil)))
	}
	_, sheet := findSheet(ex, nil)
	if n := sheet.Header.NationID; n == "" && sheet.Header.Nation != "" {
		n = game.NationID(strings.ToLower(sheet.Header.Nation))
		if _, ok := g.Map.Nation(n); ok {
			sheet.Header.NationID = n
		}
	}
	if n := sheet.Header.NationID; n != "" && g.registered(n) != "" {
		msgs = append(msgs, g.message(MailNotice, string(n), -1, store.SHA256Hex(m.Raw),
			[]string{g.registered(n)}, fmt.Sprintf("[%s] A sheet for %s came from an unregistered address", g.ID(), g.nationName(n)),
			templates.Must("unregistered-notice", map[string]any{"Nation": g.nationName(n), "From": ex.From}), m.ReceivedAt))
	}
	return g.finish(ctx, m, store.MailAcknowledged, ClassUnknownSender, "", msgs...)
}

// answerSpoof records a mail that failed sender authentication and tells the
// registered owner(s) of the From address — never the sender's Reply-To.
func (g *Game) answerSpoof(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) error {
	var msgs []outbox.Message
	owners := auth.Nations
	if len(owners) == 0 {
		// Two From headers (or two addresses in one): tell the owner of
		// every registered address among them.
		owners = g.ownersOf(ex.FromAddresses)
	}
	for _, n := range owners {
		msgs = append(msgs, g.message(MailNotice, n, -1, store.SHA256Hex(m.Raw), []string{g.registered(game.NationID(n))},
			fmt.Sprintf("[%s] A mail in your name was refused", g.ID()),
			templates.Must("spoof-notice", map[string]any{"Reason": auth.Reason}), m.ReceivedAt))
	}
	return g.finish(ctx, m, store.MailAcknowledged, ClassSpoof, string(auth.Verdict), msgs...)
}

// ownersOf returns the nations any of the addresses is registered for,
// sorted.
func (g *Game) ownersOf(addrs []string) []string {
	var out []string
	for _, id := range g.Config.NationIDs() {
		for _, reg := range g.Config.Game.Nations[id].Addresses {
			if slices.ContainsFunc(addrs, func(a string) bool { return strings.EqualFold(a, reg) }) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// answerNoSheet answers a registered sender whose mail holds no sheet with a
// short help text.
func (g *Game) answerNoSheet(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) error {
	to := g.registered(game.NationID(auth.Nations[0]))
	turn := 1
	if st, err := g.State(ctx); err == nil {
		turn = st.Turn
	}
	text := templates.Must("no-sheet", map[string]any{"Game": g.ID(), "Nation": auth.Nations[0], "Turn": turn})
	msg := g.reply(m, ex, []string{to}, MailHelp, auth.Nations[0], -1, fmt.Sprintf("[%s] No order sheet found", g.ID()), text)
	return g.finish(ctx, m, store.MailAcknowledged, ClassNoSheet, "", msg)
}

// answerWrongNation answers a sheet that names a nation its sender is not
// registered for.
func (g *Game) answerWrongNation(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult, sh *parser.Sheet) error {
	to := g.registered(game.NationID(auth.Nations[0]))
	text := templates.Must("wrong-nation", map[string]any{"Named": sh.Header.Nation, "From": ex.From,
		"Registered": strings.Join(auth.Nations, ", ")})
	msg := g.reply(m, ex, []string{to}, MailAck, auth.Nations[0], -1, fmt.Sprintf("[%s] Sheet refused: wrong nation", g.ID()), text)
	return g.finish(ctx, m, store.MailAcknowledged, ClassRefused, "wrong nation", msg)
}

// answerUnreadable records a mail that could not be read and, when its sender
// is registered, tells them why.
func (g *Game) answerUnreadable(ctx context.Context, m store.Mail, ex *inbox.Extracted, why error) error {
	var msgs []outbox.Message
	if ex != nil {
		auth := inbox.Authenticate(ex, m.Raw, inbox.PolicyFromConfig(g.Config))
		if auth.OK() {
			for _, n := range auth.Nations {
				msgs = append(msgs, g.reply(m, ex, []string{g.registered(game.NationID(n))}, MailHelp, n, -1,
					fmt.Sprintf("[%s] Your mail could not be read", g.ID()),
					templates.Must("unreadable", map[string]any{"Why": why.Error()})))
			}
		}
	}
	return g.finish(ctx, m, store.MailQuarantined, ClassUnreadable, why.Error(), msgs...)
}

// finish queues msgs and sets the mail's status in one transaction.
func (g *Game) finish(ctx context.Context, m store.Mail, status store.MailStatus, class, errText string, msgs ...outbox.Message) error {
	return g.DB.Update(ctx, func(tx *store.Tx) error {
		for _, msg := range msgs {
			if err := enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.SetMailStatus(ctx, m.ID, status, class, errText)
	})
}

// enqueue stores an outbox row; a row already queued under the same
// Message-ID (a repeat after a crash) is left as it is.
func enqueue(ctx context.Context, tx *store.Tx, msg outbox.Message) error {
	row, err := outbox.Row(msg)
	if err != nil {
		return err
	}
	if _, err := tx.Enqueue(ctx, row); err != nil && !errors.Is(err, store.ErrConflict) {
		return err
	}
	return nil
}

// reply builds an answer to mail m, threaded to it and dated by its arrival
// so that a repeat builds the same bytes.
func (g *Game) reply(m store.Mail, ex *inbox.Extracted, to []string, kind, nation string, turn int, subject, text string) outbox.Message {
	msg := g.message(kind, nation, turn, store.SHA256Hex(m.Raw), to, subject, text, m.ReceivedAt)
	if ex != nil && ex.MessageID != "" {
		msg.InReplyTo = ex.MessageID
		msg.References = append(append([]string(nil), ex.References...), ex.MessageID)
	}
	return msg
}

// answer is reply for the acknowledgment of a sheet.
func (g *Game) answer(m store.Mail, ex *inbox.Extracted, to []string, kind, nation string, turn int, subject, text string) (outbox.Message, error) {
	if len(to) == 0 || to[0] == "" {
		return outbox.Message{}, fmt.Errorf("nation %s has no registered address", nation)
	}
	return g.reply(m, ex, to, kind, nation, turn, subject, text), nil
}

// message builds a mail from the game's address.
func (g *Game) message(kind, nation string, turn int, key string, to []string, subject, text string, date time.Time) outbox.Message {
	addrs := make([]mail.Address, 0, len(to))
	for _, a := range to {
		addrs = append(addrs, mail.Address{Address: a})
	}
	if date.IsZero() {
		date = g.Now()
	}
	return outbox.Message{
		Game: g.ID(), Turn: turn, Nation: nation, Kind: kind, Key: key,
		From:    mail.Address{Name: g.Config.Game.Name, Address: g.Config.Mail.Address},
		To:      addrs,
		Subject: subject,
		Date:    date.UTC(),
		Text:    text,
	}
}

// registered is the nation's first registered address: where its mail goes.
func (g *Game) registered(n game.NationID) string {
	if c, ok := g.Config.Game.Nations[string(n)]; ok && len(c.Addresses) > 0 {
		return c.Addresses[0]
	}
	return ""
}

func (g *Game) nationName(n game.NationID) string {
	if nat, ok := g.Map.Nation(n); ok {
		return nat.Name
	}
	return string(n)
}

func (g *Game) vocab(st *engine.State) *parser.Vocabulary { return parser.NewVocabulary(g.Map, st) }

// findSheet returns the first text of the mail that holds an order sheet
// (the body, then .txt attachments, then text from HTML), or the body.
func findSheet(ex *inbox.Extracted, v *parser.Vocabulary) (string, *parser.Sheet) {
	var first *parser.Sheet
	for _, t := range ex.Texts {
		sh := parser.Parse(t.Text, v)
		if sh.Header.Found {
			return t.Text, sh
		}
		if first == nil {
			first = sh
		}
	}
	if first == nil {
		first = parser.Parse(ex.Text, v)
	}
	return ex.Text, first
}

// pickNation chooses the nation a sheet is for: the one the sender is
// registered for, or, for an address registered for several, the one the
// sheet names. "" when the sheet names a nation the sender may not write for.
func pickNation(registered []string, named game.NationID) game.NationID {
	if named != "" {
		for _, n := range registered {
			if game.NationID(n) == named {
				return named
			}
		}
		return ""
	}
	if len(registered) == 1 {
		return game.NationID(registered[0])
	}
	return ""
}

func ackSubject(r *parser.Report, late bool) string {
	switch {
	case late:
		return "sheet too LATE, not counted"
	case r.Refused:
		return "sheet REFUSED"
	case r.HasErrors():
		return fmt.Sprintf("orders received with %d error(s), receipt %s", r.Count(parser.Error), r.Receipt)
	}
	return "orders received, receipt " + r.Receipt
}
