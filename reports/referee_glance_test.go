package reports_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

// refereePDFText renders the master report of scripted turn i and returns
// its text, page by page.
func refereePDFText(t *testing.T, g *scripted, md *reports.RefereeModel) []string {
	t.Helper()
	var b bytes.Buffer
	if err := reports.RenderReferee(&b, md, g.m, nil); err != nil {
		t.Fatal(err)
	}
	return strings.Split(pdfText(t, b.Bytes()), "\f")
}

// TestRefereeFirstPage: the first page of the master report names every
// battle of the turn (land and sea, by place) and every nation with its
// order status, FINAL marks and the sender's address included.
func TestRefereeFirstPage(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	md := refereeOf(t, g, 4)
	pages := refereePDFText(t, g, md)
	first := pages[0]
	battles := 0
	for _, e := range g.turns[4].events {
		var where string
		switch x := e.(type) {
		case *engine.LandBattle, *engine.SeaBattle:
			where = reports.Where(g.m, x.Head().Place)
		default:
			continue
		}
		battles++
		if !strings.Contains(first, where) {
			t.Errorf("the first page does not name the battle at %s:\n%s", where, first)
		}
	}
	if battles == 0 {
		t.Fatal("the turn has no battle: pick another")
	}
	want := map[string]string{
		"Eisenmark": "orders", "Fromande": "orders",
		"Hispardia": "NMR: held on DEFEND", "Morgronskia": "NMR: held on DEFEND", "Unterreich": "NMR: held on DEFEND",
	}
	for name, status := range want {
		re := regexp.MustCompile(`(?m)^\s*` + name + `\s+` + regexp.QuoteMeta(status))
		if !re.MatchString(first) {
			t.Errorf("the first page has no line %q for %s:\n%s", status, name, first)
		}
	}
	for _, s := range []string{"eisenmark@pbem.localhost", "fromande@pbem.localhost", "Battles, sieges and assaults", "Treasuries"} {
		if !strings.Contains(first, s) {
			t.Errorf("the first page lacks %q", s)
		}
	}
	if strings.Contains(first, "Appendix") {
		t.Error("the dice appendix starts on the first page")
	}
}

// TestRefereeFinalAndRefused: a sheet marked FINAL and a refused sheet show
// in the orders at a glance, and the refused one asks for attention
// without counting as orders.
func TestRefereeFinalAndRefused(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	tp := g.turns[4]
	md, err := reports.BuildReferee(reports.RefereeInput{Map: g.m, Rules: ruleset.SYW1752(), State: tp.state, Events: tp.events, Rolls: tp.rolls,
		Zone: zone(), NMRStreaks: map[game.NationID]int{"unterreich": 3},
		Sheets: []reports.SheetReceipt{
			{Nation: "eisenmark", Received: testDeadline.Add(-26 * time.Hour), Receipt: "3f2a9c81d0", From: "k@example.org", Final: true},
			{Nation: "hispardia", Received: testDeadline.Add(-time.Hour), Receipt: "0000000000", From: "h@example.org", Refused: true},
		}})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]reports.OrderStatus{}
	for _, o := range md.Glance.Orders {
		status[string(o.Nation)] = o
	}
	if s := status["eisenmark"]; s.Status != "orders, FINAL" || s.From != "k@example.org" {
		t.Errorf("eisenmark: %+v, want orders, FINAL from k@example.org", s)
	}
	if s := status["hispardia"]; s.Status != "NMR: held on DEFEND" || s.Refused != 1 {
		t.Errorf("hispardia (only a refused sheet): %+v, want NMR with 1 refused sheet", s)
	}
	if s := status["unterreich"]; s.NMRTurns != 3 {
		t.Errorf("unterreich: %+v, want an NMR streak of 3", s)
	}
	att := strings.Join(md.Glance.Attention, "\n")
	for _, s := range []string{"Hispardia from h@example.org was refused", "Unterreich has sent no orders for 3 turns"} {
		if !strings.Contains(att, s) {
			t.Errorf("attention lacks %q:\n%s", s, att)
		}
	}
}

// TestRefereeDiceAppendix: every die of the turn is in the appendix, once,
// with its result, however the dice are grouped.
func TestRefereeDiceAppendix(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	md := refereeOf(t, g, 4)
	pages := refereePDFText(t, g, md)
	all := strings.Join(pages, "\n")
	i := strings.Index(all, "Appendix: every die roll")
	if i < 0 {
		t.Fatal("no dice appendix")
	}
	app := all[i:]
	if j := strings.Index(app, "unless one is named."); j >= 0 {
		app = app[j:] // past the example in the explanation
	}
	seen := make([]int, len(md.Rolls))
	run := regexp.MustCompile(`#(\d+)(?:–(\d+))?[^#:]*:((?: \d+)+)`)
	for _, m := range run.FindAllStringSubmatch(app, -1) {
		first, _ := strconv.Atoi(m[1])
		last := first
		if m[2] != "" {
			last, _ = strconv.Atoi(m[2])
		}
		results := strings.Fields(m[3])
		if len(results) != last-first+1 {
			t.Errorf("run %q: %d results for dice %d–%d", m[0], len(results), first, last)
			continue
		}
		for k, r := range results {
			n := first + k
			if n < 1 || n > len(md.Rolls) {
				t.Errorf("run %q: die %d of %d", m[0], n, len(md.Rolls))
				continue
			}
			seen[n-1]++
			if got, _ := strconv.Atoi(r); got != md.Rolls[n-1].Result {
				t.Errorf("die %d printed %d, thrown %d", n, got, md.Rolls[n-1].Result)
			}
		}
	}
	for n, k := range seen {
		if k != 1 {
			t.Errorf("die %d (%s, %s) is in the appendix %d times, want once", n+1, md.Rolls[n].Step, md.Rolls[n].Purpose, k)
		}
	}
	groups := reports.RollGroups(md.Rolls)
	total := 0
	for _, gr := range groups {
		total += gr.Count
	}
	if total != len(md.Rolls) || len(groups) >= len(md.Rolls) {
		t.Errorf("%d groups hold %d dice of %d", len(groups), total, len(md.Rolls))
	}
}
