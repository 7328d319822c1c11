package reports_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is meant):\n%s", name, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// pdfText extracts a PDF's text with pdftotext -layout, or skips.
func pdfText(t testing.TB, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): not checking the PDF's text")
	}
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func render(t testing.TB, md *reports.Model, opts *reports.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := reports.Render(&b, md, scriptedGame(t).m, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGoldenEisenmark pins the model (as JSON), the mail body and the PDF's
// text of Eisenmark's starting report and of its report after eight turns.
func TestGoldenEisenmark(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	ms := reportsOf(t, g, "eisenmark")
	for _, c := range []struct {
		name string
		md   *reports.Model
	}{{"start", ms[0]}, {"turn8", ms[len(ms)-1]}} {
		js, err := reports.JSON(c.md)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "eisenmark-"+c.name+".json", js)
		golden(t, "eisenmark-"+c.name+".txt", []byte(reports.Text(c.md)))
		golden(t, "eisenmark-"+c.name+".pdf.txt", []byte(pdfText(t, render(t, c.md, nil))))
	}
}

// TestPDFByteStable: the same model renders to the same bytes, on A4 and A3.
func TestPDFByteStable(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	md := reportsOf(t, g, "fromande")[3]
	for _, size := range []string{"A4", "A3"} {
		a := render(t, md, &reports.Options{PageSize: size})
		b := render(t, md, &reports.Options{PageSize: size})
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings of the same report differ", size)
		}
		if len(a) > 1<<20 {
			t.Errorf("%s: the report is %d bytes, over 1 MB", size, len(a))
		}
	}
}

// TestTemplateChecks: every nation's pre-filled template, for the opening
// and after every turn, is accepted by the checker as it is (passwords
// are not verified, as in pbem check; the player fills in the password).
func TestTemplateChecks(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	states := []*engine.State{g.start}
	for _, tp := range g.turns {
		states = append(states, tp.state)
	}
	for _, n := range g.start.Nations {
		for i, md := range reportsOf(t, g, n.ID) {
			rep := parser.Check(md.Template, parser.CheckContext{Map: g.m, Rules: ruleset.SYW1752(), State: states[i], Game: "syw"})
			if md.YearEnd {
				dropUnaffordableFielding(rep)
			}
			if rep.Refused || rep.HasErrors() || rep.Count(parser.Warning) > 0 {
				t.Errorf("%s, %s: the template does not check cleanly: %+v\n%s", n.ID, md.TurnLabel, rep.Diagnostics, md.Template)
			}
			if want := len(md.Forces) + len(md.Fleets); !md.YearEnd && len(rep.Orders.List) != want {
				t.Errorf("%s, %s: %d orders accepted, want %d", n.ID, md.TurnLabel, len(rep.Orders.List), want)
			}
			// Mailed as it is after filling in the password.
			sheet := strings.Replace(md.Template, "PASSWORD "+reports.PasswordPlaceholder, "PASSWORD secret", 1)
			rep = parser.Check(sheet, parser.CheckContext{Map: g.m, Rules: ruleset.SYW1752(), State: states[i], Game: "syw",
				Nation:         n.ID,
				VerifyPassword: func(_ game.NationID, p string) bool { return p == "secret" }})
			if md.YearEnd {
				dropUnaffordableFielding(rep)
			}
			if rep.Refused || rep.HasErrors() {
				t.Errorf("%s, %s: with the password filled in: %+v", n.ID, md.TurnLabel, rep.Diagnostics)
			}
		}
	}
}

// dropUnaffordableFielding removes the checker's "fielding everything costs
// more than the treasury holds" error from a year-end check. The year-end
// template keeps every force (FIELD ALL: a sheet mailed unchanged must not
// disband the army), and the engine does not collect the year-end taxes yet
// (issue 11), so the checker compares the cost with the treasury before
// taxes. Every other error still fails the test.
func dropUnaffordableFielding(rep *parser.Report) {
	out := rep.Diagnostics[:0]
	for _, d := range rep.Diagnostics {
		if d.Severity == parser.Error && d.Source == "FIELD ALL" && strings.Contains(d.Message, "fielding everything costs") {
			continue
		}
		out = append(out, d)
	}
	rep.Diagnostics = out
}

func refereeOf(t testing.TB, g *scripted, i int) *reports.RefereeModel {
	t.Helper()
	tp := g.turns[i]
	md, err := reports.BuildReferee(reports.RefereeInput{Map: g.m, Rules: ruleset.SYW1752(), State: tp.state,
		Events: tp.events, Rolls: tp.rolls, Deadline: testDeadline, Zone: zone(),
		Rulings: []reports.Ruling{{Text: "Approved: Eisenmark may hire 24 Swiss infantry.", Nations: []game.NationID{"eisenmark"}}},
		Sheets: []reports.SheetReceipt{
			{Nation: "eisenmark", Received: testDeadline.Add(-26 * time.Hour), Receipt: "3f2a9c81d0", From: "eisenmark@pbem.localhost"},
			{Nation: "fromande", Received: testDeadline.Add(-3 * time.Hour), Receipt: "a81c0e22f9", From: "fromande@pbem.localhost", Errors: 1},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// TestRefereeReport pins the referee's master report after the turn with
// the most events: every force with its ID, every die roll, the sheets
// received and missing.
func TestRefereeReport(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	md := refereeOf(t, g, 4)
	js, err := json.MarshalIndent(md, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "referee-turn5.json", append(js, '\n'))
	golden(t, "referee-turn5.txt", []byte(reports.RefereeText(md)))
	var a, b bytes.Buffer
	if err := reports.RenderReferee(&a, md, g.m, nil); err != nil {
		t.Fatal(err)
	}
	if err := reports.RenderReferee(&b, md, g.m, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings of the referee report differ")
	}
	text := pdfText(t, a.Bytes())
	for _, f := range g.turns[4].state.Forces {
		if !strings.Contains(text, string(f.ID)) {
			t.Errorf("the referee's PDF does not show force %s", f.ID)
		}
	}
	for _, want := range []string{"No orders (NMR), held on DEFEND: hispardia, morgronskia, unterreich", "3f2a9c81d0", "Appendix: every die roll", "Swiss infantry"} {
		if !strings.Contains(text, want) {
			t.Errorf("the referee's PDF lacks %q", want)
		}
	}
	if len(md.Rolls) == 0 {
		t.Error("the turn threw no dice: pick a turn with battles")
	}
}

// TestPreparedDocumentSameBytes: a report whose document was prepared in
// the background (Options.Prepare, as pbem report does) is byte for byte
// the report rendered without it; a second render with the same options,
// or one whose page size changed after Prepare, starts its own document.
func TestPreparedDocumentSameBytes(t *testing.T) {
	t.Parallel()
	g := scriptedGame(t)
	md := reportsOf(t, g, "fromande")[3]
	want := render(t, md, &reports.Options{PageSize: "A4"})
	opts := &reports.Options{PageSize: "A4"}
	opts.Prepare()
	if got := render(t, md, opts); !bytes.Equal(got, want) {
		t.Fatalf("the prepared report differs from the plain one (%d and %d bytes)", len(got), len(want))
	}
	if got := render(t, md, opts); !bytes.Equal(got, want) {
		t.Fatal("a second render with the prepared options differs")
	}
	opts = &reports.Options{PageSize: "A4"}
	opts.Prepare()
	opts.PageSize = "A3"
	if got, a3 := render(t, md, opts), render(t, md, &reports.Options{PageSize: "A3"}); !bytes.Equal(got, a3) {
		t.Fatal("options changed to A3 after Prepare did not give the A3 report")
	}
}
