package engine

import (
	"github.com/syw-pbem/pbem/game"
)

// Orders are one nation's orders for one turn, in the order the sheet gave
// them. The parser builds them from an order sheet; the checker and the engine
// read them. Orders for the year-end turn are the year-end kinds; orders for a
// monthly turn the monthly kinds.
type Orders struct {
	Nation game.NationID
	Turn   int
	List   []Order
}

// Order is one order. Each kind is its own type (one file per family of
// orders in this package); Line is the order sheet line it came from, so the
// engine's events can point back at it.
type Order interface {
	// Kind is the order's keyword on the sheet ("move", "stance" …).
	Kind() string
	// SourceLine is the sheet line number, 0 if none.
	SourceLine() int
}

// At is embedded in every order: the sheet line it was read from.
type At struct {
	Line int `json:",omitempty"`
}

// SourceLine returns the sheet line the order came from.
func (a At) SourceLine() int { return a.Line }
