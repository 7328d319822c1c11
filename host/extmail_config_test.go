package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/inbox"
)

// host.yaml's mail.external is checked at once, each problem with its line
// and what to do.
func TestExternalSettingsErrorsSayTheLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	yaml := `mail:
  address: orders@club.example
  external:
    imap_host: imap.provider.example
    imap_security: plain
    smtp_host: ""
    smtp_port: 70000
    password_file: ""
games: {}
`
	if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadSettings(dir)
	if err == nil {
		t.Fatal("a broken mail.external was taken")
	}
	for _, want := range []string{
		`line 5: mail.external.imap_security: "plain": expected tls, starttls or none`,
		"line 6: mail.external.smtp_host: missing",
		"line 7: mail.external.smtp_port: 70000 is not a port",
		"line 8: mail.external.password_file: missing",
		"line 3: mail.external.auth_serv_id: missing: give the authserv-id",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}

	// Unknown keys are refused as everywhere in host.yaml.
	if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(strings.Replace(yaml, "imap_host:", "imap_hots:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSettings(dir); err == nil || !strings.Contains(err.Error(), "imap_hots") {
		t.Errorf("an unknown key in mail.external: %v", err)
	}

	// No clear-text password beyond loopback.
	ok := strings.NewReplacer("imap_security: plain", "imap_security: none", `smtp_host: ""`, "smtp_host: smtp.provider.example",
		"smtp_port: 70000", "smtp_port: 587", `password_file: ""`, "password_file: secrets/provider.txt").Replace(yaml)
	ok = strings.Replace(ok, "games: {}", "    auth_serv_id: mx.provider.example\ngames: {}", 1)
	if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSettings(dir); err == nil || !strings.Contains(err.Error(), "line 5: mail.external.imap_security: none is allowed only to a loopback address") {
		t.Errorf("security none to a remote host: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(strings.Replace(ok, "imap_security: none", "imap_security: tls", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSettings(dir); err != nil {
		t.Errorf("a good mail.external was refused: %v", err)
	}
}

// The router answers only a sender the provider's own stamp vouches for.
func TestExternalRouterAnswersOnlyWhomTheProviderVouchesFor(t *testing.T) {
	t.Parallel()
	mk := func(headers string) *inbox.Extracted {
		ex, err := inbox.Extract([]byte(headers+"From: a@club.example\r\nSubject: x\r\n\r\nGAME nosuch\r\n"), inbox.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return ex
	}
	for _, c := range []struct {
		name, headers string
		want          bool
	}{
		{"logged in", "Authentication-Results: mx.provider; auth=pass smtp.auth=a@club.example\r\n", true},
		{"DKIM of the From domain", "Authentication-Results: mx.provider; dkim=pass header.d=club.example\r\n", true},
		{"DKIM of another domain", "Authentication-Results: mx.provider; dkim=pass header.d=evil.example\r\n", false},
		{"another login", "Authentication-Results: mx.provider; auth=pass smtp.auth=b@club.example\r\n", false},
		{"another server's stamp", "Authentication-Results: mx.evil; auth=pass smtp.auth=a@club.example\r\n", false},
		{"a forgery below the provider's", "Authentication-Results: mx.provider; dkim=fail header.d=club.example\r\nAuthentication-Results: mx.provider; dkim=pass header.d=club.example\r\n", false},
		{"no stamp", "", false},
	} {
		if got := vouchedSender(mk(c.headers), "mx.provider"); got != c.want {
			t.Errorf("%s: vouched %v, want %v", c.name, got, c.want)
		}
	}
}

// The plus-address is read from the headers the provider keeps.
func TestExternalRouterReadsThePlusAddress(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"To: orders+alpha@club.example\r\n\r\nx":                                      "orders+alpha",
		"Delivered-To: orders+bravo@club.example\r\nTo: orders@club.example\r\n\r\nx": "orders+bravo",
		"To: Someone <someone@club.example>, orders+Alpha@club.example\r\n\r\nx":      "orders+alpha",
		"To: orders@club.example\r\n\r\nx":                                            "",
		"To: ordersx+alpha@club.example\r\n\r\nx":                                     "",
		"To: not an address\r\n\r\nx":                                                 "",
	} {
		if got := plusUser([]byte(raw), "orders"); got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
}

// FuzzExternalRouterHeaders reads any mail's stamp and recipients without
// a panic.
func FuzzExternalRouterHeaders(f *testing.F) {
	f.Add([]byte("Authentication-Results: mx.provider; auth=pass smtp.auth=a@b\r\nFrom: a@b\r\nTo: orders+x@b\r\n\r\nGAME x\r\n"))
	f.Add([]byte("Authentication-Results: ;;;\r\nFrom: \r\nTo: ,,,\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		plusUser(raw, "orders")
		if ex, err := inbox.Extract(raw, inbox.Limits{}); err == nil && ex != nil {
			vouchedSender(ex, "mx.provider")
			gameLine(ex)
		}
	})
}
