package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// The words of money, the year-end, treaties and the referee's rulings
// (the registry: eventtext.go). These sentences name their nations
// already, so the referee's are the nations' but where a nation is not
// named (a ruling's).

var yearEndTexts = []EventText{
	text[*engine.TreasuryChanged]{Section: SectionOrders, Nation: treasuryChanged, Referee: treasuryChanged,
		// A fielding or a purchase told with the treasury that paid for it.
		WithNext: func(w Words, x *engine.TreasuryChanged, next engine.Event) (string, bool) {
			switch y := next.(type) {
			case *engine.UnitsFielded:
				if x.Why == "field" && y.Nation == x.Nation && y.Cost == -x.Change {
					return withBalance(w, y, x), true
				}
			case *engine.UnitsBought:
				if x.Why == "buy" && y.Nation == x.Nation && y.Cost == -x.Change {
					return withBalance(w, y, x), true
				}
			}
			return "", false
		}}.entry(),
	text[*engine.TaxesCollected]{Section: SectionOrders, Nation: taxesCollected, Referee: taxesCollected,
		// The year's taxes told with the treasury they went into.
		WithNext: func(w Words, x *engine.TaxesCollected, next engine.Event) (string, bool) {
			if y, ok := next.(*engine.TreasuryChanged); ok && y.Why == "taxes" && y.Nation == x.Nation && y.Change == x.Collected {
				return withBalance(w, x, y), true
			}
			return "", false
		}}.entry(),
	text[*engine.CapitolDesignated]{Section: SectionOrders, Nation: capitolDesignated, Referee: capitolDesignated}.entry(),
	text[*engine.ProvinceLoyal]{Section: SectionOrders, Nation: provinceLoyal, Referee: provinceLoyal}.entry(),
	text[*engine.UnitsFielded]{Section: SectionOrders, Nation: unitsFielded, Referee: unitsFielded}.entry(),
	text[*engine.DepotLost]{Section: SectionOrders, Nation: depotLost, Referee: depotLost}.entry(),
	text[*engine.UnitsBought]{Section: SectionOrders, Nation: unitsBought, Referee: unitsBought}.entry(),
	text[*engine.UnitsTransferred]{Section: SectionOrders, Nation: unitsTransferred, Referee: unitsTransferred}.entry(),
	text[*engine.TaxBasesCounted]{Section: SectionOrders, Nation: taxBasesCounted, Referee: taxBasesCounted}.entry(),
	text[*engine.VictoryDeclared]{Section: SectionNews, Headline: true, Glance: GlanceAttention,
		Nation: victoryDeclared, Referee: victoryDeclared}.entry(),
	text[*engine.TreatyPublished]{Section: SectionOrders, Headline: true, Glance: GlanceTreaty,
		Nation: treatyPublished, Referee: treatyPublished}.entry(),
	text[*engine.TreatyBreachAnnounced]{Section: SectionOrders, Glance: GlanceTreaty,
		Nation: treatyBreach, Referee: treatyBreach}.entry(),
	text[*engine.RulingApplied]{Section: SectionOrders, Glance: GlanceRuling,
		Nation: func(w Words, x *engine.RulingApplied) string {
			return ruling(w, x.Token, "") + ": " + sentenceEnd(x.What)
		},
		Referee: func(w Words, x *engine.RulingApplied) string {
			return ruling(w, x.Token, x.Nation) + ": " + sentenceEnd(x.What)
		}}.entry(),
	text[*engine.RulingNotApplied]{Section: SectionOrders, Glance: GlanceAttention,
		Nation: func(w Words, x *engine.RulingNotApplied) string {
			return fmt.Sprintf("%s could not be carried out (%s): %s", ruling(w, x.Token, ""), x.Effect, sentenceEnd(x.Reason))
		},
		Referee: func(w Words, x *engine.RulingNotApplied) string {
			return fmt.Sprintf("%s could not be carried out (%s): %s", ruling(w, x.Token, x.Nation), x.Effect, sentenceEnd(x.Reason))
		}}.entry(),
}

// withBalance tells a payment (or the year's taxes) with the treasury that
// paid for it (or received them), before and after, in one line — rather
// than the same crowns twice, once as the order and once as the treasury's
// change.
func withBalance(w Words, e engine.Event, tc *engine.TreasuryChanged) string {
	return strings.TrimSuffix(w.tell(e), ".") + fmt.Sprintf("; the treasury in %s went from %d to %d.", tc.City, tc.Before, tc.After)
}

// treasuryChanged tells crowns entering or leaving a treasury, with what
// for and the treasury before and after.
func treasuryChanged(w Words, x *engine.TreasuryChanged) string {
	who := w.nation(x.Nation)
	amount := english.Count(abs(x.Change), "crown")
	balance := fmt.Sprintf(" (%d → %d)", x.Before, x.After)
	switch {
	case x.Why == "taxes":
		return fmt.Sprintf("%s's treasury in %s received %s of taxes%s.", who, x.City, amount, balance)
	case x.Why == "field" && x.Change < 0:
		return fmt.Sprintf("%s paid %s from its treasury in %s to field %s%s.", who, amount, x.City, orNone(x.What), balance)
	case x.Why == "buy" && x.Change < 0:
		return fmt.Sprintf("%s paid %s from its treasury in %s for %s%s.", who, amount, x.City, orNone(x.What), balance)
	}
	verb := "received"
	if x.Change < 0 {
		verb = "lost"
	}
	s := fmt.Sprintf("%s's treasury in %s %s %s (%s", who, x.City, verb, amount, x.Why)
	if x.What != "" {
		s += ": " + x.What
	}
	return s + ")" + balance + "."
}

func taxesCollected(w Words, x *engine.TaxesCollected) string {
	s := fmt.Sprintf("%s collected %s of taxes from %s", w.nation(x.Nation), english.Count(x.Collected, "crown"), english.Count(len(x.Cities), "city"))
	if x.CapitolLost && x.Collected != x.Gross {
		s += fmt.Sprintf(" (three quarters of %d: its capitol is in enemy hands)", x.Gross)
	}
	return s + " into its treasury in " + x.Treasury + "."
}

func capitolDesignated(w Words, x *engine.CapitolDesignated) string {
	switch x.By {
	case "regained":
		return fmt.Sprintf("%s regained its capitol %s; its temporary capitol is given up.", w.nation(x.Nation), x.City)
	case "default":
		return fmt.Sprintf("%s had no temporary capitol it held, so %s was made its temporary capitol.", w.nation(x.Nation), x.City)
	}
	return fmt.Sprintf("%s made %s its temporary capitol.", w.nation(x.Nation), x.City)
}

func provinceLoyal(w Words, x *engine.ProvinceLoyal) string {
	before := "neutral"
	if x.Before != "" {
		before = "loyal to " + w.nation(x.Before)
	}
	return fmt.Sprintf("The cities of %s (%s), %s until now, turned loyal to %s.", x.Province, english.List(x.Cities), before, w.nation(x.Nation))
}

func unitsFielded(w Words, x *engine.UnitsFielded) string {
	what := string(x.Force)
	if x.Depot != "" {
		what = "depot " + x.Depot
	}
	s := fmt.Sprintf("%s fielded %s for another year for %s", w.nation(x.Nation), what, english.Count(x.Cost, "crown"))
	switch x.By {
	case "all":
		s += " (FIELD ALL)"
	case "default":
		s += " (kept by default: no order said otherwise)"
	}
	return s + "."
}

func depotLost(w Words, x *engine.DepotLost) string {
	return fmt.Sprintf("%s's depot %s is gone: %s.", w.nation(x.Nation), x.Depot, x.Reason)
}

func unitsBought(w Words, x *engine.UnitsBought) string {
	s := fmt.Sprintf("%s bought %s in %s for %s", w.nation(x.Nation), x.What, x.City, english.Count(x.Cost, "crown"))
	switch {
	case x.Force != "":
		s += " (" + string(x.Force) + ")"
	case x.Depot != "":
		s += " (depot " + x.Depot + ")"
	}
	return s + "."
}

func unitsTransferred(w Words, x *engine.UnitsTransferred) string {
	s := fmt.Sprintf("%s gave %s to %s", w.nation(x.From), x.What, w.nation(x.To))
	if x.NewForce != "" {
		s += " (now its force " + string(x.NewForce) + ")"
	}
	return s + "."
}

func taxBasesCounted(w Words, x *engine.TaxBasesCounted) string {
	var bases []string
	for _, b := range x.Bases {
		bases = append(bases, fmt.Sprintf("%s %d", w.nation(b.Nation), b.TaxBase))
	}
	return fmt.Sprintf("The tax bases at the end of %d: %s.", x.Year, orNone(strings.Join(bases, ", ")))
}

func victoryDeclared(w Words, x *engine.VictoryDeclared) string {
	var ns []string
	for _, n := range x.Winners {
		ns = append(ns, w.nation(n))
	}
	switch {
	case len(ns) == 0:
		return fmt.Sprintf("At the end of %d several nations reached the victory tax base with the same; the game goes on.", x.Year)
	case len(ns) > 1:
		return fmt.Sprintf("%s share the victory of %d.", english.List(ns), x.Year)
	}
	return fmt.Sprintf("%s has won the game at the end of %d.", ns[0], x.Year)
}

func treatyPublished(w Words, x *engine.TreatyPublished) string {
	return fmt.Sprintf("Treaty %s, %q, between %s was published.", x.Treaty, x.Title, w.nations(x.Parties))
}

func treatyBreach(w Words, x *engine.TreatyBreachAnnounced) string {
	if x.Ended {
		return fmt.Sprintf("%s ended %s's penalty for breaching treaty %s.", w.nation(x.Aggrieved), w.nation(x.Offender), x.Treaty)
	}
	return fmt.Sprintf("The referee found %s in breach of treaty %s against %s.", w.nation(x.Offender), x.Treaty, w.nation(x.Aggrieved))
}

// ruling names a ruling: "The referee's ruling R12c131", for the referee
// with the nation it concerns.
func ruling(w Words, token string, n game.NationID) string {
	s := "The referee's ruling"
	if token != "" {
		s += " " + token
	}
	if n != "" {
		s += " for " + w.nation(n)
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
