package demo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports"
)

// notable is a one-line account of an event the turn's lines tell — a
// headline (a battle, a siege begun or lifted, an assault, a treaty,
// victory), a city taken or a landing — in the referee's sentence, or ""
// for the rest. What is notable is the category the event's kind declares
// (reports.Headline, reports.PieceOf).
func notable(m *hexmap.Map, e engine.Event) string {
	if s, ok := reports.Headline(m, e); ok {
		return s
	}
	switch reports.PieceOf(e) {
	case "capture", "landing":
		return reports.Sentence(m, engine.Referee, e)
	}
	return ""
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
		g.step("  %-11s %2d %-6s (%s); treasury %s", n.name, len(held), english.Noun(len(held), "city"), gains, english.Count(treasury, "crown"))
	}
	// The set pieces of the year, counted and told by the category their
	// kinds declare (reports.PieceOf, reports.Headline).
	counts := map[string]int{}
	for _, e := range g.res.Events {
		counts[reports.PieceOf(e)]++
	}
	var parts []string
	for _, k := range []string{"land battle", "sea battle", "assault", "capture", "landing"} {
		s := english.Count(counts[k], k)
		if k == "capture" {
			s = english.Count(counts[k], "city") + " taken"
		}
		parts = append(parts, s)
	}
	g.step("  %s", strings.Join(parts, ", "))
	for _, e := range g.res.Events {
		if s, ok := reports.Headline(g.d.Game.Map, e); ok {
			g.step("  - %s", s)
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
	// The game itself, as the hash-chained archive "pbem export" writes:
	// "pbem verify" resolves every turn of it again to the same bytes.
	archive := filepath.Join(g.o.Out, "game.archive")
	n, err := g.d.Game.ExportFile(ctx, archive)
	if err != nil {
		return err
	}
	g.step("Reports are in %s; the game's archive (%s) is %s: \"pbem verify %s\" resolves it again.",
		g.o.Out, english.Count(n, "turn record"), archive, archive)
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

// involved returns, for each set piece among events (reports.PieceOf: a
// land or sea battle, a siege, an assault, a landing; a capture is not
// one), the nations taking part (the events' Nations), sorted. An assault
// is a siege's too: the report tells it under the siege.
func involved(es []engine.Event) map[string][]string {
	out := map[string][]string{}
	add := func(what string, ns []game.NationID) {
		for _, n := range ns {
			if !slices.Contains(out[what], string(n)) {
				out[what] = append(out[what], string(n))
			}
		}
		slices.Sort(out[what])
	}
	for _, e := range es {
		switch what := reports.PieceOf(e); what {
		case "", "capture":
		case "assault":
			add("siege", e.Head().Nations)
			add(what, e.Head().Nations)
		default:
			add(what, e.Head().Nations)
		}
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
