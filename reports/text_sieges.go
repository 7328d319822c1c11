package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// The words of sieges, assaults, captures and risings (the registry:
// eventtext.go). The sieges step's events come to each side without the
// other's numbers (engine.EventFor); the referee's sentences give both.

var siegeTexts = []EventText{
	text[*engine.SiegeStatusChanged]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege", Headline: true, Glance: GlanceClash,
		Nation: siegeStatus,
		Referee: func(w Words, x *engine.SiegeStatusChanged) string {
			s := siegeStatus(w, x)
			if x.AttackerFigures > 0 || x.DefenderFigures > 0 {
				in := "no garrison"
				if x.DefenderFigures > 0 {
					in = english.Count(x.DefenderFigures, "figure") + " of the garrison"
					if x.Holder != "" {
						in = english.Count(x.DefenderFigures, "figure") + " of " + w.nation(x.Holder) + "'s garrison"
					}
				}
				s += fmt.Sprintf(" Before the city: %s; in it: %s.", english.Count(x.AttackerFigures, "infantry and cavalry figure"), in)
			}
			return s
		},
		Clash: func(w Words, x *engine.SiegeStatusChanged) (Clash, bool) {
			if x.Status == x.Previous && x.Reason == "" {
				return Clash{}, false
			}
			out := fmt.Sprintf("%s (was %s)", x.Status, x.Previous)
			if x.Reason != "" {
				out += ": " + x.Reason
			}
			sides := strings.Join(nationNames(w, x.Besiegers), ", ")
			if x.Holder != "" {
				sides += " v. " + w.nation(x.Holder)
			}
			return Clash{Kind: "siege", Place: x.City, Sides: sides, Outcome: out}, true
		}}.entry(),
	// A siege that cost a side nothing is not news.
	text[*engine.SiegeLosses]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege",
		Routine: func(x *engine.SiegeLosses) bool { return lossText(x.Losses) == "" },
		Nation:  func(w Words, x *engine.SiegeLosses) string { return siegeLosses(siegeSide(x.Attacker), x) },
		Referee: func(w Words, x *engine.SiegeLosses) string {
			return siegeLosses(siegeSide(x.Attacker)+" ("+w.involved()+")", x)
		}}.entry(),
	text[*engine.CounterBattery]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege",
		Nation: func(w Words, x *engine.CounterBattery) string {
			who := "The garrison's"
			if x.Attacker {
				who = "The besiegers'"
			}
			return fmt.Sprintf("%s guns fired on the enemy's batteries at %s: %s destroyed.", who, x.City, english.Count(x.Hits, "gun"))
		},
		Referee: func(w Words, x *engine.CounterBattery) string {
			who := "the garrison"
			if x.Attacker {
				who = "the besiegers"
			}
			s := fmt.Sprintf("%s's guns (%s) at %s fired on the enemy's batteries", w.nations(x.By), who, x.City)
			if len(x.Dice) > 0 {
				s += fmt.Sprintf(" (%s gunners, %s %s)", x.Gunners, english.Noun(len(x.Dice), "die"), diceText(x.Dice))
			}
			s += fmt.Sprintf(": %s destroyed", english.Count(x.Hits, "gun"))
			if x.Crew > 0 {
				s += " with " + english.Count(x.Crew, "gunner")
			}
			if l := lossText(x.Destroyed); l != "" {
				s += " (" + l + ")"
			}
			return s + "."
		}}.entry(),
	text[*engine.Breach]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege",
		Nation: func(w Words, x *engine.Breach) string { return breach("The heavy guns", x) },
		Referee: func(w Words, x *engine.Breach) string {
			who := w.nations(x.Attackers) + "'s heavy guns"
			if x.Guns > 0 {
				who = fmt.Sprintf("%s (%s of %s", who, english.Count(x.Guns, "gun"), ids(x.Forces))
				if len(x.Dice) > 0 {
					who += "; " + english.Noun(len(x.Dice), "die") + " " + diceText(x.Dice)
				}
				who += ")"
			}
			return breach(capitalise(who), x)
		}}.entry(),
	text[*engine.Surrender]{Section: SectionEncounters, Heading: "Siege at", Piece: "siege", Glance: GlanceClash,
		Nation: func(w Words, x *engine.Surrender) string {
			return surrender(w, fmt.Sprintf("The garrison of %s", x.City), x)
		},
		Referee: func(w Words, x *engine.Surrender) string {
			g := fmt.Sprintf("The garrison of %s (%s", x.City, w.forcesOf(x.Garrison))
			if x.Figures > 0 {
				g += ", " + english.Count(x.Figures, "figure")
			}
			return surrender(w, g+"), besieged by "+w.nations(x.Attackers)+",", x)
		},
		Clash: func(w Words, x *engine.Surrender) (Clash, bool) {
			out := fmt.Sprintf("held (die %d, needed %d)", x.Die, x.Need)
			if x.Surrendered {
				out = fmt.Sprintf("surrendered (die %d, needed %d)", x.Die, x.Need)
			}
			return Clash{Kind: "surrender", Place: x.City, Sides: strings.Join(nationNames(w, x.Attackers), ", ") + " v. garrison " + ids(x.Garrison), Outcome: out}, true
		}}.entry(),
	text[*engine.WallsRepaired]{Section: SectionEncounters, Heading: "Siege at",
		Nation: func(w Words, x *engine.WallsRepaired) string {
			return fmt.Sprintf("The walls of %s were repaired.", x.City)
		},
		Referee: func(w Words, x *engine.WallsRepaired) string {
			s := fmt.Sprintf("The walls of %s were repaired (%s closed)", x.City, english.Count(x.Breaches, "breach"))
			if who := w.involved(); who != "" {
				s += " for " + who
			}
			return s + "."
		}}.entry(),
	text[*engine.AssaultResolved]{Section: SectionEncounters, Heading: "Siege at", Piece: "assault", Headline: true, Glance: GlanceClash,
		Nation: func(w Words, x *engine.AssaultResolved) string { return assault(w, x, w.nation(x.Nation), "") },
		Referee: func(w Words, x *engine.AssaultResolved) string {
			defenders := "the garrison"
			for _, n := range x.Nations {
				if n != x.Nation {
					defenders = w.nation(n) + "'s garrison"
				}
			}
			if len(x.Defenders) > 0 {
				defenders += " (" + ids(x.Defenders) + ")"
			}
			s := assault(w, x, w.nation(x.Nation)+"'s "+string(x.Force), fmt.Sprintf("PV %d against %d of %s", x.AttackerPV, x.DefenderPV, defenders))
			if l := lossText(x.AttackerLosses); l != "" {
				s += " The stormers lost " + l + "."
			}
			if l := lossText(x.DefenderLosses); l != "" {
				s += " The garrison lost " + l + "."
			}
			if x.Exhausted > 0 {
				s += " " + english.Count(x.Exhausted, "stormer") + " exhausted."
			}
			return s
		},
		Clash: func(w Words, x *engine.AssaultResolved) (Clash, bool) {
			return Clash{Kind: "assault", Place: x.City, Sides: fmt.Sprintf("%s %s v. garrison %s", w.nation(x.Nation), x.Force, ids(x.Defenders)),
				Outcome: fmt.Sprintf("%s (die %d, %s column)", x.Outcome, x.Die, x.Column)}, true
		}}.entry(),

	// Cities taken, lost and risen.
	text[*engine.CityCaptured]{Section: SectionNews, Piece: "capture", Glance: GlanceCapture,
		Nation: cityCaptured,
		Referee: func(w Words, x *engine.CityCaptured) string {
			s := cityCaptured(w, x)
			if len(x.Forces) > 0 {
				s = strings.TrimSuffix(s, ".") + " with " + english.List(strings.Split(ids(x.Forces), ", ")) + "."
			}
			return s
		}}.entry(),
	text[*engine.GarrisonKilled]{Section: SectionEncounters, Heading: "Rising at", News: true, Glance: GlanceLoss,
		Nation: func(w Words, x *engine.GarrisonKilled) string {
			s := fmt.Sprintf("The garrison of %s (%s) fell below the minimum and was killed by the townsfolk.", x.City, ids(x.Forces))
			if x.Killed > 0 {
				s += " " + english.Count(x.Killed, "figure") + " " + english.Agree(x.Killed, "was", "were") + " lost."
			}
			if g := w.generalFates(x.Generals); g != "" {
				s += " " + g + " with them."
			}
			return s
		},
		Referee: func(w Words, x *engine.GarrisonKilled) string {
			s := fmt.Sprintf("%s's garrison of %s (%s, %s) fell below the minimum and was killed by the townsfolk; the city returns to %s.",
				w.nation(x.Nation), x.City, ids(x.Forces), english.Count(x.Killed, "figure"), loyalTo(w, x.RevertsTo))
			if g := w.generalFates(x.Generals); g != "" {
				s += " " + g + " with them."
			}
			return s
		}}.entry(),
	text[*engine.CityReverted]{Section: SectionNews, Nation: cityReverted, Referee: cityReverted}.entry(),
}

func siegeStatus(w Words, x *engine.SiegeStatusChanged) string {
	switch {
	case x.Reason != "" && x.Status == game.NotBesieged:
		return fmt.Sprintf("Before %s: %s.", x.City, x.Reason)
	case x.Status == x.Previous:
		return fmt.Sprintf("%s stays %s by %s.", x.City, x.Status, w.nations(x.Besiegers))
	}
	s := fmt.Sprintf("%s is now %s by %s (it was %s).", x.City, x.Status, w.nations(x.Besiegers), x.Previous)
	if x.Reason != "" {
		s += " " + sentenceEnd(capitalise(x.Reason))
	}
	return s
}

func siegeSide(attacker bool) string {
	if attacker {
		return "the besiegers"
	}
	return "the garrison"
}

func siegeLosses(side string, x *engine.SiegeLosses) string {
	if l := lossText(x.Losses); l != "" {
		return fmt.Sprintf("Siege losses of %s at %s: %s.", side, x.City, l)
	}
	return fmt.Sprintf("%s at %s lost no figures to the siege.", capitalise(side), x.City)
}

func breach(who string, x *engine.Breach) string {
	if x.Breaches > x.Before {
		return fmt.Sprintf("%s before %s made %s in the walls (now %d).", who, x.City, english.Count(x.Breaches-x.Before, "breach"), x.Breaches)
	}
	return fmt.Sprintf("%s before %s made no breach (the walls have %d).", who, x.City, x.Breaches)
}

func surrender(w Words, garrison string, x *engine.Surrender) string {
	if x.Surrendered {
		s := fmt.Sprintf("%s surrendered after the first breach (die %d, needed %d or less).", garrison, x.Die, x.Need)
		if x.Captured != nil {
			if g := w.generalFates(x.Captured.Generals); g != "" {
				s += " " + g + "."
			}
		}
		return s
	}
	return fmt.Sprintf("%s refused to surrender (die %d, needed %d or less).", garrison, x.Die, x.Need)
}

// assault tells a storm by who; odds, for the referee, the point values
// compared.
func assault(w Words, x *engine.AssaultResolved, who, odds string) string {
	s := fmt.Sprintf("%s stormed %s", who, x.City)
	if x.Infantry > 0 {
		s += " with " + english.Count(x.Infantry, "infantry")
	}
	s += " ("
	if odds != "" {
		s += odds + "; "
	}
	s += fmt.Sprintf("odds column %s, die %d", x.Column, x.Die)
	if x.Breaches > 0 {
		s += fmt.Sprintf(" +%d for the breaches", x.Breaches)
	}
	s += "): " + x.Outcome + "."
	if x.Captured != nil {
		if g := w.generalFates(x.Captured.Generals); g != "" {
			s += " " + g + "."
		}
	}
	return s
}

func cityCaptured(w Words, x *engine.CityCaptured) string {
	from := "neutral hands"
	if x.From != "" {
		from = w.nation(x.From)
	}
	if x.Recaptured {
		return fmt.Sprintf("%s retook %s from %s.", w.nation(x.By), x.City, from)
	}
	return fmt.Sprintf("%s took %s from %s.", w.nation(x.By), x.City, from)
}

func cityReverted(w Words, x *engine.CityReverted) string {
	return fmt.Sprintf("%s, abandoned by %s, returned to %s.", x.City, w.nation(x.From), loyalTo(w, x.To))
}

// loyalTo names the nation a city is loyal to, "neutrality" for none.
func loyalTo(w Words, n game.NationID) string {
	if n == "" {
		return "neutrality"
	}
	return w.nation(n)
}

// diceText prints dice: "2, 5 and 6".
func diceText(dice []int) string {
	s := make([]string, len(dice))
	for i, d := range dice {
		s[i] = fmt.Sprint(d)
	}
	return english.List(s)
}
