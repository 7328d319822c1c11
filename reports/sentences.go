package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

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
	w := Words{m: m}
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
	w := Words{m: m}
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
			what = english.Noun(l.Before, l.Gun.String())
		} else {
			what = fmt.Sprintf("%s %s", l.Grade, armNoun(l.Before, l.Arm))
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

// forceLine prints a force's contents on one line: "E1: 48 C infantry, 12
// B light-cavalry, 4 field-guns; Keith".
func forceLine(f game.Force) string {
	var parts []string
	for _, t := range f.Troops {
		parts = append(parts, troopText(t))
	}
	for _, g := range f.Guns {
		parts = append(parts, gunsText(g))
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
