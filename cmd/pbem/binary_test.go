package main

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
	"github.com/syw-pbem/pbem/internal/testtmp"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
)

// TestMain makes the in-process games cheap to set up (passwords hashed at
// bcrypt's and PBKDF2's least cost, each PDF built once), runs the tests
// that wait on a child pbem or a mail server four a core, and removes the
// binaries the tests share.
//
// Started under the name pbem (the link pbemBinary makes), the test binary
// is pbem: it runs realMain as main does, taking the least password costs
// when the test that starts it took them (leastCostEnv says), so that a
// mail store or game the parent wrote checks in the child and back.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "pbem" {
		if os.Getenv(leastCostEnv) == "1" {
			testShortcuts()
		}
		os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	testsetup.TestsPerCore(4)
	// A benchmark measures what a real game costs (BenchmarkRunMemory):
	// only the tests take the shortcuts.
	if !testsetup.Benchmarking() {
		testsetup.GameShortcuts()
		os.Setenv(leastCostEnv, "1") // for the children pbemBinary names
	}
	// The demo's game-year, the longest thing the tests wait on, starts
	// now in a process of its own, beside the tests that cannot run in
	// parallel (they change the working folder), rather than after them.
	if !testing.Short() && willRun("TestDemoCommand") {
		if bin, err := selfBinary(); err == nil {
			startDemo(bin)
		}
	}
	code := m.Run()
	stopDemo()
	for _, dir := range []string{selfDir, binDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	cleanTmp()
	os.Exit(code)
}

// willRun reports whether the test of that name is to run, as far as
// -test.run and -test.skip say at their top level ("" runs every test).
func willRun(name string) bool {
	if flag.Lookup("test.list").Value.String() != "" {
		return false
	}
	top := func(flagName string) string {
		pat, _, _ := strings.Cut(flag.Lookup(flagName).Value.String(), "/")
		return pat
	}
	if pat := top("test.run"); pat != "" {
		if ok, err := regexp.MatchString(pat, name); err != nil || !ok {
			return false
		}
	}
	if pat := top("test.skip"); pat != "" {
		if ok, _ := regexp.MatchString(pat, name); ok {
			return false
		}
	}
	return true
}

// leastCostEnv, set to 1 in a child's environment, has the test binary
// started as pbem take testShortcuts.
const leastCostEnv = "PBEM_TEST_LEAST_COST"

// testShortcuts lowers the password costs and, as the tests allocate much
// and keep little, has the collector run a quarter as often as by default
// (unless GOGC says), for about a tenth less CPU.
func testShortcuts() {
	password.SetCostForTests()
	mailserver.LowerPasswordCostForTests()
	testsetup.LessGarbageCollection()
}

var (
	selfOnce sync.Once
	selfDir  string // the folder of the link to the test binary, removed by TestMain
	selfPath string
	selfErr  error
)

// pbemBinary returns the path of a pbem the tests run as a user would, in
// a process of its own: this test binary, linked under the name pbem (see
// TestMain). It takes the tests' password shortcuts; the rest is main's
// code, so no second build of pbem is linked for the tests.
func pbemBinary(t testing.TB) string {
	t.Helper()
	path, err := selfBinary()
	if err != nil {
		t.Fatalf("the test binary as pbem: %v", err)
	}
	return path
}

// selfBinary makes, once, the link pbemBinary returns.
func selfBinary() (string, error) {
	selfOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			selfErr = err
			return
		}
		if selfDir, selfErr = os.MkdirTemp("", "pbem-test-self-"); selfErr != nil {
			return
		}
		selfPath = filepath.Join(selfDir, "pbem")
		// A hard link keeps os.Executable naming the link (pbem's hints
		// say "pbem", not "go run ./cmd/pbem"); a copy where linking is
		// refused.
		if os.Link(exe, selfPath) != nil {
			selfErr = copyExecutable(exe, selfPath)
		}
	})
	return selfPath, selfErr
}

func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

var (
	buildOnce sync.Once
	binDir    string // the folder of the built binary, removed by TestMain
	binPath   string
	binErr    error
	binOut    []byte
)

// builtPbem builds pbem once for the test binary and returns its path: the
// program a user runs, at the full password costs, for the benchmarks that
// measure it.
func builtPbem(b testing.TB) string {
	b.Helper()
	buildOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "pbem-test-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "pbem")
		binOut, binErr = exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	})
	if binErr != nil {
		b.Fatalf("go build: %v\n%s", binErr, binOut)
	}
	return binPath
}
