package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapCommandsOnAnAreaMap: "pbem map validate" of the Trossian
// campaign's area map checks it as an area map (it once read it as a hex
// map and printed a hundred wrong errors), finds what is wrong with one,
// and "pbem map render" says where an area map is drawn.
func TestMapCommandsOnAnAreaMap(t *testing.T) {
	code, out, errs := run(t, "", "map", "validate", "scenarios/trossian/map.txt")
	if code != exitOK || !strings.Contains(out, "5 kingdoms, 27 provinces") || !strings.Contains(out, "valid: an area map of the Trossian campaign, checked with its scenario.yaml") {
		t.Errorf("validate the Trossian map: exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile("../../scenarios/trossian/map.txt")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "map.txt")
	if err := os.WriteFile(bad, append(data, "border Norhaven Atlantis\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "", "map", "validate", bad)
	if code != exitProblems || !strings.Contains(errs, "Atlantis is no province of the map") || strings.Contains(errs, "expected a directive: map, terrain") {
		t.Errorf("validate a broken area map: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = run(t, "", "map", "render", "--out", filepath.Join(t.TempDir(), "m.pdf"), "scenarios/trossian/map.txt")
	if code != exitUsage || !strings.Contains(errs, "is an area map") {
		t.Errorf("render an area map: exit %d\n%s", code, errs)
	}
}
