package narrative_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports/narrative"
	"github.com/syw-pbem/pbem/ruleset"
)

var update = flag.Bool("update", false, "rewrite the golden narratives")

// battleTurn resolves a turn on the plain map in which Eisenmark (with
// hussars, so it scouts Fromande exactly) attacks Fromande (no light troops:
// it sees Eisenmark only as a size class).
func battleTurn(t *testing.T, rules *ruleset.Ruleset, seed uint64) *engine.Result {
	t.Helper()
	return battleTurnWith(t, rules, seed, nil)
}

// battleTurnWith is battleTurn with the armies changed by change (nil: as
// they are) before the turn is resolved.
func battleTurnWith(t *testing.T, rules *ruleset.Ruleset, seed uint64, change func(*engine.State)) *engine.Result {
	t.Helper()
	m, err := hexmap.Load(filepath.Join("..", "..", "engine", "testdata", "maps", "plain.txt"))
	if err != nil {
		t.Fatal(err)
	}
	st := &engine.State{Game: "narrative", Ruleset: rules.ID, Turn: 2, Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4},
		Nations: []engine.NationState{{ID: "eisenmark", NextForce: 10}, {ID: "fromande", NextForce: 10}},
		Forces: []game.Force{
			{ID: "E1", Nation: "eisenmark", At: game.AtHex(game.Hex{Col: 3, Row: 2}), Stance: game.Attack,
				Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 113}, {Arm: game.LightCavalry, Grade: game.GradeC, Count: 29}, {Arm: game.Gunners, Grade: game.GradeB, Count: 12}},
				Guns:    []game.Guns{{Kind: game.FieldGun, Count: 3}},
				Leaders: []game.Leader{{ID: "Keith", Name: "Marshal Keith", Role: game.General, Experience: 2}, {ID: "Ziethen", Name: "General Ziethen", Role: game.General}}},
			{ID: "F1", Nation: "fromande", At: game.AtHex(game.Hex{Col: 5, Row: 2}),
				Troops:  []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 84}, {Arm: game.MediumCavalry, Grade: game.GradeC, Count: 18}, {Arm: game.Gunners, Grade: game.GradeC, Count: 8}},
				Guns:    []game.Guns{{Kind: game.HeavyGun, Count: 2}},
				Leaders: []game.Leader{{ID: "Saxe", Name: "Marshal Saxe", Role: game.General, Experience: 1}}},
		}}
	if change != nil {
		change(st)
	}
	st.Normalize()
	o, err := engine.UnmarshalOrder([]byte(`{"kind":"move","Force":"E1","Path":["0402","0502","0602"]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Resolve(engine.Input{Map: m, Rules: rules, State: st, Seed: seed,
		Orders: []engine.Orders{{Nation: "eisenmark", Turn: 2, List: []engine.Order{o}}}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports/narrative -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestGoldenNarratives: a battle told to each side, per model and edition.
func TestGoldenNarratives(t *testing.T) {
	for _, model := range ruleset.BattleModels {
		for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
			rules := r.WithBattle(model)
			res := battleTurn(t, rules, 7)
			var b strings.Builder
			for _, n := range []game.NationID{"eisenmark", "fromande"} {
				fmt.Fprintf(&b, "==== as %s sees it\n\n%s\n", n, narrative.Text(engine.EventsFor(res.Events, n), n))
			}
			fmt.Fprintf(&b, "==== as the referee reads it\n\n%s\n", narrative.Text(res.Events, engine.Referee))
			if !strings.Contains(b.String(), "The battle at") {
				t.Fatalf("%s %s: no battle told:\n%s", model, r.ID, b.String())
			}
			golden(t, model+"-"+strings.TrimPrefix(r.ID, "syw-"), b.String())
		}
	}
}

// TestNarrativeNamesOnlyWhatWasSeen: Fromande had no scouts, so it saw
// Eisenmark's army only as a size class: its story names neither
// Eisenmark's generals, nor its arms, nor its numbers; Eisenmark's story,
// told with exact scouting, names Fromande's commander.
func TestNarrativeNamesOnlyWhatWasSeen(t *testing.T) {
	for seed := uint64(1); seed <= 25; seed++ {
		for _, model := range ruleset.BattleModels {
			for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
				res := battleTurn(t, r.WithBattle(model), seed)
				var lb *engine.LandBattle
				for _, e := range res.Events {
					if x, ok := e.(*engine.LandBattle); ok {
						lb = x
					}
				}
				if lb == nil {
					t.Fatalf("seed %d: no battle", seed)
				}
				f := narrative.Text(engine.EventsFor(res.Events, "fromande"), "fromande")
				e := narrative.Text(engine.EventsFor(res.Events, "eisenmark"), "eisenmark")
				for _, secret := range []string{"Keith", "Ziethen", "hussars", "113", "29 hussars", "3 guns", "Eisenmark's genius"} {
					if strings.Contains(f, secret) {
						t.Errorf("seed %d %s %s: Fromande's story names %q, which it never saw:\n%s", seed, model, r.ID, secret, f)
					}
				}
				if !strings.Contains(e, "Marshal Saxe") && !strings.Contains(e, "Saxe") {
					t.Errorf("seed %d %s %s: Eisenmark scouted exactly but its story does not name Saxe:\n%s", seed, model, r.ID, e)
				}
				// Never contradicting the numbers: the story's own losses
				// are the event's.
				own := lb.Sides[lb.SideOf("eisenmark")]
				want := "we lost no men"
				if cas := own.Killed + own.Routed + own.Captured; cas > 0 {
					want = fmt.Sprintf("our casualties were %d: %s", cas, casualtyList(own))
				}
				if !strings.Contains(strings.ToLower(e), want) {
					t.Errorf("seed %d %s %s: Eisenmark's story lacks %q:\n%s", seed, model, r.ID, want, e)
				}
			}
		}
	}
}

// casualtyList is a side's losses as the story lists them, those not nil.
func casualtyList(s engine.BattleSide) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{s.Killed, "killed or wounded"}, {s.Routed, "routed"}, {s.Captured, "surrounded and taken"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
