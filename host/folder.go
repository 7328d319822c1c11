package host

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/password"
	"go.yaml.in/yaml/v3"
)

// The host folder:
//
//	DIR/host.yaml            the host's own settings and its games' states (Settings)
//	DIR/secrets/mail/U.txt   the password of mail account U on the host's server
//	DIR/data/mail/           the embedded mail server's store, shared by the games
//	DIR/games/NAME/          a game folder, as "pbem init" writes one: config.yaml,
//	                         secrets/, scenario/, data/pbem.db (the game's own store)
//	DIR/archive/NAME/        an archived game's folder, moved out of games/
//	DIR/archive/NAME.jsonl   its archive ("pbem export"), written when it was archived
//	DIR/status.json          what the running host is doing with each game (list)

// SettingsFile is the host's settings file in the host folder.
const SettingsFile = "host.yaml"

// Settings is host.yaml: the host's mail and limits, and every game the
// host serves with the state the referee wants it in. It is read strictly
// (an unknown key is an error) and written back whole by the host commands.
type Settings struct {
	// Mail is the embedded mail server the host's games share.
	Mail MailSettings `yaml:"mail"`
	// Limits are every game's limits on the mail it takes, unless the
	// game's entry sets its own.
	Limits Limits `yaml:"limits"`
	// Web is the host's one web console, serving every game's referee's
	// desk (each signed in to with that game's own referee password) and
	// its nations' pages: web.listen, web.tls_cert, web.tls_key and
	// web.session_hours, as in a game's config.yaml (docs/config.md) —
	// loopback by default, refused beyond loopback without TLS; relative
	// paths are resolved against the host folder. The games' own web
	// blocks are used only when a game runs alone.
	Web config.Web `yaml:"web"`
	// Games are the host's games by name (the name is the game's folder
	// under games/ and its game.id).
	Games map[string]*GameEntry `yaml:"games"`
}

// MailSettings is the host's embedded mail server.
type MailSettings struct {
	// Domain is the server's mail domain. Default "pbem.localhost".
	Domain string `yaml:"domain"`
	// Address is the host's one order address: a sheet sent to it is
	// filed for the game its GAME line names (router.go). Default
	// "orders@" the domain. Each game has its own address beside it,
	// "orders+NAME@" the domain.
	Address string `yaml:"address"`
	// IMAPListen and SMTPListen are the loopback host:port the server
	// listens on. Defaults "127.0.0.1:1143" and "127.0.0.1:2525".
	IMAPListen string `yaml:"imap_listen"`
	SMTPListen string `yaml:"smtp_listen"`
	// External, when set, puts the host's one order address at a mail
	// provider instead of the embedded server: the host files the
	// provider's mailbox into a folder per game (extmail.go). Unset: the
	// embedded server.
	External *ExternalMail `yaml:"external,omitempty"`
}

// Limits bound the mail one game takes, so that one game's flood cannot
// slow the others. Zero fields mean the host's (or the default).
type Limits struct {
	// MaxMailKB is the largest mail, in KiB, taken for the game; a larger
	// one is refused at SMTP, with the limit named. Default 512.
	MaxMailKB int `yaml:"max_mail_kb,omitempty"`
	// MailsPerHour is how many mails one sender may send the game in an
	// hour; more are refused at SMTP as temporary ("try later"). Default
	// 60.
	MailsPerHour int `yaml:"mails_per_hour,omitempty"`
}

// Default limits.
const (
	DefaultMaxMailKB    = 512
	DefaultMailsPerHour = 60
)

// GameEntry is one game of the host.
type GameEntry struct {
	// State is what the referee wants: "running", "stopped" or
	// "archived".
	State string `yaml:"state"`
	// Restart counts "pbem host start" on the game: a held game (one that
	// failed) is started again when it changes.
	Restart int `yaml:"restart,omitempty"`
	// Limits are the game's own, over the host's.
	Limits Limits `yaml:"limits,omitempty"`
}

// The states of a game in host.yaml.
const (
	StateRunning  = "running"
	StateStopped  = "stopped"
	StateArchived = "archived"
)

// DefaultSettings are a new host's settings.
func DefaultSettings() *Settings {
	return &Settings{
		Mail: MailSettings{Domain: "pbem.localhost", Address: "orders@pbem.localhost",
			IMAPListen: "127.0.0.1:1143", SMTPListen: "127.0.0.1:2525"},
		Web:   config.Web{Listen: DefaultWebListen, SessionHours: 12},
		Games: map[string]*GameEntry{},
	}
}

// DefaultWebListen is where a host's console listens unless host.yaml's
// web.listen says otherwise: loopback, the port a game's console takes by
// default (a game on a host serves no console of its own).
const DefaultWebListen = "127.0.0.1:8026"

// nameRE is a game name: a game.id (1–16 lower-case letters, digits or
// '-', starting with a letter).
var nameRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,15}$`)

// CheckName refuses a game name that cannot be a game.id.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("game name %q: use 1 to 16 lower-case letters, digits or '-', starting with a letter (it is the game's id, in subjects and sheets)", name)
	}
	return nil
}

// ReadSettings reads DIR/host.yaml.
func ReadSettings(dir string) (*Settings, error) {
	path := filepath.Join(dir, SettingsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is not a host folder (it has no %s): make one with \"pbem host init %s\"", dir, SettingsFile, dir)
	}
	if err != nil {
		return nil, err
	}
	s := DefaultSettings()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(s); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v (fix the file; docs/hosting.md lists its keys)", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if s.Games == nil {
		s.Games = map[string]*GameEntry{}
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.checkExternal(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func (s *Settings) check() error {
	var problems []string
	if s.Mail.External == nil && !strings.HasSuffix(strings.ToLower(s.Mail.Address), "@"+strings.ToLower(s.Mail.Domain)) {
		problems = append(problems, fmt.Sprintf("mail.address %q is not an address of mail.domain %s", s.Mail.Address, s.Mail.Domain))
	}
	for _, name := range s.Names() {
		e := s.Games[name]
		if err := CheckName(name); err != nil {
			problems = append(problems, "games: "+err.Error())
		}
		if e == nil {
			problems = append(problems, fmt.Sprintf("games.%s: expected {state: running}", name))
			continue
		}
		switch e.State {
		case StateRunning, StateStopped, StateArchived:
		default:
			problems = append(problems, fmt.Sprintf("games.%s.state %q: expected running, stopped or archived", name, e.State))
		}
		if e.Limits.MaxMailKB < 0 || e.Limits.MailsPerHour < 0 {
			problems = append(problems, fmt.Sprintf("games.%s.limits: expected numbers from 0 (0: the host's)", name))
		}
	}
	if s.Limits.MaxMailKB < 0 || s.Limits.MailsPerHour < 0 {
		problems = append(problems, "limits: expected numbers from 0 (0: the default)")
	}
	problems = append(problems, s.webProblems()...)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// webProblems checks the web block as a game's config is checked: an
// address, both files or neither, TLS beyond loopback, sessions of 1–168
// hours. (Whether the files can be read is for the start to say.)
func (s *Settings) webProblems() []string {
	w := s.Web
	if !w.ConsoleOn() {
		return nil
	}
	var problems []string
	host, _, err := net.SplitHostPort(w.Listen)
	if err != nil {
		return []string{fmt.Sprintf("web.listen %q is not host:port: %v; write it like 127.0.0.1:8026, or off for no console", w.Listen, err)}
	}
	if (w.TLSCert == "") != (w.TLSKey == "") {
		problems = append(problems, "web: give both web.tls_cert and web.tls_key, or neither")
	}
	if !w.ConsoleTLS() && !loopback(host) {
		problems = append(problems, fmt.Sprintf("web.listen %q listens beyond this machine: the console then needs TLS (web.tls_cert and web.tls_key), "+
			"or listen on 127.0.0.1 and reach it through an SSH tunnel", w.Listen))
	}
	if w.SessionHours < 1 || w.SessionHours > 168 {
		problems = append(problems, fmt.Sprintf("web.session_hours %d is out of range; give 1 to 168 hours", w.SessionHours))
	}
	return problems
}

// loopback reports whether host is this machine only.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// WebPath resolves a web.tls_cert or web.tls_key of host.yaml: relative to
// the host folder dir.
func (s *Settings) WebPath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Names lists the games, sorted.
func (s *Settings) Names() []string {
	var names []string
	for n := range s.Games {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LimitsOf are the limits in force for a game: its own, else the host's,
// else the defaults.
func (s *Settings) LimitsOf(name string) Limits {
	l := Limits{MaxMailKB: DefaultMaxMailKB, MailsPerHour: DefaultMailsPerHour}
	if s.Limits.MaxMailKB > 0 {
		l.MaxMailKB = s.Limits.MaxMailKB
	}
	if s.Limits.MailsPerHour > 0 {
		l.MailsPerHour = s.Limits.MailsPerHour
	}
	if e := s.Games[name]; e != nil {
		if e.Limits.MaxMailKB > 0 {
			l.MaxMailKB = e.Limits.MaxMailKB
		}
		if e.Limits.MailsPerHour > 0 {
			l.MailsPerHour = e.Limits.MailsPerHour
		}
	}
	return l
}

const settingsHeader = `# pbem host settings, written by "pbem host"; docs/hosting.md lists every key.
# The games' states are changed with "pbem host stop|start|archive|remove NAME";
# a running "pbem run --host" picks changes up within seconds.
`

// WriteSettings writes DIR/host.yaml whole (a temporary file renamed over
// it, so a reader never sees half of it).
func WriteSettings(dir string, s *Settings) error {
	if err := s.check(); err != nil {
		return err
	}
	body, err := yaml.Marshal(s)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, SettingsFile), append([]byte(settingsHeader), body...), 0o644)
}

// writeAtomic writes path through a temporary file, synced and renamed.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// GameDir is where a game's folder is while it is on the host.
func GameDir(dir, name string) string { return filepath.Join(dir, "games", name) }

// ArchiveDir is where an archived game's folder is.
func ArchiveDir(dir, name string) string { return filepath.Join(dir, "archive", name) }

// ConfigPath is a game's config file: under games/, or under archive/ once
// archived.
func ConfigPath(dir, name string, e *GameEntry) string {
	if e != nil && e.State == StateArchived {
		return filepath.Join(ArchiveDir(dir, name), "config.yaml")
	}
	return filepath.Join(GameDir(dir, name), "config.yaml")
}

// Init makes a new host folder: host.yaml with the defaults (and the
// domain given, if any), the folders, and the host address's account
// password.
func Init(dir, domain string) error {
	if _, err := os.Stat(filepath.Join(dir, SettingsFile)); err == nil {
		return fmt.Errorf("%s is a host folder already (it has %s); add games to it with \"pbem host add NAME\"", dir, SettingsFile)
	}
	s := DefaultSettings()
	if domain != "" {
		s.Mail.Domain = strings.ToLower(domain)
		s.Mail.Address = "orders@" + s.Mail.Domain
	}
	for _, d := range []struct {
		path string
		mode fs.FileMode
	}{{dir, 0o755}, {filepath.Join(dir, "games"), 0o755}, {filepath.Join(dir, "archive"), 0o755},
		{filepath.Join(dir, "secrets"), 0o700}, {filepath.Join(dir, "secrets", "mail"), 0o700}, {filepath.Join(dir, "data"), 0o700}} {
		if err := os.MkdirAll(d.path, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(d.path, d.mode); err != nil {
			return err
		}
	}
	if _, err := ensureAccountSecret(dir, s.Mail.Address); err != nil {
		return err
	}
	return WriteSettings(dir, s)
}

// accountSecretRel is the password file of a mail account on the host's
// server, relative to the host folder.
func accountSecretRel(user string) string {
	return filepath.Join("secrets", "mail", strings.ToLower(user)+".txt")
}

// ensureAccountSecret makes the password file of a mail account on the
// host's server if it has none, and returns its path relative to the host
// folder. Every game that names the account shares the file, so an
// address has one password on the host however many games it plays in.
func ensureAccountSecret(dir, user string) (string, error) {
	rel := accountSecretRel(user)
	path := filepath.Join(dir, rel)
	if _, err := os.Stat(path); err == nil {
		return rel, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if err := writeNew(path, []byte(password.New()+"\n"), 0o600); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return rel, nil
}

// writeNew writes a file that must not exist yet.
func writeNew(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
