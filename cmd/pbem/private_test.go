package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDataFolderIsPrivate: the data folder and the store keep raw mail with
// PASSWORD lines: "pbem new" makes them its owner's alone (0700, 0600), and
// tightens a folder and a store an older pbem left readable by others.
func TestDataFolderIsPrivate(t *testing.T) {
	dir := t.TempDir()
	path := shippedConfig(t, dir)
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	db := filepath.Join(data, "pbem.db")
	check := func(when string) {
		t.Helper()
		for p, want := range map[string]os.FileMode{data: 0o700, db: 0o600} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s: %s is %o, want %o", when, p, fi.Mode().Perm(), want)
			}
		}
	}
	check("after pbem new in a 0755 folder")
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "--config", path, "status"); code != exitOK {
		t.Fatalf("pbem status: exit %d\n%s", code, errs)
	}
	check("after pbem status on a 0644 store")
}
