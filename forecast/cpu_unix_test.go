//go:build unix

package forecast_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user and system):
// a benchmark's CPU per operation, which a loaded machine does not inflate
// as it does the wall-clock time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
