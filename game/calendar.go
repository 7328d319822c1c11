package game

import (
	"fmt"
	"strconv"
	"strings"
)

// TurnsPerYear is the number of turns in a game-year: six monthly turns of
// campaigning (the winter months pass instantly) and the year-end, where taxes
// are collected and troops fielded and bought.
const TurnsPerYear = 7

// MonthlyTurns is the number of campaigning months in a game-year.
const MonthlyTurns = 6

// Calendar turns a game's turn number (1, 2, 3 …) into its place in the
// campaign: the game-year and the month, or the year-end.
type Calendar struct {
	// StartYear is the first game-year, 1752 in the default campaign.
	StartYear int
	// FirstMonth is the calendar month of the first campaigning turn (4 =
	// April), so that turns print as "May 1752".
	FirstMonth int
}

// Date is a turn's place in the campaign.
type Date struct {
	Year int
	// Month is 1–6 for the campaigning turns, 0 for the year-end.
	Month int
}

// IsYearEnd reports the year-end turn.
func (d Date) IsYearEnd() bool { return d.Month == 0 }

// Date returns the date of a turn number (turn 1 is the first month of
// StartYear).
func (c Calendar) Date(turn int) Date {
	if turn < 1 {
		turn = 1
	}
	y := c.StartYear + (turn-1)/TurnsPerYear
	step := (turn-1)%TurnsPerYear + 1
	if step > MonthlyTurns {
		return Date{Year: y}
	}
	return Date{Year: y, Month: step}
}

// Turn returns the turn number of a date.
func (c Calendar) Turn(d Date) int {
	step := d.Month
	if step == 0 {
		step = TurnsPerYear
	}
	return (d.Year-c.StartYear)*TurnsPerYear + step
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// Label prints a turn for people: "Turn 2, May 1752" or "Turn 7, year-end 1752".
func (c Calendar) Label(turn int) string {
	d := c.Date(turn)
	if d.IsYearEnd() {
		return fmt.Sprintf("Turn %d, year-end %d", turn, d.Year)
	}
	first := c.FirstMonth
	if first < 1 || first > 12 {
		first = 4
	}
	m := (first-1+d.Month-1)%12 + 1
	return fmt.Sprintf("Turn %d, %s %d", turn, monthNames[m-1], d.Year)
}

// Name prints a turn's name as people read it, without its number: "May
// 1752" or "year-end 1752". ParseName reads it back.
func (c Calendar) Name(turn int) string {
	d := c.Date(turn)
	if d.IsYearEnd() {
		return fmt.Sprintf("year-end %d", d.Year)
	}
	return fmt.Sprintf("%s %d", monthNames[c.calendarMonth(d.Month)-1], d.Year)
}

// calendarMonth is the calendar month (1–12) of campaigning month m (1–6).
func (c Calendar) calendarMonth(m int) int {
	first := c.FirstMonth
	if first < 1 || first > 12 {
		first = 4
	}
	return (first-1+m-1)%12 + 1
}

// ParseName reads a turn's name, as Name writes it or with the year first
// ("May 1752", "1752 May", "year-end 1752", "1752 year-end"), in any case;
// a month may be cut to its first three letters ("Jun 1752"), and the
// year-end written "yearend", "year end" or "buy". It returns the turn
// number, or an error saying what was expected.
func (c Calendar) ParseName(s string) (int, error) {
	words := strings.Fields(strings.ToLower(strings.NewReplacer(",", " ", "-", " ").Replace(s)))
	year, rest := 0, []string{}
	for _, w := range words {
		if n, err := strconv.Atoi(w); err == nil && year == 0 {
			year = n
			continue
		}
		rest = append(rest, w)
	}
	what := strings.Join(rest, "")
	bad := func() (int, error) {
		return 0, fmt.Errorf("turn %q: expected a turn number, or a month and a year such as %q or %q", s, c.Name(1), c.Name(TurnsPerYear))
	}
	if year < c.StartYear || year > c.StartYear+1000 || what == "" {
		return bad()
	}
	if what == "yearend" || what == "buy" {
		return c.Turn(Date{Year: year}), nil
	}
	for m := 1; m <= MonthlyTurns; m++ {
		name := strings.ToLower(monthNames[c.calendarMonth(m)-1])
		if what == name || (len(what) >= 3 && strings.HasPrefix(name, what)) {
			return c.Turn(Date{Year: year, Month: m}), nil
		}
	}
	return bad()
}
