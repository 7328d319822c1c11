package store

import (
	"context"
	"path/filepath"
	"testing"
)

// OnMailQueued is called after each commit that put mail in pending (a new
// message, a turn's reports, a resend), and not for a message already
// queued or a transaction that queued nothing.
func TestOnMailQueued(t *testing.T) {
	t.Parallel()
	calls := 0
	db, err := Open(filepath.Join(t.TempDir(), "pbem.db"), &Options{OnMailQueued: func() { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	step := func(what string, want int, fn func() error) {
		t.Helper()
		before := calls
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if calls-before != want {
			t.Errorf("%s: OnMailQueued called %d times, want %d", what, calls-before, want)
		}
	}
	m := outMsg("<a@syw>", t0, "one")
	step("a new message", 1, func() error { _, err := db.Enqueue(ctx, m); return err })
	step("the same message again", 0, func() error { _, err := db.Enqueue(ctx, m); return err })
	step("a transaction without mail", 0, func() error { return db.Update(ctx, func(tx *Tx) error { return nil }) })
	step("two messages in one transaction", 1, func() error {
		return db.Update(ctx, func(tx *Tx) error {
			for _, id := range []string{"<b@syw>", "<c@syw>"} {
				if _, err := tx.Enqueue(ctx, outMsg(id, t0, id)); err != nil {
					return err
				}
			}
			return nil
		})
	})
	rows, err := db.MessagesInState(ctx, OutboxPending)
	if err != nil || len(rows) == 0 {
		t.Fatal(rows, err)
	}
	if err := db.MarkSending(ctx, rows[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ctx, rows[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	step("a resend", 1, func() error { return db.Update(ctx, func(tx *Tx) error { return tx.Resend(ctx, rows[0].ID, t0) }) })
}
