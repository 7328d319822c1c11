package areamap_test

import (
	"testing"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/scenarios"
)

func loadTrossia(t testing.TB) *areamap.Map {
	t.Helper()
	f, err := scenarios.Trossian().Open("map.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := areamap.Parse(f, "map.txt")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTrossiaMap: the default map reads, validates with the four frozen
// lanes, and has what 004 asks of it — five or more kingdoms each with a
// capital, towns, ports, plains, roads and the four frozen northern lanes.
func TestTrossiaMap(t *testing.T) {
	m := loadTrossia(t)
	if probs := m.Validate(areamap.ValidateOptions{FrozenLanes: 4}); len(probs) > 0 {
		for _, p := range probs {
			t.Error(p.In("map.txt"))
		}
	}
	if len(m.Kingdoms) < 5 {
		t.Errorf("%d kingdoms, want five or more", len(m.Kingdoms))
	}
	kinds := map[areamap.Kind]int{}
	for _, p := range m.Provinces {
		kinds[p.Kind]++
	}
	for _, k := range []areamap.Kind{areamap.Plain, areamap.Town, areamap.Port} {
		if kinds[k] == 0 {
			t.Errorf("no %s province", k)
		}
	}
	for _, k := range m.Kingdoms {
		if m.Capital(k.ID) == "" {
			t.Errorf("%s has no capital", k.ID)
		}
	}
	if len(m.Roads) == 0 {
		t.Error("no roads")
	}
	var frozen []string
	for _, l := range m.Lanes {
		if l.Frozen {
			frozen = append(frozen, l.ID)
		}
	}
	if len(frozen) != 4 {
		t.Errorf("frozen lanes %v, want the four northern ones", frozen)
	}
	for _, id := range frozen {
		if l, _ := m.Lane(id); l.At.Y > 10 {
			t.Errorf("frozen lane %s is drawn at y=%d: the frozen lanes are the northern ones", id, l.At.Y)
		}
	}
}
