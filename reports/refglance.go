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
	money := map[game.NationID]*MoneyChange{}
	for _, e := range in.Events {
		g.add(m, e)
		var n game.NationID
		switch x := e.(type) {
		case *engine.TreasuryChanged:
			n = x.Nation
		case *engine.TaxesCollected:
			n = x.Nation
		}
		if n != "" && money[n] == nil {
			money[n] = &MoneyChange{Nation: n, Name: nationName(m, n)}
		}
	}
	for _, t := range md.Treasuries {
		mc := money[t.Nation]
		if mc == nil {
			continue
		}
		lines := MoneyLedger(m, t.Nation, in.Events)
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
		mc.Now, mc.Why = t.Total, strings.Join(why, "; ")
		if len(lines) > 0 {
			g.Money = append(g.Money, *mc)
		}
	}
	return g
}

// add files one event under its heading of the glance.
func (g *Glance) add(m *hexmap.Map, e engine.Event) {
	name := func(n game.NationID) string { return nationName(m, n) }
	names := func(ns []game.NationID) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = name(n)
		}
		return strings.Join(s, ", ")
	}
	where := Where(m, e.Head().Place)
	switch x := e.(type) {
	case *engine.LandBattle:
		c := Clash{Kind: "battle", Place: where}
		if x.Model == "tabletop" {
			c.Kind = "tabletop battle"
		}
		var sides []string
		for _, s := range x.Sides {
			d := names(s.Nations) + " " + ids(s.Forces)
			if s.Commander != "" {
				d += " under " + s.Commander
			}
			sides = append(sides, fmt.Sprintf("%s (%s, %d fig.)", d, s.Stance, s.Figures))
		}
		c.Sides = strings.Join(sides, " v. ")
		c.Outcome = x.Outcome
		if x.Winner >= 0 && x.Winner < len(x.Sides) {
			c.Outcome = names(x.Sides[x.Winner].Nations) + " won (" + strings.ToLower(x.Outcome) + ")"
		}
		var lost []string
		for _, s := range x.Sides {
			lost = append(lost, fmt.Sprintf("%s %d", names(s.Nations), s.Lost))
		}
		c.Outcome += "; figures lost: " + strings.Join(lost, ", ")
		g.Clashes = append(g.Clashes, c)
	case *engine.SeaBattle:
		var sides []string
		for _, s := range x.Sides {
			sides = append(sides, fmt.Sprintf("%s %s (%s)", name(s.Nation), ids(s.Fleets), english.Count(s.Warships+s.DamagedWarships, "warship")))
		}
		out := "no winner"
		if x.Winner != "" {
			out = name(x.Winner) + " won"
		}
		var lost []string
		for _, s := range x.Sides {
			if n := s.Sunk + s.Captured; n > 0 {
				lost = append(lost, fmt.Sprintf("%s lost %d", name(s.Nation), n))
			}
		}
		if len(lost) > 0 {
			out += "; " + strings.Join(lost, ", ")
		}
		g.Clashes = append(g.Clashes, Clash{Kind: "sea battle", Place: where, Sides: strings.Join(sides, " v. "), Outcome: out})
	case *engine.AssaultResolved:
		c := Clash{Kind: "assault", Place: x.City, Sides: fmt.Sprintf("%s %s v. garrison %s", name(x.Nation), x.Force, ids(x.Defenders)),
			Outcome: fmt.Sprintf("%s (die %d, %s column)", x.Outcome, x.Die, x.Column)}
		g.Clashes = append(g.Clashes, c)
	case *engine.SiegeStatusChanged:
		if x.Status == x.Previous && x.Reason == "" {
			return
		}
		out := fmt.Sprintf("%s (was %s)", x.Status, x.Previous)
		if x.Reason != "" {
			out += ": " + x.Reason
		}
		sides := names(x.Besiegers)
		if x.Holder != "" {
			sides += " v. " + name(x.Holder)
		}
		g.Clashes = append(g.Clashes, Clash{Kind: "siege", Place: x.City, Sides: sides, Outcome: out})
	case *engine.Surrender:
		out := fmt.Sprintf("held (die %d, needed %d)", x.Die, x.Need)
		if x.Surrendered {
			out = fmt.Sprintf("surrendered (die %d, needed %d)", x.Die, x.Need)
		}
		g.Clashes = append(g.Clashes, Clash{Kind: "surrender", Place: x.City, Sides: names(x.Attackers) + " v. garrison " + ids(x.Garrison), Outcome: out})
	case *engine.CityCaptured:
		s := fmt.Sprintf("%s taken by %s", x.City, name(x.By))
		if x.From != "" {
			s += " from " + name(x.From)
		}
		if x.Recaptured {
			s += " (recaptured)"
		}
		g.Captures = append(g.Captures, s+".")
	case *engine.GarrisonKilled:
		g.Losses = append(g.Losses, fmt.Sprintf("The %s garrison of %s was killed (%s).", name(x.Nation), x.City, ids(x.Forces)))
	case *engine.ForceDisbanded:
		var what []string
		for _, c := range []struct {
			n    int
			noun string
		}{{x.Figures, "figure"}, {x.Guns, "gun"}, {x.Leaders, "leader"}} {
			if c.n > 0 {
				what = append(what, english.Count(c.n, c.noun))
			}
		}
		s := fmt.Sprintf("%s %s gone: %s", names(x.Nations), x.Force, x.Reason)
		if len(what) > 0 {
			s += " (" + strings.Join(what, ", ") + ")"
		}
		g.Losses = append(g.Losses, s+".")
	case *engine.TreatyPublished:
		g.Treaties = append(g.Treaties, fmt.Sprintf("%s “%s” published (%s).", x.Treaty, x.Title, names(x.Parties)))
	case *engine.TreatyBreachAnnounced:
		s := fmt.Sprintf("%s breached by %s against %s", x.Treaty, name(x.Offender), name(x.Aggrieved))
		if x.Ended {
			s += "; the treaty is ended"
		}
		g.Treaties = append(g.Treaties, s+".")
	case *engine.RulingApplied:
		r := x.What
		if x.Nation != "" {
			r = name(x.Nation) + ": " + r
		}
		g.Rulings = append(g.Rulings, r)
	case *engine.RulingNotApplied:
		g.Attention = append(g.Attention, fmt.Sprintf("A ruling (%s) was not applied: %s.", x.Effect, x.Reason))
	case *engine.SpecialRequested:
		g.Attention = append(g.Attention, fmt.Sprintf("%s asks (special action, line %d): %s", name(x.Nation), x.Line, x.Text))
	case *engine.TabletopRefused:
		g.Attention = append(g.Attention, fmt.Sprintf("The tabletop result for %s was refused and the engine fought the battle: %s.", Where(m, game.AtHex(x.Hex)), x.Reason))
	case *engine.VictoryDeclared:
		g.Attention = append(g.Attention, "Victory: "+plainOr(m, e, "a nation has won")+".")
	}
}

// plainOr is the plain sentence of e, or def.
func plainOr(m *hexmap.Map, e engine.Event, def string) string {
	if s := strings.TrimSuffix(Sentence(m, engine.Referee, e), "."); s != "" {
		return s
	}
	return def
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
