package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/imaptest"
)

// TestDemoEndToEnd runs the README's main command as a user would: pbem in
// a process of its own, "pbem run" on the embedded mail server, a sheet posted with "pbem
// send", the answer read over IMAP from the player's mailbox and the request
// from the referee's; then a clean stop and a restart that sends nothing
// twice.
func TestDemoEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs pbem in a process of its own")
	}
	dir := t.TempDir()
	bin := pbemBinary(t)
	repo, _ := filepath.Abs("../..")
	conf, err := os.ReadFile(filepath.Join(repo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	imapPort, smtpPort := freePort(t), freePort(t)
	text := strings.NewReplacer(
		"scenario: scenarios/default", "scenario: "+filepath.Join(repo, "scenarios/default"),
		"127.0.0.1:1143", fmt.Sprintf("127.0.0.1:%d", imapPort),
		"127.0.0.1:2525", fmt.Sprintf("127.0.0.1:%d", smtpPort),
		"poll_interval: 2m", "poll_interval: 2s",
	).Replace(string(conf))
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}

	var sendLine atomic.Value // the "pbem send" line the banner suggests
	start := func() (*exec.Cmd, *syncLog) {
		cmd := exec.Command(bin, "--config", cfgPath, "run")
		log := &syncLog{}
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if _, hint, ok := strings.Cut(sc.Text(), "; try: "); ok {
					sendLine.Store(hint)
				}
				if strings.Contains(sc.Text(), "running") {
					ready <- true
				}
			}
		}()
		select {
		case <-ready:
		case <-time.After(waitLimit):
			cmd.Process.Kill()
			t.Fatalf("pbem run did not start within %v:\n%s", waitLimit, log.String())
		}
		return cmd, log
	}
	stop := func(cmd *exec.Cmd, log *syncLog) {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("pbem run exited with %v after SIGTERM:\n%s", err, log.String())
			}
		case <-time.After(waitLimit):
			cmd.Process.Kill()
			t.Errorf("pbem run did not stop within %v of SIGTERM", waitLimit)
		}
	}

	cmd, log := start()
	// post runs the README's "pbem send", logged in as from with its
	// password from a file (stdin, when given, is the mail).
	post := func(from, password, file string, stdin ...string) {
		t.Helper()
		pwFile := filepath.Join(dir, "password.txt")
		if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		send := exec.Command(bin, "--config", cfgPath, "send", "--from", from, "--password-file", pwFile, file)
		if len(stdin) > 0 {
			send.Stdin = strings.NewReader(stdin[0])
		}
		if out, err := send.CombinedOutput(); err != nil {
			stop(cmd, log)
			t.Fatalf("pbem send: %v\n%s", err, out)
		}
	}
	addr := fmt.Sprintf("127.0.0.1:%d", imapPort)
	// waitMail polls a mailbox until it holds n messages, over one login.
	waitMail := func(user, pass string, n int) []string {
		box := imaptest.OpenMailbox(addr, user, pass, "INBOX")
		defer box.Close()
		var msgs []string
		for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			raw, _ := box.Messages()
			msgs = msgs[:0]
			for _, m := range raw {
				msgs = append(msgs, string(m))
			}
			if len(msgs) >= n {
				break
			}
		}
		return msgs
	}
	post("eisenmark@pbem.localhost", "demo-mail-eisenmark", filepath.Join(repo, "docs/examples/monthly.txt"))
	// Each has its starting report (the referee the opening's master
	// report) from the game's creation, then the answers.
	msgs := waitMail("eisenmark@pbem.localhost", "demo-mail-eisenmark", 2)
	refMail := waitMail("referee@pbem.localhost", "demo-referee", 3)
	if len(msgs) != 2 {
		stop(cmd, log)
		t.Fatalf("eisenmark has %d messages, want the starting report and the one acknowledgment\n%s", len(msgs), log.String())
	}
	msgs, refMail = msgs[1:], refMail[1:]
	if _, after, _ := strings.Cut(log.String(), "pbem: stopped"); strings.Contains(after, "level=") {
		t.Errorf("pbem logged after it said it stopped:\n%s", after)
	}
	if !strings.Contains(msgs[0], "orders received, receipt") || !strings.Contains(msgs[0], "SPLIT E1 AS E4") {
		t.Errorf("the acknowledgment is not the checker's reply:\n%s", msgs[0])
	}
	// The sheet's REQUEST and its SPECIAL order, each forwarded with its token.
	if len(refMail) != 2 || !strings.Contains(strings.Join(refMail, ""), "Swiss infantry") || !strings.Contains(strings.Join(refMail, ""), "envoy") {
		stop(cmd, log)
		t.Fatalf("the referee should have the forwarded request and SPECIAL, has %d", len(refMail))
	}
	// The README's ruling: the referee, logged in, with the referee password.
	token := ""
	for _, rm := range refMail {
		if !strings.Contains(rm, "Swiss infantry") {
			continue
		}
		for _, f := range strings.Fields(strings.ReplaceAll(rm, "=\r\n", "")) {
			if len(f) == 7 && f[0] == 'R' && token == "" && strings.Contains(rm, "APPROVE "+f) {
				token = f
			}
		}
	}
	post("referee@pbem.localhost", "demo-referee", "-", "PASSWORD demo-referee-commands\nAPPROVE "+token+"\n")
	msgs = waitMail("eisenmark@pbem.localhost", "demo-mail-eisenmark", 3)
	refMail = waitMail("referee@pbem.localhost", "demo-referee", 4)
	stop(cmd, log)
	if len(msgs) != 3 || !strings.Contains(msgs[2], "was approved") {
		t.Errorf("eisenmark was not told of the ruling on %s (%d messages)\n%s", token, len(msgs), log.String())
	}

	// A restart serves the same mailboxes and answers nothing twice. A
	// mail sent after the restart, once answered, shows that the restarted
	// daemon has read the mailbox and sent what it had queued.
	cmd, log = start()
	hello := filepath.Join(dir, "hello.txt")
	if err := os.WriteFile(hello, []byte("Is this where orders go?\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	post("morgronskia@pbem.localhost", "demo-mail-morgronskia", hello)
	if got := waitMail("morgronskia@pbem.localhost", "demo-mail-morgronskia", 2); len(got) != 2 {
		stop(cmd, log)
		t.Fatalf("after a restart morgronskia has %d mails, want its starting report and 1 answer\n%s", len(got), log.String())
	}
	again := mailbox(t, addr, "eisenmark@pbem.localhost", "demo-mail-eisenmark")
	refAgain := mailbox(t, addr, "referee@pbem.localhost", "demo-referee")
	stop(cmd, log)
	// The starting reports are not sent again by the restart.
	if len(again) != 3 {
		t.Errorf("after a restart eisenmark has %d messages, want still 3", len(again))
	}
	if len(refAgain) != len(refMail) {
		t.Errorf("after a restart the referee has %d messages, want still %d", len(refAgain), len(refMail))
	}
}

// waitLimit bounds each wait for the daemon; waits poll, so it costs
// nothing when all is well.
const waitLimit = 30 * time.Second

// syncLog collects a child's output from several goroutines.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) WriteString(s string) { l.Write([]byte(s)) }

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// mailbox returns the messages in an account's INBOX, or nil when the server
// cannot be reached.
func mailbox(t testing.TB, addr, user, pass string) []string {
	t.Helper()
	msgs, err := imaptest.Messages(addr, user, pass, "INBOX")
	if err != nil {
		return nil
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m)
	}
	return out
}
