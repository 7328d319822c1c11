package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// addSeaName lets a sea area be named as the map prints it ("Sea of
// Calpe"), with or without accents, in any case.
func (v *Vocabulary) addSeaName(name string, id game.SeaID) {
	if name == "" {
		return
	}
	if v.seaNamed == nil {
		v.seaNamed = map[string]game.SeaID{}
	}
	v.seaNamed[nameKey(name)] = id
	if v.seaTitle == nil {
		v.seaTitle = map[game.SeaID]string{}
	}
	v.seaTitle[id] = name
	v.seaWords = max(v.seaWords, len(strings.Fields(name)), len(strings.Fields(nameKey(name))))
}

// seaNameAhead reports whether the next words (or quoted string) are a sea
// area's name, without reading them.
func (p *parser) seaNameAhead() bool {
	if p.v == nil || len(p.v.seaNamed) == 0 {
		return false
	}
	save := p.pos
	defer func() { p.pos = save }()
	_, _, ok := p.name(p.v.seaWords, func(s string) bool { _, ok := p.v.seaNamed[nameKey(s)]; return ok })
	return ok
}

// seaName reads a sea area's name (seaNameAhead said there is one).
func (p *parser) seaName() game.SeaID {
	name, _, _ := p.name(p.v.seaWords, func(s string) bool { _, ok := p.v.seaNamed[nameKey(s)]; return ok })
	return p.v.seaNamed[nameKey(name)]
}

// seaNameSuggestion suggests sea areas by name for a misspelt one spanning
// the next words ("Sea of Calpo", "Midle Sea"): the nearest names, each
// with its ID. "" when none is near.
func (p *parser) seaNameSuggestion() string {
	if p.v == nil || len(p.v.seaNamed) == 0 {
		return ""
	}
	var names []string
	byName := map[string]game.SeaID{}
	for key, id := range p.v.seaNamed {
		names = append(names, key)
		byName[key] = id
	}
	slices.Sort(names)
	for n := p.v.seaWords; n >= 1; n-- {
		words, ok := p.wordsAhead(n)
		if !ok {
			continue
		}
		if s := suggest(nameKey(strings.Join(words, " ")), names); len(s) > 0 {
			for i, k := range s {
				s[i] = fmt.Sprintf("%s (%s)", p.v.seaDisplay(byName[k]), byName[k])
			}
			return didYouMean(s)
		}
	}
	return ""
}

// seaDisplay is a sea area's name as the map prints it.
func (v *Vocabulary) seaDisplay(id game.SeaID) string {
	if n, ok := v.seaTitle[id]; ok {
		return n
	}
	return string(id)
}
