package parser

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseHeader: ParseHeader finds the same sheet as Parse, with the same
// header, on any mail — it is what the daemon uses to tell which text of a
// mail is a sheet and whose it is.
func FuzzParseHeader(f *testing.F) {
	for _, s := range seedSheets(f) {
		f.Add(s)
	}
	f.Add("Hello\n> GAME syw\n> NATION eisenmark\n> PASSWORD x\n> TURN 1\n> A1 MOVE TO 0412\n")
	f.Add("GAME syw\n\n# comment\nNATION eisenmark\nPASSWORD x\n\nTURN 1\nA1 MOVE\n")
	f.Add("GAME syw NATION eisenmark PASSWORD x TURN 1\n" + strings.Repeat("STANCE F1 ATTACK\n", 50) + "END\n")
	f.Fuzz(func(t *testing.T, mail string) {
		v := vocabForFuzz(t)
		full, head := Parse(mail, v), ParseHeader(mail, v)
		if !reflect.DeepEqual(full.Header, head.Header) {
			t.Fatalf("ParseHeader read the header\n%+v\nParse\n%+v", head.Header, full.Header)
		}
		if len(head.Statements) != 0 {
			t.Fatalf("ParseHeader read %d statements", len(head.Statements))
		}
	})
}

// TestParseHeaderReadsNoBody: ParseHeader reads the header of a sheet and
// nothing of its body, not even the body's mistakes (the daemon looks for the
// sheet in every text of a mail before checking one; BenchmarkBombMail in
// the daemon shows the cost).
func TestParseHeaderReadsNoBody(t *testing.T) {
	t.Parallel()
	mail := "GAME syw\nNATION eisenmark\nPASSWORD pw\nTURN 1\n" + strings.Repeat("STANCE F1 ATAK\n", 1000) + "END\n"
	sh := ParseHeader(mail, vocabForFuzz(t))
	if !sh.Header.Found || sh.Header.NationID != "eisenmark" || sh.Header.Password != "pw" || sh.Header.Turn != 1 {
		t.Fatalf("header not read: %+v", sh.Header)
	}
	if len(sh.Statements) != 0 || len(sh.Diagnostics) != 0 || sh.EndLine != 0 {
		t.Errorf("ParseHeader read the body: %d statements, %d diagnostics, END at %d", len(sh.Statements), len(sh.Diagnostics), sh.EndLine)
	}
}
