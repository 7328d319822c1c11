package reports_test

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
)

// TestMain runs the collector a quarter as often as by default, as the
// other test mains do (testsetup.LessGarbageCollection): the fog test's game
// alone rolls millions of dice.
func TestMain(m *testing.M) {
	flag.Parse()
	testsetup.LessGarbageCollection()
	os.Exit(m.Run())
}
