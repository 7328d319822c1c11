package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostCommands: a host folder made, two games added (one V4), listed,
// each game reached with --game NAME by the per-game commands, one
// archived and removed while the other stays.
func TestHostCommands(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := run(t, "", "host", "init", dir); code != exitOK || !strings.Contains(out, "orders@pbem.localhost") {
		t.Fatalf("host init: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "host", "add", "--host", dir, "alpha"); code != exitOK || !strings.Contains(out, "orders+alpha@pbem.localhost") {
		t.Fatalf("host add alpha: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "host", "add", "--host", dir, "--ruleset", "syw-v4", "vier"); code != exitOK || !strings.Contains(out, "syw-v4") {
		t.Fatalf("host add vier: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "", "host", "add", "--host", dir, "alpha"); code == exitOK || !strings.Contains(errs, "has a game alpha already") {
		t.Errorf("adding alpha twice: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "", "host", "add", "--host", dir, "Bad_Name"); code == exitOK || !strings.Contains(errs, "lower-case") {
		t.Errorf("a bad game name: exit %d %s", code, errs)
	}
	code, out, errs := run(t, "", "host", "list", "--host", dir)
	if code != exitOK || !strings.Contains(out, "alpha") || !strings.Contains(out, "vier") || !strings.Contains(out, "syw-v4") {
		t.Fatalf("host list: exit %d\n%s%s", code, out, errs)
	}
	// A per-game command on a game of the host.
	if code, out, errs := run(t, "", "new", "--host", dir, "--game", "vier"); code != exitOK || !strings.Contains(out, "game vier created") {
		t.Fatalf("new --game vier: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", "status", "--host", dir, "--game", "vier"); code != exitOK || !strings.Contains(out, "syw-v4") {
		t.Fatalf("status --game vier: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "", "status", "--host", dir, "--game", "nope"); code != exitUsage || !strings.Contains(errs, "alpha, vier") {
		t.Errorf("status --game nope: exit %d %s", code, errs)
	}
	sheet := filepath.Join(t.TempDir(), "sheet.txt")
	os.WriteFile(sheet, []byte("GAME vier\nNATION eisenmark\nPASSWORD x\nTURN 1\nEND\n"), 0o644)
	if code, out, errs := run(t, "", "check", "--host", dir, "--game", "vier", sheet); code != exitOK {
		t.Errorf("check --game vier: exit %d\n%s%s", code, out, errs)
	}
	// Archive and remove vier: alpha stays.
	if code, out, errs := run(t, "", "host", "archive", "--host", dir, "vier"); code != exitOK || !strings.Contains(out, "archived") {
		t.Fatalf("host archive: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "archive", "vier.jsonl")); err != nil {
		t.Errorf("no archive file: %v", err)
	}
	if code, _, errs := run(t, "", "host", "remove", "--host", dir, "alpha"); code == exitOK || !strings.Contains(errs, "is running") {
		t.Errorf("removing a running game: exit %d %s", code, errs)
	}
	if code, out, errs := run(t, "", "host", "remove", "--host", dir, "vier"); code != exitOK {
		t.Fatalf("host remove: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ = run(t, "", "host", "list", "--host", dir)
	if strings.Contains(out, "vier") || !strings.Contains(out, "alpha") {
		t.Errorf("after removing vier, host list says:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "archive", "vier.jsonl")); err != nil {
		t.Errorf("remove deleted the archive file: %v", err)
	}
}
