//go:build !race

package inbox

// raceDetector reports a build with the race detector.
const raceDetector = false
