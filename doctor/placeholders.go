package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/config"
)

// placeholderDomains are the domains reserved for examples (RFC 2606):
// nobody receives mail there, so an address in them is one "pbem init" or
// the docs wrote and the referee has yet to replace.
var placeholderDomains = []string{"example.org", "example.com", "example.net"}

// isPlaceholderDomain reports whether domain is an example domain or under
// one (imap.example.org).
func isPlaceholderDomain(domain string) bool {
	domain = strings.ToLower(strings.TrimSuffix(domain, "."))
	for _, d := range placeholderDomains {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	return false
}

// isPlaceholderAddress reports whether addr is at an example domain.
func isPlaceholderAddress(addr string) bool {
	_, domain, ok := strings.Cut(addr, "@")
	return ok && isPlaceholderDomain(domain)
}

// checkPlaceholders flags, before any connection, what the referee has yet
// to fill in: addresses and hosts at the example domains, and the password
// placeholder "pbem init" writes into secrets/mail.txt. The game's own
// address, the referee's, the servers and the mail password are failures
// (nothing works with them); players' example addresses are a warning (the
// mail checks still mean something, but no player gets a reply).
func checkPlaceholders(r *report, cfg *config.Config) {
	var fails []string
	if isPlaceholderAddress(cfg.Game.Referee) {
		fails = append(fails, fmt.Sprintf("game.referee %s", cfg.Game.Referee))
	}
	if isPlaceholderAddress(cfg.Mail.Address) {
		fails = append(fails, fmt.Sprintf("mail.address %s", cfg.Mail.Address))
	}
	if cfg.Mail.Mode == config.ModeExternal {
		for _, s := range []struct {
			key string
			ep  config.Endpoint
		}{{"mail.imap", cfg.IMAPEndpoint()}, {"mail.smtp", cfg.SMTPEndpoint()}} {
			if isPlaceholderDomain(s.ep.Host) {
				fails = append(fails, fmt.Sprintf("%s.host %s", s.key, s.ep.Host))
			}
			if isPlaceholderAddress(s.ep.Username) && !strings.EqualFold(s.ep.Username, cfg.Mail.Address) {
				fails = append(fails, fmt.Sprintf("%s.username %s", s.key, s.ep.Username))
			}
		}
	}
	if len(fails) > 0 {
		r.fail("placeholders", ClassConfig, "still the examples pbem init wrote: "+strings.Join(fails, "; "),
			"Put the real values there (nobody receives mail at example.org or example.com; the hosts are the provider's).")
	} else {
		r.ok("placeholders", "no example addresses or hosts for the game, the referee or the servers")
	}
	var files []string
	if cfg.Mail.Mode == config.ModeExternal {
		for _, s := range []struct {
			key string
			ep  config.Endpoint
		}{{"mail.imap.password", cfg.IMAPEndpoint()}, {"mail.smtp.password", cfg.SMTPEndpoint()}} {
			pw, err := s.ep.Password.Value()
			if err != nil || !strings.HasPrefix(pw.Reveal(), placeholderPrefix) {
				continue // a missing password is said at the login
			}
			name := s.ep.Password.PasswordFile
			if name == "" {
				name = s.key
			}
			if !slices.Contains(files, name) {
				files = append(files, name)
			}
		}
	}
	if len(files) > 0 {
		r.fail("mail password", ClassConfig, fmt.Sprintf("%s still holds the placeholder pbem init wrote (%s…)", strings.Join(files, " and "), placeholderPrefix),
			fmt.Sprintf("Put the mail account's password (for Gmail and Fastmail an app password) on the first line of %s.", strings.Join(files, " and ")))
	}
	var players []string
	for _, id := range cfg.NationIDs() {
		for _, a := range cfg.Game.Nations[id].Addresses {
			if isPlaceholderAddress(a) {
				players = append(players, fmt.Sprintf("%s %s", id, a))
			}
		}
	}
	if len(players) > 0 {
		r.warn("player addresses", "still the examples pbem init wrote: "+strings.Join(players, ", "),
			"Replace them with the players' real addresses in game.nations before the game starts: no player gets a reply at example.org.")
	}
}
