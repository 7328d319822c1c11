package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSendLogin: pbem send sends a password only to a loopback server, and
// says how to give one when there is no terminal to ask on.
func TestSendLogin(t *testing.T) {
	sheet := filepath.Join(t.TempDir(), "orders.txt")
	if err := os.WriteFile(sheet, []byte("GAME syw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"send", "--from", "a@example.org", "--to", "b@example.org", "--smtp", "192.0.2.1:25", "--password", "x", sheet}, exitUsage, "not a loopback address"},
		{[]string{"send", "--from", "a@example.org", "--to", "b@example.org", "--smtp", "127.0.0.1:1", "--password", "x", "--password-file", sheet, sheet}, exitUsage, "not both"},
	} {
		code, _, stderr := run(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if !loopbackAddr("127.0.0.1:2525") || !loopbackAddr("[::1]:25") || !loopbackAddr("pbem.localhost:25") || loopbackAddr("mail.example.org:25") {
		t.Error("loopbackAddr")
	}
}
