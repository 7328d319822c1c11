package doctor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/config"
)

// sendError is a refusal of the test message at one step: the sender
// (MAIL FROM), one recipient (RCPT TO) or the message (DATA).
type sendError struct {
	step string // "sender", "recipient", "message"
	addr string // the address refused ("" for the message)
	err  error
}

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// sendTest sends the test message step by step, so that a refusal says
// which address the server refused.
func sendTest(c *smtp.Client, cfg *config.Config, rcpts []string, raw []byte) error {
	if err := c.Mail(cfg.Mail.Address, nil); err != nil {
		return &sendError{"sender", cfg.Mail.Address, err}
	}
	for _, to := range rcpts {
		if err := c.Rcpt(to, nil); err != nil {
			return &sendError{"recipient", to, err}
		}
	}
	w, err := c.Data()
	if err != nil {
		return &sendError{"message", "", err}
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return &sendError{"message", "", err}
	}
	if err := w.Close(); err != nil {
		return &sendError{"message", "", err}
	}
	return nil
}

// sendProblem turns a refused test message into a line's text, fix and
// class: a permanent refusal (5xx) of an address is fixed in the config
// (exit 3); a temporary one (4xx) or a broken connection is the service's
// (exit 4).
func sendProblem(cfg *config.Config, err error) (string, string, int) {
	var se *sendError
	if !errors.As(err, &se) {
		return fmt.Sprintf("sending from %s to %s: %v", cfg.Mail.Address, cfg.Game.Referee, err), "Check the network and run pbem doctor again.", ClassRuntime
	}
	var smtpErr *smtp.SMTPError
	permanent := errors.As(err, &smtpErr) && smtpErr.Code >= 500
	if !permanent {
		what := "the message"
		if se.addr != "" {
			what = fmt.Sprintf("the %s %s", se.step, se.addr)
		}
		return fmt.Sprintf("sending from %s to %s: %s failed: %v", cfg.Mail.Address, cfg.Game.Referee, what, err),
			"A temporary failure of the server or the network: run pbem doctor again later.", ClassRuntime
	}
	switch se.step {
	case "sender":
		return fmt.Sprintf("the server refused the sender %s (mail.address): %v", se.addr, err),
			"Make mail.address an address the account (mail.smtp.username) may send from: usually the account's own address or an alias set up at the provider.", ClassConfig
	case "recipient":
		key, role := "game.referee", "the referee"
		if strings.EqualFold(se.addr, cfg.Mail.Address) && !strings.EqualFold(se.addr, cfg.Game.Referee) {
			key, role = "mail.address", "the game's own address (the copy the DKIM check reads)"
		}
		fix := fmt.Sprintf("Check %s: the server does not deliver to %s.", key, se.addr)
		if isPlaceholderAddress(se.addr) {
			fix = fmt.Sprintf("%s is the example address pbem init wrote: put %s's real address in %s.", se.addr, role, key)
		}
		return fmt.Sprintf("the server refused the recipient %s (%s, %s): %v", se.addr, key, role, err), fix, ClassConfig
	}
	return fmt.Sprintf("the server refused the test message from %s to %s: %v", cfg.Mail.Address, cfg.Game.Referee, err),
		"Read the server's reason above; the message is plain text from mail.address to game.referee.", ClassConfig
}
