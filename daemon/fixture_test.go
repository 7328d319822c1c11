package daemon

import (
	"os"
	"sync"
	"testing"
)

// fixture is a game directory built once per test binary, by the first
// test that asks for it, and copied for each test that uses it: the crash
// tests' templates (a game started, a sheet acknowledged, turns resolved)
// cost a child daemon's start and a turn's reports each, the same for every
// test that starts from them.
type fixture struct {
	once  sync.Once
	dir   string
	built bool
}

var (
	fixtureMu   sync.Mutex
	fixtureDirs []string // removed by TestMain
)

// copyOf builds the fixture with build (into a folder of its own that
// outlives the test that built it) if no test has, and returns a copy of it
// in a temporary folder of t's. A failed build fails every test that asks.
func (f *fixture) copyOf(t *testing.T, build func(t *testing.T, dir string)) string {
	t.Helper()
	f.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbem-daemon-fixture-")
		if err != nil {
			t.Fatal(err)
		}
		fixtureMu.Lock()
		fixtureDirs = append(fixtureDirs, dir)
		fixtureMu.Unlock()
		build(t, dir)
		f.dir, f.built = dir, true
	})
	if !f.built {
		t.Fatal("the shared game directory could not be built (the test that built it says why)")
	}
	dir := t.TempDir()
	copyTree(t, f.dir, dir)
	return dir
}

// removeFixtures removes the fixtures' folders (TestMain, after the tests).
func removeFixtures() {
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	for _, d := range fixtureDirs {
		os.RemoveAll(d)
	}
}
