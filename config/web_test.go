package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebListen: the console listens on loopback by default; beyond it only
// with a certificate and key that can be read; "off" serves none.
func TestWebListen(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(cert, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := "game:\n  nations:\n    eisenmark: {addresses: [e@pbem.localhost], password: pw-eisenmark}\n" +
		"mail:\n  embedded:\n    accounts:\n      - {user: orders@pbem.localhost, password: pw}\n"
	for _, c := range []struct{ web, want string }{
		{"", ""},
		{"web: {listen: off}", ""},
		{"web: {listen: 127.0.0.1:9000}", ""},
		{"web: {listen: \"[::1]:9000\"}", ""},
		{"web: {listen: 0.0.0.0:9000}", "needs TLS"},
		{"web: {listen: \":9000\"}", "needs TLS"},
		{"web: {listen: 0.0.0.0:9000, tls_cert: cert.pem, tls_key: cert.pem}", ""},
		{"web: {listen: 0.0.0.0:9000, tls_cert: cert.pem}", "both"},
		{"web: {listen: 0.0.0.0:9000, tls_cert: cert.pem, tls_key: nosuch.pem}", "cannot be read"},
		{"web: {listen: nonsense}", "not host:port"},
		{"web: {session_hours: 0}", "out of range"},
	} {
		path := filepath.Join(dir, "config.yaml")
		cfg, err := Parse([]byte(base+c.web+"\n"), path)
		if err != nil {
			t.Fatalf("%s: %v", c.web, err)
		}
		var problems []string
		if err := cfg.Validate(); err != nil {
			for _, p := range err.(Problems) {
				if strings.HasPrefix(p.Path, "web.") {
					problems = append(problems, p.String())
				}
			}
		}
		got := strings.Join(problems, "\n")
		switch {
		case c.want == "" && got != "":
			t.Errorf("%q: %s", c.web, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%q: problems %q, want one saying %q", c.web, got, c.want)
		}
	}
	if d := Default(); d.Web.Listen != "127.0.0.1:8026" || !d.WebLoopback() || !d.Web.ConsoleOn() {
		t.Errorf("default web: %+v", d.Web)
	}
}
