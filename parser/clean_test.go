package parser

import (
	"strings"
	"testing"
)

// TestHygiene feeds the checker each thing mail clients and people do to
// text, and checks the orders still read the same.
func TestHygiene(t *testing.T) {
	v := NewVocabulary(loadFixtureMap(t), fixtureState(loadFixtureMap(t), 3))
	const want = "MOVE E2 TO Konigsfeld\nSTANCE E2 ATTACK\nSPECIAL \"a - b 'c'\"\n"
	plain := "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 3\nMOVE E2 TO Konigsfeld\nSTANCE E2 ATTACK\nSPECIAL \"a - b 'c'\"\nEND\n"
	tests := []struct {
		name string
		mail string
		want string // the statements' canonical form; "" means want
		diag string // a diagnostic expected (substring), "" for none
	}{
		{name: "plain", mail: plain},
		{name: "BOM", mail: "\uFEFF" + plain},
		{name: "CRLF", mail: strings.ReplaceAll(plain, "\n", "\r\n")},
		{name: "lone CR", mail: strings.ReplaceAll(plain, "\n", "\r")},
		{name: "tabs", mail: strings.ReplaceAll(plain, " ", "\t")},
		{name: "non-breaking and other Unicode spaces", mail: strings.NewReplacer("MOVE ", "MOVE\u00A0", "STANCE ", "STANCE\u2003", "TO ", "TO\u202F").Replace(plain)},
		{name: "smart quotes and dashes", mail: strings.ReplaceAll(strings.ReplaceAll(plain, `"a - b 'c'"`, "\u201Ca \u2013 b \u2018c\u2019\u201D"), "", "")},
		{name: "em dash", mail: strings.ReplaceAll(plain, `"a - b 'c'"`, "\u201Ca \u2014 b \u2018c\u2019\u201D")},
		{name: "trailing spaces", mail: strings.ReplaceAll(plain, "\n", "   \n")},
		{name: "mixed case", mail: strings.NewReplacer("MOVE E2 TO Konigsfeld", "Move e2 to KONIGSFELD", "STANCE E2 ATTACK", "stance E2 attack", "GAME", "game", "END", "end").Replace(plain)},
		{name: "abbreviations", mail: strings.NewReplacer("STANCE E2 ATTACK", "STA E2 ATT").Replace(plain)},
		{name: "greeting before, junk after END", mail: "Dear Referee,\n\nmy orders:\n\n" + plain + "\nYours,\nFritz\nMOVE E9 TO 0101\n"},
		{name: "quoted once", mail: "On Monday the referee wrote:\n" + quoteAll(plain, "> ")},
		{name: "quoted twice", mail: "On Monday X wrote:\n> On Sunday Y wrote:\n" + quoteAll(plain, "> > ")},
		{name: "quoted without spaces", mail: quoteAll(plain, ">>")},
		{name: "typing inside the quoted template",
			mail: "> GAME syw\n> NATION eisenmark\n> PASSWORD tobacco\n> TURN 3\nMOVE E2 TO Konigsfeld\nSTANCE E2 ATTACK\n> SPECIAL \"a - b 'c'\"\n> END\n"},
		{name: "old sheet quoted below the new one", mail: plain + "\nOn Monday you wrote:\n" + quoteAll(strings.ReplaceAll(plain, "ATTACK", "DEFEND"), "> ")},
		{name: "old sheet quoted above the new one", mail: "On Monday you wrote:\n" + quoteAll(strings.ReplaceAll(plain, "ATTACK", "DEFEND"), "> ") + "\n" + plain},
		{name: "signature without END", mail: strings.Replace(plain, "END\n", "-- \nFritz, King\nMOVE E9 TO 0101\n", 1), diag: "no END line: the orders were read up to the signature"},
		{name: "signature after END", mail: plain + "-- \nFritz\n"},
		{name: "no END", mail: strings.Replace(plain, "END\n", "", 1), diag: "no END line: the orders were read to the end of the mail"},
		{name: "one-line header", mail: "GAME syw NATION eisenmark PASSWORD tobacco TURN 3\nMOVE E2 TO Konigsfeld\nSTANCE E2 ATTACK\nSPECIAL \"a - b 'c'\"\nEND\n"},
		{name: "header with colons", mail: strings.NewReplacer("GAME ", "Game: ", "NATION ", "Nation: ", "TURN ", "Turn: ").Replace(plain)},
		{name: "header with spaced and glued colons", mail: strings.NewReplacer("GAME ", "Game:", "NATION ", "Nation :  ", "PASSWORD ", "PASSWORD : ", "TURN ", "Turn : ").Replace(plain)},
		{name: "one-line header with colons", mail: strings.Replace(plain, "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 3\n", "GAME: syw NATION: eisenmark PASSWORD: tobacco TURN:3\n", 1)},
		{name: "city with an accent the map lacks", mail: strings.Replace(plain, "TO Konigsfeld", "TO Königsfeld", 1)},
		{name: "Windows-1252 punctuation decoded as ISO-8859-1", mail: strings.Replace(plain, `"a - b 'c'"`, "\u0093a \u0096 b \u0091c\u0092\u0094", 1)},
		{name: "Outlook reply without END", mail: strings.Replace(plain, "END\n", "\n-----Original Message-----\nFrom: Referee\nSent: Monday\nSubject: turn 3\n\nGAME syw\nNATION eisenmark\nTURN 3\nMOVE E9 TO 0101\n", 1),
			diag: "no END line: the orders were read up to the quoted mail that starts on line 9"},
		{name: "new Outlook reply without END", mail: strings.Replace(plain, "END\n", "________________________________\nFrom: Referee <ref@example.org>\nSent: Monday\n", 1),
			diag: "no END line: the orders were read up to the quoted mail that starts on line 8"},
		{name: "attribution line wrapped, no END", mail: strings.Replace(plain, "END\n", "\nOn Mon, 2 Jun 2025 at 10:00, Referee <ref@example.org>\nwrote:\n> GAME syw\n> MOVE E9 TO 0101\n", 1),
			diag: "no END line: the orders were read up to the quoted mail that starts on line 9"},
		{name: "interleaved reply: quoted report lines between orders", mail: strings.Replace(plain, "STANCE E2 ATTACK\n", "> E2 stands at Neuruppen with 48 C infantry.\n> E1 is at Konigsfeld.\nSTANCE E2 ATTACK\n", 1)},
		{name: "quoted order between orders", mail: strings.Replace(plain, "STANCE E2 ATTACK\n", "> MOVE E9 TO 0101\nSTANCE E2 ATTACK\n", 1),
			diag: "line 6 is quoted from an earlier mail (it starts with >), so it was not read"},
		{name: "whole sheet indented", mail: quoteAll(plain, "    ")},
		{name: "comments and blank lines", mail: strings.Replace(plain, "STANCE E2 ATTACK\n", "\n# the cavalry leads\nSTANCE E2 ATTACK   # ho!\n\n", 1)},
		{name: "backslash continuation", mail: strings.Replace(plain, "MOVE E2 TO Konigsfeld", "MOVE E2 \\\nTO Konigsfeld", 1)},
		{name: "indented continuation", mail: strings.Replace(plain, "MOVE E2 TO Konigsfeld", "MOVE E2\n   TO Konigsfeld", 1)},
		{name: "wrapped before TO", mail: strings.Replace(plain, "MOVE E2 TO Konigsfeld", "MOVE E2\nTO Konigsfeld", 1)},
		{name: "wrapped quoted text", mail: strings.Replace(plain, `SPECIAL "a - b 'c'"`, "SPECIAL \"a -\nb 'c'\"", 1)},
		{name: "hard wrap anywhere", mail: strings.Replace(plain, "MOVE E2 TO Konigsfeld\n", "MOVE E2 TO\nKonigsfeld\n", 1)},
		{name: "format=flowed leftovers", mail: strings.Replace(plain, "MOVE E2 TO Konigsfeld\n", "MOVE E2 TO \nKonigsfeld\n", 1)},
		{name: "zero-width and soft hyphen", mail: strings.Replace(plain, "STANCE", "STAN\u00ADCE\u200B", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := Parse(tc.mail, v)
			var got strings.Builder
			for i := range sh.Statements {
				got.WriteString(FormatStatement(&sh.Statements[i], v) + "\n")
			}
			w := tc.want
			if w == "" {
				w = want
			}
			if tc.diag == "" {
				for _, d := range sh.Diagnostics {
					t.Errorf("unexpected: line %d: %s", d.Line, d.Message)
				}
			} else if len(sh.Diagnostics) == 0 || !strings.Contains(sh.Diagnostics[0].Message, tc.diag) {
				t.Errorf("diagnostics %+v, want one containing %q", sh.Diagnostics, tc.diag)
			}
			if got.String() != w {
				t.Errorf("read\n%s\nwant\n%s", got.String(), w)
			}
			if !sh.Header.Found || sh.Header.Turn != 3 || sh.Header.NationID != "eisenmark" || sh.Header.Password != "tobacco" {
				t.Errorf("header %+v", sh.Header)
			}
		})
	}
}

func quoteAll(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestHardWrapError: a long order hard-wrapped where no rule joins it gives a
// clear error on each half, saying how to continue a line.
func TestHardWrapError(t *testing.T) {
	v := NewVocabulary(loadFixtureMap(t), fixtureState(loadFixtureMap(t), 3))
	sh := Parse(wrapSheet("SPLIT E1 AS E7 24 C infantry\nlight-cavalry"), v)
	if len(sh.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v", sh.Diagnostics)
	}
	d := sh.Diagnostics[0]
	if d.Line != 6 || !strings.Contains(d.Hint, "continues the order on line 5") {
		t.Errorf("got line %d %q / %q", d.Line, d.Message, d.Hint)
	}
}

// TestNoSheet: a mail without a header is answered with how to write one.
func TestNoSheet(t *testing.T) {
	sh := Parse("Dear referee,\nI shall attack at dawn.\n", nil)
	if sh.Header.Found || len(sh.Diagnostics) != 1 || !strings.Contains(sh.Diagnostics[0].Message, "no order sheet found") {
		t.Fatalf("%+v", sh)
	}
	// "Game on!" is not a header.
	sh = Parse("Game on, my friend!\n\nGAME syw\nNATION eisenmark\nTURN 3\nEND\n", nil)
	if !sh.Header.Found || sh.Header.Line != 3 {
		t.Fatalf("header at %d", sh.Header.Line)
	}
}
