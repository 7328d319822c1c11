package gamecheck

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// errStop ends a game played for a mutation test once it has what it needs.
var errStop = errors.New("stop")

// faultsOf plays the demo's first turns with a tamper applied and returns
// the faults Check finds in the turn it was applied to.
func faultsOf(t *testing.T, turn int, before func(*Turn), after func(*Turn)) []Fault {
	t.Helper()
	var got []Fault
	err := Play(Setup{Game: Demo, Edition: "syw-1752", Model: "simulation", Seed: 1}, Hooks{
		BeforeResolve: func(tn *Turn) {
			if before != nil && tn.Before.Turn == turn {
				before(tn)
			}
		},
		Each: func(tn *Turn) error {
			if tn.Before.Turn != turn {
				return nil
			}
			if after != nil {
				after(tn)
			}
			got = Check(tn)
			return errStop
		}})
	if !errors.Is(err, errStop) {
		t.Fatalf("the game did not reach turn %d: %v", turn, err)
	}
	return got
}

func hasFault(fs []Fault, check, fact string) bool {
	return slices.ContainsFunc(fs, func(f Fault) bool { return f.Check == check && strings.Contains(f.Fact, fact) })
}

// TestCheckSeesADoubleCountedCrown: the invariant test fails on a crown
// counted twice — a report listing another nation's treasury as its own,
// and crowns that appear in the state with no ledger line.
func TestCheckSeesADoubleCountedCrown(t *testing.T) {
	if fs := Unknown(faultsOf(t, 1, nil, nil)); len(fs) > 0 {
		t.Fatalf("the untampered turn has faults: %v", fs)
	}
	fs := faultsOf(t, 1, nil, func(tn *Turn) {
		// Unterreich's report counts Konigsfeld's crowns too.
		md := tn.Nations["unterreich"]
		crowns := stateTreasury(tn.After, "Konigsfeld")
		md.Treasury.Cities = append(md.Treasury.Cities, reports.CityMoney{City: "Konigsfeld", Crowns: crowns})
		md.Treasury.Total += crowns
	})
	if !hasFault(fs, "money", "crowns in Konigsfeld are in the treasuries of [eisenmark unterreich]") {
		t.Errorf("a crown in two treasuries was not seen: %v", fs)
	}
	fs = faultsOf(t, 1, nil, func(tn *Turn) {
		// 100 crowns appear in Konigsfeld, and Eisenmark's report shows them.
		cs, _ := tn.After.City("Konigsfeld")
		cs.Treasury += 100
		md := tn.Nations["eisenmark"]
		md.Treasury.Total += 100
		for i := range md.Treasury.Cities {
			if md.Treasury.Cities[i].City == "Konigsfeld" {
				md.Treasury.Cities[i].Crowns += 100
			}
		}
	})
	if !hasFault(fs, "money", "the ledger's lines add up to") || !hasFault(fs, "money", "the events moved") {
		t.Errorf("crowns from nowhere were not seen: %v", fs)
	}
}

// TestCheckSeesADroppedOrder: the invariant test fails on an order the
// checker acknowledged without a warning and the engine dropped without a
// reason (here: never given to the engine), and on one it refused for a
// reason no enemy caused.
func TestCheckSeesADroppedOrder(t *testing.T) {
	drop := func(kind string) func(*Turn) {
		return func(tn *Turn) {
			for i := range tn.Orders {
				if tn.Orders[i].Nation == "eisenmark" {
					k := slices.IndexFunc(tn.Orders[i].List, func(o engine.Order) bool { return o.Kind() == kind })
					tn.Orders[i].List = slices.Delete(slices.Clone(tn.Orders[i].List), k, k+1)
				}
			}
		}
	}
	for _, kind := range []string{"split", "move", "sail", "fleet-stance"} {
		fs := faultsOf(t, 1, drop(kind), nil)
		if !hasFault(fs, "orders", "dropped without a reason: nothing came of it and the engine never had it") {
			t.Errorf("an acknowledged %s dropped was not seen: %v", kind, fs)
		}
	}
	fs := faultsOf(t, 1, func(tn *Turn) {
		// The engine is given Eisenmark's march on Dresna for a force it
		// does not have: it refuses it, and no enemy is to blame.
		for i := range tn.Orders {
			for j, o := range tn.Orders[i].List {
				if mv, ok := o.(engine.Move); ok && tn.Orders[i].Nation == "eisenmark" {
					mv.Force = game.ForceID("E99")
					tn.Orders[i].List = slices.Clone(tn.Orders[i].List)
					tn.Orders[i].List[j] = mv
				}
			}
		}
	}, nil)
	if !hasFault(fs, "orders", "was acknowledged without a warning and not carried out: there is no force E99") {
		t.Errorf("an acknowledged order refused for no enemy was not seen: %v", fs)
	}
}
