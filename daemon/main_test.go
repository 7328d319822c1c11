package daemon

import (
	"flag"
	"os"
	"testing"

	"github.com/syw-pbem/pbem/internal/testsetup"
	"github.com/syw-pbem/pbem/internal/testtmp"
	"github.com/syw-pbem/pbem/reports"
)

// TestMain makes a game's set-up cheap: every test starts a game, which
// hashes each nation's order-sheet password (bcrypt) and each mail account's
// (PBKDF2), and mails the starting reports, the same PDFs in most tests
// (built once, then kept). The crash tests' child processes are this
// binary, so they run the same way, and share the PDFs they make through a
// folder (sharedPDFEnv).
//
// Most of a test's time is spent waiting for mail, so more tests run at
// once than there are cores (four a core) unless -test.parallel says how many
// — but for the race detector, which makes them compute several times over.
func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	flag.Parse()
	defer testtmp.InMemory()() // the stores and mail folders on tmpfs
	if !raceDetector {
		testsetup.TestsPerCore(4)
	}
	if !testsetup.Benchmarking() {
		if dir := os.Getenv(sharedPDFEnv); dir != "" {
			// A crash test's child: the PDFs its siblings made are in dir
			// (set before GameShortcuts: the first memo set is kept).
			reports.ShareRenderMemoForTests(dir)
		} else if dir, err := os.MkdirTemp("", "pbem-daemon-pdfs-"); err == nil {
			os.Setenv(sharedPDFEnv, dir) // for the child processes
			defer os.RemoveAll(dir)
		}
		testsetup.GameShortcuts()
	}
	code := m.Run()
	removeFixtures()
	return code
}

// sharedPDFEnv names the folder where the crash tests' child processes
// (each a new process, most resolving the same turn of the same template
// game) keep the PDFs they make, so that each is made once between them
// (reports.ShareRenderMemoForTests). The parent keeps its own in memory.
const sharedPDFEnv = "PBEM_TEST_SHARED_PDFS"
