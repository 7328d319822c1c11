package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

func sheetFor(turn int, body string) string {
	return fmt.Sprintf("GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN %d\n%s\nEND\n", turn, body)
}

// TestCheck runs orders against the fixture game and compares what the
// checker says: "ok", "error: …" or "warning: …" (substrings of the first
// diagnostic of that severity on the orders' lines).
func TestCheck(t *testing.T) {
	tests := []struct {
		turn int
		in   string
		want string
	}{
		// forces
		{3, "MOVE E12 TO 1910", "error: no force E12; did you mean E1 or E2?"},
		{3, "MOVE F1 TO 1110", "error: F1 is not one of your forces: yours are named E and a number"},
		{3, "STANCE E4 ATTACK", "error: E4 is a fleet, and this is an order for land forces"},
		{3, "MOVE E2 TO 1910\nMOVE E2 TO 1812", "error: E2 already has a MOVE order on line 5"},
		{3, "MOVE E7 TO 1812\nSPLIT E1 AS E7 12 C infantry, general Keith", "ok"},
		{3, "MOVE E7 TO 1812\nSPLIT E1 AS E7 99 C infantry, general Keith", "error: E1 has 48 C infantry, so cannot split off 99"},
		// land movement
		{3, "MOVE E2 1810 1910", "ok"},
		{3, "MOVE E2 1810 2010", "error: 2010 is not next to 1810"},
		{3, "MOVE E3 TO 2206", "error: E3 has no general"},
		{3, "MOVE E2 TO 1910", "ok"},
		{3, "MOVE E2 TO 3314", "warning: this turn it gets to"},
		{3, "MOVE E2 1711 1712 1713 1714", "warning: it stops at"},
		{3, "MOVE E2 TO 0101", "error: 0101 is sea"},
		{3, "MOVE E1 2009", "error: E1 has guns, which cannot cross the river between 1910 and 2009"},
		{3, "MOVE E1 2010", "ok"},
		{3, "MOVE E1 1910 2010", "ok"}, // the path may begin where the force stands
		{3, "MOVE E1 1910", "error: 1910 is listed where the force already is"},
		{3, "MOVE E2 TO Königsfeld", "ok"},
		{3, "MOVE E2 TO KÖNIGSFELD", "ok"},
		{3, "MOVE E2 TO Kottwítz", "ok"},
		{3, "SPLIT E1 AS E7 12 C infantry, general Kéith", "ok"},
		{3, "MOVE E2 TO 1615", "error: 1615 is mountain"},
		{3, "MOVE E2 1711 1712 1713 1714 1715 1615", "error: 1615 is mountain"},
		// organisation
		{3, "SPLIT E1 AS E7 12 C infantry", "ok"},
		{3, "SPLIT E1 AS F7 12 C infantry", "error: a new force of Eisenmark is named E and a number, not F7"},
		{3, "SPLIT E1 AS E2 12 C infantry", "error: the force ID E2 is already in use"},
		{3, "SPLIT E1 12 B infantry", "error: E1 has 0 B infantry"},
		{3, "SPLIT E1 general Daun", "error: Daun is not with E1"},
		// The new force stands in E2's stack, whose general keeps it
		// above the minimum force size: the engine loses nothing.
		{3, "SPLIT E2 3 C infantry", "ok"},
		{3, "MERGE E3 INTO E4", "error: E3 and E4 are a fleet and a land force"},
		{3, "MERGE E2 INTO E1", "error: E2 is at 1710 (Neuruppen) and E1 at 1910 (Konigsfeld)"},
		{3, "ASSIGN Keith TO E5", "error: Keith is with E1 at 1910 (Konigsfeld), and E5 is at 1812 (Kottwitz)"},
		{3, "ASSIGN Daun TO E1", "error: no general or admiral \"Daun\""},
		{3, "ASSIGN Kieth TO E1", "error: no general or admiral \"Kieth\"; did you mean Keith?"},
		{3, "DETACH Keith", "ok"},
		{3, "GARRISON E3 Stettau", "ok"},
		{3, "GARRISON E2 Konigsfeld", "error: E2 is at 1710 (Neuruppen), not in Konigsfeld (1910): a garrison is set at the start of the turn"},
		{3, "FIELDWORKS E6 24", "ok"},
		{3, "FIELDWORKS E6 200", "error: E6 has 120 infantry figures, enough for 120\" of fieldworks"},
		{3, "FIELDWORKS E4 2", "error: E4 is a fleet"},
		// sieges
		{3, "BESIEGE E6 Dresna", "ok"},
		{3, "BESIEGE E2 Dresna", "error: E2 is at 1710 (Neuruppen), not in Dresna (2013)"},
		{3, "BESIEGE E1 Konigsfeld", "error: Konigsfeld is yours"},
		{3, "ASSAULT E6 Dresna WITH 100", "ok"},
		{3, "ASSAULT E6 Dresna WITH 90", "error: \"You must have at least 100 figures of infantry to assault a foreign city\""},
		{3, "ASSAULT E6 Dresna WITH 500", "error: E6 has 120 infantry figures, not 500"},
		{3, "ASSAULT E6 Dresna\nASSAULT E6 Dresna WITH 100", "error: Dresna already has an ASSAULT order on line 5"},
		{3, "BOMBARD E6 Dresna GUNS", "ok"},
		{3, "BOMBARD E2 Dresna GUNS", "error: E2 is at 1710"},
		// the sea
		{3, "EMBARK E3 ON E4", "ok"},
		{3, "EMBARK E2 ON E4", "error: E2 is at 1710 (Neuruppen) and E4 at 2205 (Stettau), and no move of this sheet brings them together"},
		{3, "SPLIT E4 AS E9 1 warship\nEMBARK E3 ON E9", "error: E9 has no transports"},
		{3, "SPLIT E3 AS E9 40 C infantry\nSPLIT E4 AS E8 1 transport\nEMBARK E9 ON E8", "ok"},
		{3, "SPLIT E4 AS E8 1 transport\nEMBARK E3 ON E8", "error: E3 needs 60 cargo points (60 infantry × 1), and E8's 1 transport carries 50"},
		{3, "SPLIT E6 AS E9 60 C infantry, general Zieten\nMOVE E9 TO Stettau\nEMBARK E9 ON E4", "error: E9 is at 2013 (Dresna) and E4 at 2205 (Stettau), and no move of this sheet brings them together"},
		{3, "MOVE E2 TO 3314\nBESIEGE E2 Odessk", "error: E2 ends its move at"},
		{3, "SAIL E4 S2 Danzburg", "ok"},
		{3, "SAIL E4 S2 S3 S6 Odessk", "warning: the voyage costs"},
		{3, "SAIL E4 S3", "error: 2205 (Stettau) does not open onto S3; it opens onto S2"},
		{3, "SAIL E4 S2 S9", "error: S9 does not border S2"},
		{3, "SAIL E4 S2 Amber Sea", "error: sea area S2 comes twice in a row: the step before already took the fleet there"},
		{3, "SAIL E4 Stettau", "error: 2205 (Stettau) is where the fleet already is"},
		{3, "SAIL E4 S2 Konigsfeld", "error: 1910 (Konigsfeld) is neither a port nor a good-holding hex"},
		{3, "SAIL E1 S2", "error: E1 is not a fleet"},
		{3, "EMBARK E3 ON E4\nSAIL E4 S2\nDEBARK E3 AT 2306", "ok"},
		{3, "EMBARK E3 ON E4\nSAIL E4 S2\nDEBARK E3", "error: E4 will be at sea in S2: say where E3 lands"},
		{3, "EMBARK E3 ON E4\nSAIL E4 S2\nDEBARK E3 AT 1910", "error: 1910 (Konigsfeld) is neither a port nor a good-holding hex"},
		{3, "DEBARK E2", "error: E2 is not aboard a fleet"},
		{3, "FLEET E4 AVOID", "ok"},
		{3, "REPAIR E4", "ok"},
		{3, "SUPPLY E-D1 TO fromande", "ok"},
		{3, "SUPPLY E-D2 TO fromande", "error: no depot E-D2; did you mean E-D1?"},
		{3, "SUPPLY E-D1 TO eisenmark", "error: that is your own nation"},
		{3, "WITHDRAW SUPPLY E-D1 FROM fromande", "warning: E-D1 does not supply fromande now"},
		{3, `SPECIAL "hire Swiss"`, "ok"},
		// phases
		{3, "BUY 24 C infantry AT Konigsfeld", "error: BUY is a year-end order, and this is a monthly turn (Turn 3, June 1752)"},
		{3, "FIELD ALL", "error: FIELD is a year-end order"},
		{7, "MOVE E2 TO 1910", "error: MOVE is an order for the monthly turns, and this is the year-end (Turn 7, year-end 1752)"},
		// year-end
		{7, "FIELD ALL\nBUY 24 C infantry AT Konigsfeld", "ok"},
		{7, "FIELD ALL\nBUY 24 A infantry AT Konigsfeld", "error: \"You cannot buy Grade A troops"},
		{7, "FIELD ALL\nBUY 24 D grenzer AT Konigsfeld", "error: Eisenmark may not buy Grenzlers"},
		{7, "FIELD ALL\nBUY 24 C grenzer AT Konigsfeld", "error: Eisenmark may not buy Grenzlers"},
		{7, "FIELD ALL\nBUY 2 warship AT Konigsfeld", "error: Konigsfeld is not a port"},
		{7, "FIELD ALL\nBUY 2 warship AT Stettau", "ok"},
		{7, "FIELD ALL\nBUY DEPOT AT Stettau ABOARD E4", "ok"},
		{7, "FIELD ALL\nBUY DEPOT AT Konigsfeld ABOARD E4", "error: E4 does not lie in Konigsfeld"},
		{7, "FIELD ALL\nBUY DEPOT AT Stettau ABOARD E1", "error: E1 has no transports to carry a depot"},
		{7, "FIELD ALL\nBUY 24 C infantry AT Valmont", "error: you do not control Valmont"},
		{7, "FIELD ALL\nBUY 24 C infantry AT Dresna", "error: you do not control Dresna"},
		{7, "FIELD ALL\nBUY GENERAL Keith AT Konigsfeld", "error: there is already a leader named Keith"},
		{7, "FIELD ALL\nBUY 600 B heavy-cavalry AT Konigsfeld", "warning: 600 B heavy-cavalry costs 12000 crowns; with the orders above the sheet would spend 13399, but you will hold 4000 at the year-end (treasury in Konigsfeld 2400 + taxes 1600): the order will be refused"},
		{7, "BUY 24 C infantry AT Konigsfeld", "warning: not fielded: E1, E2, E3, E4, E5, E6 and E-D1"},
		{7, "FIELD ALL\nFIELD E2", "error: E2 is fielded already"},
		{7, "FIELD E1\nFIELD E2\nFIELD E3\nFIELD E4\nFIELD E5\nFIELD E6\nFIELD DEPOT E-D1", "ok"},
		{7, "FIELD ALL\nDISBAND E5 12 D infantry", "ok"},
		{7, "FIELD ALL\nTRANSFER E1 2 field-gun TO fromande", "ok"},
		{7, "FIELD ALL\nTRANSFER E1 9 field-gun TO fromande", "error: E1 has 4 field-gun, so cannot transfer 9"},
		{7, "FIELD ALL\nTRANSFER GENERAL Keith TO fromande", "ok"},
		{7, "FIELD ALL\nTREASURY FROM Valmont 100 TO eisenmark", "error: you have not captured Valmont"},
		{7, "FIELD ALL\nTREASURY FROM Konigsfeld 100 TO eisenmark", "error: Konigsfeld is your own treasury, not a captured one"},
		{7, "FIELD ALL\nTEMPORARY CAPITOL Garzow", "error: you hold your capitol Konigsfeld"},
		// any time
		{3, "ATTEST T1", "ok"},
		{3, "ATTEST T2", "error: no treaty T2; did you mean T1?"},
		{3, "TREATY \"Pact\" PARTIES fromande, hispardia TEXT\nWe agree.\nENDTREATY", "error: Eisenmark is not among the treaty's parties"},
		{3, "TREATY \"Pact\" PARTIES eisenmark, hispardia TEXT\nWe agree.\nENDTREATY", "ok"},
		{3, "TREATY \"Pact\" PARTIES eisenmark, hispardia TEXT\nWe agree.", "error: the treaty's text has no ENDTREATY line"},
		{3, "PASSWORD CHANGE snuff", "ok"},
		{3, "PASSWORD CHANGE abc", "error: the new password is too short"},
		{7, "FIELD ALL\nREQUEST \"May I?\"", "ok"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			r := Check(sheetFor(tc.turn, tc.in), fixture(t, tc.turn))
			if r.Refused {
				t.Fatalf("refused: %+v", r.Diagnostics)
			}
			sev, want, _ := strings.Cut(tc.want, ": ")
			var got []string
			found := false
			for _, d := range r.Diagnostics {
				if d.Severity == Note {
					continue
				}
				got = append(got, d.Severity.String()+": "+d.Message)
				if d.Severity.String() == sev && strings.Contains(d.Message, want) {
					found = true
				}
			}
			if tc.want == "ok" {
				if r.HasErrors() || r.Count(Warning) > 0 {
					t.Fatalf("got %q", got)
				}
				return
			}
			if !found {
				t.Fatalf("got %q\nwant %s", got, tc.want)
			}
		})
	}
}

// TestRefusedOrderDoesNotBlockItsCorrection: only accepted orders count
// towards "one order of a kind per force", so a refused MOVE followed by a
// corrected one gives the corrected one, and the reply names one error.
func TestRefusedOrderDoesNotBlockItsCorrection(t *testing.T) {
	for _, body := range []string{
		"MOVE E1 2009\nMOVE E1 2010",
		"MOVE E2 TO 0101\nMOVE E2 TO 1910",
		"STANCE E2 ATACK\nSTANCE E9 ATTACK\nSTANCE E2 ATTACK",
	} {
		r := Check(sheetFor(3, body), fixture(t, 3))
		var got []string
		for _, d := range r.Diagnostics {
			got = append(got, fmt.Sprintf("line %d: %s", d.Line, d.Message))
		}
		if len(r.Orders.List) != 1 || strings.Contains(strings.Join(got, "\n"), "already has") {
			t.Errorf("%q: orders %v, messages %q", body, r.Orders.List, got)
		}
	}
}

// TestCheckHeader: sheets for another game, nation, password or turn are
// refused whole, and the reply reveals nothing of the game.
func TestCheckHeader(t *testing.T) {
	tests := []struct {
		name, sheet, want string
	}{
		{"wrong game", "GAME other\nNATION eisenmark\nPASSWORD tobacco\nTURN 3\nMOVE E2 TO 1910\nEND", `this sheet is for game "other"`},
		{"wrong turn", "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 2\nMOVE E2 TO 1910\nEND", "this sheet is for turn 2, but orders are now taken for Turn 3, June 1752; an old sheet sent again is refused"},
		{"wrong password", "GAME syw\nNATION eisenmark\nPASSWORD snuff\nTURN 3\nMOVE E2 TO 1910\nEND", "the password is not Eisenmark's"},
		{"no password", "GAME syw\nNATION eisenmark\nTURN 3\nMOVE E2 TO 1910\nEND", "the sheet has no PASSWORD line"},
		{"other nation", "GAME syw\nNATION fromande\nPASSWORD tobacco\nTURN 3\nMOVE E2 TO 1910\nEND", "the sheet is for Fromande, but it came from the address of Eisenmark"},
		{"unknown nation", "GAME syw\nNATION eisenmarck\nPASSWORD tobacco\nTURN 3\nEND", "no nation \"eisenmarck\" in this game; did you mean eisenmark?"},
		{"no turn", "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nMOVE E2 TO 1910\nEND", "the sheet has no TURN line"},
		{"bad turn", "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN three\nEND", "expected a turn number after TURN"},
		{"turn 0", "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 0\nEND", "this sheet is for turn 0, but orders are now taken for Turn 3, June 1752"},
		{"no sheet", "Dear referee, I attack at dawn.", "no order sheet found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Check(tc.sheet, fixture(t, 3))
			if !r.Refused || len(r.Orders.List) != 0 || r.ExitCode() != 1 {
				t.Fatalf("not refused: %+v", r)
			}
			var msgs []string
			for _, d := range r.Diagnostics {
				msgs = append(msgs, d.Message)
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("messages %q lack %q", msgs, tc.want)
			}
			if strings.Contains(r.Text(), "E2") && tc.name != "wrong game" {
				// Only the header is echoed: no word about forces.
				t.Errorf("refusal mentions forces:\n%s", r.Text())
			}
		})
	}
	// The nation may come from the sheet when the context does not know it.
	ctx := fixture(t, 3)
	ctx.Nation = ""
	r := Check(sheetFor(3, "MOVE E2 TO 1910"), ctx)
	if r.Refused || r.Nation != "eisenmark" || len(r.Orders.List) != 1 {
		t.Fatalf("%+v", r.Diagnostics)
	}
}

// TestAcceptedOrders: the good lines count even when others are bad, and
// Orders holds the engine orders with their lines.
func TestAcceptedOrders(t *testing.T) {
	r := Check(sheetFor(3, "MOVE E2 TO Konigsfeld\nSTANCE E9 ATTACK\nSTANCE E2 ATTACK"), fixture(t, 3))
	want := []engine.Order{
		engine.Move{At: engine.At{Line: 5}, Force: "E2", Dest: game.Hex{Col: 19, Row: 10}},
		engine.SetStance{At: engine.At{Line: 7}, Force: "E2", Stance: game.Attack},
	}
	if fmt.Sprint(r.Orders.List) != fmt.Sprint(want) || r.Orders.Nation != "eisenmark" || r.Orders.Turn != 3 {
		t.Fatalf("orders %+v", r.Orders)
	}
	if r.ExitCode() != 1 || r.Count(Error) != 1 {
		t.Fatalf("diagnostics %+v", r.Diagnostics)
	}
	if len(r.Receipt) != 10 {
		t.Fatalf("receipt %q", r.Receipt)
	}
}

// TestStrayLineHint: a line that is no order gets the hint to join it to the
// order above only when it follows that order directly; after a blank line
// (which always ends an order) the hint says how to end the orders instead.
func TestStrayLineHint(t *testing.T) {
	r := Check(sheetFor(3, "MOVE E2 TO 1910\nFritz\n\nFriedrich"), fixture(t, 3))
	hints := map[int]string{}
	for _, d := range r.Diagnostics {
		hints[d.Line] = d.Hint
	}
	if !strings.Contains(hints[6], "continues the order on line 5") {
		t.Errorf("line 6 hint %q", hints[6])
	}
	if strings.Contains(hints[8], "continues") || !strings.Contains(hints[8], "put a line END after your last order") {
		t.Errorf("line 8 hint %q", hints[8])
	}
}

// TestNoRulesetIsRefused: a sheet checked without a ruleset is refused with
// a message, never checked against a guessed edition.
func TestNoRulesetIsRefused(t *testing.T) {
	ctx := fixture(t, 1)
	ctx.Rules = nil
	ctx.VerifyPassword = nil
	r := Check("GAME syw\nNATION eisenmark\nTURN 1\nE1 HOLD\nEND\n", ctx)
	if !r.Refused || !strings.Contains(r.Text(), "names no ruleset") {
		t.Errorf("a sheet checked without a ruleset was not refused:\n%s", r.Text())
	}
}
