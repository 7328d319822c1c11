package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCommands: after "pbem new", "pbem report" renders Eisenmark's
// starting report (PDF and JSON) and the referee's report from the store,
// and "pbem map render --game" draws the game; bad arguments are usage
// errors, a turn not in the store a failure.
func TestReportCommands(t *testing.T) {
	dir := t.TempDir()
	path := shippedConfig(t, dir)
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	pdf, js, ref, mp := filepath.Join(dir, "e.pdf"), filepath.Join(dir, "e.json"), filepath.Join(dir, "r.pdf"), filepath.Join(dir, "m.pdf")
	for _, args := range [][]string{
		{"report", "--nation", "eisenmark", "--out", pdf},
		{"report", "--nation", "eisenmark", "--json", "--out", js},
		{"report", "--referee", "--paper", "A3", "--out", ref},
		{"map", "render", "--game", "--out", mp},
	} {
		if code, _, errs := run(t, "", append([]string{"--config", path}, args...)...); code != exitOK {
			t.Fatalf("pbem %s: exit %d\n%s", strings.Join(args, " "), code, errs)
		}
	}
	var md struct {
		Nation   string
		Starting bool
		Template string
	}
	data, _ := os.ReadFile(js)
	if err := json.Unmarshal(data, &md); err != nil || md.Nation != "eisenmark" || !md.Starting || !strings.Contains(md.Template, "TURN 1") {
		t.Errorf("the JSON report: %v %+v", err, md)
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		txt, _ := exec.Command("pdftotext", pdf, "-").Output()
		for _, want := range []string{"Eisenmark", "Starting report", "E1", "NATION eisenmark"} {
			if !strings.Contains(string(txt), want) {
				t.Errorf("the starting report's PDF lacks %q", want)
			}
		}
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"report", "--out", pdf}, exitUsage},
		{[]string{"report", "--nation", "eisenmark", "--referee", "--out", pdf}, exitUsage},
		{[]string{"report", "--nation", "atlantis", "--out", pdf}, exitUsage},
		{[]string{"report", "--nation", "eisenmark", "--turn", "9", "--out", pdf}, exitUsage},
	} {
		if code, _, errs := run(t, "", append([]string{"--config", path}, c.args...)...); code != c.code {
			t.Errorf("pbem %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, c.code, errs)
		}
	}
}

// TestReportNationAndTurnFlags: --nation is read as a sheet's NATION line
// is (the name in any case, with or without accents, a prefix); a nation
// that is not there lists the nations, a turn that is not there the turns
// that are.
func TestReportNationAndTurnFlags(t *testing.T) {
	dir := t.TempDir()
	path := shippedConfig(t, dir)
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	js := filepath.Join(dir, "e.json")
	for _, name := range []string{"Eisenmark", "EISENMARK", "Éisenmärk", "eisen", "Hispárdia"} {
		code, _, errs := run(t, "", "--config", path, "report", "--nation", name, "--json", "--out", js)
		if code != exitOK {
			t.Errorf("--nation %s: exit %d\n%s", name, code, errs)
		}
	}
	data, _ := os.ReadFile(js)
	if !strings.Contains(string(data), `"Nation": "hispardia"`) {
		t.Errorf("--nation Hispárdia did not render hispardia's report")
	}
	code, _, errs := run(t, "", "--config", path, "report", "--nation", "Atlantis", "--out", js)
	if code != exitUsage || !strings.Contains(errs, "expected one of") || !strings.Contains(errs, "eisenmark") {
		t.Errorf("--nation Atlantis: exit %d %q", code, errs)
	}
	code, _, errs = run(t, "", "--config", path, "report", "--nation", "Eisenmark", "--turn", "9", "--out", js)
	if code != exitUsage || !strings.Contains(errs, "--turn 9") || !strings.Contains(errs, "the store holds turn 0 only") {
		t.Errorf("--turn 9: exit %d %q", code, errs)
	}
}
