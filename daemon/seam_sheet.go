package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// An order sheet of a game played through the seam (seam.go): found in the
// mail by the shared sheet frame, checked by the campaign's checker against
// the state, answered at once; the accepted orders stored with the
// campaign's codec. Lateness (closing.go), FINAL (final.go), the sheet in
// force (sheetinforce.go) and the wrong-password notice are the daemon's
// own, as for SYW.

// handleCampaignSheet is handleSheet for a game played through the seam.
func (g *Game) handleCampaignSheet(ctx context.Context, m store.Mail, ex *inbox.Extracted, auth inbox.AuthResult) (outcome, error) {
	opened, err := g.openedKey(ctx)
	if err != nil {
		return outcome{}, err
	}
	st, deadline, err := g.current(ctx)
	if err != nil {
		return outcome{}, err
	}
	rec, err := g.DB.TurnVersion(ctx, g.ID(), opened.turn, opened.version)
	if err != nil {
		return outcome{}, err
	}
	cs, err := g.campaignStateOf(rec)
	if err != nil {
		return outcome{}, err
	}
	text, fr := g.findCampaignSheet(ex)
	if !fr.Header.Found {
		return g.answerNoSheet(m, ex, auth, st), nil
	}
	nation := pickNation(auth.Nations, fr.Header.NationID)
	if nation == "" {
		return g.answerWrongNation(m, ex, auth, &parser.Sheet{Header: fr.Header}), nil
	}
	prev, err := g.DB.LatestSubmission(ctx, g.ID(), st.Turn, string(nation), KindOrders)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return outcome{}, err
	}
	replaces := err == nil && prev.Valid
	var pwFailed bool
	var pwErr error
	r := g.seamOnly.Check(text, campaign.CheckContext{State: cs, Game: g.ID(), Nation: nation, Deadline: deadline, Zone: g.Zone, Replaces: replaces,
		VerifyPassword: func(n game.NationID, pw string) bool {
			ok, err := g.verifyPassword(ctx, n, st.Turn, pw)
			if err != nil {
				pwErr = err
			}
			pwFailed = !ok
			return ok
		}})
	if pwErr != nil {
		return outcome{}, fmt.Errorf("checking the password of %s: %w", nation, pwErr)
	}
	timing, err := g.timeSheet(ctx, st.Turn, deadline, m, r.Refused) // sheet.go
	if err != nil {
		return outcome{}, err
	}
	class, cl, late := timing.class, timing.close, timing.late
	if pwFailed {
		g.Log.Warn("order sheet with a wrong password", "mail", m.ID, "nation", nation, "from", ex.From)
	}
	label := g.labelOf(st, st.Turn)
	reply := r.Text
	if late {
		reply = templates.Must("late", map[string]any{"Closed": g.closeSentence(cl), "Arrived": g.showTime(m.ReceivedAt),
			"Turn": label, "Next": st.Turn + 1}) + reply
	}
	if r.Refused || late {
		reply += g.campaignSheetInForceNote(label, nation, prev, replaces, late)
	}
	if pwFailed {
		reply = templates.Must("wrong-password", map[string]any{"Nation": g.nationName(nation), "From": ex.From}) + reply
	}
	subject := fmt.Sprintf("[%s] %s, %s: %s", g.ID(), g.nationName(nation), label, campaignAckSubject(r, late))
	out := outcome{status: store.MailAcknowledged, class: class, opened: opened}
	if !r.Refused && !late {
		out.close = &timing.check
		errs := campaignErrors(r)
		asked := isFinal(ex.Subject)
		final := asked && errs == 0
		switch {
		case final:
			reply += finalNote
		case asked:
			reply += "\nNot marked FINAL: the sheet has errors. Correct them and send it again with FINAL.\n"
		}
		now := g.Now().UTC()
		playing := playingNations(st)
		pws := []string{fr.Header.Password}
		out.save = func(ctx context.Context, tx *store.Tx) error {
			mask := func(s string) string { return maskPasswords(s, pws...) }
			orders, err := g.seamOnly.EncodeOrders(r.Orders)
			if err != nil {
				return err
			}
			sub := store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation), MailID: m.ID, SubmittedAt: now, Valid: true,
				Kind: KindOrders, RawText: mask(text), CanonicalText: mask(r.Canonical), ReceiptHash: r.Receipt,
				Orders: orders, Ruleset: g.rulesetID()}
			if _, _, err := tx.SaveSubmission(ctx, sub); err != nil {
				return err
			}
			if final {
				if _, _, err := tx.SaveSubmission(ctx, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation),
					Kind: KindFinal, MailID: m.ID, RawText: "FINAL", CanonicalText: "FINAL", Valid: true, SubmittedAt: now}); err != nil {
					return err
				}
				return g.closeIfAllFinal(ctx, tx, st.Turn, playing, m)
			}
			return nil
		}
	}
	out.msgs = append(out.msgs, g.reply(m, ex, []string{g.registered(nation)}, MailAck, string(nation), st.Turn, subject, reply))
	return out, nil
}

// findCampaignSheet returns the first text of the mail holding a sheet's
// header (the body, then .txt attachments, then text from HTML), or the
// body, with its frame.
func (g *Game) findCampaignSheet(ex *inbox.Extracted) (string, *parser.Frame) {
	opt := parser.FrameOptions{Nations: g.nations()}
	for _, t := range ex.Texts {
		if fr := parser.ReadFrame(t.Text, opt); fr.Header.Found {
			return t.Text, fr
		}
	}
	return ex.Text, parser.ReadFrame(ex.Text, opt)
}

// campaignErrors counts a checked sheet's errors.
func campaignErrors(r *campaign.Reply) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity == parser.Error {
			n++
		}
	}
	return n
}

// campaignAckSubject is ackSubject for a campaign's reply.
func campaignAckSubject(r *campaign.Reply, late bool) string {
	switch {
	case late:
		return "sheet too LATE, not counted"
	case r.Refused:
		return "sheet REFUSED"
	case campaignErrors(r) > 0:
		return fmt.Sprintf("orders received with %s, receipt %s", english.Count(campaignErrors(r), "error"), r.Receipt)
	}
	return "orders received, receipt " + r.Receipt
}

// campaignSheetInForceNote is sheetInForceNote with the campaign's label.
func (g *Game) campaignSheetInForceNote(label string, nation game.NationID, prev store.Submission, inForce, late bool) string {
	data := map[string]any{"Nation": g.nationName(nation), "Turn": label, "Late": late, "Receipt": "", "Received": ""}
	if inForce {
		data["Receipt"] = prev.ReceiptHash
		data["Received"] = prev.SubmittedAt.In(g.Zone).Format("Monday 2 January 2006, 15:04 MST")
	}
	return "\n" + templates.Must("sheet-in-force", data)
}
