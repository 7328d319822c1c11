package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestIntelIsWhatTheScoutsSaw: over busy random turns, a nation's view of
// every force it scouted shows exactly what its best Scouted event of the
// turn told it — the contents at the moment of scouting — whatever battles,
// attrition, splits and captures did to the force afterwards. The test also
// wants turns where the force did change after the sighting, so that it
// tells the snapshot from the force's contents at the end of the turn.
func TestIntelIsWhatTheScoutsSaw(t *testing.T) {
	type key struct {
		n game.NationID
		f game.ForceID
	}
	changed := 0
	for seed := uint64(1); seed <= 12; seed++ {
		g := newGenGame(seed, 40, 30, 5, 25)
		in := g.input(seed)
		res, err := engine.Resolve(in)
		if err != nil {
			t.Fatal(err)
		}
		best := map[key]*engine.Scouted{}
		for _, e := range res.Events {
			if s, ok := e.(*engine.Scouted); ok && (best[key{s.Nation, s.Target}] == nil || s.Level > best[key{s.Nation, s.Target}].Level) {
				best[key{s.Nation, s.Target}] = s
			}
		}
		for _, n := range res.State.Nations {
			v := engine.View(g.m, in.Rules, res.State, n.ID)
			for _, ff := range v.Foreign {
				s := best[key{n.ID, ff.ID}]
				if s == nil {
					if ff.Level != ruleset.LevelSize || !reflect.DeepEqual(ff.Revealed, engine.Revealed{}) {
						t.Fatalf("seed %d: %s was not scouted by %s, yet its view shows %+v", seed, ff.ID, n.ID, ff)
					}
					continue
				}
				if ff.Level != s.Level || !reflect.DeepEqual(ff.Revealed, s.Learned.Revealed) {
					t.Fatalf("seed %d: %s's view of %s:\n got  %d %+v\n want %d %+v (its scouts' report, tick %d)",
						seed, n.ID, ff.ID, ff.Level, ff.Revealed, s.Level, s.Learned.Revealed, s.Tick)
				}
				f, _ := res.State.Force(ff.ID)
				if now := engine.Reveal(in.Rules, f, s.Level); !reflect.DeepEqual(now.Revealed, ff.Revealed) {
					changed++
				}
			}
		}
	}
	if changed == 0 {
		t.Fatal("no scouted force changed after its sighting: the test cannot tell a snapshot from the force's contents")
	}
	t.Logf("%d sightings differ from the forces' contents at the end of the turn", changed)
}

// TestSightingsStoredBeforeSnapshots: a state stored before sightings kept
// what the scouts saw still loads, and its sightings show the force's
// current contents at the level reached; a snapshot survives the JSON round
// trip and Clone, and the View's copy shares no memory with the state.
func TestSightingsStoredBeforeSnapshots(t *testing.T) {
	rules := rules1752()
	g := newGenGame(3, 12, 10, 2, 3)
	var f game.Force
	for _, x := range g.state.Forces {
		if x.Nation != g.state.Nations[0].ID && len(x.Troops) > 0 {
			f = x
			break
		}
	}
	viewer := g.state.Nations[0].ID
	old := []byte(`{"Nation":"` + string(viewer) + `","Force":"` + string(f.ID) + `","Level":3,"Turn":1}`)
	var s engine.Sighting
	if err := json.Unmarshal(old, &s); err != nil {
		t.Fatalf("an old sighting %s does not load: %v", old, err)
	}
	if s.Seen != nil {
		t.Fatalf("an old sighting loads with a snapshot: %+v", s.Seen)
	}
	st := g.state.Clone()
	st.Intel = []engine.Sighting{s}
	foreign := func(st *engine.State) engine.ForeignForce {
		for _, ff := range engine.View(g.m, rules, st, viewer).Foreign {
			if ff.ID == f.ID {
				return ff
			}
		}
		t.Fatalf("no foreign force %s in %s's view", f.ID, viewer)
		return engine.ForeignForce{}
	}
	if got := foreign(st); !reflect.DeepEqual(got.Troops, f.Troops) {
		t.Fatalf("an old sighting shows troops %v, want the force's current %v", got.Troops, f.Troops)
	}

	// The scouts saw one figure more than the force holds now.
	seen := engine.Reveal(rules, &f, ruleset.LevelExact).Revealed
	seen.Troops[0].Count++
	st.Intel[0].Seen = &seen
	js, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back engine.State
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for _, x := range []*engine.State{st, &back, st.Clone()} {
		got := foreign(x)
		if got.Troops[0].Count != f.Troops[0].Count+1 {
			t.Fatalf("the view shows %v, want what the scouts saw %v", got.Troops, seen.Troops)
		}
		got.Troops[0].Count = -1
		if x.Intel[0].Seen.Troops[0].Count == -1 {
			t.Fatal("the view's troops are the state's snapshot, not a copy")
		}
	}
}
