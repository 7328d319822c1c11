package forecast

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// width is the reply's line width, as the checker's.
const width = 78

// Text writes the forecast as the section of the answer to a sheet:
// force by force, then fleets, sieges and crowns, then the orders the
// engine would not carry out. m names hexes by their cities and nations by
// their names.
func (fc *Forecast) Text(m *hexmap.Map) string {
	var b strings.Builder
	w := func(indent int, format string, a ...any) {
		writeWrapped(&b, indent, fmt.Sprintf(format, a...))
	}
	b.WriteString("\n== Forecast ==\n\n")
	if fc.YearEnd {
		w(0, "What these orders would do in %s by the rules the turn is resolved with, worked out on what you know of the game. Other nations' orders can change it.", fc.Label)
	} else {
		w(0, "What these orders would do in %s by the rules the turn is resolved with, worked out on what you know of the game, as if no foreign force moved. Other nations' orders and the dice can change it: where they decide, the odds are given.", fc.Label)
	}
	b.WriteString("\n")
	if len(fc.Forces) == 0 && len(fc.Fleets) == 0 {
		w(0, "You have no forces.")
	}
	for _, ff := range fc.Forces {
		if fc.YearEnd && ff.Disbanded == "" && !ff.New {
			continue // no movement at the year-end: only what leaves or comes
		}
		fc.forceText(&b, m, ff)
	}
	for _, fl := range fc.Fleets {
		if !fc.YearEnd {
			fc.fleetText(&b, m, fl)
		}
	}
	for _, sf := range fc.Sieges {
		fc.siegeText(&b, m, sf)
	}
	if len(fc.Captures) > 0 {
		w(0, "Cities your forces would take (if no garrison is there by then): %s.", english.List(fc.Captures))
		b.WriteString("\n")
	}
	switch {
	case len(fc.Costs) == 0 && fc.After == fc.Treasury:
		w(0, "Crowns: these orders spend nothing; your treasuries hold %s.", english.Count(fc.Treasury, "crown"))
	default:
		w(0, "Crowns: %s in your treasuries now; %s after the turn.", english.Count(fc.Treasury, "crown"), english.Count(fc.After, "crown"))
		for _, c := range fc.Costs {
			if c.Crowns < 0 {
				w(4, "in:    %s, %s", english.Count(-c.Crowns, "crown"), c.What)
			} else {
				w(4, "spent: %s, %s", english.Count(c.Crowns, "crown"), c.What)
			}
		}
	}
	if len(fc.Ignored) > 0 {
		b.WriteString("\n")
		w(0, "The turn would not carry out:")
		for _, ig := range fc.Ignored {
			line := ""
			if ig.Line > 0 {
				line = fmt.Sprintf("line %d: ", ig.Line)
			}
			w(4, "%s%s — %s", line, ig.Order, ig.Reason)
		}
	}
	return b.String()
}

func (fc *Forecast) forceText(b *strings.Builder, m *hexmap.Map, ff ForceForecast) {
	w := func(indent int, format string, a ...any) { writeWrapped(b, indent, fmt.Sprintf(format, a...)) }
	head := string(ff.ID)
	if ff.New {
		head += " (new)"
	}
	switch {
	case ff.Aboard != "" && ff.Landed.IsZero() && ff.Embarked:
		w(0, "%s: embarks on %s in %s.", head, ff.Aboard, place(m, ff.Start))
	case ff.Aboard != "" && ff.Landed.IsZero():
		w(0, "%s: aboard %s.", head, ff.Aboard)
	case len(ff.Path) == 0 && !ff.Landed.IsZero():
		w(0, "%s: lands at %s.", head, place(m, game.AtHex(ff.Landed)))
	case len(ff.Path) == 0:
		w(0, "%s: stays in %s.", head, place(m, ff.End))
	default:
		steps := make([]string, len(ff.Path))
		for i, s := range ff.Path {
			how := ""
			switch {
			case s.Road:
				how = ", road"
			case s.River:
				how = ", across the river"
			}
			steps[i] = fmt.Sprintf("%s (%d MP%s)", stepName(m, s.At), s.MP, how)
		}
		w(0, "%s: from %s to %s.", head, place(m, ff.Start), strings.Join(steps, ", "))
		w(4, "Ends in %s having used %d of its %s.", place(m, ff.End), ff.MP, english.Count(ff.MA, "MP"))
	}
	if ff.Stopped != "" {
		next := ""
		if !ff.StopNext.IsZero() {
			next = fmt.Sprintf(" before %s", place(m, game.AtHex(ff.StopNext)))
		}
		w(4, "Stops short%s: %s.", next, ff.Stopped)
	} else if ff.Ordered && len(ff.Path) > 0 {
		w(4, "Carries out its orders.")
	}
	if ff.LandingRefused != "" {
		w(4, "Landing refused: %s.", ff.LandingRefused)
	}
	for _, c := range ff.Contacts {
		if !ff.Landed.IsZero() && c.At == game.AtHex(ff.Landed) && ff.Start.IsSea() {
			w(4, "Landing against %s at %s: it needs %d:1 in infantry, cavalry and gunners over the defenders' (each of your warships there counting as %d infantry), or the troops stay aboard.", foreign(m, c), place(m, c.At), fc.LandingOdds, fc.WarshipAsInfantry)
			continue
		}
		w(4, "Contact likely in %s: %s stands there. Meeting it stops the march there — a battle, a standoff or an overrun, as the stances and the dice decide; the rest of this forecast is as if it were not met.", place(m, c.At), foreign(m, c))
	}
	if ff.NeedsSupply && !fc.YearEnd {
		switch {
		case ff.Supplied && ff.SupplyBlocked:
			w(4, "Supply: from %s — but the foreign forces you know of block the line where they stand (%d or more infantry and cavalry block a hex and the hexes next to it): unless they move, it will be UNSUPPLIED.", supplySource(ff), fc.Blocking)
			if len(ff.Attrition) > 0 {
				w(4, "Attrition if so: %s.", attritionText(ff.Attrition))
			}
		case ff.Supplied && ff.SupplyAtRisk:
			w(4, "Supply: from %s — a line foreign forces you know of could cut, if they are %d or more strong.", supplySource(ff), fc.Blocking)
			if len(ff.Attrition) > 0 {
				w(4, "Attrition if cut: %s.", attritionText(ff.Attrition))
			}
		case ff.Supplied:
			w(4, "Supply: supplied from %s.", supplySource(ff))
		default:
			reason := ""
			if ff.SupplyReason != "" {
				reason = ": " + ff.SupplyReason
			}
			w(4, "Supply: UNSUPPLIED%s.", reason)
			if len(ff.Attrition) > 0 {
				w(4, "Attrition: %s.", attritionText(ff.Attrition))
			}
		}
	}
	if ff.Disbanded != "" {
		w(4, "Leaves the game at the end of the turn (%s).", ff.Disbanded)
	}
	b.WriteString("\n")
}

func supplySource(ff ForceForecast) string {
	if ff.SupplySource == "" {
		return "a city"
	}
	if ff.SupplyMP > 0 {
		return fmt.Sprintf("%s, %d MP away at the artillery rate", ff.SupplySource, ff.SupplyMP)
	}
	return ff.SupplySource
}

// attritionText writes the odds of each stack's loss: "2 of 40 C
// line-infantry, or 3 on 40%".
func attritionText(ls []engine.LossOdds) string {
	var parts []string
	for _, l := range ls {
		what := ""
		if l.Gun != 0 {
			what = english.Noun(l.Before, l.Gun.String())
		} else {
			what = l.Grade.String() + " " + l.Arm.Keyword(l.Before)
		}
		s := fmt.Sprintf("%d of %d %s", l.Min, l.Before, what)
		if l.Max != l.Min {
			s += fmt.Sprintf(" (%d%% chance of %d)", l.ChanceOfMax, l.Max)
		}
		parts = append(parts, s)
	}
	return english.List(parts)
}

func (fc *Forecast) fleetText(b *strings.Builder, m *hexmap.Map, fl FleetForecast) {
	w := func(indent int, format string, a ...any) { writeWrapped(b, indent, fmt.Sprintf(format, a...)) }
	if len(fl.Path) == 0 {
		w(0, "Fleet %s: stays in %s.", fl.ID, place(m, fl.End))
	} else {
		steps := make([]string, len(fl.Path))
		for i, s := range fl.Path {
			steps[i] = fmt.Sprintf("%s (%d MP, %s)", stepName(m, s.At), s.MP, legWind(m, fl, i))
		}
		w(0, "Fleet %s: from %s to %s.", fl.ID, place(m, fl.Start), strings.Join(steps, ", "))
		w(4, "Ends in %s having used %d of its %s. The winds are fixed on the map: no die decides a voyage.", place(m, fl.End), fl.MP, english.Count(fl.MA, "MP"))
	}
	if fl.Stopped != "" {
		w(4, "Stops short: %s.", fl.Stopped)
	}
	if fl.Capacity > 0 || len(fl.Cargo) > 0 {
		ids := make([]string, len(fl.Cargo))
		for i, id := range fl.Cargo {
			ids[i] = string(id)
		}
		cargo := "nothing"
		if len(ids) > 0 {
			cargo = english.List(ids)
		}
		w(4, "Cargo: %s, %d of %s.", cargo, fl.Used, english.Count(fl.Capacity, "cargo point"))
	}
	for _, c := range fl.Contacts {
		w(4, "Contact likely in %s: %s is there. Whether a sea battle follows depends on both fleets' stances and the dice.", place(m, c.At), foreign(m, c))
	}
	b.WriteString("\n")
}

// legWind says what a leg of a voyage costs and why.
func legWind(m *hexmap.Map, fl FleetForecast, i int) string {
	from := fl.Start
	if i > 0 {
		from = fl.Path[i-1].At
	}
	to := fl.Path[i].At
	if !from.IsSea() || !to.IsSea() {
		if to.IsSea() {
			return "leaving harbour"
		}
		return "entering harbour"
	}
	kind, marked := m.WindBetween(from.Sea, to.Sea)
	switch {
	case kind == hexmap.WithWind:
		return "with the wind"
	case kind == hexmap.BothWays:
		return "doldrums"
	case marked:
		return "against the wind"
	}
	return "no wind marked"
}

func (fc *Forecast) siegeText(b *strings.Builder, m *hexmap.Map, sf SiegeForecast) {
	w := func(indent int, format string, a ...any) { writeWrapped(b, indent, fmt.Sprintf(format, a...)) }
	ids := make([]string, len(sf.Forces))
	for i, id := range sf.Forces {
		ids[i] = string(id)
	}
	holder := "no nation"
	if sf.Controller != "" {
		holder = nationName(m, sf.Controller)
	}
	w(0, "Siege of %s (%s, held by %s, %s, %s): %s.", sf.City, sf.Hex, holder, sf.Status, english.Count(sf.Breaches, "breach"), english.List(ids))
	var gar []string
	for _, c := range sf.Garrison {
		gar = append(gar, foreign(m, c))
	}
	switch {
	case len(gar) == 0:
		w(4, "You know of no garrison: a city nobody defends is not besieged; your forces would take it at the end of the turn if they may.")
	case sf.GarrisonKnown:
		w(4, "Garrison: %s, %d infantry and cavalry by your scouts' count.", english.List(gar), sf.GarrisonFigures)
	default:
		w(4, "Garrison: %s; its numbers are not known to you.", english.List(gar))
	}
	if !sf.MaskOnly && len(gar) > 0 {
		if sf.GarrisonKnown {
			verdict := "enough to besiege it"
			if sf.Attackers < sf.Needed {
				verdict = "too few: the city would be masked, not besieged"
			}
			w(4, "A siege needs %d infantry and cavalry (3:1 over the garrison%s); you bring %d: %s.", sf.Needed, foreignNote(sf), sf.Attackers, verdict)
		} else {
			w(4, "A siege needs three times the garrison's infantry and cavalry%s; you bring %d. With fewer the city is masked.", foreignNote(sf), sf.Attackers)
		}
	}
	if sf.HeavyGuns > 0 {
		var odds []string
		for n, p := range sf.Breach {
			if p >= 0.05 && n >= sf.Breaches {
				odds = append(odds, fmt.Sprintf("%s %.0f%%", english.Count(n, "breach"), p))
			}
		}
		w(4, "Bombardment by %s: %s (if they stand before the city the whole turn and no counter-battery fire destroys them). On its first breach a besieged garrison surrenders on the die %.0f%% of the time.", english.Count(sf.HeavyGuns, "heavy gun"), strings.Join(odds, ", "), sf.Surrender)
	}
	if sf.AssaultOrdered {
		if sf.Assault != nil {
			var odds []string
			for _, o := range sf.Assault {
				odds = append(odds, fmt.Sprintf("%s %d in 6", o.Outcome, o.Sixths))
			}
			w(4, "Assault: %d PV against %d: %s.", sf.AssaultPV, sf.DefenderPV, strings.Join(odds, ", "))
		} else {
			w(4, "Assault: the odds depend on the garrison's strength, which your view does not hold; scout it to know them.")
		}
	}
	b.WriteString("\n")
}

func foreignNote(sf SiegeForecast) string {
	if sf.Loyal {
		return ""
	}
	return ", and at least 100 before a city not loyal to you"
}

// foreign names a known foreign force: "a large force of Prussia (P3)".
func foreign(m *hexmap.Map, c Contact) string {
	size := string(c.Size)
	what := "force"
	if c.Ships != "" {
		size, what = string(c.Ships), "fleet"
	}
	a := "a"
	if size != "" {
		a = "a " + size
	}
	return fmt.Sprintf("%s %s of %s (%s)", a, what, nationName(m, c.Nation), c.Force)
}

func nationName(m *hexmap.Map, n game.NationID) string {
	if nat, ok := m.Nation(n); ok && nat.Name != "" {
		return nat.Name
	}
	return string(n)
}

// place names a place as the reports do: "1910 (Konigsfeld)", "S2".
func place(m *hexmap.Map, p game.Place) string {
	if p.IsSea() || p.IsZero() {
		return p.String()
	}
	if c, ok := m.CityAt(p.Hex); ok {
		return fmt.Sprintf("%s (%s)", p.Hex, c.Name)
	}
	return p.Hex.String()
}

// stepName names a step of a path: "0808 Altburg", "S2".
func stepName(m *hexmap.Map, p game.Place) string {
	if !p.IsSea() {
		if c, ok := m.CityAt(p.Hex); ok {
			return p.Hex.String() + " " + c.Name
		}
	}
	return p.String()
}

// writeWrapped writes s wrapped at width, continuation lines indented by
// indent+4 and the first by indent.
func writeWrapped(b *strings.Builder, indent int, s string) {
	words := strings.Fields(s)
	col := 0
	pad := strings.Repeat(" ", indent)
	b.WriteString(pad)
	col = indent
	for i, wd := range words {
		if i > 0 {
			if col+1+len(wd) > width {
				b.WriteString("\n")
				b.WriteString(pad)
				b.WriteString("    ")
				col = indent + 4
			} else {
				b.WriteString(" ")
				col++
			}
		}
		b.WriteString(wd)
		col += len(wd)
	}
	b.WriteString("\n")
}
