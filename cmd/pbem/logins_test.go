//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/internal/imaptest"
)

// TestRunWithWrongPasswordsStops (issue 28, case 4): "pbem run" against a
// provider that refuses both logins says so for each, loudly, and stops
// with the config's exit code instead of running blind.
func TestRunWithWrongPasswordsStops(t *testing.T) {
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: map[string]string{doctorGame: doctorPass}})
	dir := filepath.Join(t.TempDir(), "game")
	t.Setenv("PBEM_MAIL_PASSWORD", "not-the-password")
	code, out, errs := run(t, "", "init", "--provider", "generic", "--address", doctorGame, "--referee", doctorReferee,
		"--imap", p.IMAPAddr(), "--smtp", p.SMTPAddr(), "--security", "none", dir)
	if code != exitOK {
		t.Fatalf("pbem init: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "", "--config", filepath.Join(dir, "config.yaml"), "run")
	if code != exitConfig {
		t.Errorf("pbem run with wrong passwords: exit %d, want %d", code, exitConfig)
	}
	for _, want := range []string{
		"WARNING: cannot log in to the game's mailbox (IMAP " + p.IMAPAddr() + " as " + doctorGame + "): the server REFUSED THE LOGIN",
		"WARNING: cannot log in to the SMTP server (" + p.SMTPAddr() + " as " + doctorGame + "): the server REFUSED THE LOGIN",
		"535",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pbem run's output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "neither the IMAP nor the SMTP server can be logged in to") {
		t.Errorf("pbem run's errors:\n%s", errs)
	}
}
