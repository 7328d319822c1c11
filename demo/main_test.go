package demo

import (
	"os"
	"testing"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes the demo's game cheap to set up in the tests: passwords
// hashed at the least cost (bcrypt for the order sheets, PBKDF2 for the
// embedded server's accounts), each PDF built once.
func TestMain(m *testing.M) {
	password.SetCostForTests()
	mailserver.LowerPasswordCostForTests()
	reports.MemoizeRenderForTests()
	os.Exit(m.Run())
}
