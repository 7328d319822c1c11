// Package schedule reads and makes the wall-clock times deadlines are given
// in: one parser for the config's deadline dates and the referee's DEADLINE
// SET command, so that both accept exactly the same text, and one function
// that turns a date and time of day in the game's zone into an instant.
//
// # Daylight-saving time
//
// A wall-clock time names no instant, one, or two:
//
//   - In the spring gap (Europe/London on 29 March 2026: the clocks go from
//     01:00 straight to 02:00) a time such as 01:30 does not exist. At moves
//     it forward by the length of the gap: 01:30 becomes 02:30 BST, the
//     instant a clock that was not put forward would have shown 01:30. A
//     deadline never falls earlier than the time the referee wrote.
//   - In the autumn overlap (25 October 2026: 01:00 to 02:00 happens twice)
//     01:30 is ambiguous. At takes the first of the two (01:30 BST, 00:30
//     UTC): the earlier deadline, which is the one every player's clock
//     showed first.
//
// The standard library's time.Date leaves both cases unspecified, so At
// works them out itself: it tries the zone offsets in force a day before and
// a day after, keeps those whose instant reads back as the same wall clock,
// and takes the earliest; when none does (the gap) it uses the offset from
// before the change.
//
// The package uses the standard library only, so that config (which may
// import nothing of pbem's but this) and parser can both use it.
package schedule

import (
	"fmt"
	"strings"
	"time"
)

// Clock is a time of day on the 24-hour clock.
type Clock struct {
	Hour, Minute int
}

// String prints the clock as HH:MM.
func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", c.Hour, c.Minute) }

// ParseClock reads "HH:MM" on the 24-hour clock.
func ParseClock(s string) (Clock, error) {
	s = strings.TrimSpace(s)
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return Clock{}, fmt.Errorf("%q is not a time of day; write HH:MM on the 24-hour clock, such as 18:00", s)
	}
	return Clock{Hour: t.Hour(), Minute: t.Minute()}, nil
}

// At returns the instant at which a wall clock in loc reads the given date
// and time, resolving the daylight-saving gap and overlap as the package
// comment says. Out-of-range fields are normalised as by time.Date (day 32
// is the first of the next month), before the zone is applied.
func At(year int, month time.Month, day, hour, minute, sec int, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	wall := time.Date(year, month, day, hour, minute, sec, 0, time.UTC)
	u := wall.Unix()
	_, before := time.Unix(u-86400, 0).In(loc).Zone()
	_, after := time.Unix(u+86400, 0).In(loc).Zone()
	var best time.Time
	for _, off := range []int{before, after} {
		t := time.Unix(u-int64(off), 0).In(loc)
		if sameWall(t, wall) && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if !best.IsZero() {
		return best
	}
	if before != after {
		// The gap: the offset from before the change moves the time forward
		// by the gap's length.
		return time.Unix(u-int64(before), 0).In(loc)
	}
	return time.Date(year, month, day, hour, minute, sec, 0, loc)
}

func sameWall(t, wall time.Time) bool {
	y, m, d := t.Date()
	wy, wm, wd := wall.Date()
	return y == wy && m == wm && d == wd && t.Hour() == wall.Hour() && t.Minute() == wall.Minute() && t.Second() == wall.Second()
}

// layouts are the date-and-time forms Parse reads, besides RFC 3339.
var layouts = []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"}

// Format is how a date and time is written for Parse, for messages.
const Format = "YYYY-MM-DD HH:MM"

// Parse reads a date and time:
//
//	2026-03-06 18:00            in loc (the game's zone)
//	2026-03-06T18:00[:SS]       the same
//	2026-03-06 18:00 Europe/Berlin   in the zone named
//	2026-03-06T18:00:00+01:00   RFC 3339, at the offset given
//	2026-03-06                  at the time of day *day; an error if day is nil
//	2026-03-06 Europe/Berlin    the same, in the zone named
//
// Times in a zone go through At, so a time in the spring gap moves forward
// and an ambiguous autumn time is the first. loc nil means UTC. The error
// says what was read and what to write.
func Parse(s string, loc *time.Location, day *Clock) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	f := strings.Fields(s)
	if len(f) == 1 {
		if t, err := time.Parse(time.RFC3339, f[0]); err == nil {
			return t, nil
		}
	}
	if n := len(f); n >= 2 && looksLikeDate(f[0]) && (f[n-1][0] < '0' || f[n-1][0] > '9') {
		z, err := time.LoadLocation(f[len(f)-1])
		if err != nil || f[len(f)-1] == "Local" {
			return time.Time{}, fmt.Errorf("%q: unknown time zone %q; name an IANA zone such as Europe/Berlin or UTC, or leave it out for the game's zone",
				s, f[len(f)-1])
		}
		loc = z
		f = f[:len(f)-1]
	}
	text := strings.Join(f, " ")
	for _, l := range layouts {
		if t, err := time.Parse(l, text); err == nil {
			return At(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), loc), nil
		}
	}
	if t, err := time.Parse("2006-01-02", text); err == nil {
		if day == nil {
			return time.Time{}, fmt.Errorf("%q has no time of day; write %s, such as %s 18:00", s, Format, text)
		}
		return At(t.Year(), t.Month(), t.Day(), day.Hour, day.Minute, 0, loc), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date and time; write %s on the 24-hour clock, such as 2026-03-06 18:00, "+
		"optionally followed by a time zone such as Europe/Berlin", s, Format)
}

// looksLikeDate reports whether s starts as YYYY-MM-DD does.
func looksLikeDate(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
