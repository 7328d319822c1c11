package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// The place index: the live forces of the turn by the place they are in,
// each list in canonical (ID) order, so that the checks that look at one
// stack — minimum force sizes after a retreat, an overrun or a split, the
// forces aboard a fleet — cost the size of the stack, not of the game.
//
// The index is kept up to date by addForce, remove and setAt (the one way
// the engine moves a force during a step), and rebuilt from the forces after
// every pipeline step, so that a step that assigns Force.At directly cannot
// leave it wrong beyond its own end.

// rebuildPlaces indexes every live force by place.
func (t *turn) rebuildPlaces() {
	t.byPlace = make(map[game.Place][]*game.Force, len(t.byPlace))
	for _, f := range t.live() {
		t.byPlace[f.At] = append(t.byPlace[f.At], f)
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
