package reports_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

// pages returns a PDF's text page by page (pdftotext ends each page with a
// form feed), or skips without pdftotext.
func pages(t *testing.T, pdf []byte) []string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	ps := strings.Split(string(out), "\f")
	if len(ps) > 0 && strings.TrimSpace(ps[len(ps)-1]) == "" {
		ps = ps[:len(ps)-1]
	}
	return ps
}

// TestReportOfTurn1SaysTurn1OnEveryPage: the report mailed after Turn 1 is
// labelled Turn 1 — its title, every page's footer, the JSON — and names
// Turn 2 only as the turn its order sheet is for; the referee's the same.
func TestReportOfTurn1SaysTurn1OnEveryPage(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	turn1 := g.start.Calendar.Label(1) // "Turn 1, April 1752"
	turn2 := g.start.Calendar.Label(2)
	md := reportsOf(t, g, "eisenmark")[1]
	if md.ResolvedTurn != 1 || md.Resolved != turn1 || md.Turn != 2 || md.TurnLabel != turn2 {
		t.Errorf("JSON labels: ResolvedTurn %d %q, Turn %d %q; want 1 %q and 2 %q", md.ResolvedTurn, md.Resolved, md.Turn, md.TurnLabel, turn1, turn2)
	}
	var b bytes.Buffer
	if err := reports.Render(&b, md, g.m, &reports.Options{Taxes: &ruleset.SYW1752().Taxes}); err != nil {
		t.Fatal(err)
	}
	checkPages(t, "Eisenmark's report", pages(t, b.Bytes()), turn1, turn2)
	if title := pdfTitle(t, b.Bytes()); title != "Eisenmark — report of "+turn1 {
		t.Errorf("the PDF's title is %q", title)
	}

	ref := refereeOf(t, g, 0)
	if ref.ResolvedTurn != 1 || ref.Resolved != turn1 {
		t.Errorf("referee JSON labels: ResolvedTurn %d %q", ref.ResolvedTurn, ref.Resolved)
	}
	b.Reset()
	if err := reports.RenderReferee(&b, ref, g.m, nil); err != nil {
		t.Fatal(err)
	}
	checkPages(t, "the referee's report", pages(t, b.Bytes()), turn1, turn2)
	if title := pdfTitle(t, b.Bytes()); title != "Referee — report of "+turn1 {
		t.Errorf("the referee's PDF's title is %q", title)
	}
	if text := reports.RefereeText(ref); !strings.HasPrefix(text, "Referee — report of "+turn1) {
		t.Errorf("the referee's mail body begins %q", strings.SplitN(text, "\n", 2)[0])
	}
}

// checkPages: every page's footer names the turn resolved; the next turn
// appears only where the next orders are meant.
func checkPages(t *testing.T, who string, ps []string, resolved, next string) {
	t.Helper()
	if len(ps) < 3 {
		t.Fatalf("%s: %d pages", who, len(ps))
	}
	for i, p := range ps {
		footer := fmt.Sprintf("report of %s — page %d", resolved, i+1)
		if !strings.Contains(p, footer) {
			t.Errorf("%s, page %d: no footer %q", who, i+1, footer)
		}
		for _, line := range strings.Split(p, "\n") {
			if strings.Contains(line, next) && !strings.Contains(line, "Order sheet for "+next) &&
				!strings.Contains(line, "NEXT ORDERS") && !strings.Contains(line, "Next orders: "+next) && !strings.Contains(line, "# Orders of") {
				t.Errorf("%s, page %d names the next turn as if reported on: %q", who, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// pdfTitle is the PDF's Title (pdfinfo), or skips.
func pdfTitle(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		t.Skip("pdfinfo not installed")
	}
	cmd := exec.Command("pdfinfo", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Title:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
