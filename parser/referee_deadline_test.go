package parser

import (
	"testing"
	"time"
)

// TestDeadlineSetUsesTheScheduleParser: DEADLINE SET reads dates as the
// config's deadline dates do (package schedule), in the game's zone and
// across both daylight-saving changes; a date without a time is refused
// rather than guessed.
func TestDeadlineSetUsesTheScheduleParser(t *testing.T) {
	lon, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ in, want string }{
		{"DEADLINE SET 2026-03-29 01:30", "2026-03-29T01:30:00Z"}, // in the spring gap: 02:30 BST
		{"DEADLINE SET 2026-10-25 01:30", "2026-10-25T00:30:00Z"}, // ambiguous: the first, BST
		{"DEADLINE SET 2026-06-08T18:00", "2026-06-08T17:00:00Z"},
		{"DEADLINE SET 2026-06-08 19:00 Europe/Berlin", "2026-06-08T17:00:00Z"},
	} {
		rs := ParseRefereeCommands(c.in, nil, lon)
		if len(rs.Commands) != 1 {
			t.Errorf("%s: %+v", c.in, rs.Diagnostics)
			continue
		}
		set, ok := rs.Commands[0].(DeadlineSet)
		if !ok || set.At.UTC().Format(time.RFC3339) != c.want {
			t.Errorf("%s = %+v, want %s", c.in, rs.Commands[0], c.want)
		}
	}
	if rs := ParseRefereeCommands("DEADLINE SET 2026-06-08", nil, lon); len(rs.Commands) != 0 || len(rs.Diagnostics) == 0 {
		t.Errorf("a date without a time was accepted: %+v", rs.Commands)
	}
}
