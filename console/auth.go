package console

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Sign-in, sessions, CSRF tokens, the slowing of failed sign-ins, and the
// security headers: the console's doors (docs/console.md, "Security").

// randomToken is 32 random bytes, URL-safe.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// sameToken compares tokens in constant time; an empty one never matches.
func sameToken(a, b string) bool {
	return a != "" && b != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// The cookies. Under TLS they have the __Host- prefix: the browser then
// takes them only Secure, from this host, for path /. The session cookie
// is one per game (its name ends in the game's ID), so that a browser can
// be signed in to several games of a host at once, each with its own
// session that opens nothing of the others.
const (
	sessionCookie    = "pbem_session_"
	sessionCookieTLS = "__Host-pbem_session_"
	loginCookie      = "pbem_login"
	loginCookieTLS   = "__Host-pbem_login"
)

// sessionCookieOf is the name of game's session cookie (a game ID is
// lower-case letters, digits and '-': a cookie name as it is).
func (c *Console) sessionCookieOf(game string) string {
	return c.cookieName(sessionCookie, sessionCookieTLS) + game
}

func (c *Console) cookieName(plain, secure string) string {
	if c.opts.TLS {
		return secure
	}
	return plain
}

func (c *Console) setCookie(w http.ResponseWriter, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: c.opts.TLS, SameSite: http.SameSiteStrictMode})
}

// sessionOf returns the request's session for game g, if it has a live
// one.
func (c *Console) sessionOf(r *http.Request, g Game) (*session, bool) {
	ck, err := r.Cookie(c.sessionCookieOf(g.ID()))
	if err != nil {
		return nil, false
	}
	return c.session.get(ck.Value, g)
}

// loginToken returns the CSRF token of the sign-in form: the browser's
// login cookie, set anew when it has none.
func (c *Console) loginToken(w http.ResponseWriter, r *http.Request) string {
	name := c.cookieName(loginCookie, loginCookieTLS)
	if ck, err := r.Cookie(name); err == nil && len(ck.Value) >= 32 {
		return ck.Value
	}
	t := randomToken()
	c.setCookie(w, name, t, 3600)
	return t
}

// sameOrigin refuses a POST whose Origin (or, lacking it, Referer) names
// another site: a second wall behind the CSRF token and SameSite.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		o = r.Header.Get("Referer")
	}
	if o == "" { // not a browser's form: the CSRF token decides
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

// limiter slows failed sign-ins per client address.
type limiter struct {
	mu    sync.Mutex
	by    map[string]*tries
	now   func() time.Time
	first time.Duration // the wait after the first failure (firstWait; tests change it)
}

type tries struct {
	failed int
	until  time.Time // no attempt before
}

// The waits after failed sign-ins: first, doubling, at most.
const (
	firstWait = time.Second
	maxWait   = 5 * time.Minute
)

func newLimiter(now func() time.Time) *limiter {
	return &limiter{by: map[string]*tries{}, now: now, first: firstWait}
}

// wait returns how long addr must still wait before its next attempt.
func (l *limiter) wait(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.by[addr]
	if !ok {
		return 0
	}
	return max(t.until.Sub(l.now()), 0)
}

// failed records a failed attempt from addr and returns the wait it earns.
func (l *limiter) failed(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.by[addr]
	if !ok {
		if len(l.by) > 100000 { // a flood of addresses: forget the old
			clear(l.by)
		}
		t = &tries{}
		l.by[addr] = t
	}
	t.failed++
	d := l.first
	for i := 1; i < t.failed && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	t.until = l.now().Add(d)
	return d
}

// succeeded forgets addr's failures.
func (l *limiter) succeeded(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.by, addr)
}

// clientAddr is the address a request came from: the connection's host
// (a header naming another is not believed).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// contentPolicy allows the console's own script, style, images and the
// PDFs it serves, nothing inline, and no framing by anyone (the reports are
// shown in <object>, which frame-ancestors 'self' would need for
// themselves: they are served with their own policy, see servePDF).
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'self'; " +
	"frame-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers every response carries.
func securityHeaders(h http.Header, tls bool) {
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	h.Set("Cache-Control", "no-store")
	if tls {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
}

// waitText says a wait for people: "3 s", "2 min 5 s".
func waitText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
