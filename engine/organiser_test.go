package engine_test

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// TestResolveSteps: a turn resolved as far as a step is the turn so far —
// the events of that step and those before it only, the state not yet
// advanced — and resolved as far as its last step it is the whole turn; a
// step the pipeline has not is an error.
func TestResolveSteps(t *testing.T) {
	g := newGenGame(3, 30, 24, 3, 6)
	whole, err := engine.Resolve(g.input(3))
	if err != nil {
		t.Fatal(err)
	}
	part, err := engine.ResolveSteps(g.input(3), "organisation")
	if err != nil {
		t.Fatal(err)
	}
	steps := engine.Steps(false)
	upTo := steps[:slices.Index(steps, "organisation")+1]
	for _, e := range part.Events {
		if !slices.Contains(upTo, e.Head().Step) {
			t.Fatalf("an event of step %s in the turn as far as the organisation", e.Head().Step)
		}
	}
	if part.State.Turn != g.state.Turn || len(part.Events) >= len(whole.Events) {
		t.Errorf("the turn so far: turn %d (want %d), %d events of %d", part.State.Turn, g.state.Turn, len(part.Events), len(whole.Events))
	}
	last, err := engine.ResolveSteps(g.input(3), steps[len(steps)-1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeResult(t, last), encodeResult(t, whole)) {
		t.Error("the turn resolved to its last step is not the turn resolved")
	}
	if _, err := engine.ResolveSteps(g.input(3), "tea"); err == nil {
		t.Error("a step the pipeline has not was accepted")
	}
}

// TestOrganiserIsTheOrganisationStep: one nation's organisation orders
// carried out by an Organiser leave its forces as the organisation step
// leaves them.
func TestOrganiserIsTheOrganisationStep(t *testing.T) {
	g := newGenGame(5, 30, 24, 3, 6)
	in := g.input(5)
	part, err := engine.ResolveSteps(in, "organisation")
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, sheet := range in.Orders {
		org := engine.NewOrganiser(in.Map, in.Rules, in.State, sheet.Nation)
		for _, o := range sheet.List {
			if k, ok := engine.KindOf(o.Kind()); ok && k.StepFor(false) == "organisation" {
				org.Apply(o)
				applied++
			}
		}
		var got, want []game.Force
		for _, f := range org.State().Forces {
			if f.Nation == sheet.Nation {
				got = append(got, f)
			}
		}
		for _, f := range part.State.Forces {
			if f.Nation == sheet.Nation {
				want = append(want, f)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the organiser's forces %+v, the step's %+v", sheet.Nation, got, want)
		}
	}
	if applied == 0 {
		t.Fatal("the game has no organisation order: pick another")
	}
}
