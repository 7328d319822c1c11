package host

import (
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/syw-pbem/pbem/internal/testtmp"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes the games the tests start cheap to set up: passwords
// hashed at the least cost (bcrypt for the order sheets, PBKDF2 for the
// embedded server's accounts), each PDF built once. A benchmark measures
// what a real game costs, so under -test.bench the shortcuts are off. The
// tests that start a host wait on mail more than they compute: four run a
// core (unless -test.parallel says).
func TestMain(m *testing.M) {
	flag.Parse()
	cleanTmp := testtmp.InMemory() // the stores and mail folders on tmpfs
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
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
