package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportVerifyRollback: after three turns resolved with "pbem resolve",
// "pbem export" writes an archive "pbem verify" passes; with one byte of a
// turn's state changed verify fails with exit 1 naming the line and turn.
// "pbem rollback 3" opens turn 3 again, "pbem rerun 3" restores it, and
// "pbem resend" queues a report again.
func TestExportVerifyRollback(t *testing.T) {
	dir := t.TempDir()
	path := shippedConfig(t, dir)
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	for i := 0; i < 3; i++ {
		if code, _, errs := run(t, "", "--config", path, "resolve"); code != exitOK {
			t.Fatalf("pbem resolve: exit %d\n%s", code, errs)
		}
	}
	// A turn not resolved yet is a wrong argument: exit 2, saying which
	// turns can be rolled back.
	if code, _, errs := run(t, "", "--config", path, "rollback", "5"); code != exitUsage ||
		!strings.Contains(errs, "turn 5 has not been resolved") || !strings.Contains(errs, "1 to 3") {
		t.Errorf("pbem rollback 5 with turn 4 open: exit %d, want %d\n%s", code, exitUsage, errs)
	}
	code, out, errs := run(t, "", "--config", path, "rollback", "3")
	if code != exitOK || !strings.Contains(out, "is open again") {
		t.Fatalf("pbem rollback 3: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := run(t, "", "--config", path, "status"); !strings.Contains(out, "Open: Turn 3") {
		t.Errorf("after rollback 3:\n%s", out)
	}
	if code, out, errs := run(t, "", "--config", path, "rerun", "3"); code != exitOK || !strings.Contains(out, "restored") {
		t.Fatalf("pbem rerun 3: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "--config", path, "resend", "--nation", "eisenmark", "--turn", "2"); code != exitOK || !strings.Contains(out, "Message-ID") {
		t.Errorf("pbem resend: exit %d\n%s%s", code, out, errs)
	}
	arch := filepath.Join(dir, "game.archive")
	if code, out, errs := run(t, "", "--config", path, "export", "--out", arch); code != exitOK || !strings.Contains(out, "4 turn records") {
		t.Fatalf("pbem export: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "verify", arch); code != exitOK || !strings.Contains(out, "3 turns resolved again to the same bytes") {
		t.Fatalf("pbem verify: exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(arch)
	i := strings.Index(string(data), `"turn":2,`)
	j := i + strings.Index(string(data[i:]), `"Treasury":`) + len(`"Treasury":`)
	data[j] ^= 1
	bad := filepath.Join(dir, "bad.archive")
	os.WriteFile(bad, data, 0o600)
	code, _, errs = run(t, "", "verify", bad)
	if code != exitProblems || !strings.Contains(errs, "FAILED: line 4 (turn 2)") {
		t.Errorf("pbem verify of an archive with a byte changed: exit %d\n%s", code, errs)
	}
}
