package reports_test

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"
)

// TestMain runs the collector a quarter as often as by default (unless GOGC
// says), as the other test mains do: the tests allocate much and keep
// little (the fog test's game alone rolls millions of dice), for about a
// tenth less CPU. A benchmark keeps the default.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
