package engine

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// The place index: the live forces of the turn by the place they are in,
// each list in canonical (ID) order, so that the checks that look at one
// stack — minimum force sizes after a retreat, an overrun or a split, the
// forces aboard a fleet — cost the size of the stack, not of the game.
//
// The index is built once, on first use, and kept up to date by addForce,
// remove and setAt: setAt is the one way the engine moves a force, and no
// code assigns Force.At of a live force otherwise. (It used to be rebuilt
// from every force after every pipeline step, 10 % of a 64k-force turn;
// and a retreat that assigned Force.At directly left it stale within its
// step, so that the minimum sizes checked after a battle missed a force that
// had retreated.) Tests make Resolve check it against the forces after every
// step (checkPlaceIndex, set by export_test.go's TestMain except for benchmarks).

// checkPlaceIndex makes Resolve compare the place index with the forces
// after every step and panic on a difference: a test switch
// (export_test.go), never set by the program.
var checkPlaceIndex bool

// checkPlaces panics if the index does not list exactly the live forces by
// their places, each list in canonical order.
func (t *turn) checkPlaces() {
	if t.byPlace == nil {
		return
	}
	want := map[game.Place][]*game.Force{}
	for _, f := range t.live() {
		if t.byID[f.ID] == f {
			want[f.At] = append(want[f.At], f)
		}
	}
	for p, list := range want {
		slices.SortFunc(list, func(a, b *game.Force) int { return game.CompareForceIDs(a.ID, b.ID) })
		if !slices.Equal(list, t.byPlace[p]) {
			panic(fmt.Sprintf("engine: after step %s the place index lists %d forces in %s, the forces %d", t.step, len(t.byPlace[p]), p, len(list)))
		}
	}
	if len(want) != len(t.byPlace) {
		for p, list := range t.byPlace {
			if _, ok := want[p]; !ok {
				panic(fmt.Sprintf("engine: after step %s the place index lists %d forces in %s (%s first, at %s, live %v), where no force is", t.step, len(list), p, list[0].ID, list[0].At, t.byID[list[0].ID] == list[0]))
			}
		}
	}
}

// rebuildPlaces indexes every live force by place.
func (t *turn) rebuildPlaces() {
	t.byPlace = make(map[game.Place][]*game.Force, len(t.byPlace))
	for _, f := range t.live() {
		// live may still hold a force being removed (remove asks for the
		// forces aboard it before the list is compacted): not indexed.
		if t.byID[f.ID] == f {
			t.byPlace[f.At] = append(t.byPlace[f.At], f)
		}
	}
}

// forcesAt returns the live forces in place p, in canonical order. The
// slice is the index's own: callers that remove or move forces while
// walking it must clone it first.
func (t *turn) forcesAt(p game.Place) []*game.Force {
	if t.byPlace == nil {
		t.rebuildPlaces()
	}
	return t.byPlace[p]
}

// indexAdd puts a force into the index at its place.
func (t *turn) indexAdd(f *game.Force) {
	if t.byPlace == nil {
		return // built on first use, with f in it
	}
	list := t.byPlace[f.At]
	i, _ := slices.BinarySearchFunc(list, f.ID, func(x *game.Force, id game.ForceID) int { return game.CompareForceIDs(x.ID, id) })
	t.byPlace[f.At] = slices.Insert(list, i, f)
}

// indexDrop takes a force out of the index at its place.
func (t *turn) indexDrop(f *game.Force) {
	if t.byPlace == nil {
		return
	}
	list := t.byPlace[f.At]
	if i := slices.Index(list, f); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(t.byPlace, f.At)
	} else {
		t.byPlace[f.At] = list
	}
}

// setAt moves a force to place p, keeping the index.
func (t *turn) setAt(f *game.Force, p game.Place) {
	if f.At == p {
		return
	}
	live := t.byID[f.ID] == f
	if live {
		t.indexDrop(f)
	}
	f.At = p
	if live {
		t.indexAdd(f)
	}
}

// aboard returns the live forces aboard a fleet, in canonical order.
func (t *turn) aboard(fleet *game.Force) []*game.Force {
	var out []*game.Force
	for _, f := range t.forcesAt(fleet.At) {
		if f.Aboard == fleet.ID {
			out = append(out, f)
		}
	}
	return out
}
