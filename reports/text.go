package reports

import (
	"encoding/json"
	"fmt"
	"github.com/syw-pbem/pbem/game"
	"strings"

	"github.com/syw-pbem/pbem/internal/english"
)

// Text renders the model as plain text: the body of the report mail, useful
// with no PDF viewer (cover, forces, scouting, battles, treasury, treaties,
// rulings, then the order template).
func Text(md *Model) string {
	var b strings.Builder
	title := fmt.Sprintf("%s — %s", md.NationName, md.TurnLabel)
	if md.Starting {
		title = fmt.Sprintf("%s — starting report, orders for %s", md.NationName, md.TurnLabel)
	} else if md.Resolved != "" {
		title = fmt.Sprintf("%s — report of %s", md.NationName, md.Resolved)
	}
	fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat("=", len([]rune(title))))
	fmt.Fprintf(&b, "Game: %s (%s)\nNext orders: %s\n", md.GameName, md.Game, md.TurnLabel)
	if md.Deadline != "" {
		fmt.Fprintf(&b, "Deadline: %s\n", md.Deadline)
	}
	fmt.Fprintf(&b, "Treasury: %s\n", english.Count(md.Treasury.Total, "crown"))
	section(&b, "The month")
	for _, s := range md.Summary {
		fmt.Fprintf(&b, "- %s\n", s)
	}
	if len(md.Battles) > 0 {
		section(&b, "Battles and encounters")
		for _, n := range md.Battles {
			fmt.Fprintf(&b, "%s\n", n.Title)
			for _, t := range n.Text {
				fmt.Fprintf(&b, "  %s\n", t)
			}
		}
	}
	section(&b, "Your forces")
	for _, f := range md.Forces {
		forceText(&b, f)
	}
	if len(md.Fleets) > 0 {
		section(&b, "Your fleets")
		for _, f := range md.Fleets {
			forceText(&b, f)
		}
	}
	if len(md.Depots) > 0 {
		section(&b, "Depots")
		for _, d := range md.Depots {
			fmt.Fprintf(&b, "%s at %s%s\n", d.ID, d.Where, depotNote(md, d))
		}
	}
	if len(md.Movements) > 0 {
		section(&b, "Marches, supply and orders")
		for _, s := range md.Movements {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	if len(md.Scouting) > 0 {
		section(&b, "Scouting")
		for _, s := range md.Scouting {
			fmt.Fprintf(&b, "%s scouted %s (%s) at %s, %s level: %s\n", ids(s.Scouts), s.Target, s.Of, s.Where, s.Level, s.Learned)
		}
	}
	section(&b, "Foreign forces")
	for _, f := range md.Foreign {
		fmt.Fprintf(&b, "%s\n", foreignLine(md, f))
	}
	if len(md.LastSeen) > 0 {
		section(&b, "Last seen")
		for _, f := range md.LastSeen {
			fmt.Fprintf(&b, "%s\n", foreignLine(md, f))
		}
	}
	section(&b, "Treasury")
	for i, l := range LedgerRows(md.Treasury) {
		what := l.What
		if l.City != "" {
			what += " " + l.City
		}
		sign := "%+8d"
		if i == 0 {
			sign = "%8d"
		}
		fmt.Fprintf(&b, "%-24s "+sign+" %s", what, l.Crowns, english.Noun(l.Crowns, "crown"))
		if l.Why != "" {
			fmt.Fprintf(&b, "  (%s)", l.Why)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-24s %8d %s\n", "Balance", md.Treasury.Total, english.Noun(md.Treasury.Total, "crown"))
	for _, c := range md.Treasury.Cities {
		fmt.Fprintf(&b, "  held at %-14s %8d %s\n", c.City, c.Crowns, english.Noun(c.Crowns, "crown"))
	}
	if len(md.Treaties) > 0 {
		section(&b, "Treaties")
		for _, t := range md.Treaties {
			state := "awaiting attestations"
			if t.Published != "" {
				state = "published " + t.Published
			}
			fmt.Fprintf(&b, "%s %q (%s), %s\n", t.ID, t.Title, md.nationNames(t.Parties), state)
			for _, l := range strings.Split(strings.TrimSpace(t.Text), "\n") {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
	}
	if len(md.Rulings) > 0 {
		section(&b, "Rulings")
		for _, r := range md.Rulings {
			fmt.Fprintf(&b, "- %s\n", r)
		}
	}
	section(&b, "Order template for "+md.TurnLabel)
	b.WriteString(md.Template)
	return b.String()
}

func section(b *strings.Builder, name string) {
	fmt.Fprintf(b, "\n%s\n%s\n", name, strings.Repeat("-", len([]rune(name))))
}

func depotNote(md *Model, d Depot) string {
	var s string
	if d.Nation != md.Nation {
		s += " (granted by " + string(d.Nation) + ")"
	}
	if len(d.GrantedTo) > 0 {
		s += " supplies also " + ids2(d.GrantedTo)
	}
	return s
}

func forceText(b *strings.Builder, f OwnForce) {
	fmt.Fprintf(b, "%s at %s — %s\n", f.ID, f.Where, contentsText(f))
	var notes []string
	notes = append(notes, fmt.Sprintf("%s, %d MP", f.Stance, f.MP))
	if f.Standing != "" {
		notes = append(notes, f.Standing)
	}
	if f.Figures > 0 {
		notes = append(notes, fmt.Sprintf("%s (%s)", english.Count(f.Figures, "figure"), f.Size))
	}
	if f.Exhausted > 0 {
		notes = append(notes, fmt.Sprintf("%d exhausted", f.Exhausted))
	}
	if f.Supply != "" {
		notes = append(notes, "supply: "+f.Supply)
	}
	if f.Garrison {
		notes = append(notes, "garrison")
	}
	if f.Fieldworks > 0 {
		notes = append(notes, fmt.Sprintf("fieldworks %d\"", f.Fieldworks))
	}
	if f.Aboard != "" {
		notes = append(notes, "aboard "+string(f.Aboard))
	}
	if len(f.Cargo) > 0 || f.CargoCapacity > 0 {
		notes = append(notes, fmt.Sprintf("cargo %s (%d of %d points)", orNone(ids(f.Cargo)), f.CargoPoints, f.CargoCapacity))
	}
	fmt.Fprintf(b, "    %s\n", strings.Join(notes, "; "))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// foreignLine prints what the nation knows of a foreign force.
func foreignLine(md *Model, f Foreign) string {
	id := f.ID
	if id == "" {
		id = "force"
	}
	size := string(f.Size)
	if f.Ships != "" {
		size = "fleet " + string(f.Ships)
		if f.Size != "" {
			size += ", troops " + string(f.Size)
		}
	}
	s := fmt.Sprintf("%s of %s at %s: %s", id, md.nationName(f.Nation), f.Where, size)
	if f.Level != "" && f.Level != "size" {
		s += "; " + f.Level + ": " + revealedText(f)
	}
	if f.Seen != "" {
		s += fmt.Sprintf(" (seen %s, %s ago)", f.Seen, english.Count(f.Age, "turn"))
	}
	return s
}

func revealedText(f Foreign) string {
	var parts []string
	switch {
	case len(f.Troops) > 0 || len(f.Guns) > 0:
		for _, t := range f.Troops {
			parts = append(parts, troopText(t))
		}
		for _, g := range f.Guns {
			parts = append(parts, gunsText(g))
		}
	case len(f.Approx) > 0:
		parts = append(parts, f.Approx...)
	case len(f.Arms) > 0:
		parts = append(parts, strings.Join(f.Arms, ", "))
	}
	if f.ShipCounts != nil {
		parts = append(parts, shipsText(*f.ShipCounts))
	}
	switch {
	case len(f.Leaders) > 0:
		for _, l := range f.Leaders {
			parts = append(parts, leaderText(l))
		}
	case len(f.LeaderNames) > 0:
		parts = append(parts, "led by "+strings.Join(f.LeaderNames, ", "))
	case f.HasGeneral:
		parts = append(parts, "with a general")
	}
	if f.Unsupplied {
		parts = append(parts, "unsupplied")
	}
	return strings.Join(parts, ", ")
}

// nationName is nation n's name as the report's list of nations gives it
// (the model keeps IDs, which the JSON attachment carries as they are).
func (md *Model) nationName(n game.NationID) string {
	for _, l := range md.Nations {
		if l.ID == n && l.Name != "" {
			return l.Name
		}
	}
	return capitalise(string(n))
}

// nationNames are the names of ns, as a list.
func (md *Model) nationNames(ns []game.NationID) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = md.nationName(n)
	}
	return strings.Join(s, ", ")
}

func ids2[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// JSON renders the model as the indented JSON attachment (docs/reports.md).
func JSON(md *Model) ([]byte, error) {
	out, err := json.MarshalIndent(md, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report JSON: %w", err)
	}
	return append(out, '\n'), nil
}
