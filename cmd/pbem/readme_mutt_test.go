package main

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/mailserver"
)

// TestREADMEMuttSettings: the mutt settings the README gives for the
// embedded server work: mutt (2.2 forces TLS unless told not to) sends a
// sheet through the embedded SMTP server with them, as Eisenmark.
func TestREADMEMuttSettings(t *testing.T) {
	t.Parallel()
	mutt, err := exec.LookPath("mutt")
	if err != nil {
		t.Skip("mutt not installed: apt-get install mutt")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "- **mutt**")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "ssl_starttls = no") || !strings.Contains(block, "ssl_force_tls = no") {
		t.Fatalf("the README's mutt settings lack ssl_starttls/ssl_force_tls:\n%s", block)
	}
	dir := t.TempDir()
	ms, err := mailserver.New(&mailserver.Options{
		Dir: filepath.Join(dir, "mail"), Domain: "pbem.localhost", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Accounts: []mailserver.Account{{User: "orders@pbem.localhost", Password: "demo-orders"},
			{User: "eisenmark@pbem.localhost", Password: "demo-mail-eisenmark"}},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	var rc strings.Builder
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		line = strings.ReplaceAll(line, "127.0.0.1:1143", ms.IMAPAddr())
		line = strings.ReplaceAll(line, "127.0.0.1:2525", ms.SMTPAddr())
		rc.WriteString(line + "\n")
	}
	rc.WriteString("set tmpdir = \"" + dir + "\"\nset header_cache = \"\"\nset message_cachedir = \"\"\nset record = \"\"\n")
	muttrc := filepath.Join(dir, "muttrc")
	if err := os.WriteFile(muttrc, []byte(rc.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	sheet, err := os.Open("../../docs/examples/monthly.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer sheet.Close()
	cmd := exec.Command(mutt, "-n", "-F", muttrc, "-s", "Orders", "orders@pbem.localhost")
	cmd.Stdin = sheet
	cmd.Env = append(os.Environ(), "HOME="+dir)
	done := make(chan []byte, 1)
	go func() { out, _ := cmd.CombinedOutput(); done <- out }()
	select {
	case out := <-done:
		if cmd.ProcessState.ExitCode() != 0 {
			t.Fatalf("mutt with the README's settings failed: %s", out)
		}
	case <-time.After(waitLimit):
		cmd.Process.Kill()
		t.Fatal("mutt did not finish")
	}
	msgs, err := imaptest.Messages(ms.IMAPAddr(), "orders@pbem.localhost", "demo-orders", "INBOX")
	if err != nil || len(msgs) != 1 || !strings.Contains(string(msgs[0]), "eisenmark@pbem.localhost") || !strings.Contains(string(msgs[0]), "NATION eisenmark") {
		t.Errorf("the game's mailbox: %v, %d messages", err, len(msgs))
	}
}
