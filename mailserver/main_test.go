package mailserver

import (
	"os"
	"testing"
)

// TestMain hashes the test accounts' passwords with one PBKDF2 iteration:
// every test logs in, many times.
func TestMain(m *testing.M) {
	LowerPasswordCostForTests()
	os.Exit(m.Run())
}
