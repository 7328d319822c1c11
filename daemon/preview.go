package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// PREVIEW: the turn now open resolved as the turn runner would resolve it,
// writing nothing (turn.go's decideTurn), for the referee.

// MailPreview is the outbox kind of the result of the referee's PREVIEW.
const MailPreview = "preview"

// preview resolves the turn now open as the turn runner would, writing
// nothing, and returns the referee's summary of it as a mail answering the
// referee's mail m (sum is m's hash). With the same sheets in force at the
// deadline the turn resolves exactly so: the preview uses the turn's own
// dice.
func (g *Game) preview(ctx context.Context, m store.Mail, sum string) (outbox.Message, error) {
	ref := g.Config.Game.Referee
	if ref == "" {
		return outbox.Message{}, errors.New("the game has no referee address (game.referee)")
	}
	out, err := g.decideTurn(ctx)
	if err != nil {
		return outbox.Message{}, err
	}
	for _, msg := range out.msgs {
		if msg.Kind != MailRefereeReport {
			continue
		}
		label := out.label
		text := fmt.Sprintf("PREVIEW of %s: the turn as it would be resolved with the sheets in force now,\n"+
			"and the dice it will have. Nothing was saved, and nothing was sent to the players.\n\n", label) + msg.Text
		return g.message(MailPreview, "referee", out.resolved, "preview."+sum, []string{ref},
			fmt.Sprintf("[%s] PREVIEW of %s", g.ID(), label), text, mailDate(m)), nil
	}
	return outbox.Message{}, errors.New("no summary was built for the referee")
}

// PreviewText resolves the turn now open as the turn runner would, writing
// nothing but the game's dice key if it had none, and returns the referee's
// summary: what "pbem preview" prints.
func (g *Game) PreviewText(ctx context.Context) (string, error) {
	if err := g.ensureSeedKey(ctx); err != nil {
		return "", err
	}
	out, err := g.decideTurn(ctx)
	if err != nil {
		return "", err
	}
	for _, msg := range out.msgs {
		if msg.Kind == MailRefereeReport {
			return fmt.Sprintf("PREVIEW of %s: nothing was saved or sent.\n\n", out.label) + msg.Text, nil
		}
	}
	return "", errors.New("no summary was built for the referee (game.referee is empty)")
}
