package parser

import (
	"os"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// The fixture game: the default scenario's map (a frozen copy in
// testdata/continent.map) with forces of our own, at turn 3 (June 1752).
// defaultGame switches to scenario.Load("scenarios/default") once the
// scenario package gives starting forces.

var (
	fixtureOnce sync.Once
	fixtureMap  *hexmap.Map
	fixtureErr  error
)

func loadFixtureMap(t testing.TB) *hexmap.Map {
	fixtureOnce.Do(func() {
		f, err := os.Open("testdata/continent.map")
		if err != nil {
			fixtureErr = err
			return
		}
		defer f.Close()
		fixtureMap, fixtureErr = hexmap.Parse(f, "testdata/continent.map")
	})
	if fixtureErr != nil {
		t.Fatalf("fixture map: %v", fixtureErr)
	}
	return fixtureMap
}

func gen(id string) game.Leader { return game.Leader{ID: id, Name: id, Role: game.General} }
func adm(id string) game.Leader { return game.Leader{ID: id, Name: id, Role: game.Admiral} }

func tr(n int, g game.Grade, a game.Arm) game.Troops { return game.Troops{Arm: a, Grade: g, Count: n} }

func hx(s string) game.Hex {
	h, err := game.ParseHex(s)
	if err != nil {
		panic(err)
	}
	return h
}

// fixtureState builds the fixture game's state for a turn.
func fixtureState(m *hexmap.Map, turn int) *engine.State {
	s := &engine.State{Game: "syw", Ruleset: ruleset.SYW1752().ID, Turn: turn,
		Calendar: game.Calendar{StartYear: 1752, FirstMonth: 4}}
	for _, n := range m.Nations {
		s.Nations = append(s.Nations, engine.NationState{ID: n.ID, NextForce: 10, NextDepot: 2})
	}
	for _, c := range m.Cities {
		cs := game.CityState{Name: c.Name}
		if p, ok := m.Province(c.Province); ok && p.Owner != "" {
			cs.Controller, cs.Loyalty = p.Owner, p.Owner
		}
		if c.Capitol != "" {
			cs.Treasury = 2400
		}
		s.Cities = append(s.Cities, cs)
	}
	E := game.NationID("eisenmark")
	s.Forces = []game.Force{
		{ID: "E1", Nation: E, At: game.AtHex(hx("1910")), Troops: []game.Troops{
			tr(48, game.GradeC, game.LineInfantry), tr(12, game.GradeB, game.LightCavalry), tr(16, game.GradeC, game.Gunners)},
			Guns: []game.Guns{{Kind: game.FieldGun, Count: 4}}, Leaders: []game.Leader{gen("Keith")}},
		{ID: "E2", Nation: E, At: game.AtHex(hx("1710")), Troops: []game.Troops{
			tr(36, game.GradeC, game.LineInfantry), tr(12, game.GradeC, game.LightCavalry)}, Leaders: []game.Leader{gen("Seydlitz")}},
		{ID: "E3", Nation: E, At: game.AtHex(hx("2205")), Troops: []game.Troops{tr(60, game.GradeC, game.LineInfantry)}},
		{ID: "E4", Nation: E, At: game.AtHex(hx("2205")), Ships: game.Ships{Warships: 2, Transports: 3, DamagedWarships: 1},
			Leaders: []game.Leader{adm("Brommy")}},
		{ID: "E5", Nation: E, At: game.AtHex(hx("1812")), Troops: []game.Troops{
			tr(24, game.GradeD, game.LineInfantry), tr(8, game.GradeC, game.Gunners)},
			Guns: []game.Guns{{Kind: game.HeavyGun, Count: 2}}, Leaders: []game.Leader{gen("Winterfeldt")}},
		{ID: "E6", Nation: E, At: game.AtHex(hx("2013")), Troops: []game.Troops{
			tr(120, game.GradeC, game.LineInfantry), tr(24, game.GradeC, game.MediumCavalry), tr(8, game.GradeC, game.Gunners)},
			Guns: []game.Guns{{Kind: game.HeavyGun, Count: 2}}, Leaders: []game.Leader{gen("Zieten")}},
		{ID: "F1", Nation: "fromande", At: game.AtHex(hx("1011")), Troops: []game.Troops{tr(60, game.GradeC, game.LineInfantry)},
			Leaders: []game.Leader{gen("Broglie")}},
		{ID: "U1", Nation: "unterreich", At: game.AtHex(hx("2217")), Troops: []game.Troops{tr(60, game.GradeC, game.LineInfantry),
			tr(24, game.GradeD, game.IrregularLight)}, Leaders: []game.Leader{gen("Daun")}},
		{ID: "M1", Nation: "morgronskia", At: game.AtHex(hx("2904")), Troops: []game.Troops{tr(60, game.GradeC, game.LineInfantry)},
			Leaders: []game.Leader{gen("Apraksin")}},
		{ID: "H1", Nation: "hispardia", At: game.AtHex(hx("0821")), Troops: []game.Troops{tr(40, game.GradeC, game.HeavyCavalry)},
			Leaders: []game.Leader{gen("Alba")}},
	}
	s.Depots = []game.Depot{{ID: "E-D1", Nation: E, At: game.AtHex(hx("1910"))}}
	s.Treaties = []game.Treaty{{ID: "T1", Title: "Peace of Garzow", Parties: []game.NationID{E, "fromande"},
		Text: "Eternal friendship.", Attested: []game.NationID{"fromande"}}}
	// Dresna (2013), neutral, is where E6 stands: besieged by it.
	if c, ok := s.City("Dresna"); ok {
		c.Siege = game.Besieged
	}
	s.Normalize()
	return s
}

// fixture returns a check context for the fixture game at a turn.
func fixture(t testing.TB, turn int) CheckContext {
	m := loadFixtureMap(t)
	s := fixtureState(m, turn)
	if c, ok := s.City("Dresna"); ok {
		c.Siege = game.Besieged
	}
	return CheckContext{Map: m, Rules: ruleset.SYW1752(), State: s, Game: "syw", Nation: "eisenmark",
		VerifyPassword: func(n game.NationID, pw string) bool { return pw == "tobacco" }}
}
