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

// TestSendWithoutConfigAsksForTo: a player posting with --smtp from a folder
// with no config.yaml (a host's player, say) is told to give --to, not to
// find a config file the player never had.
func TestSendWithoutConfigAsksForTo(t *testing.T) {
	dir := t.TempDir()
	sheet := filepath.Join(dir, "orders.txt")
	if err := os.WriteFile(sheet, []byte("GAME syw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out, errb strings.Builder
	code := realMain([]string{"send", "--from", "a@pbem.localhost", "--smtp", "127.0.0.1:1", "--password", "x", sheet}, strings.NewReader(""), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "give the order address with --to ADDR") {
		t.Errorf("exit %d, %q; want %d and a word about --to", code, errb.String(), exitUsage)
	}
}
