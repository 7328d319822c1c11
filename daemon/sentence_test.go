package daemon

import (
	"strings"
	"testing"
)

// TestRefereeErrorReadsAsSentences: an unknown referee command is
// answered with the error and its hint as two sentences.
func TestRefereeErrorReadsAsSentences(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.send("referee@pbem.localhost", "commands", "PASSWORD "+refereePassword+"\nAPPROVE R000000\nWEATHER\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(body(m), "WEATHER")
	})
	text := strings.Join(strings.Fields(body(ack)), " ")
	if !strings.Contains(text, `read "WEATHER". Write one command per line.`) {
		t.Errorf("the referee's acknowledgment:\n%s", body(ack))
	}
}
