package engine

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"
)

// TestMain has Resolve check the place index against the forces after
// every step in every test of the package (and of engine_test, in the same
// binary); not while benchmarks run, whose figures the check would
// inflate. The tests allocate much and keep little (TestFogOfWarEvents
// rolls a die per figure of armies scaled a hundred thousandfold): the
// collector runs a quarter as often as by default (unless GOGC says), for
// about half the package's CPU. A benchmark keeps the default.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkPlaceIndex = true
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
	}
	os.Exit(m.Run())
}
