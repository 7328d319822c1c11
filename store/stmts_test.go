package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPreparedStatements: queries inside write and read transactions give
// the same answers whether their statement is kept yet or not, a write
// transaction never waits for its own connection (the writer pool has one),
// and Close returns only once every connection is closed, so that the
// database can be copied at once (no -wal or -shm file left behind).
func TestPreparedStatements(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 50 {
		key := fmt.Sprintf("k%d", i%3)
		if err := db.Update(ctx, func(tx *Tx) error {
			if err := tx.SetMeta(ctx, key, fmt.Sprint(i)); err != nil {
				return err
			}
			v, ok, err := tx.GetMeta(ctx, key)
			if err == nil && (!ok || v != fmt.Sprint(i)) {
				err = fmt.Errorf("inside the write: %s = %q, %v; want %d", key, v, ok, i)
			}
			return err
		}); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		if v, ok, err := db.GetMeta(ctx, key); err != nil || !ok || v != fmt.Sprint(i) {
			t.Fatalf("read %d: %s = %q, %v, %v; want %d", i, key, v, ok, err, i)
		}
	}
	// First uses just before Close: their preparations are under way.
	db.LatestTurn(ctx, "syw")
	db.Submissions(ctx, "syw", 1)
	db.MailByStatus(ctx, MailStored)
	db.SubmissionsInForce(ctx, "syw", 1, "orders")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("%s still there after Close: a connection outlived it", filepath.Base(path+suffix))
		}
	}
}
