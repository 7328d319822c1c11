package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/internal/english"
)

// GeneralFates tells what became of generals lost with their forces or on
// the field, a clause a fate: "General Saxe was taken prisoner", "General
// Keith and General Daun were killed", "a general was taken prisoner" (an
// enemy's the nation did not scout, counted in words: the number is not a
// measured one) ("" for none). Wounded generals stay with their armies and
// are not listed.
func GeneralFates(gs []battle.GeneralFate) string {
	var parts []string
	for _, fate := range []struct{ fate, words string }{{battle.Killed, "killed"}, {battle.Captured, "taken prisoner"}} {
		var names []string
		unnamed := 0
		for _, g := range gs {
			if g.Fate != fate.fate {
				continue
			}
			name := g.Name
			if name == "" {
				name = g.ID
			}
			switch {
			case name == "":
				unnamed++ // an enemy general the nation did not scout
			case !slices.Contains(names, name):
				names = append(names, name)
			}
		}
		n := len(names) + unnamed
		if unnamed > 0 {
			what := english.InWords(unnamed, "general")
			switch {
			case len(names) > 0 && unnamed == 1:
				what = "another general"
			case len(names) > 0:
				what = english.InWords(unnamed, "other general")
			}
			names = append(names, what)
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s %s", english.List(names), english.Agree(n, "was", "were"), fate.words))
		}
	}
	return strings.Join(parts, "; ")
}

// generalFates is GeneralFates in the viewer's words: the referee reads
// each general with his nation ("Marshal Saxe of Fromande was taken
// prisoner"), a nation as GeneralFates tells it.
func (w Words) generalFates(gs []battle.GeneralFate) string {
	if w.viewer != engine.Referee {
		return GeneralFates(gs)
	}
	named := make([]battle.GeneralFate, len(gs))
	for i, g := range gs {
		named[i] = g
		if g.Nation == "" {
			continue
		}
		name := g.Name
		if name == "" {
			name = g.ID
		}
		if name == "" {
			name = "a general"
		}
		named[i].Name = name + " of " + w.nation(g.Nation)
	}
	return GeneralFates(named)
}
