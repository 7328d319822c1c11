package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// stepYearEndLoyalty is "Capturing and Controlling Cities and Provinces":
// "The cities in a neutral province become loyal to you if you end the
// game-year in control of all the cities in the province. If another player
// captures all its cities, it becomes loyal to him. Player home provinces
// however never change loyalty." A province that is no nation's home, all
// of whose cities one nation controls, turns loyal to it (again to another
// nation that later holds them all). Then the game-year is over, and the
// tax bases are counted for victory (yearend_victory.go).
//
// Taxes were collected in the step before, so a province turned loyal this
// year-end pays full taxes from the next year-end on (docs/rules-notes.md
// §The year-end).
func (t *turn) stepYearEndLoyalty() {
	rule := t.cite("Capturing and Controlling Cities and Provinces", "")
	for _, p := range t.m.Provinces {
		if p.Owner != game.Neutral {
			continue // home provinces never change loyalty
		}
		cities := t.m.CitiesOf(p.Letter)
		if len(cities) == 0 {
			continue
		}
		holder := game.Neutral
		all, changed := true, false
		var before game.NationID
		var names []string
		for i, mc := range cities {
			cs, ok := t.s.City(mc.Name)
			if !ok || cs.Controller == game.Neutral || (i > 0 && cs.Controller != holder) {
				all = false
				break
			}
			holder = cs.Controller
			if cs.Loyalty != holder {
				changed = true
				before = cs.Loyalty
			}
			names = append(names, mc.Name)
		}
		if !all || !changed {
			continue
		}
		for _, name := range names {
			cs, _ := t.s.City(name)
			cs.Loyalty = holder
		}
		slices.Sort(names)
		t.emit(&ProvinceLoyal{Province: p.Letter, Nation: holder, Before: before, Cities: names}, rule,
			game.AtHex(cities[0].Hex), public(), holder)
	}
	t.checkVictory()
}
