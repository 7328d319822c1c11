package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrossianRefereeCLI: the referee's commands on the game's record work
// on a Trossian game as on an SYW one — pbem preview, rollback, rerun and
// password, and the archive: pbem export writes it, pbem verify resolves
// every Trossian turn again to the same bytes, and fails on one byte
// changed, naming the line and turn.
func TestTrossianRefereeCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "game")
	if code, out, errs := run(t, "", "init", "--scenario", "trossian", dir); code != exitOK {
		t.Fatalf("pbem init: exit %d\n%s%s", code, out, errs)
	}
	path := filepath.Join(dir, "config.yaml")
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	for i := 0; i < 3; i++ {
		if code, _, errs := run(t, "", "--config", path, "resolve"); code != exitOK {
			t.Fatalf("pbem resolve: exit %d\n%s", code, errs)
		}
	}
	code, out, errs := run(t, "", "--config", path, "preview")
	if code != exitOK || !strings.Contains(out, "PREVIEW of Turn 4, Early Summer 1801: nothing was saved or sent.") {
		t.Fatalf("pbem preview: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "", "--config", path, "rollback", "5"); code != exitUsage || !strings.Contains(errs, "1 to 3") {
		t.Errorf("pbem rollback 5 with turn 4 open: exit %d, want %d\n%s", code, exitUsage, errs)
	}
	if code, out, errs := run(t, "", "--config", path, "rollback", "3"); code != exitOK || !strings.Contains(out, "Turn 3, Late Spring 1801 is open again") {
		t.Fatalf("pbem rollback 3: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "--config", path, "rerun", "3"); code != exitOK || !strings.Contains(out, "restored") {
		t.Fatalf("pbem rerun 3: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "--config", path, "password", "norvale", "frost-and-iron"); code != exitOK ||
		!strings.Contains(out, "Norvale's password is reset from Turn 4, Early Summer 1801 on") {
		t.Errorf("pbem password: exit %d\n%s%s", code, out, errs)
	}
	arch := filepath.Join(dir, "game.archive")
	if code, out, errs := run(t, "", "--config", path, "export", "--out", arch); code != exitOK || !strings.Contains(out, "4 turn records") {
		t.Fatalf("pbem export: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "verify", arch); code != exitOK || !strings.Contains(out, "(trossian)") ||
		!strings.Contains(out, "3 turns resolved again to the same bytes") {
		t.Fatalf("pbem verify: exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(arch)
	i := strings.Index(string(data), `"turn":2,`)
	j := i + strings.Index(string(data[i:]), `"Couriers":`) + len(`"Couriers":`)
	data[j] ^= 1
	bad := filepath.Join(dir, "bad.archive")
	if err := os.WriteFile(bad, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "verify", bad); code != exitProblems || !strings.Contains(errs, "FAILED: line 4 (turn 2)") ||
		!strings.Contains(errs, "the record was changed") {
		t.Errorf("pbem verify of an archive with a byte changed: exit %d\n%s", code, errs)
	}
}
