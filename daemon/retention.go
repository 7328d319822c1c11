package daemon

import (
	"context"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// purgeRawMail clears from the store the raw bytes of mail that came in for
// turns already resolved, mail.keep_raw_days after their resolution
// (docs/intake.md, "What pbem keeps"): the latest resolved turn whose
// resolution is at least that old sets the cut-off, and every handled mail
// received before it loses its bytes. The daemon calls it at start and
// after each turn it resolves. It reports how many mails it cleared.
func (g *Game) purgeRawMail(ctx context.Context) (int64, error) {
	keep := g.Config.Mail.KeepRawDays
	if keep < 0 {
		return 0, nil
	}
	cutoff := g.Now().Add(-time.Duration(keep) * 24 * time.Hour)
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return 0, err
	}
	var before time.Time
	for n := rec.Turn; n >= 1; n-- {
		r, err := g.DB.Turn(ctx, g.ID(), n)
		if err != nil {
			return 0, err
		}
		if r.Status == store.TurnResolved && !r.ResolvedAt.After(cutoff) {
			before = r.ResolvedAt
			break
		}
	}
	if before.IsZero() {
		return 0, nil
	}
	n, err := g.DB.PurgeRawMail(ctx, before)
	if n > 0 {
		g.Log.Info("raw mail of resolved turns cleared", "mails", n, "received_before", before, "keep_raw_days", keep)
	}
	return n, err
}
