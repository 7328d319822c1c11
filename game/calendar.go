package game

import "fmt"

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
