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
	from := ""
	if n, ok := cfg.Game.Nations["eisenmark"]; ok && len(n.Addresses) > 0 {
		from = n.Addresses[0]
	} else {
		for _, id := range cfg.NationIDs() {
			if a := cfg.Game.Nations[id].Addresses; len(a) > 0 {
				from = a[0]
				break
			}
		}
	}
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

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// bannerMail is the lines "pbem run" prints about the embedded server.
func bannerMail(e *env, cfg *config.Config, imapAddr, smtpAddr string) string {
	return fmt.Sprintf("pbem: embedded mail server: IMAP %s, SMTP %s (loopback, no encryption; user = the address, passwords in %s)\n"+
		"pbem: players send orders to %s; try: %s\n",
		imapAddr, smtpAddr, e.configPath, cfg.Mail.Address, sendHint(e, cfg, smtpAddr))
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
