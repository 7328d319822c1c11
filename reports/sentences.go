package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// Sentence tells one event in a sentence for people, with its amounts, its
// places and the nations by name: "Morgronskia paid 597 crowns from its
// treasury in Morgrad to field M1 (616 → 19)." It is the one place each
// event kind's sentence is written; the nation's marches and orders, the
// plain narratives of encounters, the referee's list of every event and the
// daemon's plain-text summary all print it. viewer is the nation the
// sentence is for (engine.Referee for the referee); the event must be as
// that viewer may see it (engine.EventsFor). m may be nil (places and
// nations are then printed by their IDs).
func Sentence(m *hexmap.Map, viewer game.NationID, e engine.Event) string {
	s, _ := sentence(m, viewer, e)
	return s
}

// sentence is Sentence; told says whether the event's kind has a sentence
// of its own (TestEveryEventKindHasASentence), rather than its kind's name.
func sentence(m *hexmap.Map, viewer game.NationID, e engine.Event) (s string, told bool) {
	w := words{m: m}
	switch x := e.(type) {
	// Marches, voyages and orders.
	case *engine.OrderIgnored:
		s := fmt.Sprintf("Order not carried out: %s — %s.", x.Order, x.Reason)
		if x.Line > 0 {
			s = fmt.Sprintf("Line %d: %s", x.Line, s)
		}
		return s, true
	case *engine.ForceMoved:
		if len(x.Path) == 0 {
			return fmt.Sprintf("%s stayed in %s.", x.Force, w.hex(x.From)), true
		}
		hs := []string{x.From.String()}
		for _, h := range x.Path {
			hs = append(hs, h.String())
		}
		s := fmt.Sprintf("%s marched %s (%d of %d MP).", x.Force, strings.Join(hs, " → "), x.MP, x.MA)
		if x.Stopped != "" {
			s += " Stopped: " + x.Stopped + "."
		}
		return s, true
	case *engine.SeaMoved:
		if len(x.Path) == 0 {
			return fmt.Sprintf("%s stayed in %s.", x.Fleet, w.where(x.From)), true
		}
		ps := []string{x.From.String()}
		for _, p := range x.Path {
			ps = append(ps, p.String())
		}
		s := fmt.Sprintf("%s sailed %s (%d of %d MP).", x.Fleet, strings.Join(ps, " → "), x.MP, x.MA)
		if x.Stopped != "" {
			s += " Stopped: " + x.Stopped + "."
		}
		return s, true
	case *engine.MoveStopped:
		return fmt.Sprintf("%s stopped before %s: %s.", x.Force, x.Next, x.Reason), true
	case *engine.SupplyTraced:
		switch {
		case !x.Supplied:
			return fmt.Sprintf("%s is unsupplied: %s.", x.Force, x.Reason), true
		case x.MP > 0:
			return fmt.Sprintf("%s is supplied from %s (%d MP away).", x.Force, x.Source, x.MP), true
		}
		return fmt.Sprintf("%s is supplied from %s.", x.Force, x.Source), true
	case *engine.Attrition:
		cause := x.Cause
		if cause == "supply" {
			cause = "lack of supply"
		}
		return fmt.Sprintf("%s lost to %s: %s.", x.Force, cause, lossText(x.Losses)), true
	case *engine.ForceDisbanded:
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
		return s + ".", true
	case *engine.Embarked:
		return fmt.Sprintf("%s embarked on %s (%d of %d cargo points).", x.Force, x.Fleet, x.Cargo, x.Capacity), true
	case *engine.Debarked:
		return fmt.Sprintf("%s went ashore from %s at %s.", x.Force, x.Fleet, w.hex(x.Hex)), true
	case *engine.ForceSplit:
		return fmt.Sprintf("%s was formed from %s.", x.New, x.Force), true
	case *engine.ForcesMerged:
		return fmt.Sprintf("%s joined %s.", x.Force, x.Into), true
	case *engine.LeaderAssigned:
		return fmt.Sprintf("%s went from %s to %s.", x.Leader, x.From, x.To), true
	case *engine.StandingOrdersSet:
		s := fmt.Sprintf("%s now stands on %s", x.Force, strings.ToLower(x.Stance.String()))
		if st := standing(x.Standing); st != "" {
			s += " (" + st + ")"
		}
		return s + ".", true
	case *engine.GarrisonSet:
		return fmt.Sprintf("%s garrisons %s.", x.Force, x.City), true
	case *engine.DepotGranted:
		if x.Withdrawn {
			return fmt.Sprintf("Depot %s no longer supplies %s.", x.Depot, w.nation(x.Nation)), true
		}
		return fmt.Sprintf("Depot %s supplies %s.", x.Depot, w.nation(x.Nation)), true
	case *engine.SpecialRequested:
		return fmt.Sprintf("%s asked the referee for a special action: %s", w.nation(x.Nation), sentenceEnd(x.Text)), true
	case *engine.ExhaustionRecovered:
		return fmt.Sprintf("%s: %s recovered.", x.Force, english.Count(x.Figures, "exhausted figure")), true
	case *engine.RetreatBlocked:
		return fmt.Sprintf("%s could not retreat: %s.", x.Force, x.Reason), true
	case *engine.FieldworksBuilt:
		s := fmt.Sprintf("%s dug %d\" of fieldworks", x.Force, x.Inches)
		if x.Asked > x.Inches {
			s += fmt.Sprintf(" (%d\" asked; its infantry can dig %d\")", x.Asked, x.Limit)
		}
		if x.Cost > 0 {
			s += " for " + english.Count(x.Cost, "crown")
		}
		return s + ".", true
	case *engine.ShipsRepaired:
		var what []string
		if x.Warships > 0 {
			what = append(what, english.Count(x.Warships, "warship"))
		}
		if x.Transports > 0 {
			what = append(what, english.Count(x.Transports, "transport"))
		}
		return fmt.Sprintf("%s's damaged %s repaired in port for %s.", x.Fleet,
			english.List(what)+" "+english.Agree(x.Warships+x.Transports, "was", "were"), english.Count(x.Cost, "crown")), true
	case *engine.TurnEnded:
		if x.YearEnd {
			return fmt.Sprintf("Turn %d ended; the orders are now for Turn %d, the year-end.", x.Turn, x.Next), true
		}
		return fmt.Sprintf("Turn %d ended; the orders are now for Turn %d.", x.Turn, x.Next), true

	// Contacts, battles and their preliminaries.
	case *engine.Contact:
		switch x.Outcome {
		case "battle":
			return fmt.Sprintf("Forces %s met %s and battle was joined.", ids(x.Forces), monthTick(x.Tick)), true
		case "standoff":
			return fmt.Sprintf("Forces %s met %s; both stood on the defensive and no battle was fought.", ids(x.Forces), monthTick(x.Tick)), true
		case "walls":
			return fmt.Sprintf("Forces %s met %s; the garrison of %s stayed behind its walls, so no battle was fought and the attackers halted before the city.", ids(x.Forces), monthTick(x.Tick), x.City), true
		}
		return fmt.Sprintf("Forces %s met %s (%s).", ids(x.Forces), monthTick(x.Tick), x.Outcome), true
	case *engine.Scouted:
		s := fmt.Sprintf("%s's scouts (%s) looked at %s of %s", w.nation(x.Nation), ids(x.Scouts), x.Target, w.nation(x.TargetNation))
		if where := w.where(x.Learned.At); where != "" {
			s += " at " + where
		}
		s += fmt.Sprintf(" and saw it at the %s level", x.LevelName)
		if d := describeForeign(m, x.Learned); d != "" {
			s += ": " + d
		}
		return s + ".", true
	case *engine.Overrun:
		s := fmt.Sprintf("%s's %s overran %s's %s at %d:1 (die %d; the defenders killed %s before the end).",
			w.nation(x.ByNation), ids(x.By), w.nation(x.OverrunNation), ids(x.Overrun), x.Odds, x.Die, english.Count(x.Damage, "figure"))
		if g := GeneralFates(x.Generals); g != "" {
			s += " " + g + "."
		}
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		return s, true
	case *engine.CavalrySlowed:
		s := fmt.Sprintf("Cavalry of %s caught %s and forced it to give battle.", x.By, x.Force)
		if x.Cavalry > 0 {
			s += " " + english.Count(x.Cavalry, "cavalry figure") + " rode ahead."
		}
		return s, true
	case *engine.SlowingRefused:
		s := fmt.Sprintf("%s, caught by the cavalry of %s, marched on and lost %s.", x.Force, x.By, english.Count(x.Killed, "figure"))
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		return s, true
	case *engine.Filtered:
		return fmt.Sprintf("Grenzers of %s slipped past %s.", x.Force, ids(x.Past)), true
	case *engine.RetreatedBeforeBattle:
		s := fmt.Sprintf("%s retreated from %s to %s rather than face %s.", x.Force, x.From, x.To, ids(x.Enemy))
		if l := lossText(x.Losses); l != "" {
			s += " Losses: " + l + "."
		}
		if x.Exhausted > 0 {
			s += " " + english.Count(x.Exhausted, "figure") + " exhausted."
		}
		return s, true
	case *engine.Pursued:
		return fmt.Sprintf("%s pursued %s toward %s.", x.Force, x.Target, x.Toward), true
	case *engine.EngagementPending:
		var sides []string
		for _, sd := range x.Sides {
			var fs []string
			for _, f := range sd.Forces {
				fs = append(fs, forceLine(f.Force))
			}
			sides = append(sides, fmt.Sprintf("%s (%s, PV %d, %s, SP %d): %s",
				w.nation(sd.Nation), sd.Stance, sd.PV, english.Count(sd.FightingFigures, "fighting figure"), sd.ScoutingPoints, strings.Join(fs, "; ")))
		}
		return fmt.Sprintf("Battle to fight in %s terrain, %s: %s.", x.Terrain, monthTick(x.Tick), strings.Join(sides, " — against — ")), true
	case *engine.LandBattle:
		return w.landBattle(x), true
	case *engine.TabletopRefused:
		return fmt.Sprintf("The tabletop result for the battle at %s was refused, and the engine fought the battle: %s.", w.hex(x.Hex), x.Reason), true

	// At sea.
	case *engine.SeaContact:
		if x.Battle {
			return fmt.Sprintf("Fleets %s met and a sea battle follows.", ids(x.Fleets)), true
		}
		return fmt.Sprintf("Fleets %s sighted each other; no battle.", ids(x.Fleets)), true
	case *engine.SeaEngagementPending:
		var sides []string
		for _, sd := range x.Sides {
			sides = append(sides, fmt.Sprintf("%s: %s, %s", w.nation(sd.Nation), english.Count(sd.Warships, "warship"), english.Count(sd.Transports, "transport")))
		}
		return "Sea battle to fight: " + strings.Join(sides, " — against — ") + ".", true
	case *engine.SeaBattle:
		return w.seaBattle(x), true
	case *engine.LandingRefused:
		return fmt.Sprintf("%s could not land from %s at %s: the odds were %d:1, short of the 3:1 a landing needs.", x.Force, x.Fleet, x.Hex, x.Odds), true

	// Sieges and assaults.
	case *engine.SiegeStatusChanged:
		switch {
		case x.Reason != "" && x.Status == game.NotBesieged:
			return fmt.Sprintf("Before %s: %s.", x.City, x.Reason), true
		case x.Status == x.Previous:
			return fmt.Sprintf("%s stays %s by %s.", x.City, x.Status, w.nations(x.Besiegers)), true
		}
		s := fmt.Sprintf("%s is now %s by %s (it was %s).", x.City, x.Status, w.nations(x.Besiegers), x.Previous)
		if x.Reason != "" {
			s += " " + sentenceEnd(capitalise(x.Reason))
		}
		return s, true
	case *engine.SiegeLosses:
		side := "the garrison"
		if x.Attacker {
			side = "the besiegers"
		}
		if l := lossText(x.Losses); l != "" {
			return fmt.Sprintf("Siege losses of %s at %s: %s.", side, x.City, l), true
		}
		return fmt.Sprintf("%s at %s lost no figures to the siege.", capitalise(side), x.City), true
	case *engine.Breach:
		if x.Breaches > x.Before {
			return fmt.Sprintf("The heavy guns before %s made %s in the walls (now %d).", x.City, english.Count(x.Breaches-x.Before, "breach"), x.Breaches), true
		}
		return fmt.Sprintf("The heavy guns before %s made no breach (the walls have %d).", x.City, x.Breaches), true
	case *engine.Surrender:
		if x.Surrendered {
			s := fmt.Sprintf("The garrison of %s surrendered after the first breach (die %d, needed %d or less).", x.City, x.Die, x.Need)
			if x.Captured != nil {
				if g := GeneralFates(x.Captured.Generals); g != "" {
					s += " " + g + "."
				}
			}
			return s, true
		}
		return fmt.Sprintf("The garrison of %s refused to surrender (die %d, needed %d or less).", x.City, x.Die, x.Need), true
	case *engine.WallsRepaired:
		return fmt.Sprintf("The walls of %s were repaired.", x.City), true
	case *engine.CounterBattery:
		who := "The garrison's"
		if x.Attacker {
			who = "The besiegers'"
		}
		return fmt.Sprintf("%s guns fired on the enemy's batteries at %s: %s destroyed.", who, x.City, english.Count(x.Hits, "gun")), true
	case *engine.AssaultResolved:
		s := fmt.Sprintf("%s stormed %s", w.nation(x.Nation), x.City)
		if x.Infantry > 0 {
			s += " with " + english.Count(x.Infantry, "infantry")
		}
		s += fmt.Sprintf(" (odds column %s, die %d", x.Column, x.Die)
		if x.Breaches > 0 {
			s += fmt.Sprintf(" +%d for the breaches", x.Breaches)
		}
		s += "): " + x.Outcome + "."
		if x.Captured != nil {
			if g := GeneralFates(x.Captured.Generals); g != "" {
				s += " " + g + "."
			}
		}
		return s, true
	case *engine.CityCaptured:
		from := "neutral hands"
		if x.From != "" {
			from = w.nation(x.From)
		}
		if x.Recaptured {
			return fmt.Sprintf("%s retook %s from %s.", w.nation(x.By), x.City, from), true
		}
		return fmt.Sprintf("%s took %s from %s.", w.nation(x.By), x.City, from), true
	case *engine.GarrisonKilled:
		s := fmt.Sprintf("The garrison of %s (%s) fell below the minimum and was killed by the townsfolk.", x.City, ids(x.Forces))
		if x.Killed > 0 {
			s += " " + english.Count(x.Killed, "figure") + " " + english.Agree(x.Killed, "was", "were") + " lost."
		}
		if g := GeneralFates(x.Generals); g != "" {
			s += " " + g + " with them."
		}
		return s, true
	case *engine.CityReverted:
		to := "neutrality"
		if x.To != "" {
			to = w.nation(x.To)
		}
		return fmt.Sprintf("%s, abandoned by %s, returned to %s.", x.City, w.nation(x.From), to), true

	// Money and the year-end.
	case *engine.TreasuryChanged:
		return w.treasuryChanged(x), true
	case *engine.TaxesCollected:
		s := fmt.Sprintf("%s collected %s of taxes from %s", w.nation(x.Nation), english.Count(x.Collected, "crown"), english.Count(len(x.Cities), "city"))
		if x.CapitolLost && x.Collected != x.Gross {
			s += fmt.Sprintf(" (three quarters of %d: its capitol is in enemy hands)", x.Gross)
		}
		return s + " into its treasury in " + x.Treasury + ".", true
	case *engine.CapitolDesignated:
		switch x.By {
		case "regained":
			return fmt.Sprintf("%s regained its capitol %s; its temporary capitol is given up.", w.nation(x.Nation), x.City), true
		case "default":
			return fmt.Sprintf("%s had no temporary capitol it held, so %s was made its temporary capitol.", w.nation(x.Nation), x.City), true
		}
		return fmt.Sprintf("%s made %s its temporary capitol.", w.nation(x.Nation), x.City), true
	case *engine.ProvinceLoyal:
		before := "neutral"
		if x.Before != "" {
			before = "loyal to " + w.nation(x.Before)
		}
		return fmt.Sprintf("The cities of %s (%s), %s until now, turned loyal to %s.", x.Province, english.List(x.Cities), before, w.nation(x.Nation)), true
	case *engine.UnitsFielded:
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
		return s + ".", true
	case *engine.DepotLost:
		return fmt.Sprintf("%s's depot %s is gone: %s.", w.nation(x.Nation), x.Depot, x.Reason), true
	case *engine.UnitsBought:
		s := fmt.Sprintf("%s bought %s in %s for %s", w.nation(x.Nation), x.What, x.City, english.Count(x.Cost, "crown"))
		switch {
		case x.Force != "":
			s += " (" + string(x.Force) + ")"
		case x.Depot != "":
			s += " (depot " + x.Depot + ")"
		}
		return s + ".", true
	case *engine.UnitsTransferred:
		s := fmt.Sprintf("%s gave %s to %s", w.nation(x.From), x.What, w.nation(x.To))
		if x.NewForce != "" {
			s += " (now its force " + string(x.NewForce) + ")"
		}
		return s + ".", true
	case *engine.TaxBasesCounted:
		var bases []string
		for _, b := range x.Bases {
			bases = append(bases, fmt.Sprintf("%s %d", w.nation(b.Nation), b.TaxBase))
		}
		return fmt.Sprintf("The tax bases at the end of %d: %s.", x.Year, strings.Join(bases, ", ")), true
	case *engine.VictoryDeclared:
		var ns []string
		for _, n := range x.Winners {
			ns = append(ns, w.nation(n))
		}
		switch {
		case len(ns) == 0:
			return fmt.Sprintf("At the end of %d several nations reached the victory tax base with the same; the game goes on.", x.Year), true
		case len(ns) > 1:
			return fmt.Sprintf("%s share the victory of %d.", english.List(ns), x.Year), true
		}
		return fmt.Sprintf("%s has won the game at the end of %d.", ns[0], x.Year), true
	case *engine.TreatyPublished:
		return fmt.Sprintf("Treaty %s, %q, between %s was published.", x.Treaty, x.Title, w.nations(x.Parties)), true
	case *engine.TreatyBreachAnnounced:
		if x.Ended {
			return fmt.Sprintf("%s ended %s's penalty for breaching treaty %s.", w.nation(x.Aggrieved), w.nation(x.Offender), x.Treaty), true
		}
		return fmt.Sprintf("The referee found %s in breach of treaty %s against %s.", w.nation(x.Offender), x.Treaty, w.nation(x.Aggrieved)), true
	case *engine.RulingApplied:
		s := "The referee's ruling"
		if x.Token != "" {
			s += " " + x.Token
		}
		return s + ": " + sentenceEnd(x.What), true
	case *engine.RulingNotApplied:
		s := "The referee's ruling"
		if x.Token != "" {
			s += " " + x.Token
		}
		return fmt.Sprintf("%s could not be carried out (%s): %s", s, x.Effect, sentenceEnd(x.Reason)), true
	}
	return splitCamel(e.Kind()) + ".", false
}

// words prints places and nations for sentences, by name when there is a
// map and by ID when there is none.
type words struct{ m *hexmap.Map }

func (w words) nation(n game.NationID) string {
	if w.m == nil {
		if n == "" {
			return "neutral"
		}
		return capitalise(string(n))
	}
	return nationName(w.m, n)
}

func (w words) nations(ns []game.NationID) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = w.nation(n)
	}
	return english.List(s)
}

func (w words) hex(h game.Hex) string { return w.where(game.AtHex(h)) }

func (w words) where(p game.Place) string {
	if w.m == nil {
		return p.String()
	}
	return Where(w.m, p)
}

// landBattle is a land battle in one sentence, for lists of events (the
// battle itself is told in full by package reports/narrative): the place,
// each side, the outcome and each side's net loss of figures.
func (w words) landBattle(x *engine.LandBattle) string {
	where := x.City
	if where == "" {
		where = "hex " + x.Hex.String()
	}
	side := func(i int) string {
		s := w.nations(x.Sides[i].Nations)
		if len(x.Sides[i].Forces) > 0 {
			s += " (" + ids(x.Sides[i].Forces) + ")"
		}
		return s
	}
	var s string
	if x.Winner == 0 || x.Winner == 1 {
		s = fmt.Sprintf("Battle at %s: %s beat %s", where, side(x.Winner), side(1-x.Winner))
		switch x.Outcome {
		case "repulse":
			s += ", repulsing the attack"
		case "withdrew":
			s += ", the beaten side withdrawing in good order"
		default:
			s += ", whose army broke"
		}
	} else {
		s = fmt.Sprintf("Battle at %s between %s and %s: neither side broke the other", where, side(0), side(1))
	}
	if x.Days > 1 {
		s += fmt.Sprintf(", after %s of fighting", english.Count(x.Days, "day"))
	}
	var lost []string
	for _, sd := range x.Sides {
		if sd.Lost > 0 {
			lost = append(lost, fmt.Sprintf("%s lost %s", w.nations(sd.Nations), english.Count(sd.Lost, "figure")))
		}
	}
	if len(lost) > 0 {
		s += "; " + english.List(lost)
	}
	var gs []battle.GeneralFate
	for _, sd := range x.Sides {
		for _, g := range sd.Generals {
			if g.Fate == battle.Killed || g.Fate == battle.Captured {
				gs = append(gs, g)
			}
		}
	}
	if g := GeneralFates(gs); g != "" {
		s += "; " + g
	}
	return s + "."
}

// seaBattle tells a sea battle: the fleets and the weather gauge, the die
// and the result, what each side lost, and what became of the beaten
// fleets — escaped to a port or a sea area only when some ship of theirs
// was left to escape, wholly sunk or taken otherwise.
func (w words) seaBattle(x *engine.SeaBattle) string {
	var fleets []string
	for _, sd := range x.Sides {
		f := fmt.Sprintf("%s (%s", w.nation(sd.Nation), english.Count(sd.Warships+sd.DamagedWarships, "warship"))
		if sd.Admiral != "" {
			f += " under " + sd.Admiral
		}
		fleets = append(fleets, f+")")
	}
	out := fmt.Sprintf("The fleets of %s fought %s (%s column, die %d", english.List(fleets), monthTick(x.Tick), x.Column, x.Die)
	if x.WeatherGauge != "" {
		out += fmt.Sprintf("; %s held the weather gauge", w.nation(x.WeatherGauge))
	}
	out += "): "
	if x.Winner != "" {
		out += w.nation(x.Winner) + " won."
	} else {
		out += "an exchange, neither side won."
	}
	for _, sd := range x.Sides {
		var lost []string
		if sd.Sunk > 0 {
			lost = append(lost, fmt.Sprintf("%d sunk", sd.Sunk))
		}
		if sd.Captured > 0 {
			lost = append(lost, fmt.Sprintf("%d taken", sd.Captured))
		}
		if sd.Damaged > 0 {
			lost = append(lost, fmt.Sprintf("%d damaged", sd.Damaged))
		}
		if len(lost) > 0 {
			out += fmt.Sprintf(" %s's %s: %s.", w.nation(sd.Nation), english.Noun(sd.Warships+sd.DamagedWarships, "warship"), english.List(lost))
		}
		if sd.TransportsCaptured > 0 {
			out += fmt.Sprintf(" %s lost %s to the enemy.", w.nation(sd.Nation), english.Count(sd.TransportsCaptured, "transport"))
		}
	}
	if x.Winner == "" {
		return out
	}
	for _, sd := range x.Sides {
		if sd.Nation == x.Winner {
			continue
		}
		left := sd.WarshipsAfter + sd.DamagedAfter
		switch {
		case left == 0 && sd.Warships+sd.DamagedWarships > 0:
			out += fmt.Sprintf(" Not one of %s's warships escaped", w.nation(sd.Nation))
			if !x.EscapedTo.IsZero() {
				out += "; what was left of its fleet made for " + w.where(x.EscapedTo)
			}
			out += "."
		case !x.EscapedTo.IsZero():
			out += fmt.Sprintf(" %s's beaten %s (%s) escaped to %s.", w.nation(sd.Nation), english.Noun(len(sd.Fleets), "fleet"),
				english.Count(left, "warship")+" left", w.where(x.EscapedTo))
		}
	}
	return out
}

// treasuryChanged tells crowns entering or leaving a treasury, with what
// for and the treasury before and after.
func (w words) treasuryChanged(x *engine.TreasuryChanged) string {
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// monthTick says when in the month a tick of the movement clock falls.
func monthTick(t int) string {
	switch sixth := t * 6 / engine.TicksPerTurn; {
	case t <= 0:
		return "at the start of the month"
	case t >= engine.TicksPerTurn:
		return "at the end of the month"
	case sixth == 0:
		return "early in the month"
	case sixth == 1:
		return "a sixth of the way through the month"
	case sixth == 2:
		return "a third of the way through the month"
	case sixth == 3:
		return "half-way through the month"
	case sixth == 4:
		return "two thirds of the way through the month"
	}
	return "late in the month"
}

// sentenceEnd ends s with a full stop unless it ends a sentence already.
func sentenceEnd(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// approxTexts says what approximate scouting counted: "about 40 infantry",
// "a few grenzers", "about 5 guns" (ruleset.Approximate: 0 is "a few" of
// an arm the scouts saw).
func approxTexts(ff engine.ForeignForce) []string {
	var out []string
	for _, a := range ff.Approx {
		noun := a.Arm.String()
		if a.Arm == game.Gunners {
			noun = "gunner"
		}
		out = append(out, english.About(a.Count, noun))
	}
	if ff.ApproxGuns > 0 || len(ff.Approx) > 0 && slices.Contains(ff.Arms, "guns") {
		out = append(out, english.About(ff.ApproxGuns, "gun"))
	}
	return out
}

// RulingSentence tells a referee's ruling on a request, or a BREACH or LIFT,
// in a sentence with its effects in words: "Request R12c131 of Hispardia
// approved: Hispardia receives 150 crowns into its treasury.", "Request
// R4d5e6f of Eisenmark approved, with no change to the game.", "Request
// R777777 of Fromande denied: Swiss mercenaries are not to be had this
// year." denied and reason come from the referee's command (an engine.Ruling
// of a DENY carries no effects, like an APPROVE without any).
func RulingSentence(m *hexmap.Map, r engine.Ruling, denied bool, reason string) string {
	w := words{m: m}
	var effects []string
	for _, e := range r.Effects {
		effects = append(effects, EffectSentence(m, e))
	}
	if r.Token == "" {
		if len(effects) == 0 {
			return "A ruling of the referee with no effect."
		}
		return sentenceEnd(capitalise(strings.Join(effects, "; ")))
	}
	s := "Request " + r.Token
	if r.Nation != "" {
		s += " of " + w.nation(r.Nation)
	}
	switch {
	case denied && reason != "":
		return s + " denied: " + sentenceEnd(reason)
	case denied:
		return s + " denied."
	case len(effects) == 0:
		return s + " approved, with no change to the game."
	}
	return s + " approved: " + sentenceEnd(strings.Join(effects, "; "))
}

// EffectSentence tells what one effect of a referee's ruling does to the
// game: "Hispardia receives 150 crowns into its treasury", "E9 is given 24
// C infantry and general Stockli at 1910", "Dresna becomes loyal to
// Eisenmark".
func EffectSentence(m *hexmap.Map, e engine.Effect) string {
	w := words{m: m}
	switch x := e.(type) {
	case engine.TreasuryChange:
		if x.Delta < 0 {
			return fmt.Sprintf("%s pays %s from its treasury", w.nation(x.Nation), english.Count(-x.Delta, "crown"))
		}
		return fmt.Sprintf("%s receives %s into its treasury", w.nation(x.Nation), english.Count(x.Delta, "crown"))
	case engine.AddUnits:
		s := fmt.Sprintf("%s is given %s", x.Force, unitsText(x.Units))
		if !x.At.IsZero() {
			s += " at " + w.hex(x.At)
		}
		return s
	case engine.RemoveUnits:
		if x.Units.IsEmpty() {
			return fmt.Sprintf("%s is removed from the game", x.Force)
		}
		return fmt.Sprintf("%s loses %s", x.Force, unitsText(x.Units))
	case engine.PlaceForce:
		return fmt.Sprintf("%s is moved to %s", x.Force, w.hex(x.To))
	case engine.SetLoyalty:
		if x.Nation == "" {
			return fmt.Sprintf("%s becomes neutral", x.City)
		}
		return fmt.Sprintf("%s becomes loyal to %s", x.City, w.nation(x.Nation))
	case engine.DeclareBreach:
		return fmt.Sprintf("%s is found in breach of treaty %s against %s", w.nation(x.Offender), x.Treaty, w.nation(x.Aggrieved))
	case engine.LiftPenalty:
		return fmt.Sprintf("%s's penalty for breaching treaty %s against %s is lifted", w.nation(x.Offender), x.Treaty, w.nation(x.Aggrieved))
	}
	return e.EffectKind()
}

// unitsText lists what an ADD or REMOVE names: "24 C infantry, 2
// field-guns and general Stockli".
func unitsText(u engine.Units) string {
	var parts []string
	for _, t := range u.Troops {
		parts = append(parts, troopText(t))
	}
	for _, g := range u.Guns {
		parts = append(parts, gunsText(g))
	}
	if u.Ships.Total() > 0 {
		parts = append(parts, shipsText(u.Ships))
	}
	for _, l := range u.Leaders {
		parts = append(parts, "leader "+l)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return english.List(parts)
}
