package parser

import (
	"strings"
	"testing"
)

// wrapSheet puts statements into a minimal sheet.
func wrapSheet(body string) string {
	return "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 3\n" + body + "\nEND\n"
}

// TestGrammar reads one statement at a time and compares its canonical form,
// or the error it gives.
func TestGrammar(t *testing.T) {
	v := NewVocabulary(loadFixtureMap(t), fixtureState(loadFixtureMap(t), 3))
	tests := []struct {
		in   string
		want string // canonical form, or "error: <substring>"
	}{
		// MOVE
		{"MOVE E2 1810 1910", "MOVE E2 1810 1910"},
		{"move e2 1810, 1910", "MOVE E2 1810 1910"},
		{"MOV E2 1810-1910", "MOVE E2 1810 1910"},
		{"MOVE E2 TO 1910", "MOVE E2 TO Konigsfeld"},
		{"MOVE E2 TO konigsfeld", "MOVE E2 TO Konigsfeld"},
		{"MOVE E2 TO Sankt Polt", `MOVE E2 TO "Sankt Polt"`},
		{`MOVE E2 TO "sankt polt"`, `MOVE E2 TO "Sankt Polt"`},
		{"MOVE E2 1810 Konigsfeld", "MOVE E2 1810 1910"},
		{"MOVE E2 VIA 1810 1910", "MOVE E2 1810 1910"},
		{"MOVE E2 TO Konigsfeldt", "error: no city \"Konigsfeldt\" on the map; did you mean Konigsfeld?"},
		{"MOVE E2", "error: expected the hexes of the march or TO and a destination, read the end of the line"},
		{"MOVE E2 181", "error: a hex is four digits"},
		{"MOVE 0812 0813", "error: expected the force to move such as E2, read \"0812\""},
		{"MOVE E2 TO 1910 please", "error: expected the end of the order after MOVE, read \"please\""},
		// STANCE and standing orders
		{"STANCE E2 ATTACK", "STANCE E2 ATTACK"},
		{"stance e2 def", "STANCE E2 DEFEND"},
		{"STANCE E2 ATACK", "error: expected ATTACK or DEFEND, read \"ATACK\"; did you mean ATTACK?"},
		{"STANCE E2", "error: expected ATTACK or DEFEND, read the end of the line"},
		{"RETREAT E2 IF ODDS 3:2", "RETREAT E2 IF ODDS 3:2"},
		{"RETREAT E2 IF 6:4", "RETREAT E2 IF ODDS 3:2"},
		{"RETREAT E2 IF OUTNUMBERED 2:1", "RETREAT E2 IF ODDS 2:1"},
		{"RETREAT E2 ALWAYS", "RETREAT E2 ALWAYS"},
		{"RETREAT E2 NEVER", "RETREAT E2 NEVER"},
		{"RETREAT E2 IF ODDS 3-2", "RETREAT E2 IF ODDS 3:2"},
		{"RETREAT E2 IF ODDS 3", "error: expected ':' between the two sides of the odds"},
		{"RETREAT E2 SOMETIMES", "error: expected ALWAYS, NEVER or IF, read \"SOMETIMES\""},
		{"PURSUE E2", "PURSUE E2"},
		{"NO PURSUE E2", "NO PURSUE E2"},
		{"ON CONTACT E2 STOP", "ON CONTACT E2 STOP"},
		{"on contact e2 cont", "ON CONTACT E2 CONTINUE"},
		{"SLOW ENEMY E2", "SLOW ENEMY E2"},
		{"SLOW E2", "SLOW ENEMY E2"},
		{"NO SLOW ENEMY E2", "NO SLOW ENEMY E2"},
		// organisation
		{"SPLIT E1 AS E7 24 C infantry, 12 B light-cavalry, 2 field-gun, 8 C gunners, general Keith",
			"SPLIT E1 AS E7 24 C infantry, 12 B light-cavalry, 8 C gunners, 2 field-gun, general Keith"},
		{"SPLIT E1 24 c inf and 6 b light cavalry general keith", "SPLIT E1 24 C infantry, 6 B light-cavalry, general Keith"},
		{"SPLIT E1 24 D grenzlers", "SPLIT E1 24 D grenzer"},
		{"SPLIT E4 1 warship, 2 transports, admiral Brommy", "SPLIT E4 1 warship, 2 transport, admiral Brommy"},
		{"SPLIT E4 1 damaged warship", "SPLIT E4 1 damaged-warship"},
		{"SPLIT E1 2 field-gun OF fromande", "SPLIT E1 2 field-gun OF fromande"},
		{"SPLIT E1 24 infantry", "error: expected a grade (A, B, C or D) before infantry"},
		{"SPLIT E1 24 C infantery", "error: read \"infantery\"; did you mean infantry?"},
		{"SPLIT E1 24 C light", "error: \"light\" could be light-infantry or light-cavalry"},
		{"SPLIT E1", "error: expected the units of the new force"},
		{"SPLIT E1 0 C infantry", "error: a count of 0"},
		{"MERGE E3 INTO E2", "MERGE E3 INTO E2"},
		{"MERGE E3 E2", "MERGE E3 INTO E2"},
		{"MERGE E3 WITH E2", "MERGE E3 INTO E2"},
		{"ASSIGN general Keith TO E2", "ASSIGN Keith TO E2"},
		{"ASSIGN keith TO E2", "ASSIGN Keith TO E2"},
		{"ASSIGN Keith E2", "error: expected TO, read \"E2\""},
		{"DETACH Keith", "DETACH Keith"},
		{"DETACH general Keith AS E9", "DETACH Keith AS E9"},
		{"GARRISON E3 Stettau", "GARRISON E3 Stettau"},
		{"GARRISON E3 IN Stettau", "GARRISON E3 Stettau"},
		{"FIELDWORKS E6 24", "FIELDWORKS E6 24"},
		{"FIELDWORKS E6 24 inches", "FIELDWORKS E6 24"},
		{"FIELDWORKS E6 0", "error: 0 inches of fieldworks"},
		// sieges
		{"BESIEGE E6 Dresna", "BESIEGE E6 Dresna"},
		{"MASK E6 Dresna", "MASK E6 Dresna"},
		{"ASSAULT E6 Dresna WITH 100", "ASSAULT E6 Dresna WITH 100"},
		{"ASSAULT E6 Dresna WITH 100 infantry", "ASSAULT E6 Dresna WITH 100"},
		{"ASSAULT E6 Dresna", "ASSAULT E6 Dresna WITH ALL"},
		{"ASSAULT E6 Dresna WITH ALL", "ASSAULT E6 Dresna WITH ALL"},
		{"BOMBARD E6 Dresna BREACH", "BOMBARD E6 Dresna BREACH"},
		{"BOMBARD E6 Dresna guns", "BOMBARD E6 Dresna GUNS"},
		{"BOMBARD E6 Dresna", "error: expected BREACH or GUNS, read the end of the line"},
		// the sea
		{"EMBARK E3 ON E4", "EMBARK E3 ON E4"},
		{"EMBARK E3 E4", "EMBARK E3 ON E4"},
		{"SAIL E4 S2 Danzburg", "SAIL E4 S2 Danzburg"},
		{"SAIL E4 s2 s3 morgrad", "SAIL E4 S2 S3 Morgrad"},
		{"SAIL E4 S2 2306", "SAIL E4 S2 2306"},
		{"SAIL E4 S2 Danzbrug", "error: no sea area or port \"Danzbrug\"; did you mean Danzburg?"},
		{"DEBARK E3", "DEBARK E3"},
		{"DEBARK E3 AT 2306", "DEBARK E3 AT 2306"},
		{"DEBARK E3 AT Danzburg", "DEBARK E3 AT Danzburg"},
		{"FLEET E4 AVOID", "FLEET E4 AVOID"},
		{"FLEET E4 seek", "FLEET E4 SEEK"},
		{"REPAIR E4", "REPAIR E4"},
		{"SUPPLY E-D1 TO fromande", "SUPPLY E-D1 TO fromande"},
		{"supply e-d1 to Fromande", "SUPPLY E-D1 TO fromande"},
		{"SUPPLY E-D1 TO fromage", "error: no nation \"fromage\" in this game; did you mean fromande?"},
		{"WITHDRAW SUPPLY E-D1 FROM fromande", "WITHDRAW SUPPLY E-D1 FROM fromande"},
		{`SPECIAL "Bribe the mayor of Dresna."`, `SPECIAL "Bribe the mayor of Dresna."`},
		{`SPECIAL bribe the mayor (discreetly)`, `SPECIAL "bribe the mayor (discreetly)"`},
		{`SPECIAL "the ""Old Dessauer"" march"`, `SPECIAL "the ""Old Dessauer"" march"`},
		{`SPECIAL "never closed`, "error: read a double quote that is never closed"},
		// year-end
		{"BUY 24 C infantry AT Konigsfeld", "BUY 24 C infantry AT Konigsfeld"},
		{"BUY 12 B heavy-cavalry AT Konigsfeld", "BUY 12 B heavy-cavalry AT Konigsfeld"},
		{"BUY 2 field-gun AT Garzow", "BUY 2 field-gun AT Garzow"},
		{"BUY 2 field guns AT Garzow", "BUY 2 field-gun AT Garzow"},
		{"BUY DEPOT AT Neuruppen", "BUY DEPOT AT Neuruppen"},
		{"BUY 1 depot AT Neuruppen", "BUY DEPOT AT Neuruppen"},
		{"BUY 2 depot AT Neuruppen", "error: depots are bought one at a time"},
		{"BUY 2 warship AT Stettau", "BUY 2 warship AT Stettau"},
		{"BUY warship 2 AT Stettau", "BUY 2 warship AT Stettau"},
		{"BUY transports 3 AT Stettau", "BUY 3 transport AT Stettau"},
		{"BUY GENERAL Schwerin AT Konigsfeld", "BUY GENERAL Schwerin AT Konigsfeld"},
		{`BUY GENERAL Schwerin "Kurt von Schwerin" AT Konigsfeld`, `BUY GENERAL Schwerin "Kurt von Schwerin" AT Konigsfeld`},
		{`BUY ADMIRAL "Hans Brommy" AT Stettau`, `BUY ADMIRAL Brommy "Hans Brommy" AT Stettau`},
		{"BUY 24 C infantry IN Konigsfeld", "error: expected AT, read \"IN\""},
		{"FIELD ALL", "FIELD ALL"},
		{"FIELD E2", "FIELD E2"},
		{"FIELD DEPOT E-D1", "FIELD DEPOT E-D1"},
		{"FIELD everything", "error: expected ALL, DEPOT and a depot, or a force such as E2"},
		{"DISBAND E5", "DISBAND E5"},
		{"DISBAND E5 12 D infantry", "DISBAND E5 12 D infantry"},
		{"TRANSFER E4 1 transport TO fromande", "TRANSFER E4 1 transport TO fromande"},
		{"TRANSFER E1 2 field-gun TO fromande", "TRANSFER E1 2 field-gun TO fromande"},
		{"TRANSFER DEPOT E-D1 TO fromande", "TRANSFER DEPOT E-D1 TO fromande"},
		{"TRANSFER GENERAL Keith TO fromande", "TRANSFER GENERAL Keith TO fromande"},
		{"TRANSFER admiral Brommy TO fromande", "TRANSFER ADMIRAL Brommy TO fromande"},
		{"TRANSFER E1 24 C infantry TO fromande", "error: infantry cannot be named here"},
		{"TREASURY FROM Valmont 500 TO eisenmark", "TREASURY FROM Valmont 500 TO eisenmark"},
		{"TREASURY FROM Valmont 500 crowns TO eisenmark", "TREASURY FROM Valmont 500 TO eisenmark"},
		{"TEMPORARY CAPITOL Garzow", "TEMPORARY CAPITOL Garzow"},
		{"TEMPORARY CAPITAL Garzow", "TEMPORARY CAPITOL Garzow"},
		// any time
		{"ATTEST T1", "ATTEST T1"},
		{"attest t1", "ATTEST T1"},
		{`REQUEST "May I hire Swiss mercenaries?"`, `REQUEST "May I hire Swiss mercenaries?"`},
		{"PASSWORD CHANGE snuffbox", "# PASSWORD CHANGE accepted (the new password is not repeated here)"},
		{"PASSWORD CHANGE", "error: expected the new password"},
		// keywords
		{"MOVVE E2 TO 1910", "error: expected an order keyword, read \"MOVVE\"; did you mean MOVE?"},
		{"TRE E2", "error: \"TRE\" could be TREASURY or TREATY"},
		{"ASS E2", "error: \"ASS\" could be ASSIGN or ASSAULT"},
		{"TURN 4", "error: TURN is given twice in the header"},
		{"MOVE E2 TO 1910\nTURN 4", "error: TURN belongs to the header"},
		{"Please find my orders", "error: expected an order keyword such as MOVE or STANCE, read \"Please\""},
		{"MOVE E2 TO 1910 # to the capital", "MOVE E2 TO Konigsfeld"},
		{"MOVE E2 1810 1910.", "MOVE E2 1810 1910"},
		{"STANCE E2 ATTACK (!)", "error: expected the end of the order after STANCE, read \"(\""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sh := Parse(wrapSheet(tc.in), v)
			var errs []string
			for _, d := range sh.Diagnostics {
				if d.Severity == Error {
					errs = append(errs, d.Message)
				}
			}
			if strings.HasPrefix(tc.want, "error: ") {
				want := strings.TrimPrefix(tc.want, "error: ")
				if len(errs) != 1 || !strings.Contains(errs[0], want) {
					t.Fatalf("errors %q, want one containing %q", errs, want)
				}
				if want := 5 + strings.Count(tc.in, "\n"); sh.Diagnostics[0].Line != want {
					t.Errorf("error on line %d, want %d", sh.Diagnostics[0].Line, want)
				}
				return
			}
			if len(sh.Diagnostics) > 0 || len(sh.Statements) != 1 {
				t.Fatalf("diagnostics %+v, %d statements", sh.Diagnostics, len(sh.Statements))
			}
			if got := FormatStatement(&sh.Statements[0], v); got != tc.want {
				t.Errorf("canonical %q, want %q", got, tc.want)
			}
		})
	}
}
