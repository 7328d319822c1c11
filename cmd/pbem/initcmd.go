package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/scenarios"
)

// mailPreset is a mail provider's settings for "pbem init", as
// docs/config.md gives them.
type mailPreset struct {
	name        string
	address     string // the example game address
	imapHost    string
	imapPort    int
	smtpHost    string
	smtpPort    int
	security    config.Security
	authServID  string
	ratePerMin  int
	explanation string // the comment above mail:, one line per element
}

var mailPresets = map[string]mailPreset{
	"gmail": {name: "Gmail", address: "syw.orders@gmail.com", imapHost: "imap.gmail.com", imapPort: 993,
		smtpHost: "smtp.gmail.com", smtpPort: 465, security: config.SecurityTLS, authServID: "mx.google.com", ratePerMin: 10,
		explanation: "Gmail needs an app password: turn on 2-Step Verification for the Google account, then\n" +
			"create one under Google Account > Security > App passwords. The normal account password\n" +
			"does not work over IMAP and SMTP. Folders are labels: pbem-processed appears as a label."},
	"fastmail": {name: "Fastmail", address: "syw-orders@fastmail.com", imapHost: "imap.fastmail.com", imapPort: 993,
		smtpHost: "smtp.fastmail.com", smtpPort: 465, security: config.SecurityTLS, ratePerMin: 30,
		explanation: "Fastmail needs an app password (Settings > Privacy & Security > App passwords, access\n" +
			"\"Mail\"); the normal password and the two-step code do not work."},
	"generic": {name: "a generic IMAP/SMTP host", address: "orders@example.org", imapHost: "imap.example.org", imapPort: 993,
		smtpHost: "smtp.example.org", smtpPort: 465, security: config.SecurityTLS, ratePerMin: 30,
		explanation: "Any provider with IMAP and SMTP submission: fill in its hosts and ports (IMAP 993 and\n" +
			"SMTP 465 with security tls; 143 and 587 with starttls)."},
}

// presetNames lists the presets for messages.
const presetNames = "gmail, fastmail or generic"

// initOptions are "pbem init"'s flags.
type initOptions struct {
	dir, provider, address, referee, imap, smtp, security, username, scenario string
	// campaign is the campaign of a scenario not played on a hex map (the
	// Trossian one: --scenario trossian); nil for SYW.
	campaign campaign.Campaign
}

func runInit(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	var o initOptions
	fs.StringVar(&o.provider, "provider", "generic", "the mail provider's preset: "+presetNames)
	fs.StringVar(&o.address, "address", "", "the game's own address, the mail account pbem reads (default: the preset's example)")
	fs.StringVar(&o.referee, "referee", "referee@example.org", "the referee's address")
	fs.StringVar(&o.imap, "imap", "", "the IMAP server as HOST:PORT (default: the preset's)")
	fs.StringVar(&o.smtp, "smtp", "", "the SMTP submission server as HOST:PORT (default: the preset's)")
	fs.StringVar(&o.security, "security", "", "tls, starttls, or none (loopback hosts only) for both servers (default: the preset's, tls)")
	fs.StringVar(&o.username, "username", "", "the login name for IMAP and SMTP (default: the game's address)")
	fs.StringVar(&o.scenario, "scenario", "scenarios/default", "the scenario folder (map.txt, scenario.yaml) to copy into the game folder, or \"trossian\" for the Trossian campaign's")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		e.errorf("init: expected one folder to create the game in, got %d (see \"pbem init --help\")", fs.NArg())
		return exitUsage
	}
	o.dir = fs.Arg(0)
	p, ok := mailPresets[strings.ToLower(o.provider)]
	if !ok {
		e.errorf("init: unknown --provider %q: expected %s", o.provider, presetNames)
		return exitUsage
	}
	if o.address == "" {
		o.address = p.address
	}
	if o.username == "" {
		o.username = o.address
	}
	if o.security != "" {
		switch s := config.Security(o.security); s {
		case config.SecurityTLS, config.SecuritySTARTTLS, config.SecurityNone:
			p.security = s
		default:
			e.errorf("init: unknown --security %q: expected tls, starttls or none", o.security)
			return exitUsage
		}
	}
	for _, hp := range []struct {
		flag, value string
		host        *string
		port        *int
	}{{"--imap", o.imap, &p.imapHost, &p.imapPort}, {"--smtp", o.smtp, &p.smtpHost, &p.smtpPort}} {
		if hp.value == "" {
			continue
		}
		h, port, err := net.SplitHostPort(hp.value)
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil || n <= 0 || n > 65535 || h == "" {
			e.errorf("init: %s %s: expected HOST:PORT, such as imap.example.org:993", hp.flag, hp.value)
			return exitUsage
		}
		*hp.host, *hp.port = h, n
	}
	return initGame(e, o, p)
}

// initGame writes the game folder.
func initGame(e *env, o initOptions, p mailPreset) int {
	if entries, err := os.ReadDir(o.dir); err == nil && len(entries) > 0 {
		e.errorf("init: %s is not empty: pbem init writes a new game folder and overwrites nothing; name a new or empty folder", o.dir)
		return exitUsage
	}
	if o.scenario == "trossian" || scenarios.IsTrossian(o.scenario) {
		o.campaign = campaign.Trossian()
		if o.scenario == "trossian" {
			o.scenario = scenarios.TrossianDir
		}
	}
	fsys, from := initScenarioFS(o.scenario)
	mapText, err := fs.ReadFile(fsys, "map.txt")
	if err != nil {
		e.errorf("init: cannot read the scenario's map %s: %v (name the scenario folder with --scenario)", filepath.Join(o.scenario, "map.txt"), err)
		return exitFailure
	}
	var nationList []game.Nation
	if o.campaign != nil {
		// A campaign on an area map: its own loader checks map and scenario.
		sc, err := o.campaign.LoadScenario(fsys, o.scenario)
		if err != nil {
			e.errorf("init: cannot read the scenario %s: %v (name the scenario folder with --scenario)", o.scenario, err)
			return exitFailure
		}
		nationList = sc.Nations()
	} else {
		m, err := hexmap.Parse(bytes.NewReader(mapText), filepath.Join(o.scenario, "map.txt"))
		if err != nil {
			e.errorf("init: cannot read the scenario's map %s: %v (name the scenario folder with --scenario)", filepath.Join(o.scenario, "map.txt"), err)
			return exitFailure
		}
		nationList = m.Nations
	}
	scen, err := fs.ReadFile(fsys, "scenario.yaml")
	if err != nil {
		e.errorf("init: cannot read the scenario %s: %v (name the scenario folder with --scenario)", filepath.Join(o.scenario, "scenario.yaml"), err)
		return exitFailure
	}
	// Secrets: one per nation, one for the referee, and the mail
	// account's (the provider's app password, which only the referee has).
	secrets := map[string]string{}
	var nations []string
	for _, n := range nationList {
		nations = append(nations, string(n.ID))
		secrets[string(n.ID)+".txt"] = password.New()
	}
	secrets["referee.txt"] = password.New()
	mailPW := os.Getenv("PBEM_MAIL_PASSWORD")
	if mailPW == "" {
		mailPW = mailPasswordPlaceholder
	}
	secrets["mail.txt"] = mailPW
	text, refereeKey := initConfigText(o, p, nations)
	files := []struct {
		name string
		data []byte
		mode fs.FileMode
	}{
		{"config.yaml", []byte(text), 0o644},
		{"scenario/map.txt", mapText, 0o644},
		{"scenario/scenario.yaml", scen, 0o644},
	}
	for _, name := range slices.Sorted(maps.Keys(secrets)) {
		files = append(files, struct {
			name string
			data []byte
			mode fs.FileMode
		}{"secrets/" + name, []byte(secrets[name] + "\n"), 0o600})
	}
	for _, d := range []string{o.dir, filepath.Join(o.dir, "scenario"), filepath.Join(o.dir, "secrets"), filepath.Join(o.dir, "data")} {
		mode := fs.FileMode(0o755)
		if strings.HasSuffix(d, "secrets") || strings.HasSuffix(d, "data") {
			mode = 0o700 // passwords; the store and mailboxes keep raw mail with PASSWORD lines
		}
		if err := os.MkdirAll(d, mode); err != nil {
			e.errorf("init: cannot create %s: %v", d, err)
			return exitFailure
		}
		if err := os.Chmod(d, mode); err != nil {
			e.errorf("init: cannot set the permissions of %s: %v", d, err)
			return exitFailure
		}
	}
	for _, f := range files {
		path := filepath.Join(o.dir, f.name)
		if err := writeNew(path, f.data, f.mode); err != nil {
			e.errorf("init: cannot write %s: %v", path, err)
			return exitFailure
		}
	}
	cfgPath := filepath.Join(o.dir, "config.yaml")
	if _, err := config.Load(cfgPath); err != nil {
		// A bug in init, not the user's doing: say so plainly.
		fmt.Fprintln(e.stderr, err)
		e.errorf("init: the config written to %s does not load; this is a bug in pbem init", cfgPath)
		return exitFailure
	}
	w := e.stdout
	fmt.Fprintf(w, "wrote the game folder %s for %s:\n", o.dir, p.name)
	fmt.Fprintf(w, "  config.yaml              the configuration (mail.mode: external); every key is described in docs/config.md\n")
	fmt.Fprintf(w, "  scenario/                the map and starting forces, copied from %s to edit freely\n", from)
	fmt.Fprintf(w, "  secrets/NATION.txt       a fresh password for each nation (%s), readable only by you\n", strings.Join(nations, ", "))
	if refereeKey {
		fmt.Fprintf(w, "  secrets/referee.txt      the referee's password for commands by mail (game.referee_password)\n")
	} else {
		fmt.Fprintf(w, "  secrets/referee.txt      a password for the referee, for when referee commands need one\n")
	}
	if mailPW == mailPasswordPlaceholder {
		fmt.Fprintf(w, "  secrets/mail.txt         the mail account's password: REPLACE its first line with the provider's app password\n")
	} else {
		fmt.Fprintf(w, "  secrets/mail.txt         the mail account's password (from PBEM_MAIL_PASSWORD)\n")
	}
	fmt.Fprintf(w, "\nNext: replace the example addresses in config.yaml with the players' real ones, give each player\n"+
		"their nation's password, then check everything against the real mail servers:\n\n  %s --config %s doctor\n",
		selfName(), shellQuote(cfgPath))
	return exitOK
}

// initScenarioFS is the scenario folder "pbem init" copies: the folder
// named, or — when that is the default scenarios/default and there is no
// such folder here, as for an installed pbem — the default scenario built
// into pbem. from names it for the summary.
func initScenarioFS(dir string) (fsys fs.FS, from string) {
	if scenarios.IsDefault(dir) {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return scenarios.Default(), "the default scenario built into pbem"
		}
	}
	if scenarios.IsTrossian(dir) {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return scenarios.Trossian(), "the Trossian scenario built into pbem"
		}
	}
	return os.DirFS(dir), dir
}

// mailPasswordPlaceholder is the first line of secrets/mail.txt until the
// referee puts the provider's password there; "pbem doctor" recognises it.
const mailPasswordPlaceholder = "REPLACE-WITH-THE-MAIL-ACCOUNTS-APP-PASSWORD"

// writeNew writes a file that must not exist yet, with mode.
func writeNew(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil { // whatever the umask did
		f.Close()
		return err
	}
	return f.Close()
}

// initConfigText is the commented config.yaml. refereeKey tells whether it
// names the referee's password file (when this pbem's config has the key).
func initConfigText(o initOptions, p mailPreset, nations []string) (string, bool) {
	with := configText(o, p, nations, true)
	var ps config.Problems
	if _, err := config.Parse([]byte(with), "config.yaml"); err != nil && errors.As(err, &ps) && strings.Contains(err.Error(), "referee_password") {
		return configText(o, p, nations, false), false
	}
	return with, true
}

func configText(o initOptions, p mailPreset, nations []string, refereeKey bool) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	const domain = "example.org" // placeholders no real person receives mail at
	w("# pbem configuration for a game by mail through %s, written by \"pbem init\".\n", p.name)
	w("#\n# Every key and its default: docs/config.md. Keys left out take their default; an\n")
	w("# unknown key is an error with its line. Relative paths are resolved against the\n")
	w("# folder this file is in. Check it against the real servers with \"pbem doctor\".\n\n")
	w("# Where the store (pbem.db) lives; pbem run creates it.\ndata_dir: data\n\nlog_level: info\n\n")
	w("game:\n")
	w("  # Short id: in subjects, Message-IDs and sheet headers. Do not change it once\n  # the game has started.\n")
	if o.campaign != nil && o.campaign.ID() == "trossian" {
		w("  id: tross\n  name: The Trossian Campaign\n\n  # The campaign's ruleset: trossian (seed 004), the campaign behind the seam.\n  ruleset: trossian\n\n")
	} else {
		w("  id: syw\n")
		w("  name: SYW Big Game Campaign\n\n  # Rules edition: syw-1752 or syw-v4.\n  ruleset: syw-1752\n\n")
	}
	w("  # The map and starting forces, copied here to edit; \"pbem map validate\"\n  # checks the map.\n  scenario: scenario\n\n")
	w("  # The referee's address: rulings and failure reports go here, and referee\n  # commands are accepted only from it.\n  referee: %s\n", o.referee)
	if refereeKey {
		w("  # The referee's password, on a PASSWORD line of every mail of referee commands.\n")
		w("  referee_password:\n    password_file: secrets/referee.txt\n")
	} else {
		w("  # secrets/referee.txt holds a fresh password for the referee, for when this\n")
		w("  # pbem asks for one on referee commands (it does not yet).\n")
	}
	w("\n  # Deadlines are set and shown in this zone (an IANA name).\n  timezone: Europe/London\n\n")
	w("  # A deadline every every_days days at `time`; or list dates (dates: [2026-03-06]).\n")
	w("  deadline:\n    time: \"18:00\"\n    every_days: 28\n\n")
	w("  # Count an order mail only if a DKIM signature of its From domain verifies:\n")
	w("  # a second factor beside the password. Turn on once \"pbem doctor\" shows the\n  # players' providers sign.\n  require_dkim: false\n\n")
	if p.authServID != "" {
		w("  # The provider's receiving servers write Authentication-Results with this id.\n  auth_serv_id: %s\n\n", p.authServID)
	} else {
		w("  # The authserv-id of the provider's Authentication-Results headers: the first\n")
		w("  # word of the topmost such header in a received mail. Empty: trust none.\n  auth_serv_id: \"\"\n\n")
	}
	w("  # Each nation: the addresses its orders may come from (replies go to the\n")
	w("  # first) and its initial password, a fresh random one in secrets/. REPLACE the\n")
	w("  # example addresses with the players' real ones, and give each player the\n")
	w("  # password in their nation's file.\n  nations:\n")
	for _, n := range nations {
		w("    %s:\n      addresses: [%s@%s]\n      password_file: secrets/%s.txt\n", n, n, domain, n)
	}
	w("\nmail:\n")
	for _, l := range strings.Split(p.explanation, "\n") {
		w("  # %s\n", l)
	}
	w("  # The password is the first line of secrets/mail.txt (readable only by you).\n")
	w("  mode: external\n\n  # The game's address: players send orders here; pbem's mail comes from it.\n  address: %s\n\n", o.address)
	w("  imap:\n    host: %s\n    port: %d\n    security: %s\n    username: %s\n    password_file: secrets/mail.txt\n", p.imapHost, p.imapPort, p.security, o.username)
	w("    mailbox: INBOX\n    # Handled mail is moved here (created if missing) when the server can move\n")
	w("    # safely (MOVE or UIDPLUS); otherwise it is flagged and left in place.\n    processed_mailbox: pbem-processed\n")
	w("    poll_interval: 2m\n    idle: true\n\n")
	smtpSec := p.security
	w("  smtp:\n    host: %s\n    port: %d\n    security: %s\n    username: %s\n    password_file: secrets/mail.txt\n", p.smtpHost, p.smtpPort, smtpSec, o.username)
	w("    # Stay under the provider's sending limits.\n    rate_per_minute: %d\n    max_attempts: 8\n    backoff_initial: 30s\n    backoff_max: 1h\n", p.ratePerMin)
	w("\n# The referee's console in a browser, served by pbem run (docs/console.md). On\n")
	w("# loopback it serves this machine only (an SSH tunnel reaches it); any other\n")
	w("# address needs tls_cert and tls_key. off: no console.\nweb:\n  listen: 127.0.0.1:8026\n")
	return b.String()
}
