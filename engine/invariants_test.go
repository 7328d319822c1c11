package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// randomOrders gives every nation a sheet of random orders of every monthly
// kind, many of them wrong: for other nations' forces, twice for one force,
// paths with gaps or into the sea, voyages to far seas, merges and
// assignments across the map, splits of more than there is.
func randomOrders(r *rand.Rand, m *hexmap.Map, st *engine.State) []engine.Orders {
	pickForce := func() game.Force { return st.Forces[r.IntN(len(st.Forces))] }
	hexNear := func(h game.Hex, d int) game.Hex {
		return game.Hex{Col: clamp(h.Col+r.IntN(2*d+1)-d, 1, m.Cols), Row: clamp(h.Row+r.IntN(2*d+1)-d, 1, m.Rows)}
	}
	seas := []game.SeaID{"S1", "S2", "S3"}
	var out []engine.Orders
	for _, ns := range st.Nations {
		o := engine.Orders{Nation: ns.ID, Turn: st.Turn}
		for line := 1; line <= 40; line++ {
			f := pickForce()
			if r.IntN(4) != 0 {
				for k := 0; k < 10 && f.Nation != ns.ID; k++ {
					f = pickForce()
				}
			}
			at := engine.At{Line: line}
			var x engine.Order
			switch r.IntN(14) {
			case 0, 1, 2:
				var path []game.Hex
				cur := f.At.Hex
				for k := 0; k < 1+r.IntN(5); k++ {
					nb := hexmap.Step(cur, hexmap.Directions[r.IntN(6)])
					if r.IntN(10) == 0 {
						nb = hexNear(cur, 3)
					}
					path = append(path, nb)
					cur = nb
				}
				x = engine.Move{At: at, Force: f.ID, Path: path}
			case 3:
				x = engine.Move{At: at, Force: f.ID, Dest: hexNear(f.At.Hex, 8)}
			case 4:
				x = engine.SetStance{At: at, Force: f.ID, Stance: game.Stance(r.IntN(2))}
			case 5:
				x = engine.Retreat{At: at, Force: f.ID, Always: r.IntN(3) == 0, Odds: float64(r.IntN(4))}
			case 6:
				x = engine.Pursue{At: at, Force: f.ID, On: true}
			case 7:
				x = engine.SlowEnemy{At: at, Force: f.ID, On: true}
			case 8:
				sp := engine.Split{At: at, Force: f.ID}
				for _, tr := range f.Troops {
					if r.IntN(2) == 0 {
						sp.Troops = append(sp.Troops, game.Troops{Arm: tr.Arm, Grade: tr.Grade, Count: r.IntN(tr.Count + 5)})
					}
				}
				if len(f.Leaders) > 0 && r.IntN(2) == 0 {
					sp.Leaders = []string{f.Leaders[0].ID}
				}
				if f.IsFleet() {
					sp.Ships = game.Ships{Transports: r.IntN(3), Warships: r.IntN(3)}
				}
				x = sp
			case 9:
				x = engine.Merge{At: at, Force: f.ID, Into: pickForce().ID}
			case 10:
				g := pickForce()
				if len(g.Leaders) > 0 {
					x = engine.AssignLeader{At: at, Leader: g.Leaders[0].ID, To: f.ID}
				} else {
					x = engine.DetachLeader{At: at, Leader: "nobody"}
				}
			case 11:
				x = engine.Sail{At: at, Fleet: f.ID, Path: []game.Place{game.AtSea(seas[r.IntN(3)]), game.AtSea(seas[r.IntN(3)])}}
			case 12:
				x = engine.Embark{At: at, Force: f.ID, Fleet: pickForce().ID}
			default:
				x = engine.Debark{At: at, Force: f.ID, Hex: hexNear(game.Hex{Col: 2, Row: 3}, 2)}
			}
			o.List = append(o.List, x)
		}
		out = append(out, o)
	}
	return out
}

// TestRandomOrdersKeepTheStateSound: whatever the orders, a resolved turn
// leaves a sound state — every force somewhere it can be, nothing empty,
// nobody aboard a fleet that is not there — the input untouched, and the
// same bytes twice; and every event that is not for everyone names a nation.
func TestRandomOrdersKeepTheStateSound(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		g := newGenGame(seed, 16, 14, 4, 10)
		r := rand.New(rand.NewPCG(seed, 3))
		in := g.input(seed)
		in.Orders = randomOrders(r, g.m, g.state)
		before, _ := json.Marshal(g.state)
		res, err := engine.Resolve(in)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := engine.Resolve(in)
		if !bytes.Equal(encodeResult(t, res), encodeResult(t, again)) {
			t.Fatalf("seed %d: two resolutions differ", seed)
		}
		if after, _ := json.Marshal(g.state); !bytes.Equal(before, after) {
			t.Fatalf("seed %d: the input state changed", seed)
		}
		st := res.State
		for _, f := range st.Forces {
			where := fmt.Sprintf("seed %d: %s at %s", seed, f.ID, f.At)
			switch {
			case f.IsEmpty():
				t.Fatalf("%s: an empty force is left in the state", where)
			case f.At.IsZero():
				t.Fatalf("%s: a force on no place", where)
			case f.Aboard != "":
				fl, ok := st.Force(f.Aboard)
				if !ok || !fl.IsFleet() || fl.At != f.At {
					t.Fatalf("%s: aboard %s, which is not a fleet there", where, f.Aboard)
				}
			case f.IsFleet():
				if len(f.Troops) > 0 || len(f.Guns) > 0 {
					t.Fatalf("%s: a fleet with troops or guns in it: %+v", where, f)
				}
				if !f.At.IsSea() {
					c, port := g.m.CityAt(f.At.Hex)
					if !(port && c.Port) && !g.m.IsGoodHolding(f.At.Hex) {
						t.Fatalf("%s: a fleet on land", where)
					}
				}
			default:
				if f.At.IsSea() || !g.m.IsLand(f.At.Hex) {
					t.Fatalf("%s: a land force off the land", where)
				}
			}
			for _, tr := range f.Troops {
				if tr.Count <= 0 || tr.Exhausted < 0 || tr.Exhausted > tr.Count {
					t.Fatalf("%s: troops %+v", where, tr)
				}
			}
		}
		for _, d := range st.Depots {
			if d.Aboard != "" {
				if fl, ok := st.Force(d.Aboard); !ok || fl.At != d.At {
					t.Fatalf("seed %d: depot %s aboard %s, not there", seed, d.ID, d.Aboard)
				}
			}
		}
		for _, e := range res.Events {
			h := e.Head()
			if h.Rule == "" || h.Step == "" {
				t.Fatalf("seed %d: %s without a step or rule", seed, e.Kind())
			}
			if !h.Visibility.Public && len(h.Visibility.To) == 0 && e.Kind() != "EngagementPending" && e.Kind() != "SeaEngagementPending" {
				t.Fatalf("seed %d: %s is for nobody", seed, e.Kind())
			}
		}
	}
}
