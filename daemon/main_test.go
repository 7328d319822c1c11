package daemon

import (
	"os"
	"testing"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes a game's set-up cheap: every test starts a game, which
// hashes each nation's order-sheet password (bcrypt) and each mail account's
// (PBKDF2), and mails the starting reports, the same PDFs in most tests
// (built once, then kept). The crash tests' child processes are this
// binary, so they run the same way.
func TestMain(m *testing.M) {
	password.SetCostForTests()
	mailserver.LowerPasswordCostForTests()
	reports.MemoizeRenderForTests()
	os.Exit(m.Run())
}
