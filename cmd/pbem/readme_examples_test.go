package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeShellLines are the command lines of the README's sh blocks.
func readmeShellLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in && strings.TrimSpace(line) != "":
			cmd, _, _ := strings.Cut(line, "  #")
			cmd = strings.TrimSpace(cmd)
			// A line ending in a pipe or a backslash goes on, as in a shell.
			if n := len(out); n > 0 && (strings.HasSuffix(out[n-1], "|") || strings.HasSuffix(out[n-1], "\\")) {
				out[n-1] = strings.TrimSuffix(out[n-1], "\\") + " " + cmd
				continue
			}
			out = append(out, cmd)
		}
	}
	return out
}

// TestREADMEExamplesRun runs every example command of the README, as
// written, against "pbem run" (pbem in a process of its own, on free
// ports: only the ports and --config are changed): the sheet is answered,
// the answer is read with curl, and the referee's APPROVE with the
// README's token is recorded for Eisenmark's request. "go test ./..." is what runs this.
func TestREADMEExamplesRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs pbem in a process of its own")
	}
	lines := readmeShellLines(t)
	if len(lines) < 5 {
		t.Fatalf("the README has %d example commands: %q", len(lines), lines)
	}
	dir := t.TempDir()
	bin := pbemBinary(t)
	repo, _ := filepath.Abs("../..")
	conf, err := os.ReadFile(filepath.Join(repo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	imapAddr, smtpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t)), fmt.Sprintf("127.0.0.1:%d", freePort(t))
	text := strings.NewReplacer(
		"scenario: scenarios/default", "scenario: "+filepath.Join(repo, "scenarios/default"),
		"127.0.0.1:1143", imapAddr, "127.0.0.1:2525", smtpAddr, "poll_interval: 2m", "poll_interval: 2s",
	).Replace(string(conf))
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	translate := strings.NewReplacer("go run ./cmd/pbem", bin+" --config "+cfgPath, "127.0.0.1:1143", imapAddr)

	var daemon *exec.Cmd
	log := &syncLog{}
	defer func() {
		if daemon != nil {
			daemon.Process.Signal(syscall.SIGTERM)
			daemon.Wait()
		}
	}()
	for _, line := range lines {
		switch {
		case line == "go test ./...":
			continue // this test is part of it
		case strings.HasPrefix(line, "go run ./cmd/pbem demo"):
			continue // TestDemoCommand runs it
		case line == "go run ./cmd/pbem run":
			daemon = exec.Command(bin, "--config", cfgPath, "run")
			daemon.Dir = repo
			stdout, _ := daemon.StdoutPipe()
			daemon.Stderr = log
			if err := daemon.Start(); err != nil {
				t.Fatal(err)
			}
			ready := make(chan bool, 1)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					log.WriteString(sc.Text() + "\n")
					if strings.Contains(sc.Text(), "running") {
						ready <- true
					}
				}
			}()
			select {
			case <-ready:
			case <-time.After(waitLimit):
				t.Fatalf("pbem run did not start:\n%s", log.String())
			}
			continue
		case strings.HasPrefix(line, "curl "):
			if _, err := exec.LookPath("curl"); err != nil {
				t.Logf("curl is not installed: not running %s", line)
				continue
			}
		}
		if daemon == nil {
			t.Fatalf("%q comes before the README starts pbem run", line)
		}
		shell := translate.Replace(line)
		t.Logf("%s: %s", time.Now().Format("15:04:05.000"), line)
		var out []byte
		var err error
		// The answer to the sheet takes a moment: curl is retried until
		// the mail is there.
		for deadline := time.Now().Add(waitLimit); ; time.Sleep(200 * time.Millisecond) {
			cmd := exec.Command("sh", "-c", shell)
			cmd.Dir = repo
			out, err = cmd.CombinedOutput()
			if err == nil || !strings.HasPrefix(line, "curl ") || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatalf("README example %q: %v\n%s\n%s", line, err, out, log.String())
		}
		if strings.HasPrefix(line, "curl ") && !strings.Contains(string(out), "Receipt") {
			t.Errorf("the README's curl does not show the answer with its receipt:\n%s", out)
		}
	}
	// The README's token is the one the example sheet's request gets.
	var ack string
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		for _, m := range mailbox(t, imapAddr, "referee@pbem.localhost", "demo-referee") {
			if strings.Contains(m, "Referee commands received") {
				ack = m
			}
		}
		if ack != "" {
			break
		}
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(ack, "=\r\n", "")), " ")
	if !strings.Contains(flat, "recorded for Eisenmark's request") {
		t.Errorf("the README's APPROVE was not recorded for Eisenmark's request; the referee's acknowledgment:\n%s", ack)
	}
}
