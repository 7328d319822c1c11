package inbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/syw-pbem/pbem/internal/mailconn"
	"github.com/syw-pbem/pbem/store"
)

// Handler acts on one stored mail: it classifies it, checks it and queues
// the answer. The daemon supplies it; the intake calls it for every mail
// whose status is store.MailStored, one at a time, in the order the mail
// was stored.
//
// A Handler must be idempotent: after a crash the intake calls it again for
// a mail still stored, even if the Handler's earlier call had done part of
// its work. The usual way is to save the effect (a submission, a ruling, the
// answer in the outbox) and move the mail's status forward (handled,
// ignored, quarantined or acknowledged) in one store transaction, and to do
// nothing for a mail no longer stored. If the Handler returns nil and the
// mail is still stored, the intake marks it handled.
//
// Returning an error means "try again later" (the store was busy, the disk
// full): the mail, and every mail stored after it, waits for the next poll,
// so that mail is always handled in the order it arrived. A mail that can
// never be handled must be quarantined by the Handler, which then returns
// nil. A panic is recovered, logged and the mail quarantined.
type Handler func(ctx context.Context, m store.Mail) error

// Defaults for Options.
const (
	DefaultMailbox          = "INBOX"
	DefaultProcessedMailbox = "pbem-processed"
	DefaultProcessedKeyword = "$PbemProcessed"
	DefaultPollInterval     = 2 * time.Minute
	MaxPollInterval         = 5 * time.Minute
	DefaultCommandTimeout   = 90 * time.Second
	DefaultDialTimeout      = 30 * time.Second
	DefaultKeepAlive        = 30 * time.Second
	DefaultBackoffInitial   = time.Second
	DefaultBackoffMax       = 5 * time.Minute
)

// Options configure an Intake. A nil *Options, or a zero field, means the
// default documented on the field; Addr and Handler have none and must be
// set (Run and PollOnce report their absence).
type Options struct {
	// Addr is the IMAP server's host:port.
	Addr string

	// Security is how the connection is protected: mailconn.SecurityTLS
	// (implicit TLS, port 993), mailconn.SecuritySTARTTLS (port 143, upgraded
	// before LOGIN) or mailconn.SecurityNone, which is refused unless Addr is
	// a loopback address. Default mailconn.SecurityTLS.
	Security mailconn.Security

	// TLSConfig is used for TLS and STARTTLS; its ServerName defaults to
	// Addr's host. Default: the system roots.
	TLSConfig *tls.Config

	// Username and Password are sent with LOGIN.
	Username string
	Password mailconn.Password

	// Mailbox is the folder order mail arrives in. Default "INBOX".
	Mailbox string

	// ProcessedMailbox is where handled mail is moved, when the server
	// offers MOVE or UIDPLUS; it is created if missing. Default
	// "pbem-processed".
	ProcessedMailbox string

	// ProcessedKeyword marks handled mail on a server that cannot move
	// safely (no MOVE, no UIDPLUS); \Seen is set with it. Default
	// "$PbemProcessed".
	ProcessedKeyword string

	// PollInterval is how often the mailbox is read even while IDLE is in
	// use (IDLE is only a wake-up: a connection that died silently wakes
	// nobody). Values over MaxPollInterval (5m) are lowered to it. Default
	// 2m.
	PollInterval time.Duration

	// DisableIDLE polls only, even when the server offers IDLE.
	DisableIDLE bool

	// CommandTimeout is the watchdog's limit: a connection on which a
	// command (or the end of an IDLE) has waited this long without a byte
	// from the server is closed and a new one made. Default 90s.
	CommandTimeout time.Duration

	// DialTimeout bounds connecting, the TLS handshake included. Default
	// 30s.
	DialTimeout time.Duration

	// KeepAlive is the TCP keep-alive idle time (probes follow every third
	// of it, three of them). Default 30s.
	KeepAlive time.Duration

	// BackoffInitial and BackoffMax bound the wait before reconnecting
	// after a failure: it starts at BackoffInitial and doubles up to
	// BackoffMax, up to 10% shorter (internal/backoff, the outbox's schedule
	// too), and starts over after a successful poll. Defaults 1s and 5m.
	BackoffInitial, BackoffMax time.Duration

	// Limits are the mail limits. The intake uses MaxRawBytes (a larger
	// message is quarantined by its size, never fetched whole) and
	// MaxHeaderBytes (how much of its header is kept). Zero fields: the
	// defaults of Limits.
	Limits Limits

	// Handler acts on each stored mail. Required.
	Handler Handler

	// BatchHandler, when set, is given stored mail several at a time (in
	// arrival order, at most the batch the intake just stored) instead of
	// Handler, so that it can record several outcomes in one transaction.
	// A mail stored by an earlier poll or run comes without its bytes (Raw
	// nil): the BatchHandler reads them (store.DB.Mail) when it needs them,
	// so that a backlog of large mail is not in memory at once.
	// It has Handler's contract for each mail, and must handle them in
	// order: when it returns an error, the mail not yet handled waits, and
	// so does every mail after it. A panic is recovered and the first mail
	// still stored quarantined. Handler is still required (it is used for
	// one mail at a time, as after a failure).
	BatchHandler func(ctx context.Context, ms []store.Mail) error

	// Arrival, when set, is asked for the mail server's own record of how
	// each new message came into the mailbox (see Arrival); the intake
	// stores the answer with the mail (store.Mail.Arrival), in the
	// transaction that stores its bytes, and sender authentication in the
	// embedded mode believes nothing else. pbem's embedded server answers
	// from its record (mailserver.Server.ArrivalOf); "" means it has none
	// (the message left the mailbox meanwhile). An error stops the poll,
	// which tries again. nil (an external provider) records nothing.
	Arrival func(ctx context.Context, mailbox string, uidValidity, uid uint32) (string, error)

	// Mask, when set, gives for a handled mail (with its raw bytes) the
	// copy to leave in the processed mailbox in its place — pbem's copy
	// with every password masked (see MaskedCopy) — or nil to move the
	// mail as it is (nothing in it to mask, or nothing pbem read). The
	// copy replaces the original only where that can be done safely: with
	// MoveOut, or on a server with UIDPLUS (APPEND the copy, then UID
	// EXPUNGE exactly the original); elsewhere the original is moved or
	// flagged as it is, and the log says so once.
	Mask func(ctx context.Context, m store.Mail) ([]byte, error)

	// MoveOut, when set, takes handled mail out of the mailbox instead of
	// IMAP: into ProcessedMailbox, each message replaced by its Copy when
	// it has one, all of them in one step that is safe to repeat (a UID
	// already gone is skipped). pbem's embedded server does it in process
	// (mailserver.Server.MoveOut), in one transaction.
	MoveOut func(ctx context.Context, mailbox string, uidValidity uint32, processed string, items []OutMail) error

	// Logger receives the intake's log. Default slog.Default().
	Logger *slog.Logger

	// Now is this machine's clock: it stamps store.Mail.FetchedAt (and
	// ReceivedAt when the server gives no stamp, arrival.go) and the
	// listings OnPolled reports. Default time.Now.
	Now func() time.Time

	// OnPolled, when set, is called after each poll has stored and handled
	// every mail the listing found, with when the listing began (Now):
	// every mail that reached the server before that instant is in the
	// store. The daemon's turn runner waits for one after a deadline.
	OnPolled func(listedAt time.Time)

	// OnSkew, when set, is called when a mail's INTERNALDATE shows the
	// server's clock off from this machine's by more than ArrivalMargin
	// (skew > 0: the server's is ahead), with the stamp and when the mail
	// was fetched.
	OnSkew func(skew time.Duration, internal, fetched time.Time)
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Security == "" {
		r.Security = mailconn.SecurityTLS
	}
	if r.Mailbox == "" {
		r.Mailbox = DefaultMailbox
	}
	if r.ProcessedMailbox == "" {
		r.ProcessedMailbox = DefaultProcessedMailbox
	}
	if r.ProcessedKeyword == "" {
		r.ProcessedKeyword = DefaultProcessedKeyword
	}
	if r.PollInterval <= 0 {
		r.PollInterval = DefaultPollInterval
	}
	if r.PollInterval > MaxPollInterval {
		r.PollInterval = MaxPollInterval
	}
	if r.CommandTimeout <= 0 {
		r.CommandTimeout = DefaultCommandTimeout
	}
	if r.DialTimeout <= 0 {
		r.DialTimeout = DefaultDialTimeout
	}
	if r.KeepAlive <= 0 {
		r.KeepAlive = DefaultKeepAlive
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
	r.Limits = r.Limits.withDefaults()
	if r.Logger == nil {
		r.Logger = slog.Default()
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}

// check reports options that can never work.
func (o *Options) check() error {
	var errs []error
	if o.Handler == nil {
		errs = append(errs, errors.New("no Handler"))
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		errs = append(errs, fmt.Errorf("Addr %q is not host:port", o.Addr)) //lint:ignore ST1005 it starts with the option's name
	}
	switch o.Security {
	case mailconn.SecurityTLS, mailconn.SecuritySTARTTLS:
	case mailconn.SecurityNone:
		if err == nil && !isLoopbackHost(host) {
			errs = append(errs, fmt.Errorf("security none is allowed only to a loopback address, not %s: the password would cross the network in clear", host))
		}
	default:
		errs = append(errs, fmt.Errorf("unknown security %q (tls, starttls or none)", o.Security))
	}
	if o.Mailbox == o.ProcessedMailbox {
		errs = append(errs, fmt.Errorf("the processed mailbox is the mailbox read (%s)", o.Mailbox))
	}
	if len(errs) > 0 {
		return fmt.Errorf("inbox: bad options: %w", errors.Join(errs...))
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	return host == "localhost"
}
