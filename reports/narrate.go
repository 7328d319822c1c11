package reports

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// Narrate is the reports' default telling of the battles, sieges and
// encounters a nation saw (already fogged by engine.EventsFor), used when
// Input.Narrate is nil: each event whose kind is told as a story
// (SectionStory: a land battle, by package reports/narrative — for the
// nation its own side whole and the enemy as far as its scouts saw, for
// engine.Referee the whole battle), then the encounters in their plain
// sentences, grouped by place (PlainNarratives). It reads only the events
// it is given.
func Narrate(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative {
	var out []Narrative
	var rest []engine.Event
	for _, e := range events {
		if story := textFor(e).Story; story != nil {
			out = append(out, story(wordsFor(m, nation, e), e))
			continue
		}
		rest = append(rest, e)
	}
	return append(out, PlainNarratives(m, nation, rest)...)
}

// Ledger is the reports' default treasury ledger (Input.Ledger nil):
// MoneyLedger.
func Ledger(m *hexmap.Map, nation game.NationID, events []engine.Event) []LedgerLine {
	return MoneyLedger(m, nation, events)
}

// PlainNarratives tells the encounters (SectionEncounters; a story's kind,
// SectionStory, in its one sentence) each in its sentence for nation,
// grouped by place under the heading its kind gives ("Siege at 0812
// (Konigsfeld)"). For the referee (nation engine.Referee) the sentences
// are the referee's, every side named and whole.
func PlainNarratives(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative {
	var out []Narrative
	idx := map[string]int{}
	for _, e := range events {
		t := textFor(e)
		if t.Section != SectionEncounters && t.Section != SectionStory || Routine(e) {
			continue
		}
		w := wordsFor(m, nation, e)
		where := w.place(e)
		i, ok := idx[where]
		if !ok {
			i = len(out)
			idx[where] = i
			out = append(out, Narrative{Title: t.Heading + " " + where, Where: where})
		}
		out[i].Text = append(out[i].Text, w.tell(e))
	}
	return out
}
