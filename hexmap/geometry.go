package hexmap

import "github.com/syw-pbem/pbem/game"

// Direction is one of the six hexsides of a flat-topped hex, clockwise from
// north.
type Direction int

// The six directions.
const (
	North Direction = iota
	NorthEast
	SouthEast
	South
	SouthWest
	NorthWest
)

// Directions lists the six directions clockwise from north.
var Directions = []Direction{North, NorthEast, SouthEast, South, SouthWest, NorthWest}

// String returns "N", "NE" …
func (d Direction) String() string {
	return [...]string{"N", "NE", "SE", "S", "SW", "NW"}[d%6]
}

// Opposite returns the direction facing back across the same hexside.
func (d Direction) Opposite() Direction { return (d + 3) % 6 }

// Step returns the hex next to h in direction d. The grid is the wargamer's:
// flat-topped hexes in columns, numbered from 0101 at the top left, every
// even-numbered column half a hex lower than its odd neighbours.
func Step(h game.Hex, d Direction) game.Hex {
	even := h.Col%2 == 0
	switch d {
	case North:
		return game.Hex{Col: h.Col, Row: h.Row - 1}
	case South:
		return game.Hex{Col: h.Col, Row: h.Row + 1}
	case NorthEast, NorthWest:
		dc := 1
		if d == NorthWest {
			dc = -1
		}
		if even {
			return game.Hex{Col: h.Col + dc, Row: h.Row}
		}
		return game.Hex{Col: h.Col + dc, Row: h.Row - 1}
	default: // SouthEast, SouthWest
		dc := 1
		if d == SouthWest {
			dc = -1
		}
		if even {
			return game.Hex{Col: h.Col + dc, Row: h.Row + 1}
		}
		return game.Hex{Col: h.Col + dc, Row: h.Row}
	}
}

// DirectionTo returns the direction from a to an adjacent hex b; ok is false
// if they are not adjacent.
func DirectionTo(a, b game.Hex) (Direction, bool) {
	dc, dr := b.Col-a.Col, b.Row-a.Row
	if dc == 0 {
		switch dr {
		case -1:
			return North, true
		case 1:
			return South, true
		}
		return 0, false
	}
	if dc != 1 && dc != -1 {
		return 0, false
	}
	// Beside an even column the row above is the same row; beside an odd
	// one it is the row before (see Step).
	up := -1
	if a.Col%2 == 0 {
		up = 0
	}
	switch {
	case dr == up && dc == 1:
		return NorthEast, true
	case dr == up:
		return NorthWest, true
	case dr == up+1 && dc == 1:
		return SouthEast, true
	case dr == up+1:
		return SouthWest, true
	}
	return 0, false
}

// Adjacent reports whether two hexes share a side.
func Adjacent(a, b game.Hex) bool {
	_, ok := DirectionTo(a, b)
	return ok
}

// cube converts to cube coordinates (x+y+z = 0) for distances.
func cube(h game.Hex) (x, y, z int) {
	q := h.Col - 1
	r := h.Row - 1
	x = q
	z = r - (q-(q&1))/2
	y = -x - z
	return
}

// Distance is the number of hex steps between two hexes.
func Distance(a, b game.Hex) int {
	ax, ay, az := cube(a)
	bx, by, bz := cube(b)
	return max(abs(ax-bx), abs(ay-by), abs(az-bz))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Edge is a hexside: the side between two adjacent hexes, stored with the
// lesser hex first so that (a,b) and (b,a) are the same Edge. Rivers and roads
// are sets of edges.
type Edge struct {
	A, B game.Hex
}

// EdgeOf returns the normalised edge between two hexes.
func EdgeOf(a, b game.Hex) Edge {
	if b.Less(a) {
		a, b = b, a
	}
	return Edge{A: a, B: b}
}

// Center returns the centre of a hex in a unit layout where a hex is 1 wide
// from flat side to flat side... in "hex widths": x grows east, y south. Used
// by the map drawing; flat-topped hexes of circumradius 1.
func Center(h game.Hex) (x, y float64) {
	const sqrt3 = 1.7320508075688772
	x = 1.5 * float64(h.Col-1)
	y = sqrt3 * float64(h.Row-1)
	if h.Col%2 == 0 {
		y += sqrt3 / 2
	}
	return x + 1, y + sqrt3/2
}
