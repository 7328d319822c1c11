package daemon

import (
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
)

// The intake and the outbox take their own small options and know nothing
// of the config: the daemon builds them from it here.

// intakeOptions are the intake's options the config asks for: the IMAP
// endpoint (the embedded server in mode embedded), its password,
// mail.imap's mailbox, processed mailbox, poll interval and IDLE switch,
// and the game address as the one X-Loop marks as ours. The caller sets
// Handler and Logger.
func intakeOptions(c *config.Config) (*inbox.Options, error) {
	ep := c.IMAPEndpoint()
	pw, err := ep.Password.Value()
	if err != nil {
		return nil, fmt.Errorf("inbox: IMAP password: %w", err)
	}
	i := c.Mail.IMAP
	return &inbox.Options{
		Addr:             net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port)),
		Security:         ep.Security,
		Username:         ep.Username,
		Password:         pw,
		Mailbox:          i.Mailbox,
		ProcessedMailbox: i.ProcessedMailbox,
		PollInterval:     i.PollInterval,
		DisableIDLE:      !i.IDLE,
		Limits:           inbox.Limits{OwnAddresses: []string{c.Mail.Address}},
	}, nil
}

// outboxOptions are the outbox's options the config asks for: the SMTP
// endpoint (embedded or external), the rate, attempts and backoff of
// mail.smtp, the referee as game.referee, and failure reports sent from
// mail.address under the game's name. Now, Sleep, Dial, Logger and
// TLSConfig are left to their defaults.
func outboxOptions(c *config.Config) *outbox.Options {
	s := c.Mail.SMTP
	hello := outbox.DefaultHelloName
	if _, d, ok := strings.Cut(c.Mail.Address, "@"); ok && d != "" {
		hello = d
	}
	return &outbox.Options{
		Server:         smtpServer(c.SMTPEndpoint()),
		HelloName:      hello,
		RatePerMinute:  s.RatePerMinute,
		MaxAttempts:    s.MaxAttempts,
		BackoffInitial: s.BackoffInitial,
		BackoffMax:     s.BackoffMax,
		Referee:        c.Game.Referee,
		ReportFrom:     mail.Address{Name: c.Game.Name, Address: c.Mail.Address},
	}
}

// smtpServer is the outbox's view of a config endpoint: its password is
// read at every pass (a password file changed on disk counts).
func smtpServer(ep config.Endpoint) outbox.Server {
	return outbox.Server{Host: ep.Host, Port: ep.Port, Security: ep.Security, Username: ep.Username, Password: ep.Password}
}

// policyFromConfig is the sender-authentication policy the config gives:
// registered addresses, referee, game.require_dkim and game.auth_serv_id.
func policyFromConfig(c *config.Config) inbox.AuthPolicy {
	p := inbox.AuthPolicy{
		Nations:     map[string][]string{},
		Referee:     c.Game.Referee,
		RequireDKIM: c.Game.RequireDKIM,
		AuthServID:  c.Game.AuthServID,
	}
	for _, id := range c.NationIDs() {
		p.Nations[id] = append([]string(nil), c.Game.Nations[id].Addresses...)
	}
	return p
}
