package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusAfterNew: "pbem status" on a new game shows turn 1 open, its
// deadline from the schedule, and every nation without orders; before
// "pbem new" it says to create the game, with exit 4.
func TestStatusAfterNew(t *testing.T) {
	dir := t.TempDir()
	conf, err := os.ReadFile("../../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scen, _ := filepath.Abs("../../scenarios/default")
	text := strings.Replace(string(conf), "scenario: scenarios/default", "scenario: "+scen, 1)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "--config", path, "status"); code != exitFailure || !strings.Contains(errs, "pbem new") {
		t.Errorf("status before new: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	code, out, errs := run(t, "", "--config", path, "status")
	if code != exitOK {
		t.Fatalf("pbem status: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"Open: Turn 1", "Deadline: ", "set by the schedule", "Eisenmark      no orders yet", "Outbox: 6 waiting"} {
		if !strings.Contains(out, want) {
			t.Errorf("pbem status lacks %q:\n%s", want, out)
		}
	}
}

// TestResolveAndPreview: "pbem preview" prints the turn and saves nothing;
// "pbem resolve" resolves it, and the status then shows the next turn open.
func TestResolveAndPreview(t *testing.T) {
	dir := t.TempDir()
	path := shippedConfig(t, dir)
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	code, out, errs := run(t, "", "--config", path, "preview")
	if code != exitOK || !strings.Contains(out, "PREVIEW of Turn 1") || !strings.Contains(out, "No orders (NMR)") {
		t.Fatalf("pbem preview: exit %d\n%s\n%s", code, out, errs)
	}
	if _, out, _ := run(t, "", "--config", path, "status"); !strings.Contains(out, "Open: Turn 1") {
		t.Errorf("after preview:\n%s", out)
	}
	code, out, errs = run(t, "", "--config", path, "resolve")
	if code != exitOK || !strings.Contains(out, "Turn 1") {
		t.Fatalf("pbem resolve: exit %d\n%s\n%s", code, out, errs)
	}
	// The answer is the command's: no log lines of routine work on the
	// terminal (they would sit among it), only what goes wrong.
	if strings.Contains(errs, "level=INFO") || strings.Contains(out, "level=") {
		t.Errorf("pbem resolve printed log lines:\n%s%s", out, errs)
	}
	if _, out, _ := run(t, "", "--config", path, "status"); !strings.Contains(out, "Open: Turn 2") || !strings.Contains(out, "Outbox: 12 waiting") {
		t.Errorf("after resolve:\n%s", out)
	}
}

// shippedConfig writes the repository's config.yaml into dir with the
// scenario's path made absolute, as a referee's copy of it, and returns its
// path.
func shippedConfig(t *testing.T, dir string) string {
	t.Helper()
	conf, err := os.ReadFile("../../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scen, _ := filepath.Abs("../../scenarios/default")
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(string(conf), "scenario: scenarios/default", "scenario: "+scen, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
