package outbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/internal/backoff"
	"github.com/syw-pbem/pbem/internal/mailconn"
	"github.com/syw-pbem/pbem/store"
)

// Defaults for the zero fields of Options. The SMTP ones match the config
// defaults (docs/config.md).
const (
	DefaultRatePerMinute  = 30
	DefaultMaxAttempts    = 8
	DefaultBackoffInitial = 30 * time.Second
	DefaultBackoffMax     = time.Hour
	DefaultTimeout        = 5 * time.Minute
	DefaultPollInterval   = 10 * time.Second
	DefaultHelloName      = "localhost"
)

// Server is an SMTP server and how to reach it.
type Server struct {
	Host     string            // server name or address
	Port     int               // 0: the usual port for Security
	Security mailconn.Security // tls, starttls or none
	Username string            // login name; "" for no login
	Password mailconn.Secret   // login password, read at the start of each pass
}

// isZero reports whether s is the zero Server (the embedded default).
func (s Server) isZero() bool {
	return s.Host == "" && s.Port == 0 && s.Security == "" && s.Username == "" && s.Password == nil
}

// Options tunes an Outbox. A nil *Options, or a zero field, means the
// default documented on the field. The daemon fills it from pbem's config.
type Options struct {
	// Server is the SMTP server and how to reach it. A zero Server means
	// the embedded server's default: 127.0.0.1:2525, no TLS, no login.
	// Otherwise Host is required; Port 0 means 465 for tls, 587 for
	// starttls, 25 for none; Security "" means tls. Security none is
	// allowed only to a loopback host (checked before connecting and
	// again on the connected address). With a Username, pbem logs in with
	// AUTH PLAIN, or LOGIN if the server offers only that, reading the
	// password with Password.Value at the start of each pass.
	Server Server

	// HelloName is the name pbem gives in EHLO. Default "localhost".
	HelloName string

	// TLSConfig is the base TLS configuration (tests set RootCAs).
	// ServerName defaults to Server.Host, MinVersion to TLS 1.2. Default:
	// the system's roots.
	TLSConfig *tls.Config

	// RatePerMinute is the most mail transactions started per minute;
	// starts are spaced one minute / RatePerMinute apart. Default 30.
	RatePerMinute int

	// Unlimited sends with no pause between messages, and claims up to
	// BatchSize due messages (and marks them sent) per transaction: for
	// pbem's own embedded server on loopback, which needs no politeness.
	// RatePerMinute is then ignored.
	Unlimited bool

	// BatchSize is how many messages an Unlimited sender claims in one
	// transaction. Default 32. (A rate-limited sender claims one at a
	// time, so that a crash leaves at most one message to send again.)
	BatchSize int

	// MaxAttempts is how many attempts a message gets before it is marked
	// failed and the referee told. Default 8.
	MaxAttempts int

	// BackoffInitial is the wait after the first temporary failure; it
	// doubles after each further one, up to BackoffMax. Default 30s.
	BackoffInitial time.Duration

	// BackoffMax caps the wait between attempts. Default 1h.
	BackoffMax time.Duration

	// Referee is the address told when a message fails. Default "": nobody
	// is told, and the failure is only logged.
	Referee string

	// ReportFrom is the sender of failure reports. Default: the From of the
	// message that failed.
	ReportFrom mail.Address

	// Timeout bounds connecting (TCP and TLS) and each SMTP command; the
	// reply after the final dot may take twice as long. Default 5m.
	Timeout time.Duration

	// PollInterval is how often Run looks for due mail when nothing wakes
	// it (Enqueue and Wake do); a retry after a backoff waits for the next
	// poll, so this is also how late a retry can be. Default 10s.
	PollInterval time.Duration

	// Now is the clock for everything the outbox decides: due times, the
	// rate, backoff, SentAt, the Date of failure reports. Default time.Now.
	Now func() time.Time

	// Sleep waits d or until ctx is done, returning ctx's error then. Every
	// wait of the outbox goes through it. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error

	// Dial opens the TCP connection. Default: net.Dialer.DialContext.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	// Run names the process (the daemon's start time): the health record
	// (Health) carries it, so that a reader can tell this run's record
	// from an earlier one's. Default "".
	Run string

	// Logger receives what the outbox does, at info (sent), warn
	// (attempt failed) and error (message failed, settings refused).
	// Default slog.Default().
	Logger *slog.Logger
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Server.isZero() {
		r.Server = Server{Host: "127.0.0.1", Port: 2525, Security: mailconn.SecurityNone}
	}
	if r.Server.Security == "" {
		r.Server.Security = mailconn.SecurityTLS
	}
	if r.HelloName == "" {
		r.HelloName = DefaultHelloName
	}
	if r.RatePerMinute <= 0 {
		r.RatePerMinute = DefaultRatePerMinute
	}
	if r.BatchSize <= 0 {
		r.BatchSize = 32
	}
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = DefaultMaxAttempts
	}
	if r.BackoffInitial <= 0 {
		r.BackoffInitial = DefaultBackoffInitial
	}
	if r.BackoffMax <= 0 {
		r.BackoffMax = DefaultBackoffMax
	}
	if r.BackoffMax < r.BackoffInitial {
		r.BackoffMax = r.BackoffInitial
	}
	if r.Timeout <= 0 {
		r.Timeout = DefaultTimeout
	}
	if r.PollInterval <= 0 {
		r.PollInterval = DefaultPollInterval
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.Sleep == nil {
		r.Sleep = sleep
	}
	if r.Dial == nil {
		var d net.Dialer
		r.Dial = d.DialContext
	}
	if r.Logger == nil {
		r.Logger = slog.Default()
	}
	return r
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Outbox sends the store's outbox rows through one SMTP server. Create one
// per store and server; it is safe for concurrent use (Run, Flush and
// Enqueue may be called from several goroutines; sending is one at a time).
type Outbox struct {
	db   *store.DB
	opts Options
	log  *slog.Logger
	wake chan struct{}

	mu        sync.Mutex // held for a whole pass: one sender at a time
	lastStart time.Time  // when the last transaction started, for the rate
	sess      *session   // the open connection during a pass
	pool      []*session // the connections of an Unlimited pass (sendParallel)

	hmu         sync.Mutex // guards health
	health      Health     // health.go: the outcome of the attempts so far
	healthKnown bool       // an attempt has been made
}

// New returns an Outbox sending db's outbox rows. It does no I/O: nothing is
// read, dialled or checked until Run or Flush. A nil opts means the
// defaults documented on Options.
func New(db *store.DB, opts *Options) *Outbox {
	o := opts.withDefaults()
	return &Outbox{db: db, opts: o, log: o.Logger, wake: make(chan struct{}, 1)}
}

// Enqueue composes m and stores it as pending, then wakes Run. It returns
// the Message-ID. Enqueueing the same message again (same Message-ID, same
// bytes) does nothing; the same Message-ID with different bytes is an
// error wrapping store.ErrConflict, since a resend must be byte-identical.
func (o *Outbox) Enqueue(ctx context.Context, m Message) (string, error) {
	row, err := Row(m)
	if err != nil {
		return "", err
	}
	if _, err := o.db.Enqueue(ctx, row); err != nil {
		return "", err
	}
	o.Wake()
	return row.MessageID, nil
}

// Wake makes Run look for due mail now rather than at its next poll. Call
// it after queueing rows some other way (store.CommitTurn).
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Stats counts what a pass did.
type Stats struct {
	Sent    int // taken by the server (250 after DATA)
	Retried int // failed for now; back to pending with a later attempt time
	Failed  int // given up on (and the referee told, where that applies)
}

// Flush sends every message due now, one after another at the configured
// rate, and returns when none is due (a message that fails for now is due
// again only after its backoff). Delivery failures are recorded on the rows
// and logged, not returned; the error says Flush could not go on: settings
// refused (ErrInsecure, an unreadable password), the store failing, or ctx
// done. Flush does not send rows left in sending by a crash; Run does.
func (o *Outbox) Flush(ctx context.Context) (Stats, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pass(ctx, false)
}

// Run sends mail until ctx is done, and then returns ctx's error. It first
// sends again, unchanged, every row left in sending by a process that
// stopped mid-send, then does what Flush does whenever Enqueue or Wake
// wakes it, and every Options.PollInterval. Problems are logged and tried
// again at the next poll; a pass that stopped on an error is followed by
// the same recovery, for the row it may have left in sending. Run assumes
// no other process is sending from the same store meanwhile (it would
// resend that process's message in flight: the same bytes and Message-ID,
// so no harm beyond a duplicate).
func (o *Outbox) Run(ctx context.Context) error {
	recovered := false
	for {
		o.mu.Lock()
		st, err := o.pass(ctx, !recovered)
		o.mu.Unlock()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A pass that stopped on an error may have left its row in sending;
		// the next pass sends such rows again first.
		recovered = err == nil
		if err != nil {
			o.noteText(ctx, "sending stopped: "+err.Error())
			o.log.Error("outbox: sending stopped; trying again later", "error", err, "retry_in", o.opts.PollInterval)
		} else if st != (Stats{}) {
			o.log.Debug("outbox: pass done", "sent", st.Sent, "retried", st.Retried, "failed", st.Failed)
		}
		o.idle(ctx)
	}
}

// idle waits for a wake-up or the poll interval.
func (o *Outbox) idle(ctx context.Context) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-o.wake:
			cancel()
		case <-wctx.Done():
		}
	}()
	o.opts.Sleep(wctx, o.opts.PollInterval)
}

// pass sends messages until none is due; with recover it first sends the
// rows left in sending.
func (o *Outbox) pass(ctx context.Context, recover bool) (st Stats, err error) {
	defer o.hangUp()
	var recovered []store.OutboxMessage
	if recover {
		if recovered, err = o.db.RecoverSending(ctx); err != nil {
			return st, err
		}
		if len(recovered) > 0 {
			o.log.Warn("outbox: sending again the messages a stopped process left in sending", "count", len(recovered))
		}
	}
	var t *target
	// queue holds claimed rows (in sending) still to send; sent holds the
	// ids the server took, marked sent together when the queue is empty or
	// before anything else is recorded.
	queue := recovered
	var sent []store.SentMark
	markSent := func() error {
		if len(sent) == 0 {
			return nil
		}
		err := o.db.MarkSentBatch(context.WithoutCancel(ctx), sent)
		sent = sent[:0]
		return err
	}
	defer func() {
		if merr := markSent(); merr != nil && err == nil {
			err = merr
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if len(queue) == 0 {
			if err := markSent(); err != nil {
				return st, err
			}
			due, err := o.db.HasDue(ctx, o.opts.Now())
			if err != nil || !due {
				return st, err
			}
			// The settings are checked before any row is touched.
			if t == nil {
				if t, err = o.target(); err != nil {
					return st, err
				}
			}
			// Under a pace the next row is chosen when its slot comes, not
			// before the wait: an answer queued meanwhile goes first.
			if err := o.waitRate(ctx); err != nil {
				return st, err
			}
			if queue, err = o.claim(ctx); err != nil {
				return st, err
			}
			if len(queue) == 0 {
				return st, nil
			}
		}
		if t == nil {
			if t, err = o.target(); err != nil {
				return st, err
			}
		}
		if o.opts.Unlimited && len(queue) > 1 {
			// Several connections at once: the server can then store their
			// messages together (one fsync for several).
			batch := queue
			queue = nil
			outcomes := o.sendParallel(ctx, t, batch)
			for i, m := range batch {
				if ctx.Err() == nil {
					o.note(ctx, outcomes[i].err)
				}
				if outcomes[i].err == nil {
					sent = append(sent, store.SentMark{ID: m.ID, At: outcomes[i].at})
					st.Sent++
					o.log.Info("outbox: sent", "outbox_id", m.ID, "message_id", m.MessageID, "kind", m.Kind,
						"recipients", m.Recipients, "attempt", m.Attempts+1, "bytes", len(m.Raw))
				}
			}
			if err := markSent(); err != nil {
				return st, err
			}
			for i, m := range batch {
				if outcomes[i].err != nil {
					if err := o.failed(ctx, m, outcomes[i].err, &st); err != nil {
						return st, err
					}
				}
			}
			continue
		}
		m := queue[0]
		queue = queue[1:]
		if err := o.waitRate(ctx); err != nil {
			return st, err
		}
		o.lastStart = o.opts.Now()
		e := o.send(ctx, t, m)
		if ctx.Err() == nil {
			o.note(ctx, e)
		}
		if e == nil {
			sent = append(sent, store.SentMark{ID: m.ID, At: o.opts.Now()})
			st.Sent++
			o.log.Info("outbox: sent", "outbox_id", m.ID, "message_id", m.MessageID, "kind", m.Kind,
				"recipients", m.Recipients, "attempt", m.Attempts+1, "bytes", len(m.Raw))
			continue
		}
		// Outcomes are recorded in order: the sent ones before a failure.
		if err := markSent(); err != nil {
			return st, err
		}
		if err := o.failed(ctx, m, e, &st); err != nil {
			return st, err
		}
	}
}

// claim takes the next due messages and marks them sending (committed)
// before the connection is used, so before DATA: several at a time for an
// Unlimited sender, else one.
func (o *Outbox) claim(ctx context.Context) ([]store.OutboxMessage, error) {
	n := 1
	if o.opts.Unlimited {
		n = o.opts.BatchSize
	}
	// Claimed in queue order in one transaction; a row another process
	// took meanwhile is skipped.
	return o.db.ClaimDue(ctx, o.opts.Now(), n)
}

// waitRate sleeps until the rate allows the next transaction.
func (o *Outbox) waitRate(ctx context.Context) error {
	if o.lastStart.IsZero() || o.opts.Unlimited {
		return nil
	}
	gap := time.Minute / time.Duration(o.opts.RatePerMinute)
	if wait := o.lastStart.Add(gap).Sub(o.opts.Now()); wait > 0 {
		return o.opts.Sleep(ctx, wait)
	}
	return nil
}

// failed records a failed delivery of a claimed row: retry later, or give
// up and tell the referee. Its error stops the pass.
func (o *Outbox) failed(ctx context.Context, m store.OutboxMessage, e *Error, st *Stats) error {
	now := o.opts.Now()
	wctx := context.WithoutCancel(ctx) // record the outcome even when interrupted
	n := m.Attempts + 1
	log := o.log.With("outbox_id", m.ID, "message_id", m.MessageID, "kind", m.Kind,
		"recipients", m.Recipients, "attempt", n)
	log = log.With("stage", e.Stage, "smtp_code", e.Code, "reply", e.Reply, "detail", e.Err)
	switch {
	case ctx.Err() != nil:
		log.Warn("outbox: interrupted; the message stays queued", "error", e.Error())
		if err := o.db.MarkRetry(wctx, m.ID, now, e.Error()); err != nil {
			return err
		}
		return ctx.Err()
	case e.Temporary && n < o.opts.MaxAttempts:
		next := now.Add(Backoff(m.MessageID, n, o.opts.BackoffInitial, o.opts.BackoffMax))
		log.Warn("outbox: attempt failed; will try again", "error", e.Error(), "next_attempt", next)
		if err := o.db.MarkRetry(wctx, m.ID, next, e.Error()); err != nil {
			return err
		}
		st.Retried++
	default:
		log.Error("outbox: message failed; giving up", "error", e.Error())
		if err := o.fail(wctx, m, e, n, now); err != nil {
			return err
		}
		st.Failed++
	}
	if errors.Is(e, ErrInsecure) {
		return e
	}
	return nil
}

// send runs one delivery of m over the pass's connection, opening it if
// needed. A reused connection the server has meanwhile closed is opened
// again once, without counting an attempt: nothing was sent.
func (o *Outbox) send(ctx context.Context, t *target, m store.OutboxMessage) *Error {
	return o.sendOn(ctx, t, m, &o.sess)
}

// sendOn is send over the connection *sess (opened if nil).
func (o *Outbox) sendOn(ctx context.Context, t *target, m store.OutboxMessage, sess **session) *Error {
	from, _, err := envelopeFrom(m.Raw)
	if err != nil {
		return &Error{Stage: StageMessage, Err: err}
	}
	for try := 0; ; try++ {
		reused := *sess != nil
		if *sess == nil {
			s, e := o.connect(ctx, t)
			if e != nil {
				return e
			}
			*sess = s
		}
		e := (*sess).transact(ctx, t.addr, from.Address, m.Recipients, m.Raw)
		if e == nil {
			return nil
		}
		if !(*sess).recover(e) {
			(*sess).close()
			*sess = nil
		}
		if reused && try == 0 && e.Stage == StageMail && e.Code == 0 && ctx.Err() == nil {
			continue
		}
		return e
	}
}

// hangUp ends the pass's connections.
func (o *Outbox) hangUp() {
	if o.sess != nil {
		o.sess.quit()
		o.sess = nil
	}
	for i, s := range o.pool {
		if s != nil {
			s.quit()
			o.pool[i] = nil
		}
	}
}

// parallelSessions is how many connections an Unlimited sender uses.
const parallelSessions = 4

// delivered is one message's outcome in sendParallel.
type delivered struct {
	err *Error
	at  time.Time // when the server answered 250
}

// sendParallel sends claimed rows over up to parallelSessions connections
// at once (kept in o.pool for the pass) and returns each one's outcome.
func (o *Outbox) sendParallel(ctx context.Context, t *target, batch []store.OutboxMessage) []delivered {
	if o.pool == nil {
		o.pool = make([]*session, parallelSessions)
	}
	out := make([]delivered, len(batch))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for k := range min(len(o.pool), len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				e := o.sendOn(ctx, t, batch[i], &o.pool[k])
				out[i] = delivered{err: e, at: o.opts.Now()}
			}
		}()
	}
	for i := range batch {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// Backoff is the wait before attempt+1 after attempt (from 1) failed for
// now: initial doubled attempt-1 times, capped at max, then shortened by a
// jitter of 0 to 10% taken from a hash of the Message-ID and attempt, so
// that messages that failed together spread out, and the same message
// always waits the same. With the defaults (30s, 1h) the waits are about
// 30s, 1m, 2m, 4m, 8m, 16m, 32m, 1h, 1h, ….
func Backoff(messageID string, attempt int, initial, max time.Duration) time.Duration {
	return backoff.Delay(messageID, attempt, initial, max)
}

// fail marks m failed and, in the same transaction, queues the report to
// the referee, so a crash cannot lose the one without the other.
func (o *Outbox) fail(ctx context.Context, m store.OutboxMessage, e *Error, attempts int, now time.Time) error {
	report, ok := o.failureReport(m, e, attempts, now)
	return o.db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.MarkFailed(ctx, m.ID, e.Error()); err != nil {
			return err
		}
		if ok {
			if _, err := tx.Enqueue(ctx, report); err != nil {
				return fmt.Errorf("outbox: queueing the failure report for %s: %w", m.MessageID, err)
			}
		}
		return nil
	})
}
