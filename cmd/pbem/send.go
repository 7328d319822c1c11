package main

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/mailserver"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runSend(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	from := fs.String("from", "", "the sender's address (required), e.g. eisenmark@pbem.localhost")
	var to listFlag
	fs.Var(&to, "to", "a recipient (repeatable; default: the game's address)")
	subject := fs.String("subject", "", "the subject for plain text (default: \"Orders: \" and the file name)")
	smtpAddr := fs.String("smtp", "", "the SMTP server host:port (default: the embedded server's, mail.embedded.smtp_listen)")
	if code, ok := parseFlags(e, c, fs, args); !ok {
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
	name, shown := fs.Arg(0), fs.Arg(0)
	var raw []byte
	var err error
	if name == "-" {
		shown = "standard input"
		raw, err = io.ReadAll(io.LimitReader(e.stdin, 32<<20))
	} else {
		raw, err = os.ReadFile(name)
	}
	if err != nil {
		e.errorf("send: cannot read %s: %v", shown, err)
		return exitFailure
	}
	if *smtpAddr == "" || len(to) == 0 {
		cfg, code := loadConfig(e)
		if code != exitOK {
			return code
		}
		if *smtpAddr == "" {
			if cfg.Mail.Mode != config.ModeEmbedded {
				e.errorf("send: the config's mail.mode is %s, so there is no embedded server to post to: give the server with --smtp HOST:PORT", cfg.Mail.Mode)
				return exitUsage
			}
			*smtpAddr = cfg.Mail.Embedded.SMTPListen
		}
		if len(to) == 0 {
			to = listFlag{cfg.Mail.Address}
		}
	}
	if !looksLikeMessage(raw) {
		subj := *subject
		if subj == "" {
			subj = "Orders"
			if name != "-" {
				subj = "Orders: " + filepath.Base(name)
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
	fmt.Fprintf(e.stdout, "sent %s from %s to %s via %s\n", shown, *from, strings.Join(to, ", "), *smtpAddr)
	return exitOK
}

// looksLikeMessage reports a file that is already a mail: it opens with a
// header block (every line "Name: value" or a continuation) whose From field
// holds an address, then a blank line. A letter that merely starts "From:
// the King" is text.
func looksLikeMessage(raw []byte) bool {
	head := strings.ReplaceAll(string(raw[:min(len(raw), 64<<10)]), "\r\n", "\n")
	block, _, ok := strings.Cut(head, "\n\n")
	if !ok || block == "" {
		return false
	}
	from := false
	for i, line := range strings.Split(block, "\n") {
		if line == "" {
			return false
		}
		if line[0] == ' ' || line[0] == '\t' {
			if i == 0 {
				return false
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return false
		}
		if strings.EqualFold(name, "From") {
			_, err := mail.ParseAddressList(value)
			from = err == nil
		}
	}
	return from
}
