package testtmp

import (
	"os"
	"strings"
	"testing"
)

// TestInMemoryLeavesAGivenTMPDIR: a TMPDIR someone set is kept as it is.
func TestInMemoryLeavesAGivenTMPDIR(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	want := os.Getenv("TMPDIR")
	InMemory()()
	if got := os.Getenv("TMPDIR"); got != want {
		t.Fatalf("TMPDIR %q, want it left as %q", got, want)
	}
}

// TestInMemoryOnTmpfs: without TMPDIR, the temporary folder is a fresh one
// on /dev/shm where that is a usable tmpfs, and cleanup removes it.
func TestInMemoryOnTmpfs(t *testing.T) {
	t.Setenv("TMPDIR", "")
	if !memoryFS("/dev/shm") {
		t.Skip("no usable tmpfs at /dev/shm here")
	}
	cleanup := InMemory()
	dir := os.Getenv("TMPDIR")
	if !strings.HasPrefix(dir, "/dev/shm/pbem-test-") || os.TempDir() != dir {
		cleanup()
		t.Fatalf("TMPDIR %q, os.TempDir %q: want a folder under /dev/shm", dir, os.TempDir())
	}
	cleanup()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s is still there after cleanup", dir)
	}
}
