package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkCorruptError asserts what a referee reading the error needs: which
// file, that it is damaged, and what to do.
func checkCorruptError(t *testing.T, err error, path string) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open = %v, want an error wrapping ErrCorrupt", err)
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || len(ce.Problems) == 0 {
		t.Fatalf("Open = %#v, want a *CorruptError with problems", err)
	}
	for _, want := range []string{path, "damaged", "backup", ".recover"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%s", want, err)
		}
	}
}

func TestCorruptFileIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if _, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i),
			Raw: bytes.Repeat([]byte{byte(i)}, 1500), ReceivedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Fatalf("WAL not checkpointed on Close: %d bytes", fi.Size())
	}

	// Scribble over a page in the middle of the file (not page 1, the header).
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	mid := (len(data) / page / 2) * page
	for i := mid; i < mid+page; i++ {
		data[i] = 0xA5
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, nil)
	checkCorruptError(t, err, path)
	t.Logf("the referee reads: %v", err)

	// quick_check finds it too.
	_, err = Open(path, &Options{QuickCheck: true})
	checkCorruptError(t, err, path)

	// A command that only reads checks the header alone: it opens, and
	// the damaged page fails the read that meets it, never a wrong answer.
	db, err = Open(path, &Options{HeaderCheck: true})
	if err != nil {
		t.Fatalf("the header check refused a file whose header is whole: %v", err)
	}
	defer db.Close()
	failed := false
	for i := range 300 {
		if _, err := db.Mail(ctx, int64(i+1)); err != nil && !errors.Is(err, ErrNotFound) {
			failed = true
			break
		}
	}
	if !failed {
		t.Error("reading every mail of the damaged file met no error")
	}
}

func TestNotADatabaseIsRefused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte("this is a config file, not a database\n"), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Options{nil, {HeaderCheck: true}} {
		_, err := Open(path, o)
		checkCorruptError(t, err, path)
		if !strings.Contains(err.Error(), "not an SQLite database") {
			t.Errorf("error does not say it is not a database (options %+v): %v", o, err)
		}
	}
}

func TestOpenMissingDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "no-such-dir")
	_, err := Open(filepath.Join(dir, "pbem.db"), nil)
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Open in a missing directory: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Open created %s", dir)
	}
}

// TestIndexOutOfStepIsRefused damages the file in a way SQLite can still
// read (an index that no longer matches its table), so the problems come
// from integrity_check's own report rather than from a read error.
func TestIndexOutOfStepIsRefused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE junk (a INTEGER, b INTEGER)`,
		`CREATE INDEX junk_a ON junk(a)`,
		`INSERT INTO junk VALUES (1, 10), (2, 20), (3, 30)`,
		`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_schema SET sql = 'CREATE INDEX junk_a ON junk(b)' WHERE name = 'junk_a'`,
	} {
		if _, err := db.writer.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	_, err = Open(path, nil)
	checkCorruptError(t, err, path)
	if !strings.Contains(err.Error(), "junk_a") {
		t.Errorf("error does not quote integrity_check's report: %v", err)
	}
	t.Logf("the referee reads: %v", err)
}
