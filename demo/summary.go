package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// notable is a one-line account of an event the summary tells (a battle,
// a siege, an assault, a capture, a landing, a treaty, a ruling, victory),
// or "" for the rest.
func notable(e engine.Event) string {
	nations := func(ns []game.NationID) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = string(n)
		}
		return strings.Join(s, " and ")
	}
	switch e := e.(type) {
	case *engine.LandBattle:
		w := "undecided"
		if e.Winner == 0 || e.Winner == 1 {
			w = "won by " + nations(e.Sides[e.Winner].Nations)
		}
		where := e.Hex.String()
		if e.City != "" {
			where = e.City + " (" + where + ")"
		}
		return fmt.Sprintf("land battle at %s between %s: %s", where, nations(e.Nations), w)
	case *engine.SeaBattle:
		return fmt.Sprintf("sea battle in %s between %s", e.Place, nations(e.Nations))
	case *engine.SiegeStatusChanged:
		if e.Status == game.NotBesieged && e.Previous == game.NotBesieged {
			return fmt.Sprintf("%s: %s", e.City, e.Reason)
		}
		return fmt.Sprintf("%s: %s (was %s) by %s", e.City, orNone(e.Status.String()), orNone(e.Previous.String()), nations(e.Besiegers))
	case *engine.AssaultResolved:
		return fmt.Sprintf("assault on %s by %s (%s, %d infantry)", e.City, e.Nation, e.Force, e.Infantry)
	case *engine.CityCaptured:
		from := "neutral"
		if e.From != "" {
			from = string(e.From)
		}
		return fmt.Sprintf("%s taken by %s from %s", e.City, e.By, from)
	case *engine.Debarked:
		return fmt.Sprintf("%s lands %s from %s at %s", nations(e.Nations), e.Force, e.Fleet, e.Hex)
	case *engine.TreatyPublished:
		return fmt.Sprintf("treaty %s %q published: %s", e.Treaty, e.Title, nations(e.Parties))
	case *engine.RulingApplied:
		return fmt.Sprintf("the referee's ruling %s applied: %s %s", e.Token, e.Effect, e.Nation)
	case *engine.VictoryDeclared:
		return fmt.Sprintf("VICTORY: %s", nations(e.Winners))
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "not besieged"
	}
	return s
}

// summary prints the year: who holds which cities, the treasuries, the
// battles, sieges and assaults, the treaty, and victory if any.
func (g *demoGame) summary(ctx context.Context, st *engine.State) error {
	g.step("")
	g.step("The year in summary (%s):", st.Calendar.Label(st.Turn))
	for _, n := range nations {
		id := game.NationID(n.id)
		var held []string
		treasury := 0
		for _, c := range st.Cities {
			if c.Controller == id {
				held = append(held, c.Name)
				treasury += c.Treasury
			}
		}
		var taken []string
		for _, c := range held {
			if mc, ok := g.d.Game.Map.City(c); ok && mc.Capitol != id {
				if p, ok := g.d.Game.Map.ProvinceOf(mc.Hex); !ok || !slices.Contains(homeProvinces(g, id), p.Letter) {
					taken = append(taken, c)
				}
			}
		}
		gains := "no new cities"
		if len(taken) > 0 {
			gains = "took " + strings.Join(taken, ", ")
		}
		g.step("  %-11s %2d cities (%s); treasury %d crowns", n.name, len(held), gains, treasury)
	}
	counts := map[string]int{}
	for _, e := range g.res.Events {
		switch e.(type) {
		case *engine.LandBattle:
			counts["land battles"]++
		case *engine.SeaBattle:
			counts["sea battles"]++
		case *engine.AssaultResolved:
			counts["assaults"]++
		case *engine.CityCaptured:
			counts["cities taken"]++
		case *engine.Debarked:
			counts["landings"]++
		}
	}
	var parts []string
	for _, k := range []string{"land battles", "sea battles", "assaults", "cities taken", "landings"} {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	g.step("  %s", strings.Join(parts, ", "))
	for _, e := range g.res.Events {
		switch e.(type) {
		case *engine.LandBattle, *engine.SeaBattle, *engine.AssaultResolved, *engine.TreatyPublished, *engine.VictoryDeclared:
			g.step("  - %s", notable(e))
		case *engine.SiegeStatusChanged:
			g.step("  - siege of %s", notable(e))
		}
	}
	treaties := st.Treaties
	if ts, err := g.d.Game.Treaties(ctx); err == nil && len(ts) > 0 {
		treaties = ts // the daemon's ledger: attestations before publication
	}
	for _, t := range treaties {
		g.step("  treaty %s %q between %s: attested by %d of %d", t.ID, t.Title, joinIDs(t.Parties), len(t.Attested), len(t.Parties))
	}
	if st.Victory != nil {
		g.step("  victory: %s", joinIDs(st.Victory.Winners))
	} else {
		g.step("  no nation has won yet")
	}
	if g.res.Text {
		g.step("  The turn reports came as text mails without a PDF: they are saved as <nation>.txt.")
	}
	g.step("Reports are in %s.", g.o.Out)
	return nil
}

func joinIDs(ns []game.NationID) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// homeProvinces are the provinces a nation starts with.
func homeProvinces(g *demoGame, n game.NationID) []string {
	if nn, ok := g.d.Game.Map.Nation(n); ok {
		return nn.Provinces
	}
	return nil
}

// involved returns, for each set piece among events, the nations taking
// part (the events' Nations), sorted.
func involved(es []engine.Event) map[string][]string {
	out := map[string][]string{}
	for _, e := range es {
		var what string
		switch e.(type) {
		case *engine.LandBattle:
			what = "land battle"
		case *engine.SeaBattle:
			what = "sea battle"
		case *engine.SiegeStatusChanged, *engine.SiegeLosses, *engine.Breach, *engine.CounterBattery, *engine.Surrender:
			what = "siege"
		case *engine.AssaultResolved:
			// An assault is a siege's too: the report tells it under the siege.
			for _, n := range e.Head().Nations {
				if !slices.Contains(out["siege"], string(n)) {
					out["siege"] = append(out["siege"], string(n))
				}
			}
			slices.Sort(out["siege"])
			what = "assault"
		case *engine.Debarked:
			what = "landing"
		default:
			continue
		}
		for _, n := range e.Head().Nations {
			if !slices.Contains(out[what], string(n)) {
				out[what] = append(out[what], string(n))
			}
		}
		slices.Sort(out[what])
	}
	return out
}

// writeInvolved writes Out/involved.json: per turn folder, who took part
// in each set piece.
func writeInvolved(dir string, turns []TurnResult) error {
	m := map[string]map[string][]string{}
	for _, t := range turns {
		m[t.Folder] = t.Involved
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "involved.json"), append(b, '\n'), 0o644)
}
