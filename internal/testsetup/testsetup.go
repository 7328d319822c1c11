// Package testsetup is what the TestMain of a package whose tests start
// games does, written once: the shortcuts that make a game cheap to set up
// in a test, and how many tests run at once.
//
// A benchmark measures what a real game costs, so under -test.bench none of
// the shortcuts is taken (Benchmarking). The temporary files are
// internal/testtmp's.
package testsetup

import (
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// Benchmarking reports whether the test binary runs benchmarks
// (-test.bench). Call it after flag.Parse.
func Benchmarking() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

// LessGarbageCollection runs the collector a quarter as often as by default
// (unless GOGC says, or a benchmark runs): the tests allocate much and keep
// little, and spend about a tenth less CPU so.
func LessGarbageCollection() {
	if !Benchmarking() && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// GameShortcuts makes a game cheap to set up, unless a benchmark runs:
// passwords hashed at the least cost (bcrypt for the order sheets, PBKDF2
// for the embedded server's accounts), each report's PDF built once in the
// process (reports.MemoizeRenderForTests), and LessGarbageCollection.
func GameShortcuts() {
	if Benchmarking() {
		return
	}
	password.SetCostForTests()
	mailserver.LowerPasswordCostForTests()
	reports.MemoizeRenderForTests()
	LessGarbageCollection()
}

// TestsPerCore lets n parallel tests run a core (-test.parallel), unless
// the command line says how many: tests that start games wait on mail more
// than they compute.
func TestsPerCore(n int) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(n*runtime.GOMAXPROCS(0)))
	}
}
