package narrative

import (
	"fmt"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/internal/english"
)

// The hours of a day of battle. "A day of battle is 16 turns long on the
// table top" (Land Battles); the rules give no hours, so pbem lays the
// sixteen turns over a campaigning day of daylight (the campaign is fought
// from April to September): the first turn begins at first light, about
// five in the morning, each turn is about an hour and each of its two
// bounds half an hour, and the sixteenth ends at nightfall, about nine in
// the evening. docs/battles.md, "The hours of a day of battle".
const (
	// dawnMinutes is when a day's first tabletop turn begins, in minutes
	// after midnight.
	dawnMinutes = 5 * 60
	// turnMinutes is a tabletop turn, boundMinutes one of its two bounds.
	turnMinutes  = 60
	boundMinutes = turnMinutes / 2
	// turnsPerDay: "A day of battle is 16 turns long on the table top".
	turnsPerDay = 16
)

// minutesAt is when a tabletop turn's bound begins (bound 0, unknown: the
// turn's beginning), in minutes after midnight.
func minutesAt(turn, bound int) int {
	turn = min(max(turn, 1), turnsPerDay)
	m := dawnMinutes + (turn-1)*turnMinutes
	if bound == 2 {
		m += boundMinutes
	}
	return m
}

// clock says a time of the day of battle as a period narrative would: "about
// half past six in the morning", "about noon", "about three in the
// afternoon", "nightfall" (the end of the sixteenth turn).
func clock(minutes int) string {
	if minutes >= dawnMinutes+turnsPerDay*turnMinutes {
		return "nightfall"
	}
	h, half := minutes/60, minutes%60 >= 30
	var part string
	switch {
	case h < 12:
		part = " in the morning"
	case h < 18:
		part = " in the afternoon"
	default:
		part = " in the evening"
	}
	n := h % 12
	if n == 0 {
		n = 12
	}
	word := hourWords[n]
	switch {
	case h == 12 && !half:
		return "about noon"
	case h == 12:
		return "about half past twelve"
	case half:
		return "about half past " + word + part
	}
	return "about " + word + part
}

var hourWords = []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// timeOfDay turns a tabletop turn into the time of day a moment of the
// fighting is told at, in the same hours as clock: turns 1–3 (five to
// eight) early in the morning, 4–6 by mid-morning, 7–9 around noon, 10–12
// in the afternoon, 13–16 towards evening.
func timeOfDay(turn int) string {
	switch {
	case turn <= 3:
		return "early in the morning"
	case turn <= 6:
		return "by mid-morning"
	case turn <= 9:
		return "around noon"
	case turn <= 12:
		return "in the afternoon"
	}
	return "towards evening"
}

func dayWord(m battle.Moment) string {
	if m.Day <= 1 {
		return ""
	}
	return fmt.Sprintf(" on the %s day", english.Ordinal(m.Day))
}

// turnWord names a tabletop turn ("the ninth turn"), in words so that the
// story prints no number the event does not carry as a count.
func turnWord(n int) string {
	if n > 0 && n <= turnsPerDay {
		return "the " + english.Ordinal(n) + " turn"
	}
	return "the last turn"
}

// ended says when the battle ended, read from the battle's result: the
// bound in which the beaten army broke (its army morale count); else the
// last moment the model recorded — nightfall, when a repulse or a drawn day
// was fought to the end of the sixteenth turn; else, for a result with no
// moments (a referee's tabletop result), the last tabletop turn of the
// last day (Turns), to nightfall when it is the sixteenth. on is the day
// ("" for the first).
func ended(e *engine.LandBattle, c *battle.ArmyBreak) (at, on string) {
	day := max(e.Days, 1)
	switch {
	case c != nil:
		at, day = clock(minutesAt(c.Turn, c.Bound)), max(c.Day, 1)
	case len(e.Moments) > 0:
		m := e.Moments[len(e.Moments)-1]
		day = max(m.Day, 1)
		at = "nightfall"
		if m.What != battle.MNightfall && m.Turn < turnsPerDay {
			at = clock(minutesAt(m.Turn, 0) + turnMinutes)
		}
	case e.Turns > 0 && e.Turns < turnsPerDay:
		at = clock(minutesAt(e.Turns, 0) + turnMinutes)
	default:
		at = "nightfall"
	}
	if day > 1 {
		on = "on the " + english.Ordinal(day) + " day"
	}
	return at, on
}
