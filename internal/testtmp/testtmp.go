// Package testtmp keeps a test binary's temporary files in memory.
//
// pbem's tests write real SQLite stores, maildirs and mail spools in
// t.TempDir(), and every committed transaction is an fsync: about 0.2 ms on
// the build machine's disk, nothing on tmpfs. Across the suite that is a
// fifth of its system time and several seconds of its wall time. What the
// tests check does not depend on the disk: a SIGKILL leaves the page cache
// as it was, so a crash test learns the same on tmpfs; only a power cut
// would tell the two apart, and no test makes one.
//
// InMemory, called first in a TestMain, points $TMPDIR (what os.TempDir and
// so t.TempDir read) at a fresh folder under /dev/shm when that is a
// tmpfs that allows programs to run (Linux only), and the child processes a test starts (the
// crash tests' children, pbem run as a binary, Dovecot's files) inherit it.
// It does nothing when $TMPDIR is already set — by the person running the
// tests, or by a parent test binary — or when /dev/shm cannot be used, and
// nothing for a benchmark: benchmarks measure the disk a game really runs
// on.
package testtmp

import (
	"flag"
	"os"
	"testing"
)

// InMemory moves $TMPDIR to memory (see the package doc) and returns the
// function that removes the folder it made; call it after m.Run. Call
// InMemory after flag.Parse.
func InMemory() (cleanup func()) {
	cleanup = func() {}
	if os.Getenv("TMPDIR") != "" {
		return cleanup
	}
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		return cleanup
	}
	if !memoryFS("/dev/shm") {
		return cleanup
	}
	dir, err := os.MkdirTemp("/dev/shm", "pbem-test-")
	if err != nil {
		return cleanup
	}
	// Others may pass through, as through /tmp: a test's Dovecot runs as
	// its own user, in a folder of its own under this one.
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return cleanup
	}
	if err := os.Setenv("TMPDIR", dir); err != nil {
		os.RemoveAll(dir)
		return cleanup
	}
	return func() {
		os.Unsetenv("TMPDIR")
		os.RemoveAll(dir)
	}
}

// Main is a whole TestMain for a package that needs nothing else: it parses
// the flags, moves $TMPDIR to memory, runs the tests, removes the folder and
// exits with the tests' code.
func Main(m *testing.M) {
	flag.Parse()
	cleanup := InMemory()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
