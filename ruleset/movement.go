package ruleset

import "github.com/syw-pbem/pbem/game"

// MoveClass is a row of the Movement Table: what kind of mover sets a force's
// pace. A force moves at the rate of its slowest part.
type MoveClass uint8

// The rows of the Movement Table, fastest last. Artillery is also the rate an
// LOS (line of supply) is traced at ("Atty/LOS").
const (
	Artillery MoveClass = iota + 1
	Foot
	Mounted
	GeneralOnly
)

// String names the row as the rulebook does.
func (c MoveClass) String() string {
	switch c {
	case Artillery:
		return "artillery"
	case Foot:
		return "foot"
	case Mounted:
		return "mounted"
	case GeneralOnly:
		return "general"
	}
	return "?"
}

// Impassable marks a movement cost of "No" in the Movement Table.
const Impassable = -1

// MoveRow is one row of the Movement Table.
type MoveRow struct {
	MP int
	// Road is the cost to enter a hex along a road.
	Road int
	// Terrain is the cost to enter a hex of each movement terrain (clear,
	// rough, mountain); Impassable for "No".
	Terrain map[game.Terrain]int
	// CrossRiver is the extra cost of crossing a river hexside; Impassable for
	// "No".
	CrossRiver int
}

// MovementTable is the rulebook's Movement Table (Land Movement):
//
//	Unit Type  MP/Turn  Road  Clear  Rough  Mountain  Cross River
//	Foot         6       1     2      3      No         2
//	Mounted      8       "     2      4      "          2
//	Atty/LOS     6       "     3      4      "          No
//	General     12       "     1      1      "          0
//
// The Road and Mountain cells are printed once for all rows (merged cells):
// road 1 and mountain "No" apply to every row (docs/rules-notes.md §Movement).
type MovementTable struct {
	Rows map[MoveClass]MoveRow
	// RoadBridgesRivers: moving along a road across a river pays the road
	// rate only and artillery may cross there (a road implies a bridge or
	// ford). The rulebook is silent; see docs/rules-notes.md.
	RoadBridgesRivers bool
}

// Cost returns the MP a mover of class c pays to enter a hex of terrain t,
// along a road or not, crossing a river or not; ok is false where the move is
// forbidden.
func (m MovementTable) Cost(c MoveClass, t game.Terrain, road, river bool) (cost int, ok bool) {
	row := m.Rows[c]
	if !t.IsLand() {
		return 0, false
	}
	base, known := row.Terrain[t.MoveClass()]
	if !known || base == Impassable {
		return 0, false
	}
	if road {
		base = row.Road
		if river && m.RoadBridgesRivers {
			return base, true
		}
	}
	if river {
		if row.CrossRiver == Impassable {
			return 0, false
		}
		base += row.CrossRiver
	}
	return base, true
}

// ClassOf returns the movement class of a force's slowest part: guns make it
// artillery, infantry or gunners foot, cavalry mounted, and a force of leaders
// alone moves as a general.
func ClassOf(f *game.Force) MoveClass {
	if f.GunCount() > 0 {
		return Artillery
	}
	slow := GeneralOnly
	for _, t := range f.Troops {
		if t.Count == 0 {
			continue
		}
		c := Mounted
		if !t.Arm.IsCavalry() {
			c = Foot
		}
		if c < slow {
			slow = c
		}
	}
	return slow
}

func syw1752Movement() MovementTable {
	return MovementTable{
		Rows: map[MoveClass]MoveRow{
			Foot:        {MP: 6, Road: 1, Terrain: map[game.Terrain]int{game.Clear: 2, game.Rough: 3, game.Mountain: Impassable}, CrossRiver: 2},
			Mounted:     {MP: 8, Road: 1, Terrain: map[game.Terrain]int{game.Clear: 2, game.Rough: 4, game.Mountain: Impassable}, CrossRiver: 2},
			Artillery:   {MP: 6, Road: 1, Terrain: map[game.Terrain]int{game.Clear: 3, game.Rough: 4, game.Mountain: Impassable}, CrossRiver: Impassable},
			GeneralOnly: {MP: 12, Road: 1, Terrain: map[game.Terrain]int{game.Clear: 1, game.Rough: 1, game.Mountain: Impassable}, CrossRiver: 0},
		},
		RoadBridgesRivers: true,
	}
}
