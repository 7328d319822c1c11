//go:build race

package daemon

import "time"

// ackLimit under the race detector, which slows everything several times
// over: the promise of 2 s is checked by the ordinary test run.
const ackLimit = 10 * time.Second

// resolveLimit under the race detector: the promise of 2 s for RESOLVE NOW
// and the last FINAL is checked by the ordinary test run.
const resolveLimit = 10 * time.Second

// waitLimit under the race detector, which slows everything several times
// over.
const waitLimit = 2 * time.Minute

// raceDetector reports a build with the race detector.
const raceDetector = true
