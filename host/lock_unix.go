//go:build unix

package host

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockFolder holds DIR/host.lock (flock) while a host command changes
// host.yaml or the game folders, so two commands never interleave.
func lockFolder(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, "host.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
