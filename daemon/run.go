package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/doorbell"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// Daemon is a running game: the embedded mail server (in embedded mode), the
// intake reading the game's mailbox, the outbox sending the answers, and
// the turn runner resolving each turn at its deadline (turn.go).
type Daemon struct {
	Game   *Game              // the game, with its store
	Mail   *mailserver.Server // the embedded mail server; nil in external mode
	Intake *inbox.Intake      // reads the game's mailbox and calls Game.HandleMail
	Outbox *outbox.Outbox     // sends what HandleMail queued

	intakeOpts *inbox.Options // the intake's options, for CheckLogins

	// sharedMail is true when Mail is a host's server (hosted.go), which
	// Close leaves running.
	sharedMail bool
}

// Start opens the game (creating it on first start), starts the embedded mail
// server when the config asks for it, and builds the intake and the outbox.
// Run then serves until the context ends. Problems in the config come back as
// a *ConfigError.
func Start(ctx context.Context, cfg *config.Config, opts *Options) (*Daemon, error) {
	return start(ctx, cfg, opts, nil)
}

// start is Start; a shared server, when not nil, is used in place of the
// embedded server the config would start (hosted.go).
func start(ctx context.Context, cfg *config.Config, opts *Options, shared *mailserver.Server) (_ *Daemon, err error) {
	d := &Daemon{}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	if d.Game, err = Open(ctx, cfg, opts); err != nil {
		return nil, err
	}
	g := d.Game
	if _, err := g.Ensure(ctx); err != nil {
		return nil, err
	}
	if err := g.ensureDeadline(ctx); err != nil {
		return nil, err
	}
	if _, err := g.purgeRawMail(ctx); err != nil {
		return nil, err
	}
	if err := g.ensureSeedKey(ctx); err != nil {
		return nil, err
	}
	// runstate.go: this process runs the game now; health records say so.
	if err := g.startRun(ctx); err != nil {
		return nil, err
	}
	if _, err := g.SendStartReports(ctx); err != nil {
		g.Log.Error("queueing the starting reports failed; will try again at the next start", "err", err)
	}
	// Treaties that became public during a turn resolved since (treaty.go).
	if err := g.PublishTreaties(ctx); err != nil {
		g.Log.Error("publishing treaties", "err", err)
	}
	imapEP, smtpEP := cfg.IMAPEndpoint(), cfg.SMTPEndpoint()
	if cfg.Mail.Mode == config.ModeEmbedded && shared != nil {
		d.Mail, d.sharedMail = shared, true
		imapEP.Host, imapEP.Port = splitAddr(d.Mail.IMAPAddr())
		smtpEP.Host, smtpEP.Port = splitAddr(d.Mail.SMTPAddr())
	} else if cfg.Mail.Mode == config.ModeEmbedded {
		if d.Mail, err = startMailServer(ctx, cfg, g.Log.With("part", "mailserver")); err != nil {
			return nil, err
		}
		// Listening on port 0 (tests) gives a port only known now.
		imapEP.Host, imapEP.Port = splitAddr(d.Mail.IMAPAddr())
		smtpEP.Host, smtpEP.Port = splitAddr(d.Mail.SMTPAddr())
	}
	oo := outboxOptions(cfg)
	oo.Server = smtpServer(smtpEP)
	oo.Logger = g.Log.With("part", "outbox")
	oo.Run = g.run.ID()
	if opts != nil && opts.Now != nil {
		oo.Now = opts.Now
	}
	if cfg.Mail.Mode == config.ModeEmbedded {
		// Loopback delivery to pbem's own server needs no politeness
		// towards a provider: no pause, several rows per transaction.
		oo.Unlimited = true
	}
	d.Outbox = outbox.New(g.DB, oo)

	io, err := intakeOptions(cfg)
	if err != nil {
		return nil, &ConfigError{Key: "mail.imap", Err: err}
	}
	// On the embedded server the port is the one bound (0 in tests).
	io.Addr = net.JoinHostPort(imapEP.Host, strconv.Itoa(imapEP.Port))
	io.Logger = g.intakeLogger(g.Log.With("part", "intake")) // outage.go: its health recorded
	io.Handler = func(ctx context.Context, m store.Mail) error {
		err := g.HandleMail(ctx, m)
		d.Outbox.Wake()
		g.WakeTurns()
		return err
	}
	io.BatchHandler = func(ctx context.Context, ms []store.Mail) error {
		err := g.HandleMails(ctx, ms)
		d.Outbox.Wake()
		// A batch may hold RESOLVE NOW or the last FINAL sheet: the turn
		// runner looks at once, as after a single mail (its look reads only
		// what it needs, so a burst of batches costs it little).
		g.WakeTurns()
		return err
	}
	if opts != nil && opts.Now != nil {
		io.Now = opts.Now
	}
	// Handled mail leaves the mailbox with its passwords masked
	// (masking.go).
	io.Mask = g.maskedCopy
	if d.Mail != nil {
		// Who sent a mail is what the server recorded of its arrival, read
		// from the server in this process, never a header (PolicyFor).
		user := io.Username
		io.Arrival = func(ctx context.Context, mailbox string, uidValidity, uid uint32) (string, error) {
			a, _, err := d.Mail.ArrivalOf(ctx, user, mailbox, uidValidity, uid)
			return a.String(), err
		}
		// The masked copy takes the mail's place in one transaction of the
		// server's: no crash leaves both, or neither.
		io.MoveOut = func(ctx context.Context, mailbox string, uidValidity uint32, processed string, items []inbox.OutMail) error {
			if err := d.Mail.EnsureMailbox(ctx, user, processed); err != nil {
				return err
			}
			rs := make([]mailserver.Replacement, len(items))
			for i, it := range items {
				rs[i] = mailserver.Replacement{UID: it.UID, Raw: it.Copy}
			}
			_, err := d.Mail.MoveOut(ctx, user, mailbox, uidValidity, processed, rs)
			return err
		}
	}
	// closing.go: the turn runner waits for a listing after a deadline.
	io.OnPolled = g.notePolled
	io.OnSkew = g.noteSkew
	d.Intake = inbox.New(g.DB, io)
	d.intakeOpts = io
	return d, nil
}

// startMailServer starts the embedded IMAP and SMTP server with the config's
// accounts.
func startMailServer(ctx context.Context, cfg *config.Config, log *slog.Logger) (*mailserver.Server, error) {
	var accounts []mailserver.Account
	for i, a := range cfg.Mail.Embedded.Accounts {
		pw, err := a.Secret.Value()
		if err != nil {
			return nil, &ConfigError{Key: fmt.Sprintf("mail.embedded.accounts[%d] (%s)", i, a.User), Err: err}
		}
		accounts = append(accounts, mailserver.Account{User: a.User, Password: pw.Reveal()})
	}
	ms, err := mailserver.New(&mailserver.Options{
		Dir:    filepath.Join(cfg.Path(cfg.DataDir), "mail"),
		Domain: cfg.Mail.Embedded.Domain,
		// The id the daemon trusts (PolicyFor): the two must agree.
		AuthServID: embeddedAuthServID(cfg),
		IMAPAddr:   cfg.Mail.Embedded.IMAPListen,
		SMTPAddr:   cfg.Mail.Embedded.SMTPListen,
		Accounts:   accounts,
		// What the intake would not read anyway (over inbox's size limit)
		// is refused at SMTP, before it is stored, with the limit named:
		// the sender's mail program says so at once, and the server never
		// holds such a message (docs/intake.md, "Memory").
		MaxMessageBytes: inbox.DefaultMaxRawBytes,
		Logger:          log,
	})
	if err != nil {
		return nil, &ConfigError{Key: "mail.embedded", Err: err}
	}
	if err := ms.Start(ctx); err != nil {
		ms.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("starting the embedded mail server: %w (another program, perhaps another \"pbem run\", uses %s or %s: "+
				"stop it, or give other ports in mail.embedded.imap_listen and smtp_listen)", err, cfg.Mail.Embedded.IMAPListen, cfg.Mail.Embedded.SMTPListen)
		}
		return nil, fmt.Errorf("starting the embedded mail server: %w", err)
	}
	return ms, nil
}

// Run serves until ctx ends: the intake, the outbox and the turn runner
// side by side. It returns nil on a clean stop.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// closing.go: while the intake runs, the turn runner waits for it to
	// take in the mail that reached the server before a deadline.
	d.Game.attachIntake(d.Intake.PollNow)
	defer d.Game.attachIntake(nil)
	// Mail queued by another process on this store ("pbem resolve", a
	// referee's command) rings the bell beside it: the outbox sends it at
	// once rather than at its next poll. Without a bell it still polls.
	if d.Game.ownDB {
		// A ring also wakes the turn runner: "pbem resolve" leaves the turn
		// it closed to this process (resolve_beside.go).
		wake := func() { d.Outbox.Wake(); d.Game.WakeTurns() }
		if err := doorbell.Listen(ctx, doorbell.Beside(d.Game.Config.StorePath()), wake); err != nil && !errors.Is(err, doorbell.ErrUnsupported) {
			d.Game.Log.Warn("no doorbell: mail queued by other pbem commands waits for the outbox's poll", "error", err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for _, run := range []func(context.Context) error{d.Outbox.Run, d.Intake.Run, d.runTurns} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// hosted.go: a panic stops this game's daemon with an error,
			// not the process that may serve other games.
			defer func() {
				if p := recover(); p != nil {
					errs <- panicError(p)
					cancel()
				}
			}()
			if err := run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				errs <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// Close stops the mail server and closes the store. Call it after Run has
// returned.
func (d *Daemon) Close() error {
	var errs []error
	if d.Mail != nil && !d.sharedMail {
		errs = append(errs, d.Mail.Close())
	}
	if d.Game != nil {
		d.Game.stopRun(context.Background())
		errs = append(errs, d.Game.Close())
	}
	return errors.Join(errs...)
}

// splitAddr splits "host:port"; the port is 0 when there is none.
func splitAddr(addr string) (string, int) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	n, _ := strconv.Atoi(p)
	return h, n
}
