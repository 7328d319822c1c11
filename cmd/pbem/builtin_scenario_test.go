package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn calls pbem's main with args from dir, as a user of an installed
// pbem (no source tree beside it) would.
func runIn(t *testing.T, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code = realMain(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestInitOutsideTheSourceTree: an installed pbem, run in a folder without
// scenarios/ beside it, writes the game folder from the default scenario
// built into it, byte for byte the repository's.
func TestInitOutsideTheSourceTree(t *testing.T) {
	home := t.TempDir()
	code, out, errs := runIn(t, home, "", "init", "mygame")
	if code != exitOK {
		t.Fatalf("init outside the source tree: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "built into pbem") {
		t.Errorf("the summary does not say where the scenario came from:\n%s", out)
	}
	for _, name := range []string{"map.txt", "scenario.yaml"} {
		got, err := os.ReadFile(filepath.Join(home, "mygame", "scenario", name))
		want, _ := os.ReadFile(filepath.Join("..", "..", "scenarios", "default", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("scenario/%s is not the default scenario's (%v)", name, err)
		}
	}
	if code, out, errs := runIn(t, home, "", "--config", "mygame/config.yaml", "map", "validate"); code != exitOK {
		t.Errorf("map validate of the game folder: exit %d\n%s%s", code, out, errs)
	}
	// A scenario folder named and missing is still an error.
	if code, _, errs := runIn(t, home, "", "init", "--scenario", "nowhere", "other"); code != exitFailure || !strings.Contains(errs, "--scenario") {
		t.Errorf("init --scenario nowhere: exit %d %q", code, errs)
	}
}

// TestDefaultConfigRunsOutsideTheSourceTree: the repository's config.yaml
// (game.scenario: scenarios/default), copied to a folder of its own, still
// creates the game and validates the map: the default scenario is built in.
func TestDefaultConfigRunsOutsideTheSourceTree(t *testing.T) {
	home := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join("..", "..", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runIn(t, home, "", "new"); code != exitOK {
		t.Fatalf("pbem new with the default config outside the source tree: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runIn(t, home, "", "map", "validate"); code != exitOK || !strings.Contains(out, "valid") {
		t.Errorf("map validate: exit %d\n%s%s", code, out, errs)
	}
	empty := t.TempDir()
	if code, out, errs := runIn(t, empty, "", "map", "validate"); code != exitOK {
		t.Errorf("map validate with no config: exit %d\n%s%s", code, out, errs)
	}
}

// TestInitUsageNamesEveryFlag: "pbem help init" and the README's command
// table list every flag init takes.
func TestInitUsageNamesEveryFlag(t *testing.T) {
	_, out, _ := run(t, "", "help", "init")
	readme, _ := os.ReadFile("../../README.md")
	var row string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `pbem init ") {
			row = l
		}
	}
	usage, _, _ := strings.Cut(out, "\n")
	for _, flag := range []string{"--provider", "--address", "--referee", "--imap", "--smtp", "--security", "--username", "--scenario"} {
		if !strings.Contains(usage, flag) {
			t.Errorf("the usage line of help init lacks %s: %s", flag, usage)
		}
		if !strings.Contains(row, flag) {
			t.Errorf("the README's row for init lacks %s: %s", flag, row)
		}
	}
}
