package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// embeddedRate is the outbox's rate on the embedded server: loopback delivery
// needs no politeness towards a provider.
const embeddedRate = 6000

// Daemon is a running game: the embedded mail server (in embedded mode), the
// intake reading the game's mailbox and the outbox sending the answers.
type Daemon struct {
	Game   *Game
	Mail   *mailserver.Server // nil in external mode
	Intake *inbox.Intake
	Outbox *outbox.Outbox
}

// Start opens the game (creating it on first start), starts the embedded mail
// server when the config asks for it, and builds the intake and the outbox.
// Run then serves until the context ends.
func Start(ctx context.Context, cfg *config.Config, opts *Options) (*Daemon, error) {
	d := &Daemon{}
	g, err := Open(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	d.Game = g
	if _, err := g.Ensure(ctx); err != nil {
		g.Close()
		return nil, err
	}
	imapEP, smtpEP := cfg.IMAPEndpoint(), cfg.SMTPEndpoint()
	if cfg.Mail.Mode == config.ModeEmbedded {
		var accounts []mailserver.Account
		for _, a := range cfg.Mail.Embedded.Accounts {
			pw, err := a.Secret.Value()
			if err != nil {
				g.Close()
				return nil, fmt.Errorf("mail.embedded.accounts %s: %w", a.User, err)
			}
			accounts = append(accounts, mailserver.Account{User: a.User, Password: pw.Reveal()})
		}
		ms, err := mailserver.New(&mailserver.Options{
			Dir:      filepath.Join(cfg.Path(cfg.DataDir), "mail"),
			Domain:   cfg.Mail.Embedded.Domain,
			IMAPAddr: cfg.Mail.Embedded.IMAPListen,
			SMTPAddr: cfg.Mail.Embedded.SMTPListen,
			Accounts: accounts,
			Logger:   g.Log.With("part", "mailserver"),
		})
		if err != nil {
			g.Close()
			return nil, err
		}
		if err := ms.Start(ctx); err != nil {
			g.Close()
			return nil, fmt.Errorf("starting the embedded mail server: %w", err)
		}
		d.Mail = ms
		// Listening on port 0 (tests) gives a port only known now.
		imapEP.Host, imapEP.Port = splitAddr(ms.IMAPAddr())
		smtpEP.Host, smtpEP.Port = splitAddr(ms.SMTPAddr())
	}
	oo := outbox.FromConfig(cfg)
	oo.Server = smtpEP
	oo.Logger = g.Log.With("part", "outbox")
	if opts != nil && opts.Now != nil {
		oo.Now = opts.Now
	}
	if cfg.Mail.Mode == config.ModeEmbedded {
		oo.RatePerMinute = embeddedRate
	}
	d.Outbox = outbox.New(g.DB, oo)

	io, err := inbox.OptionsFromConfig(cfg)
	if err != nil {
		d.Close()
		return nil, err
	}
	// On the embedded server the port is the one bound (0 in tests).
	io.Addr = net.JoinHostPort(imapEP.Host, strconv.Itoa(imapEP.Port))
	io.Logger = g.Log.With("part", "intake")
	io.Handler = func(ctx context.Context, m store.Mail) error {
		err := g.HandleMail(ctx, m)
		d.Outbox.Wake()
		return err
	}
	if opts != nil && opts.Now != nil {
		io.Now = opts.Now
	}
	d.Intake = inbox.New(g.DB, io)
	return d, nil
}

// Run serves until ctx ends: the intake and the outbox side by side. It
// returns nil on a clean stop.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, run := range []func(context.Context) error{d.Outbox.Run, d.Intake.Run} {
		wg.Add(1)
		go func() {
			defer wg.Done()
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

// Close stops the mail server and closes the store.
func (d *Daemon) Close() error {
	var errs []error
	if d.Mail != nil {
		errs = append(errs, d.Mail.Close())
	}
	if d.Game != nil {
		errs = append(errs, d.Game.Close())
	}
	return errors.Join(errs...)
}

func splitAddr(addr string) (string, int) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	n, _ := strconv.Atoi(p)
	return h, n
}
