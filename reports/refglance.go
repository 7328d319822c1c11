package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// The referee's first page: the turn at a glance. Everything on it is read
// from the sheets the daemon passed and the turn's events; nothing is
// fogged. The rest of the master report (every force, every narrative,
// every event, every die) is the detail behind it.

// Glance is the turn at a glance.
type Glance struct {
	// Orders is every nation's order status, in the state's nation order.
	Orders []OrderStatus `json:",omitempty"`
	// Attention lists what waits on the referee: requests to rule on,
	// rulings that could not be applied, tabletop results refused, sheets
	// refused, nations without orders for several turns.
	Attention []string `json:",omitempty"`
	// Clashes are the battles, sea battles, assaults and sieges, in event
	// order.
	Clashes []Clash `json:",omitempty"`
	// Captures are the cities that changed hands; Losses the forces
	// disbanded or destroyed and the garrisons killed.
	Captures []string `json:",omitempty"`
	Losses   []string `json:",omitempty"`
	// Money is every nation whose treasury moved this turn.
	Money []MoneyChange `json:",omitempty"`
	// Treaties are those published or breached this turn; Rulings those
	// applied.
	Treaties []string `json:",omitempty"`
	Rulings  []string `json:",omitempty"`
}

// OrderStatus is one nation's orders for the turn resolved.
type OrderStatus struct {
	Nation game.NationID
	Name   string
	// Status is "orders", "orders, FINAL", "NMR: held on DEFEND" or
	// "eliminated".
	Status   string
	Received string `json:",omitempty"`
	Receipt  string `json:",omitempty"`
	From     string `json:",omitempty"`
	// Errors are the errors the checker found in the sheet in force (its
	// other lines stood); Refused counts the nation's sheets the checker
	// refused this turn.
	Errors  int `json:",omitempty"`
	Refused int `json:",omitempty"`
	// NMRTurns is how many turns in a row the nation has sent no orders,
	// when the daemon counts it a streak.
	NMRTurns int `json:",omitempty"`
}

// Clash is one fight of the turn in a line.
type Clash struct {
	// Kind is "battle", "tabletop battle", "sea battle", "assault",
	// "siege" or "surrender".
	Kind    string
	Place   string
	Sides   string
	Outcome string
}

// MoneyChange is one nation's treasury movement over the turn.
type MoneyChange struct {
	Nation game.NationID
	Name   string
	Change int
	Now    int
	// Why names what moved it ("taxes +400; fielding -120").
	Why string `json:",omitempty"`
}

// buildGlance reads the glance from the model built so far, the sheets and
// the events.
func buildGlance(m *hexmap.Map, st *engine.State, md *RefereeModel, in RefereeInput) *Glance {
	g := &Glance{}
	inForce := map[game.NationID]SheetLine{}
	refused := map[game.NationID]int{}
	for _, s := range md.Sheets {
		if s.Refused {
			refused[s.Nation]++
			continue
		}
		inForce[s.Nation] = s
	}
	resolved := len(in.Events) > 0
	for _, n := range st.Nations {
		o := OrderStatus{Nation: n.ID, Name: nationName(m, n.ID), Refused: refused[n.ID]}
		s, ok := inForce[n.ID]
		switch {
		case ok:
			o.Status, o.Received, o.Receipt, o.From, o.Errors = "orders", s.Received, s.Receipt, s.From, s.Errors
			if s.Final {
				o.Status = "orders, FINAL"
			}
		case n.Eliminated:
			o.Status = "eliminated"
		case resolved:
			o.Status = "NMR: held on DEFEND"
			o.NMRTurns = in.NMRStreaks[n.ID]
		default:
			continue // the opening: no orders were due
		}
		g.Orders = append(g.Orders, o)
		if o.NMRTurns > 0 {
			g.Attention = append(g.Attention, fmt.Sprintf("%s has sent no orders for %s in a row: find a new player or a caretaker, or let it go on holding.", o.Name, english.Count(o.NMRTurns, "turn")))
		}
	}
	for _, s := range md.Sheets {
		if s.Refused {
			from := ""
			if s.From != "" {
				from = " from " + s.From
			}
			g.Attention = append(g.Attention, fmt.Sprintf("A sheet for %s%s was refused (received %s); it changed nothing.", nationName(m, s.Nation), from, s.Received))
		}
	}
	for _, e := range in.Events {
		g.add(m, e)
	}
	for _, t := range md.Treasuries {
		lines := MoneyLedger(m, t.Nation, in.Events)
		if len(lines) == 0 {
			continue
		}
		mc := MoneyChange{Nation: t.Nation, Name: nationName(m, t.Nation), Now: t.Total}
		var why []string
		sums := map[string]int{}
		for _, l := range lines {
			mc.Change += l.Crowns
			if _, ok := sums[l.What]; !ok {
				why = append(why, l.What)
			}
			sums[l.What] += l.Crowns
		}
		for i, w := range why {
			why[i] = fmt.Sprintf("%s %+d", w, sums[w])
		}
		mc.Why = strings.Join(why, "; ")
		g.Money = append(g.Money, mc)
	}
	return g
}

// add files one event under the heading of the first page its kind
// declares (EventText.Glance): a clash as its row, anything else as the
// referee's sentence.
func (g *Glance) add(m *hexmap.Map, e engine.Event) {
	t := textFor(e)
	w := wordsFor(m, engine.Referee, e)
	switch t.Glance {
	case GlanceClash:
		if c, ok := t.Clash(w, e); ok {
			g.Clashes = append(g.Clashes, c)
		}
	case GlanceCapture:
		g.Captures = append(g.Captures, w.tell(e))
	case GlanceLoss:
		g.Losses = append(g.Losses, w.tell(e))
	case GlanceTreaty:
		g.Treaties = append(g.Treaties, w.tell(e))
	case GlanceRuling:
		g.Rulings = append(g.Rulings, w.tell(e))
	case GlanceAttention:
		g.Attention = append(g.Attention, w.tell(e))
	}
}

// RollGroup is the dice of one purpose of one step, in the order thrown,
// cut into runs: consecutive dice of the turn with the same subject and
// die.
type RollGroup struct {
	Step, Purpose string
	Count         int
	Runs          []RollRun
}

// RollRun is dice First..First+len(Results)-1 of the turn (numbered from 1),
// all thrown for one subject with one die, at most maxRun of them.
type RollRun struct {
	First   int
	Subject string
	Sides   int
	Results []int
}

// maxRun is the most dice a run holds, so that a run fits its cell of the
// appendix on one line.
const maxRun = 6

// RollGroups groups a turn's dice by step and purpose, the groups in the
// order their first die was thrown. Every die is in exactly one run.
func RollGroups(rolls []engine.Roll) []RollGroup {
	var out []RollGroup
	idx := map[[2]string]int{}
	last := map[[2]string]int{} // the index of the group's last die
	for i, r := range rolls {
		k := [2]string{r.Step, r.Purpose}
		gi, ok := idx[k]
		if !ok {
			gi = len(out)
			idx[k] = gi
			out = append(out, RollGroup{Step: r.Step, Purpose: r.Purpose})
		}
		g := &out[gi]
		g.Count++
		if n := len(g.Runs); n > 0 && last[k] == i-1 && g.Runs[n-1].Subject == r.Subject && g.Runs[n-1].Sides == r.Sides &&
			len(g.Runs[n-1].Results) < maxRun {
			g.Runs[n-1].Results = append(g.Runs[n-1].Results, r.Result)
		} else {
			g.Runs = append(g.Runs, RollRun{First: i + 1, Subject: r.Subject, Sides: r.Sides, Results: []int{r.Result}})
		}
		last[k] = i
	}
	return out
}

// String prints a run: "#12–15 F1.12: 3 2 6 6" (the die named when it is
// not die; die 0 names it always).
func (r RollRun) String(die int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d", r.First)
	if len(r.Results) > 1 {
		fmt.Fprintf(&b, "–%d", r.First+len(r.Results)-1)
	}
	if r.Subject != "" {
		b.WriteString(" " + r.Subject)
	}
	if r.Sides != die {
		fmt.Fprintf(&b, " d%d", r.Sides)
	}
	b.WriteString(":")
	for _, x := range r.Results {
		fmt.Fprintf(&b, " %d", x)
	}
	return b.String()
}

// die is the group's die when all its dice are alike, else 0.
func (g RollGroup) die() int {
	die := 0
	for i, r := range g.Runs {
		if i > 0 && r.Sides != die {
			return 0
		}
		die = r.Sides
	}
	return die
}
