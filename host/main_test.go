package host

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
	"github.com/syw-pbem/pbem/internal/testtmp"
)

// TestMain makes the games the tests start cheap to set up
// (testsetup.GameShortcuts) and keeps their files on tmpfs. The tests that
// start a host wait on mail more than they compute: four run a core.
func TestMain(m *testing.M) {
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	testsetup.TestsPerCore(4)
	testsetup.GameShortcuts()
	code := m.Run()
	cleanTmp()
	os.Exit(code)
}
