package demo

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
	"github.com/syw-pbem/pbem/internal/testtmp"
)

// TestMain makes the demo's game cheap to set up in the tests
// (testsetup.GameShortcuts) and keeps its files on tmpfs.
func TestMain(m *testing.M) {
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	testsetup.GameShortcuts()
	code := m.Run()
	cleanTmp()
	os.Exit(code)
}
