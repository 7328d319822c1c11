//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/internal/imaptest"
)

const (
	doctorGame    = "orders@pbem.example"
	doctorReferee = "referee@pbem.example"
	doctorPass    = "app-password-1"
)

// relay is a submission server for the doctor tests: it takes AUTH PLAIN
// for the game's account and delivers mail for the game's address to
// Dovecot over LMTP, recording the rest.
type relay struct {
	addr      string
	dovecot   *imaptest.Dovecot
	mu        sync.Mutex
	delivered map[string][]byte // recipient → last message
	// refuse, if set, answers MAIL FROM ("from") and RCPT TO ("to") for
	// an address: a non-nil error refuses it.
	refuse func(step, addr string) error
}

func startRelay(t *testing.T, d *imaptest.Dovecot) *relay {
	t.Helper()
	r := &relay{dovecot: d, delivered: map[string][]byte{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(r)
	srv.Domain = "pbem.example"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0)
	r.addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return r
}

func (r *relay) NewSession(*smtp.Conn) (smtp.Session, error) { return &relaySession{r: r}, nil }

type relaySession struct {
	r      *relay
	authed bool
	from   string
	to     []string
}

func (s *relaySession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *relaySession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != doctorGame || pass != doctorPass {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	if s.r.refuse != nil {
		if err := s.r.refuse("from", from); err != nil {
			return err
		}
	}
	s.from = from
	return nil
}

func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.r.refuse != nil {
		if err := s.r.refuse("to", to); err != nil {
			return err
		}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *relaySession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, to := range s.to {
		s.r.mu.Lock()
		s.r.delivered[to] = raw
		s.r.mu.Unlock()
		if strings.EqualFold(to, doctorGame) {
			if err := s.r.dovecot.Deliver(s.from, to, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *relaySession) Reset()        { s.from, s.to = "", nil }
func (s *relaySession) Logout() error { return nil }

// initForDovecot runs "pbem init" for a game on d and r, with the mail
// password given.
func initForDovecot(t *testing.T, d *imaptest.Dovecot, r *relay, mailPassword string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "game")
	t.Setenv("PBEM_MAIL_PASSWORD", mailPassword)
	code, out, errs := run(t, "", "init", "--provider", "generic", "--address", doctorGame, "--referee", doctorReferee,
		"--imap", d.IMAPAddr(), "--smtp", r.addr, "--security", "none", dir)
	if code != exitOK {
		t.Fatalf("pbem init: exit %d\n%s%s", code, out, errs)
	}
	return filepath.Join(dir, "config.yaml")
}

// doctorLine returns the line of the doctor's output for a check.
func doctorLine(out, check string) string {
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 6 && strings.HasPrefix(strings.TrimSpace(l[6:]), check+" ") {
			return l
		}
	}
	return ""
}

// TestDoctorAgainstDovecot: "pbem init", then "pbem doctor" against a
// real Dovecot (and a submission server that delivers to it) passes, with
// a line per check; the test message reaches the referee, and its copy
// shows the (unsigned) provider's DKIM as a warning.
func TestDoctorAgainstDovecot(t *testing.T) {
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{Users: map[string]string{doctorGame: doctorPass}})
	r := startRelay(t, d)
	cfg := initForDovecot(t, d, r, doctorPass)
	code, out, errs := run(t, "", "--config", cfg, "doctor")
	if code != exitOK {
		t.Fatalf("pbem doctor: exit %d\n%s%s\n%s", code, out, errs, d.Logs())
	}
	t.Logf("pbem doctor against Dovecot:\n%s", out)
	for check, want := range map[string]string{
		"map and scenario":  "ok    map and scenario   " + filepath.Join(filepath.Dir(cfg), "scenario") + " validates",
		"data folder":       "is writable",
		"imap connect":      "ok    imap connect       " + d.IMAPAddr() + ", no encryption (loopback only)",
		"imap login":        "ok    imap login         logged in as " + doctorGame,
		"imap IDLE":         "ok    imap IDLE          offered",
		"imap MOVE":         "ok    imap MOVE          offered: handled mail is moved to pbem-processed",
		"imap UIDPLUS":      "ok    imap UIDPLUS       offered",
		"mailbox":           "ok    mailbox            INBOX holds 0 messages",
		"processed mailbox": "pbem-processed does not exist yet: pbem run creates it",
		"smtp login":        "ok    smtp login         logged in as " + doctorGame,
		"test message":      "ok    test message       sent from " + doctorGame + " to the referee " + doctorReferee,
		"dkim":              "warn  dkim               mail sent from " + doctorGame + " carries no DKIM signature",
		"time zone":         "ok    time zone          Europe/London",
	} {
		if l := doctorLine(out, check); !strings.Contains(l, want) {
			t.Errorf("the %s line is %q, want %q\n%s", check, l, want, out)
		}
	}
	r.mu.Lock()
	msg := r.delivered[doctorReferee]
	r.mu.Unlock()
	if !bytes.Contains(msg, []byte("Subject: pbem doctor: test message")) || !bytes.Contains(msg, []byte("X-Loop: "+doctorGame)) {
		t.Errorf("the referee got %q", msg)
	}
	if !strings.Contains(out, "0 failed") {
		t.Errorf("no summary:\n%s", out)
	}
}

// TestDoctorRefusedLogin: a wrong password is a configuration problem
// (exit 3) on the login lines, which say what to check.
func TestDoctorRefusedLogin(t *testing.T) {
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{Users: map[string]string{doctorGame: doctorPass}})
	r := startRelay(t, d)
	cfg := initForDovecot(t, d, r, "not-the-password")
	code, out, errs := run(t, "", "--config", cfg, "doctor")
	if code != exitConfig {
		t.Fatalf("pbem doctor: exit %d, want %d\n%s%s", code, exitConfig, out, errs)
	}
	for check, want := range map[string]string{
		"imap login": "FAIL  imap login         " + d.IMAPAddr() + " refused the login of " + doctorGame,
		"smtp login": "FAIL  smtp login         " + r.addr + " refused the login of " + doctorGame,
		"dkim":       "skip  dkim               needs the IMAP login and the test message",
	} {
		if l := doctorLine(out, check); !strings.Contains(l, want) {
			t.Errorf("the %s line is %q, want %q\n%s", check, l, want, out)
		}
	}
	if !strings.Contains(out, "→ Check mail.imap.username and the password") {
		t.Errorf("no fix for the refused login:\n%s", out)
	}
	// The placeholder pbem init writes without PBEM_MAIL_PASSWORD is named
	// as such, without trying it on the server.
	cfg = initForDovecot(t, d, r, "")
	code, out, _ = run(t, "", "--config", cfg, "doctor")
	if code != exitConfig || !strings.Contains(doctorLine(out, "imap login"), "still holds the placeholder pbem init wrote") {
		t.Errorf("placeholder password: exit %d\n%s", code, out)
	}
}

// TestDoctorWithoutMove: a server with neither MOVE nor UIDPLUS passes
// with warnings that say what pbem does instead.
func TestDoctorWithoutMove(t *testing.T) {
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{Users: map[string]string{doctorGame: doctorPass}, TrimCaps: true})
	r := startRelay(t, d)
	cfg := initForDovecot(t, d, r, doctorPass)
	code, out, errs := run(t, "", "--config", cfg, "doctor", "--no-send")
	if code != exitOK {
		t.Fatalf("pbem doctor: exit %d\n%s%s", code, out, errs)
	}
	for check, want := range map[string]string{
		"imap MOVE":         "warn  imap MOVE          the server offers neither MOVE nor UIDPLUS",
		"imap UIDPLUS":      "warn  imap UIDPLUS       the server does not offer UIDPLUS",
		"processed mailbox": "pbem-processed is not used: the server can move nothing safely",
		"test message":      "skip  test message       not sent (--no-send)",
	} {
		if l := doctorLine(out, check); !strings.Contains(l, want) {
			t.Errorf("the %s line is %q, want %q\n%s", check, l, want, out)
		}
	}
	if !strings.Contains(out, "pbem flags handled mail and leaves it in the mailbox, never deleting anything") {
		t.Errorf("the MOVE warning does not say what pbem does:\n%s", out)
	}
}

// TestDoctorEmbedded: in mode embedded, doctor starts the embedded server
// when no "pbem run" serves it, and everything passes.
func TestDoctorEmbedded(t *testing.T) {
	dir := t.TempDir()
	conf, err := os.ReadFile("../../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	repo, _ := filepath.Abs("../..")
	imapPort, smtpPort := freePort(t), freePort(t)
	text := strings.NewReplacer(
		"scenario: scenarios/default", "scenario: "+filepath.Join(repo, "scenarios/default"),
		"127.0.0.1:1143", fmt.Sprintf("127.0.0.1:%d", imapPort),
		"127.0.0.1:2525", fmt.Sprintf("127.0.0.1:%d", smtpPort),
	).Replace(string(conf))
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "--config", path, "doctor")
	if code != exitOK {
		t.Fatalf("pbem doctor: exit %d\n%s%s", code, out, errs)
	}
	for check, want := range map[string]string{
		"embedded server": "no \"pbem run\" is running: started the embedded server",
		"imap login":      "logged in as orders@pbem.localhost",
		"test message":    "to the referee referee@pbem.localhost",
		"dkim":            "not used: the embedded server does not sign",
	} {
		if l := doctorLine(out, check); !strings.Contains(l, want) {
			t.Errorf("the %s line is %q, want %q\n%s", check, l, want, out)
		}
	}
	refMail, err := imaptest.Messages(fmt.Sprintf("127.0.0.1:%d", imapPort), "referee@pbem.localhost", "demo-referee", "INBOX")
	if err == nil || len(refMail) > 0 {
		t.Errorf("the embedded server should have stopped with doctor: %v", err)
	}
}

// TestInitGameRunsOnDovecot: the game folder "pbem init" writes runs a
// real game as it is: "pbem run" reads a sheet from Dovecot, checks it
// with the nation's fresh password, and sends the answer by SMTP.
func TestInitGameRunsOnDovecot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pbem in a process of its own")
	}
	d := imaptest.StartDovecot(t, imaptest.DovecotOptions{Users: map[string]string{doctorGame: doctorPass}})
	r := startRelay(t, d)
	cfg := initForDovecot(t, d, r, doctorPass)
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A short poll, so that the test does not wait on IDLE alone.
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(text), "poll_interval: 2m", "poll_interval: 1s", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	pw, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), "secrets", "eisenmark.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bin := pbemBinary(t)
	cmd := exec.Command(bin, "--config", cfg, "run")
	log := &syncLog{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	sheet := "From: eisenmark@example.org\r\nTo: " + doctorGame + "\r\nSubject: orders\r\nMessage-ID: <first@example.org>\r\n" +
		"Date: Mon, 02 Mar 2026 10:00:00 +0000\r\n\r\nGAME syw\r\nNATION eisenmark\r\nPASSWORD " + strings.TrimSpace(string(pw)) +
		"\r\nTURN 1\r\nSTANCE E1 DEFEND\r\nEND\r\n"
	if err := d.Deliver("eisenmark@example.org", doctorGame, []byte(sheet)); err != nil {
		t.Fatal(err)
	}
	var ack []byte
	// The starting report reaches Eisenmark first; the answer follows.
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline) && !strings.Contains(string(ack), "orders received"); time.Sleep(100 * time.Millisecond) {
		r.mu.Lock()
		ack = r.delivered["eisenmark@example.org"]
		r.mu.Unlock()
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(string(ack), "=\r\n", "")), " ")
	if !strings.Contains(flat, "orders received, receipt") || !strings.Contains(flat, "STANCE E1 DEFEND") {
		t.Fatalf("no acknowledgment of the sheet reached eisenmark@example.org:\n%s\npbem run:\n%s", ack, log.String())
	}
}
