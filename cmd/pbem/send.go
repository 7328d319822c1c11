package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

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
	user := fs.String("user", "", "the SMTP login (default: the --from address)")
	pass := fs.String("password", "", "the SMTP password of the --from account (visible to other users of this machine: prefer --password-file, or type it when asked)")
	passFile := fs.String("password-file", "", "a file whose first line is the SMTP password")
	noLogin := fs.Bool("no-login", false, "send without logging in (the embedded server takes such mail only from addresses that are not its accounts)")
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
	if *smtpAddr != "" && len(to) == 0 && !e.configGiven && e.gameName == "" {
		if _, err := os.Stat(e.configPath); errors.Is(err, os.ErrNotExist) {
			// A player posting to a host or another machine's server has no
			// config of the game: the address is all that was missing.
			e.errorf("send: no --to, and no %s here to take the game's address from: give the order address with --to ADDR (e.g. --to orders@pbem.localhost)", e.configPath)
			return exitUsage
		}
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
	var login *mailserver.Login
	if !*noLogin && !loopbackAddr(*smtpAddr) {
		e.errorf("send: %s is not a loopback address, and pbem send speaks SMTP without TLS: it will not send a password there; use a mail program for another server (or --no-login)", *smtpAddr)
		return exitUsage
	}
	if !*noLogin {
		if *user == "" {
			*user = *from
		}
		pw, code := sendPassword(e, *user, *pass, *passFile)
		if code != exitOK {
			return code
		}
		login = &mailserver.Login{User: *user, Password: pw}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := mailserver.SendAs(ctx, *smtpAddr, login, *from, to, raw); err != nil {
		hint := "is \"pbem run\" running?"
		if strings.Contains(err.Error(), "login") {
			hint = "check the account's password (mail.embedded.accounts in the config)"
		}
		e.errorf("send: %v (%s)", err, hint)
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

// sendPassword finds the SMTP password: --password, else the first line of
// --password-file, else asked for on the terminal (/dev/tty, so that a sheet
// can still come on standard input) without echo.
func sendPassword(e *env, user, pass, file string) (string, int) {
	switch {
	case pass != "" && file != "":
		e.errorf("send: give --password or --password-file, not both")
		return "", exitUsage
	case pass != "":
		return pass, exitOK
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			e.errorf("send: cannot read the password file: %v", err)
			return "", exitFailure
		}
		line, _, _ := strings.Cut(string(data), "\n")
		return strings.TrimRight(line, "\r"), exitOK
	}
	// The terminal, not standard input (which may carry the mail).
	tty, err := os.Open("/dev/tty")
	if err != nil || !term.IsTerminal(int(tty.Fd())) {
		if tty != nil {
			tty.Close()
		}
		e.errorf("send: the mail server wants the password of %s: give --password-file FILE (or --password), or run pbem send in a terminal to be asked", user)
		return "", exitUsage
	}
	defer tty.Close()
	fmt.Fprintf(tty, "SMTP password for %s: ", user)
	pw, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	if err != nil {
		e.errorf("send: reading the password: %v", err)
		return "", exitFailure
	}
	return string(pw), exitOK
}

// loopbackAddr reports whether host:port names this machine: localhost, a
// name under .localhost, or a loopback IP address.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
