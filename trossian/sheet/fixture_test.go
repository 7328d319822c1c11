package sheet

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/scenarios"
	"github.com/syw-pbem/pbem/trossian"
)

var (
	fixOnce sync.Once
	fixMap  *areamap.Map
	fixSc   *trossian.Scenario
)

// fixture returns the default scenario's map and a fresh state at a turn.
func fixture(t testing.TB, turn int) (*areamap.Map, *trossian.State) {
	t.Helper()
	fixOnce.Do(func() {
		fsys := scenarios.Trossian()
		f, err := fsys.Open("map.txt")
		if err != nil {
			panic(err)
		}
		defer f.Close()
		if fixMap, err = areamap.Parse(f, "map.txt"); err != nil {
			panic(err)
		}
		data, err := fs.ReadFile(fsys, "scenario.yaml")
		if err != nil {
			panic(err)
		}
		if fixSc, err = trossian.ParseScenario(data, fixMap, "scenario.yaml"); err != nil {
			panic(err)
		}
	})
	st := fixSc.InitialState("tr", trossian.Trossian1801())
	st.Turn = turn
	return fixMap, st
}

func ctxFor(t testing.TB, turn int) Context {
	m, st := fixture(t, turn)
	return Context{Map: m, Rules: trossian.Trossian1801(), State: st, Game: "tr",
		VerifyPassword: func(n game.NationID, pw string) bool { return pw == "secret" }}
}

// sheetOf wraps orders in a header for a kingdom and turn.
func sheetOf(nation string, turn int, body string) string {
	var b strings.Builder
	b.WriteString("GAME tr\nNATION " + nation + "\nPASSWORD secret\nTURN ")
	b.WriteString(itoa(turn))
	b.WriteString("\n" + body + "\nEND\n")
	return b.String()
}

func itoa(n int) string {
	s := ""
	if n == 0 {
		return "0"
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

type trossianOrder = engineOrder

func zeroLine(o engineOrder) engineOrder {
	switch x := o.(type) {
	case trossian.SendCourier:
		x.At.Line = 0
		var cs trossian.OrderList
		for _, c := range x.Carries {
			cs = append(cs, zeroLine(c))
		}
		x.Carries = cs
		return x
	}
	v := reflectZeroLine(o)
	return v
}
