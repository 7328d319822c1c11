package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes the in-process games cheap to set up (passwords hashed at
// bcrypt's least cost, each PDF built once), runs the tests that wait on a
// built binary or a mail server four a core, and removes the binary the
// tests share. (The built binary hashes at the full cost: it is the
// program a user runs.)
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	// A benchmark measures what a real game costs (BenchmarkRunMemory):
	// only the tests take the shortcuts.
	if flag.Lookup("test.bench").Value.String() == "" {
		password.SetCostForTests()
		reports.MemoizeRenderForTests()
		// The tests allocate much and keep little: the collector runs a
		// quarter as often as by default (unless GOGC says), for about a
		// tenth less CPU. A benchmark keeps the default.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	binDir    string // the folder of the built binary, removed by TestMain
	binPath   string
	binErr    error
	binOut    []byte
)

// pbemBinary builds pbem once for the test binary and returns its path; the
// tests that run it as a user would share it.
func pbemBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "pbem-test-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "pbem")
		binOut, binErr = exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binOut)
	}
	return binPath
}
