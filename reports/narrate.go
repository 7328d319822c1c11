package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
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
		s := plainSentence(m, nation, e)
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
			what = l.Gun.String()
		} else {
			what = fmt.Sprintf("%s %s", l.Grade, l.Arm)
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

func plainSentence(m *hexmap.Map, nation game.NationID, e engine.Event) string {
	tick := func(t int) string {
		switch {
		case t <= 0:
			return "at the start of the month"
		case t >= engine.TicksPerTurn:
			return "at the end of the month"
		}
		return fmt.Sprintf("%d/6 through the month", t*6/engine.TicksPerTurn)
	}
	nations := func(ns []game.NationID) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = nationName(m, n)
		}
		return strings.Join(s, " and ")
	}
	switch x := e.(type) {
	case *engine.SeaBattle:
		var fleets []string
		for _, sd := range x.Sides {
			fleets = append(fleets, fmt.Sprintf("%s (%s)", nationName(m, sd.Nation), plural(sd.Warships+sd.DamagedWarships, "warship", "warships")))
		}
		out := fmt.Sprintf("The fleets of %s fought %s (%s column, die %d", strings.Join(fleets, " and "), tick(x.Tick), x.Column, x.Die)
		if x.WeatherGauge != "" {
			out += fmt.Sprintf("; %s held the weather gauge", nationName(m, x.WeatherGauge))
		}
		out += "): "
		if x.Winner != "" {
			out += nationName(m, x.Winner) + " won."
		} else {
			out += "an exchange, neither side won."
		}
		for _, sd := range x.Sides {
			var lost []string
			for _, c := range []struct {
				n    int
				what string
			}{{sd.Sunk, "sunk"}, {sd.Captured, "taken"}, {sd.Damaged, "damaged"}} {
				if c.n > 0 {
					lost = append(lost, fmt.Sprintf("%d %s", c.n, c.what))
				}
			}
			if sd.TransportsCaptured > 0 {
				lost = append(lost, plural(sd.TransportsCaptured, "transport taken", "transports taken"))
			}
			if len(lost) > 0 {
				out += fmt.Sprintf(" %s: %s.", nationName(m, sd.Nation), strings.Join(lost, ", "))
			}
		}
		if !x.EscapedTo.IsZero() {
			out += " The beaten fleets escaped to " + Where(m, x.EscapedTo) + "."
		}
		return out
	case *engine.SiegeStatusChanged:
		switch {
		case x.Reason != "" && x.Status == game.NotBesieged:
			return fmt.Sprintf("Before %s: %s.", x.City, x.Reason)
		case x.Status == x.Previous:
			return fmt.Sprintf("%s stays %s by %s.", x.City, x.Status, nations(x.Besiegers))
		default:
			s := fmt.Sprintf("%s is now %s by %s (it was %s).", x.City, x.Status, nations(x.Besiegers), x.Previous)
			if x.Reason != "" {
				s += " " + strings.ToUpper(x.Reason[:1]) + x.Reason[1:] + "."
			}
			return s
		}
	case *engine.SiegeLosses:
		side := "the garrison"
		if x.Attacker {
			side = "the besiegers"
		}
		if l := lossText(x.Losses); l != "" {
			return fmt.Sprintf("Siege losses of %s at %s: %s.", side, x.City, l)
		}
		return ""
	case *engine.Breach:
		if x.Breaches > x.Before {
			return fmt.Sprintf("The heavy guns before %s made %s in the walls (now %d).", x.City, plural(x.Breaches-x.Before, "breach", "breaches"), x.Breaches)
		}
		return fmt.Sprintf("The heavy guns before %s made no breach (the walls have %d).", x.City, x.Breaches)
	case *engine.Surrender:
		if x.Surrendered {
			return fmt.Sprintf("The garrison of %s surrendered after the first breach (die %d, needed %d or less).", x.City, x.Die, x.Need)
		}
		return fmt.Sprintf("The garrison of %s refused to surrender (die %d, needed %d or less).", x.City, x.Die, x.Need)
	case *engine.WallsRepaired:
		return fmt.Sprintf("The walls of %s were repaired.", x.City)
	case *engine.CounterBattery:
		who := "The garrison's"
		if x.Attacker {
			who = "The besiegers'"
		}
		return fmt.Sprintf("%s guns fired on the enemy's batteries at %s: %s.", who, x.City, plural(x.Hits, "gun destroyed", "guns destroyed"))
	case *engine.AssaultResolved:
		s := fmt.Sprintf("%s stormed %s with %d infantry (odds column %s, die %d", nationName(m, x.Nation), x.City, x.Infantry, x.Column, x.Die)
		if x.Breaches > 0 {
			s += fmt.Sprintf(" +%d for breaches", x.Breaches)
		}
		s += "): " + x.Outcome + "."
		return s
	case *engine.Contact:
		switch x.Outcome {
		case "battle":
			return fmt.Sprintf("Forces %s met %s and battle was joined.", ids(x.Forces), tick(x.Tick))
		case "standoff":
			return fmt.Sprintf("Forces %s met %s; both stood on the defensive and no battle was fought.", ids(x.Forces), tick(x.Tick))
		default:
			return fmt.Sprintf("Forces %s met %s (%s).", ids(x.Forces), tick(x.Tick), x.Outcome)
		}
	case *engine.Overrun:
		s := fmt.Sprintf("%s's %s overran %s's %s at %d:1 (die %d, %s killed by the defenders before the end).",
			nationName(m, x.ByNation), ids(x.By), nationName(m, x.OverrunNation), ids(x.Overrun), x.Odds, x.Die, plural(x.Damage, "figure", "figures"))
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		return s
	case *engine.CavalrySlowed:
		s := fmt.Sprintf("Cavalry of %s caught %s and forced it to give battle.", x.By, x.Force)
		if x.Cavalry > 0 {
			s += fmt.Sprintf(" %d cavalry figures rode ahead.", x.Cavalry)
		}
		return s
	case *engine.SlowingRefused:
		s := fmt.Sprintf("%s, caught by the cavalry of %s, marched on and lost %s.", x.Force, x.By, plural(x.Killed, "figure", "figures"))
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		return s
	case *engine.Filtered:
		return fmt.Sprintf("Grenzers of %s slipped past %s.", x.Force, ids(x.Past))
	case *engine.RetreatedBeforeBattle:
		s := fmt.Sprintf("%s retreated from %s to %s rather than face %s.", x.Force, x.From, x.To, ids(x.Enemy))
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		if x.Exhausted > 0 {
			s += fmt.Sprintf(" %s exhausted.", plural(x.Exhausted, "figure", "figures"))
		}
		return s
	case *engine.Pursued:
		return fmt.Sprintf("%s pursued %s toward %s.", x.Force, x.Target, x.Toward)
	case *engine.SeaContact:
		if x.Battle {
			return fmt.Sprintf("Fleets %s met and a sea battle follows.", ids(x.Fleets))
		}
		return fmt.Sprintf("Fleets %s sighted each other; no battle.", ids(x.Fleets))
	case *engine.LandingRefused:
		return fmt.Sprintf("%s could not land from %s at %s: the odds were %d:1, short of what a landing needs.", x.Force, x.Fleet, x.Hex, x.Odds)
	case *engine.GarrisonKilled:
		s := fmt.Sprintf("The garrison of %s (%s) fell below the minimum and was killed by the townsfolk.", x.City, ids(x.Forces))
		if x.Killed > 0 {
			s += " " + plural(x.Killed, "figure was lost.", "figures were lost.")
		}
		return s
	case *engine.EngagementPending:
		var sides []string
		for _, sd := range x.Sides {
			var fs []string
			for _, f := range sd.Forces {
				fs = append(fs, forceLine(f.Force))
			}
			sides = append(sides, fmt.Sprintf("%s (%s, PV %d, %d fighting figures, SP %d): %s",
				nationName(m, sd.Nation), sd.Stance, sd.PV, sd.FightingFigures, sd.ScoutingPoints, strings.Join(fs, "; ")))
		}
		return fmt.Sprintf("Battle to fight in %s terrain, %s: %s.", x.Terrain, tick(x.Tick), strings.Join(sides, " — against — "))
	case *engine.SeaEngagementPending:
		var sides []string
		for _, sd := range x.Sides {
			sides = append(sides, fmt.Sprintf("%s: %s, %s", nationName(m, sd.Nation), plural(sd.Warships, "warship", "warships"), plural(sd.Transports, "transport", "transports")))
		}
		return "Sea battle to fight: " + strings.Join(sides, " — against — ") + "."
	}
	return fmt.Sprintf("%s.", splitCamel(e.Kind()))
}

// forceLine prints a force's contents on one line: "E1: 48 C infantry, 12
// B light-cavalry, 4 field-gun; Keith".
func forceLine(f game.Force) string {
	var parts []string
	for _, t := range f.Troops {
		parts = append(parts, troopText(t))
	}
	for _, g := range f.Guns {
		parts = append(parts, fmt.Sprintf("%d %s", g.Count, g.Kind))
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

func movementLine(m *hexmap.Map, e engine.Event) string {
	switch x := e.(type) {
	case *engine.ForceMoved:
		if len(x.Path) == 0 {
			return ""
		}
		hs := []string{x.From.String()}
		for _, h := range x.Path {
			hs = append(hs, h.String())
		}
		s := fmt.Sprintf("%s marched %s (%d of %d MP).", x.Force, strings.Join(hs, " → "), x.MP, x.MA)
		if x.Stopped != "" {
			s += " Stopped: " + x.Stopped + "."
		}
		return s
	case *engine.SeaMoved:
		if len(x.Path) == 0 {
			return ""
		}
		ps := []string{x.From.String()}
		for _, p := range x.Path {
			ps = append(ps, p.String())
		}
		s := fmt.Sprintf("%s sailed %s (%d of %d MP).", x.Fleet, strings.Join(ps, " → "), x.MP, x.MA)
		if x.Stopped != "" {
			s += " Stopped: " + x.Stopped + "."
		}
		return s
	case *engine.MoveStopped:
		return fmt.Sprintf("%s stopped before %s: %s.", x.Force, x.Next, x.Reason)
	case *engine.OrderIgnored:
		s := fmt.Sprintf("Order not carried out: %s — %s.", x.Order, x.Reason)
		if x.Line > 0 {
			s = fmt.Sprintf("Line %d: %s", x.Line, s)
		}
		return s
	case *engine.SupplyTraced:
		if x.Supplied {
			return ""
		}
		return fmt.Sprintf("%s is unsupplied: %s.", x.Force, x.Reason)
	case *engine.Attrition:
		cause := x.Cause
		if cause == "supply" {
			cause = "lack of supply"
		}
		return fmt.Sprintf("%s lost to %s: %s.", x.Force, cause, lossText(x.Losses))
	case *engine.ForceDisbanded:
		return fmt.Sprintf("%s was lost (%s): %s, %s, %s.", x.Force, x.Reason, plural(x.Figures, "figure", "figures"), plural(x.Guns, "gun", "guns"), plural(x.Leaders, "leader", "leaders"))
	case *engine.Embarked:
		return fmt.Sprintf("%s embarked on %s (%d of %d cargo points).", x.Force, x.Fleet, x.Cargo, x.Capacity)
	case *engine.Debarked:
		return fmt.Sprintf("%s went ashore from %s at %s.", x.Force, x.Fleet, x.Hex)
	case *engine.ForceSplit:
		return fmt.Sprintf("%s was formed from %s.", x.New, x.Force)
	case *engine.ForcesMerged:
		return fmt.Sprintf("%s joined %s.", x.Force, x.Into)
	case *engine.LeaderAssigned:
		return fmt.Sprintf("%s went from %s to %s.", x.Leader, x.From, x.To)
	case *engine.GarrisonSet:
		return fmt.Sprintf("%s garrisons %s.", x.Force, x.City)
	case *engine.DepotGranted:
		if x.Withdrawn {
			return fmt.Sprintf("Depot %s no longer supplies %s.", x.Depot, nationName(m, x.Nation))
		}
		return fmt.Sprintf("Depot %s supplies %s.", x.Depot, nationName(m, x.Nation))
	case *engine.SpecialRequested:
		return fmt.Sprintf("Special action sent to the referee: %s", x.Text)
	case *engine.ExhaustionRecovered:
		return fmt.Sprintf("%s: %d exhausted figures recovered.", x.Force, x.Figures)
	case *engine.RetreatBlocked:
		return fmt.Sprintf("%s could not retreat: %s.", x.Force, x.Reason)
	case *engine.StandingOrdersSet, *engine.TurnEnded, *engine.CityCaptured, *engine.CityReverted, *engine.Scouted:
		return ""
	}
	return splitCamel(e.Kind()) + "."
}
