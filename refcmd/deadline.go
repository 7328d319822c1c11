package refcmd

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/schedule"
)

// The deadline of the turn open: DEADLINE SET a date and time (read by the
// one date parser, package schedule, as the config's deadline dates are),
// DEADLINE EXTEND a duration (2d, 36h, 1d12h, 90m).

// DeadlineExtend moves the current turn's deadline later by By.
type DeadlineExtend struct {
	Line int
	By   time.Duration
}

// DeadlineSet sets the current turn's deadline.
type DeadlineSet struct {
	Line int
	At   time.Time
}

// deadlineKinds are this family's kinds.
var deadlineKinds = []Kind{
	{Verb: "deadline-extend", Keyword: "DEADLINE", Family: "deadline", Zero: DeadlineExtend{}, Parse: parseDeadline,
		Example: "DEADLINE EXTEND 2d"},
	{Verb: "deadline-set", Keyword: "DEADLINE", Family: "deadline", Zero: DeadlineSet{}, Parse: parseDeadline,
		Example: "DEADLINE SET 2025-06-08 18:00 UTC"},
}

// DEADLINE EXTEND duration | DEADLINE SET date time [zone]
func parseDeadline(r *parser.Reader, at Reading) Command {
	if r.Keyword("Write DEADLINE EXTEND 2d or DEADLINE SET 2025-06-08 18:00.", "EXTEND", "SET") == "EXTEND" {
		d := r.Next()
		dur, ok := ParseDuration(d.Val)
		if (d.Type != parser.TokenWord && d.Type != parser.TokenNumber) || !ok {
			r.Expected(d, "a duration such as 2d, 36h or 1d12h", "Write DEADLINE EXTEND and days (d), hours (h) or minutes (m).")
		}
		return DeadlineExtend{Line: at.Line, By: dur}
	}
	rest := r.Rest()
	if i := strings.Index(rest, "#"); i >= 0 {
		rest = strings.TrimSpace(rest[:i])
	}
	t, err := schedule.Parse(rest, at.Zone, nil)
	if err != nil {
		r.Fail(r.Peek(), fmt.Sprintf("expected a date and time such as 2025-06-08 18:00, read %q (%v)", rest, err),
			"Write DEADLINE SET 2025-06-08 18:00, optionally followed by a time zone such as Europe/Berlin.")
	}
	r.SkipRest()
	return DeadlineSet{Line: at.Line, At: t}
}

// Verb returns "deadline-extend".
func (DeadlineExtend) Verb() string { return "deadline-extend" }

// Verb returns "deadline-set".
func (DeadlineSet) Verb() string { return "deadline-set" }

// SourceLine returns the mail line the DeadlineExtend command was read from.
func (c DeadlineExtend) SourceLine() int { return c.Line }

// SourceLine returns the mail line the DeadlineSet command was read from.
func (c DeadlineSet) SourceLine() int { return c.Line }

// Format prints "DEADLINE EXTEND 1d12h".
func (c DeadlineExtend) Format(*parser.Vocabulary) string {
	return "DEADLINE EXTEND " + FormatDuration(c.By)
}

// Format prints the time with its offset: "DEADLINE SET 2025-06-08T18:00:00+01:00".
func (c DeadlineSet) Format(*parser.Vocabulary) string {
	return "DEADLINE SET " + c.At.Format(time.RFC3339)
}

var durationPattern = regexp.MustCompile(`^(?i)(\d+[dhm])+$`)

// ParseDuration reads "2d", "36h", "1d12h", "90m".
func ParseDuration(s string) (time.Duration, bool) {
	if !durationPattern.MatchString(s) {
		return 0, false
	}
	var d time.Duration
	num := 0
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= '0' && r <= '9':
			num = num*10 + int(r-'0')
			if num > 1000000 {
				return 0, false
			}
		case r == 'd':
			d += time.Duration(num) * 24 * time.Hour
			num = 0
		case r == 'h':
			d += time.Duration(num) * time.Hour
			num = 0
		case r == 'm':
			d += time.Duration(num) * time.Minute
			num = 0
		}
	}
	return d, d > 0
}

// FormatDuration prints a duration as ParseDuration reads it.
func FormatDuration(d time.Duration) string {
	var b strings.Builder
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	hours := d / time.Hour
	d -= hours * time.Hour
	mins := d / time.Minute
	if days > 0 {
		fmt.Fprintf(&b, "%dd", days)
	}
	if hours > 0 {
		fmt.Fprintf(&b, "%dh", hours)
	}
	if mins > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%dm", mins)
	}
	return b.String()
}
