package daemon

import (
	"context"
	"fmt"

	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The referee's table (refcmd/table.go). BATTLE hex TABLE is recorded for
// the turn runner: when the turn is due, the battle's sheet is mailed and
// the turn waits for the referee's RESULT mail (tabletop.go), which is a
// form of its own, not a command among others.

var tableBattleKind = refKind[refcmd.TableBattle, store.Submission]{
	decide: func(_ context.Context, r *refRun, c refcmd.TableBattle) (store.Submission, error) {
		formatted := c.Format(r.v)
		return store.Submission{GameID: r.g.ID(), Turn: r.st.Turn, Nation: "referee", Kind: KindTabletopAsk, MailID: r.mail.ID,
			RawText: formatted, CanonicalText: formatted, ReceiptHash: c.Hex.String(), Valid: true, SubmittedAt: r.at.UTC()}, nil
	},
	write: func(ctx context.Context, tx *store.Tx, _ *refRun, sub store.Submission) error {
		_, _, err := tx.SaveSubmission(ctx, sub)
		return err
	},
	answer: func(r *refRun, sub store.Submission) string {
		return fmt.Sprintf("a battle at %s in %s is fought on your table: its sheet comes when the turn is due, and the turn waits for your RESULT",
			sub.ReceiptHash, r.st.Calendar.Label(r.st.Turn))
	},
	cli: []string{"pbem referee"},
}
