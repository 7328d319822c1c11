package mailserver

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the server's debug writer, which
// several connections write to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestMutt runs a real mail client, mutt, against the server: it logs in
// over IMAP, opens INBOX, lists the messages and copies one into a local
// mbox file, which must then hold the message as sent.
func TestMutt(t *testing.T) {
	t.Parallel()
	mutt, err := exec.LookPath("mutt")
	if err != nil {
		t.Skip("mutt not installed: apt-get install mutt")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) not installed; mutt needs a terminal")
	}
	var transcript syncBuffer
	s := startServer(t, t.TempDir(), func(o *Options) { o.Debug = &transcript })
	mustSend(t, s, "referee@"+testDomain, "Orders for mutt", "HOLD ALL POSITIONS\n")
	if err := s.Deliver(context.Background(), "referee", []byte("From: austria@example.org\nSubject: second\n\nsecond body\n")); err != nil {
		t.Fatal(err)
	}

	if err := s.createMailbox(context.Background(), s.accounts["referee"], "pbem-processed"); err != nil {
		t.Fatal(err)
	}
	if err := s.setSubscribed(context.Background(), s.accounts["referee"], "pbem-processed", true); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.mbox")
	_, port, _ := net.SplitHostPort(s.IMAPAddr())
	rc := fmt.Sprintf(`set imap_user = "referee"
set imap_pass = "ref-secret"
set folder = "imap://127.0.0.1:%s/"
set spoolfile = "+INBOX"
set ssl_starttls = no
set ssl_force_tls = no
set imap_check_subscribed = yes
set header_cache = ""
set message_cachedir = ""
set mbox_type = mbox
set confirmcreate = no
set confirmappend = no
set sort = date
set quit = yes
set move = no
set mark_old = no
set wait_key = no
set beep = no
set timeout = 1
set tmpdir = "%s"
`, port, dir)
	muttrc := filepath.Join(dir, "muttrc")
	if err := os.WriteFile(muttrc, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}

	// mutt is a full-screen program: script(1) gives it a terminal. The
	// pushed keys copy the first message (sorted by date) to saved and quit.
	cmdline := fmt.Sprintf(`%s -n -F %s -e 'push "<first-entry><copy-message>%s<enter><quit>"'`, mutt, muttrc, saved)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qec", cmdline, "/dev/null")
	cmd.Env = append(os.Environ(), "TERM=xterm", "HOME="+dir, "COLUMNS=120", "LINES=40")
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("mutt did not finish in time; IMAP transcript:\n%s", transcript.String())
	}
	if err != nil {
		t.Logf("mutt exited with %v", err)
	}
	got, readErr := os.ReadFile(saved)
	if readErr != nil {
		t.Fatalf("mutt saved nothing (%v); screen:\n%s\nIMAP transcript:\n%s", readErr, out, transcript.String())
	}
	for _, want := range []string{"Subject: Orders for mutt", "HOLD ALL POSITIONS", "Received: from "} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("mbox saved by mutt lacks %q:\n%s", want, got)
		}
	}
	// The transcript shows mutt authenticating, listing the subscribed
	// mailboxes, selecting INBOX and fetching the index and the message.
	tr := transcript.String()
	if !strings.Contains(tr, " OK [CAPABILITY") || !strings.Contains(tr, "authentication successful") &&
		!strings.Contains(tr, "Logged in") {
		t.Errorf("mutt did not log in:\n%s", tr)
	}
	for _, want := range []string{`"/" "pbem-processed"`, `STATUS "pbem-processed"`, `SELECT "INBOX"`, "UID FETCH 1 BODY.PEEK[]", "* 2 FETCH"} {
		if !strings.Contains(tr, want) {
			t.Errorf("IMAP transcript lacks %q:\n%s", want, tr)
		}
	}
}
