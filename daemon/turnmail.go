package daemon

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/syw-pbem/pbem/engine"
)

// PlainTurnMail is a plain turn mail without the PDF report: a plain-text
// list of the events the nation may see (engine.EventsFor), one line each
// with its place and fields, the NMR notice when the nation sent no orders,
// and the next deadline. The daemon's default is Game.ReportMail; a test or
// a referee who wants no PDF sets Game.TurnMailer to this.
func PlainTurnMail(m TurnMail) (Mailed, error) {
	subject, text := plainTurnText(m)
	return Mailed{Subject: subject, Text: text}, nil
}

// plainTurnText is PlainTurnMail's subject and text; the referee's master
// report mail carries the text too.
func plainTurnText(m TurnMail) (subject, text string) {
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
	if len(m.NMRNations) > 0 {
		fmt.Fprintf(&b, "No orders (NMR), held in place on DEFEND: %s.\n\n", strings.Join(m.NMRNations, ", "))
	}
	for _, n := range m.NMRNations {
		if k := m.NMRStreaks[n]; k > 0 {
			fmt.Fprintf(&b, "%s has sent no orders for %d turns in a row. Decide what to do: find a new player, ask someone\n"+
				"to play it as caretaker, or let it go on holding.\n\n", n, k)
		}
	}
	if len(m.Events) == 0 {
		b.WriteString("Nothing happened this turn that you could see.\n")
	} else {
		fmt.Fprintf(&b, "What you saw this turn (%d):\n", len(m.Events))
		for _, e := range m.Events {
			b.WriteString("- " + eventLine(e) + "\n")
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

// eventLine prints one event: its kind, its place, and its own fields (not
// the header's) in declaration order.
func eventLine(e engine.Event) string {
	var b strings.Builder
	b.WriteString(e.Kind())
	if p := e.Head().Place; !p.IsZero() {
		fmt.Fprintf(&b, " at %s", p)
	}
	v := reflect.ValueOf(e)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return b.String()
	}
	var parts []string
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Anonymous || !f.IsExported() || v.Field(i).IsZero() {
			continue
		}
		js, err := json.Marshal(v.Field(i).Interface())
		if err != nil {
			continue
		}
		parts = append(parts, f.Name+"="+string(js))
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, " "))
	}
	return b.String()
}
