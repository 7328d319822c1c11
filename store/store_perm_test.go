package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStoreIsTheOwnersAlone: a new store file is 0600, and one found
// readable by others (an older pbem's) is tightened when it is opened,
// with its -wal file: the store keeps raw mail with PASSWORD lines.
func TestStoreIsTheOwnersAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	mode := func(p string) os.FileMode {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if m := mode(path); m != 0o600 {
		t.Errorf("a new store is %o, want 600", m)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if m := mode(path); m != 0o600 {
		t.Errorf("a store found at 644 is %o after opening, want 600", m)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("the -wal file is %o, want 600", fi.Mode().Perm())
	}
}
