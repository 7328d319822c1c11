//go:build unix

package host

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// readStatus reads status.json, and whether the host that wrote it still
// runs.
func readStatus(dir string) (statusFile, bool) {
	var sf statusFile
	b, err := os.ReadFile(filepath.Join(dir, StatusFile))
	if err != nil || json.Unmarshal(b, &sf) != nil || sf.PID <= 0 {
		return sf, false
	}
	err = syscall.Kill(sf.PID, 0)
	return sf, err == nil || errors.Is(err, syscall.EPERM)
}
