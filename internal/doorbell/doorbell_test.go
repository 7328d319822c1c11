//go:build unix

package doorbell_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/doorbell"
)

// A ring from another handle reaches the listener; rings with nobody
// listening, or at a path that is not a bell, neither block nor fail.
func TestRingWakesTheListener(t *testing.T) {
	t.Parallel()
	path := doorbell.Beside(filepath.Join(t.TempDir(), "pbem.db"))
	if doorbell.Ring(path) { // no bell yet: nothing happens
		t.Error("a ring with no bell says it was heard")
	}
	ctx, cancel := context.WithCancel(context.Background())
	woken := make(chan struct{}, 8)
	if err := doorbell.Listen(ctx, path, func() { woken <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	if !doorbell.Ring(path) {
		t.Error("a ring with a listener says nobody heard it")
	}
	select {
	case <-woken:
	case <-time.After(10 * time.Second):
		t.Fatal("the ring did not wake the listener")
	}
	cancel()
	// The listener gone, the pipe left behind: a ring is dropped rather
	// than waiting for a reader (the test would hang here if it waited).
	doorbell.Ring(path)
	// A second listener takes the bell over.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	if err := doorbell.Listen(ctx2, path, func() { woken <- struct{}{} }); err != nil {
		t.Fatalf("listening again at a bell left behind: %v", err)
	}
}

// A regular file where the bell should be is refused by Listen and never
// written by Ring.
func TestNotABell(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db.bell")
	if err := os.WriteFile(path, []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	doorbell.Ring(path)
	if b, _ := os.ReadFile(path); string(b) != "notes" {
		t.Errorf("Ring wrote into a regular file: %q", b)
	}
	if err := doorbell.Listen(context.Background(), path, func() {}); err == nil {
		t.Error("Listen took a regular file for its bell")
	}
}
