package gamecheck

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"
)

// TestMain runs the games with the collector a quarter as often as by
// default (unless GOGC says): each game allocates much and keeps little, and
// TestGameInvariants spends about a sixth less CPU so.
func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
