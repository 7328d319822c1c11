package config

import (
	"time"

	"github.com/syw-pbem/pbem/schedule"
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
// Deadlines keep their wall-clock time across daylight-saving changes. The
// dates are read by schedule.Parse, the parser the referee's DEADLINE SET
// uses too, so the same text means the same instant in both.
type Deadline struct {
	// Time is the time of day deadlines fall at, "HH:MM" (24-hour clock).
	// Default "18:00".
	Time string `yaml:"time"`

	// EveryDays is the number of days between deadlines; 0 means none after
	// the listed dates. At most 366. Default 28.
	EveryDays int `yaml:"every_days"`

	// Dates are explicit deadlines, "YYYY-MM-DD" (at Time) or
	// "YYYY-MM-DD HH:MM", optionally followed by an IANA zone, in
	// increasing order (read by schedule.Parse). Default none.
	Dates []string `yaml:"dates"`
}

// Next returns the first deadline strictly after prev (normally the previous
// deadline, or the game's start), and false if the schedule has none. It
// assumes the schedule passed Validate; entries that do not parse are
// skipped. Wall-clock times are made by schedule.At: one that falls in the
// spring daylight-saving gap moves forward by the gap, an ambiguous autumn
// one is the first of the two.
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
	return schedule.At(b.Year(), b.Month(), b.Day()+d.EveryDays, hour, minute, 0, loc), true
}

// parseClock reads "HH:MM".
func parseClock(s string) (hour, minute int, err error) {
	c, err := schedule.ParseClock(s)
	return c.Hour, c.Minute, err
}

// parseDeadlineDate reads a date in the form schedule.Parse reads (the same
// as the referee's DEADLINE SET): "YYYY-MM-DD" (at hour:minute) or
// "YYYY-MM-DD HH:MM", in loc unless a zone is named.
func parseDeadlineDate(s string, hour, minute int, loc *time.Location) (time.Time, error) {
	return schedule.Parse(s, loc, &schedule.Clock{Hour: hour, Minute: minute})
}
