package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/narrative"
)

// The words of contacts, the preliminaries of battle, land battles and the
// sea: the kinds a nation's report tells under "Battles, sieges and
// encounters" (the registry: eventtext.go). An event shared by two nations
// comes to each with the other's numbers removed (engine.EventFor): the
// nation's sentence leaves out what is zero; the referee's names both
// sides and gives every number.

var fightingTexts = []EventText{
	text[*engine.Contact]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.Contact) string { return contact("Forces "+ids(x.Forces), x) },
		Referee: func(w Words, x *engine.Contact) string {
			return contact(w.forcesOf(x.Forces), x)
		}}.entry(),
	text[*engine.Overrun]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.Overrun) string {
			s := fmt.Sprintf("%s's %s overran %s's %s at %d:1 (die %d; the defenders killed %s before the end).",
				w.nation(x.ByNation), ids(x.By), w.nation(x.OverrunNation), ids(x.Overrun), x.Odds, x.Die, english.Count(x.Damage, "figure"))
			if g := w.generalFates(x.Generals); g != "" {
				s += " " + g + "."
			}
			if l := lossText(x.Losses); l != "" {
				s += " Losses: " + l + "."
			}
			return s
		},
		Referee: func(w Words, x *engine.Overrun) string {
			s := fmt.Sprintf("%s's %s (PV %d) overran %s's %s (PV %d) at %d:1 (column %d, die %d; the defenders killed %s before the end).",
				w.nation(x.ByNation), ids(x.By), x.ByPV, w.nation(x.OverrunNation), ids(x.Overrun), x.OverrunPV, x.Odds, x.Column, x.Die,
				english.Count(x.Damage, "figure"))
			if g := w.generalFates(x.Generals); g != "" {
				s += " " + g + "."
			}
			if x.MPCost > 0 {
				s += fmt.Sprintf(" It cost the overrunners %d MP.", x.MPCost)
			}
			if l := lossText(x.Losses); l != "" {
				s += " Losses: " + l + "."
			}
			return s
		}}.entry(),
	text[*engine.CavalrySlowed]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.CavalrySlowed) string {
			s := fmt.Sprintf("Cavalry of %s caught %s and forced it to give battle.", x.By, x.Force)
			if x.Cavalry > 0 {
				s += " " + english.Count(x.Cavalry, "cavalry figure") + " rode ahead."
			}
			return s
		},
		Referee: func(w Words, x *engine.CavalrySlowed) string {
			return fmt.Sprintf("%s's %s sent %s after %s's %s (%s and %s of foot and guns) and forced it to give battle.",
				w.nation(x.ByNation), x.By, english.Count(x.Cavalry, "cavalry figure"), w.nation(x.Nation), x.Force,
				english.Count(x.EnemyCavalry, "cavalry figure"), english.Count(x.EnemyFoot, "figure"))
		}}.entry(),
	text[*engine.SlowingRefused]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.SlowingRefused) string {
			s := fmt.Sprintf("%s, caught by the cavalry of %s, marched on and lost %s.", x.Force, x.By, english.Count(x.Killed, "figure"))
			if l := lossText(x.Losses); l != "" {
				s += " Losses: " + l + "."
			}
			return s
		},
		Referee: func(w Words, x *engine.SlowingRefused) string {
			s := fmt.Sprintf("%s's %s, caught by %s of %s's %s against its own %d, marched on and lost %s.",
				w.nation(x.Nation), x.Force, english.Count(x.Cavalry, "cavalry figure"), w.nation(x.ByNation), x.By, x.EnemyCavalry, english.Count(x.Killed, "figure"))
			if l := lossText(x.Losses); l != "" {
				s += " Losses: " + l + "."
			}
			return s
		}}.entry(),
	text[*engine.Filtered]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.Filtered) string {
			return fmt.Sprintf("Grenzers of %s slipped past %s.", x.Force, ids(x.Past))
		},
		Referee: func(w Words, x *engine.Filtered) string {
			return fmt.Sprintf("The Grenzers of %s's %s (scouting points %d) slipped past %s of %s (scouting points %d) for %d MP more.",
				w.nation(x.Nation), x.Force, x.GrenzerSP, ids(x.Past), w.others(x.Nation), x.EnemySP, x.ExtraMP)
		}}.entry(),
	text[*engine.RetreatedBeforeBattle]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.RetreatedBeforeBattle) string {
			return retreatedBefore(string(x.Force), ids(x.Enemy), x)
		},
		Referee: func(w Words, x *engine.RetreatedBeforeBattle) string {
			s := retreatedBefore(w.nation(x.Nation)+"'s "+string(x.Force), w.others(x.Nation)+"'s "+ids(x.Enemy), x)
			if x.BeyondMA {
				s += " The retreat took it past its movement allowance."
			}
			return s
		}}.entry(),
	text[*engine.Pursued]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.Pursued) string {
			return fmt.Sprintf("%s pursued %s toward %s.", x.Force, x.Target, x.Toward)
		},
		Referee: func(w Words, x *engine.Pursued) string {
			if w.ownerOf(x.Force) == "" || w.ownerOf(x.Target) == "" {
				return w.owned(fmt.Sprintf("%s pursued %s toward %s.", x.Force, x.Target, x.Toward))
			}
			return fmt.Sprintf("%s pursued %s toward %s.", w.forceOf(x.Force), w.forceOf(x.Target), x.Toward)
		}}.entry(),
	// No longer made (the battles step fights every battle); stored turns
	// still hold it. The referee's alone.
	text[*engine.EngagementPending]{Section: SectionEncounters, Heading: "Action at",
		Nation: engagementPending, Referee: engagementPending}.entry(),
	text[*engine.TabletopRefused]{Section: SectionEncounters, Heading: "Action at", Glance: GlanceAttention,
		Nation: tabletopRefused, Referee: tabletopRefused}.entry(),
	text[*engine.Scouted]{Section: SectionScouting,
		Nation: func(w Words, x *engine.Scouted) string { return scouted(w, x, "") },
		Referee: func(w Words, x *engine.Scouted) string {
			sp := fmt.Sprintf("scouting points %d", x.ScoutSP)
			if x.ScreenSP > 0 {
				sp += fmt.Sprintf(" against the screen's %d", x.ScreenSP)
			}
			return scouted(w, x, sp)
		}}.entry(),
	text[*engine.LandBattle]{Section: SectionStory, Heading: "Action at", Piece: "land battle", Headline: true, Glance: GlanceClash,
		Nation: landBattle, Referee: landBattle, Clash: landBattleClash,
		Story: func(w Words, x *engine.LandBattle) Narrative {
			s := narrative.Tell(x, w.viewer)
			return Narrative{Title: s.Title, Where: w.place(x), Text: s.Paragraphs}
		}}.entry(),

	// At sea.
	text[*engine.SeaContact]{Section: SectionEncounters, Heading: "At sea,",
		Nation:  func(w Words, x *engine.SeaContact) string { return seaContact("Fleets "+ids(x.Fleets), x) },
		Referee: func(w Words, x *engine.SeaContact) string { return seaContact(w.forcesOf(x.Fleets), x) }}.entry(),
	// The referee's alone, like EngagementPending.
	text[*engine.SeaEngagementPending]{Section: SectionEncounters, Heading: "At sea,",
		Nation: seaEngagementPending, Referee: seaEngagementPending}.entry(),
	text[*engine.SeaBattle]{Section: SectionEncounters, Heading: "At sea,", Piece: "sea battle", Headline: true, Glance: GlanceClash,
		Nation: seaBattle, Referee: seaBattle, Clash: seaBattleClash}.entry(),
	text[*engine.LandingRefused]{Section: SectionEncounters, Heading: "Action at",
		Nation: func(w Words, x *engine.LandingRefused) string {
			return fmt.Sprintf("%s could not land from %s at %s: the odds were %d:1, short of the 3:1 a landing needs.", x.Force, x.Fleet, x.Hex, x.Odds)
		},
		Referee: func(w Words, x *engine.LandingRefused) string {
			return fmt.Sprintf("%s's %s could not land from %s at %s against %s: %d against %d, odds of %d:1, short of the 3:1 a landing needs.",
				w.nation(x.Nation), x.Force, x.Fleet, x.Hex, orNone(w.others(x.Nation)), x.Landing, x.Defenders, x.Odds)
		}}.entry(),
}

func contact(who string, x *engine.Contact) string {
	switch x.Outcome {
	case "battle":
		return fmt.Sprintf("%s met %s and battle was joined.", who, monthTick(x.Tick))
	case "standoff":
		return fmt.Sprintf("%s met %s; both stood on the defensive and no battle was fought.", who, monthTick(x.Tick))
	case "walls":
		return fmt.Sprintf("%s met %s; the garrison of %s stayed behind its walls, so no battle was fought and the attackers halted before the city.", who, monthTick(x.Tick), x.City)
	}
	return fmt.Sprintf("%s met %s (%s).", who, monthTick(x.Tick), x.Outcome)
}

func retreatedBefore(force, enemy string, x *engine.RetreatedBeforeBattle) string {
	s := fmt.Sprintf("%s retreated from %s to %s rather than face %s.", force, x.From, x.To, enemy)
	if l := lossText(x.Losses); l != "" {
		s += " Losses: " + l + "."
	}
	if x.Exhausted > 0 {
		s += " " + english.Count(x.Exhausted, "figure") + " exhausted."
	}
	return s
}

func engagementPending(w Words, x *engine.EngagementPending) string {
	var sides []string
	for _, sd := range x.Sides {
		var fs []string
		for _, f := range sd.Forces {
			fs = append(fs, forceLine(f.Force))
		}
		sides = append(sides, fmt.Sprintf("%s (%s, PV %d, %s, SP %d): %s",
			w.nation(sd.Nation), sd.Stance, sd.PV, english.Count(sd.FightingFigures, "fighting figure"), sd.ScoutingPoints, strings.Join(fs, "; ")))
	}
	return fmt.Sprintf("Battle to fight in %s terrain, %s: %s.", x.Terrain, monthTick(x.Tick), strings.Join(sides, " — against — "))
}

func tabletopRefused(w Words, x *engine.TabletopRefused) string {
	return fmt.Sprintf("The tabletop result for the battle at %s was refused, and the engine fought the battle: %s.", w.hex(x.Hex), x.Reason)
}

// scouted tells a scouting report; sp, for the referee, the scouting
// points that decided its level.
func scouted(w Words, x *engine.Scouted, sp string) string {
	scouts := ids(x.Scouts)
	if sp != "" {
		scouts += "; " + sp
	}
	s := fmt.Sprintf("%s's scouts (%s) looked at %s of %s", w.nation(x.Nation), scouts, x.Target, w.nation(x.TargetNation))
	if where := w.where(x.Learned.At); where != "" {
		s += " at " + where
	}
	s += fmt.Sprintf(" and saw it at the %s level", x.LevelName)
	if d := describeForeign(w.m, x.Learned); d != "" {
		s += ": " + d
	}
	return s + "."
}

func seaContact(fleets string, x *engine.SeaContact) string {
	if x.Battle {
		return fmt.Sprintf("%s met and a sea battle follows.", fleets)
	}
	return fmt.Sprintf("%s sighted each other; no battle.", fleets)
}

func seaEngagementPending(w Words, x *engine.SeaEngagementPending) string {
	var sides []string
	for _, sd := range x.Sides {
		sides = append(sides, fmt.Sprintf("%s: %s, %s", w.nation(sd.Nation), english.Count(sd.Warships, "warship"), english.Count(sd.Transports, "transport")))
	}
	return "Sea battle to fight: " + strings.Join(sides, " — against — ") + "."
}

// landBattle is a land battle in one sentence, for lists of events (the
// battle itself is told in full by package reports/narrative): the place,
// each side, the outcome and each side's net loss of figures.
func landBattle(w Words, x *engine.LandBattle) string {
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
	if g := w.generalFates(gs); g != "" {
		s += "; " + g
	}
	return s + "."
}

// landBattleClash is a land battle's row on the referee's first page.
func landBattleClash(w Words, x *engine.LandBattle) (Clash, bool) {
	c := Clash{Kind: "battle", Place: w.place(x)}
	if x.Model == "tabletop" {
		c.Kind = "tabletop battle"
	}
	names := func(ns []game.NationID) string { return strings.Join(nationNames(w, ns), ", ") }
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
	return c, true
}

// seaBattle tells a sea battle: the fleets and the weather gauge, the die
// and the result, what each side lost, and what became of the beaten
// fleets — escaped to a port or a sea area only when some ship of theirs
// was left to escape, wholly sunk or taken otherwise.
func seaBattle(w Words, x *engine.SeaBattle) string {
	var fleets []string
	for _, sd := range x.Sides {
		f := w.nation(sd.Nation)
		if len(sd.Allies) > 0 {
			f += " with " + w.nations(sd.Allies)
		}
		f += " (" + english.Count(sd.Warships+sd.DamagedWarships, "warship")
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

// seaBattleClash is a sea battle's row on the referee's first page.
func seaBattleClash(w Words, x *engine.SeaBattle) (Clash, bool) {
	var sides []string
	for _, s := range x.Sides {
		sides = append(sides, fmt.Sprintf("%s %s (%s)", w.nation(s.Nation), ids(s.Fleets), english.Count(s.Warships+s.DamagedWarships, "warship")))
	}
	out := "no winner"
	if x.Winner != "" {
		out = w.nation(x.Winner) + " won"
	}
	var lost []string
	for _, s := range x.Sides {
		if n := s.Sunk + s.Captured; n > 0 {
			lost = append(lost, fmt.Sprintf("%s lost %d", w.nation(s.Nation), n))
		}
	}
	if len(lost) > 0 {
		out += "; " + strings.Join(lost, ", ")
	}
	return Clash{Kind: "sea battle", Place: w.place(x), Sides: strings.Join(sides, " v. "), Outcome: out}, true
}

// nationNames names nations one by one.
func nationNames(w Words, ns []game.NationID) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = w.nation(n)
	}
	return out
}
