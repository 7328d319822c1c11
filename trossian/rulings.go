package trossian

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// Rulings are the referee's: a chance card's effect ("Chance cards can be
// both harmful and beneficial"), what a captor of false plans is told
// ("as judged by the umpire"), alliances, and any "rule conflicts … dealt
// with by the Umpire as they occur". Each is a list of effects applied in
// the rulings step, right after the orders; an effect that cannot be
// applied is reported, not guessed at.

// Ruling is one approved ruling.
type Ruling struct {
	Token   string `json:",omitempty"`
	Note    string `json:",omitempty"`
	Effects []Effect
}

// The effect kinds.
const (
	EffectAP       = "ap"       // Delta AP to the bank of Province
	EffectAdd      = "add"      // Stands to army Force (or a new army of Nation in Province)
	EffectRemove   = "remove"   // Stands (all when empty) from army Force
	EffectControl  = "control"  // Province to Nation (empty: unclaimed)
	EffectMove     = "move"     // army or navy Force to Province (a navy: its port)
	EffectTell     = "tell"     // Text to Nation
	EffectCouriers = "couriers" // Delta couriers at Nation's seat
	EffectAllies   = "allies"   // Nation and Other make peace
	EffectWar      = "war"      // Nation and Other go to war
)

// Effect is one change a ruling makes.
type Effect struct {
	Kind     string
	Nation   game.NationID `json:",omitempty"`
	Other    game.NationID `json:",omitempty"`
	Province string        `json:",omitempty"`
	Force    game.ForceID  `json:",omitempty"`
	Stands   Stands        `json:",omitempty"`
	Delta    int           `json:",omitempty"`
	Text     string        `json:",omitempty"`
}

const secRulings = "004 Chance Cards ¶Other rule conflicts will be dealt with by the Umpire"

// stepRulings applies the rulings in order.
func (t *turn) stepRulings() {
	for _, r := range t.in.Rulings {
		for _, e := range r.Effects {
			refused := t.applyEffect(e)
			ns := []game.NationID{e.Nation, e.Other}
			if a, ok := t.s.Army(e.Force); ok {
				ns = append(ns, a.Nation)
			}
			t.emit(&RulingDone{Header: t.head(secRulings, e.Province, to(ns...), ns...), Token: r.Token, Effect: e, Refused: refused})
		}
	}
}

// applyEffect applies one effect, or says why not.
func (t *turn) applyEffect(e Effect) string {
	switch e.Kind {
	case EffectAP:
		ps, ok := t.s.Province(e.Province)
		if !ok {
			return "no province " + e.Province
		}
		ps.Bank = max(0, ps.Bank+e.Delta)
	case EffectAdd:
		if a, ok := t.s.Army(e.Force); ok {
			a.Stands = a.Stands.Plus(e.Stands)
			return ""
		}
		ns, ok := t.s.Nation(e.Nation)
		if _, okp := t.m.Province(e.Province); !ok || !okp || e.Stands.Total() == 0 {
			return "a new army needs a kingdom, a province and stands"
		}
		id := e.Force
		if id == "" || t.forceIDTaken(id) {
			id = t.nextArmyID(ns)
		}
		t.s.Armies = append(t.s.Armies, Army{ID: id, Nation: e.Nation, At: e.Province, Stands: e.Stands.Normalize()})
		t.dirty = true
	case EffectRemove:
		a, ok := t.s.Army(e.Force)
		if !ok {
			return "no army " + string(e.Force)
		}
		lost := e.Stands
		if lost.Total() == 0 {
			lost = a.Stands
		}
		if !a.Stands.Contains(lost) {
			return fmt.Sprintf("%s has %s, not %s", a.ID, a.Stands, lost)
		}
		t.loseStands(a, lost)
	case EffectControl:
		ps, ok := t.s.Province(e.Province)
		if !ok {
			return "no province " + e.Province
		}
		if e.Nation == game.Neutral {
			ps.Controller, ps.Siege, ps.Pacify = game.Neutral, nil, nil
			return ""
		}
		if _, ok := t.s.Nation(e.Nation); !ok {
			return "no kingdom " + string(e.Nation)
		}
		t.capture(e.Province, e.Nation, "the referee's ruling")
	case EffectMove:
		if _, ok := t.m.Province(e.Province); !ok {
			return "no province " + e.Province
		}
		if a, ok := t.s.Army(e.Force); ok {
			a.At, a.Aboard, a.March = e.Province, "", nil
			return ""
		}
		if nv, ok := t.s.Navy(e.Force); ok {
			nv.At = NavyPlace{Province: e.Province}
			return ""
		}
		return "no army or navy " + string(e.Force)
	case EffectTell:
		if _, ok := t.s.Nation(e.Nation); !ok || e.Text == "" {
			return "a message needs a kingdom and a text"
		}
		t.emit(&Told{Header: t.head(secRulings, "", to(e.Nation), e.Nation), Nation: e.Nation, Text: e.Text})
	case EffectCouriers:
		ns, ok := t.s.Nation(e.Nation)
		if !ok {
			return "no kingdom " + string(e.Nation)
		}
		ns.Couriers = max(0, ns.Couriers+e.Delta)
	case EffectAllies, EffectWar:
		_, ok1 := t.s.Nation(e.Nation)
		_, ok2 := t.s.Nation(e.Other)
		if !ok1 || !ok2 || e.Nation == e.Other {
			return "two kingdoms are needed"
		}
		pair := [2]game.NationID{min(e.Nation, e.Other), max(e.Nation, e.Other)}
		if e.Kind == EffectAllies {
			t.s.Allies = append(t.s.Allies, pair)
		} else {
			var keep [][2]game.NationID
			for _, p := range t.s.Allies {
				if p != pair {
					keep = append(keep, p)
				}
			}
			t.s.Allies = keep
		}
		t.s.Normalize()
	default:
		return fmt.Sprintf("no effect %q", e.Kind)
	}
	return ""
}
