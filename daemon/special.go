package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// A player's SPECIAL order goes to the referee like a REQUEST: with a token
// (S and six hex digits, from the game, nation, turn and text, so the same
// order sent again on a corrected sheet keeps its token and is forwarded
// once), stored as a request of the sheet, so that the referee's APPROVE or
// DENY with that token is a ruling on it.
//
// Requests survive a replacement sheet (parser/carry.go): the checker is
// given the requests of the nation's sheet in force with the referee's
// rulings on them (openOf), and carries over into the new sheet those it
// neither withdraws (WITHDRAW REQUEST token) nor sends again, pending or
// approved; they are stored again with the new sheet, so that they stay
// open to the referee and their rulings stay in force (inForceTokens), and
// are not forwarded again. The referee is told what a replacement kept,
// withdrew and let lapse (requests-carried.txt).

// specialToken is the token of the nth SPECIAL of a sheet with this text.
func specialToken(gameID string, n game.NationID, turn, nth int, text string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("special\x00%s\x00%s\x00%d\x00%d\x00%s", gameID, n, turn, nth, text)))
	return "S" + hex.EncodeToString(sum[:3])
}

// sheetRequests is what a sheet's SPECIAL orders and carried requests add
// to its handling: a note for the answer, mails to the referee, and the
// requests to store with the sheet.
type sheetRequests struct {
	note string
	msgs []outbox.Message
	subs []store.Submission
}

// sheetSpecials is handleSheet's hook for an accepted sheet: each new
// SPECIAL is forwarded to the referee with its token; a SPECIAL carried
// over from the sheet in force (the checker appends it, with no sheet
// line) keeps its token and is not forwarded again; the referee is told
// what the sheet kept and withdrew of the one it replaces.
func (g *Game) sheetSpecials(m store.Mail, st *engine.State, nation game.NationID, r *parser.Report, now time.Time) sheetRequests {
	var out sheetRequests
	var lines []string
	carried := map[string][]string{} // a carried SPECIAL's text → its tokens
	for _, o := range r.Carried {
		if o.Special {
			carried[o.Text] = append(carried[o.Text], o.Token)
		}
	}
	nth := map[string]int{}
	for _, o := range r.Orders.List {
		sp, ok := o.(engine.Special)
		if !ok {
			continue
		}
		raw := "SPECIAL " + sp.Text
		if sp.Line == 0 && len(carried[sp.Text]) > 0 {
			tok := carried[sp.Text][0]
			carried[sp.Text] = carried[sp.Text][1:]
			out.subs = append(out.subs, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation), Kind: KindRequest,
				MailID: m.ID, RawText: raw, CanonicalText: raw, ReceiptHash: tok, Valid: true, SubmittedAt: now})
			continue
		}
		nth[sp.Text]++
		tok := specialToken(g.ID(), nation, st.Turn, nth[sp.Text], sp.Text)
		if ref := g.Config.Game.Referee; ref != "" {
			text := templates.Must("request", map[string]any{"Nation": g.nationName(nation), "NationID": string(nation), "Game": g.ID(),
				"Turn": st.Calendar.Label(st.Turn), "Text": raw, "Token": tok})
			out.msgs = append(out.msgs, g.message(MailRequest, string(nation), st.Turn, tok, []string{ref},
				fmt.Sprintf("[%s] SPECIAL %s from %s", g.ID(), tok, g.nationName(nation)), text, mailDate(m)))
		}
		out.subs = append(out.subs, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation), Kind: KindRequest,
			MailID: m.ID, RawText: raw, CanonicalText: raw, ReceiptHash: tok, Valid: true, SubmittedAt: now})
		lines = append(lines, fmt.Sprintf("SPECIAL %q goes to the referee to rule on, as request %s.", short(sp.Text), tok))
	}
	if len(lines) > 0 {
		out.note = "\n" + strings.Join(lines, "\n") + "\n"
	}
	if ref := g.Config.Game.Referee; ref != "" && len(r.Carried)+len(r.Withdrawn)+len(r.Lapsed) > 0 {
		labels := func(os []parser.OpenRequest) []string {
			var s []string
			for _, o := range os {
				s = append(s, o.Label()+", "+o.Status())
			}
			return s
		}
		text := templates.Must("requests-carried", map[string]any{"Nation": g.nationName(nation), "Turn": st.Calendar.Label(st.Turn),
			"Receipt": r.Receipt, "Carried": labels(r.Carried), "Withdrawn": labels(r.Withdrawn), "Lapsed": labels(r.Lapsed)})
		out.msgs = append(out.msgs, g.message(MailNotice, string(nation), st.Turn, "requests:"+r.Receipt, []string{ref},
			fmt.Sprintf("[%s] %s's new sheet: %d request(s) carried over, %d withdrawn", g.ID(), g.nationName(nation), len(r.Carried), len(r.Withdrawn)),
			text, m.ReceivedAt))
	}
	return out
}

// openOf returns the requests of the nation's sheet in force for the turn
// (inForce; the zero Submission when there is none), each with the
// referee's last ruling on it, for the checker to carry over
// (parser.CheckContext.Open). Two narrow reads rather than the whole turn's
// submissions: this runs for every sheet, and a burst of sheets must not
// cost the square of its length. Most sheets in force carry no request,
// and end at the first.
func (g *Game) openOf(ctx context.Context, turn int, nation game.NationID, inForce store.Submission) ([]parser.OpenRequest, error) {
	if inForce.MailID == 0 {
		return nil, nil
	}
	reqs, err := g.DB.SubmissionsOf(ctx, g.ID(), turn, string(nation), KindRequest)
	if err != nil {
		return nil, err
	}
	reqs = slices.DeleteFunc(reqs, func(s store.Submission) bool { return !s.Valid || s.MailID != inForce.MailID })
	if len(reqs) == 0 {
		return nil, nil
	}
	rulings, err := g.DB.SubmissionsOf(ctx, g.ID(), turn, "", KindRuling)
	if err != nil {
		return nil, err
	}
	verdict := map[string]string{} // token → the referee's last ruling
	for _, s := range rulings {
		if s.Valid && s.ReceiptHash != "" {
			verdict[s.ReceiptHash] = "denied"
			if strings.HasPrefix(s.RawText, "APPROVE") {
				verdict[s.ReceiptHash] = "approved"
			}
		}
	}
	var out []parser.OpenRequest
	for _, s := range reqs {
		o := parser.OpenRequest{Token: s.ReceiptHash, Text: s.RawText, Special: strings.HasPrefix(s.ReceiptHash, "S"), Ruling: verdict[s.ReceiptHash]}
		if o.Special {
			o.Text = strings.TrimPrefix(o.Text, "SPECIAL ")
		}
		out = append(out, o)
	}
	return out, nil
}

// inForceTokens are the request tokens on the nations' sheets in force for
// the turn: a ruling bound to any other token (its request withdrawn) does
// not apply.
func (g *Game) inForceTokens(subs []store.Submission) map[string]bool {
	inForce := map[string]int64{} // nation → the mail of its sheet in force
	for _, s := range subs {
		if s.Kind == KindOrders && s.Valid && !s.Superseded {
			inForce[s.Nation] = s.MailID
		}
	}
	out := map[string]bool{}
	for _, s := range subs {
		if s.Kind == KindRequest && s.Valid && inForce[s.Nation] == s.MailID {
			out[s.ReceiptHash] = true
		}
	}
	return out
}

// short cuts a text to one line of at most 60 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
