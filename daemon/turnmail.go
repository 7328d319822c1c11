package daemon

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports"
)

// PlainTurnMail is a plain turn mail without the PDF report: the events the
// nation may see (engine.EventsFor), one sentence each (reports.Sentence;
// without the map, places and nations by their IDs), the NMR notice when
// the nation sent no orders, and the next deadline. The daemon's default is
// Game.ReportMail; a test or a referee who wants no PDF sets
// Game.TurnMailer to this.
func PlainTurnMail(m TurnMail) (Mailed, error) {
	subject, text := plainTurnText(nil, m)
	return Mailed{Subject: subject, Text: text}, nil
}

// plainTurnText is PlainTurnMail's subject and text, places and nations
// named from mp (nil: by ID); the referee's master report mail carries the
// text too.
func plainTurnText(mp *hexmap.Map, m TurnMail) (subject, text string) {
	var b strings.Builder
	who := m.NationName
	subject = fmt.Sprintf("[%s] %s resolved: %s's report", m.GameID, m.TurnLabel, who)
	if m.Nation == engine.Referee {
		subject = fmt.Sprintf("[%s] %s resolved: referee's summary", m.GameID, m.TurnLabel)
	}
	fmt.Fprintf(&b, "%s — %s\n%s has been resolved.\n\n", m.GameName, who, m.TurnLabel)
	if m.Rerun {
		subject = strings.Replace(subject, " resolved:", " resolved again (correction):", 1)
		b.WriteString("The referee had this turn resolved again after a correction. This report replaces the one\n" +
			"sent earlier for it.\n\n")
	}
	if m.NMR {
		b.WriteString("No orders from you were in force at the deadline (NMR): every one of your land forces held in\n" +
			"place on DEFEND, and nothing else was done for you this turn.\n\n")
	}
	name := func(n string) string {
		if mp != nil {
			if x, ok := mp.Nation(game.NationID(n)); ok {
				return x.Name
			}
		}
		return n
	}
	if len(m.NMRNations) > 0 {
		var names []string
		for _, n := range m.NMRNations {
			names = append(names, name(n))
		}
		fmt.Fprintf(&b, "No orders (NMR), held in place on DEFEND: %s.\n\n", english.List(names))
	}
	for _, n := range m.NMRNations {
		if k := m.NMRStreaks[n]; k > 0 {
			fmt.Fprintf(&b, "%s has sent no orders for %s in a row. Decide what to do: find a new player, ask someone\n"+
				"to play it as caretaker, or let it go on holding.\n\n", name(n), english.Count(k, "turn"))
		}
	}
	if len(m.Events) == 0 {
		b.WriteString("Nothing happened this turn that you could see.\n")
	} else {
		fmt.Fprintf(&b, "What you saw this turn (%s):\n", english.Count(len(m.Events), "event"))
		for _, e := range m.Events {
			b.WriteString("- " + reports.Sentence(mp, m.Nation, e) + "\n")
		}
	}
	b.WriteString("\n")
	switch {
	case m.GameOver != "":
		fmt.Fprintf(&b, "The game is over: %s No more orders are taken.\n", m.GameOver)
	case !m.NextDeadline.IsZero():
		fmt.Fprintf(&b, "Orders for %s (TURN %d) are due by %s.\n", m.NextLabel, m.NextTurn,
			m.NextDeadline.In(m.Zone).Format(deadlineLayout))
	default:
		fmt.Fprintf(&b, "Orders for %s (TURN %d) are now open; the referee will set the deadline.\n", m.NextLabel, m.NextTurn)
	}
	if m.ScheduleNote != "" && m.GameOver == "" {
		b.WriteString(m.ScheduleNote + "\n")
	}
	return subject, b.String()
}
