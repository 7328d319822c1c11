package templates

import (
	"strings"
	"testing"
)

func TestEveryTemplateRenders(t *testing.T) {
	data := map[string]any{
		"unknown-sender":      nil,
		"no-sheet":            map[string]any{"Game": "syw", "Nation": "eisenmark", "Turn": 3},
		"wrong-password":      map[string]any{"Nation": "Eisenmark", "From": "a@b"},
		"unregistered-notice": map[string]any{"Nation": "Eisenmark", "From": "a@b", "Password": true},
		"spoof-notice":        map[string]any{"Reason": "two From headers"},
		"wrong-nation":        map[string]any{"Named": "x", "From": "a@b", "Registered": "eisenmark"},
		"unreadable":          map[string]any{"Why": "too large"},
		"request":             map[string]any{"Nation": "Eisenmark", "NationID": "eisenmark", "Game": "syw", "Turn": "Turn 1", "Text": "Bribe\nthe governor", "Token": "R1"},
		"ruling":              map[string]any{"Verdict": "approved", "Token": "R1", "Text": "Bribe", "Ruling": "APPROVE R1", "Sentence": "Request R1 of Eisenmark approved, with no change to the game."},
		"requests-carried": map[string]any{"Nation": "Eisenmark", "Turn": "Turn 1", "Receipt": "abc",
			"Carried": []string{"R1 REQUEST \"Bribe\", approved by the referee"}, "Withdrawn": []string{"S2 SPECIAL \"Envoy\", awaiting the referee"}, "Lapsed": []string(nil)},
		"late":           map[string]any{"Closed": "the deadline (Monday)", "Arrived": "Monday", "Turn": "Turn 1", "Next": 2},
		"sheet-in-force": map[string]any{"Nation": "Eisenmark", "Turn": "Turn 1", "Receipt": "abc", "Received": "Monday", "Late": false},
		"referee-ack":    map[string]any{"Lines": []string{"line 1: APPROVE R1 — recorded"}},
		"internal-error": nil,
		"game-over": map[string]any{"Result": "Eisenmark won the campaign at the year-end 1752 (turn 7) with a tax base of 4900.",
			"Contenders": []struct {
				Name    string
				TaxBase int
			}{{"Eisenmark", 4900}, {"Fromande", 4800}}, "Needed": 4800, "Referee": "referee@pbem.localhost"},
		"treaty-proposed": map[string]any{"Proposer": "Eisenmark", "ID": "T1", "Title": "Peace", "Parties": "Eisenmark and Morgronskia",
			"Text": "Peace between us."},
		"treaty-ratified":  map[string]any{"ID": "T1", "Title": "Peace", "Parties": "Eisenmark and Morgronskia", "When": "at the start of May 1752"},
		"treaty-published": map[string]any{"ID": "T1", "Title": "Peace", "Parties": "Eisenmark and Morgronskia", "Text": "Peace.", "Turn": "May 1752"},
		"treaty-breach": map[string]any{"ID": "T1", "Title": "Peace", "Offender": "Eisenmark", "Aggrieved": "Morgronskia",
			"OffenderID": "eisenmark", "AggrievedID": "morgronskia", "Penalty": 200},
		"treaty-lifted": map[string]any{"ID": "T1", "Title": "Peace", "Offender": "Eisenmark", "Aggrieved": "Morgronskia"},
		"internal-error-referee": map[string]any{"ID": 7, "From": "a@b", "Received": "1 April 2026, 12:00 BST",
			"Detail": "runtime error: index out of range"},
	}
	for k, v := range authTemplateData {
		data[k] = v
	}
	for _, name := range Names() {
		d, ok := data[name]
		if !ok {
			t.Errorf("template %s has no test data here", name)
			continue
		}
		out, err := Render(name, d)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if strings.Contains(out, "<no value>") {
			t.Errorf("%s printed <no value>:\n%s", name, out)
		}
	}
	if _, err := Render("no-sheet", map[string]any{"Game": "syw"}); err == nil {
		t.Error("a missing field should be an error, not <no value>")
	}
	if out := Must("wrong-nation", map[string]any{"Named": "", "From": "a@b", "Registered": "Eisenmark, Fromande"}); strings.Contains(out, `""`) {
		t.Errorf("a sheet that names no nation is told it names \"\":\n%s", out)
	}
	if out := Must("request", data["request"]); !strings.Contains(out, "    the governor") {
		t.Errorf("indent did not indent every line:\n%s", out)
	}
}
