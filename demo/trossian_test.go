package demo

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/scenarios"
	"github.com/syw-pbem/pbem/trossian"
)

// trossianYearInProcess plays the demo's plan and referee through the
// campaign seam without mail, with the dice the demo's daemon rolls for a
// seed (the dice key seedDice stores, the turn seeds daemon.turnSeed makes
// of it), and counts the set pieces.
func trossianYearInProcess(t *testing.T, seed uint64) TrossianSets {
	t.Helper()
	c, err := campaign.ForRuleset("trossian")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := c.LoadScenario(c.DefaultScenario(), scenarios.TrossianDir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Open("trossian", sc)
	if err != nil {
		t.Fatal(err)
	}
	am := g.(campaign.AreaMapped)
	sum := sha256.Sum256([]byte("pbem demo " + strconv.FormatUint(seed, 10)))
	key := hex.EncodeToString(sum[:])
	st, err := g.NewState("tross")
	if err != nil {
		t.Fatal(err)
	}
	var sets TrossianSets
	for st.TurnNumber() <= trossian.PhasesPerYear {
		turn := st.TurnNumber()
		var orders []engine.Orders
		for _, n := range trossianKingdoms {
			v, err := am.AreaView(st, game.NationID(n))
			if err != nil {
				t.Fatal(err)
			}
			if os := trossianPlan(v.(*trossian.NationView)); len(os) > 0 {
				orders = append(orders, engine.Orders{Nation: game.NationID(n), Turn: turn, List: os})
			}
		}
		ts := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(turn)))
		in := campaign.TurnInput{State: st, Orders: orders, Seed: binary.BigEndian.Uint64(ts[:8])}
		out, err := g.Resolve(in)
		if err != nil {
			t.Fatal(err)
		}
		if out.State == nil {
			for _, a := range out.Awaiting {
				var sh trossian.BattleSheet
				if err := json.Unmarshal(a.Data, &sh); err != nil {
					t.Fatal(err)
				}
				r, _ := json.Marshal(trossianRefereeResult(sh))
				in.Results = append(in.Results, r)
				sets.TableBattles++
			}
			if out, err = g.Resolve(in); err != nil || out.State == nil {
				t.Fatalf("turn %d with the referee's results: %v", turn, err)
			}
		}
		for _, e := range out.Events {
			switch x := e.(type) {
			case *trossian.Intercepted:
				if x.Fate == "captured" {
					sets.CouriersCaptured++
				}
			case *trossian.NavyLost:
				if x.Step == "frozen-lanes" {
					sets.NaviesIced++
				}
			case *trossian.Recruited:
				if x.Step == "purchases" {
					sets.WinterRecruits++
				}
			}
		}
		st = out.State
	}
	return sets
}

func allSets(s TrossianSets) bool {
	return s.TableBattles > 0 && s.CouriersCaptured > 0 && s.NaviesIced > 0 && s.WinterRecruits == 5
}

// TestTrossianDemoSeed: the default seed's year shows every set piece
// issue 27 asks of it — a courier is captured with a chance of 1 in 36 a
// foreign province entered, so a seed is chosen; this test keeps the
// choice true when the rules or the plan change.
func TestTrossianDemoSeed(t *testing.T) {
	t.Parallel()
	if s := trossianYearInProcess(t, TrossianSeed); !allSets(s) {
		t.Errorf("seed %d's year: %+v", TrossianSeed, s)
	}
}

// TestTrossianDemoByMail plays the demo year by mail and checks what it
// wrote: every kingdom's and the referee's PDF for the opening and each of
// the ten turns, and the set pieces, the same as in process.
func TestTrossianDemoByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole year by mail")
	}
	t.Parallel()
	out := t.TempDir()
	res, sets, err := RunTrossian(context.Background(), Options{Out: out, Scenario: scenarios.TrossianDir, Seed: TrossianSeed})
	if err != nil {
		t.Fatal(err)
	}
	if want := trossianYearInProcess(t, TrossianSeed); sets != want || !allSets(sets) {
		t.Errorf("by mail %+v, in process %+v", sets, want)
	}
	if len(res.Turns) != trossian.PhasesPerYear || res.Text {
		t.Fatalf("%d turns played, text reports %v", len(res.Turns), res.Text)
	}
	for _, dir := range []string{res.Start.Folder, res.Turns[1].Folder, res.Turns[9].Folder} {
		for _, who := range append(trossianKingdoms, "referee") {
			b, err := os.ReadFile(filepath.Join(out, dir, who+".pdf"))
			if err != nil || len(b) < 1000 || string(b[:5]) != "%PDF-" {
				t.Errorf("%s/%s.pdf: %v", dir, who, err)
			}
		}
	}
}
