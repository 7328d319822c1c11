//go:build !race

package daemon

import "time"

// ackLimit is the promise: a sheet is answered within 2 s of its arrival.
const ackLimit = 2 * time.Second

// resolveLimit is how soon RESOLVE NOW or the last FINAL must resolve the
// turn while a player streams sheets (issue 21).
const resolveLimit = 2 * time.Second

// waitLimit bounds every wait for something the daemon does (see
// harness_test.go).
const waitLimit = 30 * time.Second

// raceDetector reports a build with the race detector.
const raceDetector = false
