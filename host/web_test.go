package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebSettings: host.yaml's web block — the host's one console — is
// loopback by default, read strictly, and refused beyond loopback without
// TLS, as a game's config is.
func TestWebSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Web.Listen != DefaultWebListen || s.Web.SessionHours != 12 || s.Web.ConsoleTLS() {
		t.Fatalf("a new host's web block: %+v", s.Web)
	}
	path := filepath.Join(dir, SettingsFile)
	base, _ := os.ReadFile(path)
	for _, c := range []struct{ web, want string }{
		{"web: {listen: 0.0.0.0:8443}", "needs TLS"},
		{"web: {listen: 0.0.0.0:8443, tls_cert: cert.pem}", "both web.tls_cert and web.tls_key"},
		{"web: {listen: 127.0.0.1:8026, session_hours: 500}", "1 to 168"},
		{"web: {listen: nonsense}", "not host:port"},
		{"web: {listen: 127.0.0.1:8026, colour: red}", "colour"},
		{"web: {listen: 0.0.0.0:8443, tls_cert: cert.pem, tls_key: key.pem}", ""},
		{"web: {listen: \"off\"}", ""},
	} {
		text := strings.Replace(string(base), "web:\n", c.web+"\nold_web:\n", 1)
		text = text[:strings.Index(text, "old_web:")] + text[strings.Index(text, "games:"):]
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadSettings(dir)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.web, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error saying %q", c.web, err, c.want)
		case c.want == "" && s.Web.TLSCert != "" && s.WebPath(dir, s.Web.TLSCert) != filepath.Join(dir, "cert.pem"):
			t.Errorf("%s: the certificate is looked for at %s", c.web, s.WebPath(dir, s.Web.TLSCert))
		}
	}
}

// TestAddTrossianGame: "pbem host add --scenario trossian" writes a game of
// the Trossian campaign (its ruleset, its built-in scenario copied, a
// password per kingdom); --ruleset trossian alone picks the same scenario;
// an SYW ruleset with the Trossian scenario is refused with the reason.
func TestAddTrossianGame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	a, err := AddGame(dir, "tross", AddOptions{Scenario: "trossian"})
	if err != nil || a.Ruleset != "trossian" || strings.Join(a.Nations, " ") != "carrowland norvale ostmark selvenia varn" {
		t.Fatalf("add --scenario trossian: %v %+v", err, a)
	}
	cfg, err := os.ReadFile(filepath.Join(a.Dir, "config.yaml"))
	if err != nil || !strings.Contains(string(cfg), "ruleset: trossian") {
		t.Fatalf("its config: %v\n%s", err, cfg)
	}
	for _, f := range []string{"scenario/map.txt", "scenario/scenario.yaml", "secrets/norvale.txt", "secrets/referee.txt"} {
		if _, err := os.Stat(filepath.Join(a.Dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if b, err := AddGame(dir, "tross2", AddOptions{Ruleset: "trossian"}); err != nil || len(b.Nations) != 5 {
		t.Errorf("add --ruleset trossian: %v %+v", err, b)
	}
	if _, err := AddGame(dir, "mixed", AddOptions{Scenario: "trossian", Ruleset: "syw-v4"}); err == nil || !strings.Contains(err.Error(), "Trossian campaign's") {
		t.Errorf("the Trossian scenario under syw-v4: %v", err)
	}
	if _, err := os.Stat(GameDir(dir, "mixed")); err == nil {
		t.Error("a refused game left its folder")
	}
}

// TestAddRefusesARefereeOffTheHost: the host's games are played on its own
// mail server; a referee at another domain could neither command nor read
// the reports, so add says so at once rather than every mail bouncing.
func TestAddRefusesARefereeOffTheHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Init(dir, ""); err != nil {
		t.Fatal(err)
	}
	_, err := AddGame(dir, "bad", AddOptions{Referee: "bob@example.org"})
	if err == nil || !strings.Contains(err.Error(), "serves only addresses at pbem.localhost") {
		t.Fatalf("a referee at example.org: %v", err)
	}
	if _, err := os.Stat(GameDir(dir, "bad")); err == nil {
		t.Error("a refused game left its folder")
	}
	if _, err := AddGame(dir, "good", AddOptions{Referee: "referee-good@pbem.localhost"}); err != nil {
		t.Errorf("a referee at the host's domain: %v", err)
	}
}
