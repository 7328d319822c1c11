//go:build !unix

package host

// readStatus cannot tell a running host where signals are missing: list
// shows host.yaml's states alone.
func readStatus(dir string) (statusFile, bool) { return statusFile{}, false }
