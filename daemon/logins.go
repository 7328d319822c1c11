package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// Logins is what "pbem run" finds when it logs in to the mail servers at
// start (Daemon.CheckLogins): nil errors when the login worked.
type Logins struct {
	IMAP, SMTP error
	// IMAPRefused and SMTPRefused are set when the server refused the login
	// itself (a wrong user or password), rather than could not be reached.
	IMAPRefused, SMTPRefused bool
	IMAPUser, SMTPUser       string // the accounts tried
	IMAPAddr, SMTPAddr       string // and where
}

// Fatal reports whether neither server can be logged in to: the game could
// neither read nor send mail, and "pbem run" stops rather than pretend.
func (l Logins) Fatal() bool { return l.IMAP != nil && l.SMTP != nil }

// CheckLogins logs in to the IMAP and the SMTP server once, reading and
// sending nothing, so that wrong credentials are loud at start: each failure
// is recorded as the intake's or the outbox's health ("pbem status" shows
// it), logged at error level, and told to the referee by mail when SMTP
// works and IMAP does not (once per distinct error).
func (d *Daemon) CheckLogins(ctx context.Context) Logins {
	g := d.Game
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	l := Logins{IMAPUser: d.intakeOpts.Username, IMAPAddr: d.intakeOpts.Addr}
	ep := g.Config.SMTPEndpoint()
	l.SMTPUser = ep.Username
	if d.Mail != nil {
		l.SMTPAddr = d.Mail.SMTPAddr()
	} else {
		l.SMTPAddr = fmt.Sprintf("%s:%d", ep.Host, ep.Port)
	}
	l.IMAP = inbox.CheckLogin(cctx, d.intakeOpts)
	l.IMAPRefused = errors.Is(l.IMAP, inbox.ErrLoginRefused)
	l.SMTP = d.Outbox.CheckLogin(cctx)
	var oe *outbox.Error
	l.SMTPRefused = errors.As(l.SMTP, &oe) && oe.Stage == outbox.StageAuth && oe.Code != 0
	if l.IMAP != nil {
		g.Log.Error("cannot log in to the game's mailbox", "server", l.IMAPAddr, "user", l.IMAPUser, "err", l.IMAP)
		g.noteIntake(ctx, false, l.IMAP.Error(), g.Now())
	}
	if l.SMTP != nil {
		g.Log.Error("cannot log in to the SMTP server", "server", l.SMTPAddr, "user", l.SMTPUser, "err", l.SMTP)
	}
	if l.IMAP != nil && l.SMTP == nil {
		g.tellLogin(ctx, l)
		d.Outbox.Wake()
	}
	return l
}

// tellLogin mails the referee that pbem cannot read the game's mailbox,
// once per distinct error.
func (g *Game) tellLogin(ctx context.Context, l Logins) {
	ref := g.Config.Game.Referee
	if ref == "" {
		return
	}
	sum := sha256.Sum256([]byte(l.IMAP.Error()))
	key := hex.EncodeToString(sum[:8])
	if told, err := g.DB.NoticeQueued(ctx, g.ID(), store.NoticeLogin, key); err != nil || told {
		return
	}
	st, err := g.State(ctx)
	if err != nil {
		return
	}
	what := "cannot reach it"
	if l.IMAPRefused {
		what = "the server refused the login: check mail.imap.username and the password (an app password, for Gmail and Fastmail)"
	}
	text := fmt.Sprintf("pbem started at %s but cannot read the game's mailbox (%s as %s): %s.\n\n  %v\n\n"+
		"Players' sheets are not read, and no turn is resolved at its deadline, until this is fixed (the\n"+
		"turn waits for the mail that reached the server before it). Fix the config and restart pbem run;\n"+
		"\"pbem status\" shows the intake's state.\n", g.showTime(g.Now()), l.IMAPAddr, l.IMAPUser, what, l.IMAP)
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		msg := g.message(MailNotice, "referee", st.Turn, "imap-login."+key, []string{ref},
			fmt.Sprintf("[%s] pbem cannot read the game's mailbox", g.ID()), text, g.Now())
		if err := g.enqueue(ctx, tx, msg); err != nil {
			return err
		}
		return tx.MarkNoticeQueued(ctx, g.ID(), store.NoticeLogin, key, g.Now())
	})
	if err != nil {
		g.Log.Error("could not queue the login notice to the referee", "err", err)
	}
}
