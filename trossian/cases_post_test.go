package trossian

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
)

// checkTrPost compares a case's POSTSTATE lines with the state the turn
// left (the format is at the top of cases_test.go).
func checkTrPost(t *testing.T, c *trCase, m *areamap.Map, s *State, fail func(string, ...any)) {
	for _, l := range c.post {
		word, rest, _ := strings.Cut(l, " ")
		w := strings.Fields(rest)
		switch word {
		case "awaiting":
		case "army":
			want, hasStands, fl, err := armyLine(rest, false)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.Army(want.ID)
			if !ok {
				fail("POSTSTATE army %s is gone", want.ID)
				continue
			}
			if got.At != want.At {
				fail("POSTSTATE %s: at %q, want %q", want.ID, got.At, want.At)
			}
			if hasStands && !reflect.DeepEqual(got.Stands, want.Stands) {
				fail("POSTSTATE %s: stands %s, want %s", want.ID, got.Stands, want.Stands)
			}
			for k, v := range fl {
				var g string
				switch k {
				case "attack":
					if got.Stance != game.Attack {
						fail("POSTSTATE %s: stance %s, want attack", want.ID, got.Stance)
					}
					continue
				case "defend":
					if got.Stance != game.Defend {
						fail("POSTSTATE %s: stance %s, want defend", want.ID, got.Stance)
					}
					continue
				case "march":
					g = strings.Join(got.March, ",")
					if v == "none" {
						v = ""
					}
				case "task":
					g = got.Task
					if v == "none" {
						v = ""
					}
				case "since":
					g = strconv.Itoa(got.TaskSince)
				case "still":
					g = strconv.Itoa(got.StillUntil)
				case "aboard":
					g = string(got.Aboard)
				case "retreat":
					g = got.RetreatTo
				default:
					t.Fatalf("POSTSTATE %q: flag %s", l, k)
				}
				if g != v {
					fail("POSTSTATE %s: %s=%q, want %q", want.ID, k, g, v)
				}
			}
		case "gone":
			id := game.ForceID(w[0])
			if _, ok := s.Army(id); ok {
				fail("POSTSTATE army %s should be gone", id)
			}
			if _, ok := s.Navy(id); ok {
				fail("POSTSTATE navy %s should be gone", id)
			}
			if slices.ContainsFunc(s.Couriers, func(c Courier) bool { return c.ID == id }) {
				fail("POSTSTATE courier %s should be gone", id)
			}
		case "navy":
			nv, ok := s.Navy(game.ForceID(w[0]))
			if !ok {
				fail("POSTSTATE navy %s is gone", w[0])
				continue
			}
			at, err := parseNavyPlace(w[1])
			if err != nil {
				t.Fatal(err)
			}
			if nv.At != at {
				fail("POSTSTATE navy %s at %s, want %s", w[0], nv.At, at)
			}
			for k, v := range parseFlags(strings.Join(w[2:], " ")) {
				if k == "nation" && string(nv.Nation) != v {
					fail("POSTSTATE navy %s of %s, want %s", w[0], nv.Nation, v)
				}
			}
		case "courier":
			var cr *Courier
			for i := range s.Couriers {
				if string(s.Couriers[i].ID) == w[0] {
					cr = &s.Couriers[i]
				}
			}
			if cr == nil {
				fail("POSTSTATE courier %s is gone", w[0])
				continue
			}
			if cr.At.String() != w[1] && cr.At.Province != w[1] && cr.At.Lane != w[1] {
				fail("POSTSTATE courier %s at %s, want %s", w[0], cr.At, w[1])
			}
			if _, ret := parseFlags(strings.Join(w[2:], " "))["returning"]; ret != cr.Returning {
				fail("POSTSTATE courier %s returning %v", w[0], cr.Returning)
			}
		case "couriers":
			ns, _ := s.Nation(game.NationID(w[0]))
			if strconv.Itoa(ns.Couriers) != w[1] {
				fail("POSTSTATE %s has %d couriers at its seat, want %s", w[0], ns.Couriers, w[1])
			}
		case "province":
			ps, _ := s.Province(w[0])
			for _, kv := range w[1:] {
				k, v, _ := strings.Cut(kv, "=")
				var g string
				switch k {
				case "controller":
					g = string(ps.Controller)
					if v == "none" {
						v = ""
					}
				case "bank":
					g = strconv.Itoa(ps.Bank)
				case "siege":
					g = "none"
					if ps.Siege != nil {
						g = fmt.Sprintf("%s:%d:%d", ps.Siege.By, ps.Siege.Progress, ps.Siege.Required)
					}
				case "pacify":
					g = "none"
					if ps.Pacify != nil {
						g = fmt.Sprintf("%s:%d:%d", ps.Pacify.By, ps.Pacify.Progress, ps.Pacify.Required)
					}
				}
				if g != v {
					fail("POSTSTATE province %s: %s=%s, want %s", w[0], k, g, v)
				}
			}
		case "chance":
			turn, _ := strconv.Atoi(w[1])
			if !slices.Contains(s.Chance, ChanceCard{Nation: game.NationID(w[0]), Turn: turn}) {
				fail("POSTSTATE no chance card of %s on turn %d: %v", w[0], turn, s.Chance)
			}
		case "turn":
			if strconv.Itoa(s.Turn) != w[0] {
				fail("POSTSTATE turn %d, want %s", s.Turn, w[0])
			}
		default:
			t.Fatalf("POSTSTATE line %q: expected army, gone, navy, courier, couriers, province, chance, turn or awaiting", l)
		}
	}
	_ = m
}
