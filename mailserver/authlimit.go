package mailserver

import (
	"context"
	"net"
	"strings"
	"sync"
	"time"
)

// Slowing password guessing (SMTP AUTH and IMAP LOGIN). Every account of the
// server has a password, and the game account's and the referee's are worth
// guessing. A lockout after so many failures would be worse than the
// guessing: a stranger could then lock the referee out at will. So failures
// only slow the guesser down, and nothing a stranger does makes a login
// with the right password fail for good:
//
//   - Failures are counted per account (whoever tried it) and per client IP
//     address (whatever account it tried) — but not for loopback clients:
//     on the loopback-only server every client, pbem's own intake and
//     outbox included, comes from 127.0.0.1, and a count per IP would be a
//     count of everyone.
//   - The first authFreeFailures failures of a key cost nothing (typos).
//     After them, the password checks of that key are spaced authBaseDelay
//     apart, doubling with each further failure up to authMaxDelay: a check
//     waits for its turn (the login answer comes after it), and checks that
//     arrive together queue one behind the other, so that parallel
//     connections guess no faster than one.
//   - A check that would have to wait more than authMaxWait is not queued:
//     it is answered at once with a temporary failure (SMTP 454 4.7.0, IMAP
//     NO [UNAVAILABLE]), which mail programs retry later; it is never
//     counted as a failure and never pushes the queue further out.
//   - A key is forgotten authForget after its last failure, and a client
//     IP's count is cleared by a login that passes from it.
//
// What a stranger can do to the referee: while the stranger keeps failing
// logins as the referee, the referee's own login waits its turn (up to
// authMaxDelay), or is told to try again later when the stranger keeps
// several attempts waiting; it passes once the stranger stops or slows
// down, and at once authForget after the last failure. What the stranger
// gains: one guess per authMaxDelay per account — some 5,800 a day —
// which is why the accounts' passwords (docs/config.md) should not be words.
const (
	authFreeFailures = 3
	authBaseDelay    = time.Second
	authMaxDelay     = 15 * time.Second
	authMaxWait      = 30 * time.Second
	authForget       = 15 * time.Minute
	authMaxKeys      = 10000 // forgotten keys are pruned beyond this
)

// authLimiter spaces the password checks of the keys that failed. The zero
// value is ready, with the constants above and the real clock.
type authLimiter struct {
	mu   sync.Mutex
	keys map[string]*authPenalty

	// Tests set these; zero means the constants above and the real clock.
	free                            int
	base, maxDelay, maxWait, forget time.Duration
	now                             func() time.Time
	sleep                           func(ctx context.Context, d time.Duration) error
}

// authPenalty is what the limiter knows of one key.
type authPenalty struct {
	failures int
	last     time.Time // the last failure
	next     time.Time // when the next check of this key may run
}

// authKeys are the limiter's keys of a login attempt: the account, and the
// client's IP address unless it is loopback.
func authKeys(user string, remote net.Addr) []string {
	keys := []string{"account:" + strings.ToLower(user)}
	if tcp, ok := remote.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		keys = append(keys, "ip:"+tcp.IP.String())
	}
	return keys
}

func (l *authLimiter) params() (free int, base, maxDelay, maxWait, forget time.Duration, now func() time.Time) {
	free, base, maxDelay, maxWait, forget, now = l.free, l.base, l.maxDelay, l.maxWait, l.forget, l.now
	if free == 0 {
		free = authFreeFailures
	}
	if base == 0 {
		base = authBaseDelay
	}
	if maxDelay == 0 {
		maxDelay = authMaxDelay
	}
	if maxWait == 0 {
		maxWait = authMaxWait
	}
	if forget == 0 {
		forget = authForget
	}
	if now == nil {
		now = time.Now
	}
	return
}

// delay is the spacing of a key's checks after failures.
func (l *authLimiter) delay(failures int) time.Duration {
	free, base, maxDelay, _, _, _ := l.params()
	if failures < free {
		return 0
	}
	d := base
	for i := free; i < failures && d < maxDelay; i++ {
		d *= 2
	}
	return min(d, maxDelay)
}

// wait waits for the turn of a login attempt on keys. It returns false —
// at once, without waiting — when the turn is more than maxWait away (the
// caller answers "try again later"), or when ctx ends.
func (l *authLimiter) wait(ctx context.Context, keys []string) bool {
	_, _, _, maxWait, forget, now := l.params()
	l.mu.Lock()
	t := now()
	if l.keys == nil {
		l.keys = map[string]*authPenalty{}
	}
	if len(l.keys) > authMaxKeys {
		for k, p := range l.keys {
			if t.Sub(p.last) > forget {
				delete(l.keys, k)
			}
		}
	}
	turn := t
	var penalized []*authPenalty
	for _, k := range keys {
		p := l.keys[k]
		if p != nil && t.Sub(p.last) > forget {
			delete(l.keys, k)
			p = nil
		}
		if p == nil || l.delay(p.failures) == 0 {
			continue
		}
		penalized = append(penalized, p)
		if p.next.After(turn) {
			turn = p.next
		}
	}
	if turn.Sub(t) > maxWait {
		l.mu.Unlock()
		return false
	}
	for _, p := range penalized {
		p.next = turn.Add(l.delay(p.failures))
	}
	l.mu.Unlock()
	if d := turn.Sub(t); d > 0 {
		sleep := l.sleep
		if sleep == nil {
			sleep = sleepCtx
		}
		if sleep(ctx, d) != nil {
			return false
		}
	}
	return true
}

// failed records a failed password check on keys.
func (l *authLimiter) failed(keys []string) {
	_, _, _, _, _, now := l.params()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.keys == nil {
		l.keys = map[string]*authPenalty{}
	}
	t := now()
	for _, k := range keys {
		p := l.keys[k]
		if p == nil {
			p = &authPenalty{next: t}
			l.keys[k] = p
		}
		p.failures++
		p.last = t
	}
}

// passed records a login that passed: its client IP's count is cleared
// (the account's stays: a stranger's failures on it go on counting).
func (l *authLimiter) passed(keys []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if strings.HasPrefix(k, "ip:") {
			delete(l.keys, k)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
