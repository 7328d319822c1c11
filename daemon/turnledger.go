package daemon

import (
	"context"
	"strconv"

	"github.com/syw-pbem/pbem/store"
)

// The treaty ledger and the turn runner. A turn is resolved from the ledger
// as it stands at the decision (copied into the state), and the resolved
// state's treaties — published, penalties charged — are saved back as the
// ledger in the turn's own commit, which fails (and the turn is decided
// again) if a mail changed the ledger in between. The ledger a turn was
// resolved from is kept beside it, so that a RERUN resolves from the same
// treaties; a rerun does not write the ledger back (mail during the next
// turn may have changed it since, and it would be lost).

// ledgerInKey is the meta key of the ledger turn was resolved from.
func ledgerInKey(gameID string, turn int) string {
	return "treaties-in:" + gameID + ":" + strconv.Itoa(turn)
}

// ledgerFor returns the ledger to resolve turn from, and the stored ledger
// as read now (for the commit's check).
func (g *Game) ledgerFor(ctx context.Context, turn, rerunOf int) (ledger, string, error) {
	now, err := g.readLedger(ctx, g.DB.GetMeta)
	if err != nil {
		return ledger{}, "", err
	}
	if rerunOf > 0 {
		was, err := g.readLedger(ctx, func(ctx context.Context, _ string) (string, bool, error) {
			return g.DB.GetMeta(ctx, ledgerInKey(g.ID(), turn))
		})
		if err != nil {
			return ledger{}, "", err
		}
		return was, now.raw, nil
	}
	return now, now.raw, nil
}

// ledgerOfTurn returns the ledger turn was resolved from (stored with it),
// or the ledger as it stands for a turn not resolved yet: what an archive's
// re-resolution and a tabletop trial put into the state, as decideFrom does.
func (g *Game) ledgerOfTurn(ctx context.Context, turn int) (ledger, error) {
	was, err := g.readLedger(ctx, func(ctx context.Context, _ string) (string, bool, error) {
		return g.DB.GetMeta(ctx, ledgerInKey(g.ID(), turn))
	})
	if err != nil || was.raw != "" {
		return was, err
	}
	return g.readLedger(ctx, g.DB.GetMeta)
}

// commitLedger saves, inside the turn's transaction, the ledger the turn
// was resolved from and the resolved treaties as the new ledger; it
// returns errTurnChanged if the ledger changed since the decision.
func (g *Game) commitLedger(ctx context.Context, tx *store.Tx, out turnOutcome) error {
	if out.rerunOf > 0 {
		return nil
	}
	cur, err := g.readLedger(ctx, tx.GetMeta)
	if err != nil {
		return err
	}
	if cur.raw != out.ledgerRaw {
		return errTurnChanged
	}
	if err := tx.SetMeta(ctx, ledgerInKey(g.ID(), out.resolved), out.ledgerIn.raw); err != nil {
		return err
	}
	if out.ledgerIn.raw == "" && len(out.treaties) == 0 {
		return nil
	}
	return g.SaveTreaties(ctx, tx, out.treaties)
}
