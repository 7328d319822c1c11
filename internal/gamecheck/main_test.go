package gamecheck

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
)

// TestMain runs the games with the collector a quarter as often as by
// default (testsetup.LessGarbageCollection): each game allocates much and
// keeps little, and TestGameInvariants spends about a sixth less CPU so.
func TestMain(m *testing.M) {
	flag.Parse()
	testsetup.LessGarbageCollection()
	os.Exit(m.Run())
}
