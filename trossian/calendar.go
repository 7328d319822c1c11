package trossian

import (
	"fmt"
	"strconv"
	"strings"
)

// Phase is a turn's place in the Trossian year: the nine monthly phases
// from Early Spring to Late Autumn ("A full year consists of three seasons
// of three months each"), then Winter, the winter-quarters turn ("After the
// Late Autumn turn ends, the armies must go into winter quarters").
type Phase int

// The phases.
const (
	EarlySpring Phase = iota + 1
	MidSpring
	LateSpring
	EarlySummer
	MidSummer
	LateSummer
	EarlyAutumn
	MidAutumn
	LateAutumn
	Winter
)

// PhasesPerYear is the number of turns in a year: nine phases and winter.
const PhasesPerYear = 10

var phaseNames = [...]string{"", "Early Spring", "Mid Spring", "Late Spring", "Early Summer", "Mid Summer",
	"Late Summer", "Early Autumn", "Mid Autumn", "Late Autumn", "Winter"}

// String names the phase: "Mid Spring", "Winter".
func (p Phase) String() string {
	if p < EarlySpring || p > Winter {
		return "phase " + strconv.Itoa(int(p))
	}
	return phaseNames[p]
}

// Calendar places turns in the Trossian years: turn 1 is Early Spring of
// StartYear ("The game begins in the early spring of 1801 by the Trossian
// calendar").
type Calendar struct {
	StartYear int
}

// PhaseOf returns a turn's phase.
func (c Calendar) PhaseOf(turn int) Phase {
	if turn < 1 {
		return 0
	}
	return Phase((turn-1)%PhasesPerYear + 1)
}

// YearOf returns a turn's year.
func (c Calendar) YearOf(turn int) int {
	if turn < 1 {
		return c.StartYear
	}
	return c.StartYear + (turn-1)/PhasesPerYear
}

// Turn returns the turn of a phase of a year.
func (c Calendar) Turn(year int, p Phase) int {
	return (year-c.StartYear)*PhasesPerYear + int(p)
}

// Name names a turn: "Mid Spring 1801", "Winter 1801".
func (c Calendar) Name(turn int) string {
	return fmt.Sprintf("%s %d", c.PhaseOf(turn), c.YearOf(turn))
}

// Label names a turn for a report's heading: "Turn 2, Mid Spring 1801".
func (c Calendar) Label(turn int) string {
	return fmt.Sprintf("Turn %d, %s", turn, c.Name(turn))
}

// ParseName reads a turn's name ("Mid Spring 1801", "winter 1801", any
// case) into its turn number.
func (c Calendar) ParseName(s string) (int, error) {
	w := strings.Fields(s)
	if len(w) < 2 {
		return 0, fmt.Errorf("turn name %q: expected a phase and a year, e.g. Mid Spring 1801", s)
	}
	year, err := strconv.Atoi(w[len(w)-1])
	if err != nil || year < c.StartYear || year > c.StartYear+1000 {
		return 0, fmt.Errorf("turn name %q: expected a year from %d", s, c.StartYear)
	}
	name := strings.Join(w[:len(w)-1], " ")
	for p := EarlySpring; p <= Winter; p++ {
		if strings.EqualFold(name, phaseNames[p]) {
			return c.Turn(year, p), nil
		}
	}
	return 0, fmt.Errorf("turn name %q: expected a phase (Early Spring … Late Autumn, Winter)", s)
}
