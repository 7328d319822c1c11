package mailserver

import (
	"flag"
	"os"
	"testing"
)

// TestMain hashes the test accounts' passwords with one PBKDF2 iteration:
// every test logs in, many times.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" { // benchmarks log in at the real cost
		LowerPasswordCostForTests()
	}
	os.Exit(m.Run())
}
