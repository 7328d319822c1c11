package main

import (
	"os"
	"runtime/debug"
)

// runMemoryLimit is the Go runtime's soft memory limit for "pbem run": the
// garbage collector works harder as the heap nears it, so that a burst of
// large or hostile mail (each handled one at a time, see docs/intake.md)
// leaves little garbage behind. It is not a cap: the daemon never fails
// for it. GOMEMLIMIT in the environment overrides it.
const runMemoryLimit = 64 << 20

// setMemoryLimit applies runMemoryLimit unless GOMEMLIMIT is set.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(runMemoryLimit)
	}
}
