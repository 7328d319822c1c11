package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
)

// Rulings are stored as the engine's typed rulings: a submission of kind
// KindRuling whose CanonicalText is the engine.Ruling's JSON (its effects as
// envelopes, bound to the request token in ReceiptHash and in the JSON) and
// whose RawText is the command as the referee's acknowledgment printed it.
// The turn runner reads them back with Game.Rulings into engine.Input.Rulings;
// nothing re-reads the referee's text.

// rulingSubmission is the stored form of a ruling: nation is the requester
// ("referee" for a BREACH or LIFT, which answer no request).
func rulingSubmission(gameID string, turn int, nation string, mailID int64, formatted string, r engine.Ruling, now time.Time) (store.Submission, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return store.Submission{}, fmt.Errorf("storing the ruling %q: %w", formatted, err)
	}
	return store.Submission{GameID: gameID, Turn: turn, Nation: nation, Kind: KindRuling, MailID: mailID,
		RawText: formatted, CanonicalText: string(b), ReceiptHash: r.Token, Valid: true, SubmittedAt: now}, nil
}

// Rulings returns the rulings in force for a turn, in the order the referee
// gave them: for each request token still on its nation's sheet in force
// the referee's last ruling (a DENY after an APPROVE carries no effects, so
// nothing is applied; a request withdrawn takes its ruling with it), and
// every BREACH and LIFT. The store's superseded flag is not used: it is kept per nation and
// kind, and a nation may have several requests ruled on.
func (g *Game) Rulings(ctx context.Context, turn int) ([]engine.Ruling, error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	last := map[string]int{} // token → index in subs of its last ruling
	for i, s := range subs {
		if s.Kind == KindRuling && s.Valid && s.ReceiptHash != "" {
			last[s.ReceiptHash] = i
		}
	}
	open := g.inForceTokens(subs) // special.go: a withdrawn request's ruling lapses
	var out []engine.Ruling
	for i, s := range subs {
		if s.Kind != KindRuling || !s.Valid || (s.ReceiptHash != "" && (last[s.ReceiptHash] != i || !open[s.ReceiptHash])) {
			continue
		}
		var r engine.Ruling
		if err := json.Unmarshal([]byte(s.CanonicalText), &r); err != nil {
			return nil, fmt.Errorf("stored ruling %d (%q): %w", s.ID, s.RawText, err)
		}
		if len(r.Effects) > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

// rulingSentence tells a stored ruling in a sentence (reports.RulingSentence)
// for status and the reports: its verdict and reason read from the command
// as acknowledged (RawText, "DENY R1a2b3c \"reason\"" in the parser's
// canonical form), its effects from the typed ruling (CanonicalText).
func (g *Game) rulingSentence(s store.Submission) string {
	var r engine.Ruling
	if err := json.Unmarshal([]byte(s.CanonicalText), &r); err != nil {
		return strings.Join(strings.Fields(s.RawText), " ")
	}
	denied, reason := false, ""
	if rest, ok := strings.CutPrefix(strings.TrimSpace(s.RawText), "DENY "); ok {
		denied = true
		_, reason, _ = strings.Cut(rest, " ")
		reason = strings.TrimSpace(reason)
		if len(reason) >= 2 && strings.HasPrefix(reason, `"`) && strings.HasSuffix(reason, `"`) {
			reason = strings.ReplaceAll(reason[1:len(reason)-1], `""`, `"`)
		}
	}
	return reports.RulingSentence(g.Map, r, denied, reason)
}
