package main

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
)

// sendHint is the "pbem send" command line that posts the example sheet
// to the game as configured: the config file named when it is not the
// default, the server's address when it differs from the config's, and the
// address of the nation the example sheet is for (or the
// first nation's, when the game has no Eisenmark).
func sendHint(e *env, cfg *config.Config, smtpAddr string) string {
	from := exampleSender(cfg)
	parts := []string{selfName(), "send"}
	if e.configGiven || e.configPath != "config.yaml" {
		parts = append(parts, "--config", shellQuote(e.configPath))
	}
	if smtpAddr != "" && smtpAddr != cfg.Mail.Embedded.SMTPListen {
		parts = append(parts, "--smtp", smtpAddr) // the port was chosen at start
	}
	parts = append(parts, "--from", shellQuote(from), "docs/examples/monthly.txt")
	return strings.Join(parts, " ")
}

// exampleSender is the address the example sheet is sent from: Eisenmark's
// (the nation the sheet is for), or the first nation's.
func exampleSender(cfg *config.Config) string {
	if n, ok := cfg.Game.Nations["eisenmark"]; ok && len(n.Addresses) > 0 {
		return n.Addresses[0]
	}
	for _, id := range cfg.NationIDs() {
		if a := cfg.Game.Nations[id].Addresses; len(a) > 0 {
			return a[0]
		}
	}
	return ""
}

// readHint is the curl command line that reads the answer to the example
// sheet from the sender's mailbox on the embedded IMAP server, at the
// address it listens on (the config's port, or the one chosen at start).
// The first mail, UID 1, is the starting report; the answer is UID 2. curl
// asks for the mailbox's password: none is printed.
func readHint(cfg *config.Config, imapAddr string) string {
	return fmt.Sprintf("curl -s -u %s 'imap://%s/INBOX;UID=2'", shellQuote(exampleSender(cfg)), imapAddr)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// bannerMail is the lines "pbem run" prints about the embedded server, with
// the ports it listens on.
func bannerMail(e *env, cfg *config.Config, imapAddr, smtpAddr string) string {
	return fmt.Sprintf("pbem: embedded mail server: IMAP %s, SMTP %s (loopback, no encryption; user = the address, passwords in %s)\n"+
		"pbem: players send orders to %s; try: %s\n"+
		"pbem: then read the answer (curl asks for the mailbox's password): %s\n",
		imapAddr, smtpAddr, e.configPath, cfg.Mail.Address, sendHint(e, cfg, smtpAddr), readHint(cfg, imapAddr))
}

// bannerLogins is the lines "pbem run" prints when a login failed at start
// ("" when both worked).
func bannerLogins(l daemon.Logins) string {
	var b strings.Builder
	if l.IMAP != nil {
		what := "cannot reach it"
		if l.IMAPRefused {
			what = "the server REFUSED THE LOGIN (check mail.imap.username and the password)"
		}
		fmt.Fprintf(&b, "pbem: WARNING: cannot log in to the game's mailbox (IMAP %s as %s): %s: %v\n"+
			"pbem:          players' sheets are not read, and no turn is resolved at its deadline, until this works; pbem keeps trying\n",
			l.IMAPAddr, l.IMAPUser, what, l.IMAP)
	}
	if l.SMTP != nil {
		what := "cannot reach it"
		if l.SMTPRefused {
			what = "the server REFUSED THE LOGIN (check mail.smtp.username and the password)"
		}
		fmt.Fprintf(&b, "pbem: WARNING: cannot log in to the SMTP server (%s as %s): %s: %v\n"+
			"pbem:          no answer, report or notice goes out until this works; pbem keeps trying\n",
			l.SMTPAddr, l.SMTPUser, what, l.SMTP)
	}
	return b.String()
}
