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
// DENY with that token is a ruling on it. And when a sheet replaces one
// whose request the referee had already approved, and no longer carries it,
// the answer says so.

// specialToken is the token of the nth SPECIAL of a sheet with this text.
func specialToken(gameID string, n game.NationID, turn, nth int, text string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("special\x00%s\x00%s\x00%d\x00%d\x00%s", gameID, n, turn, nth, text)))
	return "S" + hex.EncodeToString(sum[:3])
}

// sheetRequests is what a sheet's SPECIAL orders and dropped requests add
// to its handling: a note for the answer, mails to the referee, and the
// requests to store with the sheet.
type sheetRequests struct {
	note string
	msgs []outbox.Message
	subs []store.Submission
}

// sheetSpecials is handleSheet's hook for an accepted sheet.
func (g *Game) sheetSpecials(ctx context.Context, m store.Mail, st *engine.State, nation game.NationID, inForce store.Submission, r *parser.Report, now time.Time) (sheetRequests, error) {
	var out sheetRequests
	var lines []string
	tokens := map[string]bool{}
	for _, q := range r.Requests {
		tokens[q.Token] = true
	}
	nth := map[string]int{}
	for _, o := range r.Orders.List {
		sp, ok := o.(engine.Special)
		if !ok {
			continue
		}
		nth[sp.Text]++
		tok := specialToken(g.ID(), nation, st.Turn, nth[sp.Text], sp.Text)
		tokens[tok] = true
		if ref := g.Config.Game.Referee; ref != "" {
			text := templates.Must("request", map[string]any{"Nation": g.nationName(nation), "Turn": st.Calendar.Label(st.Turn),
				"Text": "SPECIAL " + sp.Text, "Token": tok})
			out.msgs = append(out.msgs, g.message(MailRequest, string(nation), st.Turn, tok, []string{ref},
				fmt.Sprintf("[%s] SPECIAL %s from %s", g.ID(), tok, g.nationName(nation)), text, mailDate(m)))
		}
		out.subs = append(out.subs, store.Submission{GameID: g.ID(), Turn: st.Turn, Nation: string(nation), Kind: KindRequest,
			MailID: m.ID, RawText: "SPECIAL " + sp.Text, CanonicalText: "SPECIAL " + sp.Text, ReceiptHash: tok, Valid: true, SubmittedAt: now})
		lines = append(lines, fmt.Sprintf("SPECIAL %q goes to the referee to rule on, as request %s.", short(sp.Text), tok))
	}
	dropped, err := g.droppedApprovals(ctx, st.Turn, nation, inForce, tokens)
	if err != nil {
		return sheetRequests{}, err
	}
	for _, d := range dropped {
		lines = append(lines, fmt.Sprintf("This sheet drops your request %s (%q), which the referee has already APPROVED. "+
			"The ruling given stands unless the referee changes it: write to the referee if you mean to withdraw it.", d.ReceiptHash, short(d.RawText)))
	}
	if len(lines) > 0 {
		out.note = "\n" + strings.Join(lines, "\n") + "\n"
	}
	return out, nil
}

// droppedApprovals returns the requests of the nation's sheet in force for
// the turn (inForce; the zero Submission when there is none) that the
// referee approved (the last ruling on the token an APPROVE) and whose token
// is not in keep.
func (g *Game) droppedApprovals(ctx context.Context, turn int, nation game.NationID, inForce store.Submission, keep map[string]bool) ([]store.Submission, error) {
	// Two narrow reads rather than the whole turn's submissions: this runs
	// for every sheet, and a burst of sheets must not cost the square of
	// its length. Most sheets in force carry no request, and end here.
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
	approved := map[string]bool{} // token → whether the referee's last ruling approves
	for _, s := range rulings {
		if s.Valid && s.ReceiptHash != "" {
			approved[s.ReceiptHash] = strings.HasPrefix(s.RawText, "APPROVE")
		}
	}
	var out []store.Submission
	for _, s := range reqs {
		if approved[s.ReceiptHash] && !keep[s.ReceiptHash] {
			out = append(out, s)
		}
	}
	return out, nil
}

// short cuts a text to one line of at most 60 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
