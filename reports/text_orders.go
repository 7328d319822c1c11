package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/internal/english"
)

// The words of the marches, voyages, supply, organisation and orders: the
// kinds a nation's report tells under "Marches, supply and orders" (the
// registry: eventtext.go). Most are one nation's own; the referee's
// sentence names it (Words.owned).

var orderTexts = []EventText{
	text[*engine.OrderIgnored]{Section: SectionOrders,
		Nation: orderIgnored, Referee: ownedBy(orderIgnored)}.entry(),
	text[*engine.ForceMoved]{Section: SectionOrders,
		Routine: func(x *engine.ForceMoved) bool { return len(x.Path) == 0 },
		Nation:  forceMoved, Referee: ownedBy(forceMoved)}.entry(),
	text[*engine.SeaMoved]{Section: SectionOrders,
		Routine: func(x *engine.SeaMoved) bool { return len(x.Path) == 0 },
		Nation:  seaMoved, Referee: ownedBy(seaMoved)}.entry(),
	text[*engine.MoveStopped]{Section: SectionOrders, Nation: moveStopped, Referee: ownedBy(moveStopped)}.entry(),
	text[*engine.RetreatBlocked]{Section: SectionOrders, Nation: retreatBlocked, Referee: ownedBy(retreatBlocked)}.entry(),
	text[*engine.SupplyTraced]{Section: SectionOrders,
		Routine: func(x *engine.SupplyTraced) bool { return x.Supplied },
		Nation:  supplyTraced, Referee: ownedBy(supplyTraced)}.entry(),
	text[*engine.Attrition]{Section: SectionOrders, Nation: attrition, Referee: ownedBy(attrition)}.entry(),
	text[*engine.ForceDisbanded]{Section: SectionOrders, Glance: GlanceLoss,
		Nation: forceDisbanded, Referee: ownedBy(forceDisbanded)}.entry(),
	text[*engine.ExhaustionRecovered]{Section: SectionOrders, Nation: exhaustionRecovered, Referee: ownedBy(exhaustionRecovered)}.entry(),
	text[*engine.Embarked]{Section: SectionOrders, Nation: embarked, Referee: ownedBy(embarked)}.entry(),
	text[*engine.Debarked]{Section: SectionOrders, Piece: "landing", Nation: debarked, Referee: ownedBy(debarked)}.entry(),
	text[*engine.ForceSplit]{Section: SectionOrders, Nation: forceSplit, Referee: ownedBy(forceSplit)}.entry(),
	text[*engine.ForcesMerged]{Section: SectionOrders, Nation: forcesMerged, Referee: ownedBy(forcesMerged)}.entry(),
	text[*engine.LeaderAssigned]{Section: SectionOrders, Nation: leaderAssigned, Referee: ownedBy(leaderAssigned)}.entry(),
	// Stances restated every turn are in the forces table, not news.
	text[*engine.StandingOrdersSet]{Section: SectionRecord, Nation: standingOrdersSet, Referee: ownedBy(standingOrdersSet)}.entry(),
	text[*engine.GarrisonSet]{Section: SectionOrders, Nation: garrisonSet, Referee: ownedBy(garrisonSet)}.entry(),
	text[*engine.DepotGranted]{Section: SectionOrders,
		Nation: func(w Words, x *engine.DepotGranted) string {
			if x.Withdrawn {
				return fmt.Sprintf("Depot %s no longer supplies %s.", x.Depot, w.nation(x.Nation))
			}
			return fmt.Sprintf("Depot %s supplies %s.", x.Depot, w.nation(x.Nation))
		},
		Referee: func(w Words, x *engine.DepotGranted) string {
			owner := "A"
			for _, n := range x.Nations {
				if n != x.Nation {
					owner = w.nation(n) + "'s"
				}
			}
			if x.Withdrawn {
				return fmt.Sprintf("%s depot %s no longer supplies %s.", owner, x.Depot, w.nation(x.Nation))
			}
			return fmt.Sprintf("%s depot %s now supplies %s.", owner, x.Depot, w.nation(x.Nation))
		}}.entry(),
	text[*engine.SpecialRequested]{Section: SectionOrders, Glance: GlanceAttention,
		Nation: func(w Words, x *engine.SpecialRequested) string {
			return fmt.Sprintf("%s asked the referee for a special action: %s", w.nation(x.Nation), sentenceEnd(x.Text))
		},
		Referee: func(w Words, x *engine.SpecialRequested) string {
			line := ""
			if x.Line > 0 {
				line = fmt.Sprintf(" (line %d)", x.Line)
			}
			return fmt.Sprintf("%s asks for a special action%s: %s", w.nation(x.Nation), line, sentenceEnd(x.Text))
		}}.entry(),
	text[*engine.FieldworksBuilt]{Section: SectionOrders, Nation: fieldworksBuilt, Referee: ownedBy(fieldworksBuilt)}.entry(),
	text[*engine.ShipsRepaired]{Section: SectionOrders, Nation: shipsRepaired, Referee: ownedBy(shipsRepaired)}.entry(),
	// The turn's end is in every report's title.
	text[*engine.TurnEnded]{Section: SectionRecord,
		Routine: func(*engine.TurnEnded) bool { return true },
		Nation:  turnEnded, Referee: turnEnded}.entry(),
}

// ownedBy is the referee's sentence of one nation's event: the nation's
// sentence, the nation named first.
func ownedBy[E engine.Event](f func(Words, E) string) func(Words, E) string {
	return func(w Words, e E) string { return w.owned(f(w, e)) }
}

func orderIgnored(w Words, x *engine.OrderIgnored) string {
	s := fmt.Sprintf("Order not carried out: %s — %s.", x.Order, x.Reason)
	if x.Line > 0 {
		s = fmt.Sprintf("Line %d: %s", x.Line, s)
	}
	return s
}

func forceMoved(w Words, x *engine.ForceMoved) string {
	if len(x.Path) == 0 {
		return fmt.Sprintf("%s stayed in %s.", x.Force, w.hex(x.From))
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
}

func seaMoved(w Words, x *engine.SeaMoved) string {
	if len(x.Path) == 0 {
		return fmt.Sprintf("%s stayed in %s.", x.Fleet, w.where(x.From))
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
}

func moveStopped(w Words, x *engine.MoveStopped) string {
	return fmt.Sprintf("%s stopped before %s: %s.", x.Force, x.Next, x.Reason)
}

func retreatBlocked(w Words, x *engine.RetreatBlocked) string {
	return fmt.Sprintf("%s could not retreat: %s.", x.Force, x.Reason)
}

func supplyTraced(w Words, x *engine.SupplyTraced) string {
	switch {
	case !x.Supplied:
		return fmt.Sprintf("%s is unsupplied: %s.", x.Force, x.Reason)
	case x.MP > 0:
		return fmt.Sprintf("%s is supplied from %s (%d MP away).", x.Force, x.Source, x.MP)
	}
	return fmt.Sprintf("%s is supplied from %s.", x.Force, x.Source)
}

func attrition(w Words, x *engine.Attrition) string {
	cause := x.Cause
	if cause == "supply" {
		cause = "lack of supply"
	}
	return fmt.Sprintf("%s lost to %s: %s.", x.Force, cause, lossText(x.Losses))
}

func forceDisbanded(w Words, x *engine.ForceDisbanded) string {
	var what []string
	for _, c := range []struct {
		n    int
		noun string
	}{{x.Figures, "figure"}, {x.Guns, "gun"}} {
		if c.n > 0 {
			what = append(what, english.Count(c.n, c.noun))
		}
	}
	switch {
	case len(x.LeaderNames) > 0:
		what = append(what, english.List(x.LeaderNames))
	case x.Leaders > 0:
		what = append(what, english.Count(x.Leaders, "leader"))
	}
	s := fmt.Sprintf("%s was lost (%s)", x.Force, x.Reason)
	if len(what) > 0 {
		s += " with " + english.List(what)
	}
	return s + "."
}

func exhaustionRecovered(w Words, x *engine.ExhaustionRecovered) string {
	return fmt.Sprintf("%s: %s recovered.", x.Force, english.Count(x.Figures, "exhausted figure"))
}

func embarked(w Words, x *engine.Embarked) string {
	return fmt.Sprintf("%s embarked on %s (%d of %d cargo points).", x.Force, x.Fleet, x.Cargo, x.Capacity)
}

func debarked(w Words, x *engine.Debarked) string {
	return fmt.Sprintf("%s went ashore from %s at %s.", x.Force, x.Fleet, w.hex(x.Hex))
}

func forceSplit(w Words, x *engine.ForceSplit) string {
	return fmt.Sprintf("%s was formed from %s.", x.New, x.Force)
}

func forcesMerged(w Words, x *engine.ForcesMerged) string {
	return fmt.Sprintf("%s joined %s.", x.Force, x.Into)
}

func leaderAssigned(w Words, x *engine.LeaderAssigned) string {
	if x.Detached {
		return fmt.Sprintf("%s left %s as a force of his own, %s.", x.Leader, x.From, x.To)
	}
	return fmt.Sprintf("%s went from %s to %s.", x.Leader, x.From, x.To)
}

func standingOrdersSet(w Words, x *engine.StandingOrdersSet) string {
	if x.Fleet { // FLEET force SEEK/AVOID: a fleet has no stance to stand on
		if x.Standing.AvoidBattle {
			return fmt.Sprintf("%s now avoids battle at sea where it can.", x.Force)
		}
		return fmt.Sprintf("%s now seeks battle at sea.", x.Force)
	}
	s := fmt.Sprintf("%s now stands on %s", x.Force, strings.ToLower(x.Stance.String()))
	if st := standing(x.Standing); st != "" {
		s += " (" + st + ")"
	}
	return s + "."
}

func garrisonSet(w Words, x *engine.GarrisonSet) string {
	return fmt.Sprintf("%s garrisons %s.", x.Force, x.City)
}

func fieldworksBuilt(w Words, x *engine.FieldworksBuilt) string {
	s := fmt.Sprintf("%s dug %d\" of fieldworks", x.Force, x.Inches)
	if x.Asked > x.Inches {
		s += fmt.Sprintf(" (%d\" asked; its infantry can dig %d\")", x.Asked, x.Limit)
	}
	if x.Cost > 0 {
		s += " for " + english.Count(x.Cost, "crown")
	}
	return s + "."
}

func shipsRepaired(w Words, x *engine.ShipsRepaired) string {
	var what []string
	if x.Warships > 0 {
		what = append(what, english.Count(x.Warships, "warship"))
	}
	if x.Transports > 0 {
		what = append(what, english.Count(x.Transports, "transport"))
	}
	if len(what) == 0 {
		return fmt.Sprintf("%s's damaged ships were repaired in port for %s.", x.Fleet, english.Count(x.Cost, "crown"))
	}
	return fmt.Sprintf("%s's damaged %s repaired in port for %s.", x.Fleet,
		english.List(what)+" "+english.Agree(x.Warships+x.Transports, "was", "were"), english.Count(x.Cost, "crown"))
}

func turnEnded(w Words, x *engine.TurnEnded) string {
	if x.YearEnd {
		return fmt.Sprintf("Turn %d ended; the orders are now for Turn %d, the year-end.", x.Turn, x.Next)
	}
	return fmt.Sprintf("Turn %d ended; the orders are now for Turn %d.", x.Turn, x.Next)
}
