package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
)

// stepCaptures applies the rules' "Capturing and Controlling Cities and
// Provinces" at the end of the turn, city by city in name order:
//
//   - a city whose hex holds the land forces of one nation only, that does
//     not control it, changes hands: to a nation the city is loyal to when it
//     has any infantry or cavalry there ("To recapture a loyal city you merely
//     need to drive out the garrison"); to any other nation with 100 or more
//     infantry and cavalry figures there;
//   - a nation holding a city not loyal to it needs 10 infantry or cavalry
//     there; below that the townsfolk kill the rest and the city reverts to
//     its loyalty (GarrisonKilled; CityReverted when no troops were left,
//     only leaders or nobody).
//
// Loyalty itself changes only at the year-end (home provinces never).
func (t *turn) stepCaptures() {
	rule := t.cite("Capturing and Controlling Cities and Provinces", "")
	// The land forces in each city's hex, found in one pass.
	inCity := map[game.Hex][]*game.Force{}
	for _, f := range t.live() {
		if f.At.IsSea() || f.Aboard != "" || f.IsFleet() {
			continue
		}
		if _, ok := t.m.CityAt(f.At.Hex); ok {
			inCity[f.At.Hex] = append(inCity[f.At.Hex], f)
		}
	}
	for i := range t.m.Cities {
		c := &t.m.Cities[i]
		cs := t.cityState(c.Name)
		byNation := map[game.NationID][]*game.Force{}
		var nations []game.NationID
		for _, f := range inCity[c.Hex] {
			if t.force(f.ID) == nil {
				continue
			}
			if _, ok := byNation[f.Nation]; !ok {
				nations = append(nations, f.Nation)
			}
			byNation[f.Nation] = append(byNation[f.Nation], f)
		}
		// Allies take a city together: one bloc of allied nations alone in
		// the hex, the controller not among them, captures it with 100
		// infantry and cavalry between them; the city goes to the ally it
		// is loyal to if that ally has troops there, else to the ally with
		// most infantry and cavalry there (docs/rules-notes.md).
		slices.Sort(nations)
		if blocs := t.blocs(nations); len(blocs) == 1 && !slices.Contains(blocs[0], cs.Controller) {
			figs := 0
			var ids []game.ForceID
			own := map[game.NationID]int{}
			for _, m := range blocs[0] {
				for _, f := range byNation[m] {
					figs += f.FightingFigures()
					own[m] += f.FightingFigures()
					ids = append(ids, f.ID)
				}
			}
			n := blocs[0][0]
			for _, m := range blocs[0] {
				if own[m] > own[n] {
					n = m
				}
			}
			if slices.Contains(blocs[0], cs.Loyalty) && own[cs.Loyalty] > 0 {
				n = cs.Loyalty
			}
			slices.SortFunc(ids, game.CompareForceIDs)
			loyal := cs.Loyalty == n
			if (loyal && own[n] > 0) || figs >= t.r.Capture.CaptureFigures {
				from := cs.Controller
				t.emit(&CityCaptured{City: c.Name, From: from, By: n, Forces: ids, Recaptured: loyal}, rule, game.AtHex(c.Hex), public(), n, from)
				t.handOver(cs, n, rule)
				t.fleetsEscapeCapturedPort(c, n)
			}
		}
		holder := cs.Controller
		if holder == game.Neutral || holder == cs.Loyalty {
			continue
		}
		figs := 0
		for _, f := range byNation[holder] {
			figs += f.FightingFigures()
		}
		if figs >= t.r.Capture.Garrison {
			continue
		}
		men := slices.ContainsFunc(byNation[holder], func(f *game.Force) bool { return f.Figures() > 0 || f.GunCount() > 0 })
		if !men {
			// Nobody there, or leaders alone: no men for the townsfolk to
			// kill; the city reverts.
			t.emit(&CityReverted{City: c.Name, From: holder, To: cs.Loyalty}, rule, game.AtHex(c.Hex), public(), holder, cs.Loyalty)
			t.handOver(cs, cs.Loyalty, rule)
			continue
		}
		killed := 0
		var ids []game.ForceID
		var gone []*game.Force
		for _, f := range byNation[holder] {
			if f.Figures() == 0 && f.GunCount() == 0 {
				continue
			}
			killed += f.Figures()
			ids = append(ids, f.ID)
			gone = append(gone, f)
		}
		generals := leadersLost(gone, battle.Killed)
		for _, f := range gone {
			t.remove(f.ID)
		}
		t.emit(&GarrisonKilled{City: c.Name, Nation: holder, Killed: killed, Forces: ids, RevertsTo: cs.Loyalty, Generals: generals}, rule, game.AtHex(c.Hex), public(), holder, cs.Loyalty)
		t.handOver(cs, cs.Loyalty, rule)
	}
}

// cityState returns a city's state, adding a neutral one if the state had
// none.
func (t *turn) cityState(name string) *game.CityState {
	if cs, ok := t.s.City(name); ok {
		return cs
	}
	t.s.Cities = append(t.s.Cities, game.CityState{Name: name})
	t.s.Normalize()
	cs, _ := t.s.City(name)
	return cs
}
