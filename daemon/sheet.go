package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// handleSheet checks an order sheet from an authenticated nation address.
func (g *Game) handleSheet(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) (outcome, error) {
	if g.seamOnly != nil {
		return g.handleCampaignSheet(ctx, m, ex, auth) // seam_sheet.go
	}
	opened, err := g.openedKey(ctx)
	if err != nil {
		return outcome{}, err
	}
	st, deadline, err := g.current(ctx)
	if err != nil {
		return outcome{}, err
	}
	if g.gameOver(st) != nil {
		// gameover.go: after the victory a player's mail is answered with
		// the result, not checked; nothing on it is recorded.
		_, sheet := findSheet(ex, parser.NewVocabulary(g.Map, st))
		nation := pickNation(auth.Nations, sheet.Header.NationID)
		if nation == "" {
			nation = game.NationID(auth.Nations[0])
		}
		out := g.answerGameOver(m, ex, st, nation)
		out.opened = opened
		return out, nil
	}
	g.withTreaties(ctx, st) // treaty.go: the treaties sent and attested so far
	text, sheet := findSheet(ex, parser.NewVocabulary(g.Map, st))
	if !sheet.Header.Found {
		return g.answerNoSheet(m, ex, auth, st), nil
	}
	nation := pickNation(auth.Nations, sheet.Header.NationID)
	if nation == "" {
		return g.answerWrongNation(m, ex, auth, sheet), nil
	}
	prev, err := g.DB.LatestSubmission(ctx, g.ID(), st.Turn, string(nation), KindOrders)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return outcome{}, err
	}
	replaces := err == nil && prev.Valid
	var open []parser.OpenRequest
	if replaces {
		// special.go: the requests of the sheet in force, to carry over.
		if open, err = g.openOf(ctx, st.Turn, nation, prev); err != nil {
			return outcome{}, err
		}
	}
	var pwFailed bool
	var pwErr error
	check := g.check
	if check == nil {
		check = parser.Check
	}
	report := check(text, parser.CheckContext{
		Map: g.Map, Rules: g.Rules, State: st, Game: g.ID(), Nation: nation, Turn: st.Turn,
		Deadline: deadline, Zone: g.Zone, Replaces: replaces, Open: open,
		VerifyPassword: func(n game.NationID, pw string) bool {
			ok, err := g.verifyPassword(ctx, n, st.Turn, pw)
			if err != nil {
				pwErr = err
			}
			pwFailed = !ok
			return ok
		},
	})
	noteExtraction(report, ex, text)
	if pwErr != nil {
		// The store could not be read: try again rather than tell a player
		// with the right password that it is wrong.
		return outcome{}, fmt.Errorf("checking the password of %s: %w", nation, pwErr)
	}
	timing, err := g.timeSheet(ctx, st.Turn, deadline, m, report.Refused)
	if err != nil {
		return outcome{}, err
	}
	class, cl, late := timing.class, timing.close, timing.late
	if pwFailed {
		g.Log.Warn("order sheet with a wrong password", "mail", m.ID, "nation", nation, "from", ex.From)
	}
	reply := report.Text()
	if late {
		reply = templates.Must("late", map[string]any{
			"Closed":  g.closeSentence(cl),
			"Arrived": g.showTime(m.ReceivedAt),
			"Turn":    st.Calendar.Label(st.Turn), "Next": st.Turn + 1}) + reply
	}
	if report.Refused || late {
		// sheetinforce.go: what counts instead of this sheet.
		reply += g.sheetInForceNote(st, nation, prev, replaces, late)
	}
	if pwFailed {
		reply = templates.Must("wrong-password", map[string]any{"Nation": g.nationName(nation), "From": ex.From}) + reply
	}
	subject := fmt.Sprintf("[%s] %s: %s", g.ID(), g.nationName(nation), ackSubject(report, late))
	if report.TurnLabel != "" {
		// The turn as people read it: "[syw] Eisenmark, Turn 2, May 1752: …".
		subject = fmt.Sprintf("[%s] %s, %s: %s", g.ID(), g.nationName(nation), report.TurnLabel, ackSubject(report, late))
	}
	out := outcome{status: store.MailAcknowledged, class: class, opened: opened}
	if !report.Refused && !late {
		carried := map[string]bool{}
		for _, o := range report.Carried {
			carried[o.Token] = true
		}
		// closing.go: if the turn closed while this sheet was checked, its
		// commit decides again.
		out.close = &timing.check
		for _, req := range report.Requests {
			if !carried[req.Token] { // forwarded with the sheet that sent it
				out.msgs = append(out.msgs, g.forwardRequest(m, st, nation, req))
			}
		}
		now := g.Now().UTC()
		// treaty.go: IDs for the sheet's treaties, attestations, mail to the parties.
		tro, err := g.sheetTreaties(ctx, m, st, nation, report)
		if err != nil {
			return outcome{}, err
		}
		reply += tro.note
		out.msgs = append(out.msgs, tro.msgs...)
		sro := g.sheetSpecials(m, st, nation, report, now) // special.go: SPECIAL forwarded, requests carried over
		reply += sro.note
		out.msgs = append(out.msgs, sro.msgs...)
		pws := []string{sheet.Header.Password}
		if report.PasswordChange != nil {
			pws = append(pws, report.PasswordChange.New)
		}
		asked := isFinal(ex.Subject) || report.Final // final.go: the subject's word or the sheet's FINAL line
		final := asked && !report.HasErrors()
		switch {
		case final:
			reply += finalNote
		case asked:
			reply += "\nNot marked FINAL: the sheet has errors. Correct them and send it again with FINAL.\n"
		}
		playing := playingNations(st)
		out.save = func(ctx context.Context, tx *store.Tx) error {
			if err := g.saveSheet(ctx, tx, m, st.Turn, nation, text, pws, report, now); err != nil {
				return err
			}
			for _, sub := range sro.subs {
				if _, _, err := tx.SaveSubmission(ctx, sub); err != nil {
					return err
				}
			}
			if final {
				if _, _, err := tx.SaveSubmission(ctx, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation),
					Kind: KindFinal, MailID: m.ID, RawText: "FINAL", CanonicalText: "FINAL", Valid: true, SubmittedAt: now}); err != nil {
					return err
				}
				// closing.go: the last FINAL closes the turn's orders.
				if err := g.closeIfAllFinal(ctx, tx, st.Turn, playing, m); err != nil {
					return err
				}
			}
			if tro.changed {
				return saveLedgerIfUnchanged(ctx, tx, g.ID(), tro.was, tro.ledger)
			}
			return nil
		}
	}
	ack := g.reply(m, ex, []string{g.registered(nation)}, MailAck, string(nation), st.Turn, subject, reply)
	out.msgs = append(out.msgs, g.withForecast(ctx, &out, ack, m, st, nation, report, late)) // forecastmail.go
	return out, nil
}

// saveSheet records the accepted orders (the text, the canonical text, and
// the orders as engine data) and each treaty, attestation, request and
// password change of a sheet. Every text stored has the sheet's passwords
// (pws: the header's and a new one) masked.
func (g *Game) saveSheet(ctx context.Context, tx *store.Tx, m store.Mail, turn int, nation game.NationID, raw string, pws []string, r *parser.Report, now time.Time) error {
	mask := func(s string) string { return maskPasswords(s, pws...) }
	base := store.Submission{GameID: g.ID(), Turn: turn, Nation: string(nation), MailID: m.ID, SubmittedAt: now, Valid: true}
	orders, err := g.ordersSubmission(withText(base, KindOrders, mask(raw), mask(r.Canonical()), r.Receipt), r.Orders.List)
	if err != nil {
		return err
	}
	subs := []store.Submission{orders}
	for _, t := range r.Treaties {
		subs = append(subs, withText(base, KindTreaty, mask(t.Text), mask(t.Title), ""))
	}
	for _, a := range r.Attestations {
		subs = append(subs, withText(base, KindAttest, "", a.Treaty, ""))
	}
	for _, q := range r.Requests {
		subs = append(subs, withText(base, KindRequest, mask(q.Text), mask(q.Text), q.Token))
	}
	for _, s := range subs {
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

// withText is s as a submission of kind with its texts.
func withText(s store.Submission, kind, raw, canonical, receipt string) store.Submission {
	s.Kind, s.RawText, s.CanonicalText, s.ReceiptHash = kind, raw, canonical, receipt
	return s
}

// forwardRequest builds the mail asking the referee to rule on a request.
// Its Message-ID comes from the token, so a request sent again on a
// corrected sheet (same text, same token) is forwarded once.
func (g *Game) forwardRequest(m store.Mail, st *engine.State, nation game.NationID, req parser.Request) outbox.Message {
	text := templates.Must("request", map[string]any{"Nation": g.nationName(nation), "NationID": string(nation), "Game": g.ID(),
		"Turn": st.Calendar.Label(st.Turn), "Text": req.Text, "Token": req.Token})
	return g.message(MailRequest, string(nation), st.Turn, req.Token, []string{g.Config.Game.Referee},
		fmt.Sprintf("[%s] Request %s from %s", g.ID(), req.Token, g.nationName(nation)), text, mailDate(m))
}

func ackSubject(r *parser.Report, late bool) string {
	switch {
	case late:
		return "sheet too LATE, not counted"
	case r.Refused:
		return "sheet REFUSED"
	case r.HasErrors():
		return fmt.Sprintf("orders received with %s, receipt %s", english.Count(r.Count(parser.Error), "error"), r.Receipt)
	}
	return "orders received, receipt " + r.Receipt
}

// openRequests returns the requests the referee may rule on now, by token:
// those on each nation's sheet in force for the turn. It also returns the
// tokens of requests withdrawn since (on a sheet a later one replaced), so
// that a ruling on one can say so.
func (g *Game) openRequests(ctx context.Context, turn int) (open map[string]store.Submission, withdrawn map[string]string, err error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, nil, err
	}
	inForce := map[string]int64{} // nation → the mail of its sheet in force
	for _, s := range subs {
		if s.Kind == KindOrders && s.Valid && !s.Superseded {
			inForce[s.Nation] = s.MailID
		}
	}
	open, withdrawn = map[string]store.Submission{}, map[string]string{}
	for _, s := range subs {
		if s.Kind != KindRequest || !s.Valid {
			continue
		}
		if inForce[s.Nation] == s.MailID {
			open[s.ReceiptHash] = s
		} else {
			withdrawn[s.ReceiptHash] = s.Nation
		}
	}
	return open, withdrawn, nil
}

// sheetTiming is how a checked sheet stands against the turn's close.
type sheetTiming struct {
	class string     // ClassRefused, ClassLate or ClassOrders
	close turnClose  // the close it was judged by
	late  bool       // it reached the server after the close
	check closeCheck // what its commit checks again (closing.go)
}

// timeSheet judges a checked sheet against the turn's close. A sheet that
// reached the server after the turn's orders closed (the deadline, or
// earlier the referee's RESOLVE NOW or the last FINAL; closing.go) does not
// count, even if the turn has not been resolved yet. The arrival is the
// server's stamp, stored with the mail, so a retry decides the same way.
// Every campaign's sheets are judged by it.
func (g *Game) timeSheet(ctx context.Context, turn int, deadline time.Time, m store.Mail, refused bool) (sheetTiming, error) {
	early, closed, err := g.earlyClose(ctx, g.DB, turn)
	if err != nil {
		return sheetTiming{}, err
	}
	t := sheetTiming{class: ClassOrders, check: closeCheck{turn: turn, seen: early, closed: closed}}
	cl, hasClose := cutoff(deadline, early, closed)
	t.close = cl
	switch {
	case refused:
		t.class = ClassRefused
	case hasClose && cl.after(m):
		t.class, t.late = ClassLate, true
	}
	return t, nil
}
