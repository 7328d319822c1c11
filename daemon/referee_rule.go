package daemon

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The referee's rulings in a campaign played through the seam
// (refcmd/rule.go): each RULE line is stored for the open turn as the
// campaign's ruling (KindCampaignRuling, its JSON the CanonicalText) and
// carried out by the campaign's rulings step when the turn resolves
// (seam_turn.go reads them into TurnInput.Rulings). An SYW game refuses
// RULE: its rulings answer a player's request (APPROVE) or a treaty
// (BREACH, LIFT).

// KindCampaignRuling is the submission kind of a referee's RULE.
const KindCampaignRuling = "campaign-ruling"

var ruleKind = refKind[refcmd.Rule, store.Submission]{
	decide: func(_ context.Context, r *refRun, c refcmd.Rule) (store.Submission, error) {
		if r.g.seamOnly == nil {
			return store.Submission{}, refusef("RULE is for the games of a campaign played through the seam (the Trossian campaign); " +
				"an SYW ruling answers a player's request (APPROVE) or a treaty (BREACH, LIFT)")
		}
		js, err := json.Marshal(c.Ruling())
		if err != nil {
			return store.Submission{}, err
		}
		formatted := c.Format(r.v)
		return store.Submission{GameID: r.g.ID(), Turn: r.st.Turn, Nation: "referee", Kind: KindCampaignRuling, MailID: r.mail.ID,
			RawText: formatted, CanonicalText: string(js), Valid: true, SubmittedAt: r.now}, nil
	},
	write: func(ctx context.Context, tx *store.Tx, _ *refRun, sub store.Submission) error {
		_, _, err := tx.SaveSubmission(ctx, sub)
		return err
	},
	answer: func(r *refRun, sub store.Submission) string {
		return fmt.Sprintf("recorded for %s: carried out when the turn resolves, and told in its reports", r.g.labelOf(r.st, sub.Turn))
	},
	cli: []string{"pbem referee"},
}

// campaignRulings are the referee's RULE lines stored for a turn, in the
// order they came.
func (g *Game) campaignRulings(ctx context.Context, turn int) ([]json.RawMessage, error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for _, s := range subs {
		if s.Kind == KindCampaignRuling && s.Valid {
			out = append(out, json.RawMessage(s.CanonicalText))
		}
	}
	return out, nil
}
