//go:build !race

package daemon

import "time"

// ackLimit is the promise: a sheet is answered within 2 s of its arrival.
const ackLimit = 2 * time.Second
