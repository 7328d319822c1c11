package engine

import (
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Fog of war over events. An event addressed to several nations (an overrun,
// a retreat, cavalry slowing a march, Grenzers filtering past, a refused
// landing) may carry each side's own numbers: the losses of its stacks, its
// cavalry, its scouting points. A nation knows its own; of a foreign force
// it knows only what scouting told it (View, Scouted). EventsFor is
// therefore the one place where events are fogged: each event that
// implements redacter is given to each nation as a copy with the other
// nations' numbers removed; the referee gets every event whole.
// TestFogOfWarEvents searches the result for any foreign count.

// redacter is an event whose fields are not all for every nation it is
// visible to.
type redacter interface {
	// redactFor returns a copy of the event as nation n may see it.
	redactFor(n game.NationID) Event
}

// Redacter is an event of another campaign's engine (package trossian)
// whose fields are not all for every nation it is visible to: the exported
// twin of redacter, so that EventsFor stays the one place events are fogged
// whichever campaign made them.
type Redacter interface {
	// RedactFor returns a copy of the event as nation n may see it.
	RedactFor(n game.NationID) Event
}

// EventFor returns the event as nation n may see it, and whether n may see
// it at all. Referee sees every event whole.
func EventFor(e Event, n game.NationID) (Event, bool) {
	if !e.VisibleTo(n) {
		return nil, false
	}
	if r, ok := e.(redacter); ok && n != Referee {
		return r.redactFor(n), true
	}
	if r, ok := e.(Redacter); ok && n != Referee {
		return r.RedactFor(n), true
	}
	return e, true
}

func (e *Overrun) redactFor(n game.NationID) Event {
	c := *e
	if n != e.ByNation {
		c.ByPV, c.Losses = 0, nil
	}
	if n != e.OverrunNation {
		c.OverrunPV = 0
		c.Generals = unnamed(e.Generals)
	}
	return &c
}

func (e *CavalrySlowed) redactFor(n game.NationID) Event {
	c := *e
	if n != e.ByNation {
		c.Cavalry = 0
	}
	if n != e.Nation {
		c.EnemyCavalry, c.EnemyFoot = 0, 0
	}
	return &c
}

func (e *SlowingRefused) redactFor(n game.NationID) Event {
	c := *e
	if n != e.ByNation {
		c.Cavalry = 0
	}
	if n != e.Nation {
		c.EnemyCavalry, c.Losses = 0, nil
	}
	return &c
}

func (e *Filtered) redactFor(n game.NationID) Event {
	c := *e
	if n == e.Nation {
		c.EnemySP = 0
	} else {
		c.GrenzerSP, c.ExtraMP = 0, 0
	}
	return &c
}

func (e *RetreatedBeforeBattle) redactFor(n game.NationID) Event {
	c := *e
	if n != e.Nation {
		c.Losses, c.Exhausted, c.BeyondMA = nil, 0, false
	}
	return &c
}

// A capture is public ("the location of all forces in the game is public"),
// but which forces made it is the capturer's: another nation learns a
// force's ID only from a contact or scouting of its own.
func (e *CityCaptured) redactFor(n game.NationID) Event {
	c := *e
	if n != e.By {
		c.Forces = nil
	}
	return &c
}

func (e *LandingRefused) redactFor(n game.NationID) Event {
	c := *e
	if n == e.Nation {
		c.Defenders = 0
	} else {
		c.Landing = 0
	}
	return &c
}

func (e *Scouted) redactFor(n game.NationID) Event {
	c := *e
	if e.Level < ruleset.LevelExact {
		c.ScreenSP = 0
	}
	return &c
}

func (e *GarrisonKilled) redactFor(n game.NationID) Event {
	c := *e
	if n != e.Nation {
		c.Killed, c.Generals = 0, nil
	}
	return &c
}
