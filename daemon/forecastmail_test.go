package daemon

import (
	"strings"
	"testing"
)

// exampleSheet is docs/orders.md's example sheet for Eisenmark, turn 1,
// with the test game's password.
const exampleSheet = `Sire, here are the orders for April.

GAME syw
NATION eisenmark
PASSWORD demo-eisenmark
TURN 1
%s
SPLIT E1 AS E4 24 C infantry
GARRISON E4 Konigsfeld
MOVE E1 TO Dresna
STANCE E1 ATTACK
BESIEGE E1 Dresna
SAIL E3 S2 Danzburg
EMBARK E2 ON E3
END
`

const forecastPDF = "forecast-turn-1.pdf"

// TestForecastInTheAnswer: a sheet with FORECAST ON is answered with the
// forecast of its turn — each force's path and end, supply, the fleet's
// voyage — and the choice holds for the nation's next sheet; FORECAST OFF
// takes it away again. (The harness's game has game.forecast off, the
// default.)
func TestForecastInTheAnswer(t *testing.T) {
	h := newHarness(t, nil)
	send := func(line string) string {
		id := h.send("eisenmark@pbem.localhost", "orders", strings.Replace(exampleSheet, "%s", line, 1))
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
	if pdf := attachments(t, ack)[forecastPDF]; !strings.HasPrefix(string(pdf), "%PDF") || len(pdf) > 300<<10 {
		t.Errorf("the answer's map %s is %d bytes, want a PDF of at most 300 KB", forecastPDF, len(pdf))
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
