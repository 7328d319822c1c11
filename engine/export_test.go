package engine

import (
	"flag"
	"os"
	"testing"
)

// TestMain has Resolve check the place index against the forces after
// every step in every test of the package (and of engine_test, in the same
// binary); not while benchmarks run, whose figures the check would
// inflate.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkPlaceIndex = true
	}
	os.Exit(m.Run())
}
