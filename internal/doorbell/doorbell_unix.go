//go:build unix

package doorbell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Ring wakes the process listening at path, if there is one, and reports
// whether one was: a process held the bell open to hear it. It never
// blocks; a ring nobody hears is not an error.
func Ring(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		return false // no bell (or something else by its name): never write into a file
	}
	// O_NONBLOCK: with no reader the open fails (ENXIO) at once rather than
	// waiting for one; a full pipe means a ring is pending already.
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if _, err := f.Write([]byte{1}); err != nil && !errors.Is(err, syscall.EAGAIN) {
		return false
	}
	return true
}

// Listen creates the bell at path if it is not there (readable and
// writable by its owner only) and calls wake after each ring until ctx is
// done; it returns once it listens. Rings that come close together may be
// heard as one. It fails if path is something other than a named pipe, or
// cannot be created or opened.
func Listen(ctx context.Context, path string, wake func()) error {
	if err := syscall.Mkfifo(path, 0o600); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("doorbell: creating %s: %w", path, err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("doorbell: %w", err)
	}
	if fi.Mode().Type() != fs.ModeNamedPipe {
		return fmt.Errorf("doorbell: %s is not a named pipe: remove it, and pbem makes its bell there at the next start", path)
	}
	// Opened for reading and writing, the pipe always has a writer (this
	// process): a ringer that closes gives no end of file, and the open
	// does not wait for a ringer.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("doorbell: opening %s: %w", path, err)
	}
	go func() {
		<-ctx.Done()
		f.Close() // ends the Read below
	}()
	go func() {
		buf := make([]byte, 64)
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
			wake()
		}
	}()
	return nil
}
