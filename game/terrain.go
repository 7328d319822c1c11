package game

import (
	"fmt"
	"strings"
)

// Terrain is a hex's terrain, as the map key gives it: cream clear, brown or
// green rough (Rough and Woods move alike), dark brown mountain, and sea.
type Terrain uint8

// The terrains.
const (
	Sea Terrain = iota + 1
	Clear
	Rough
	Woods
	Mountain
)

// Terrains lists the terrains in canonical order.
var Terrains = []Terrain{Sea, Clear, Rough, Woods, Mountain}

var terrainNames = map[Terrain]string{Sea: "sea", Clear: "clear", Rough: "rough", Woods: "woods", Mountain: "mountain"}

// String returns the terrain keyword.
func (t Terrain) String() string {
	if n, ok := terrainNames[t]; ok {
		return n
	}
	return fmt.Sprintf("Terrain(%d)", uint8(t))
}

// ParseTerrain reads a terrain keyword.
func ParseTerrain(s string) (Terrain, error) {
	s = strings.ToLower(s)
	for _, t := range Terrains {
		if terrainNames[t] == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("terrain %q: expected clear, rough, woods, mountain or sea", s)
}

// IsLand reports every terrain but sea.
func (t Terrain) IsLand() bool { return t != Sea && t != 0 }

// MoveClass returns the column of the movement table the terrain is charged
// at: woods are rough terrain ("Rough terrain: Brown or green hexes").
func (t Terrain) MoveClass() Terrain {
	if t == Woods {
		return Rough
	}
	return t
}
