package doctor

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/config"
)

// externalConfig is a config for external mail with IMAP on imapPort
// (security tls) and SMTP on smtpPort, on loopback.
func externalConfig(t *testing.T, imapPort, smtpPort int) *config.Config {
	t.Helper()
	return externalConfigAt(t, "127.0.0.1", imapPort, smtpPort, "pbem.example")
}

// externalConfigAt is externalConfig with both servers on host and every
// address in domain.
func externalConfigAt(t *testing.T, host string, imapPort, smtpPort int, domain string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	scen, _ := filepath.Abs("../scenarios/default")
	t.Setenv("PBEM_DOCTOR_TEST_PW", "secret-1")
	text := fmt.Sprintf(`data_dir: data
game:
  scenario: %[1]s
  referee: referee@%[5]s
  nations:
    eisenmark: {addresses: [e@%[5]s], password_env: PBEM_DOCTOR_TEST_PW}
mail:
  mode: external
  address: orders@%[5]s
  imap: {host: %[2]s, port: %[3]d, security: tls, username: orders@%[5]s, password_env: PBEM_DOCTOR_TEST_PW}
  smtp: {host: %[2]s, port: %[4]d, security: tls, username: orders@%[5]s, password_env: PBEM_DOCTOR_TEST_PW}
`, scen, host, imapPort, smtpPort, domain)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func lineOf(lines []Line, check string) Line {
	for _, l := range lines {
		if l.Check == check {
			return l
		}
	}
	return Line{}
}

// TestUntrustedCertificateAndNoServer: a server whose certificate is not
// trusted, and a port nothing listens on, are failures of the service
// (exit 4) whose lines say so, and the logins after them are skipped.
func TestUntrustedCertificateAndNoServer(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(nil) // self-signed
	defer tlsSrv.Close()
	_, port, _ := net.SplitHostPort(tlsSrv.Listener.Addr().String())
	var imapPort int
	fmt.Sscan(port, &imapPort)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := externalConfig(t, imapPort, closed)
	lines := Run(context.Background(), cfg, &Options{NoSend: true}, nil)
	if l := lineOf(lines, "imap connect"); l.Status != Fail || !strings.Contains(l.Text, "certificate is not trusted") || l.Class != ClassRuntime {
		t.Errorf("imap connect: %+v", l)
	}
	if l := lineOf(lines, "imap login"); l.Status != Skip {
		t.Errorf("imap login: %+v", l)
	}
	if l := lineOf(lines, "smtp connect"); l.Status != Fail || !strings.Contains(l.Text, "nothing accepts connections on 127.0.0.1:") ||
		!strings.Contains(l.Fix, "mail.smtp.port") {
		t.Errorf("smtp connect: %+v", l)
	}
	if l := lineOf(lines, "map and scenario"); l.Status != OK {
		t.Errorf("map and scenario: %+v", l)
	}
	if got := ExitCode(lines); got != ClassRuntime {
		t.Errorf("exit code %d, want 4", got)
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		lines []Line
		want  int
	}{
		{[]Line{{Status: OK}, {Status: Warn}, {Status: Skip}}, 0},
		{[]Line{{Status: Fail, Class: ClassRuntime}}, 4},
		{[]Line{{Status: Fail, Class: ClassRuntime}, {Status: Fail, Class: ClassConfig}}, 3},
	} {
		if got := ExitCode(tc.lines); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.lines, got, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	got := Format(Line{Check: "imap login", Status: Fail, Text: "refused", Fix: "Check the password."})
	want := "FAIL  imap login         refused\n                         → Check the password.\n"
	if got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if shortDuration(120e9) != "2m" || shortDuration(90e9) != "1m30s" {
		t.Errorf("shortDuration: %s %s", shortDuration(120e9), shortDuration(90e9))
	}
}
