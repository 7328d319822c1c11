package daemon

import (
	"encoding/json"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// What a resolved turn stores and mails, the same for every campaign: the
// SYW turn (turn.go) and a campaign's through the seam (seam_turn.go).

// encodeResolved is the stored form of a resolved turn's events and dice,
// whichever campaign resolved it: the event log and the dice of its turn
// record, and one store row an event.
func encodeResolved(events []engine.Event, rolls any) (eventLog, dice []byte, rows []store.Event, err error) {
	if eventLog, err = engine.MarshalEvents(events); err != nil {
		return nil, nil, nil, err
	}
	if dice, err = json.Marshal(rolls); err != nil {
		return nil, nil, nil, err
	}
	rows = make([]store.Event, 0, len(events))
	for _, e := range events {
		data, err := engine.MarshalEvent(e)
		if err != nil {
			return nil, nil, nil, err
		}
		rows = append(rows, store.Event{Kind: e.Kind(), Data: data})
	}
	return eventLog, dice, rows, nil
}

// nationRecipients are the turn's report mails to the nations with a
// registered address, tm for each with its own events and NMR mark.
func (g *Game) nationRecipients(tm TurnMail, events []engine.Event, nmr []string) []recipient {
	var rs []recipient
	for _, id := range g.Config.NationIDs() {
		n := game.NationID(id)
		to := g.registered(n)
		if to == "" {
			continue
		}
		m := tm
		m.Nation, m.NationName = n, g.nationName(n)
		m.Events = engine.EventsFor(events, n)
		m.NMR = slices.Contains(nmr, id)
		rs = append(rs, recipient{tm: m, kind: MailReport, who: id, to: to})
	}
	return rs
}
