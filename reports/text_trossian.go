package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/trossian"
)

// The words of the Trossian campaign's events (seed 004; package trossian
// registers its kinds with engine.RegisterEvent, so they are in the same
// registry: eventtext.go). A Trossian event names its province or lane in
// its own fields (its header's Place is a hex place and stays zero), so the
// encounters name their place with Where.

var trossianTexts = []EventText{
	// Armies and their marches.
	text[*trossian.Detached]{Section: SectionOrders, Nation: detached, Referee: ownedBy(detached)}.entry(),
	text[*trossian.Merged]{Section: SectionOrders, Nation: merged, Referee: ownedBy(merged)}.entry(),
	text[*trossian.Marched]{Section: SectionOrders,
		Routine: func(x *trossian.Marched) bool { return len(x.Path) == 0 },
		Nation:  marched, Referee: ownedBy(marched)}.entry(),
	text[*trossian.Halted]{Section: SectionOrders, Nation: halted, Referee: ownedBy(halted)}.entry(),
	text[*trossian.Leaderless]{Section: SectionOrders, Nation: leaderless, Referee: ownedBy(leaderless)}.entry(),

	// Meetings and battles.
	text[*trossian.Met]{Section: SectionEncounters, Heading: "Action at",
		Where:   func(w Words, x *trossian.Met) string { return x.Province },
		Nation:  func(w Words, x *trossian.Met) string { return met("Armies "+ids(x.Armies), x) },
		Referee: func(w Words, x *trossian.Met) string { return met(w.forcesOf(x.Armies), x) }}.entry(),
	text[*trossian.BattleAwaiting]{Section: SectionEncounters, Heading: "Action at", Glance: GlanceAttention,
		Where:  func(w Words, x *trossian.BattleAwaiting) string { return x.Sheet.Province },
		Nation: battleAwaiting, Referee: battleAwaiting}.entry(),
	text[*trossian.ResultRefused]{Section: SectionEncounters, Heading: "Action at", Glance: GlanceAttention,
		Where:  func(w Words, x *trossian.ResultRefused) string { return x.Province },
		Nation: resultRefused,
		Referee: func(w Words, x *trossian.ResultRefused) string {
			return fmt.Sprintf("The tabletop result for %s (%s) was refused, and the battle still waits: %s.", x.Province, w.involved(), x.Reason)
		}}.entry(),
	text[*trossian.BattleFought]{Section: SectionEncounters, Heading: "Action at", Piece: "land battle", Headline: true, Glance: GlanceClash,
		Where:  func(w Words, x *trossian.BattleFought) string { return x.Province },
		Nation: battleFought, Referee: battleFought,
		Clash: func(w Words, x *trossian.BattleFought) (Clash, bool) {
			var sides, lost []string
			for _, sd := range x.Sides {
				sides = append(sides, strings.Join(nationNames(w, sd.Nations), ", ")+" "+ids(sd.Armies))
				lost = append(lost, fmt.Sprintf("%s %d", strings.Join(nationNames(w, sd.Nations), ", "), sd.Lost.Total()))
			}
			out := "a draw"
			if len(x.Winners) > 0 {
				out = w.nations(x.Winners) + " won"
			}
			return Clash{Kind: "battle", Place: x.Province, Sides: strings.Join(sides, " v. "),
				Outcome: out + "; stands lost: " + strings.Join(lost, ", ")}, true
		}}.entry(),
	text[*trossian.Retreated]{Section: SectionEncounters, Heading: "Action at",
		Where: func(w Words, x *trossian.Retreated) string { return x.From },
		Nation: func(w Words, x *trossian.Retreated) string {
			return fmt.Sprintf("%s retreated from %s to %s.", x.Army, x.From, x.To)
		},
		Referee: func(w Words, x *trossian.Retreated) string {
			return fmt.Sprintf("%s's %s retreated from %s to %s.", w.nation(x.Nation), x.Army, x.From, x.To)
		}}.entry(),
	text[*trossian.Destroyed]{Section: SectionEncounters, Heading: "Action at", Glance: GlanceLoss,
		Where: func(w Words, x *trossian.Destroyed) string { return x.At },
		Nation: func(w Words, x *trossian.Destroyed) string {
			return destroyed(string(x.Army), x)
		},
		Referee: func(w Words, x *trossian.Destroyed) string {
			return destroyed(w.nation(x.Nation)+"'s "+string(x.Army), x)
		}}.entry(),

	// Navies.
	text[*trossian.NavyMoved]{Section: SectionOrders,
		Routine: func(x *trossian.NavyMoved) bool { return len(x.Path) == 0 },
		Nation:  navyMoved, Referee: ownedBy(navyMoved)}.entry(),
	text[*trossian.Shipped]{Section: SectionOrders, Nation: shipped, Referee: ownedBy(shipped)}.entry(),
	text[*trossian.SeaClash]{Section: SectionEncounters, Heading: "At sea,", Piece: "sea battle", Headline: true, Glance: GlanceClash,
		Where:  func(w Words, x *trossian.SeaClash) string { return x.Place.String() },
		Nation: func(w Words, x *trossian.SeaClash) string { return seaClash("Navies "+ids(x.Navies), ids(x.Lost), x) },
		Referee: func(w Words, x *trossian.SeaClash) string {
			return seaClash(w.forcesOf(x.Navies), w.forcesOf(x.Lost), x)
		},
		Clash: func(w Words, x *trossian.SeaClash) (Clash, bool) {
			return Clash{Kind: "sea battle", Place: x.Place.String(), Sides: w.forcesOf(x.Navies),
				Outcome: fmt.Sprintf("%s won (%s %s)", x.Winner, english.Noun(len(x.Dice), "die"), diceText(x.Dice))}, true
		}}.entry(),
	text[*trossian.NavyLost]{Section: SectionEncounters, Heading: "At sea,", Glance: GlanceLoss,
		Where:   func(w Words, x *trossian.NavyLost) string { return x.Place.String() },
		Nation:  navyLost,
		Referee: navyLost}.entry(),
	text[*trossian.NavyCaptured]{Section: SectionNews, Piece: "capture", Glance: GlanceCapture,
		Nation: navyCaptured, Referee: navyCaptured}.entry(),
	text[*trossian.NavyWintered]{Section: SectionOrders, Nation: navyWintered, Referee: ownedBy(navyWintered)}.entry(),

	// Couriers.
	text[*trossian.CourierSent]{Section: SectionOrders, Nation: courierSent, Referee: ownedBy(courierSent)}.entry(),
	text[*trossian.CourierRode]{Section: SectionOrders,
		Routine: func(x *trossian.CourierRode) bool { return len(x.Path) == 0 },
		Nation:  courierRode, Referee: ownedBy(courierRode)}.entry(),
	text[*trossian.Delivered]{Section: SectionOrders, Nation: delivered, Referee: ownedBy(delivered)}.entry(),
	text[*trossian.Intercepted]{Section: SectionEncounters, Heading: "Action at",
		Where: func(w Words, x *trossian.Intercepted) string { return x.At.String() },
		Nation: func(w Words, x *trossian.Intercepted) string {
			if x.Fate == "lost" {
				return fmt.Sprintf("Courier %s was lost in %s and never arrived.", x.Courier, x.At)
			}
			s := fmt.Sprintf("%s's courier %s was stopped in %s: %s", w.nation(x.Nation), x.Courier, x.At, courierFate(x.Fate))
			if len(x.Carried) > 0 {
				s += fmt.Sprintf("; %s taken", english.Count(len(x.Carried), "order"))
			}
			return s + "."
		},
		Referee: func(w Words, x *trossian.Intercepted) string {
			s := fmt.Sprintf("%s's courier %s was intercepted in %s (die %d, fate die %d): %s", w.nation(x.Nation), x.Courier, x.At, x.Die, x.FateDie, courierFate(x.Fate))
			if x.Captor != "" {
				s += " by " + w.nation(x.Captor)
			}
			if len(x.Carried) > 0 {
				s += fmt.Sprintf(", with %s", english.Count(len(x.Carried), "order"))
			}
			return s + "."
		}}.entry(),

	// Provinces, sieges and pacification.
	text[*trossian.ControlChanged]{Section: SectionNews, Piece: "capture", Headline: true, Glance: GlanceCapture,
		Nation: controlChanged, Referee: controlChanged}.entry(),
	text[*trossian.SiegeChanged]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege", Glance: GlanceClash,
		Where:   func(w Words, x *trossian.SiegeChanged) string { return x.Province },
		Nation:  siegeChanged,
		Referee: siegeChanged,
		Clash: func(w Words, x *trossian.SiegeChanged) (Clash, bool) {
			if x.Status == "progress" {
				return Clash{}, false
			}
			return Clash{Kind: "siege", Place: x.Province, Sides: w.involved(), Outcome: fmt.Sprintf("%s (%d of %d)", x.Status, x.Progress, x.Required)}, true
		}}.entry(),
	text[*trossian.PacifyChanged]{Section: SectionEncounters, Heading: "Pacification of",
		Where:  func(w Words, x *trossian.PacifyChanged) string { return x.Province },
		Nation: pacifyChanged, Referee: pacifyChanged}.entry(),

	// The winter's money.
	text[*trossian.IncomeCollected]{Section: SectionOrders, Nation: incomeCollected, Referee: incomeCollected}.entry(),
	text[*trossian.Recruited]{Section: SectionOrders, Nation: recruited, Referee: recruited}.entry(),
	text[*trossian.APBanked]{Section: SectionOrders, Nation: apBanked, Referee: apBanked}.entry(),

	// The referee's chance cards, rulings and messages.
	text[*trossian.ChanceRolled]{Section: SectionOrders, Nation: chanceRolled, Referee: chanceRolled}.entry(),
	text[*trossian.ChanceDue]{Section: SectionOrders, Glance: GlanceAttention, Nation: chanceDue, Referee: chanceDue}.entry(),
	text[*trossian.RulingDone]{Section: SectionOrders, Glance: GlanceRuling,
		Nation: func(w Words, x *trossian.RulingDone) string { return rulingDone(w, x, "") },
		Referee: func(w Words, x *trossian.RulingDone) string {
			return rulingDone(w, x, w.involved())
		}}.entry(),
	text[*trossian.Told]{Section: SectionOrders,
		Nation: func(w Words, x *trossian.Told) string { return "The referee tells you: " + sentenceEnd(x.Text) },
		Referee: func(w Words, x *trossian.Told) string {
			return fmt.Sprintf("The referee told %s: %s", w.nation(x.Nation), sentenceEnd(x.Text))
		}}.entry(),
	text[*trossian.PhaseEnded]{Section: SectionRecord,
		Routine: func(*trossian.PhaseEnded) bool { return true },
		Nation:  phaseEnded, Referee: phaseEnded}.entry(),
}

func detached(w Words, x *trossian.Detached) string {
	return fmt.Sprintf("%s detached %s as %s; %s keeps %s.", x.Army, x.Stands, x.New, x.Army, x.Left)
}

func merged(w Words, x *trossian.Merged) string {
	return fmt.Sprintf("%s joined %s with %s.", x.Army, x.Into, x.Stands)
}

func marched(w Words, x *trossian.Marched) string {
	if len(x.Path) == 0 {
		return fmt.Sprintf("%s stayed in %s.", x.Army, x.From)
	}
	s := fmt.Sprintf("%s marched %s → %s (%s this phase", x.Army, x.From, strings.Join(x.Path, " → "), english.Count(x.Allowance, "province"))
	if x.Road {
		s += ", along the road"
	}
	s += ")."
	if x.Stopped != "" {
		s += " Stopped: " + x.Stopped + "."
	}
	return s
}

func halted(w Words, x *trossian.Halted) string {
	if x.Next == "" {
		return fmt.Sprintf("%s halted in %s: %s.", x.Army, x.At, x.Reason)
	}
	return fmt.Sprintf("%s halted in %s before %s: %s.", x.Army, x.At, x.Next, x.Reason)
}

func leaderless(w Words, x *trossian.Leaderless) string {
	s := fmt.Sprintf("%s has lost its last HQ in %s and %s", x.Army, x.At, orNone(x.Action))
	if x.Toward != "" {
		s += " toward " + x.Toward
	}
	return s + "."
}

func met(armies string, x *trossian.Met) string {
	switch x.Outcome {
	case "battle":
		return fmt.Sprintf("%s met in %s and battle was joined.", armies, x.Province)
	case "standoff":
		return fmt.Sprintf("%s met in %s; both stood on the defensive and no battle was fought.", armies, x.Province)
	}
	return fmt.Sprintf("%s met in %s (%s).", armies, x.Province, x.Outcome)
}

// trossianSides names the sides of a battle: "Carrowland and Norvale (C2,
// N2) against Ostmark (O1)".
func trossianSides(w Words, sides []trossian.BattleSide) string {
	var out []string
	for _, sd := range sides {
		var as []game.ForceID
		for _, a := range sd.Armies {
			as = append(as, a.Army)
		}
		out = append(out, fmt.Sprintf("%s (%s)", w.nations(sd.Nations), ids(as)))
	}
	return strings.Join(out, " against ")
}

func battleAwaiting(w Words, x *trossian.BattleAwaiting) string {
	return fmt.Sprintf("The battle in %s waits for the referee's tabletop result: %s.", x.Sheet.Province, orNone(trossianSides(w, x.Sheet.Sides)))
}

func resultRefused(w Words, x *trossian.ResultRefused) string {
	return fmt.Sprintf("The tabletop result for %s was refused, and the battle still waits: %s.", x.Province, x.Reason)
}

// battleFought tells a battle's outcome and each side's losses as far as
// the viewer was told them (a nation: its own side's).
func battleFought(w Words, x *trossian.BattleFought) string {
	var sides []string
	for _, sd := range x.Sides {
		sides = append(sides, fmt.Sprintf("%s (%s)", w.nations(sd.Nations), ids(sd.Armies)))
	}
	s := fmt.Sprintf("Battle in %s between %s: ", x.Province, strings.Join(sides, " and "))
	if len(x.Winners) > 0 {
		s += w.nations(x.Winners) + " won."
	} else {
		s += "a draw."
	}
	for _, sd := range x.Sides {
		if len(sd.Rolls) == 0 && len(sd.Lost) == 0 {
			continue
		}
		s += fmt.Sprintf(" %s rolled for %s after the battle and lost %s.", w.nations(sd.Nations), english.Count(len(sd.Rolls), "unit"), orNone(lostStands(sd.Lost)))
	}
	return s
}

func lostStands(s trossian.Stands) string {
	if len(s) == 0 {
		return ""
	}
	return s.String()
}

func destroyed(army string, x *trossian.Destroyed) string {
	s := army + " was destroyed"
	if x.At != "" {
		s += " in " + x.At
	}
	s += ": " + x.Reason
	if len(x.Stands) > 0 {
		s += " (" + x.Stands.String() + ")"
	}
	return s + "."
}

func navyMoved(w Words, x *trossian.NavyMoved) string {
	if len(x.Path) == 0 {
		return fmt.Sprintf("Navy %s stayed in %s.", x.Navy, x.From)
	}
	ps := []string{x.From.String()}
	for _, p := range x.Path {
		ps = append(ps, p.String())
	}
	s := fmt.Sprintf("Navy %s sailed %s (%s).", x.Navy, strings.Join(ps, " → "), english.Count(x.Actions, "action"))
	if x.Stopped != "" {
		s += " Stopped: " + x.Stopped + "."
	}
	return s
}

func shipped(w Words, x *trossian.Shipped) string {
	var s string
	if x.Landed {
		s = fmt.Sprintf("%s went ashore from navy %s", x.Army, x.Navy)
		if x.Province != "" {
			s += " in " + x.Province
		}
	} else {
		s = fmt.Sprintf("%s went aboard navy %s (%d AP of troops)", x.Army, x.Navy, x.Load)
	}
	if x.Reason != "" {
		s += ": " + x.Reason
	}
	return s + "."
}

// seaClash tells navies meeting: navies and lost name them for the
// viewer.
func seaClash(navies, lost string, x *trossian.SeaClash) string {
	s := fmt.Sprintf("%s met in %s (%s %s): %s won", navies, x.Place, english.Noun(len(x.Dice), "die"), diceText(x.Dice), x.Winner)
	var ret []string
	for _, r := range x.Retreats {
		ret = append(ret, fmt.Sprintf("%s to %s", r.Navy, r.To))
	}
	if len(ret) > 0 {
		s += "; " + english.List(ret) + " retreated"
	}
	if len(x.Lost) > 0 {
		s += "; " + lost + " lost"
	}
	return s + "."
}

func navyLost(w Words, x *trossian.NavyLost) string {
	s := fmt.Sprintf("%s's navy %s was lost in %s", w.nation(x.Nation), x.Navy, x.Place)
	if len(x.Armies) > 0 {
		s += " with " + ids(x.Armies) + " aboard"
	}
	return s + ": " + sentenceEnd(x.Reason)
}

func navyCaptured(w Words, x *trossian.NavyCaptured) string {
	return fmt.Sprintf("%s captured %s's navy %s in the port of %s (now its navy %s).", w.nation(x.By), w.nation(x.From), x.Navy, x.Port, x.New)
}

func navyWintered(w Words, x *trossian.NavyWintered) string {
	s := fmt.Sprintf("Navy %s went home for the winter from %s to %s", x.Navy, x.From, x.To)
	if x.Reason != "" {
		s += ": " + x.Reason
	}
	return s + "."
}

func courierSent(w Words, x *trossian.CourierSent) string {
	return fmt.Sprintf("Courier %s left %s for %s with %s.", x.Courier, x.From, x.To, english.Count(x.Orders, "order"))
}

func courierRode(w Words, x *trossian.CourierRode) string {
	ps := make([]string, len(x.Path))
	for i, p := range x.Path {
		ps[i] = p.String()
	}
	s := fmt.Sprintf("Courier %s rode %s", x.Courier, orNone(strings.Join(ps, " → ")))
	switch {
	case x.Home:
		s += " and is home"
	case x.Delivered:
		s += " and delivered its orders"
	case x.Returning:
		s += ", riding home"
	}
	return s + "."
}

func delivered(w Words, x *trossian.Delivered) string {
	return fmt.Sprintf("Courier %s reached %s in %s: %s carried out.", x.Courier, x.To, x.At, orNone(english.List(x.Orders)))
}

func courierFate(fate string) string {
	switch fate {
	case "captured":
		return "captured with its messages"
	case "killed":
		return "killed and its messages lost"
	case "false-plans":
		return "captured carrying false plans"
	}
	return fate
}

func controlChanged(w Words, x *trossian.ControlChanged) string {
	s := fmt.Sprintf("%s passed from %s to %s", x.Province, w.nation(x.From), w.nation(x.To))
	if x.How != "" {
		s += " (" + x.How + ")"
	}
	if x.Bank > 0 {
		s += fmt.Sprintf(", with %d AP in its bank", x.Bank)
	}
	return s + "."
}

func siegeChanged(w Words, x *trossian.SiegeChanged) string {
	s := fmt.Sprintf("%s's siege of %s: %s (%d of %s)", w.nation(x.By), x.Province, x.Status, x.Progress, english.Count(x.Required, "phase"))
	if x.Reason != "" {
		s += ": " + x.Reason
	}
	return s + "."
}

func pacifyChanged(w Words, x *trossian.PacifyChanged) string {
	s := fmt.Sprintf("%s's pacification of %s: %s (%d of %s)", w.nation(x.By), x.Province, x.Status, x.Progress, english.Count(x.Required, "phase"))
	if x.Reason != "" {
		s += ": " + x.Reason
	}
	return s + "."
}

// incomeCollected tells the winter's income: the pool is the income of
// the provinces not besieged and the banks of its cities not besieged
// (x.Banked); a besieged city's income goes into its own bank.
func incomeCollected(w Words, x *trossian.IncomeCollected) string {
	s := fmt.Sprintf("%s's provinces paid %d AP from %s", w.nation(x.Nation), x.Income, english.Count(len(x.Provinces), "province"))
	if x.Banked > 0 {
		s += fmt.Sprintf("; with the %d AP drawn from its cities' banks, %d AP are to spend this winter", x.Banked, x.Pool)
	} else {
		s += fmt.Sprintf("; %d AP are to spend this winter", x.Pool)
	}
	var besieged []string
	held := 0
	for _, p := range x.Provinces {
		if p.Besieged {
			besieged = append(besieged, p.Province)
			held += p.AP
		}
	}
	if held > 0 {
		s += fmt.Sprintf("; the %d AP of besieged %s stay in %s", held, english.List(besieged), english.Agree(len(besieged), "its bank", "their banks"))
	}
	return s + "."
}

func recruited(w Words, x *trossian.Recruited) string {
	var what []string
	if len(x.Stands) > 0 {
		what = append(what, x.Stands.String())
	}
	if len(x.Navies) > 0 {
		what = append(what, english.Count(len(x.Navies), "navy"))
	}
	if x.Messengers > 0 {
		what = append(what, english.Count(x.Messengers, "messenger"))
	}
	s := fmt.Sprintf("%s recruited %s in %s", w.nation(x.Nation), orNone(english.List(what)), x.At)
	if x.Army != "" {
		s += " (" + string(x.Army) + ")"
	}
	return s + fmt.Sprintf(" for %d AP from %s (%d AP left).", x.Cost, x.From, x.Left)
}

func apBanked(w Words, x *trossian.APBanked) string {
	if x.Lost {
		return fmt.Sprintf("%s lost %d AP: no city of its own to lie in.", w.nation(x.Nation), x.AP)
	}
	return fmt.Sprintf("%s banked %d AP in %s (its bank holds %d AP).", w.nation(x.Nation), x.AP, x.City, x.Bank)
}

func chanceRolled(w Words, x *trossian.ChanceRolled) string {
	ts := make([]string, len(x.Turns))
	for i, t := range x.Turns {
		ts[i] = fmt.Sprint(t)
	}
	return fmt.Sprintf("%s's chance cards for %d: %s %s; %s %s.", w.nation(x.Nation), x.Year, english.Noun(len(x.Dice), "die"), orNone(diceText(x.Dice)),
		english.Agree(len(x.Turns), "it falls on turn", "they fall on turns"), orNone(english.List(ts)))
}

func chanceDue(w Words, x *trossian.ChanceDue) string {
	return fmt.Sprintf("A chance card of %s falls on turn %d (%s): the referee rules what it brings.", w.nation(x.Nation), x.Turn, x.Label)
}

// rulingDone tells a Trossian ruling's effect; who, for the referee, the
// kingdoms it names.
func rulingDone(w Words, x *trossian.RulingDone, who string) string {
	s := "The referee's ruling"
	if x.Token != "" {
		s += " " + x.Token
	}
	if who != "" {
		s += " for " + who
	}
	e := x.Effect
	var parts []string
	for _, p := range []string{string(e.Force), e.Province, string(e.Other)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(e.Stands) > 0 {
		parts = append(parts, e.Stands.String())
	}
	if e.Delta != 0 {
		parts = append(parts, fmt.Sprintf("%+d", e.Delta))
	}
	if e.Text != "" {
		parts = append(parts, fmt.Sprintf("%q", e.Text))
	}
	s += ": " + e.Kind
	if len(parts) > 0 {
		s += " " + strings.Join(parts, " ")
	}
	if x.Refused != "" {
		return s + " — not carried out: " + sentenceEnd(x.Refused)
	}
	return s + "."
}

func phaseEnded(w Words, x *trossian.PhaseEnded) string {
	if x.Label == "" {
		return fmt.Sprintf("Turn %d ended; the orders are now for turn %d.", x.Turn, x.Next)
	}
	return fmt.Sprintf("Turn %d ended; the orders are now for %s.", x.Turn, x.Label)
}
