// Package backoff is pbem's one retry schedule, used by the outbox between
// attempts to send a message and by the intake between attempts to reach
// the IMAP server.
//
// The wait after the n-th failure (n from 1) is initial doubled n-1 times,
// capped at max, then shortened by a jitter of 0 to 10% taken from a
// SHA-256 of a key and n: things that failed together (messages, or pbem
// processes sharing a server) spread out, and the same key always waits the
// same, so tests can assert exact times.
package backoff

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"time"
)

// Delay is the wait before trying again after failure number attempt
// (attempts below 1 count as 1).
func Delay(key string, attempt int, initial, max time.Duration) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	d := initial
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	sum := sha256.Sum256([]byte("pbem-backoff " + strconv.Itoa(attempt) + " " + key))
	permille := int64(binary.BigEndian.Uint64(sum[:8]) % 1000)
	return d - time.Duration(int64(d/10)*permille/1000)
}
