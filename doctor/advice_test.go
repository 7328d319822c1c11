package doctor

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeDNS resolves only the names in ok; the rest are not found.
func fakeDNS(ok ...string) func(context.Context, string) ([]string, error) {
	return func(_ context.Context, host string) ([]string, error) {
		for _, h := range ok {
			if h == host {
				return []string{"192.0.2.1"}, nil
			}
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
}

// TestUnresolvableHosts: a provider preset's host that cannot be resolved
// is a network/DNS problem (exit 4) and never "Check mail.imap.host"; so
// is any host when no name resolves at all; a host that is not found while
// other names resolve is misspelt, a config fix (exit 3).
func TestUnresolvableHosts(t *testing.T) {
	for _, tc := range []struct {
		name, host string
		dns        func(context.Context, string) ([]string, error)
		class      int
		text, fix  string
	}{
		{"preset host, DNS down", "imap.gmail.com", fakeDNS(), ClassRuntime,
			"cannot resolve imap.gmail.com (Gmail's server, the right name)", "A network or DNS problem on this machine, not in the config"},
		{"preset host, only it fails", "smtp.fastmail.com", fakeDNS("imap.gmail.com", "imap.fastmail.com"), ClassRuntime,
			"cannot resolve smtp.fastmail.com (Fastmail's server", "A network or DNS problem"},
		{"own host, nothing resolves", "mail.mygame.test", fakeDNS(), ClassRuntime,
			"cannot resolve mail.mygame.test, and no other name resolves either", "A network or DNS problem on this machine"},
		{"misspelt host", "imap.gmial.com", fakeDNS("imap.gmail.com"), ClassConfig,
			"there is no host imap.gmial.com (other names resolve)", "Check mail.imap.host: the name is misspelt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := externalConfigAt(t, tc.host, 993, 465, "pbem.example")
			lines := Run(context.Background(), cfg, &Options{NoSend: true, LookupHost: tc.dns}, nil)
			l := lineOf(lines, "imap connect")
			if l.Status != Fail || l.Class != tc.class || !strings.Contains(l.Text, tc.text) || !strings.Contains(l.Fix, tc.fix) {
				t.Errorf("imap connect: %+v\nwant class %d, text %q, fix %q", l, tc.class, tc.text, tc.fix)
			}
			if tc.class == ClassRuntime && strings.HasPrefix(l.Fix, "Check mail.imap.host") {
				t.Errorf("a network failure blamed on the config: %s", l.Fix)
			}
			if got := ExitCode(lines); got != tc.class {
				t.Errorf("exit code %d, want %d", got, tc.class)
			}
		})
	}
}

// TestPlaceholdersFlaggedBeforeConnecting: example addresses and hosts and
// the mail password placeholder are failures (exit 3) found before any
// connection; players' example addresses are a warning.
func TestPlaceholdersFlaggedBeforeConnecting(t *testing.T) {
	cfg := externalConfigAt(t, "imap.example.org", 993, 465, "example.org")
	pwFile := filepath.Join(t.TempDir(), "mail.txt")
	os.WriteFile(pwFile, []byte(placeholderPrefix+"THE-MAIL-ACCOUNTS-APP-PASSWORD\n"), 0o600)
	cfg.Mail.IMAP.Secret.PasswordEnv, cfg.Mail.IMAP.Secret.PasswordFile = "", pwFile
	lookups := 0
	dns := func(ctx context.Context, host string) ([]string, error) {
		lookups++
		return fakeDNS("imap.gmail.com")(ctx, host)
	}
	var out strings.Builder
	lines := Run(context.Background(), cfg, &Options{NoSend: true, LookupHost: dns}, &out)
	l := lineOf(lines, "placeholders")
	for _, want := range []string{"game.referee referee@example.org", "mail.address orders@example.org", "mail.imap.host imap.example.org", "mail.smtp.host imap.example.org"} {
		if l.Status != Fail || l.Class != ClassConfig || !strings.Contains(l.Text, want) {
			t.Errorf("placeholders line lacks %q: %+v", want, l)
		}
	}
	if l := lineOf(lines, "mail password"); l.Status != Fail || !strings.Contains(l.Text, pwFile+" still holds the placeholder") {
		t.Errorf("mail password: %+v", l)
	}
	if l := lineOf(lines, "player addresses"); l.Status != Warn || !strings.Contains(l.Text, "eisenmark e@example.org") {
		t.Errorf("player addresses: %+v", l)
	}
	// The placeholder lines come before the first connection.
	if i, j := strings.Index(out.String(), "placeholders"), strings.Index(out.String(), "imap connect"); i < 0 || j < i {
		t.Errorf("the placeholders are not flagged before connecting:\n%s", out.String())
	}
	if got := ExitCode(lines); got != ClassConfig {
		t.Errorf("exit code %d, want 3", got)
	}

	// A config with real values has none of these lines failing.
	cfg = externalConfigAt(t, "127.0.0.1", 1, 1, "pbem.example")
	lines = Run(context.Background(), cfg, &Options{NoSend: true}, nil)
	if l := lineOf(lines, "placeholders"); l.Status != OK {
		t.Errorf("placeholders for a real config: %+v", l)
	}
	if l := lineOf(lines, "player addresses"); l.Check != "" {
		t.Errorf("player addresses for a real config: %+v", l)
	}
}
