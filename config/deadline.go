package config

import (
	"fmt"
	"strings"
	"time"
)

// Deadline is the schedule of turn deadlines, in game.timezone.
//
// Listed dates come first, in order; after the last of them (or from the
// start of the game if none are listed) a deadline falls every EveryDays
// days, at Time. With no dates and EveryDays 0 there is no schedule: the
// referee runs each turn by hand.
//
// Examples:
//
//	deadline: {time: "18:00", every_days: 14}             # fortnightly
//	deadline: {dates: [2026-03-06, 2026-03-20 12:00]}      # two turns, then by hand
//	deadline: {dates: [2026-03-06], every_days: 28}        # a fixed start, then four-weekly
//
// Deadlines keep their wall-clock time across daylight-saving changes.
type Deadline struct {
	// Time is the time of day deadlines fall at, "HH:MM" (24-hour clock).
	// Default "18:00".
	Time string `yaml:"time"`

	// EveryDays is the number of days between deadlines; 0 means none after
	// the listed dates. At most 366. Default 28.
	EveryDays int `yaml:"every_days"`

	// Dates are explicit deadlines, "YYYY-MM-DD" (at Time) or
	// "YYYY-MM-DD HH:MM", in increasing order. Default none.
	Dates []string `yaml:"dates"`
}

// Next returns the first deadline strictly after prev (normally the previous
// deadline, or the game's start), and false if the schedule has none. It
// assumes the schedule passed Validate; entries that do not parse are
// skipped.
func (d Deadline) Next(prev time.Time, loc *time.Location) (time.Time, bool) {
	hour, minute, err := parseClock(d.Time)
	if err != nil {
		hour, minute = 18, 0
	}
	base := prev
	for _, s := range d.Dates {
		t, err := parseDeadlineDate(s, hour, minute, loc)
		if err != nil {
			continue
		}
		if t.After(prev) {
			return t, true
		}
		if t.After(base) {
			base = t
		}
	}
	if d.EveryDays <= 0 {
		return time.Time{}, false
	}
	b := base.In(loc)
	return time.Date(b.Year(), b.Month(), b.Day()+d.EveryDays, hour, minute, 0, 0, loc), true
}

// parseClock reads "HH:MM".
func parseClock(s string) (hour, minute int, err error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil || len(strings.TrimSpace(s)) != 5 {
		return 0, 0, fmt.Errorf("%q is not a time of day; write HH:MM on the 24-hour clock, such as 18:00", s)
	}
	return t.Hour(), t.Minute(), nil
}

// parseDeadlineDate reads "YYYY-MM-DD" or "YYYY-MM-DD HH:MM" in loc.
func parseDeadlineDate(s string, hour, minute int, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.ParseInLocation("2006-01-02 15:04", s, loc); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation("2006-01-02", s, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date; write YYYY-MM-DD or YYYY-MM-DD HH:MM, such as 2026-03-06 18:00", s)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), hour, minute, 0, 0, loc), nil
}
