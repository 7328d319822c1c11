//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/internal/imaptest"
)

// initForDovecotWith is initForDovecot with more "pbem init" flags.
func initForDovecotWith(t *testing.T, d *imaptest.Dovecot, r *relay, mailPassword string, flags ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "game")
	t.Setenv("PBEM_MAIL_PASSWORD", mailPassword)
	args := append([]string{"init", "--provider", "generic", "--address", doctorGame, "--referee", doctorReferee,
		"--imap", d.IMAPAddr(), "--smtp", r.addr, "--security", "none"}, flags...)
	code, out, errs := run(t, "", append(args, dir)...)
	if code != exitOK {
		t.Fatalf("pbem init: exit %d\n%s%s", code, out, errs)
	}
	return filepath.Join(dir, "config.yaml")
}

var relayingDenied = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relaying denied"}

// TestDoctorSaysWhichAddressWasRefused: a server refusing the recipient
// (the referee's placeholder address) is reported as the recipient's
// refusal, naming game.referee, not as a sender the account may not use;
// the placeholder was flagged before connecting; both exit 3. A refused
// sender names mail.address.
func TestDoctorSaysWhichAddressWasRefused(t *testing.T) {
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{Users: map[string]string{doctorGame: doctorPass}})
	r := startRelay(t, d)
	r.refuse = func(step, addr string) error {
		if step == "to" && strings.HasSuffix(addr, "@example.org") {
			return relayingDenied
		}
		return nil
	}
	cfg := initForDovecotWith(t, d, r, doctorPass, "--referee", "referee@example.org")
	code, out, errs := run(t, "", "--config", cfg, "doctor")
	if code != exitConfig {
		t.Fatalf("pbem doctor: exit %d, want %d\n%s%s", code, exitConfig, out, errs)
	}
	l := doctorLine(out, "test message")
	if !strings.Contains(l, "FAIL") || !strings.Contains(l, "refused the recipient referee@example.org (game.referee, the referee)") || !strings.Contains(l, "Relaying denied") {
		t.Errorf("the test message line is %q\n%s", l, out)
	}
	if strings.Contains(out, "mail.address is an address the account may send from") {
		t.Errorf("a refused recipient blamed on the sender:\n%s", out)
	}
	if !strings.Contains(out, "→ referee@example.org is the example address pbem init wrote: put the referee's real address in game.referee.") {
		t.Errorf("no fix naming game.referee:\n%s", out)
	}
	if p, c := strings.Index(out, "placeholders"), strings.Index(out, "imap connect"); p < 0 || c < p || !strings.Contains(doctorLine(out, "placeholders"), "game.referee referee@example.org") {
		t.Errorf("the placeholder referee is not flagged before connecting:\n%s", out)
	}

	r.refuse = func(step, addr string) error {
		if step == "from" {
			return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Sender address rejected: not owned by user"}
		}
		return nil
	}
	cfg = initForDovecotWith(t, d, r, doctorPass)
	code, out, _ = run(t, "", "--config", cfg, "doctor")
	if l := doctorLine(out, "test message"); code != exitConfig || !strings.Contains(l, "refused the sender "+doctorGame+" (mail.address)") {
		t.Errorf("refused sender: exit %d, line %q\n%s", code, l, out)
	}

	// A temporary refusal is the server's (exit 4).
	r.refuse = func(step, addr string) error {
		if step == "to" {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
		}
		return nil
	}
	code, out, _ = run(t, "", "--config", cfg, "doctor")
	if l := doctorLine(out, "test message"); code != exitFailure || !strings.Contains(l, "failed") || !strings.Contains(out, "temporary failure") {
		t.Errorf("temporary refusal: exit %d, line %q\n%s", code, l, out)
	}
}
