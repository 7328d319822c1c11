package mailserver

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// fakeClock is a clock the limiter's waits move on.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	return nil
}

func (c *fakeClock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func (c *fakeClock) lastWait() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waits) == 0 {
		return 0
	}
	w := c.waits[len(c.waits)-1]
	c.waits = nil
	return w
}

// TestAuthLimiter: the first failures cost nothing; then the checks of an
// account are spaced, doubling to the cap; attempts that arrive together
// queue; one that would wait too long is told to come back, without
// pushing the queue out; the count is forgotten after a quiet spell; an
// IP's count is cleared by a login that passes from it, an account's is
// not; loopback clients have no IP count.
func TestAuthLimiter(t *testing.T) {
	t.Parallel()
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := &authLimiter{now: c.now, sleep: c.sleep}
	ref := authKeys("referee", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if len(ref) != 1 {
		t.Fatalf("a loopback client has keys %v, want the account's only", ref)
	}
	attempt := func(keys []string) (bool, time.Duration) {
		ok := l.wait(context.Background(), keys)
		w := c.lastWait()
		c.advance(w)
		return ok, w
	}
	// Failures one after another: 0 0 0 (free), then 0 (first spaced check
	// starts at once), 1s, 2s, 4s, 8s, 15s, 15s.
	want := []time.Duration{0, 0, 0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 15 * time.Second}
	for i, w := range want {
		ok, got := attempt(ref)
		if !ok || got != w {
			t.Fatalf("attempt %d: allowed %v after %v, want after %v", i+1, ok, got, w)
		}
		l.failed(ref)
	}
	// Several at once: the first waits 15 s, the second 30 s; the third
	// would wait 45 s and is told to come back — and the queue is not
	// pushed out by it.
	var waits []time.Duration
	var refused int
	for range 3 {
		if !l.wait(context.Background(), ref) {
			refused++
			continue
		}
		waits = append(waits, c.lastWait())
	}
	if refused != 1 || len(waits) != 2 || waits[0] != 15*time.Second || waits[1] != 30*time.Second {
		t.Errorf("three at once: waits %v, %d refused; want 15s, 30s and one refused", waits, refused)
	}
	// The right password still passes, after its turn: no lockout.
	c.advance(45 * time.Second)
	if ok, _ := attempt(ref); !ok {
		t.Error("an attempt after the queue drained was refused")
	}
	l.passed(ref) // an account's count is not cleared by a pass
	if _, w := attempt(ref); w != 15*time.Second {
		t.Errorf("after a pass the account's checks are spaced %v, want still 15s", w)
	}
	// Forgotten after a quiet spell.
	c.advance(authForget + time.Second)
	if _, w := attempt(ref); w != 0 {
		t.Errorf("after %v without a failure: wait %v, want none", authForget, w)
	}

	// A client over the network: counted per IP as well, across accounts;
	// its count cleared by a login that passes.
	ip := &net.TCPAddr{IP: net.ParseIP("192.0.2.7")}
	for _, u := range []string{"a", "b", "c", "d", "e"} {
		attempt(authKeys(u, ip))
		l.failed(authKeys(u, ip))
	}
	if _, w := attempt(authKeys("f", ip)); w != 2*time.Second {
		t.Errorf("a sixth account from one IP: wait %v, want 2s", w)
	}
	l.passed(authKeys("f", ip))
	if _, w := attempt(authKeys("g", ip)); w != 0 {
		t.Errorf("after a pass from the IP: wait %v, want none", w)
	}
}

// TestAuthSlowedOverSMTP: sixty wrong referee logins as fast as six
// connections can send them are slowed (answered 535 after their turn, or
// 454 "try again later"), and the referee's right password still passes.
func TestAuthSlowedOverSMTP(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	s.limiter.base, s.limiter.maxDelay, s.limiter.maxWait = 5*time.Millisecond, 40*time.Millisecond, 100*time.Millisecond
	var waited time.Duration
	var mu sync.Mutex
	s.limiter.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waited += d
		mu.Unlock()
		return sleepCtx(ctx, d)
	}
	ctx := context.Background()
	raw := []byte("From: referee@pbem.test\r\nTo: prussia@pbem.test\r\nSubject: x\r\n\r\nx\r\n")
	codes := map[int]int{}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				err := SendAs(ctx, s.SMTPAddr(), &Login{User: "referee", Password: "guess" + string(rune('a'+w))}, "referee@pbem.test",
					[]string{"prussia@pbem.test"}, raw)
				var se *smtp.SMTPError
				mu.Lock()
				if errors.As(err, &se) {
					codes[se.Code]++
				} else {
					codes[0]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[0] != 0 || codes[535]+codes[454] != 60 || codes[454] == 0 || waited == 0 {
		t.Errorf("answers %v, waited %v; want every attempt refused, some told to come back later, and waits", codes, waited)
	}
	// The referee, with the right password: passes once the queue has
	// drained (within the cap), never locked out.
	var err error
	for range 20 {
		if err = SendAs(ctx, s.SMTPAddr(), &Login{User: "referee", Password: "ref-secret"}, "referee@pbem.test", []string{"prussia@pbem.test"}, raw); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond) // a mail program's retry
	}
	if err != nil {
		t.Errorf("the referee's right password after the attack: %v", err)
	}
	t.Logf("60 wrong logins: %d answered 535, %d told to try again later (454); %v of waits", codes[535], codes[454], waited)
}
