// Package enginegen makes random but valid games for the determinism, fog-of-war
// and benchmark tests of the engine and the reports: a map of cols×rows hexes (mostly clear, some rough,
// woods and mountains, roads along every eighth row, rivers here and there,
// a sea strip along the top with three areas), a capitol and a few neutral
// cities per nation, and forces of every arm with orders for all of them;
// each nation besieges the next one's capitol with a siege train, and every
// other nation assaults it.
package enginegen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// Game is a generated game: the map, the state before its first turn and
// every nation's orders for it.
type Game struct {
	Map    *hexmap.Map
	State  *engine.State
	Orders []engine.Orders
}

func letters(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return string(rune('A'+i/26-1)) + string(rune('A'+i%26))
}

func genMap(r *rand.Rand, cols, rows, nations int) *hexmap.Map {
	m := &hexmap.Map{Name: "generated", Cols: cols, Rows: rows, Terrain: make([]game.Terrain, cols*rows)}
	for row := 1; row <= rows; row++ {
		for col := 1; col <= cols; col++ {
			t := game.Clear
			switch x := r.IntN(100); {
			case row <= 2:
				t = game.Sea
			case x < 15:
				t = game.Rough
			case x < 20:
				t = game.Woods
			case x < 23:
				t = game.Mountain
			}
			m.Terrain[(row-1)*cols+col-1] = t
		}
	}
	for row := 8; row <= rows; row += 8 {
		for col := 1; col < cols; col++ {
			a, b := game.Hex{Col: col, Row: row}, game.Hex{Col: col + 1, Row: row}
			if m.TerrainAt(a) != game.Mountain && m.TerrainAt(b) != game.Mountain {
				m.Roads = append(m.Roads, hexmap.EdgeOf(a, b))
			}
		}
	}
	for i := 0; i < cols*rows/40; i++ {
		a := game.Hex{Col: 1 + r.IntN(cols), Row: 3 + r.IntN(rows-2)}
		b := hexmap.Step(a, hexmap.Directions[r.IntN(6)])
		if m.InBounds(b) && m.IsLand(b) {
			m.Rivers = append(m.Rivers, hexmap.EdgeOf(a, b))
		}
	}
	third := (cols + 2) / 3
	for s := 0; s < 3; s++ {
		sea := hexmap.SeaArea{ID: game.SeaID(fmt.Sprintf("S%d", s+1)), Name: fmt.Sprintf("Sea %d", s+1)}
		for col := s*third + 1; col <= min(cols, (s+1)*third); col++ {
			sea.Hexes = append(sea.Hexes, game.Hex{Col: col, Row: 1}, game.Hex{Col: col, Row: 2})
		}
		m.Seas = append(m.Seas, sea)
	}
	m.Winds = []hexmap.Wind{{From: "S1", To: "S2", Kind: hexmap.WithWind}, {From: "S2", To: "S3", Kind: hexmap.BothWays}}
	for n := 0; n < nations; n++ {
		id := game.NationID(fmt.Sprintf("nation%02d", n))
		capitol := fmt.Sprintf("Capitol %02d", n)
		h := nationHome(cols, rows, nations, n)
		m.Terrain[(h.Row-1)*cols+h.Col-1] = game.Clear
		m.Nations = append(m.Nations, game.Nation{ID: id, Name: string(id), Letter: letters(n), Capitol: capitol, Provinces: []string{letters(n)}})
		m.Cities = append(m.Cities, hexmap.City{Name: capitol, Hex: h, Capitol: id, Province: letters(n)})
		m.Provinces = append(m.Provinces, hexmap.Province{Letter: letters(n), Owner: id, Hexes: []game.Hex{h}})
		for k := 0; k < 3; k++ {
			c := game.Hex{Col: clamp(h.Col+r.IntN(9)-4, 1, cols), Row: clamp(h.Row+r.IntN(9)-4, 3, rows)}
			if _, dup := cityAt(m, c); dup || !m.IsLand(c) {
				continue
			}
			m.Cities = append(m.Cities, hexmap.City{Name: fmt.Sprintf("Town %02d-%d", n, k), Hex: c, River: r.IntN(3) == 0})
		}
	}
	port := game.Hex{Col: 2, Row: 3}
	if _, dup := cityAt(m, port); !dup {
		m.Terrain[(port.Row-1)*cols+port.Col-1] = game.Clear
		m.Cities = append(m.Cities, hexmap.City{Name: "Seaport", Hex: port, Port: true})
	}
	m.Build()
	return m
}

func cityAt(m *hexmap.Map, h game.Hex) (hexmap.City, bool) {
	for _, c := range m.Cities {
		if c.Hex == h {
			return c, true
		}
	}
	return hexmap.City{}, false
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// nationHome spreads the nations' capitols over the map in a grid.
func nationHome(cols, rows, nations, n int) game.Hex {
	per := 1
	for per*per < nations {
		per++
	}
	cw, rh := cols/per, (rows-2)/per
	return game.Hex{Col: clamp((n%per)*cw+cw/2+1, 1, cols), Row: clamp((n/per)*rh+rh/2+3, 3, rows)}
}

var arms = []game.Arm{game.LineInfantry, game.LightInfantry, game.IrregularLight, game.HeavyCavalry, game.MediumCavalry, game.LightCavalry, game.Gunners}

// New generates a game: a cols×rows map for nations nations, each with
// forcesPer forces and orders for them, from seed (the same seed, the same
// game). A nation's forces stand within 3+forcesPer/8 hexes of its home.
func New(seed uint64, cols, rows, nations, forcesPer int) *Game {
	return NewSpread(seed, cols, rows, nations, forcesPer, 3+forcesPer/8)
}

// Growth generates the game of a growth benchmark: 40 nations of forcesPer
// forces on a map whose side and whose nations' spread grow as the square
// root of forcesPer, so that every size has the same density of forces,
// contacts and battles per hex. The 100-per-nation game is New(seed, 200,
// 200, 40, 100).
func Growth(seed uint64, forcesPer int) *Game {
	side := int(math.Round(20 * math.Sqrt(float64(forcesPer))))
	return NewSpread(seed, side, side, 40, forcesPer, int(math.Round(1.5*math.Sqrt(float64(forcesPer)))))
}

// NewSpread is New with the half-width of the square about its home in
// which each nation's forces are placed.
func NewSpread(seed uint64, cols, rows, nations, forcesPer, spread int) *Game {
	r := rand.New(rand.NewPCG(seed, 7))
	m := genMap(r, cols, rows, nations)
	s := &engine.State{Game: "generated", Ruleset: "syw-1752", Turn: 1, Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4}}
	for _, c := range m.Cities {
		cs := game.CityState{Name: c.Name, Controller: c.Capitol, Loyalty: c.Capitol}
		s.Cities = append(s.Cities, cs)
	}
	g := &Game{Map: m, State: s}
	for n, nat := range m.Nations {
		s.Nations = append(s.Nations, engine.NationState{ID: nat.ID, NextForce: forcesPer + 1})
		home := nationHome(cols, rows, nations, n)
		s.Depots = append(s.Depots, game.Depot{ID: nat.Letter + "-D1", Nation: nat.ID, At: game.AtHex(home)})
		o := engine.Orders{Nation: nat.ID, Turn: 1}
		for k := 1; k <= forcesPer; k++ {
			f := game.Force{ID: game.ForceID(fmt.Sprintf("%s%d", nat.Letter, k)), Nation: nat.ID}
			var at game.Hex
			for tries := 0; tries < 20; tries++ {
				at = game.Hex{Col: clamp(home.Col+r.IntN(2*spread+1)-spread, 1, cols), Row: clamp(home.Row+r.IntN(2*spread+1)-spread, 3, rows)}
				if m.IsLand(at) && m.TerrainAt(at) != game.Mountain {
					break
				}
			}
			f.At = game.AtHex(at)
			for j := 0; j < 1+r.IntN(3); j++ {
				f.Troops = append(f.Troops, game.Troops{Arm: arms[r.IntN(len(arms))], Grade: game.Grades[1+r.IntN(3)], Count: 5 + r.IntN(120)})
			}
			if r.IntN(3) == 0 {
				f.Guns = append(f.Guns, game.Guns{Kind: game.GunKinds[r.IntN(3)], Count: 1 + r.IntN(6)})
			}
			if r.IntN(5) != 0 {
				f.Leaders = append(f.Leaders, game.Leader{ID: fmt.Sprintf("G-%s", f.ID), Name: fmt.Sprintf("General of %s", f.ID), Role: game.General})
			}
			if r.IntN(2) == 0 {
				f.Stance = game.Attack
			}
			f.Standing = game.StandingOrders{Pursue: r.IntN(3) == 0, SlowEnemy: r.IntN(4) == 0, Continue: r.IntN(4) == 0}
			if r.IntN(5) == 0 {
				f.Standing.RetreatBelow = 1.5
			}
			f.Normalize()
			s.Forces = append(s.Forces, f)
			line := k
			switch x := r.IntN(10); {
			case x < 6:
				path := []game.Hex{}
				cur := at
				for st := 0; st < 1+r.IntN(5); st++ {
					nb := hexmap.Step(cur, hexmap.Directions[r.IntN(6)])
					if !m.InBounds(nb) {
						break
					}
					path = append(path, nb)
					cur = nb
				}
				if len(path) > 0 {
					o.List = append(o.List, engine.Move{At: engine.At{Line: line}, Force: f.ID, Path: path})
				}
			case x < 8:
				dest := game.Hex{Col: clamp(at.Col+r.IntN(13)-6, 1, cols), Row: clamp(at.Row+r.IntN(13)-6, 3, rows)}
				o.List = append(o.List, engine.Move{At: engine.At{Line: line}, Force: f.ID, Dest: dest})
			case x < 9:
				o.List = append(o.List, engine.SetStance{At: engine.At{Line: line}, Force: f.ID, Stance: game.Attack})
			default:
				o.List = append(o.List, engine.Retreat{At: engine.At{Line: line}, Force: f.ID, Odds: 2})
			}
		}
		// A fleet per nation with troops aboard, and a sail order.
		fl := game.Force{ID: game.ForceID(fmt.Sprintf("%s%d", nat.Letter, forcesPer+100)), Nation: nat.ID, At: game.AtSea(game.SeaID(fmt.Sprintf("S%d", 1+n%3))),
			Ships: game.Ships{Warships: 1 + r.IntN(4), Transports: 2}, Leaders: []game.Leader{{ID: "A-" + nat.Letter, Name: "Admiral " + nat.Letter, Role: game.Admiral}}}
		s.Forces = append(s.Forces, fl)
		s.Forces = append(s.Forces, game.Force{ID: game.ForceID(fmt.Sprintf("%s%d", nat.Letter, forcesPer+101)), Nation: nat.ID, At: fl.At, Aboard: fl.ID,
			Troops: []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 40}}, Leaders: []game.Leader{{ID: "G-sea-" + nat.Letter, Name: "Marine " + nat.Letter, Role: game.General}}})
		o.List = append(o.List, engine.Sail{At: engine.At{Line: forcesPer + 1}, Fleet: fl.ID, Path: []game.Place{game.AtSea(game.SeaID(fmt.Sprintf("S%d", 1+(n+1)%3)))}})
		// A siege train before the next nation's capitol, besieging it;
		// every other one also assaults.
		if len(m.Nations) > 1 {
			next := m.Nations[(n+1)%len(m.Nations)]
			if c, ok := m.City(next.Capitol); ok {
				sg := game.Force{ID: game.ForceID(fmt.Sprintf("%s%d", nat.Letter, forcesPer+102)), Nation: nat.ID, At: game.AtHex(c.Hex),
					Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 150}, {Arm: game.Gunners, Grade: game.GradeC, Count: 12}},
					Guns:    []game.Guns{{Kind: game.HeavyGun, Count: 3}},
					Leaders: []game.Leader{{ID: "G-siege-" + nat.Letter, Name: "Engineer " + nat.Letter, Role: game.General}}}
				s.Forces = append(s.Forces, sg)
				o.List = append(o.List, engine.Besiege{At: engine.At{Line: forcesPer + 2}, Force: sg.ID, City: c.Name})
				if n%2 == 0 {
					o.List = append(o.List, engine.Assault{At: engine.At{Line: forcesPer + 3}, Force: sg.ID, City: c.Name})
				}
			}
		}
		g.Orders = append(g.Orders, o)
	}
	s.Normalize()
	return g
}
