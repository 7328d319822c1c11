package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/mailserver"
)

// loadConfig loads and validates the config file, printing every problem.
func loadConfig(e *env) (*config.Config, int) {
	cfg, err := config.Load(e.configPath)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		fmt.Fprintf(e.stderr, "pbem: the config file %s has problems; fix them (every key is described in docs/config.md)\n", e.configPath)
		return nil, exitConfig
	}
	return cfg, exitOK
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runSend(e *env, args []string) int {
	fs := newFlags(e, "send", "--from ADDR [--to ADDR] [--subject TEXT] FILE|-",
		"Posts an order sheet, or any text or RFC 5322 message, to the mail server by SMTP as a mail client\n"+
			"would. Plain text is wrapped in a new text/plain message; a file that is already a message (it\n"+
			"starts with headers including From) is sent unchanged. The server is the embedded one from the\n"+
			"config (mail.embedded.smtp_listen) unless --smtp names another; the recipient defaults to the\n"+
			"game's address (mail.address).")
	from := fs.String("from", "", "the sender's address (required), e.g. eisenmark@pbem.localhost")
	var to listFlag
	fs.Var(&to, "to", "a recipient (repeatable; default: the game's address)")
	subject := fs.String("subject", "", "the subject for plain text (default: the file name)")
	smtpAddr := fs.String("smtp", "", "the SMTP server host:port (default: the embedded server's)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *from == "" {
		e.errorf("send: --from ADDR is required (the player's address, e.g. eisenmark@pbem.localhost)")
		return exitUsage
	}
	if fs.NArg() != 1 {
		e.errorf("send: expected one file to send (or - for standard input), got %d", fs.NArg())
		return exitUsage
	}
	name := fs.Arg(0)
	var raw []byte
	var err error
	if name == "-" {
		raw, err = io.ReadAll(io.LimitReader(e.stdin, 32<<20))
	} else {
		raw, err = os.ReadFile(name)
	}
	if err != nil {
		e.errorf("send: cannot read %s: %v", name, err)
		return exitFailure
	}
	if *smtpAddr == "" || len(to) == 0 {
		cfg, code := loadConfig(e)
		if code != exitOK {
			return code
		}
		if *smtpAddr == "" {
			*smtpAddr = cfg.Mail.Embedded.SMTPListen
		}
		if len(to) == 0 {
			to = listFlag{cfg.Mail.Address}
		}
	}
	if !strings.HasPrefix(string(raw), "From:") && !looksLikeMessage(raw) {
		subj := *subject
		if subj == "" {
			subj = "Orders"
			if name != "-" {
				subj = "Orders: " + name
			}
		}
		raw, err = mailserver.ComposeText(*from, to, subj, raw)
		if err != nil {
			e.errorf("send: %v", err)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := mailserver.Send(ctx, *smtpAddr, *from, to, raw); err != nil {
		e.errorf("send: %v (is \"pbem run\" running?)", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "sent %s from %s to %s via %s\n", name, *from, strings.Join(to, ", "), *smtpAddr)
	return exitOK
}

// looksLikeMessage reports a file that starts with a mail header block.
func looksLikeMessage(raw []byte) bool {
	head := string(raw[:min(len(raw), 4096)])
	end := strings.Index(head, "\n\n")
	if end < 0 {
		end = strings.Index(head, "\r\n\r\n")
	}
	if end < 0 {
		return false
	}
	for _, line := range strings.Split(head[:end], "\n") {
		if strings.HasPrefix(strings.ToLower(line), "from:") {
			return true
		}
	}
	return false
}
