package daemon

import (
	"context"
	"errors"

	"github.com/syw-pbem/pbem/refcmd"
)

// PREVIEW: the turn now open resolved as the turn runner would resolve it,
// writing nothing (turn.go's decideTurn), for the referee: mailed to him, or
// printed by "pbem preview" (the PREVIEW entry, referee_turn.go).

// MailPreview is the outbox kind of the result of the referee's PREVIEW.
const MailPreview = "preview"

// previewPlan is the turn now open as it would be resolved now.
type previewPlan struct {
	label    string // the turn's label
	resolved int    // its number
	text     string // the referee's summary
}

// previewOf resolves the turn now open as the turn runner would, writing
// nothing, and returns the referee's summary of it. With the same sheets in
// force at the deadline the turn resolves exactly so: the preview uses the
// turn's own dice.
func (g *Game) previewOf(ctx context.Context) (previewPlan, error) {
	out, err := g.decideTurn(ctx)
	var waiting *battlesWaitingError // seam_turn.go: a turn waiting for the referee's table
	if errors.As(err, &waiting) {
		return previewPlan{label: waiting.label, resolved: waiting.turn, text: waiting.previewText()}, nil
	}
	if err != nil {
		return previewPlan{}, err
	}
	for _, msg := range out.msgs {
		if msg.Kind == MailRefereeReport {
			return previewPlan{label: out.label, resolved: out.resolved, text: msg.Text}, nil
		}
	}
	return previewPlan{}, errors.New("no summary was built for the referee (game.referee is empty)")
}

// PreviewText resolves the turn now open as the turn runner would, writing
// nothing but the game's dice key if it had none, and returns the referee's
// summary: what "pbem preview" prints (the PREVIEW entry, referee_turn.go).
func (g *Game) PreviewText(ctx context.Context) (string, error) {
	return g.RunReferee(ctx, refcmd.Preview{}, 0)
}
