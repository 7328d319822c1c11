package mailserver

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testtmp"
)

// TestMain hashes the test accounts' passwords with one PBKDF2 iteration:
// every test logs in, many times.
func TestMain(m *testing.M) {
	flag.Parse()
	// The stores on tmpfs.
	cleanTmp := testtmp.InMemory()
	if flag.Lookup("test.bench").Value.String() == "" { // benchmarks log in at the real cost
		LowerPasswordCostForTests()
	}
	code := m.Run()
	cleanTmp()
	os.Exit(code)
}
