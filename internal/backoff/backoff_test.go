package backoff

import (
	"testing"
	"time"
)

// TestDelay: doubling from initial, capped at max, at most 10% shorter, the
// same for the same key and attempt.
func TestDelay(t *testing.T) {
	for n, want := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour} {
		got := Delay("<a@b>", n+1, 30*time.Second, time.Hour)
		if got > want || got < want-want/10 {
			t.Errorf("attempt %d: %v, want %v less up to 10%%", n+1, got, want)
		}
		if again := Delay("<a@b>", n+1, 30*time.Second, time.Hour); again != got {
			t.Errorf("attempt %d: %v then %v for the same key", n+1, got, again)
		}
	}
}
