package host

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/syw-pbem/pbem/internal/mailconn"
	"go.yaml.in/yaml/v3"
)

// The host's order address at an external provider (host.yaml's
// mail.external). A club with one provider account (orders@club.example)
// gives the host its IMAP and SMTP settings; the host then runs no mail
// server of its own:
//
//   - the router (extroute.go) reads the account's INBOX over one IMAP
//     connection and moves each mail, by its GAME line (or its
//     orders+NAME@ plus-address, or the sender's only game), into that
//     game's folder on the same account, pbem-game-NAME; a mail it cannot
//     place goes to pbem-unrouted and its sender is answered, as the
//     embedded router answers, with the games they play in;
//   - each game (written by "pbem host add" in mail.mode external) reads
//     its own folder over its own IMAP connection, and sends its answers
//     and reports through the provider's SMTP from the shared address, its
//     name in every subject as always.

// ExternalMail is mail.external in host.yaml: the provider account of the
// host's one order address (mail.address).
type ExternalMail struct {
	// IMAPHost and IMAPPort are the provider's IMAP server. The port
	// defaults to 993 for tls, 143 for starttls and none.
	IMAPHost string `yaml:"imap_host"`
	IMAPPort int    `yaml:"imap_port,omitempty"`
	// IMAPSecurity is tls (default), starttls, or none (loopback only).
	IMAPSecurity string `yaml:"imap_security,omitempty"`
	// SMTPHost and SMTPPort are the provider's submission server. The
	// port defaults to 465 for tls, 587 for starttls and none.
	SMTPHost string `yaml:"smtp_host"`
	SMTPPort int    `yaml:"smtp_port,omitempty"`
	// SMTPSecurity is tls (default), starttls, or none (loopback only).
	SMTPSecurity string `yaml:"smtp_security,omitempty"`
	// Username is the account's login for IMAP and SMTP. Default
	// mail.address.
	Username string `yaml:"username,omitempty"`
	// PasswordFile holds the account's password (an app password at most
	// providers), relative to the host folder. Required.
	PasswordFile string `yaml:"password_file"`
	// AuthServID is the authserv-id of the provider's
	// Authentication-Results stamp, the one every game believes
	// (game.auth_serv_id), and the router too before it answers a sender.
	// Required: without it no stamp is believed.
	AuthServID string `yaml:"auth_serv_id"`
}

// Folders of the shared mailbox.
const (
	// gameFolderPrefix + NAME is a game's folder, which its intake reads.
	gameFolderPrefix = "pbem-game-"
	// doneFolderPrefix + NAME holds a game's handled mail (its
	// processed_mailbox). Not a suffix of the game's folder: a game may be
	// named alpha-done.
	doneFolderPrefix = "pbem-done-"
	// UnroutedFolder holds mail for no game (its sender was answered).
	UnroutedFolder = "pbem-unrouted"
	// RefusedFolder holds mail over a game's limits (its sender was told).
	RefusedFolder = "pbem-refused"
)

// GameFolder is the folder of the shared mailbox a game's intake reads.
func GameFolder(name string) string { return gameFolderPrefix + name }

// DoneFolder is the folder a game's handled mail is moved to.
func DoneFolder(name string) string { return doneFolderPrefix + name }

func (e *ExternalMail) imapSecurity() mailconn.Security {
	if e.IMAPSecurity == "" {
		return mailconn.SecurityTLS
	}
	return mailconn.Security(e.IMAPSecurity)
}

func (e *ExternalMail) smtpSecurity() mailconn.Security {
	if e.SMTPSecurity == "" {
		return mailconn.SecurityTLS
	}
	return mailconn.Security(e.SMTPSecurity)
}

// imapPort and smtpPort are the ports, defaults filled in.
func (e *ExternalMail) imapPort() int {
	switch {
	case e.IMAPPort != 0:
		return e.IMAPPort
	case e.imapSecurity() == mailconn.SecurityTLS:
		return 993
	}
	return 143
}

func (e *ExternalMail) smtpPort() int {
	switch {
	case e.SMTPPort != 0:
		return e.SMTPPort
	case e.smtpSecurity() == mailconn.SecurityTLS:
		return 465
	}
	return 587
}

// username is the login, mail.address by default.
func (s *Settings) externalUser() string {
	if u := s.Mail.External.Username; u != "" {
		return u
	}
	return s.Mail.Address
}

// externalPassword reads the provider password.
func (s *Settings) externalPassword(dir string) (string, error) {
	path := s.Mail.External.PasswordFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("mail.external.password_file: %w (put the provider account's password, an app password at most providers, in it)", err)
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", fmt.Errorf("mail.external.password_file %s is empty: put the provider account's password in it", path)
	}
	return pw, nil
}

// checkExternal checks mail.external, each problem with its line in
// host.yaml (data) and what to do.
func (s *Settings) checkExternal(data []byte) error {
	e := s.Mail.External
	if e == nil {
		return nil
	}
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root)
	at := func(key string) string {
		if n := lineOf(&root, "mail", "external", key); n > 0 {
			return fmt.Sprintf("line %d: mail.external.%s", n, key)
		}
		if n := lineOf(&root, "mail", "external"); n > 0 {
			return fmt.Sprintf("line %d: mail.external.%s", n, key)
		}
		return "mail.external." + key
	}
	var problems []string
	add := func(key, format string, args ...any) {
		problems = append(problems, at(key)+": "+fmt.Sprintf(format, args...))
	}
	if _, _, ok := strings.Cut(s.Mail.Address, "@"); !ok || strings.ContainsAny(s.Mail.Address, " <>") {
		problems = append(problems, fmt.Sprintf("mail.address %q: expected the provider account's address, such as orders@club.example", s.Mail.Address))
	}
	endpoint := func(kind, host string, port int, sec string) {
		k := strings.ToLower(kind)
		if strings.TrimSpace(host) == "" {
			add(k+"_host", "missing: give the provider's %s server (such as %s.provider.example)", kind, k)
		}
		if port < 0 || port > 65535 {
			add(k+"_port", "%d is not a port: give 1 to 65535, or leave it out for the usual port", port)
		}
		switch mailconn.Security(sec) {
		case "", mailconn.SecurityTLS, mailconn.SecuritySTARTTLS:
		case mailconn.SecurityNone:
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				add(k+"_security", "none is allowed only to a loopback address, not %s: the password would cross the network in clear; use tls or starttls", host)
			}
		default:
			add(k+"_security", "%q: expected tls, starttls or none", sec)
		}
	}
	endpoint("IMAP", e.IMAPHost, e.IMAPPort, e.IMAPSecurity)
	endpoint("SMTP", e.SMTPHost, e.SMTPPort, e.SMTPSecurity)
	if strings.TrimSpace(e.PasswordFile) == "" {
		add("password_file", "missing: name the file (relative to the host folder) holding the account's password, such as secrets/mail/provider.txt")
	}
	if strings.TrimSpace(e.AuthServID) == "" {
		add("auth_serv_id", "missing: give the authserv-id of the provider's Authentication-Results header (look at a mail it delivered; such as mx.google.com), the stamp the games believe")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// lineOf is the line of the mapping key at path in a YAML document; 0
// when it is not there.
func lineOf(n *yaml.Node, path ...string) int {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, next = n.Content[i].Line, n.Content[i+1]
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return line
}

// sameMail reports whether two mail blocks of host.yaml say the same.
func sameMail(a, b MailSettings) bool {
	ea, eb := a.External, b.External
	a.External, b.External = nil, nil
	if a != b || (ea == nil) != (eb == nil) {
		return false
	}
	return ea == nil || *ea == *eb
}
