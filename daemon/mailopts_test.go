package daemon

import (
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
)

// TestOutboxOptions: the config's SMTP settings, referee and game address
// become the outbox's options.
func TestOutboxOptions(t *testing.T) {
	t.Parallel()
	c := config.Default()
	c.Mail.Mode = config.ModeExternal
	c.Mail.SMTP.Host = "smtp.example.org"
	c.Mail.SMTP.Security = config.SecuritySTARTTLS
	c.Mail.SMTP.Username = "orders@example.org"
	c.Mail.SMTP.RatePerMinute = 12
	o := outboxOptions(c)
	if o.Server.Host != "smtp.example.org" || o.Server.Port != 587 || o.RatePerMinute != 12 || o.MaxAttempts != 8 ||
		o.BackoffInitial != 30*time.Second || o.Referee != c.Game.Referee || o.ReportFrom.Address != c.Mail.Address ||
		o.HelloName != "pbem.localhost" {
		t.Errorf("outboxOptions = %+v", o)
	}
}

// TestPolicyFromConfig: the registered addresses, the referee,
// game.require_dkim and game.auth_serv_id become the intake's policy.
func TestPolicyFromConfig(t *testing.T) {
	t.Parallel()
	c := config.Default()
	c.Game.Referee = "ref@pbem.example"
	c.Game.RequireDKIM = true
	c.Game.AuthServID = "mx.google.com"
	c.Game.Nations = map[string]config.Nation{"prussia": {Addresses: []string{"fritz@example.org"}}}
	p := policyFromConfig(c)
	if p.Referee != "ref@pbem.example" || !p.RequireDKIM || p.AuthServID != "mx.google.com" ||
		len(p.Nations["prussia"]) != 1 {
		t.Errorf("policy %+v", p)
	}
}

// TestIntakeOptions: the IMAP endpoint, its password, mail.imap's
// mailboxes, poll interval and IDLE switch, and the game's address become
// the intake's options.
func TestIntakeOptions(t *testing.T) {
	t.Parallel()
	c := config.Default()
	c.Mail.Mode = config.ModeExternal
	c.Mail.IMAP.Host = "imap.example.org"
	c.Mail.IMAP.Security = config.SecurityTLS
	c.Mail.IMAP.Username = "orders@example.org"
	c.Mail.IMAP.Secret = config.Secret{Password: "app-password"}
	c.Mail.IMAP.IDLE = false
	o, err := intakeOptions(c)
	if err != nil {
		t.Fatal(err)
	}
	if o.Addr != "imap.example.org:993" || o.Security != config.SecurityTLS || o.Password.Reveal() != "app-password" ||
		o.Username != "orders@example.org" || !o.DisableIDLE || len(o.Limits.OwnAddresses) != 1 || o.Limits.OwnAddresses[0] != c.Mail.Address {
		t.Errorf("intakeOptions = %+v", o)
	}
}
