//go:build unix

package mailserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// dirLock is an exclusive flock(2) on Dir/lock, held while a Server has the
// store open, so that a second process cannot serve (and diverge from) the
// same mail. The kernel releases it if the process dies.
type dirLock struct{ f *os.File }

func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("mailserver: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("mailserver: %s is in use by another pbem mail server; "+
				"stop it, or send through its SMTP port instead", dir)
		}
		return nil, fmt.Errorf("mailserver: locking %s: %w", path, err)
	}
	return &dirLock{f: f}, nil
}

func (l *dirLock) unlock() error {
	// Closing the descriptor releases the lock.
	return l.f.Close()
}
