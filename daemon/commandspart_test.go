package daemon

import (
	"strings"
	"testing"
)

// TestCommandsPartCutsAtALine: a long text is read for referee commands up
// to the last whole line within maxCommandsBytes, never half a line (half
// a PASSWORD line would read as another password).
func TestCommandsPartCutsAtALine(t *testing.T) {
	t.Parallel()
	short := "GAME syw\nPASSWORD x\nDEADLINE EXTEND 2d\n"
	if got := commandsPart(short); got != short {
		t.Errorf("a short text was cut: %q", got)
	}
	line := "PASSWORD a-long-password-written-out\n"
	long := strings.Repeat(line, maxCommandsBytes/len(line)+10)
	got := commandsPart(long)
	if len(got) > maxCommandsBytes || !strings.HasSuffix(got, "\n") || len(got)%len(line) != 0 {
		t.Errorf("a long text cut to %d bytes (limit %d), ending %q", len(got), maxCommandsBytes, got[max(0, len(got)-20):])
	}
}
