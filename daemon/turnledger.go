package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// The treaty ledger and the turn runner. A turn is resolved from the ledger
// as it stands at the decision (copied into the state), and the resolved
// state's treaties — published, penalties charged — are saved back as the
// ledger in the turn's own commit, which fails (and the turn is decided
// again) if a mail changed the ledger in between. The ledger a turn was
// resolved from is kept beside it, so that a RERUN resolves from the same
// treaties. A rerun writes back what it changed, and only that (mergeLedger):
// mail since the turn was first resolved (an attestation, the referee's
// BREACH) may have changed the ledger, and that must not be lost.

// commitLedger saves, inside the turn's transaction, the ledger the turn
// was resolved from and the resolved treaties as the new ledger; it
// returns errTurnChanged if the ledger changed since the decision.
func (g *Game) commitLedger(ctx context.Context, tx *store.Tx, out turnOutcome) error {
	cur, err := readLedger(ctx, tx, g.ID())
	if err != nil {
		return err
	}
	if !cur.same(out.ledgerNow) {
		return errTurnChanged
	}
	if out.rerunOf > 0 {
		// The treaties as the first resolution left them, from the record
		// the rerun replaces; what the rerun changes of those is saved.
		old, err := tx.TurnVersion(ctx, g.ID(), out.resolved, out.rerunOf)
		if err != nil {
			return err
		}
		var was struct{ Treaties []game.Treaty }
		if err := json.Unmarshal(old.State, &was); err != nil {
			return fmt.Errorf("the treaties of turn %d version %d: %w", out.resolved, out.rerunOf, err)
		}
		merged, changed := mergeLedger(was.Treaties, cur.treaties, out.treaties)
		if !changed {
			return nil
		}
		return g.SaveTreaties(ctx, tx, merged)
	}
	if err := tx.SaveTurnTreatyLedger(ctx, g.ID(), out.resolved, out.ledgerIn.stored, out.ledgerIn.present); err != nil {
		return err
	}
	if !out.ledgerIn.present && len(out.treaties) == 0 {
		return nil
	}
	return g.SaveTreaties(ctx, tx, out.treaties)
}

// mergeLedger saves a rerun's treaties into the ledger: for each treaty, if
// the ledger still holds it as the first resolution left it (base), the
// rerun's version (rerun) replaces it — published or not, a penalty begun —
// and if mail has changed it since (ours differs from base), the ledger's
// stands. Treaties only the rerun or only the ledger has are kept. changed
// reports whether the result differs from ours. The result is sorted by ID.
func mergeLedger(base, ours, rerun []game.Treaty) (merged []game.Treaty, changed bool) {
	index := func(ts []game.Treaty) map[string]game.Treaty {
		m := make(map[string]game.Treaty, len(ts))
		for _, t := range ts {
			m[t.ID] = t
		}
		return m
	}
	b, o, r := index(base), index(ours), index(rerun)
	ids := map[string]bool{}
	for _, m := range []map[string]game.Treaty{b, o, r} {
		for id := range m {
			ids[id] = true
		}
	}
	same := func(x game.Treaty, okx bool, y game.Treaty, oky bool) bool {
		if okx != oky {
			return false
		}
		return !okx || reflect.DeepEqual(x, y)
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		bt, inB := b[id]
		ot, inO := o[id]
		rt, inR := r[id]
		take, ok := ot, inO
		if same(ot, inO, bt, inB) {
			take, ok = rt, inR
		}
		if ok {
			merged = append(merged, take)
		}
		if !same(take, ok, ot, inO) {
			changed = true
		}
	}
	return merged, changed
}
