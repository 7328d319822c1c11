package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// valid is a small external-mode config that passes Validate; tests break
// one thing at a time.
const valid = `
game:
  id: syw
  timezone: Europe/London
  nations:
    eisenmark: {addresses: [king@eisenmark.example], password: pw}
mail:
  mode: external
  address: orders@example.org
  imap: {host: imap.example.org, username: orders@example.org, password_env: PBEM_TEST_IMAP}
  smtp: {host: smtp.example.org, username: orders@example.org, password_env: PBEM_TEST_SMTP}
`

func parse(t *testing.T, data string) *Config {
	t.Helper()
	c, err := Parse([]byte(data), "test.yaml")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func problems(t *testing.T, err error) Problems {
	t.Helper()
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v (%T) is not Problems", err, err)
	}
	return ps
}

func TestRepoConfigLoadsAndValidates(t *testing.T) {
	c, err := Load("../config.yaml")
	if err != nil {
		t.Fatalf("the shipped config.yaml does not load:\n%v", err)
	}
	if got := c.NationIDs(); !slices.Equal(got, []string{"eisenmark", "fromande", "hispardia", "morgronskia", "unterreich"}) {
		t.Errorf("nations = %v", got)
	}
	for _, id := range c.NationIDs() {
		n := c.Game.Nations[id]
		if !slices.Equal(n.Addresses, []string{id + "@pbem.localhost"}) {
			t.Errorf("%s addresses = %v", id, n.Addresses)
		}
		if pw, err := n.Value(); err != nil || !strings.HasPrefix(pw.Reveal(), "demo-") {
			t.Errorf("%s password is not marked demo: %v", id, err)
		}
	}
	if c.Mail.Mode != ModeEmbedded || c.Game.Timezone != "Europe/London" {
		t.Errorf("mode %s, timezone %s", c.Mail.Mode, c.Game.Timezone)
	}
	e := c.IMAPEndpoint()
	pw, err := e.Password.Value()
	if e.Host != "127.0.0.1" || e.Port != 1143 || e.Security != SecurityNone || e.Username != "orders@pbem.localhost" ||
		err != nil || pw.Reveal() != "demo-orders" {
		t.Errorf("IMAPEndpoint = %+v (%v)", e, err)
	}
	if s := c.SMTPEndpoint(); s.Port != 2525 || s.Host != "127.0.0.1" {
		t.Errorf("SMTPEndpoint = %+v", s)
	}
	abs, _ := filepath.Abs("..")
	if got, _ := filepath.Abs(c.StorePath()); got != filepath.Join(abs, "data", "pbem.db") {
		t.Errorf("StorePath = %s, want data/pbem.db beside config.yaml", got)
	}
}

func TestEmptyFileIsAllDefaults(t *testing.T) {
	for _, data := range []string{"", "# nothing\n", "{}\n"} {
		if got, want := parse(t, data).String(), Default().String(); got != want {
			t.Errorf("Parse(%q) =\n%s\nwant Default():\n%s", data, got, want)
		}
	}
}

func TestUnknownKeyNamesKeyAndLine(t *testing.T) {
	for _, tc := range []struct {
		data, want string
	}{
		{"log_levl: debug\n", `test.yaml:1: log_levl: unknown key; did you mean "log_level"?`},
		{"game:\n  id: syw\n  nations:\n    eisenmark: {addresses: [a@b.c], pasword: x}\n",
			`test.yaml:4: game.nations.eisenmark.pasword: unknown key; did you mean "password"?`},
		{"mail:\n  imap:\n    hostname: imap.example.org\n", `test.yaml:3: mail.imap.hostname: unknown key`},
		{"mail:\n  embedded:\n    accounts:\n      - {user: a@pbem.localhost, pass: x}\n",
			`test.yaml:4: mail.embedded.accounts[0].pass: unknown key`},
		{"colour: blue\n", `test.yaml:1: colour: unknown key; the keys allowed here are data_dir, log_level, game, mail`},
	} {
		_, err := Parse([]byte(tc.data), "test.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v\nwant it to contain %s", tc.data, err, tc.want)
		}
	}
}

func TestWrongTypeNamesLine(t *testing.T) {
	data := "data_dir: data\n" +
		"mail:\n" +
		"  smtp:\n" +
		"    port: twenty-five\n" +
		"    backoff_max: 2 hours\n" +
		"    max_attempts: [3]\n" +
		"  imap: {idle: maybe, poll_interval: 120}\n" +
		"game:\n" +
		"  nations: [eisenmark]\n"
	_, err := Parse([]byte(data), "test.yaml")
	want := []string{
		`test.yaml:4: mail.smtp.port: expected a whole number, found "twenty-five"`,
		`test.yaml:5: mail.smtp.backoff_max: expected a duration such as 90s, 2m or 1h30m, found "2 hours"`,
		`test.yaml:6: mail.smtp.max_attempts: expected a whole number, found a list`,
		`test.yaml:7: mail.imap.idle: expected true or false, found "maybe"`,
		`test.yaml:7: mail.imap.poll_interval: expected a duration such as 90s, 2m or 1h30m, found "120"`,
		`test.yaml:9: game.nations: expected a set of keys, found a list`,
	}
	ps := problems(t, err)
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSyntaxErrorsNameLine(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"game:\n  id: syw\n  name: [unclosed\n", "test.yaml:"},
		{"game:\n  id: a\n  id: b\n", `test.yaml:3: game.id: given twice (first at line 2)`},
		{"log_level: info\n---\nlog_level: debug\n", "test.yaml:2: a second YAML document"},
		{"\tdata_dir: x\n", "test.yaml:1: YAML syntax"},
		{"log_level: info\n\tdata_dir: x\n", "test.yaml:2: YAML syntax"},
	} {
		_, err := Parse([]byte(tc.data), "test.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v; want %q", tc.data, err, tc.want)
		}
	}
}

func TestValidConfigPasses(t *testing.T) {
	t.Setenv("PBEM_TEST_IMAP", "imap-secret")
	t.Setenv("PBEM_TEST_SMTP", "smtp-secret")
	c := parse(t, valid)
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if e := c.IMAPEndpoint(); e.Port != 993 || e.Host != "imap.example.org" {
		t.Errorf("IMAP endpoint %+v, want port 993", e)
	}
	if e := c.SMTPEndpoint(); e.Port != 465 {
		t.Errorf("SMTP endpoint port %d, want 465", e.Port)
	}
	if pw, err := c.SMTPEndpoint().Password.Value(); err != nil || pw.Reveal() != "smtp-secret" {
		t.Errorf("SMTP password = %v", err)
	}
}

// TestValidationRules breaks one rule at a time: each problem is reported
// at its key path, with its line when the key is in the file.
func TestValidationRules(t *testing.T) {
	t.Setenv("PBEM_TEST_IMAP", "imap-secret")
	t.Setenv("PBEM_TEST_SMTP", "smtp-secret")
	for _, tc := range []struct {
		name, extra string // YAML merged over valid (later keys replace earlier ones at top level)
		path, want  string
	}{
		{"log level", "log_level: loud", "log_level", "not a log level"},
		{"empty data_dir", "data_dir: ''", "data_dir", "is empty"},
		{"bad game id", "game: {id: 'SYW 1', nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.id", "not a game id"},
		{"unknown ruleset", "game: {ruleset: syw-1999, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.ruleset", "syw-1752, syw-v4"},
		{"bad referee", "game: {referee: 'The Referee <r@x.org>', nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.referee", "plain mail address"},
		{"bad timezone", "game: {timezone: Europe/Lundon, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.timezone", "not a time zone"},
		{"no nations", "game: {id: syw}", "game.nations", "no nations"},
		{"nation without address", "game: {nations: {eisenmark: {password: p}}}", "game.nations.eisenmark.addresses", "at least one"},
		{"nation with bad address", "game: {nations: {eisenmark: {addresses: [not-an-address], password: p}}}", "game.nations.eisenmark.addresses[0]", "plain mail address"},
		{"nation address twice", "game: {nations: {eisenmark: {addresses: [a@b.c, A@b.c], password: p}}}", "game.nations.eisenmark.addresses[1]", "listed twice"},
		{"bad nation id", "game: {nations: {Eisen Mark: {addresses: [a@b.c], password: p}}}", "game.nations.Eisen Mark", "not a nation id"},
		{"nation without password", "game: {nations: {eisenmark: {addresses: [a@b.c]}}}", "game.nations.eisenmark.password", "no password"},
		{"two password sources", "game: {nations: {eisenmark: {addresses: [a@b.c], password: p, password_env: X}}}", "game.nations.eisenmark.password", "more than one"},
		{"password env unset", "game: {nations: {eisenmark: {addresses: [a@b.c], password_env: PBEM_TEST_UNSET_VAR}}}", "game.nations.eisenmark.password_env", "PBEM_TEST_UNSET_VAR is not set"},
		{"password file missing", "game: {nations: {eisenmark: {addresses: [a@b.c], password_file: no-such-file.txt}}}", "game.nations.eisenmark.password_file", "no such file"},
		{"deadline time", "game: {deadline: {time: '6pm'}, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.deadline.time", "HH:MM"},
		{"deadline every_days", "game: {deadline: {every_days: 400}, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.deadline.every_days", "1 to 366"},
		{"deadline date", "game: {deadline: {dates: ['6 March']}, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.deadline.dates[0]", "YYYY-MM-DD"},
		{"deadline order", "game: {deadline: {dates: ['2026-03-06', '2026-03-01']}, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.deadline.dates[1]", "increasing order"},
		{"bad auth_serv_id", "game: {auth_serv_id: 'mx.google.com; spf=pass', nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.auth_serv_id", "not a server id"},
		{"after_victory", "game: {after_victory: continue, nations: {eisenmark: {addresses: [a@b.c], password: p}}}", "game.after_victory", "end (a victory ends the game) or play-on"},
		{"unknown mode", "mail: {mode: carrier-pigeon, address: o@example.org}", "mail.mode", "embedded"},
		{"external without hosts", "mail: {mode: external, address: o@example.org}", "mail.imap.host", "needs the provider's IMAP server"},
		{"external without smtp host", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP}}", "mail.smtp.host", "SMTP server"},
		{"security none remote", "mail: {mode: external, address: o@example.org, imap: {host: imap.example.org, security: none, username: u, password_env: PBEM_TEST_IMAP}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.security", "only to a loopback host"},
		{"unknown security", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP}, smtp: {host: s, security: ssl, username: u, password_env: PBEM_TEST_SMTP}}", "mail.smtp.security", "tls, starttls or none"},
		{"inline password external", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password: hunter2}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.password", "only for mode embedded"},
		{"external without username", "mail: {mode: external, address: o@example.org, imap: {host: h, password_env: PBEM_TEST_IMAP}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.username", "is empty"},
		{"bad port", "mail: {mode: external, address: o@example.org, imap: {host: h, port: 99999, username: u, password_env: PBEM_TEST_IMAP}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.port", "not a port"},
		{"poll too slow", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP, poll_interval: 1h}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.poll_interval", "1s to 5m"},
		{"processed is inbox", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP, processed_mailbox: inbox}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP}}", "mail.imap.processed_mailbox", "same folder"},
		{"backoff order", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP, backoff_initial: 2h, backoff_max: 1h}}", "mail.smtp.backoff_max", "less than"},
		{"zero attempts", "mail: {mode: external, address: o@example.org, imap: {host: h, username: u, password_env: PBEM_TEST_IMAP}, smtp: {host: s, username: u, password_env: PBEM_TEST_SMTP, max_attempts: 0}}", "mail.smtp.max_attempts", "at least 1"},
		{"embedded account missing", "mail: {mode: embedded, address: orders@pbem.localhost, embedded: {accounts: [{user: a@pbem.localhost, password: p}]}}", "mail.embedded.accounts", "no account for mail.address"},
		{"embedded listen remote", "mail: {mode: embedded, address: orders@pbem.localhost, embedded: {imap_listen: '0.0.0.0:1143', accounts: [{user: orders@pbem.localhost, password: p}]}}", "mail.embedded.imap_listen", "not a loopback address"},
		{"embedded same ports", "mail: {mode: embedded, address: orders@pbem.localhost, embedded: {imap_listen: '127.0.0.1:2525', accounts: [{user: orders@pbem.localhost, password: p}]}}", "mail.embedded.smtp_listen", "same port"},
		{"embedded address domain", "mail: {mode: embedded, address: orders@example.org, embedded: {accounts: [{user: orders@pbem.localhost, password: p}]}}", "mail.address", "embedded domain"},
		{"embedded with imap host", "mail: {mode: embedded, address: orders@pbem.localhost, imap: {host: imap.gmail.com}, embedded: {accounts: [{user: orders@pbem.localhost, password: p}]}}", "mail.imap.host", "only used with mail.mode external"},
		{"embedded duplicate account", "mail: {mode: embedded, address: orders@pbem.localhost, embedded: {accounts: [{user: orders@pbem.localhost, password: p}, {user: Orders@pbem.localhost, password: q}]}}", "mail.embedded.accounts[1].user", "two accounts"},
		{"embedded account without password", "mail: {mode: embedded, address: orders@pbem.localhost, embedded: {accounts: [{user: orders@pbem.localhost}]}}", "mail.embedded.accounts[0].password", "no password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := mergeTop(valid, tc.extra)
			c, err := Parse([]byte(data), "test.yaml")
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, data)
			}
			ps := problems(t, c.Validate())
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.want) {
					if p.Line == 0 && c.lines[trimLastKey(tc.path)] != 0 && c.lines[tc.path] != 0 {
						t.Errorf("problem has no line: %s", p)
					}
					return
				}
			}
			t.Errorf("no problem at %s containing %q; got:\n%v", tc.path, tc.want, ps)
		})
	}
}

// mergeTop replaces valid's top-level sections with those in extra.
func mergeTop(base, extra string) string {
	keys := map[string]bool{}
	for _, line := range strings.Split(extra, "\n") {
		if k, _, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
			keys[k] = true
		}
	}
	var out []string
	skip := false
	for _, line := range strings.Split(base, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			k, _, _ := strings.Cut(line, ":")
			skip = keys[k]
		}
		if !skip {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n") + "\n" + extra + "\n"
}

func TestValidateCollectsEveryProblem(t *testing.T) {
	data := "log_level: loud\n" +
		"game:\n" +
		"  ruleset: syw-1999\n" +
		"  timezone: Mars/Olympus\n" +
		"  nations:\n" +
		"    eisenmark: {password: p}\n" +
		"mail:\n" +
		"  mode: external\n" +
		"  smtp: {host: smtp.example.org, security: none, username: u, password: inline}\n"
	ps := problems(t, parse(t, data).Validate())
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%d %s", p.Line, p.Path))
	}
	for _, want := range []string{
		"1 log_level", "3 game.ruleset", "4 game.timezone", "6 game.nations.eisenmark.addresses",
		"7 mail.imap.host", "9 mail.smtp.security", "9 mail.smtp.password",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing problem %q; got %q", want, got)
		}
	}
	// Sorted by line, the file's order.
	if !slices.IsSortedFunc(ps[:len(ps)-countNoLine(ps)], func(a, b Problem) int { return a.Line - b.Line }) {
		t.Errorf("problems not in line order: %v", ps)
	}
	t.Logf("the referee reads:\n%v", ps)
}

func countNoLine(ps Problems) int {
	n := 0
	for _, p := range ps {
		if p.Line == 0 {
			n++
		}
	}
	return n
}

func TestSecretsAreNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "smtp.txt"), []byte("file-secret-3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PBEM_TEST_IMAP", "env-secret-2")
	data := strings.Replace(valid, "password: pw", "password: inline-secret-1", 1)
	data = strings.Replace(data, "password_env: PBEM_TEST_SMTP", "password_file: smtp.txt", 1)
	c, err := Parse([]byte(data), filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	// The values are there for whoever needs them…
	for _, s := range []struct {
		secret Secret
		want   string
	}{
		{c.Game.Nations["eisenmark"].Secret, "inline-secret-1"},
		{c.Mail.IMAP.Secret, "env-secret-2"},
		{c.Mail.SMTP.Secret, "file-secret-3"},
	} {
		if pw, err := s.secret.Value(); err != nil || pw.Reveal() != s.want {
			t.Errorf("Value() = %q, %v; want %q", pw.Reveal(), err, s.want)
		}
	}
	// …and nowhere else.
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("config", "cfg", c, "pw", c.Game.Nations["eisenmark"].Password)
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("config", "cfg", *c, "nation", c.Game.Nations["eisenmark"])
	js, _ := json.Marshal(c)
	pw := c.Game.Nations["eisenmark"].Password
	outputs := map[string]string{
		"String":     c.String(),
		"%v":         fmt.Sprintf("%v", *c),
		"%+v":        fmt.Sprintf("%+v", *c),
		"%#v":        fmt.Sprintf("%#v", *c),
		"%s pw":      fmt.Sprintf("%s", pw), //lint:ignore S1025 the test checks what %s prints
		"%q pw":      fmt.Sprintf("%q", pw),
		"%x pw":      fmt.Sprintf("%x", pw),
		"slog":       logs.String(),
		"json":       string(js),
		"Validate":   fmt.Sprint(c.Validate()),
		"nation %+v": fmt.Sprintf("%+v", c.Game.Nations["eisenmark"]),
	}
	for name, out := range outputs {
		for _, secret := range []string{"inline-secret-1", "env-secret-2", "file-secret-3"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s shows %s:\n%s", name, secret, out)
			}
		}
	}
	if !strings.Contains(c.String(), "password: '********'") || !strings.Contains(c.String(), "password_file: smtp.txt") {
		t.Errorf("String() should show that a password is set and where from:\n%s", c.String())
	}
}

func TestSecretSources(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "crlf.txt"), []byte("with spaces \r\nsecond line\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "empty.txt"), []byte("\n"), 0o600)
	t.Setenv("PBEM_TEST_EMPTY", "")
	for _, tc := range []struct {
		s       Secret
		want    string
		wantErr string
	}{
		{Secret{PasswordFile: "crlf.txt", dir: dir}, "with spaces ", ""},
		{Secret{PasswordFile: filepath.Join(dir, "crlf.txt")}, "with spaces ", ""},
		{Secret{PasswordFile: "empty.txt", dir: dir}, "", "first line is empty"},
		{Secret{PasswordEnv: "PBEM_TEST_EMPTY"}, "", "is empty"},
		{Secret{}, "", "no password given"},
	} {
		pw, err := tc.s.Value()
		if pw.Reveal() != tc.want || (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%+v: Value() = %q, %v; want %q, %q", tc.s, pw.Reveal(), err, tc.want, tc.wantErr)
		}
	}
}

func TestDeadlineNext(t *testing.T) {
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.ParseInLocation("2006-01-02 15:04", s, london)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		d    Deadline
		prev string
		want string // "" for none
	}{
		{"every 28 days from the start", Deadline{Time: "18:00", EveryDays: 28}, "2026-01-10 09:15", "2026-02-07 18:00"},
		{"keeps wall-clock time over the DST change", Deadline{Time: "18:00", EveryDays: 14}, "2026-03-20 18:00", "2026-04-03 18:00"},
		{"first listed date", Deadline{Time: "18:00", Dates: []string{"2026-03-06", "2026-03-20 12:00"}}, "2026-01-01 00:00", "2026-03-06 18:00"},
		{"listed date with its own time", Deadline{Time: "18:00", Dates: []string{"2026-03-06", "2026-03-20 12:00"}}, "2026-03-06 18:00", "2026-03-20 12:00"},
		{"after the dates, by hand", Deadline{Time: "18:00", Dates: []string{"2026-03-06"}}, "2026-03-06 18:00", ""},
		{"after the dates, regular", Deadline{Time: "18:00", Dates: []string{"2026-03-06"}, EveryDays: 7}, "2026-03-06 18:00", "2026-03-13 18:00"},
		{"no schedule", Deadline{Time: "18:00"}, "2026-03-06 18:00", ""},
	} {
		got, ok := tc.d.Next(at(tc.prev), london)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: Next = %v, want none", tc.name, got)
		case tc.want != "" && (!ok || !got.Equal(at(tc.want))):
			t.Errorf("%s: Next = %v, %v; want %s", tc.name, got, ok, tc.want)
		}
	}
	// Across the clocks going forward, 18:00 is still 18:00 local: 13 days
	// and 23 hours later.
	got, _ := Deadline{Time: "18:00", EveryDays: 14}.Next(at("2026-03-20 18:00"), london)
	if d := got.Sub(at("2026-03-20 18:00")); d != 14*24*time.Hour-time.Hour {
		t.Errorf("elapsed %v", d)
	}
}

func TestLoadReportsMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestLoadRunsValidate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(path, []byte("log_level: loud\n"), 0o644)
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), path+":1: log_level") {
		t.Errorf("Load = %v", err)
	}
}

// TestEveryKeyIsDocumented checks that docs/config.md mentions every key
// path the config accepts.
func TestEveryKeyIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if strings.Contains(opts, "inline") {
				walk(f.Type, prefix)
				continue
			}
			p := prefix + name
			ft := f.Type
			switch ft.Kind() {
			case reflect.Map:
				p += ".<nation>"
				ft = ft.Elem()
			case reflect.Slice:
				if ft.Elem().Kind() == reflect.Struct {
					p += "[]"
				}
				ft = ft.Elem()
			}
			paths = append(paths, strings.TrimSuffix(strings.TrimSuffix(p, ".<nation>"), "[]"))
			if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(time.Time{}) {
				walk(ft, p+".")
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	for _, p := range paths {
		if !bytes.Contains(doc, []byte("`"+p+"`")) {
			t.Errorf("docs/config.md does not document `%s`", p)
		}
	}
}
