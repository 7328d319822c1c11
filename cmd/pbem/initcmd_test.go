package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/password"
)

// TestInitWritesAGameFolder: "pbem init" writes a config that loads with
// the strict parser, a fresh password per nation and for the referee in
// files only the owner can read, and the map and scenario to edit; the
// map validates, and a second init into the same folder is refused.
func TestInitWritesAGameFolder(t *testing.T) {
	for _, provider := range []string{"generic", "gmail", "fastmail"} {
		t.Run(provider, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "game")
			code, out, errs := run(t, "", "init", "--provider", provider, dir)
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			cfg, err := config.Load(filepath.Join(dir, "config.yaml"))
			if err != nil {
				t.Fatalf("the config does not load: %v", err)
			}
			if cfg.Mail.Mode != config.ModeExternal || len(cfg.Game.Nations) != 5 {
				t.Errorf("mode %s, %d nations", cfg.Mail.Mode, len(cfg.Game.Nations))
			}
			text, _ := os.ReadFile(filepath.Join(dir, "config.yaml"))
			want := map[string]string{"gmail": "imap.gmail.com", "fastmail": "smtp.fastmail.com", "generic": "imap.example.org"}[provider]
			if !strings.Contains(string(text), want) || !strings.Contains(string(text), "\n  # ") {
				t.Errorf("the config lacks %s or its comments:\n%s", want, text)
			}
			seen := map[string]bool{}
			for _, id := range append(cfg.NationIDs(), "referee") {
				path := filepath.Join(dir, "secrets", id+".txt")
				st, err := os.Stat(path)
				if err != nil {
					t.Fatalf("no secret for %s: %v", id, err)
				}
				if st.Mode().Perm() != 0o600 {
					t.Errorf("%s has mode %v, want 0600", path, st.Mode().Perm())
				}
				b, _ := os.ReadFile(path)
				pw := strings.TrimSpace(string(b))
				if err := password.Check(pw); err != nil || seen[pw] || strings.HasPrefix(pw, "demo") {
					t.Errorf("%s: password %q is not a fresh good one (%v)", id, pw, err)
				}
				seen[pw] = true
				if id != "referee" {
					v, err := cfg.Game.Nations[id].Value()
					if err != nil || v.Reveal() != pw {
						t.Errorf("%s's config password is not its secret file's: %v", id, err)
					}
				}
			}
			for _, d := range []string{"secrets", "data"} {
				if st, err := os.Stat(filepath.Join(dir, d)); err != nil || st.Mode().Perm() != 0o700 {
					t.Errorf("%s/ is not private: %v", d, err)
				}
			}
			if code, out, errs := run(t, "", "--config", filepath.Join(dir, "config.yaml"), "map", "validate"); code != exitOK || !strings.Contains(out, filepath.Join(dir, "scenario", "map.txt")) {
				t.Errorf("map validate of the copied map: exit %d\n%s%s", code, out, errs)
			}
			if code, _, errs := run(t, "", "init", dir); code != exitUsage || !strings.Contains(errs, "not empty") {
				t.Errorf("second init: exit %d %q", code, errs)
			}
		})
	}
}

// TestInitTakesTheMailPasswordFromTheEnvironment: PBEM_MAIL_PASSWORD is
// written to secrets/mail.txt; without it the file holds a placeholder
// that says what to do.
func TestInitTakesTheMailPasswordFromTheEnvironment(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	t.Setenv("PBEM_MAIL_PASSWORD", "app-pass-123")
	if code, out, errs := run(t, "", "init", dir); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "secrets", "mail.txt"))
	if string(b) != "app-pass-123\n" {
		t.Errorf("mail.txt holds %q", b)
	}
	dir2 := filepath.Join(t.TempDir(), "g")
	t.Setenv("PBEM_MAIL_PASSWORD", "")
	run(t, "", "init", dir2)
	b, _ = os.ReadFile(filepath.Join(dir2, "secrets", "mail.txt"))
	if !strings.HasPrefix(string(b), "REPLACE") {
		t.Errorf("mail.txt holds %q, want the placeholder", b)
	}
}

// TestInitTrossian: "pbem init --scenario trossian" writes a Trossian game
// folder — the ruleset trossian, the five kingdoms, the area map and its
// scenario copied — that pbem new creates and pbem check checks with the
// Trossian checker.
func TestInitTrossian(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "game")
	code, out, errs := run(t, "", "init", "--scenario", "trossian", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatalf("the config does not load: %v", err)
	}
	if cfg.Game.Ruleset != "trossian" || len(cfg.Game.Nations) != 5 || cfg.Game.Nations["norvale"].Addresses == nil {
		t.Fatalf("ruleset %s, nations %v", cfg.Game.Ruleset, cfg.NationIDs())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "scenario", "map.txt")); err != nil || !strings.Contains(string(b), "lane N1") {
		t.Fatalf("the area map was not copied: %v", err)
	}
	if code, out, errs := run(t, "", "--config", cfgPath, "new"); code != exitOK || !strings.Contains(out, "orders are now taken for Turn 1, Early Spring 1801") {
		t.Fatalf("pbem new: exit %d\n%s%s", code, out, errs)
	}
	sheet := filepath.Join(dir, "sheet.txt")
	if err := os.WriteFile(sheet, []byte("GAME tross\nNATION norvale\nTURN 1\nMOVE N1 TO Trosburg\nEND\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, "", "--config", cfgPath, "check", sheet)
	if code != 1 || !strings.Contains(out, `line 4: error: no province "Trosburg" on the map; did you mean Trossburg?`) {
		t.Fatalf("pbem check: exit %d\n%s", code, out)
	}
	// The forecast is the SYW campaign's: asked of a Trossian sheet, check
	// says so rather than writing no map without a word.
	pdf := filepath.Join(dir, "map.pdf")
	code, _, errs = run(t, "", "--config", cfgPath, "check", "--forecast", pdf, sheet)
	if code != exitUsage || !strings.Contains(errs, "the forecast is made for the SYW campaign's sheets only") {
		t.Errorf("pbem check --forecast of a Trossian sheet: exit %d\n%s", code, errs)
	}
}
