package demo

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// player is one scripted nation. It writes its order sheet for a turn from
// its own View only (what its reports and acknowledgments show), with a
// plan per nation for the first turns (the demo's set pieces: a siege and
// an assault, a land battle, a landing, a sea battle, a treaty, a request)
// and a plausible general rule after that: garrison what was taken, march
// on the nearest city not held.
type player struct {
	nation   game.NationID
	name     string
	letter   string
	password string
	acct     *account
	rng      *rand.Rand

	// treatyID is the ID of the treaty this nation was asked to attest (read
	// from the treaty notice in its mailbox); attested once it has.
	treatyID string
	attested bool
}

// plan is the context a player writes a sheet in.
type plan struct {
	p     *player
	m     *hexmap.Map
	rules *ruleset.Ruleset
	v     *engine.NationView
	lines []string
	next  int                   // the next free force number
	used  map[game.ForceID]bool // forces given orders already
}

func (pl *plan) add(format string, args ...any) {
	pl.lines = append(pl.lines, fmt.Sprintf(format, args...))
}

func (pl *plan) own(id string) *game.Force {
	for i := range pl.v.Own {
		if string(pl.v.Own[i].ID) == id {
			return &pl.v.Own[i]
		}
	}
	return nil
}

func (pl *plan) city(name string) (engine.CityView, bool) {
	for _, c := range pl.v.Cities {
		if c.Name == name {
			return c, true
		}
	}
	return engine.CityView{}, false
}

func (pl *plan) cityAt(h game.Hex) (engine.CityView, bool) {
	for _, c := range pl.v.Cities {
		if c.Hex == h {
			return c, true
		}
	}
	return engine.CityView{}, false
}

// newForce returns the ID of the nation's next new force.
func (pl *plan) newForce() string {
	id := fmt.Sprintf("%s%d", pl.p.letter, pl.next)
	pl.next++
	return id
}

// partners are the nations this one has a treaty with (published or not).
func (pl *plan) partners() map[game.NationID]bool {
	out := map[game.NationID]bool{}
	for _, t := range pl.v.Treaties {
		if slices.Contains(t.Parties, pl.p.nation) {
			for _, n := range t.Parties {
				out[n] = true
			}
		}
	}
	return out
}

// target is the nearest city (in hexes, then by hex) that the nation does
// not hold and is not held by a treaty partner, to which force f has a
// route; skip names cities already aimed at this turn.
func (pl *plan) target(f *game.Force, skip map[string]bool) (engine.CityView, bool) {
	partners := pl.partners()
	var cs []engine.CityView
	for _, c := range pl.v.Cities {
		if c.Controller == pl.p.nation || partners[c.Controller] || skip[c.Name] {
			continue
		}
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b engine.CityView) int {
		return cmp.Or(hexmap.Distance(f.At.Hex, a.Hex)-hexmap.Distance(f.At.Hex, b.Hex), a.Hex.Compare(b.Hex))
	})
	for i, c := range cs {
		if i > 8 {
			break
		}
		if _, _, ok := engine.Route(pl.m, pl.rules, f, f.At.Hex, c.Hex); ok {
			return c, true
		}
	}
	return engine.CityView{}, false
}

// infantry returns a stack of the force's infantry to detach as a
// garrison: n figures of its most numerous line infantry.
func infantry(f *game.Force, n int) (game.Troops, bool) {
	best := -1
	for i, t := range f.Troops {
		if t.Arm == game.LineInfantry && t.Count-t.Exhausted > n+24 && (best < 0 || t.Count > f.Troops[best].Count) {
			best = i
		}
	}
	if best < 0 {
		return game.Troops{}, false
	}
	t := f.Troops[best]
	t.Count, t.Exhausted = n, 0
	return t, true
}

// general plays every land force not yet given orders: a force standing in
// a city the nation took leaves a garrison there (once a turn), a force in
// a foreign city's hex besieges it (on DEFEND when an enemy army threatens
// it), the others march on the nearest city not held — on DEFEND when the
// march meets the threat of an enemy army (goodGround, demo/defend.go).
func (pl *plan) general() {
	aimed := map[string]bool{}
	garrisoned := false
	for i := range pl.v.Own {
		f := &pl.v.Own[i]
		if pl.used[f.ID] || f.IsFleet() || f.Aboard != "" || f.Garrison || !f.HasRole(game.General) || f.At.IsSea() {
			continue
		}
		pl.used[f.ID] = true
		here, inCity := pl.cityAt(f.At.Hex)
		if inCity && here.Controller == pl.p.nation && !garrisoned && !pl.garrisonedAt(f.At.Hex) {
			if t, ok := infantry(f, 12); ok {
				id := pl.newForce()
				pl.add("SPLIT %s AS %s %s", f.ID, id, t)
				pl.garrison(id, here.Name)
				garrisoned = true
			}
		}
		if inCity && here.Controller != pl.p.nation && !pl.partners()[here.Controller] {
			if threat, _ := pl.threatened(f, f.At.Hex); threat {
				pl.add("STANCE %s DEFEND", f.ID)
			} else {
				pl.add("STANCE %s ATTACK", f.ID)
			}
			if here.Siege == game.Besieged && f.CountArms(game.Arm.IsInfantry) >= 100 {
				pl.add("ASSAULT %s %s WITH ALL", f.ID, here.Name)
			} else {
				pl.add("BESIEGE %s %s", f.ID, here.Name)
			}
			continue
		}
		c, ok := pl.target(f, aimed)
		if !ok {
			pl.add("STANCE %s DEFEND", f.ID)
			continue
		}
		aimed[c.Name] = true
		if route, _, ok := engine.Route(pl.m, pl.rules, f, f.At.Hex, c.Hex); ok {
			if _, ok := pl.goodGround(f, route); ok {
				pl.add("STANCE %s DEFEND", f.ID)
				pl.add("MOVE %s TO %s", f.ID, c.Name)
				continue
			}
		}
		pl.add("STANCE %s ATTACK", f.ID)
		if pl.p.rng.IntN(2) == 0 {
			pl.add("PURSUE %s", f.ID)
		}
		pl.add("MOVE %s TO %s", f.ID, c.Name)
	}
}

// garrisonedAt reports an own garrison in hex h.
func (pl *plan) garrisonedAt(h game.Hex) bool {
	for _, f := range pl.v.Own {
		if f.Garrison && f.At.Hex == h {
			return true
		}
	}
	return false
}

// sheet is the text of an order sheet: the header, the lines, END, and a
// few words around it as a player writes them.
func (p *player) sheet(v *engine.NationView, lines []string, greeting string) string {
	var b strings.Builder
	if greeting != "" {
		b.WriteString(greeting + "\n\n")
	}
	fmt.Fprintf(&b, "GAME syw\nNATION %s\nPASSWORD %s\nTURN %d\n\n", p.nation, p.password, v.Turn)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("END\n\n-- \n" + p.name + "\n")
	return b.String()
}
