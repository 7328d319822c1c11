package host

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenarios"
)

// AddOptions are "pbem host add"'s choices. The zero value adds a game of
// the default scenario under the SYW 1752 rules.
type AddOptions struct {
	// Scenario is the scenario folder (map.txt, scenario.yaml) copied into
	// the game folder, or "trossian" for the Trossian campaign's (built
	// into pbem). Default: the default scenario built into pbem.
	Scenario string
	// Ruleset is the rules (campaign.RulesetIDs): an SYW edition, or
	// "trossian". Default "syw-1752", or "trossian" with the Trossian
	// scenario (and "trossian" alone picks that scenario).
	Ruleset string
	// Referee is the referee's address. Default "referee@" the host's
	// domain, an account on the host's server.
	Referee string
	// Name is the game's name as players see it. Default the game's name
	// (its id) in a sentence: "Game ypres".
	Name string
}

// Added says what AddGame wrote.
type Added struct {
	Dir     string   // the game folder
	Address string   // the game's own order address
	Nations []string // the scenario's nations
	Ruleset string
	From    string // where the scenario was copied from
}

// AddGame writes a new game folder DIR/games/NAME — its config (mail on
// the host's embedded server, at the game's own address orders+NAME@), a
// fresh password per nation and for the referee's commands, the scenario
// to edit — and enters it in host.yaml as running. A running host starts
// it within seconds.
func AddGame(dir, name string, o AddOptions) (*Added, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s, err := ReadSettings(dir)
	if err != nil {
		return nil, err
	}
	if _, ok := s.Games[name]; ok {
		return nil, fmt.Errorf("the host has a game %s already (pbem host list); choose another name", name)
	}
	gdir := GameDir(dir, name)
	if _, err := os.Stat(gdir); err == nil {
		return nil, fmt.Errorf("%s exists already: remove it or choose another name", gdir)
	}
	if s.Mail.External != nil {
		// The game's config names the provider password file; it does not
		// load without it.
		if _, err := s.externalPassword(dir); err != nil {
			return nil, fmt.Errorf("host.yaml's %w, then add the game again", err)
		}
	}
	sc, err := readScenario(&o)
	if err != nil {
		return nil, err
	}
	domain := s.Mail.Domain
	if s.Mail.External != nil {
		domain = domainOf(strings.ToLower(s.Mail.Address))
	}
	if o.Referee == "" {
		o.Referee = "referee@" + domain
	}
	// The host's games are played on its own mail server, which takes mail
	// only from its accounts and delivers only to them: a referee elsewhere
	// could neither send a command nor receive a report.
	if s.Mail.External == nil && !strings.HasSuffix(strings.ToLower(o.Referee), "@"+strings.ToLower(domain)) {
		return nil, fmt.Errorf("--referee %s: the host's games are played on its own mail server, which serves only addresses at %s; "+
			"give the referee an address there (for example referee-%s@%s), which he reads with any mail client", o.Referee, domain, name, domain)
	}
	if o.Name == "" {
		o.Name = "Game " + name
	}
	address := gameAddress(s, name)
	nations := sc.nations
	// The accounts on the host's server this game names: its own address,
	// the referee's and each nation's, each with the host's one password
	// file for that account.
	var accounts []string
	if s.Mail.External == nil {
		accounts = append(accounts, address, strings.ToLower(o.Referee))
		for _, n := range nations {
			accounts = append(accounts, n+"@"+domain)
		}
	}
	secretOf := map[string]string{}
	for _, a := range accounts {
		rel, err := ensureAccountSecret(dir, a)
		if err != nil {
			return nil, err
		}
		// From the game folder (games/NAME or archive/NAME: two deep).
		secretOf[a] = filepath.ToSlash(filepath.Join("..", "..", rel))
	}
	files := map[string][]byte{
		"config.yaml":            []byte(gameConfigText(s, name, o, address, nations, accounts, secretOf)),
		"scenario/map.txt":       sc.mapText,
		"scenario/scenario.yaml": sc.yaml,
		"secrets/referee.txt":    []byte(password.New() + "\n"),
	}
	for _, n := range nations {
		files["secrets/"+n+".txt"] = []byte(password.New() + "\n")
	}
	for _, d := range []struct {
		path string
		mode fs.FileMode
	}{{gdir, 0o755}, {filepath.Join(gdir, "scenario"), 0o755}, {filepath.Join(gdir, "secrets"), 0o700}, {filepath.Join(gdir, "data"), 0o700}} {
		if err := os.MkdirAll(d.path, d.mode); err != nil {
			return nil, err
		}
		if err := os.Chmod(d.path, d.mode); err != nil {
			return nil, err
		}
	}
	for rel, data := range files {
		mode := fs.FileMode(0o644)
		if strings.HasPrefix(rel, "secrets/") {
			mode = 0o600
		}
		if err := writeNew(filepath.Join(gdir, rel), data, mode); err != nil {
			return nil, err
		}
	}
	if _, err := config.Load(filepath.Join(gdir, "config.yaml")); err != nil {
		return nil, fmt.Errorf("the config written to %s does not load (a bug in pbem host add): %v", gdir, err)
	}
	s.Games[name] = &GameEntry{State: StateRunning}
	if err := WriteSettings(dir, s); err != nil {
		return nil, err
	}
	return &Added{Dir: gdir, Address: address, Nations: nations, Ruleset: o.Ruleset, From: sc.from}, nil
}

// addScenario is the scenario a game is added with, read and checked.
type addScenario struct {
	mapText, yaml []byte
	nations       []string
	from          string // where it was copied from
}

// readScenario reads and checks the scenario of o, and settles o's
// ruleset: SYW 1752 by default; for the Trossian campaign's scenario
// (--scenario trossian, or its folder) or ruleset (--ruleset trossian),
// the campaign's ruleset and its scenario, checked by the campaign's own
// loader (an area map, not a hex map).
func readScenario(o *AddOptions) (*addScenario, error) {
	if o.Scenario == "" {
		o.Scenario = "scenarios/default"
	}
	trossianScenario := o.Scenario == "trossian" || scenarios.IsTrossian(o.Scenario)
	if o.Ruleset == "trossian" && scenarios.IsDefault(o.Scenario) {
		o.Scenario, trossianScenario = scenarios.TrossianDir, true
	}
	if trossianScenario {
		if o.Scenario == "trossian" {
			o.Scenario = scenarios.TrossianDir
		}
		if o.Ruleset == "" {
			o.Ruleset = "trossian"
		}
	}
	if o.Ruleset == "" {
		o.Ruleset = "syw-1752"
	}
	c, err := campaign.ForRuleset(o.Ruleset)
	if err != nil {
		return nil, fmt.Errorf("--ruleset %s: %v", o.Ruleset, err)
	}
	if trossianScenario && c.ID() != "trossian" {
		return nil, fmt.Errorf("--scenario %s is the Trossian campaign's, played under its own rules: leave out --ruleset %s (or give --ruleset trossian)", o.Scenario, o.Ruleset)
	}
	fsys, from := scenarioFS(o.Scenario)
	sc := &addScenario{from: from}
	if sc.mapText, err = fs.ReadFile(fsys, "map.txt"); err != nil {
		return nil, fmt.Errorf("--scenario %s: cannot read its map.txt: %v (name a folder holding map.txt and scenario.yaml)", o.Scenario, err)
	}
	if sc.yaml, err = fs.ReadFile(fsys, "scenario.yaml"); err != nil {
		return nil, fmt.Errorf("--scenario %s: cannot read its scenario.yaml: %v", o.Scenario, err)
	}
	if _, err := ruleset.ByID(o.Ruleset); err == nil { // an SYW edition: a hex map
		m, err := hexmap.Parse(bytes.NewReader(sc.mapText), filepath.Join(o.Scenario, "map.txt"))
		if err != nil {
			return nil, fmt.Errorf("--scenario %s: %v", o.Scenario, err)
		}
		for _, n := range m.Nations {
			sc.nations = append(sc.nations, string(n.ID))
		}
		return sc, nil
	}
	// A campaign on another kind of map: its own loader checks it.
	loaded, err := c.LoadScenario(fsys, o.Scenario)
	if err != nil {
		return nil, fmt.Errorf("--scenario %s: %v", o.Scenario, err)
	}
	for _, n := range loaded.Nations() {
		sc.nations = append(sc.nations, string(n.ID))
	}
	return sc, nil
}

// gameAddress is a game's own order address on the host: the host's
// address with "+NAME" (orders+ypres@pbem.localhost).
func gameAddress(s *Settings, name string) string {
	local, domain, _ := strings.Cut(strings.ToLower(s.Mail.Address), "@")
	return local + "+" + name + "@" + domain
}

// scenarioFS is the scenario folder to copy: the folder named, or the
// default scenario built into pbem when that is scenarios/default and no
// such folder is here (an installed pbem).
func scenarioFS(dir string) (fs.FS, string) {
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

func gameConfigText(s *Settings, name string, o AddOptions, address string, nations, accounts []string, secretOf map[string]string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	domain := s.Mail.Domain
	if s.Mail.External != nil {
		domain = domainOf(strings.ToLower(s.Mail.Address))
	}
	w("# pbem configuration of game %s on a host, written by \"pbem host add\".\n", name)
	w("#\n# Every key and its default: docs/config.md; the host: docs/hosting.md. The game\n")
	w("# runs on the host's mail server (\"pbem run --host\"); it can also run alone\n")
	w("# (\"pbem --config %s/config.yaml run\") on the listen addresses below.\n\n", filepath.ToSlash(filepath.Join("games", name)))
	w("data_dir: data\nlog_level: info\n\ngame:\n")
	w("  # The game's id: in subjects, Message-IDs and the GAME line of every sheet.\n  id: %s\n  name: %q\n", name, o.Name)
	w("  ruleset: %s\n  scenario: scenario\n\n", o.Ruleset)
	w("  referee: %s\n  referee_password: {password_file: secrets/referee.txt}\n\n", o.Referee)
	if e := s.Mail.External; e != nil {
		w("  # The provider's stamp, the only one believed (host.yaml's mail.external).\n  auth_serv_id: %s\n\n", e.AuthServID)
	}
	w("  timezone: UTC\n  deadline:\n    time: \"18:00\"\n    every_days: 28\n\n")
	w("  # Each nation: the addresses its orders may come from and its initial\n")
	w("  # password (secrets/NATION.txt). REPLACE the example addresses with the\n")
	w("  # players' real ones.\n  nations:\n")
	for _, n := range nations {
		w("    %s: {addresses: [%s@%s], password_file: secrets/%s.txt}\n", n, n, domain, n)
	}
	if s.Mail.External != nil {
		w("%s", externalMailText(s, name))
		return b.String()
	}
	w("\nmail:\n  mode: embedded\n")
	w("  # The game's own address; the host's %s is routed here by the\n  # sheet's GAME line.\n  address: %s\n", s.Mail.Address, address)
	w("  embedded:\n    domain: %s\n", domain)
	w("    # Used when the game runs alone; on the host, the host's listen addresses.\n")
	w("    imap_listen: 127.0.0.1:1143\n    smtp_listen: 127.0.0.1:2525\n")
	w("    # Accounts on the host's server; an address has one password on the\n    # whole host, in the host's secrets/mail/.\n    accounts:\n")
	for _, a := range accounts {
		w("      - {user: %s, password_file: %s}\n", a, secretOf[a])
	}
	w("  imap:\n    poll_interval: 2m\n    idle: true\n")
	return b.String()
}

// externalMailText is the mail block of a game on a host whose address is
// at a provider: the shared account, read in the game's own folder, which
// the host's router fills.
func externalMailText(s *Settings, name string) string {
	e := s.Mail.External
	pwFile := e.PasswordFile
	if !filepath.IsAbs(pwFile) {
		pwFile = filepath.ToSlash(filepath.Join("..", "..", pwFile)) // from games/NAME or archive/NAME
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("\nmail:\n  mode: external\n")
	w("  # The host's one address at the provider: the game's answers and reports\n")
	w("  # go out from it, the game named in every subject. Mail to it is filed by\n")
	w("  # the host (its GAME line, orders+%s@, or the sender's only game) into\n", name)
	w("  # the folder below, which this game reads.\n  address: %s\n", s.Mail.Address)
	w("  imap:\n    host: %s\n    port: %d\n    security: %s\n", e.IMAPHost, e.imapPort(), e.imapSecurity())
	w("    username: %s\n    password_file: %s\n", s.externalUser(), pwFile)
	w("    mailbox: %s\n    processed_mailbox: %s\n", GameFolder(name), DoneFolder(name))
	w("    poll_interval: 2m\n    idle: true\n")
	w("  smtp:\n    host: %s\n    port: %d\n    security: %s\n", e.SMTPHost, e.smtpPort(), e.smtpSecurity())
	w("    username: %s\n    password_file: %s\n", s.externalUser(), pwFile)
	return b.String()
}
