//go:build !unix

package daemon

// processAlive cannot tell on this system: a recorded run is taken to be
// running until it records its stop.
func processAlive(pid int) bool { return pid > 0 }
