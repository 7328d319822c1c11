package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/emersion/go-msgauth/authres"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/mailconn"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// The router of a host whose order address is at an external provider
// (extmail.go). It reads the shared INBOX with an inbox.Filer (one IMAP
// connection) and, for each mail, asks the same router as the embedded
// server's (router.go) which game it is for: its GAME line, else its
// plus-address (orders+NAME@, from the To, Delivered-To or X-Original-To
// header the provider kept), else the sender's only game. The mail is
// then moved, unchanged, into the game's folder; the game's intake reads
// it there exactly as a mail sent to its own address, and believes only
// the provider's stamp (game.auth_serv_id = mail.external.auth_serv_id).
//
// Crash safety is the Filer's: a mail leaves the INBOX only by one IMAP
// MOVE, so it is never lost and never filed twice; a mail whose MOVE had
// not happened when the host was killed is filed again at the next start.
// An answer the router sends (a mail for no game; a mail over a game's
// limits) is queued in the router's own outbox (data/router.db) before
// the MOVE, with a Message-ID made from the mail answered: filed again,
// the same answer is queued again and the outbox keeps it once.
//
// The router answers only a sender the provider's stamp vouches for (it
// logged in to the provider as the From address, or a DKIM signature of
// the From domain passed): a forged From is filed, not answered.

// extMail is a running external router.
type extMail struct {
	db     *store.DB
	out    *outbox.Outbox
	filer  *inbox.Filer
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startExternal starts the router of a host whose address is at a
// provider: its outbox and its filer, until Close.
func (h *Host) startExternal(ctx context.Context) error {
	s := h.settings
	e := s.Mail.External
	pw, err := s.externalPassword(h.Dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(h.Dir, "data"), 0o700); err != nil {
		return err
	}
	db, err := store.Open(filepath.Join(h.Dir, "data", "router.db"), nil)
	if err != nil {
		return fmt.Errorf("the router's store: %w", err)
	}
	x := &extMail{db: db}
	x.out = outbox.New(db, &outbox.Options{
		Server: outbox.Server{Host: e.SMTPHost, Port: e.smtpPort(), Security: e.smtpSecurity(),
			Username: s.externalUser(), Password: mailconn.Password(pw)},
		HelloName:  domainOf(s.Mail.Address),
		ReportFrom: mail.Address{Name: "pbem host", Address: s.Mail.Address},
		Logger:     h.log.With("part", "router-outbox"),
	})
	log := h.log.With("part", "router")
	x.filer = inbox.NewFiler(&inbox.Options{
		Addr:     net.JoinHostPort(e.IMAPHost, strconv.Itoa(e.imapPort())),
		Security: e.imapSecurity(),
		Username: s.externalUser(),
		Password: mailconn.Password(pw),
		Mailbox:  inbox.DefaultMailbox,
		Logger:   log,
	}, func(ctx context.Context, raw []byte, tooLarge bool) (string, error) {
		return h.fileExternal(ctx, x, raw, tooLarge)
	})
	if err := x.filer.Check(ctx); err != nil {
		db.Close()
		return fmt.Errorf("reading the shared mailbox: %w (check mail.external's imap_host, imap_port, imap_security, username and password_file)", err)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	x.cancel = cancel
	x.wg.Add(2)
	go func() {
		defer x.wg.Done()
		if err := x.out.Run(runCtx); err != nil && runCtx.Err() == nil {
			log.Error("the router's outbox stopped", "err", err)
		}
	}()
	go func() {
		defer x.wg.Done()
		if err := x.filer.Run(runCtx); err != nil {
			log.Error("the router stopped: mail to the host's address is not filed", "err", err)
		}
	}()
	h.ext = x
	return nil
}

// close stops the router and waits for it.
func (x *extMail) close() {
	x.cancel()
	x.wg.Wait()
	x.db.Close()
}

// fileExternal decides the folder of one mail of the shared INBOX, and
// queues the answer, if any, before the mail is moved.
func (h *Host) fileExternal(ctx context.Context, x *extMail, raw []byte, tooLarge bool) (string, error) {
	h.mu.Lock()
	s := h.settings
	h.mu.Unlock()
	ex, _ := inbox.Extract(raw, inbox.Limits{OwnAddresses: []string{s.Mail.Address}})
	r := h.router
	req := mailserver.RouteRequest{User: r.hostUser, Size: int64(len(raw)), Message: raw}
	if tooLarge {
		req.Message, req.Size = nil, inbox.DefaultMaxRawBytes+1
	}
	// Answered: only a person the provider vouches for, never a mail
	// program (a vacation reply, a bounce: answering it could loop).
	vouched := ex != nil && vouchedSender(ex, s.Mail.External.AuthServID) && !strings.EqualFold(ex.From, s.Mail.Address)
	if vouched {
		if auto, _ := ex.IsAutomatic(); auto {
			vouched = false
		}
	}
	if vouched {
		req.Sender = ex.From
	}
	if user := plusUser(raw, r.hostUser); user != "" && r.hasAccount(user) {
		req.User = user // a plus-address of no game (a typo) is routed as the host's address
	}
	d := r.Route(req)
	switch {
	case d.Refuse != nil:
		if vouched {
			if err := h.answer(ctx, x, s, ex, "refused", "Your mail was not passed to the game", d.Refuse.Message+".\n\nYour mail has not been passed to the game."); err != nil {
				return "", err
			}
		}
		return RefusedFolder, nil
	case d.User != "" && d.User != r.hostUser:
		name := strings.TrimPrefix(d.User, r.hostUser+"+")
		return GameFolder(name), nil
	}
	if vouched && ex != nil {
		_, why, mine := r.decide(strings.ToLower(ex.From), ex)
		subject, text := r.replyText(strings.ToLower(ex.From), ex, why, mine)
		if err := h.answer(ctx, x, s, ex, "which-game", subject, text); err != nil {
			return "", err
		}
	}
	return UnroutedFolder, nil
}

// answer queues the router's answer to the mail ex, keyed by its
// Message-ID so that queueing it again (after a crash) sends it once.
func (h *Host) answer(ctx context.Context, x *extMail, s *Settings, ex *inbox.Extracted, kind, subject, text string) error {
	key := ex.MessageID
	if key == "" {
		key = ex.From + " " + ex.Subject
	}
	m := outbox.Message{Turn: -1, Kind: "route-" + kind, Key: key, Priority: outbox.PriorityAnswer,
		From: mail.Address{Address: s.Mail.Address}, To: []mail.Address{{Address: ex.From}},
		Subject: subject, Date: ex.Date, InReplyTo: ex.MessageID, Text: text}
	if m.Date.IsZero() {
		m.Date = h.opts.Now().UTC().Truncate(24 * 3600e9) // the same bytes when queued again the same day
	}
	if _, err := x.out.Enqueue(ctx, m); err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("queueing the router's answer: %w", err)
	}
	return nil
}

// plusUser is the account local part (orders+NAME) of a plus-address of
// the host's address the mail was sent to, "" when none: the provider
// delivers orders+NAME@ into the orders@ mailbox and keeps the address in
// Delivered-To, X-Original-To or To.
func plusUser(raw []byte, hostUser string) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	for _, key := range []string{"Delivered-To", "X-Original-To", "To", "Cc"} {
		for _, v := range m.Header[textproto.CanonicalMIMEHeaderKey(key)] {
			list, err := mail.ParseAddressList(v)
			if err != nil {
				continue
			}
			for _, a := range list {
				local, _, _ := strings.Cut(strings.ToLower(a.Address), "@")
				if strings.HasPrefix(local, hostUser+"+") {
					return local
				}
			}
		}
	}
	return ""
}

// vouchedSender reports whether the provider's own stamp — the topmost
// Authentication-Results header, with its authserv-id — says the From
// address logged in to send the mail (smtp.auth) or a DKIM signature of
// the From domain passed. Headers below it may be the sender's forgeries
// and are not read.
func vouchedSender(ex *inbox.Extracted, servID string) bool {
	if servID == "" || len(ex.AuthenticationResults) == 0 || ex.From == "" {
		return false
	}
	id, results, _ := authres.Parse(ex.AuthenticationResults[0])
	if !strings.EqualFold(strings.TrimSpace(id), servID) {
		return false
	}
	_, fromDomain, _ := strings.Cut(strings.ToLower(ex.From), "@")
	for _, res := range results {
		switch r := res.(type) {
		case *authres.AuthResult:
			if r.Value == authres.ResultPass && strings.EqualFold(r.Auth, ex.From) {
				return true
			}
		case *authres.DKIMResult:
			d := strings.ToLower(r.Domain)
			if d == "" {
				_, d, _ = strings.Cut(strings.ToLower(r.Identifier), "@")
			}
			if r.Value == authres.ResultPass && d != "" && (d == fromDomain || strings.HasSuffix(fromDomain, "."+d)) {
				return true
			}
		}
	}
	return false
}

func domainOf(addr string) string {
	_, d, _ := strings.Cut(addr, "@")
	return d
}

// tellRefereeExternal mails a held game's referee, through the provider,
// that the game is held, and why (tellReferee's words).
func (h *Host) tellRefereeExternal(name, referee string, cause error) {
	now := h.opts.Now()
	m := outbox.Message{Game: name, Turn: -1, Kind: "held", Key: strconv.FormatInt(now.UnixNano(), 10),
		From: mail.Address{Name: "pbem host", Address: h.Address()}, To: []mail.Address{{Address: referee}},
		Subject: fmt.Sprintf("[%s] game %s is held: the host stopped serving it", name, name), Date: now,
		Text: fmt.Sprintf("The host stopped serving game %s after this failure:\n\n  %s\n\n"+
			"The host's other games carry on. Mail to the game waits in its folder (%s) at the provider; nothing of the game\n"+
			"was changed by the failure (what was not committed is done again when it runs). Look at the host's log\n"+
			"(game=%s), fix the cause, then start the game again: pbem host start %s\n",
			name, strings.ReplaceAll(cause.Error(), "\n", "\n  "), GameFolder(name), name, name)}
	if _, err := h.ext.out.Enqueue(context.Background(), m); err != nil {
		h.log.Error("telling the referee that the game is held", "game", name, "err", err)
	}
}
