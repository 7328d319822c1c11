package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exitFixture is a folder with a broken config, a config whose scenario
// has a broken map, and a missing config's path.
type exitFixture struct {
	dir, brokenConfig, brokenMapConfig, missingConfig string
}

func newExitFixture(t *testing.T) exitFixture {
	t.Helper()
	dir := t.TempDir()
	f := exitFixture{
		dir:             dir,
		brokenConfig:    filepath.Join(dir, "broken.yaml"),
		brokenMapConfig: filepath.Join(dir, "brokenmap.yaml"),
		missingConfig:   filepath.Join(dir, "nosuch", "config.yaml"),
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(f.brokenConfig, []byte("data_dir: data\ngame:\n  rulset: syw-1752\n"), 0o600))
	scen := filepath.Join(dir, "scen")
	must(os.MkdirAll(scen, 0o755))
	broken, err := os.ReadFile("../../hexmap/testdata/broken.map")
	must(err)
	must(os.WriteFile(filepath.Join(scen, "map.txt"), broken, 0o600))
	sc, err := os.ReadFile("../../scenarios/default/scenario.yaml")
	must(err)
	must(os.WriteFile(filepath.Join(scen, "scenario.yaml"), sc, 0o600))
	conf, err := os.ReadFile("../../config.yaml")
	must(err)
	text := strings.Replace(string(conf), "scenario: scenarios/default", "scenario: "+scen, 1)
	text = strings.Replace(text, "data_dir: data", "data_dir: "+filepath.Join(dir, "data"), 1)
	// Free ports: doctor talks to the embedded server.
	text = strings.NewReplacer("127.0.0.1:1143", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "127.0.0.1:2525", fmt.Sprintf("127.0.0.1:%d", freePort(t))).Replace(text)
	must(os.WriteFile(f.brokenMapConfig, []byte(text), 0o600))
	return f
}

// TestExitCodes runs every command with bad flags, a missing config, a
// broken config, a broken map and a missing file, and checks the exit code
// the README promises (1 bad input, 2 usage, 3 configuration, 4 run-time)
// and that the message says what was wrong.
func TestExitCodes(t *testing.T) {
	f := newExitFixture(t)
	pdf := filepath.Join(f.dir, "out.pdf")
	type row struct {
		args []string
		code int
		msg  string
	}
	var rows []row
	for _, c := range leaves(commands()) {
		rows = append(rows, row{append(strings.Fields(c.path()), "--frobnicate"), exitUsage, "flag provided but not defined: --frobnicate"})
	}
	// The four the issue names.
	rows = append(rows,
		row{[]string{"map", "render", "--paper", "B5", "--out", pdf}, exitUsage, `unknown paper size "B5"`},
		row{[]string{"map", "validate", "--config", "/missing.yaml"}, exitConfig, "there is no config file /missing.yaml"},
		row{[]string{"check", "--nation", "spain", "docs/examples/monthly.txt"}, exitUsage, "expected one of eisenmark, fromande, hispardia, morgronskia, unterreich"},
		row{[]string{"map", "render", "--out", pdf, "hexmap/testdata/broken.map"}, exitProblems, "not drawn"},
	)
	needsConfig := map[string][]string{
		"map validate": {"map", "validate"},
		"map render":   {"map", "render", "--out", pdf},
		"new":          {"new"},
		"check":        {"check", "docs/examples/monthly.txt"},
		"send":         {"send", "--from", "eisenmark@pbem.localhost", "docs/examples/monthly.txt"},
		"run":          {"run"},
		"doctor":       {"doctor"},
	}
	for _, args := range needsConfig {
		rows = append(rows,
			row{append(slicesClone(args), "--config", f.missingConfig), exitConfig, "there is no config file " + f.missingConfig},
			row{append(slicesClone(args), "--config", f.brokenConfig), exitConfig, `broken.yaml:3: game.rulset: unknown key; did you mean "ruleset"?`},
		)
	}
	// A broken map: the input's problem (1) for the map commands, which
	// check maps; the configuration's (3) for the rest, whose config names
	// a scenario that cannot be played.
	rows = append(rows,
		row{[]string{"map", "validate", "--config", f.brokenMapConfig}, exitProblems, "the map is not fit to play"},
		row{[]string{"map", "validate", "hexmap/testdata/broken.map"}, exitProblems, "hexmap/testdata/broken.map:"},
		row{[]string{"map", "render", "--out", pdf, "--config", f.brokenMapConfig}, exitProblems, "not drawn"},
		row{[]string{"new", "--config", f.brokenMapConfig}, exitConfig, "map.txt:"},
		row{[]string{"check", "docs/examples/monthly.txt", "--config", f.brokenMapConfig}, exitConfig, "map.txt:"},
		row{[]string{"run", "--config", f.brokenMapConfig}, exitConfig, "map.txt:"},
		row{[]string{"doctor", "--no-send", "--config", f.brokenMapConfig}, exitConfig, "FAIL  map and scenario"},
	)
	// A missing file: a failure while running (4), naming the file.
	rows = append(rows,
		row{[]string{"map", "validate", "nosuch.map"}, exitFailure, "cannot read map file nosuch.map"},
		row{[]string{"map", "render", "--out", pdf, "nosuch.map"}, exitFailure, "cannot read map file nosuch.map"},
		row{[]string{"map", "render", "--out", filepath.Join(f.dir, "nosuch", "x.pdf")}, exitFailure, "cannot write"},
		row{[]string{"check", "nosuch.txt"}, exitFailure, "cannot read nosuch.txt"},
		row{[]string{"send", "--from", "a@b", "nosuch.txt"}, exitFailure, "cannot read nosuch.txt"},
		row{[]string{"init", "--scenario", "nosuch", filepath.Join(f.dir, "game")}, exitFailure, "cannot read the scenario's map nosuch/map.txt"},
		row{[]string{"init", "--provider", "aol", filepath.Join(f.dir, "game")}, exitUsage, `unknown --provider "aol"`},
		row{[]string{"init"}, exitUsage, "expected one folder"},
	)
	// Commands that read no config do not mind a missing one.
	rows = append(rows,
		row{[]string{"version", "--config", f.missingConfig}, exitOK, ""},
		row{[]string{"help", "--config", f.missingConfig}, exitOK, ""},
	)
	for _, r := range rows {
		if len(r.args) > 0 && r.args[0] == "doctor" && !hasCommand("doctor") {
			continue
		}
		code, out, errs := run(t, "", r.args...)
		shown := errs
		if r.args[0] == "doctor" {
			shown += out // doctor's report is its output
		}
		if code != r.code || !strings.Contains(shown, r.msg) {
			t.Errorf("pbem %s: exit %d, want %d with %q\nstdout: %.300s\nstderr: %.600s", strings.Join(r.args, " "), code, r.code, r.msg, out, errs)
		}
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func hasCommand(path string) bool {
	for _, c := range leaves(commands()) {
		if c.path() == path {
			return true
		}
	}
	return false
}

// TestFlagsAfterArguments: a flag after the file is read as a flag, not
// as a second file; after "--" everything is a file.
func TestFlagsAfterArguments(t *testing.T) {
	code, out, errs := run(t, "", "check", "docs/examples/monthly.txt", "--nation", "eisenmark")
	if code != exitOK {
		t.Errorf("check FILE --nation eisenmark: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "", "check", "--nation", "EISENMARK", "docs/examples/monthly.txt")
	if code != exitOK {
		t.Errorf("check --nation EISENMARK: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = run(t, "", "check", "--", "--nation")
	if code != exitFailure || !strings.Contains(errs, "cannot read --nation") {
		t.Errorf("check -- --nation: exit %d, %q", code, errs)
	}
}

// TestCheckLaterTurn: the year-end example can be checked in any month.
func TestCheckLaterTurn(t *testing.T) {
	code, out, errs := run(t, "", "check", "--turn", "year-end", "--treasury", "1900", "docs/examples/yearend.txt")
	if code != exitOK || !strings.Contains(out, "Turn 7, year-end 1752") || !strings.Contains(out, "0 errors") {
		t.Errorf("check --turn year-end: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "", "check", "--turn", "0", "docs/examples/yearend.txt"); code != exitUsage || !strings.Contains(errs, "--turn 0") {
		t.Errorf("check --turn 0: exit %d %q", code, errs)
	}
}
