package demo

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"

	"github.com/syw-pbem/pbem/internal/testtmp"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes the demo's game cheap to set up in the tests: passwords
// hashed at the least cost (bcrypt for the order sheets, PBKDF2 for the
// embedded server's accounts), each PDF built once.
func TestMain(m *testing.M) {
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	// A benchmark measures what a real game costs: only the tests take
	// the shortcuts.
	if flag.Lookup("test.bench").Value.String() == "" {
		password.SetCostForTests()
		mailserver.LowerPasswordCostForTests()
		reports.MemoizeRenderForTests()
		// The tests allocate much and keep little: the collector runs a
		// quarter as often as by default (unless GOGC says), for about a
		// tenth less CPU. A benchmark keeps the default.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
	}
	code := m.Run()
	cleanTmp()
	os.Exit(code)
}
