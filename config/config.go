// Package config is pbem's one typed configuration: the Config struct, read
// from a YAML file (config.yaml), strictly.
//
// # Reading
//
// Parse starts from Default() and decodes the file over it with yaml.v3's
// Decoder.KnownFields(true), so a key the file leaves out keeps its default
// and a key pbem does not know is an error, never silently ignored. Errors
// are reported for people: each names the file, the line and the key path
// ("config.yaml:14: unknown key "pasword" in game.nations.eisenmark; did you
// mean "password"?"). All decoding problems come back together.
//
// # Checking
//
// Validate checks the whole config and returns every problem found, each
// with its key path and line, as Problems (an error). Load is Parse followed
// by Validate: what the daemon calls at start-up.
//
// # Secrets
//
// A password is given in one of three ways: inline (password), in a file
// (password_file, one line, relative paths resolved against the config
// file's directory) or in an environment variable (password_env). Inline
// passwords for the IMAP and SMTP accounts are allowed only in the embedded
// loopback mode. Secret values have the type Password, whose String,
// GoString, LogValue and YAML/JSON encodings print "********": a config can
// be logged or printed (Config.String) without leaking them. The text is
// read only by Secret.Value.
//
// Every key, its default and its meaning are listed in docs/config.md; the
// doc comment on each field says the same.
package config

import (
	"log/slog"
	"path/filepath"
	"time"

	// Deadlines are computed in game.timezone; embedding the zone database
	// makes that work on hosts without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/syw-pbem/pbem/internal/mailconn"
)

// Config is the whole configuration.
type Config struct {
	// DataDir holds the store (pbem.db) and the embedded mail server's data.
	// A relative path is resolved against the config file's directory.
	// Default "data".
	DataDir string `yaml:"data_dir"`

	// LogLevel is the least severe level logged: debug, info, warn or error.
	// Default "info".
	LogLevel string `yaml:"log_level"`

	// Game describes the campaign.
	Game Game `yaml:"game"`

	// Mail says how pbem reads and sends mail.
	Mail Mail `yaml:"mail"`

	// Web configures the referee's console (config/web.go).
	Web Web `yaml:"web"`

	source string         // the file name given to Parse, for messages
	dir    string         // relative paths are resolved against this
	lines  map[string]int // key path → line in the file
}

// Game describes the campaign.
type Game struct {
	// ID is the game's short id, used in subjects, Message-IDs and order
	// sheet headers: 1–16 lower-case letters, digits or '-', starting with
	// a letter. Default "syw".
	ID string `yaml:"id"`

	// Name is the game's name as players see it. Default "SYW Big Game
	// Campaign".
	Name string `yaml:"name"`

	// Ruleset is the rules edition: "syw-1752" or "syw-v4". Default
	// "syw-1752".
	Ruleset string `yaml:"ruleset"`

	// BattleModel is how pbem fights land battles: "simulation" (the
	// tabletop rules simulated, the default) or "lgg" (La Grande Guerre's
	// faster, coarser resolution). "" means the ruleset's own (simulation).
	BattleModel string `yaml:"battle_model"`

	// Scenario is the folder holding map.txt and scenario.yaml; a relative
	// path is resolved against the config file's directory. Default
	// "scenarios/default".
	Scenario string `yaml:"scenario"`

	// Referee is the referee's address: rulings and reports of failures go
	// to it, and referee commands are accepted only from it. Default
	// "referee@pbem.localhost".
	Referee string `yaml:"referee"`

	// RefereePassword is the referee's own password, required on a
	// PASSWORD line in every mail of referee commands (beside the
	// referee's address, and DKIM when require_dkim is on): password,
	// password_file or password_env. A value that is already a bcrypt hash
	// ("$2a$…", as htpasswd -nbB prints after the colon) is used as the hash;
	// otherwise pbem hashes it when it starts and keeps only the hash.
	// Default none: referee commands are then refused, and the referee is
	// told to set it.
	RefereePassword Secret `yaml:"referee_password"`

	// Timezone is the IANA zone deadlines are set and shown in, such as
	// "Europe/London". Default "UTC".
	Timezone string `yaml:"timezone"`

	// Deadline is the schedule of turn deadlines.
	Deadline Deadline `yaml:"deadline"`

	// ReminderHours is how many hours before a turn's deadline each nation
	// with no orders in yet is reminded by mail (with the deadline as an
	// .ics attachment); 0 sends no reminders. At most 336. Default 24.
	ReminderHours int `yaml:"reminder_hours"`

	// NMRAlertTurns is after how many turns in a row without orders from a
	// nation the referee is asked, in the turn's summary, what to do about
	// it; 0 never asks. Default 2.
	NMRAlertTurns int `yaml:"nmr_alert_turns"`

	// OutageHours is the mail-outage guard's window: when the intake could
	// not reach the mailbox for OutageMinutes or more within this many hours
	// before a turn's deadline, or the intake or outbox is failing at the
	// deadline, the turn waits for the referee. 0 turns the guard off.
	// Default 6.
	OutageHours int `yaml:"outage_hours"`

	// Battles is how land battles are fought: "auto" (the engine's model)
	// or "table" (each battle's sheet is mailed to the referee, who fights
	// it on the table and mails the result back). Default "auto".
	Battles string `yaml:"battles"`

	// AfterVictory is what happens once a nation has won (the victory tax
	// base at a year-end): "end" closes the game — no turn is resolved or
	// opened after the winning one, no reminders go out, and sheets are
	// answered that the game is over — and "play-on" lets the referee go on
	// playing as if nobody had won. Default "end".
	AfterVictory string `yaml:"after_victory"`

	// AfterOutage is what a turn held by the mail-outage guard does once the
	// mail works again: "wait" keeps it waiting for the referee (RESOLVE
	// NOW, or a new deadline), "resolve" resolves it as soon as pbem has
	// taken in the mail that reached the server before the deadline. The
	// referee is told either way. Default "wait".
	AfterOutage string `yaml:"after_outage"`

	// AfterEarlyResolve is how the next deadline is set after a turn is
	// resolved before its deadline (RESOLVE NOW, or every nation FINAL):
	// "keep-schedule" continues the schedule from the turn's scheduled
	// deadline, as if it had run its course; "shift" counts game.deadline's
	// every_days from the day the turn was resolved (listed dates stay
	// fixed). The referee's summary says which applied. Default
	// "keep-schedule".
	AfterEarlyResolve string `yaml:"after_early_resolve"`

	// BattleWaitHours is how long a turn waits for the referee's tabletop
	// result before the model fights the battle (the referee is told). 0
	// waits for ever. Default 48.
	BattleWaitHours int `yaml:"battle_wait_hours"`

	// Forecast is whether the answer to an order sheet carries the
	// forecast of the nation's turn — what its orders would do by the
	// engine's rules on its own view, as if no foreign force moved — with a
	// one-page PDF map of the planned paths: "on" or "off". A nation's
	// FORECAST ON or FORECAST OFF line overrides it for its own answers.
	// Default "off": an answer with its map costs about 60 ms of CPU, which
	// takes a burst of sheets well below the intake's goal (docs/forecast.md).
	Forecast string `yaml:"forecast"`

	// RequireDKIM makes an order mail count only if it carries a DKIM
	// signature of its From domain that verifies (a second factor beside
	// the password). Default false.
	RequireDKIM bool `yaml:"require_dkim"`

	// AuthServID is the authserv-id of the mail server pbem trusts to have
	// written Authentication-Results headers (for Gmail "mx.google.com").
	// Headers from any other id are ignored. Default "" (trust none).
	AuthServID string `yaml:"auth_serv_id"`

	// Nations maps each nation id to its registered addresses and initial
	// password. Default none; a game needs at least one.
	Nations map[string]Nation `yaml:"nations"`
}

// The values of game.after_victory.
const (
	AfterVictoryEnd    = "end"     // the game is over once a nation has won
	AfterVictoryPlayOn = "play-on" // the referee plays on after a victory
)

// The values of game.forecast.
const (
	ForecastOn  = "on"  // answers to sheets carry the forecast and its map
	ForecastOff = "off" // they do not, unless a nation's sheet says FORECAST ON
)

// The values of game.after_outage.
const (
	AfterOutageWait    = "wait"    // a held turn waits for the referee
	AfterOutageResolve = "resolve" // a held turn resolves once the mail works again
)

// The values of game.after_early_resolve.
const (
	AfterEarlyKeepSchedule = "keep-schedule" // the next deadline follows the schedule from the turn's scheduled one
	AfterEarlyShift        = "shift"         // the next deadline is counted from the day the turn was resolved
)

// GameOverAtVictory reports whether a victory ends the game
// (game.after_victory is end, or left out).
func (g Game) GameOverAtVictory() bool { return g.AfterVictory != AfterVictoryPlayOn }

// Nation is one nation's registration.
type Nation struct {
	// Addresses are the sender addresses the nation's mail may come from;
	// replies go to the first. At least one. Compared case-insensitively.
	Addresses []string `yaml:"addresses"`

	// The nation's initial order-sheet password. pbem stores only its hash;
	// a password changed in play is not overwritten by this one.
	Secret `yaml:",inline"`
}

// Mode is how pbem reaches mail.
type Mode string

// Mail modes.
const (
	// ModeEmbedded: pbem runs its own IMAP and SMTP server on loopback; for
	// a game on one machine, trying pbem out, and tests.
	ModeEmbedded Mode = "embedded"
	// ModeExternal: pbem uses a mail provider's IMAP and SMTP servers.
	ModeExternal Mode = "external"
)

// Mail says how pbem reads and sends mail.
type Mail struct {
	// Mode is "embedded" or "external". Default "embedded".
	Mode Mode `yaml:"mode"`

	// Address is the game's own address: players send orders to it, and
	// pbem's mail comes from it. Default "orders@pbem.localhost".
	Address string `yaml:"address"`

	// Embedded configures the built-in mail server (mode embedded only).
	Embedded Embedded `yaml:"embedded"`

	// IMAP is where pbem reads incoming mail.
	IMAP IMAP `yaml:"imap"`

	// SMTP is how pbem sends mail.
	SMTP SMTP `yaml:"smtp"`

	// KeepRawDays is how many days pbem keeps the raw bytes of received
	// mail (which hold the order sheet's PASSWORD line) after the turn they
	// came in for was resolved; then they are cleared from pbem.db, keeping
	// the mail's hash, sender, time and classification. 0 clears them at
	// resolution; -1 keeps them for ever. Default 30.
	KeepRawDays int `yaml:"keep_raw_days"`
}

// Embedded configures the built-in loopback mail server.
type Embedded struct {
	// Domain is the mail domain the server accepts mail for. Default
	// "pbem.localhost".
	Domain string `yaml:"domain"`

	// IMAPListen is the loopback host:port of its IMAP server. Default
	// "127.0.0.1:1143".
	IMAPListen string `yaml:"imap_listen"`

	// SMTPListen is the loopback host:port of its SMTP server. Default
	// "127.0.0.1:2525".
	SMTPListen string `yaml:"smtp_listen"`

	// Accounts are the mailboxes people (and pbem itself) log in to. There
	// must be one for mail.address. Default none.
	Accounts []Account `yaml:"accounts"`
}

// Account is one mailbox of the embedded server.
type Account struct {
	// User is the account's address, in the embedded domain.
	User string `yaml:"user"`

	// The account's login password.
	Secret `yaml:",inline"`
}

// Security is how a connection to a mail server is protected: the
// intake's and the outbox's mailconn.Security.
type Security = mailconn.Security

// Connection security.
const (
	// SecurityTLS: TLS from the first byte (IMAP port 993, SMTP port 465).
	SecurityTLS = mailconn.SecurityTLS
	// SecuritySTARTTLS: plain connection upgraded with STARTTLS (IMAP 143,
	// SMTP 587).
	SecuritySTARTTLS = mailconn.SecuritySTARTTLS
	// SecurityNone: no encryption; allowed only to a loopback host.
	SecurityNone = mailconn.SecurityNone
)

// IMAP is where pbem reads incoming mail.
type IMAP struct {
	// Host is the IMAP server (mode external only), such as
	// "imap.gmail.com". Default "".
	Host string `yaml:"host"`

	// Port is the server's port; 0 means the usual port for Security (993
	// for tls, 143 otherwise). Default 0.
	Port int `yaml:"port"`

	// Security is tls, starttls or none. Default "tls".
	Security Security `yaml:"security"`

	// Username is the login name (mode external only), usually the full
	// address. Default "".
	Username string `yaml:"username"`

	// The login password (mode external only; password_file or
	// password_env, never inline).
	Secret `yaml:",inline"`

	// Mailbox is the folder order mail arrives in. Default "INBOX".
	Mailbox string `yaml:"mailbox"`

	// ProcessedMailbox is the folder handled mail is moved to, when the
	// server can move messages safely (MOVE or UIDPLUS); it is created if
	// missing. Default "pbem-processed".
	ProcessedMailbox string `yaml:"processed_mailbox"`

	// PollInterval is how often the mailbox is checked even when IDLE is
	// in use (IDLE is only a wake-up: a dropped connection can silence it).
	// Between 1s and 5m. Default 2m.
	PollInterval time.Duration `yaml:"poll_interval"`

	// IDLE asks the server to announce new mail at once. Default true.
	IDLE bool `yaml:"idle"`

	// ArrivalGrace is how long after a deadline pbem keeps looking for mail
	// that reached the server before it (mode external only): some
	// providers show a new mail over IMAP seconds after they stamped it.
	// The turn is resolved once a look begun this long after the deadline
	// has taken everything in. Between 0s and 10m. Default 30s.
	ArrivalGrace time.Duration `yaml:"arrival_grace"`
}

// SMTP is how pbem sends mail.
type SMTP struct {
	// Host is the submission server (mode external only), such as
	// "smtp.gmail.com". Default "".
	Host string `yaml:"host"`

	// Port is the server's port; 0 means the usual port for Security (465
	// for tls, 587 for starttls, 25 for none). Default 0.
	Port int `yaml:"port"`

	// Security is tls, starttls or none. Default "tls".
	Security Security `yaml:"security"`

	// Username is the login name (mode external only). Default "".
	Username string `yaml:"username"`

	// The login password (mode external only; password_file or
	// password_env, never inline).
	Secret `yaml:",inline"`

	// RatePerMinute is the most messages sent per minute, to stay under
	// the provider's limits. Default 30.
	RatePerMinute int `yaml:"rate_per_minute"`

	// MaxAttempts is how many times a message is tried before it is marked
	// failed and the referee told. Default 8.
	MaxAttempts int `yaml:"max_attempts"`

	// BackoffInitial is the wait after the first temporary failure; each
	// further failure doubles it. Default 30s.
	BackoffInitial time.Duration `yaml:"backoff_initial"`

	// BackoffMax caps the wait between attempts. Default 1h.
	BackoffMax time.Duration `yaml:"backoff_max"`
}

// Default returns the configuration every key starts from, before the file
// is read. It has no nations and no embedded accounts, so by itself it does
// not validate.
func Default() *Config {
	return &Config{
		DataDir:  "data",
		LogLevel: "info",
		Game: Game{
			ID:       "syw",
			Name:     "SYW Big Game Campaign",
			Ruleset:  "syw-1752",
			Scenario: "scenarios/default",
			Referee:  "referee@pbem.localhost",
			Timezone: "UTC",
			Deadline: Deadline{Time: "18:00", EveryDays: 28},

			ReminderHours:   24,
			NMRAlertTurns:   2,
			OutageHours:     6,
			Battles:         "auto",
			BattleWaitHours: 48,
			AfterVictory:    AfterVictoryEnd,
			Forecast:        ForecastOff,

			AfterOutage:       AfterOutageWait,
			AfterEarlyResolve: AfterEarlyKeepSchedule,
		},
		Mail: Mail{
			Mode:    ModeEmbedded,
			Address: "orders@pbem.localhost",
			Embedded: Embedded{
				Domain:     "pbem.localhost",
				IMAPListen: "127.0.0.1:1143",
				SMTPListen: "127.0.0.1:2525",
			},
			IMAP: IMAP{
				Security:         SecurityTLS,
				Mailbox:          "INBOX",
				ProcessedMailbox: "pbem-processed",
				PollInterval:     2 * time.Minute,
				ArrivalGrace:     30 * time.Second,
				IDLE:             true,
			},
			SMTP: SMTP{
				Security:       SecurityTLS,
				RatePerMinute:  30,
				MaxAttempts:    8,
				BackoffInitial: 30 * time.Second,
				BackoffMax:     time.Hour,
			},
			KeepRawDays: 30,
		},
		Web: Web{Listen: "127.0.0.1:8026", SessionHours: 12},
		dir: ".",
	}
}

// LogLevels are the values log_level accepts.
var LogLevels = []string{"debug", "info", "warn", "error"}

// Source returns the file name the config was read from ("" for Default).
func (c *Config) Source() string { return c.source }

// Path resolves a path from the config (data_dir, scenario,
// password_file): relative paths are taken from the config file's
// directory, so pbem behaves the same whatever directory it is started in.
func (c *Config) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, p)
}

// StorePath is the store's file: pbem.db in data_dir.
func (c *Config) StorePath() string { return filepath.Join(c.Path(c.DataDir), "pbem.db") }

// ScenarioDir is game.scenario resolved against the config's directory.
func (c *Config) ScenarioDir() string { return c.Path(c.Game.Scenario) }

// Location returns game.timezone. Validate has checked it loads.
func (c *Config) Location() (*time.Location, error) { return time.LoadLocation(c.Game.Timezone) }

// SlogLevel returns log_level as a slog.Level (info if it is not valid).
func (c *Config) SlogLevel() slog.Level {
	switch c.LogLevel {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// NationIDs returns the ids of game.nations, sorted.
func (c *Config) NationIDs() []string { return sortedKeys(c.Game.Nations) }

// Endpoint is a resolved mail server connection: where to connect and how
// to log in, whichever the mode.
type Endpoint struct {
	Host     string   // server name or address
	Port     int      // never 0: the usual port is filled in
	Security Security // tls, starttls or none
	Username string   // login name
	Password Secret   // login password; call Value to read it
}

// IMAPEndpoint is the IMAP server pbem reads mail from: in mode embedded the
// built-in server (logging in as mail.address), else mail.imap.
func (c *Config) IMAPEndpoint() Endpoint {
	if c.Mail.Mode == ModeEmbedded {
		return c.embeddedEndpoint(c.Mail.Embedded.IMAPListen)
	}
	i := c.Mail.IMAP
	port := i.Port
	if port == 0 {
		port = 143
		if i.Security == SecurityTLS {
			port = 993
		}
	}
	return Endpoint{Host: i.Host, Port: port, Security: i.Security, Username: i.Username, Password: i.Secret}
}

// SMTPEndpoint is the SMTP server pbem sends through: in mode embedded the
// built-in server (logging in as mail.address), else mail.smtp.
func (c *Config) SMTPEndpoint() Endpoint {
	if c.Mail.Mode == ModeEmbedded {
		return c.embeddedEndpoint(c.Mail.Embedded.SMTPListen)
	}
	s := c.Mail.SMTP
	port := s.Port
	if port == 0 {
		switch s.Security {
		case SecurityTLS:
			port = 465
		case SecuritySTARTTLS:
			port = 587
		default:
			port = 25
		}
	}
	return Endpoint{Host: s.Host, Port: port, Security: s.Security, Username: s.Username, Password: s.Secret}
}

func (c *Config) embeddedEndpoint(listen string) Endpoint {
	host, port, _ := splitHostPort(listen)
	e := Endpoint{Host: host, Port: port, Security: SecurityNone, Username: c.Mail.Address}
	for _, a := range c.Mail.Embedded.Accounts {
		if equalFoldAddr(a.User, c.Mail.Address) {
			e.Password = a.Secret
		}
	}
	return e
}
