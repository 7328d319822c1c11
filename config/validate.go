package config

import (
	"fmt"
	"net"
	"net/mail"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/trossian"
)

// Validate checks the whole config and returns every problem found as
// Problems, each with its key path and (when the key is in the file) its
// line; nil if there are none. It reads password files and environment
// variables to check they are there, and never prints their contents.
func (c *Config) Validate() error {
	v := &validator{c: c}
	v.top()
	v.game()
	v.mail()
	v.web()
	if len(v.ps) == 0 {
		return nil
	}
	slices.SortStableFunc(v.ps, func(a, b Problem) int {
		if a.Line == 0 || b.Line == 0 { // keys not in the file go last, in check order
			return boolInt(a.Line == 0) - boolInt(b.Line == 0)
		}
		return a.Line - b.Line
	})
	return v.ps
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

type validator struct {
	c  *Config
	ps Problems
}

// add records a problem at path; its line is the key's, or the nearest
// enclosing key's when the key itself is not in the file.
func (v *validator) add(path, format string, args ...any) {
	line := 0
	for p := path; p != ""; p = trimLastKey(p) {
		if l, ok := v.c.lines[p]; ok {
			line = l
			break
		}
	}
	v.ps = append(v.ps, Problem{File: v.c.source, Line: line, Path: path, Message: fmt.Sprintf(format, args...)})
}

// trimLastKey turns "a.b[2]" into "a.b" and "a.b" into "a".
func trimLastKey(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndex(p, "["); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}

func (v *validator) top() {
	if strings.TrimSpace(v.c.DataDir) == "" {
		v.add("data_dir", "is empty; give the folder for pbem.db, such as data")
	}
	if !slices.Contains(LogLevels, v.c.LogLevel) {
		v.add("log_level", "%q is not a log level; use one of %s", v.c.LogLevel, strings.Join(LogLevels, ", "))
	}
}

var (
	gameIDRE   = regexp.MustCompile(`^[a-z][a-z0-9-]{0,15}$`)
	nationIDRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)
	authServRE = regexp.MustCompile(`^[A-Za-z0-9.-]+$`)
)

func (v *validator) game() {
	g := v.c.Game
	if !gameIDRE.MatchString(g.ID) {
		v.add("game.id", "%q is not a game id; use 1–16 lower-case letters, digits or '-', starting with a letter", g.ID)
	}
	if strings.TrimSpace(g.Name) == "" {
		v.add("game.name", "is empty; give the game's name")
	}
	// The SYW editions and the Trossian campaign's ruleset (package
	// campaign chooses the campaign by it; config cannot import campaign,
	// which sits above it).
	if ids := slices.Concat(ruleset.IDs(), trossian.IDs()); !slices.Contains(ids, g.Ruleset) {
		v.add("game.ruleset", "%q is not a ruleset pbem knows; use one of %s", g.Ruleset, strings.Join(ids, ", "))
	}
	if g.BattleModel != "" && !slices.Contains(ruleset.BattleModels, g.BattleModel) {
		v.add("game.battle_model", "%q is not a battle model pbem knows; use one of %s (or leave it out for the ruleset's own)", g.BattleModel, strings.Join(ruleset.BattleModels, ", "))
	}
	if strings.TrimSpace(g.Scenario) == "" {
		v.add("game.scenario", "is empty; give the folder holding map.txt and scenario.yaml")
	}
	v.address("game.referee", g.Referee)
	if g.RefereePassword.IsSet() {
		v.secret("game.referee_password", g.RefereePassword, true)
	}
	loc, err := time.LoadLocation(g.Timezone)
	if err != nil || g.Timezone == "" {
		v.add("game.timezone", "%q is not a time zone; use an IANA name such as Europe/London or UTC", g.Timezone)
		loc = time.UTC
	}
	v.deadline(g.Deadline, loc)
	if g.NMRAlertTurns < 0 || g.NMRAlertTurns > 100 {
		v.add("game.nmr_alert_turns", "%d is out of range; use 1 to 100 turns, or 0 never to ask", g.NMRAlertTurns)
	}
	if g.OutageHours < 0 || g.OutageHours > 336 {
		v.add("game.outage_hours", "%d is out of range; use 1 to 336 hours before the deadline, or 0 to turn the guard off", g.OutageHours)
	}
	if g.Battles != "auto" && g.Battles != "table" {
		v.add("game.battles", "%q is not a way to fight battles; write auto (the engine's model) or table (the referee's table)", g.Battles)
	}
	if g.Forecast != ForecastOn && g.Forecast != ForecastOff {
		v.add("game.forecast", "%q is not a choice; write on (answers to sheets carry the forecast of the turn and its map) or off", g.Forecast)
	}
	if g.AfterOutage != AfterOutageWait && g.AfterOutage != AfterOutageResolve {
		v.add("game.after_outage", "%q is not a choice; write wait (a held turn waits for the referee) or resolve (it resolves once the mail works again)", g.AfterOutage)
	}
	if g.AfterEarlyResolve != AfterEarlyKeepSchedule && g.AfterEarlyResolve != AfterEarlyShift {
		v.add("game.after_early_resolve", "%q is not a choice; write keep-schedule (the next deadline follows the schedule) or shift (it is counted from the day the turn was resolved)", g.AfterEarlyResolve)
	}
	if g.AfterVictory != AfterVictoryEnd && g.AfterVictory != AfterVictoryPlayOn {
		v.add("game.after_victory", "%q is not a choice; write end (a victory ends the game) or play-on (the referee plays on after a victory)", g.AfterVictory)
	}
	if g.BattleWaitHours < 0 || g.BattleWaitHours > 2000 {
		v.add("game.battle_wait_hours", "%d is out of range; use 1 to 2000 hours, or 0 to wait for ever", g.BattleWaitHours)
	}
	if g.ReminderHours < 0 || g.ReminderHours > 336 {
		v.add("game.reminder_hours", "%d is out of range; use 1 to 336 hours before the deadline, or 0 for no reminders", g.ReminderHours)
	}
	if g.AuthServID != "" && !authServRE.MatchString(g.AuthServID) {
		v.add("game.auth_serv_id", "%q is not a server id; copy the first word of a trusted Authentication-Results header, such as mx.google.com", g.AuthServID)
	}

	if len(g.Nations) == 0 {
		v.add("game.nations", "no nations; list each nation with its addresses and password")
	}
	for _, id := range sortedKeys(g.Nations) {
		n := g.Nations[id]
		path := "game.nations." + id
		if !nationIDRE.MatchString(id) {
			v.add(path, "%q is not a nation id; use lower-case letters, digits, '-' or '_', starting with a letter", id)
		}
		if len(n.Addresses) == 0 {
			v.add(path+".addresses", "no address; a nation needs at least one registered sender address")
		}
		seen := map[string]bool{}
		for i, a := range n.Addresses {
			p := fmt.Sprintf("%s.addresses[%d]", path, i)
			v.address(p, a)
			if seen[strings.ToLower(a)] {
				v.add(p, "%q is listed twice", a)
			}
			seen[strings.ToLower(a)] = true
		}
		v.secret(path, n.Secret, true)
	}
}

func (v *validator) deadline(d Deadline, loc *time.Location) {
	hour, minute, err := parseClock(d.Time)
	if err != nil {
		v.add("game.deadline.time", "%v", err)
	}
	if d.EveryDays < 0 || d.EveryDays > 366 {
		v.add("game.deadline.every_days", "%d is out of range; use 1 to 366, or 0 for no regular deadlines", d.EveryDays)
	}
	var prev time.Time
	for i, s := range d.Dates {
		p := fmt.Sprintf("game.deadline.dates[%d]", i)
		t, err := parseDeadlineDate(s, hour, minute, loc)
		if err != nil {
			v.add(p, "%v", err)
			continue
		}
		if !prev.IsZero() && !t.After(prev) {
			v.add(p, "%s is not after the date before it; list dates in increasing order", s)
		}
		prev = t
	}
}

func (v *validator) mail() {
	m := v.c.Mail
	v.address("mail.address", m.Address)
	switch m.Mode {
	case ModeEmbedded:
		v.embedded()
	case ModeExternal:
		v.external()
	default:
		v.add("mail.mode", "%q is not a mode; use embedded (pbem's own mail server on this machine) or external (a mail provider)", m.Mode)
	}

	i := m.IMAP
	if strings.TrimSpace(i.Mailbox) == "" {
		v.add("mail.imap.mailbox", "is empty; give the folder orders arrive in, usually INBOX")
	}
	if strings.TrimSpace(i.ProcessedMailbox) == "" {
		v.add("mail.imap.processed_mailbox", "is empty; give a folder for handled mail, such as pbem-processed")
	} else if strings.EqualFold(i.ProcessedMailbox, i.Mailbox) {
		v.add("mail.imap.processed_mailbox", "is the same folder as mail.imap.mailbox; handled mail must go elsewhere")
	}
	if i.ArrivalGrace < 0 || i.ArrivalGrace > 10*time.Minute {
		v.add("mail.imap.arrival_grace", "%v is out of range; use 0s to 10m (how long after a deadline pbem looks for mail that reached the server before it)", i.ArrivalGrace)
	}
	if i.PollInterval < time.Second || i.PollInterval > 5*time.Minute {
		v.add("mail.imap.poll_interval", "%v is out of range; use 1s to 5m (the mailbox is polled even with IDLE, which can silently stop)", i.PollInterval)
	}

	if m.KeepRawDays < -1 || m.KeepRawDays > 3660 {
		v.add("mail.keep_raw_days", "%d is out of range; use days from 0 to 3660, or -1 to keep raw mail for ever", m.KeepRawDays)
	}

	s := m.SMTP
	if s.RatePerMinute < 1 {
		v.add("mail.smtp.rate_per_minute", "%d: must be at least 1", s.RatePerMinute)
	}
	if s.MaxAttempts < 1 {
		v.add("mail.smtp.max_attempts", "%d: must be at least 1", s.MaxAttempts)
	}
	if s.BackoffInitial <= 0 {
		v.add("mail.smtp.backoff_initial", "%v: must be more than 0, such as 30s", s.BackoffInitial)
	}
	if s.BackoffMax < s.BackoffInitial {
		v.add("mail.smtp.backoff_max", "%v is less than mail.smtp.backoff_initial (%v)", s.BackoffMax, s.BackoffInitial)
	}
}

func (v *validator) embedded() {
	e := v.c.Mail.Embedded
	if strings.TrimSpace(e.Domain) == "" || strings.ContainsAny(e.Domain, " @") {
		v.add("mail.embedded.domain", "%q is not a mail domain; use one such as pbem.localhost", e.Domain)
	}
	listens := map[string]string{}
	for _, l := range []struct{ path, addr string }{
		{"mail.embedded.imap_listen", e.IMAPListen},
		{"mail.embedded.smtp_listen", e.SMTPListen},
	} {
		host, port, err := splitHostPort(l.addr)
		switch {
		case err != nil:
			v.add(l.path, "%q is not host:port, such as 127.0.0.1:1143", l.addr)
		case !isLoopback(host):
			v.add(l.path, "%q is not a loopback address; the embedded server has no TLS and listens only on 127.0.0.1, ::1 or localhost", l.addr)
		case port == 0:
			v.add(l.path, "port 0: give a fixed port, so mail clients can find the server")
		default:
			if other, ok := listens[strconv.Itoa(port)]; ok {
				v.add(l.path, "uses the same port as %s", other)
			}
			listens[strconv.Itoa(port)] = l.path
		}
	}
	users := map[string]bool{}
	for i, a := range e.Accounts {
		p := fmt.Sprintf("mail.embedded.accounts[%d]", i)
		v.address(p+".user", a.User)
		if _, domain, ok := strings.Cut(a.User, "@"); ok && !strings.EqualFold(domain, e.Domain) {
			v.add(p+".user", "%q is not in the embedded domain %s", a.User, e.Domain)
		}
		if users[strings.ToLower(a.User)] {
			v.add(p+".user", "%q has two accounts", a.User)
		}
		users[strings.ToLower(a.User)] = true
		v.secret(p, a.Secret, true)
	}
	if addr := v.c.Mail.Address; addr != "" {
		if _, domain, ok := strings.Cut(addr, "@"); ok && !strings.EqualFold(domain, e.Domain) {
			v.add("mail.address", "%q is not in the embedded domain %s; in mode embedded the game's address must be", addr, e.Domain)
		} else if !users[strings.ToLower(addr)] {
			v.add("mail.embedded.accounts", "no account for mail.address %s; pbem logs in with it", addr)
		}
	}
	// The external servers' settings would be silently unused: say so.
	for _, f := range []struct {
		path string
		set  bool
	}{
		{"mail.imap.host", v.c.Mail.IMAP.Host != ""},
		{"mail.imap.port", v.c.Mail.IMAP.Port != 0},
		{"mail.imap.username", v.c.Mail.IMAP.Username != ""},
		{"mail.imap.password", v.c.Mail.IMAP.Secret.IsSet()},
		{"mail.smtp.host", v.c.Mail.SMTP.Host != ""},
		{"mail.smtp.port", v.c.Mail.SMTP.Port != 0},
		{"mail.smtp.username", v.c.Mail.SMTP.Username != ""},
		{"mail.smtp.password", v.c.Mail.SMTP.Secret.IsSet()},
	} {
		if f.set {
			v.add(f.path, "is only used with mail.mode external; in mode embedded pbem logs in to its own server as mail.address")
		}
	}
}

func (v *validator) external() {
	if len(v.c.Mail.Embedded.Accounts) > 0 {
		v.add("mail.embedded.accounts", "are only used with mail.mode embedded")
	}
	for _, s := range []struct {
		name     string
		host     string
		port     int
		security Security
		user     string
		secret   Secret
	}{
		{"imap", v.c.Mail.IMAP.Host, v.c.Mail.IMAP.Port, v.c.Mail.IMAP.Security, v.c.Mail.IMAP.Username, v.c.Mail.IMAP.Secret},
		{"smtp", v.c.Mail.SMTP.Host, v.c.Mail.SMTP.Port, v.c.Mail.SMTP.Security, v.c.Mail.SMTP.Username, v.c.Mail.SMTP.Secret},
	} {
		p := "mail." + s.name
		if strings.TrimSpace(s.host) == "" {
			v.add(p+".host", "is empty; mode external needs the provider's %s server, such as %s.gmail.com", strings.ToUpper(s.name), s.name)
		}
		if s.port < 0 || s.port > 65535 {
			v.add(p+".port", "%d is not a port; use 1 to 65535, or 0 for the usual one", s.port)
		}
		switch s.security {
		case SecurityTLS, SecuritySTARTTLS:
		case SecurityNone:
			if s.host != "" && !isLoopback(s.host) {
				v.add(p+".security", "none sends the password unencrypted; it is allowed only to a loopback host, not %s: use tls or starttls", s.host)
			}
		default:
			v.add(p+".security", "%q is not a security setting; use tls, starttls or none", s.security)
		}
		if strings.TrimSpace(s.user) == "" {
			v.add(p+".username", "is empty; give the login name, usually the full address")
		}
		if s.secret.Password != "" {
			v.add(p+".password", "inline passwords are only for mode embedded; put it in a file (password_file) or an environment variable (password_env)")
		} else {
			v.secret(p, s.secret, false)
		}
	}
}

// secret checks that exactly one source is given and that it can be read.
func (v *validator) secret(path string, s Secret, inlineAllowed bool) {
	n := 0
	for _, set := range []bool{s.Password != "", s.PasswordFile != "", s.PasswordEnv != ""} {
		if set {
			n++
		}
	}
	switch {
	case n == 0 && inlineAllowed:
		v.add(path+".password", "no password; give password, password_file or password_env")
		return
	case n == 0:
		v.add(path+".password", "no password; give password_file or password_env")
		return
	case n > 1:
		v.add(path+".password", "more than one of password, password_file and password_env is given; keep one")
		return
	}
	if _, err := s.Value(); err != nil {
		key := path + ".password_file"
		if s.PasswordEnv != "" {
			key = path + ".password_env"
		}
		v.add(key, "%v", err)
	}
}

// address checks a bare address such as eisenmark@pbem.localhost.
func (v *validator) address(path, a string) {
	parsed, err := mail.ParseAddress(a)
	if err != nil || parsed.Address != a || parsed.Name != "" {
		v.add(path, "%q is not a plain mail address; write it like eisenmark@pbem.localhost, without a name or <>", a)
	}
}

func splitHostPort(addr string) (string, int, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q", ps)
	}
	return host, port, nil
}

// isLoopback reports whether host is this machine: localhost, a name under
// .localhost (RFC 6761), or a loopback IP address.
func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

func equalFoldAddr(a, b string) bool { return strings.EqualFold(a, b) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
