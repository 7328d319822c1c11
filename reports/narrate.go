package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/narrative"
)

// Narrate is the reports' default telling of the battles, sieges and
// encounters a nation saw (already fogged by engine.EventsFor), used when
// Input.Narrate is nil: each land battle as package reports/narrative tells
// it for the nation (its own side whole, the enemy as far as its scouts
// saw; for engine.Referee the whole battle), then the other encounters in
// PlainNarratives' sentences, grouped by place. It reads only the events it
// is given.
func Narrate(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative {
	var out []Narrative
	var rest []engine.Event
	for _, e := range events {
		lb, ok := e.(*engine.LandBattle)
		if !ok {
			rest = append(rest, e)
			continue
		}
		s := narrative.Tell(lb, nation)
		out = append(out, Narrative{Title: s.Title, Where: Where(m, lb.Head().Place), Text: s.Paragraphs})
	}
	return append(out, PlainNarratives(m, nation, rest)...)
}

// Ledger is the reports' default treasury ledger (Input.Ledger nil):
// MoneyLedger.
func Ledger(m *hexmap.Map, nation game.NationID, events []engine.Event) []LedgerLine {
	return MoneyLedger(m, nation, events)
}

// battleKinds are the kinds PlainNarratives tells; any other kind whose name
// speaks of a battle, a siege or an assault is told in one generic sentence.
func isBattleEvent(e engine.Event) bool {
	switch e.(type) {
	case *engine.Contact, *engine.Overrun, *engine.CavalrySlowed, *engine.SlowingRefused,
		*engine.Filtered, *engine.RetreatedBeforeBattle, *engine.Pursued, *engine.SeaContact,
		*engine.LandingRefused, *engine.EngagementPending, *engine.SeaEngagementPending,
		*engine.GarrisonKilled, *engine.Breach, *engine.Surrender, *engine.WallsRepaired, *engine.CounterBattery:
		return true
	}
	k := e.Kind()
	return strings.Contains(k, "Battle") || strings.Contains(k, "Siege") || strings.Contains(k, "Assault") ||
		strings.Contains(k, "Bombard")
}

// PlainNarratives tells each battle-like event in a plain sentence, grouped
// by place. For the referee (nation engine.Referee) it also tells the
// engagements the combat step must fight, with every force.
func PlainNarratives(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative {
	var out []Narrative
	idx := map[string]int{}
	for _, e := range events {
		if !isBattleEvent(e) {
			continue
		}
		if sl, ok := e.(*engine.SiegeLosses); ok && lossText(sl.Losses) == "" {
			continue // a siege that cost nothing is not news
		}
		s := Sentence(m, nation, e)
		if s == "" {
			continue
		}
		h := e.Head()
		where := Where(m, h.Place)
		key := where
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, Narrative{Title: titleFor(e, where), Where: where})
		}
		out[i].Text = append(out[i].Text, s)
	}
	return out
}

func titleFor(e engine.Event, where string) string {
	switch e.(type) {
	case *engine.SeaContact, *engine.SeaEngagementPending:
		return "At sea, " + where
	case *engine.GarrisonKilled:
		return "Rising at " + where
	}
	if strings.Contains(e.Kind(), "Siege") || strings.Contains(e.Kind(), "Assault") {
		return "Siege at " + where
	}
	return "Action at " + where
}

func ids(fs []game.ForceID) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

func lossText(ls []engine.Loss) string {
	var parts []string
	for _, l := range ls {
		if l.Lost == 0 && l.Exhausted == 0 {
			continue
		}
		what := ""
		if l.Gun != 0 {
			what = english.Noun(l.Before, l.Gun.String())
		} else {
			what = fmt.Sprintf("%s %s", l.Grade, armNoun(l.Before, l.Arm))
		}
		s := fmt.Sprintf("%d of %d %s", l.Lost, l.Before, what)
		if l.Force != "" {
			s = string(l.Force) + ": " + s
		}
		if l.Exhausted > 0 {
			s += fmt.Sprintf(" (%d exhausted)", l.Exhausted)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// forceLine prints a force's contents on one line: "E1: 48 C infantry, 12
// B light-cavalry, 4 field-guns; Keith".
func forceLine(f game.Force) string {
	var parts []string
	for _, t := range f.Troops {
		parts = append(parts, troopText(t))
	}
	for _, g := range f.Guns {
		parts = append(parts, gunsText(g))
	}
	if f.Ships.Total() > 0 {
		parts = append(parts, shipsText(f.Ships))
	}
	for _, l := range f.Leaders {
		parts = append(parts, leaderText(l))
	}
	return string(f.ID) + ": " + strings.Join(parts, ", ")
}

// splitCamel turns "BattleFought" into "Battle fought".
func splitCamel(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// movements tells the month's news of the nation's own forces.
func (b *builder) movements() []string {
	var out []string
	for _, e := range b.seen {
		if isBattleEvent(e) {
			continue
		}
		if s := movementLine(b.m, e); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// movementLine is an event's line among the nation's marches, supply and
// orders ("" for the events told elsewhere: battles and sieges in the
// narratives, captures in the month's summary, scouting in its table, and
// the quiet ones — stances restated, supply found, the turn's end).
func movementLine(m *hexmap.Map, e engine.Event) string {
	switch x := e.(type) {
	case *engine.ForceMoved:
		if len(x.Path) == 0 {
			return ""
		}
	case *engine.SeaMoved:
		if len(x.Path) == 0 {
			return ""
		}
	case *engine.SupplyTraced:
		if x.Supplied {
			return ""
		}
	case *engine.StandingOrdersSet, *engine.TurnEnded, *engine.CityCaptured, *engine.CityReverted, *engine.Scouted:
		return ""
	}
	return Sentence(m, "", e)
}
