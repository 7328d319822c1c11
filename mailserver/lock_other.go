//go:build !unix

package mailserver

// dirLock does nothing where flock(2) is not available: do not run two
// servers on the same directory there.
type dirLock struct{}

func lockDir(dir string) (*dirLock, error) { return &dirLock{}, nil }

func (l *dirLock) unlock() error { return nil }
