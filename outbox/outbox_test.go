package outbox

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/store"
)

// TestSendDeliversExactBytes: a queued report reaches the server byte for
// byte as stored, from the game's address to the nation's, and is marked
// sent at the clock's time.
func TestSendDeliversExactBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	row := f.enqueue(f.report("prussia", 12))
	if st := f.flush(); st != (Stats{Sent: 1}) {
		t.Fatalf("Flush = %+v, want 1 sent", st)
	}
	got := f.sink.got()
	if len(got) != 1 {
		t.Fatalf("sink got %d messages, want 1", len(got))
	}
	if !bytes.Equal(got[0].Data, row.Raw) {
		t.Error("the server received other bytes than were stored")
	}
	if got[0].From != "orders@pbem.localhost" || strings.Join(got[0].To, ",") != "prussia@example.org" {
		t.Errorf("envelope %s → %v", got[0].From, got[0].To)
	}
	r := f.row(row.MessageID)
	if r.State != store.OutboxSent || r.Attempts != 1 || !r.SentAt.Equal(t0) {
		t.Errorf("row is %s after %d attempts, sent at %v", r.State, r.Attempts, r.SentAt)
	}
	if st := f.flush(); st != (Stats{}) {
		t.Errorf("a second Flush did %+v", st)
	}
}

// TestEnqueueIsIdempotent: the same message queued twice is one row; the
// same Message-ID with other bytes is refused.
func TestEnqueueIsIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	m := f.report("prussia", 12)
	f.enqueue(m)
	f.enqueue(m)
	if n := len(f.rows()); n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
	m.Text = "different"
	if _, err := f.out.Enqueue(context.Background(), m); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Enqueue with other bytes: %v, want ErrConflict", err)
	}
}

// TestTemporaryFailuresFollowBackoff: 451 to RCPT, 421 to MAIL, connection
// refused and 451 after the final dot each put the message back with the
// next attempt exactly Backoff later (30s doubling, capped at 100s, minus
// the Message-ID's jitter); it is not tried before then, and the fifth
// attempt delivers it.
func TestTemporaryFailuresFollowBackoff(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String() // nothing listens here: connection refused
	ln.Close()
	refuse := false
	f := newFixture(t, sinkOptions{}, func(o *Options) {
		o.BackoffMax = 100 * time.Second
		o.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if refuse {
				addr = closed
			}
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}
	})
	f.sink.fail(
		fault{at: StageRcpt, code: 451, enh: smtp.EnhancedCode{4, 3, 0}, msg: "Try again later"},
		fault{at: StageMail, code: 421, enh: smtp.EnhancedCode{4, 4, 5}, msg: "Too busy"},
		fault{at: StageResult, code: 451, enh: smtp.EnhancedCode{4, 3, 0}, msg: "Queue full"},
	)
	row := f.enqueue(f.report("prussia", 12))
	id := row.MessageID

	steps := []struct {
		refuse  bool
		wait    time.Duration // exact, from Backoff; within 90–100% of the base
		base    time.Duration
		lastErr string
	}{
		{false, 27*time.Second + 810*time.Millisecond, 30 * time.Second, "refused the recipient prussia@example.org: 451 4.3.0 Try again later; temporary"},
		{false, 56*time.Second + 694*time.Millisecond, 60 * time.Second, "refused the sender: 421 4.4.5 Too busy; temporary"},
		{true, 95*time.Second + 590*time.Millisecond, 100 * time.Second, "could not connect to the mail server 127.0.0.1:"},
		{false, 93*time.Second + 790*time.Millisecond, 100 * time.Second, "refused the message: 451 4.3.0 Queue full; temporary"},
	}
	at := t0
	for i, s := range steps {
		refuse = s.refuse
		if st := f.flush(); st != (Stats{Retried: 1}) {
			t.Fatalf("attempt %d: Flush = %+v, want 1 retried", i+1, st)
		}
		r := f.row(id)
		want := at.Add(s.wait)
		if r.State != store.OutboxPending || r.Attempts != i+1 || !r.NextAttemptAt.Equal(want) {
			t.Fatalf("attempt %d: row %s, %d attempts, next at +%v; want pending, %d, +%v",
				i+1, r.State, r.Attempts, r.NextAttemptAt.Sub(at), i+1, s.wait)
		}
		if s.wait < s.base*9/10 || s.wait > s.base {
			t.Errorf("attempt %d: wait %v outside 90–100%% of %v", i+1, s.wait, s.base)
		}
		if got := Backoff(id, i+1, 30*time.Second, 100*time.Second); got != s.wait {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, s.wait)
		}
		if !strings.Contains(r.LastError, s.lastErr) {
			t.Errorf("attempt %d: LastError %q lacks %q", i+1, r.LastError, s.lastErr)
		}
		// Not due yet: a Flush a moment before does nothing.
		f.clock.Set(want.Add(-time.Millisecond))
		_, mails := f.sink.stats()
		if st := f.flush(); st != (Stats{}) {
			t.Fatalf("attempt %d: Flush before the backoff ended did %+v", i+1, st)
		}
		if _, m := f.sink.stats(); m != mails {
			t.Fatalf("attempt %d: the server was contacted before the backoff ended", i+1)
		}
		f.clock.Set(want)
		at = want
	}
	refuse = false
	if st := f.flush(); st != (Stats{Sent: 1}) {
		t.Fatalf("last attempt: Flush = %+v, want 1 sent", st)
	}
	if r := f.row(id); r.State != store.OutboxSent || r.Attempts != 5 || !r.SentAt.Equal(at) {
		t.Errorf("row %s after %d attempts, sent at %v", r.State, r.Attempts, r.SentAt)
	}
	if got := f.sink.got(); len(got) != 1 || !bytes.Equal(got[0].Data, row.Raw) {
		t.Errorf("sink got %d messages (want 1, the stored bytes)", len(got))
	}
}

// TestBackoffTable pins Backoff for one Message-ID with the config defaults
// (30s doubling to 1h), so a change to the schedule is seen.
func TestBackoffTable(t *testing.T) {
	t.Parallel()
	id := MessageID("pbem.localhost", "syw", 12, "prussia", "report", "")
	want := []time.Duration{
		27*time.Second + 810*time.Millisecond,
		56*time.Second + 694*time.Millisecond,
		1*time.Minute + 54*time.Second + 708*time.Millisecond,
		3*time.Minute + 45*time.Second + 96*time.Millisecond,
		7*time.Minute + 35*time.Second + 472*time.Millisecond,
		14*time.Minute + 42*time.Second + 432*time.Millisecond,
		29*time.Minute + 12*time.Second + 384*time.Millisecond,
		57*time.Minute + 10*time.Second + 440*time.Millisecond,
		54*time.Minute + 19*time.Second + 440*time.Millisecond,
	}
	for i, w := range want {
		if got := Backoff(id, i+1, DefaultBackoffInitial, DefaultBackoffMax); got != w {
			t.Errorf("Backoff(attempt %d) = %v, want %v", i+1, got, w)
		}
	}
	for n := 1; n < 40; n++ {
		base := min(DefaultBackoffInitial<<min(n-1, 20), DefaultBackoffMax)
		for _, k := range []string{"a", "b", "c", id} {
			if got := Backoff(k, n, DefaultBackoffInitial, DefaultBackoffMax); got > base || got < base*9/10 {
				t.Fatalf("Backoff(%q, %d) = %v, outside 90–100%% of %v", k, n, got, base)
			}
		}
	}
}

// TestDropAfterFinalDotResendsSameBytes: the server reads the whole message
// and closes the connection without a reply. The outcome is unknown, so the
// message is sent again after the backoff: the server has two identical
// copies with one Message-ID, which a mail client shows as one message.
func TestDropAfterFinalDotResendsSameBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	f.sink.fail(fault{at: StageResult, drop: true})
	row := f.enqueue(f.report("prussia", 12))
	if st := f.flush(); st != (Stats{Retried: 1}) {
		t.Fatalf("Flush = %+v, want 1 retried", st)
	}
	r := f.row(row.MessageID)
	if r.State != store.OutboxPending || !strings.Contains(r.LastError, "lost after the message was sent") {
		t.Fatalf("after the drop: %s, %q", r.State, r.LastError)
	}
	f.clock.Set(r.NextAttemptAt)
	if st := f.flush(); st != (Stats{Sent: 1}) {
		t.Fatalf("second Flush = %+v, want 1 sent", st)
	}
	got := f.sink.got()
	if len(got) != 2 {
		t.Fatalf("sink got %d copies, want 2", len(got))
	}
	ids := map[string]bool{}
	for i, d := range got {
		if !bytes.Equal(d.Data, row.Raw) {
			t.Errorf("copy %d differs from the stored bytes", i+1)
		}
		msg, err := mail.ReadMessage(bytes.NewReader(d.Data))
		if err != nil {
			t.Fatal(err)
		}
		ids[msg.Header.Get("Message-ID")] = true
	}
	if len(ids) != 1 || !ids[row.MessageID] {
		t.Errorf("the copies carry Message-IDs %v, want only %s", ids, row.MessageID)
	}
}

// TestPermanentFailureToldToReferee: a 550 to RCPT fails the message at
// once, and the referee gets a report in the same Flush naming the
// recipient, the server's reply and the subject — not the body.
func TestPermanentFailureToldToReferee(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	f.sink.fail(fault{at: StageRcpt, code: 550, enh: smtp.EnhancedCode{5, 1, 1}, msg: "No such user here"})
	m := f.report("prussia", 12)
	row := f.enqueue(m)
	if st := f.flush(); st != (Stats{Sent: 1, Failed: 1}) {
		t.Fatalf("Flush = %+v, want 1 failed and the report sent", st)
	}
	r := f.row(row.MessageID)
	if r.State != store.OutboxFailed || r.Attempts != 1 ||
		!strings.Contains(r.LastError, "refused the recipient prussia@example.org: 550 5.1.1 No such user here; permanent") {
		t.Errorf("row %s after %d attempts: %q", r.State, r.Attempts, r.LastError)
	}
	got := f.sink.got()
	if len(got) != 1 || strings.Join(got[0].To, ",") != "referee@pbem.localhost" {
		t.Fatalf("sink got %+v, want one report to the referee", got)
	}
	rd, err := gomail.CreateReader(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := rd.Header.Subject()
	if want := "[pbem] Undelivered mail to prussia@example.org: " + m.Subject; subject != want {
		t.Errorf("report subject %q, want %q", subject, want)
	}
	body := bodyText(t, got[0].Data)
	for _, want := range []string{"prussia@example.org", "Server said: 550 5.1.1 No such user here", m.Subject, row.MessageID, "row 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("report lacks %q:\n%s", want, body)
		}
	}
	if bytes.Contains(got[0].Data, []byte("SECRET-BODY-MARKER")) || bytes.Contains(got[0].Data, []byte("Prague")) {
		t.Error("the report carries the failed message's body")
	}
	if rd.Header.Get("Auto-Submitted") != "auto-generated" {
		t.Error("the report is not marked auto-generated")
	}
	rows := f.rows()
	if len(rows) != 2 || rows[1].Kind != KindDeliveryFailure || rows[1].State != store.OutboxSent {
		t.Errorf("rows %+v", rows)
	}
}

// TestFailedReportIsNotReported: when the report to the referee fails as
// well, nothing more is queued, so failures cannot loop.
func TestFailedReportIsNotReported(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	reject := fault{at: StageRcpt, code: 550, enh: smtp.EnhancedCode{5, 1, 1}, msg: "No such user here"}
	f.sink.fail(reject, reject)
	f.enqueue(f.report("prussia", 12))
	if st := f.flush(); st != (Stats{Failed: 2}) {
		t.Fatalf("Flush = %+v, want 2 failed", st)
	}
	rows := f.rows()
	if len(rows) != 2 || rows[0].State != store.OutboxFailed || rows[1].State != store.OutboxFailed ||
		rows[1].Kind != KindDeliveryFailure {
		t.Fatalf("rows %+v, want the message and its report, both failed", rows)
	}
	if !strings.Contains(f.log.String(), "not reporting it again") {
		t.Error("the log does not say the report was not reported")
	}
	if st := f.flush(); st != (Stats{}) {
		t.Errorf("another Flush did %+v", st)
	}
}

// TestMaxAttemptsThenFailed: a message that fails for now every time is
// given up after MaxAttempts, and the referee told.
func TestMaxAttemptsThenFailed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, func(o *Options) { o.MaxAttempts = 3 })
	busy := fault{at: StageMail, code: 451, enh: smtp.EnhancedCode{4, 3, 0}, msg: "Busy"}
	f.sink.fail(busy, busy, busy)
	row := f.enqueue(f.report("prussia", 12))
	for i := 1; i <= 2; i++ {
		if st := f.flush(); st != (Stats{Retried: 1}) {
			t.Fatalf("attempt %d: Flush = %+v", i, st)
		}
		f.clock.Set(f.row(row.MessageID).NextAttemptAt)
	}
	if st := f.flush(); st != (Stats{Failed: 1, Sent: 1}) {
		t.Fatalf("attempt 3: Flush = %+v, want failed and reported", st)
	}
	r := f.row(row.MessageID)
	if r.State != store.OutboxFailed || r.Attempts != 3 || !strings.Contains(r.LastError, "451 4.3.0 Busy") {
		t.Errorf("row %s after %d attempts: %q", r.State, r.Attempts, r.LastError)
	}
	got := f.sink.got()
	if len(got) != 1 || !strings.Contains(bodyText(t, got[0].Data), "pbem has made 3 attempts") {
		t.Errorf("the referee was not told of the 3 attempts: %d messages", len(got))
	}
}

// TestRateLimit: with 6 messages a minute, four due messages go out 10s
// apart, over one connection.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, func(o *Options) { o.RatePerMinute = 6 })
	var ids []string
	for _, n := range []string{"austria", "france", "prussia", "russia"} {
		ids = append(ids, f.enqueue(f.report(n, 3)).MessageID)
	}
	if st := f.flush(); st != (Stats{Sent: 4}) {
		t.Fatalf("Flush = %+v", st)
	}
	for i, id := range ids {
		if r := f.row(id); !r.SentAt.Equal(t0.Add(time.Duration(i) * 10 * time.Second)) {
			t.Errorf("message %d sent at +%v, want +%ds", i+1, r.SentAt.Sub(t0), 10*i)
		}
	}
	if s := f.clock.Sleeps(); len(s) != 3 || s[0] != 10*time.Second || s[1] != 10*time.Second || s[2] != 10*time.Second {
		t.Errorf("waits %v, want three of 10s", s)
	}
	if conns, mails := f.sink.stats(); conns != 1 || mails != 4 {
		t.Errorf("%d connections, %d transactions; want 1 and 4", conns, mails)
	}
}

// TestLargeAttachmentIntact: a 5 MB PDF arrives intact, in bytes identical
// to the stored message.
func TestLargeAttachmentIntact(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	pdf := make([]byte, 5<<20)
	r := rand.New(rand.NewPCG(1757, 1763))
	for i := range pdf {
		pdf[i] = byte(r.Uint32())
	}
	m := f.report("prussia", 12)
	m.Attachments = []Attachment{{Filename: "prussia-turn-12.pdf", ContentType: "application/pdf", Data: pdf}}
	row := f.enqueue(m)
	if st := f.flush(); st != (Stats{Sent: 1}) {
		t.Fatalf("Flush = %+v", st)
	}
	got := f.sink.got()
	if len(got) != 1 || !bytes.Equal(got[0].Data, row.Raw) {
		t.Fatal("the server did not receive the stored bytes")
	}
	rd, err := gomail.CreateReader(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := rd.NextPart()
		if err != nil {
			t.Fatalf("no PDF part: %v", err)
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			ct, _, _ := h.ContentType()
			body, _ := io.ReadAll(p.Body)
			if ct != "application/pdf" || !bytes.Equal(body, pdf) {
				t.Errorf("attachment %s, %d bytes; want application/pdf, the %d bytes given", ct, len(body), len(pdf))
			}
			return
		}
	}
}

// TestPlaintextOnlyToLoopback: security none to a host that is not this
// machine is refused before any connection, and leaves the message alone;
// a loopback name that leads elsewhere is refused after connecting.
func TestPlaintextOnlyToLoopback(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"192.0.2.1", "mail.example.org", "localhost.example.org"} {
		dialed := false
		f := newFixture(t, sinkOptions{}, func(o *Options) {
			o.Server = Server{Host: host, Security: config.SecurityNone}
			o.Dial = func(context.Context, string, string) (net.Conn, error) {
				dialed = true
				return nil, errors.New("must not dial")
			}
		})
		row := f.enqueue(f.report("prussia", 12))
		_, err := f.out.Flush(context.Background())
		if !errors.Is(err, ErrInsecure) || !strings.Contains(err.Error(), host) || !strings.Contains(err.Error(), "tls or starttls") {
			t.Errorf("%s: Flush = %v, want a clear ErrInsecure", host, err)
		}
		if r := f.row(row.MessageID); dialed || r.State != store.OutboxPending || r.Attempts != 0 {
			t.Errorf("%s: dialled %v; row %s after %d attempts", host, dialed, r.State, r.Attempts)
		}
	}

	f := newFixture(t, sinkOptions{}, func(o *Options) {
		o.Server.Host = "localhost"
		o.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, network, strings.Replace(addr, "localhost", "127.0.0.1", 1))
			return elsewhere{c}, err
		}
	})
	f.enqueue(f.report("prussia", 12))
	if _, err := f.out.Flush(context.Background()); !errors.Is(err, ErrInsecure) {
		t.Errorf("a loopback name leading to 192.0.2.1: Flush = %v, want ErrInsecure", err)
	}
	if _, mails := f.sink.stats(); mails != 0 {
		t.Error("mail was sent without TLS to a host that is not loopback")
	}
}

// elsewhere is a connection that claims to lead to 192.0.2.1.
type elsewhere struct{ net.Conn }

func (elsewhere) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 25} }

// TestTLSAndLogin: implicit TLS and STARTTLS with AUTH PLAIN and LOGIN, and
// plaintext AUTH to loopback (the embedded mode), deliver the stored bytes;
// the password reaches the server and never the log.
func TestTLSAndLogin(t *testing.T) {
	t.Parallel()
	const user, password = "orders@pbem.localhost", "Kolin-1757-s3cret"
	for name, so := range map[string]sinkOptions{
		"tls plain":      {security: config.SecurityTLS, user: user, password: password},
		"starttls login": {security: config.SecuritySTARTTLS, user: user, password: password, mechs: []string{sasl.Login}},
		"starttls plain": {security: config.SecuritySTARTTLS, user: user, password: password},
		"loopback plain": {security: config.SecurityNone, user: user, password: password},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, so, nil)
			row := f.enqueue(f.report("prussia", 12))
			if st := f.flush(); st != (Stats{Sent: 1}) {
				t.Fatalf("Flush = %+v; log:\n%s", st, f.log)
			}
			if got := f.sink.got(); len(got) != 1 || !bytes.Equal(got[0].Data, row.Raw) {
				t.Error("the server did not receive the stored bytes")
			}
			if f.sink.logins[0] != user+":"+password {
				t.Errorf("login %q", f.sink.logins)
			}
			if strings.Contains(f.log.String(), password) {
				t.Error("the password is in the log")
			}
		})
	}

	t.Run("wrong password", func(t *testing.T) {
		f := newFixture(t, sinkOptions{security: config.SecurityTLS, user: user, password: password},
			func(o *Options) { o.Server.Password = config.Secret{Password: "wrong-" + password} })
		row := f.enqueue(f.report("prussia", 12))
		if st := f.flush(); st != (Stats{Retried: 1}) {
			t.Fatalf("Flush = %+v, want 1 retried (a refused login keeps the mail)", st)
		}
		if r := f.row(row.MessageID); !strings.Contains(r.LastError, "refused pbem's login") || !strings.Contains(r.LastError, "535") {
			t.Errorf("LastError %q", r.LastError)
		}
		if strings.Contains(f.log.String(), password) {
			t.Error("the password is in the log")
		}
	})
}

// TestTLSFailuresAreTemporary: an untrusted certificate, a server that does
// not offer STARTTLS, and a plaintext server on a TLS port are temporary
// failures, and no mail is sent unprotected.
func TestTLSFailuresAreTemporary(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		so   sinkOptions
		edit func(*Options)
		want string
	}{
		"untrusted certificate": {sinkOptions{security: config.SecurityTLS},
			func(o *Options) { o.TLSConfig = nil }, "certificate is not trusted"},
		"no STARTTLS offered": {sinkOptions{security: config.SecuritySTARTTLS, noTLS: true}, nil, "STARTTLS"},
		"not TLS at all": {sinkOptions{},
			func(o *Options) { o.Server.Security = config.SecurityTLS }, "does not speak TLS"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, c.so, c.edit)
			row := f.enqueue(f.report("prussia", 12))
			if st := f.flush(); st != (Stats{Retried: 1}) {
				t.Fatalf("Flush = %+v, want 1 retried", st)
			}
			r := f.row(row.MessageID)
			if !strings.Contains(r.LastError, "could not set up TLS") || !strings.Contains(r.LastError, c.want) {
				t.Errorf("LastError %q, want TLS and %q", r.LastError, c.want)
			}
			if _, mails := f.sink.stats(); mails != 0 {
				t.Error("a transaction was started without TLS")
			}
		})
	}
}

// TestSilentServerTimesOut: a server that accepts the connection and says
// nothing is a temporary failure after Options.Timeout.
func TestSilentServerTimesOut(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	f := newFixture(t, sinkOptions{}, func(o *Options) {
		o.Server.Port = ln.Addr().(*net.TCPAddr).Port
		o.Timeout = 200 * time.Millisecond
	})
	row := f.enqueue(f.report("prussia", 12))
	if st := f.flush(); st != (Stats{Retried: 1}) {
		t.Fatalf("Flush = %+v", st)
	}
	if r := f.row(row.MessageID); !strings.Contains(r.LastError, "timed out") {
		t.Errorf("LastError %q", r.LastError)
	}
}

// TestServerClosedIdleConnectionIsReopened: when the server has closed the
// connection kept from the previous message, the outbox connects again
// without counting a failed attempt.
func TestServerClosedIdleConnectionIsReopened(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, nil)
	f.sink.fail(fault{}, fault{at: StageMail, drop: true})
	a := f.enqueue(f.report("austria", 3))
	b := f.enqueue(f.report("bavaria", 3))
	if st := f.flush(); st != (Stats{Sent: 2}) {
		t.Fatalf("Flush = %+v", st)
	}
	for _, id := range []string{a.MessageID, b.MessageID} {
		if r := f.row(id); r.Attempts != 1 {
			t.Errorf("%s: %d attempts, want 1", id, r.Attempts)
		}
	}
	if conns, _ := f.sink.stats(); conns != 2 {
		t.Errorf("%d connections, want 2", conns)
	}
}

// TestRunSendsLeftoversThenNewMail: Run first sends a row a dead process
// left in sending, then a message enqueued while it runs, and returns when
// its context ends.
func TestRunSendsLeftoversThenNewMail(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sinkOptions{}, func(o *Options) {
		o.Now, o.Sleep = nil, nil // the real clock: Run waits
		o.PollInterval = time.Hour
	})
	ctx := context.Background()
	left, err := Row(f.report("austria", 3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Enqueue(ctx, left); err != nil {
		t.Fatal(err)
	}
	if err := f.db.MarkSending(ctx, 1); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- f.out.Run(rctx) }()
	wait := func(what string) delivery {
		select {
		case d := <-f.sink.arrived:
			return d
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not delivered", what)
		}
		return delivery{}
	}
	if d := wait("the leftover"); !bytes.Equal(d.Data, left.Raw) {
		t.Error("the leftover was not sent unchanged")
	}
	m := f.report("prussia", 3)
	m.Date = time.Now()
	f.enqueue(m)
	if d := wait("the new message"); !bytes.Contains(d.Data, []byte(m.ID())) {
		t.Error("the wrong message arrived")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
}

// TestNewDoesNoIO: New with nil options touches nothing; the defaults point
// at the embedded server.
func TestNewDoesNoIO(t *testing.T) {
	t.Parallel()
	o := New(nil, nil)
	if o.opts.Server.Host != "127.0.0.1" || o.opts.Server.Port != 2525 || o.opts.Server.Security != config.SecurityNone ||
		o.opts.RatePerMinute != DefaultRatePerMinute || o.opts.MaxAttempts != DefaultMaxAttempts {
		t.Errorf("defaults %+v", o.opts)
	}
}

// bodyText returns the decoded text of a single-part message.
func bodyText(t testing.TB, raw []byte) string {
	t.Helper()
	rd, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	p, err := rd.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(p.Body)
	return string(body)
}
