package console

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
	"github.com/syw-pbem/pbem/internal/testtmp"
)

// TestMain makes the games the tests start cheap to set up
// (testsetup.GameShortcuts) and keeps their files on tmpfs; the browser the
// tests share is stopped at the end.
func TestMain(m *testing.M) {
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	testsetup.GameShortcuts()
	code := m.Run()
	stopBrowser()
	cleanTmp()
	os.Exit(code)
}
