package daemon

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// forecastMapOut, when set, is where TestForecastInTheAnswer writes the
// map attached to its answer: docs/forecast-example.png is drawn from it.
var forecastMapOut = flag.String("forecast-map", "", "write the forecast map of TestForecastInTheAnswer's answer to this file")

// exampleSheet is the first sheet under "Example sheets" in docs/orders.md,
// with the test game's password and line (a FORECAST line, or none) after
// TURN.
func exampleSheet(t *testing.T, line string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(doc), "## Example sheets")
	m := regexp.MustCompile("(?s)```sheet\n(.*?)```").FindSubmatch(doc[max(at, 0):])
	if at < 0 || m == nil {
		t.Fatal("docs/orders.md has no example sheet")
	}
	sheet := strings.Replace(string(m[1]), "PASSWORD tobacco", "PASSWORD demo-eisenmark", 1)
	return strings.Replace(sheet, "TURN 1\n", "TURN 1\n"+line+"\n", 1)
}

const forecastPDF = "forecast-turn-1.pdf"

// TestForecastInTheAnswer: a sheet with FORECAST ON is answered with the
// forecast of its turn — each force's path and end, supply, the fleet's
// voyage — and the choice holds for the nation's next sheet; FORECAST OFF
// takes it away again. (The harness's game has game.forecast off, the
// default.)
func TestForecastInTheAnswer(t *testing.T) {
	h := newHarness(t, nil)
	send := func(line string) string {
		id := h.send("eisenmark@pbem.localhost", "orders", exampleSheet(t, line))
		ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
		if ack == "" {
			t.Fatal("no answer to the sheet")
		}
		return ack
	}
	ack := send("FORECAST ON")
	text := body(ack)
	for _, want := range []string{"== Forecast ==", "E1: from", "Dresna", "Fleet E3", "Supply:", "Crowns:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	pdf := attachments(t, ack)[forecastPDF]
	if !strings.HasPrefix(string(pdf), "%PDF") || len(pdf) > 300<<10 {
		t.Errorf("the answer's map %s is %d bytes, want a PDF of at most 300 KB", forecastPDF, len(pdf))
	}
	if *forecastMapOut != "" {
		if err := os.WriteFile(*forecastMapOut, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text, "0 errors") {
		t.Errorf("the example sheet has errors:\n%s", text)
	}
	if again := body(send("")); !strings.Contains(again, "== Forecast ==") {
		t.Errorf("the next sheet without a FORECAST line has no forecast: the choice did not hold:\n%s", again)
	}
	if off := body(send("FORECAST OFF")); strings.Contains(off, "== Forecast ==") {
		t.Errorf("FORECAST OFF still has the forecast:\n%s", off)
	}
}
