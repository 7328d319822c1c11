package game

import (
	"fmt"
	"strconv"
)

// Hex names one hex of the map by column and row, both counted from 1, the way
// wargamers print them: column 8, row 12 is "0812". Maps wider or taller than
// 99 hexes use three digits for each part ("108012"). The zero Hex is "no hex".
type Hex struct {
	Col, Row int
}

// IsZero reports whether h is the zero Hex (no hex).
func (h Hex) IsZero() bool { return h.Col == 0 && h.Row == 0 }

// String returns the printed name of the hex: "0812", or "108012" when a part
// exceeds 99.
func (h Hex) String() string {
	if h.Col > 99 || h.Row > 99 {
		return fmt.Sprintf("%03d%03d", h.Col, h.Row)
	}
	return fmt.Sprintf("%02d%02d", h.Col, h.Row)
}

// MarshalText writes the hex's printed name.
func (h Hex) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads a printed hex name.
func (h *Hex) UnmarshalText(b []byte) error {
	x, err := ParseHex(string(b))
	if err != nil {
		return err
	}
	*h = x
	return nil
}

// ParseHex reads a hex name: four digits (column, row: "0812") or six
// ("108012"). It does not check that the hex is on any map.
func ParseHex(s string) (Hex, error) {
	var w int
	switch len(s) {
	case 4:
		w = 2
	case 6:
		w = 3
	default:
		return Hex{}, fmt.Errorf("hex %q: expected four digits, column then row, such as 0812", s)
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return Hex{}, fmt.Errorf("hex %q: expected digits only, column then row, such as 0812", s)
		}
	}
	c, _ := strconv.Atoi(s[:w])
	r, _ := strconv.Atoi(s[w:])
	if c == 0 || r == 0 {
		return Hex{}, fmt.Errorf("hex %q: columns and rows are counted from 01", s)
	}
	return Hex{Col: c, Row: r}, nil
}

// Less orders hexes by column, then row: the canonical order of hex lists.
func (h Hex) Less(o Hex) bool {
	if h.Col != o.Col {
		return h.Col < o.Col
	}
	return h.Row < o.Row
}

// Compare returns -1, 0 or +1 as h sorts before, with or after o.
func (h Hex) Compare(o Hex) int {
	switch {
	case h.Less(o):
		return -1
	case o.Less(h):
		return 1
	}
	return 0
}

// SeaID names a sea area, as printed on the map ("S3").
type SeaID string

// Place is where a force is: a land hex (which may be a port or a good-holding
// hex where ships lie at anchor) or a sea area. Exactly one of Hex and Sea is
// set.
type Place struct {
	Hex Hex   `json:",omitzero"`
	Sea SeaID `json:",omitempty"`
}

// AtHex returns the Place of a hex.
func AtHex(h Hex) Place { return Place{Hex: h} }

// AtSea returns the Place of a sea area.
func AtSea(s SeaID) Place { return Place{Sea: s} }

// IsSea reports whether the place is a sea area.
func (p Place) IsSea() bool { return p.Sea != "" }

// IsZero reports whether no place is set.
func (p Place) IsZero() bool { return p.Sea == "" && p.Hex.IsZero() }

// String prints the hex name or the sea area ID.
func (p Place) String() string {
	if p.Sea != "" {
		return string(p.Sea)
	}
	return p.Hex.String()
}
